"""Replaying saved game records trick by trick.

The score screen saves a hand's record (the engine's JSON format) into the records folder;
:class:`ReplayPickerScene` lists them and :class:`ReplayScene` steps through one: every
hand open, the trick on the table with its winner, the piles and points so far.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from briscola.engine import ReplayError, Rules, Signalled, Trick, parse_json
from briscola.game.record import RecordSession, record_players
from briscola.game.session import made_for_people
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.sprites import CardRenderer, CardSprite
from briscola.gui.render.tween import Tweener
from briscola.gui.scene import Scene
from briscola.gui.table.board import Board
from briscola.gui.table.coach import place
from briscola.gui.table.director import Captions
from briscola.gui.table.hud import hand_boxes, plate_boxes
from briscola.gui.table.painter import TablePainter
from briscola.gui.table.plates import draw_labels
from briscola.gui.table.signals import draw_signal_log
from briscola.gui.widgets import Button, WidgetGroup, draw_panel, fit_text, scaled_px
from briscola.storage import paths
from briscola.storage.files import atomic_write_json, clean_folder, clean_text
from briscola.text.i18n import _
from briscola.text.labels import means_you, trick_of
from briscola.text.score import deal_check

if TYPE_CHECKING:
    from briscola.gui.scene import Services

log = logging.getLogger(__name__)
PAGE = 6
#: A hand's record is a few kilobytes; anything far larger is not one.
MAX_RECORD_BYTES = 1_000_000
#: Seconds between tricks when the replay plays itself.
AUTOPLAY_STEP = 1.6


@dataclass
class RecordEntry:
    path: Path
    doc: dict[str, Any]
    #: Seats at the table (from the record's rules).
    players: int = 2

    @property
    def title(self) -> str:
        """Date, game, players and score (built when shown: the language may change)."""
        from briscola.text.labels import preset_label

        doc = self.doc
        result = doc.get("result")
        points = result.get("side_points") if isinstance(result, dict) else None
        date = clean_text(_meta(doc).get("date", ""), 16).replace("T", " ")
        score = " – ".join(str(p) for p in points) if isinstance(points, list) else ""
        game = preset_label(str(doc["rules"].get("preset", "")))
        return f"{date}  {game}  {' / '.join(_names(doc, self.players))}  {score}".strip()


def _meta(doc: dict[str, Any]) -> dict[str, Any]:
    """The record's ``meta`` when it is an object: meta is free-form, anything else is
    ignored."""
    meta = doc.get("meta")
    return meta if isinstance(meta, dict) else {}


def _names(doc: dict[str, Any], count: int | None = None) -> list[str]:
    """A name per seat (``count`` seats, else as many as the rules have): from
    ``meta.players`` (names or ``{"name": ...}``) where usable, else "Seat n"."""
    players = _meta(doc).get("players")
    if not isinstance(players, list):
        players = []
    names = [
        clean_text(p.get("name", "?") if isinstance(p, dict) else p, 24) or "?" for p in players
    ]
    if count is None:
        try:
            count = Rules.from_dict(doc["rules"]).players
        except (KeyError, ValueError):
            count = len(names)
    names = names[:count]
    while len(names) < count:
        names.append(_("Seat {n}").format(n=len(names) + 1))
    return names


def review_seat(doc: dict[str, Any]) -> int | None:
    """The seat whose cards a review of ``doc`` grades: the seat of a review kept in it,
    else the record's only human player; None when neither is known."""
    kept = doc.get("review")
    first = kept[0] if isinstance(kept, list) and kept else kept
    if isinstance(first, dict) and isinstance(first.get("seat"), int):
        return int(first["seat"])
    players = _meta(doc).get("players")
    if not isinstance(players, list):
        return None
    humans = [i for i, p in enumerate(players) if isinstance(p, dict) and p.get("kind") == "human"]
    return humans[0] if len(humans) == 1 else None


def computer_signals(doc: dict[str, Any], signals: Sequence[Signalled]) -> frozenset[Signalled]:
    """Of the record's partner ``signals``, those that a computer made for a person
    (``meta``'s ``signalled_by`` and ``players``, where usable: a record without them has
    none)."""
    meta = _meta(doc)
    players = meta.get("players")
    people = [
        i
        for i, p in enumerate(players if isinstance(players, list) else [])
        if isinstance(p, dict) and p.get("kind") == "human"
    ]
    return made_for_people(signals, meta.get("signalled_by"), people)


