"""Partner signals at the table (:mod:`briscola.engine.signals`): the signal bar, the faces
beside the names, the hand's log of signals and the first-time tip.

* The **bar** (bottom right): one face per signal, shown while the player at the screen may
  signal (on their turn, or between tricks, once a trick). A click or F1 to F8 sends it.
* A **bubble** beside a signaller's name plate shows the face and its word for a few
  seconds (the director puts it in :attr:`Captions.signals` when the event arrives; only
  the seats allowed to see a signal ever receive it).
* The **log** (above the bar) lists the hand's signals this seat has seen; a replay shows
  the log of the record (:func:`draw_signal_log`).
* The **tip**: the first table with signals on says how to make them (once; the settings
  keep ``signals_tip_seen``).

Everything drawn here is noted in the painter's footprint (:meth:`TablePainter.mark`), so
partial frames redraw it like the other chrome.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

import pygame

from briscola.engine import Signal, Signalled, signal_kinds, view_signals
from briscola.game.session import TableSession, moved_on
from briscola.gui.render.assets import CARD_RATIO
from briscola.gui.render.segni import signal_icon
from briscola.gui.table.board import Board
from briscola.gui.table.coach import place
from briscola.gui.table.director import Captions
from briscola.gui.table.hud import hand_boxes, plate_boxes
from briscola.gui.widgets import rounded
from briscola.text.i18n import _
from briscola.text.signals import signal_label, signal_log_line, signals_tip

if TYPE_CHECKING:
    from briscola.gui.scene import Services
    from briscola.gui.table.painter import TablePainter

__all__ = ["SIGNAL_KEYS", "SignalBar", "draw_signal_log", "log_size"]

#: The keys of the bar's faces, in order.
SIGNAL_KEYS = (
    pygame.K_F1,
    pygame.K_F2,
    pygame.K_F3,
    pygame.K_F4,
    pygame.K_F5,
    pygame.K_F6,
    pygame.K_F7,
    pygame.K_F8,
)
#: Lines of the log shown at most (the latest).
LOG_LINES = 4
#: Seconds the first-time tip stays.
TIP_SECONDS = 9.0


def latest_signals(signals: Sequence[Signalled], lines: int = LOG_LINES) -> list[Signalled]:
    """The log's signals: the last ``lines``, a signal a seat made again (a "No trump"
    after each draw) counted once, at its latest place, so that repeats do not push what
    the others said out of the log.

    >>> from briscola.engine import Signalled
    >>> made = [Signalled(1, "none", 0, 0), Signalled(3, "ace", 0, 1)]
    >>> made.append(Signalled(1, "none", 2, 0))
    >>> [(s.seat, s.kind) for s in latest_signals(made)]
    [(3, 'ace'), (1, 'none')]
    """
    latest: dict[tuple[int, str], Signalled] = {}
    for made in signals:
        latest.pop((made.seat, made.kind), None)
        latest[(made.seat, made.kind)] = made
    return list(latest.values())[-lines:]


def _log_lines(
    painter: TablePainter,
    signals: Sequence[Signalled],
    names: Sequence[str],
    viewer: int | None,
    computer: Collection[Signalled] = (),
) -> tuple[list[Signalled], list[pygame.Surface], pygame.Surface, int, pygame.Rect]:
    """The log's lines, title, line height and box (placed at the origin); ``computer``:
    the signals a computer made for a person."""
    app, px = painter.app, painter.px
    shown = latest_signals(signals)
    icon, size = px(20), px(15)
    lines = [
        app.assets.text(
            signal_log_line(names[s.seat], s.kind, s.seat == viewer, s in computer),
            size,
            app.theme.text,
        )
        for s in shown
    ]
    title = app.assets.text(_("Signals this hand"), size, app.theme.accent, bold=True)
    line_h = max(icon, lines[0].get_height()) + px(3)
    width = max(title.get_width(), *(icon + px(6) + line.get_width() for line in lines))
    box = pygame.Rect(0, 0, width + px(16), title.get_height() + line_h * len(lines) + px(12))
    return shown, lines, title, line_h, box


def log_size(
    painter: TablePainter,
    signals: Sequence[Signalled],
    names: Sequence[str],
    viewer: int | None,
    computer: Collection[Signalled] = (),
) -> tuple[int, int]:
    """The size of the log's box (see :func:`draw_signal_log`)."""
    return _log_lines(painter, signals, names, viewer, computer)[4].size


