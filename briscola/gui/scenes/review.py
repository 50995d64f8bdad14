"""The Review screen: one seat's card plays in a recorded hand, graded by the coach.

The review (:func:`briscola.coach.review`) runs on a worker thread while a progress bar
fills; a review already kept in the record (its ``"review"`` field, for this seat) is shown
at once. Then the player steps through the cards it played (Left/Right, Home/End, C or the
Costliest button for the move that gave up the most): the card played, its verdict and the
coach's sentence, and every card it could have played with its expected points as the
search saw them from what the seat knew then. Escape or Back returns.

The scene takes a record and a seat and imports no other scene.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pygame

from briscola.coach import MoveReview, Review, decisions, review
from briscola.engine import PlayerView
from briscola.gui.render.assets import CARD_RATIO
from briscola.gui.scene import Scene
from briscola.gui.widgets import Button, WidgetGroup, draw_panel, scaled_px
from briscola.text.coachtext import reason_text, summary_text, verdict_text
from briscola.text.i18n import _, decimal, pgettext
from briscola.text.names import card_name, card_the, suit_name

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: The layout's design size: everything scales with the window and the UI scale.
DESIGN = (1180, 720)
#: Seconds each turbo frame gives the review's worker (see update).
TURBO_SLICE = 0.05
#: Verdicts drawn in the theme's danger colour.
_BAD = frozenset({"mistake", "blunder"})


class _Cancelled(Exception):
    """Raised inside the worker's progress callback when the scene is left."""


def kept_review(record: Mapping[str, Any], seat: int) -> Review | None:
    """The review of ``seat`` kept in ``record`` (``"review"``: one review or a list of
    them), or None when there is none or it cannot be read."""
    kept = record.get("review")
    docs = kept if isinstance(kept, list) else [kept]
    for doc in docs:
        try:
            found = Review.from_json(doc)
        except ValueError:
            continue
        if found.seat == seat:
            return found
    return None


def with_review(record: Mapping[str, Any], found: Review) -> Any:
    """The record's ``"review"`` field with ``found`` in it: one review, or a list when
    reviews of other seats are kept too (``found`` replaces its own seat's)."""
    kept = record.get("review")
    docs = kept if isinstance(kept, list) else [kept] if kept is not None else []
    others = [d for d in docs if isinstance(d, dict) and d.get("seat") != found.seat]
    return [*others, found.to_json()] if others else found.to_json()