def load_entries(folder: Path | None = None) -> list[RecordEntry]:
    """Saved records, newest first; files that are not records that can be replayed are
    skipped (and logged), whatever they hold."""
    folder = folder or paths.records_dir()
    clean_folder(folder)  # what a save killed half-way left behind
    found = []
    try:  # the records saved by hand, and the recent hands kept by themselves
        for path in [*folder.glob("*.json"), *(folder / "recent").glob("*.json")]:
            try:
                found.append((path.stat().st_mtime, path))
            except OSError:
                continue
    except OSError as exc:
        log.warning("cannot list the records in %s: %s", folder, exc)
    entries = []
    for _mtime, path in sorted(found, key=lambda item: item[0], reverse=True):
        try:
            with open(path, "rb") as source:  # at most one byte more than allowed
                doc = parse_json(source.read(MAX_RECORD_BYTES + 1), max_chars=MAX_RECORD_BYTES)
            players = record_players(doc)
        except (OSError, ValueError) as exc:
            log.warning("skipping record %s: %s", path, exc)
            continue
        entries.append(RecordEntry(path, doc, players))
    return entries


class ReplayPickerScene(Scene):
    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.entries = load_entries()
        self.page = 0
        self.group = WidgetGroup()
        self.back = Button(lambda: _("Back"), app.pop, name="back")
        self.prev = Button(lambda: _("Previous"), lambda: self._turn(-1), name="prev")
        self.next = Button(lambda: _("Next"), lambda: self._turn(1), name="next")
        self._rebuild()

    def _turn(self, step: int) -> None:
        pages = max(1, (len(self.entries) + PAGE - 1) // PAGE)
        self.page = (self.page + step) % pages
        self._rebuild()
        self.on_resize(self.app.size)

    def _rebuild(self) -> None:
        self.rows: list[Button] = []
        for entry in self.entries[self.page * PAGE : (self.page + 1) * PAGE]:
            self.rows.append(
                Button(
                    functools.partial(getattr, entry, "title"),
                    functools.partial(self.open, entry),
                    name="record",
                )
            )
        self.group = WidgetGroup([*self.rows, self.prev, self.next, self.back])
        self.prev.visible = self.next.visible = len(self.entries) > PAGE
        self.group.keyboard_focus = True

    def open(self, entry: RecordEntry) -> None:
        try:
            self.app.push(ReplayScene(self.app, entry.doc, entry.path))
        except ReplayError as exc:
            self.app.notify(_("This record cannot be replayed: {reason}").format(reason=exc))

    def px(self, value: float) -> int:
        """A design size in pixels: the App's scale, as far as a page of records and the
        buttons under it fit the window's height."""
        return scaled_px(value, min(self.app.ui_scale, self.app.size[1] / 540))

    def on_resize(self, size: tuple[int, int]) -> None:
        px = self.px
        w, h = size
        width = min(w - px(80), px(900))
        x = (w - width) // 2
        y = px(130)
        for row in self.rows:
            row.rect = pygame.Rect(x, y, width, px(46))
            y += px(54)
        bottom = h - px(70)
        self.prev.rect = pygame.Rect(x, bottom, px(160), px(44))
        self.next.rect = pygame.Rect(x + px(170), bottom, px(160), px(44))
        self.back.rect = pygame.Rect(x + width - px(160), bottom, px(160), px(44))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return
        self.group.handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        px = self.px
        app.draw_backdrop(surface)
        w, _h = surface.get_size()
        title = app.assets.text(_("Replay a game"), px(40), app.theme.accent, bold=True)
        surface.blit(title, title.get_rect(midtop=(w // 2, px(30))))
        if not self.entries:
            lines = [
                _("No saved games yet."),
                _("Save a hand from the score screen; it will appear here."),
                str(paths.records_dir()),
            ]
            y = px(160)
            for line in lines:
                size = fit_text(app.assets, line, px(22), w - px(60))
                text = app.assets.text(line, size, app.theme.text)
                surface.blit(text, text.get_rect(midtop=(w // 2, y)))
                y += px(40)
        self.group.draw(surface, app.assets, app.theme)


class ReplayScene(Scene):
    """Steps through a record: Left/Right (or the buttons) move trick by trick."""

    def __init__(self, app: Services, doc: dict[str, Any], path: Path | None = None) -> None:
        super().__init__(app)
        self.doc = doc
        self.path = path
        # The table's own board and painter show the record (every hand open).
        self.session = RecordSession(doc, ())
        rules = self.session.rules
        self.names = _names(doc, rules.players)
        self.session.name_seats(self.names)
        self.by_computer = computer_signals(doc, self.session.all_signals)
        self.tricks: tuple[Trick, ...] = self.session.tricks
        self.index = 0
        self.autoplay = False
        self.clock = 0.0
        self.layout = TableLayout(app.size, rules.players, app.settings.ui_scale)
        self.renderer = CardRenderer(app.assets)
        self.board = Board(rules, self.layout, Tweener())
        self.painter = TablePainter(app, self.session, self.board, Captions(), self.renderer)
        self._shown = -1
        #: Where the status line was placed, for which trick, text size and window.
        self._status_at: tuple[tuple[int, tuple[int, int], int, int], pygame.Rect] | None = None
        self.back = Button(lambda: _("Back"), app.pop, name="back")
        self.prev = Button(lambda: _("Previous trick"), lambda: self.step(-1), name="prev")
        self.play = Button(
            lambda: _("Pause") if self.autoplay else _("Play"), self.toggle, name="play"
        )
        self.next = Button(lambda: _("Next trick"), lambda: self.step(1), name="next")
        self.group = WidgetGroup([self.prev, self.play, self.next, self.back])
        self.review_seat = review_seat(doc)
        self.review_button = Button(lambda: _("Review"), self.review, name="review")
        if self.review_seat is not None:
            self.group.widgets.append(self.review_button)
        self.group.keyboard_focus = True
        self.group.focus_widget(self.next)

    def review(self) -> None:
        """The coach's review of the player's cards: the one kept in the record, or made
        now and then kept in the record's file."""
        if self.review_seat is not None:
            self.app.open("review", record=self.doc, seat=self.review_seat, keep=self._keep)

    def _keep(self, _review: object) -> None:
        if self.path is None:
            return
        try:
            atomic_write_json(self.path, self.doc)
        except OSError as exc:
            self.app.notify(
                _("Could not save the record: {error}").format(error=exc.strerror or exc)
            )

    def step(self, direction: int) -> None:
        self.index = max(0, min(len(self.tricks), self.index + direction))
        self.app.audio.play("play", 0.5)

    def toggle(self) -> None:
        self.autoplay = not self.autoplay
        self.clock = 0.0

    def on_resize(self, size: tuple[int, int]) -> None:
        rules = self.session.rules
        self.layout = TableLayout(size, rules.players, self.app.settings.ui_scale)
        self.board.layout = self.layout
        self._shown = -1
        lay = self.layout
        self.renderer.configure(
            self.app.settings.deck_style,
            self.app.settings.back,
            {lay.card_w, lay.trick_w, lay.small_w, lay.pile_w, lay.stock_w},
        )
        px = self.app.px
        w, h = size
        bw, bh = px(150), px(36)
        left = w - 2 * bw - px(24)
        top = h - 2 * bh - px(22)
        for i, button in enumerate((self.prev, self.next, self.play, self.back)):
            button.rect = pygame.Rect(
                left + (i % 2) * (bw + px(8)), top + (i // 2) * (bh + px(8)), bw, bh
            )
        self.review_button.rect = pygame.Rect(left, top - bh - px(8), 2 * bw + px(8), bh)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
                return
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.step(-1 if event.key == pygame.K_LEFT else 1)
                return
        self.group.handle_event(event)

    def next_frame_in(self) -> float | None:
        return max(0.0, AUTOPLAY_STEP - self.clock) if self.autoplay else None

    def update(self, dt: float) -> None:
        if self.autoplay:
            self.clock += dt
            if self.clock >= AUTOPLAY_STEP:
                self.clock = 0.0
                if self.index >= len(self.tricks):
                    self.autoplay = False
                else:
                    self.step(1)

    def _lay_out(self) -> None:
        """The board as it stands before trick ``index`` (that trick on the table)."""
        if self._shown == self.index:
            return
        self._shown = self.index
        session = self.session
        session.go_to(self.index)
        # Each name with its points so far, as the replay always showed them; no piles (the
        # buttons take their corner).
        session.name_seats([f"{n} · {p}" for n, p in zip(self.names, session.points, strict=False)])
        lay_out_trick(self.board, session, self.app.theme.accent)
        self.board.piles = {}

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        px = app.px
        lay = self.layout
        self._lay_out()
        self.painter.draw_cards(surface, set(), None)
        draw_labels(self.painter, surface, None, False)
        trick = self.tricks[self.index] if self.index < len(self.tricks) else None
        total = len(self.tricks)
        if trick is not None:
            name = self.names[trick.winner]
            status = trick_of(self.index + 1, total, name, trick.points, means_you(name))
        elif self.session.finished:
            score = " – ".join(str(p) for p in self.session.final_points)
            status = _("End of the hand: {score}").format(score=score)
            checked = deal_check(self.doc)  # an online hand's proof (docs/fairness.md)
            if checked is not None:
                status = f"{status} · {checked[0]}"
        else:  # a record of a hand that was stopped (a forfeit in the arena)
            score = " – ".join(str(p) for p in self.session.final_points)
            status = _("End of the record (the hand was not finished): {score}").format(score=score)
            if self.session.unseen:  # a guest's game kept it when its table ended
                status = _("Cut short at {score} · unseen cards face down").format(score=score)
        box = int(lay.w * 0.3)
        size = fit_text(app.assets, status, px(20), box, bold=True)
        text = app.assets.text(status, size, app.theme.accent, bold=True)
        panel = self._status_panel(text.get_rect().inflate(px(24), px(10)).size)
        draw_panel(surface, panel, app.theme, radius=panel.h // 2)
        surface.blit(text, text.get_rect(center=panel.center))
        self.group.draw(surface, app.assets, app.theme)
        signals = self.session.signals
        if signals:  # the hand's signals so far (issue 25)
            top = min(button.rect.top for button in self.group.widgets if button.visible)
            corner = (lay.w - px(12), top - px(8))
            draw_signal_log(
                surface, self.painter, signals, self.names, None, corner, self.by_computer
            )

    def _status_panel(self, size: tuple[int, int]) -> pygame.Rect:
        """Where the trick's line goes: right of the trick if that covers no card, name or
        button (five or six seats put a hand there), else the first free place."""
        lay, px = self.layout, self.app.px
        key = (self.index, size, lay.w, lay.h)
        if self._status_at is None or self._status_at[0] != key:
            obstacles = [
                sprite.rect().inflate(px(8), px(8)) for sprite, _ in self.board.draw_order()
            ]
            obstacles += [box.inflate(px(8), px(8)) for box in hand_boxes(lay)]
            obstacles += plate_boxes(lay, px(160), px(8))
            obstacles += [button.rect.inflate(px(8), px(8)) for button in self.group.widgets]
            right = (round(lay.w - size[0] / 2 - px(24)), round(lay.centre[1] + lay.card_h * 0.2))
            spots = [("center", right), ("topright", (lay.w - px(12), px(12)))]
            screen = pygame.Rect(0, 0, lay.w, lay.h)
            self._status_at = (key, place(size, spots, obstacles, screen, px(12)))
        return self._status_at[1].copy()


def lay_out_trick(board: Board, session: RecordSession, glow: tuple[int, int, int]) -> None:
    """``board`` showing the moment of ``session`` with every hand open and, when there is
    one, the next trick on the table, its winning card glowing in ``glow``."""
    trick = session.trick
    board.open_hands = True
    board.rebuild(session.view(), 0)
    on_table = set(trick.cards) if trick is not None else set()
    unseen = session.unseen  # (a guest's record of a hand cut short: face down)
    board.hands = [
        [CardSprite(None if card in unseen else card) for card in hand if card not in on_table]
        for hand in session.hands
    ]
    board.table = []
    if trick is not None:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            sprite = CardSprite(card)
            sprite.glow = glow if seat == trick.winner else None
            board.table.append((seat, sprite))
    board.settle(0)