def draw_signal_log(
    surface: pygame.Surface,
    painter: TablePainter,
    signals: Sequence[Signalled],
    names: Sequence[str],
    viewer: int | None,
    bottom_right: tuple[int, int],
    computer: Collection[Signalled] = (),
) -> pygame.Rect | None:
    """The latest signals of the hand, one line each (face, who, what), in a box whose
    bottom right corner is ``bottom_right`` (``computer``: those a computer made for a
    person, said so); returns the box (None when there are none)."""
    if not signals:
        return None
    app, px = painter.app, painter.px
    icon = px(20)
    shown, lines, title, line_h, box = _log_lines(painter, signals, names, viewer, computer)
    box.bottomright = bottom_right
    surface.blit(rounded(box.size, (*app.theme.shade, 150), px(8)), painter.mark(box))
    surface.blit(title, (box.x + px(8), box.y + px(5)))
    y = box.y + px(6) + title.get_height()
    for made, line in zip(shown, lines, strict=True):
        surface.blit(signal_icon(made.kind, icon), (box.x + px(8), y))
        surface.blit(line, (box.x + px(8) + icon + px(6), y + (icon - line.get_height()) // 2))
        y += line_h
    return box


class SignalBar:
    """The signal bar, the bubbles and the log of a table (see the module docstring).
    ``sent`` runs after the player's signal is accepted (the table shows it at once)."""

    def __init__(
        self,
        app: Services,
        session: TableSession,
        board: Board,
        captions: Captions,
        px: Callable[[float], int],
        sent: Callable[[], None],
    ) -> None:
        self.app = app
        self.session = session
        self.board = board
        self.captions = captions
        self.px = px
        self.sent = sent
        self.kinds = signal_kinds(session.rules)
        self.buttons: list[tuple[str, pygame.Rect]] = []
        self.hovered: str | None = None
        self.idle = False
        self._tip_due = bool(self.kinds) and not session.demo
        #: The bar's place: (what it depends on, its panel, what it keeps clear of).
        self._placed: tuple[object, pygame.Rect, list[pygame.Rect]] | None = None

    # ------------------------------------------------------------------ state

    def offered(self) -> list[str]:
        """The signals the player at the screen may make now (the bar shows them)."""
        session = self.session
        seat = session.shown_seat
        if (
            not self.kinds
            or not self.idle
            or session.demo
            or session.hand_over
            or session.waiting_for is not None
            or seat is None
            or seat != self.board.viewer
            or not session.plays_here(seat)
        ):
            return []
        return [signal.kind for signal in view_signals(session.view())]

    def update(self, idle: bool) -> None:
        """Each frame: whether the animations have caught up; the tip, once, when the
        player first may signal."""
        self.idle = idle
        if self._tip_due and self.offered():
            self._tip_due = False
            settings = self.app.settings
            if not settings.signals_tip_seen:
                settings.signals_tip_seen = True
                self.app.save_settings()
                rules = self.session.rules
                self.captions.announce(lambda: signals_tip(rules), TIP_SECONDS)

    def send(self, kind: str) -> bool:
        """Make the signal ``kind`` for the player at the screen, if it may be made now."""
        if kind not in self.offered() or not self.session.send_signal(Signal(kind)):
            return False
        self.app.audio.play("deal", 0.4)
        self.sent()
        return True

    # ------------------------------------------------------------------ input

    def handle_event(self, event: pygame.event.Event) -> bool:
        """A click on a face, or F1 to F8; True when the event was the bar's."""
        offered = self.offered()
        if not offered:
            self.hovered = None
            return False
        if event.type == pygame.KEYDOWN and event.key in SIGNAL_KEYS:
            index = SIGNAL_KEYS.index(event.key)
            if index < len(self.kinds):
                self.send(self.kinds[index])
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hovered = next((k for k, r in self.buttons if r.collidepoint(event.pos)), None)
            return False
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == 1:
            for kind, rect in self.buttons:
                if rect.collidepoint(event.pos) and kind in offered:
                    if event.type == pygame.MOUSEBUTTONUP:
                        self.send(kind)
                    return True
        return False

    def covers(self, pos: tuple[int, int]) -> bool:
        return bool(self.offered()) and any(rect.collidepoint(pos) for _k, rect in self.buttons)

    # ------------------------------------------------------------------ drawing

    def _obstacles(self) -> list[pygame.Rect]:
        """What the bar and the log must not cover: every hand (the player's as it is,
        the others at their largest), the name plates, the player's pile with its count,
        the stock and the briscola."""
        px, lay = self.px, self.board.layout
        count = max(len(self.board.my_hand()), self.session.rules.hand_size)
        card = (lay.card_w, round(lay.card_w * CARD_RATIO))
        boxes = []
        for (x, y), _angle in lay.hand_slots(0, count):  # the player's hand, lifted or not
            box = pygame.Rect((0, 0), card)
            box.center = (round(x), round(y))
            boxes.append(box.inflate(px(8), px(8)).union(box.move(0, -px(30))))
        boxes += [box.inflate(px(8), px(8)) for box in hand_boxes(lay)]
        boxes += plate_boxes(lay, px(120), px(8))
        pile = pygame.Rect(0, 0, lay.pile_w * 1.5, round(lay.pile_w * CARD_RATIO) + px(34))
        pile.midtop = (round(lay.spots[0].pile[0]), round(lay.spots[0].pile[1] - lay.pile_w))
        boxes.append(pile)
        stock = pygame.Rect(0, 0, lay.stock_w * 3, round(lay.stock_w * CARD_RATIO) + px(40))
        stock.center = (round(lay.stock[0] + lay.stock_w * 0.3), round(lay.stock[1]))
        boxes.append(stock)
        return boxes

    def _lay_out(self, title_h: int) -> pygame.Rect:
        """The bar's place (its panel): bottom right, clear of the player's pile, of the
        hands and the names; the faces in rows of four inside it."""
        px = self.px
        key = (self.app.size, title_h, len(self.board.my_hand()))
        if self._placed is None or self._placed[0] != key:
            size, gap, columns = px(40), px(6), 4
            rows = -(-len(self.kinds) // columns)
            width = columns * size + (columns - 1) * gap + px(12)
            height = rows * size + (rows - 1) * gap + px(14) + title_h
            obstacles = self._obstacles()
            pile = obstacles[-2]
            w, h = self.app.size
            spots = [
                ("bottomright", (pile.left - px(4), h - px(4))),
                ("bottomright", (w - px(6), pile.top - px(4))),
                ("bottomright", (w - px(6), h - px(4))),
            ]
            back = place((width, height), spots, obstacles, pygame.Rect(0, 0, w, h), px(10))
            self.buttons = []
            for i, kind in enumerate(self.kinds):
                x = back.x + px(6) + (i % columns) * (size + gap)
                y = back.y + px(6) + title_h + px(2) + (i // columns) * (size + gap)
                self.buttons.append((kind, pygame.Rect(x, y, size, size)))
            self._placed = (key, back, obstacles)
        return self._placed[1].copy()

    def _log_corner(self, bar: pygame.Rect | None, size: tuple[int, int]) -> tuple[int, int]:
        """Where the log's bottom right corner goes: above the bar, else clear of the table."""
        assert self._placed is not None
        px = self.px
        obstacles = list(self._placed[2]) + ([bar] if bar is not None else [])
        w, h = self.app.size
        anchor = bar if bar is not None else self._placed[1]
        spots = [
            ("bottomright", (anchor.right, anchor.top - px(6))),
            ("bottomright", (anchor.left - px(6), anchor.bottom)),
            ("bottomright", (w - px(6), anchor.top - px(6))),
        ]
        box = place(size, spots, obstacles, pygame.Rect(0, 0, w, h), px(10))
        return box.bottomright

    def draw(self, surface: pygame.Surface, painter: TablePainter) -> None:
        """The bubbles, the bar (when the player may signal) and the hand's log."""
        if not self.kinds:
            return
        self._draw_bubbles(surface, painter)
        app, px = self.app, self.px
        theme = app.theme
        offered = self.offered()
        caption = _("Signal")
        if self.hovered is not None and offered:
            number = self.kinds.index(self.hovered) + 1
            caption = _("{signal} (F{n})").format(signal=signal_label(self.hovered), n=number)
        title = app.assets.text(caption, px(15), theme.accent, bold=True)
        back = self._lay_out(app.assets.font(px(15), True).get_linesize())
        bar: pygame.Rect | None = None
        if offered:
            bar = back
            surface.blit(rounded(back.size, (*theme.shade, 190), px(8)), painter.mark(back))
            clip = surface.get_clip()
            surface.set_clip(back.clip(clip))  # within a clip the frame set (compose.py)
            surface.blit(title, (back.x + px(7), back.y + px(4)))
            surface.set_clip(clip)
            for kind, rect in self.buttons:
                can = kind in offered
                fill = theme.button_hover if kind == self.hovered and can else theme.button
                pygame.draw.rect(surface, fill if can else theme.disabled, rect, border_radius=6)
                icon = signal_icon(kind, rect.width - px(6))
                if not can:
                    icon = icon.copy()
                    icon.set_alpha(90)
                surface.blit(icon, icon.get_rect(center=rect.center))
        seen = self.session.view()
        if not seen.signals or moved_on(self.session):  # (the last hand's: gone on from it)
            return
        names = [seat.name for seat in self.session.seats]
        computer = self.session.news().computer_signals
        size = log_size(painter, seen.signals, names, seen.seat, computer)
        corner = self._log_corner(bar, size)
        draw_signal_log(surface, painter, seen.signals, names, seen.seat, corner, computer)

    def _draw_bubbles(self, surface: pygame.Surface, painter: TablePainter) -> None:
        """The face of a fresh signal, and its word, beside the signaller's name plate."""
        app, px, board = self.app, self.px, self.board
        theme = app.theme
        for seat, (kind, _until) in self.captions.signals.items():
            spot = board.layout.spots[board.screen_index(seat)]
            icon = signal_icon(kind, px(34))
            text = app.assets.text(signal_label(kind), px(16), theme.ink, bold=True)
            name = app.assets.text(self.session.seats[seat].name, px(17), theme.ink, bold=True)
            box = pygame.Rect(0, 0, icon.get_width() + text.get_width() + px(22), px(42))
            x, y = spot.label
            plate = name.get_width() // 2 + px(14)
            box.midleft = (round(x + plate), round(y))
            if box.right > board.layout.w - px(6):
                box.midright = (round(x - plate), round(y))
            box.clamp_ip(pygame.Rect(0, 0, board.layout.w, board.layout.h))
            pygame.draw.rect(surface, theme.paper, painter.mark(box), border_radius=box.h // 2)
            pygame.draw.rect(surface, theme.edge, box, width=1, border_radius=box.h // 2)
            surface.blit(icon, icon.get_rect(midleft=(box.x + px(6), box.centery)))
            surface.blit(
                text, text.get_rect(midleft=(box.x + px(12) + icon.get_width(), box.centery))
            )