class ReviewScene(Scene):
    """Review ``seat``'s card plays in ``record`` (``budget`` and ``seed`` as for
    :func:`briscola.coach.review`). A review made here is kept in ``record`` (its
    ``"review"`` field, when the record is a dict) and handed to ``keep`` (which may save
    the record) once, on the frame it is done."""

    def __init__(
        self,
        app: Services,
        record: Mapping[str, Any],
        seat: int,
        budget: int | None = None,
        seed: int = 0,
        keep: Callable[[Review], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.keep = keep
        self._kept = False
        #: The seat's view before each card it played (the trick so far, the trump).
        self.views: list[PlayerView] = []
        # A record that does not replay has no views: the worker says why.
        with contextlib.suppress(ValueError):
            self.views = [seen for seen, _card in decisions(record, seat)]
        self.record = record
        self.seat = seat
        self.budget = budget
        self.seed = seed
        self.result: Review | None = kept_review(record, seat)
        self.error: str | None = None
        self.done = 0
        self.total = 0
        self.index = 0
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.k = 1.0
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.bar = pygame.Rect(0, 0, 1, 1)
        self.previous = Button(
            lambda: pgettext("review", "Previous"), lambda: self.step(-1), name="previous"
        )
        self.next = Button(lambda: pgettext("review", "Next"), lambda: self.step(1), name="next")
        self.costliest = Button(lambda: _("Costliest"), self.jump_to_costliest, name="costliest")
        self.back = Button(lambda: _("Back"), self.app.pop, name="back")
        self.buttons = WidgetGroup([self.previous, self.next, self.costliest, self.back])
        self.on_resize(app.size)

    # ------------------------------------------------------------------ the worker

    def on_enter(self) -> None:
        if self.result is None and self._thread is None:
            self._thread = threading.Thread(target=self._work, name="review", daemon=True)
            self._thread.start()
        self._update_buttons()

    def on_exit(self) -> None:
        self._cancel.set()

    def _progress(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise _Cancelled
        self.done, self.total = done, total

    def _work(self) -> None:
        try:
            result = review(self.record, self.seat, self.budget, self.seed, progress=self._progress)
        except _Cancelled:
            return
        except ValueError as exc:  # a record that does not replay, a seat not in it
            self.error = str(exc)
            return
        self.result = result

    @property
    def running(self) -> bool:
        return self.result is None and self.error is None

    # ------------------------------------------------------------------ navigation

    @property
    def move(self) -> MoveReview | None:
        if self.result is None or not self.result.moves:
            return None
        return self.result.moves[self.index]

    def step(self, direction: int) -> None:
        if self.result is not None and self.result.moves:
            self.index = max(0, min(len(self.result.moves) - 1, self.index + direction))
        self._update_buttons()

    def jump_to_costliest(self) -> None:
        if self.result is not None:
            worst = self.result.costliest()
            if worst is not None:
                self.index = self.result.moves.index(worst)
        self._update_buttons()

    def _update_buttons(self) -> None:
        moves = self.result.moves if self.result is not None else ()
        self.previous.enabled = bool(moves) and self.index > 0
        self.next.enabled = bool(moves) and self.index < len(moves) - 1
        self.costliest.enabled = self.result is not None and self.result.costliest() is not None

    def context(self, index: int) -> str:
        """What the seat saw when it played its ``index``-th card: the trump and the cards
        already on the table ("" when not known)."""
        if not 0 <= index < len(self.views):
            return ""
        seen = self.views[index]
        style = self.app.settings.deck_style
        parts = []
        if seen.trump is not None:
            parts.append(_("Trump: {suit}").format(suit=suit_name(seen.trump, style)))
        if seen.table:
            cards = ", ".join(card_the(card, style) for _seat, card in seen.table)
            parts.append(_("On the table: {cards}").format(cards=cards))
        else:
            parts.append(_("You led this trick."))
        return " · ".join(parts)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            key = event.key
            if key == pygame.K_ESCAPE:
                self.app.pop()
                return
            if key == pygame.K_LEFT:
                self.step(-1)
                return
            if key == pygame.K_RIGHT:
                self.step(1)
                return
            if key == pygame.K_HOME:
                self.step(-len(self.result.moves) if self.result else 0)
                return
            if key == pygame.K_END:
                self.step(len(self.result.moves) if self.result else 0)
                return
            if key == pygame.K_c:
                self.jump_to_costliest()
                return
        self.buttons.handle_event(event)

    def update(self, dt: float) -> None:
        if self.running and self._thread is not None and self.app.options.turbo:
            # Turbo (tests, smoke runs): a frame loop that never sleeps would starve the
            # worker of Python's lock; each frame lets it work a while.
            self._thread.join(TURBO_SLICE)
        result = self.result
        if result is not None and self._thread is not None and not self._kept:
            self._kept = True  # made here (not read from the record): keep it
            if isinstance(self.record, dict):
                self.record["review"] = with_review(self.record, result)
            if self.keep is not None:
                self.keep(result)
        self._update_buttons()

    def next_frame_in(self) -> float | None:
        # The bar moves while the worker runs; afterwards only input changes the picture.
        return 0.1 if self.running else None

    # ------------------------------------------------------------------ layout and drawing

    def px(self, value: float) -> int:
        return scaled_px(value, self.k)

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        # The App's scale, shrunk so that the design fits (as every page does).
        self.k = max(0.3, min(self.app.ui_scale, w / DESIGN[0], h / DESIGN[1]))
        px = self.px
        margin = px(22)
        width = min(w - 2 * margin, px(1000))
        top = px(72)
        button_h = px(46)
        bottom = h - margin - button_h - px(14)
        self.panel = pygame.Rect((w - width) // 2, top, width, max(px(120), bottom - top))
        self.bar = pygame.Rect(0, 0, self.panel.width - px(80), px(26))
        self.bar.center = self.panel.center
        gap = px(14)
        count = len(self.buttons.widgets)
        button_w = min(px(200), (width - gap * (count - 1)) // count)
        row = count * button_w + (count - 1) * gap
        x = (w - row) // 2
        for widget in self.buttons.widgets:
            widget.rect = pygame.Rect(x, h - margin - button_h, button_w, button_h)
            x += button_w + gap

    def _text(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        pos: tuple[int, int],
        colour: tuple[int, int, int],
        bold: bool = False,
        width: int | None = None,
        anchor: str = "topleft",
    ) -> pygame.Rect:
        assets = self.app.assets
        if width is not None:
            size = assets.fit(text, size, width, bold)
        image = assets.text(text, size, colour, bold)
        rect = image.get_rect(**{anchor: pos})
        surface.blit(image, rect)
        return rect

    def _wrapped(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        rect: pygame.Rect,
        colour: tuple[int, int, int],
    ) -> int:
        """Draw ``text`` word-wrapped into ``rect`` from its top; returns the bottom."""
        font = self.app.assets.font(size)
        lines: list[str] = []
        for word in text.split():
            if lines and font.size(f"{lines[-1]} {word}")[0] <= rect.width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        y = rect.y
        for line in lines:
            y = self._text(surface, line, size, (rect.x, y), colour).bottom
        return y

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        w, _h = surface.get_size()
        self.app.draw_backdrop(surface)
        self._text(
            surface, _("Review"), px(40), (w // 2, px(14)), theme.accent, True, None, "midtop"
        )
        draw_panel(surface, self.panel, theme, px(14))
        if self.error is not None:
            message = _("Could not review this hand: {problem}").format(problem=self.error)
            inner = self.panel.inflate(-px(60), -px(60))
            self._wrapped(surface, message, px(24), inner, theme.danger)
        elif self.result is None:
            self._draw_progress(surface)
        else:
            self._draw_move(surface, self.result)
        self.buttons_draw(surface)

    def buttons_draw(self, surface: pygame.Surface) -> None:
        group = self.buttons
        for i, widget in enumerate(group.widgets):
            focused = group.keyboard_focus and group.focus == i
            widget.draw(surface, self.app.assets, self.app.theme, focused)

    def _draw_progress(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        bar = self.bar
        label = _("Reviewing the hand: {done} of {total} cards").format(
            done=self.done, total=self.total or "…"
        )
        self._text(
            surface, label, px(24), (bar.centerx, bar.y - px(16)), theme.text, anchor="midbottom"
        )
        radius = bar.height // 2
        pygame.draw.rect(surface, theme.outline, bar, border_radius=radius)
        if self.total:
            fill = bar.inflate(-px(6), -px(6))
            fill.width = max(fill.height, round(fill.width * self.done / self.total))
            pygame.draw.rect(surface, theme.accent, fill, border_radius=fill.height // 2)
        pygame.draw.rect(surface, theme.dim, bar, width=max(1, px(2)), border_radius=radius)

    def _draw_move(self, surface: pygame.Surface, result: Review) -> None:
        theme = self.app.theme
        px = self.px
        style = self.app.settings.deck_style
        panel = self.panel
        inner = panel.inflate(-px(48), -px(36))
        y = self._text(
            surface,
            summary_text(result),
            px(26),
            (inner.x, inner.y),
            theme.accent,
            True,
            inner.width,
        ).bottom
        move = self.move
        if move is None:
            self._text(surface, _("No card to review."), px(24), (inner.x, y + px(20)), theme.text)
            return
        heading = _("Card {number} of {total}, trick {trick}").format(
            number=self.index + 1, total=len(result.moves), trick=move.trick + 1
        )
        y = self._text(surface, heading, px(22), (inner.x, y + px(18)), theme.dim).bottom
        context = self.context(self.index)
        if context:
            y = self._text(
                surface, context, px(22), (inner.x, y + px(4)), theme.dim, False, inner.width
            ).bottom
        played = _("You played {card}: {verdict}").format(
            card=card_the(move.played, style), verdict=verdict_text(move.verdict)
        )
        colour = theme.danger if move.verdict in _BAD else theme.text
        y = self._text(
            surface, played, px(30), (inner.x, y + px(10)), colour, True, inner.width
        ).bottom
        text_box = pygame.Rect(inner.x, y + px(10), inner.width, inner.bottom - y)
        y = self._wrapped(surface, reason_text(move.reason, style), px(24), text_box, theme.text)
        y += px(22)
        if not move.values:
            return
        self._text(surface, _("Expected points of each card"), px(20), (inner.x, y), theme.dim)
        y += px(32)
        # Up to eight cards (Chiamata): rows shrink to fit the panel.
        count = len(move.values)
        row_h = max(px(18), min(px(34), (inner.bottom - y) // count - px(4)))
        size = max(px(14), min(px(24), round(row_h * 0.7)))
        for card, points in move.values:
            is_played, is_best = card == move.played, card == move.marked_best
            colour = theme.accent if is_best else theme.text
            name = card_name(card, style)
            if is_best:
                name = _("{card} (best)").format(card=name)
            rect = pygame.Rect(inner.x + px(24), y, inner.width - px(24), row_h)
            if is_played:
                pygame.draw.rect(
                    surface, theme.button, rect.inflate(px(12), 0), border_radius=px(6)
                )
            self._text(
                surface, name, size, (rect.x, rect.centery), colour, is_played, None, "midleft"
            )
            self._text(
                surface,
                decimal(points),
                size,
                (rect.right - px(12), rect.centery),
                colour,
                is_played,
                None,
                "midright",
            )
            y += row_h + px(4)
        self._draw_cards(surface, move, pygame.Rect(inner.x, y, inner.width, inner.bottom - y))

    def _draw_cards(self, surface: pygame.Surface, move: MoveReview, box: pygame.Rect) -> None:
        """The cards the player could play, as cards, in ``box`` when there is room: the one
        played outlined, the best in the accent colour, its expected points under each."""
        theme = self.app.theme
        px = self.px
        count = len(move.values)
        label = px(24)
        card_h = min(px(200), box.height - label - px(20))
        card_w = round(card_h / CARD_RATIO)
        gap = px(18)
        card_w = min(card_w, (box.width - gap * (count - 1)) // max(1, count))
        card_h = round(card_w * CARD_RATIO)
        if card_w < px(48):
            return  # no room: the rows above say it all
        style = self.app.settings.deck_style
        x = box.centerx - (count * card_w + (count - 1) * gap) // 2
        y = box.y + px(12)
        for card, points in move.values:
            rect = pygame.Rect(x, y, card_w, card_h)
            surface.blit(self.app.assets.card_face(card, style, card_w), rect)
            if card == move.marked_best or card == move.played:
                colour = theme.accent if card == move.marked_best else theme.text
                pygame.draw.rect(surface, colour, rect.inflate(px(8), px(8)), px(3), px(8))
            colour = theme.accent if card == move.marked_best else theme.text
            self._text(
                surface,
                decimal(points),
                px(20),
                (rect.centerx, rect.bottom + px(6)),
                colour,
                card == move.played,
                None,
                "midtop",
            )
            x += card_w + gap
