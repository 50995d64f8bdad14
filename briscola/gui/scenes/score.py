"""The score screen after a hand: every side's pile counted card by card, the result, the
match standing, and what to do next.

The cards fly one by one from each side's pile into a row and turn face up while the side's
total counts up; a click or any key skips to the end. (The table has already played the
win, lose or draw sound when the last trick was taken.) The callbacks (next hand, rematch,
menu) decide where to go: this screen never changes the scene stack by itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from briscola.client.sentences import code_text
from briscola.engine import Card
from briscola.game.session import TableNews
from briscola.game.summary import HandSummary
from briscola.gui.layout.scorefan import FanSpec, fan_row
from briscola.gui.render.assets import card_size
from briscola.gui.render.tween import ease_out_cubic
from briscola.gui.widgets import (
    MIN_TEXT,
    Button,
    PrimaryButton,
    WidgetGroup,
    darken,
    draw_panel,
    draw_title,
    elide_middle,
    fitted_scale,
    is_press,
    rounded,
    veiled_backdrop_under,
)
from briscola.gui.widgets.page import DESIGN, PageScene
from briscola.storage.files import atomic_write_json
from briscola.storage.recent import save_record
from briscola.text.i18n import _
from briscola.text.score import HandTexts

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Seconds (at normal speed) between two counted cards, for a card with and without points.
STEP_POINTS = 0.26
STEP_BLANK = 0.05
#: Seconds a card takes to fly into its row.
FLIGHT = 0.38
#: Seconds the result fades in after the count.
FADE = 0.35
#: How dark the veil over the table is (as a black layer's alpha).
VEIL = 130
#: Seconds the "+11" label floats above a counted card.
FLOAT = 0.8
#: Design height of a line of the match standing.
STANDING_LINE = 23
#: Seconds between two looks at an online table's news once the count is over.
NEWS_POLL = 0.25


@dataclass
class CountedCard:
    """One card of a side's pile, in its place in the row."""

    card: Card
    row: int
    slot: int
    start: float  # seconds after the count begins when it leaves the pile
    x: int = 0
    y: int = 0
    #: Width of the card left visible by the next one in its row (the points label's room).
    strip: int = 0

    @property
    def points(self) -> int:
        return self.card.points

    def landed(self, t: float, flight: float) -> bool:
        return t >= self.start + flight


def pile_order(pile: list[Card]) -> list[Card]:
    """Cards worth points first (highest first), then the rest by suit and rank."""
    return sorted(pile, key=lambda card: (-card.points, card.suit, -card.rank))


class ScoreScene(PageScene, HandTexts):
    """The result of a hand over the table."""

    opaque = False

    @property
    def card_style(self) -> str:
        return self.app.settings.deck_style

    def __init__(
        self,
        app: Services,
        summary: HandSummary,
        on_next: Callable[[], None] | None,
        on_rematch: Callable[[], None],
        on_menu: Callable[[], None],
        epilogue: str = "",
        news: Callable[[], TableNews] | None = None,
    ) -> None:
        super().__init__(app)
        self.summary, self.epilogue = summary, epilogue  # (the lesson's last word)
        self.on_next, self.on_rematch, self.on_menu = on_next, on_rematch, on_menu
        #: The table's news (online: who else asked to go on, a hand dealt already), looked
        #: at while the screen is up; ``note`` says it under the result.
        self.news = news
        self.live = news is not None and news().live
        self.note = ""
        #: Something changed since the last frame drawn; the last frame showed the end.
        self._stale, self._settled = True, False
        self.t = 0.0
        self.saved_path: str | None = None
        #: Where the record went (or why it could not), shown in the details panel rather than
        #: as a notice over the verdict.
        self.save_note: str | None = None
        factor = app.settings.speed_factor
        self.instant = factor <= 0 or app.settings.reduce_motion
        self.factor = factor if not self.instant else 0.0
        self.flight = FLIGHT * self.factor
        self.cards = self._schedule()
        self.end = (
            max((c.start + self.flight for c in self.cards), default=0.0) + 0.15 * self.factor
        )
        if self.instant:
            self.t = self.end
        # Buttons
        self.menu_button = Button(lambda: _("Menu"), self.menu, name="menu")
        self.save_button = Button(self._save_label, self.save_record, name="save")
        self.save_button.enabled = bool(summary.record)
        if on_next is not None:
            self.primary: Button = PrimaryButton(lambda: _("Next hand"), self.next, name="next")
        else:
            self.primary = PrimaryButton(lambda: _("Rematch"), self.rematch, name="rematch")
        self.review_button = Button(lambda: _("Review"), self.review, name="review")
        self.buttons = [self.menu_button, self.save_button, self.primary]
        if summary.record and summary.viewer is not None:
            self.buttons.insert(2, self.review_button)
        self.group = WidgetGroup(self.buttons)
        self.group.focus_widget(self.primary)
        # Layout
        self.subtitle_box = pygame.Rect(0, 0, 1, 1)
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.rows: list[pygame.Rect] = []
        self.name_boxes: list[pygame.Rect] = []
        self.card_w = 40
        self.card_areas: list[pygame.Rect] = []
        self.hint_box = pygame.Rect(0, 0, 1, 1)
        self.details_box = pygame.Rect(0, 0, 1, 1)
        self.standing_box = pygame.Rect(0, 0, 1, 1)

    # ------------------------------------------------------------------ timeline

    def _schedule(self) -> list[CountedCard]:
        """All the cards with the time each leaves its pile (rows count side by side)."""
        cards: list[CountedCard] = []
        for row, pile in enumerate(self.summary.piles):
            t = 0.25 * self.factor
            for slot, card in enumerate(pile_order(list(pile))):
                cards.append(CountedCard(card, row, slot, t))
                t += (STEP_POINTS if card.points else STEP_BLANK) * self.factor
        return cards

    @property
    def done(self) -> bool:
        return self.t >= self.end

    @property
    def at_rest(self) -> bool:
        """The count, the last points floating up and the result's fade-in are over."""
        return self.t >= self.end + max(FADE, FLOAT)

    def skip(self) -> None:
        """Jump to the end of the count."""
        self.t = max(self.t, self.end)

    def running_total(self, row: int) -> int:
        return sum(c.points for c in self.cards if c.row == row and c.landed(self.t, self.flight))

    # ------------------------------------------------------------------ actions

    def _save_label(self) -> str:
        return _("Saved") if self.saved_path else _("Save record")

    def next(self) -> None:
        if self.on_next is not None:
            self.on_next()

    def rematch(self) -> None:
        self.on_rematch()

    def menu(self) -> None:
        self.on_menu()

    def review(self) -> None:
        """The coach's review of the viewer's cards in this hand (kept with the record)."""
        if self.summary.record and self.summary.viewer is not None:
            self.app.open(
                "review", record=self.summary.record, seat=self.summary.viewer, keep=self._kept
            )

    def _kept(self, _review: object) -> None:
        """A review was added to the record: a record saved already is saved again."""
        if self.saved_path:
            try:
                atomic_write_json(Path(self.saved_path), self.summary.record)
            except OSError as exc:
                error = str(exc.strerror or exc)
                self.save_note = _("Could not save the record: {error}").format(error=error)

    def save_record(self) -> None:
        """Write the hand's record as JSON into the records folder."""
        if not self.summary.record:
            return
        try:
            path = save_record(self.summary.record, self.summary.hand_number)
        except OSError as exc:
            error = str(exc.strerror or exc)
            self.save_note = _("Could not save the record: {error}").format(error=error)
            self.on_resize(self.app.size)
            return
        self.saved_path = str(path)
        self.save_button.enabled = False
        self.save_note = None
        self.on_resize(self.app.size)
        if self.group.focused is self.save_button:
            self.group.focus_widget(self.primary)

    def save_line(self, font: pygame.font.Font, width: int) -> str | None:
        """The note about the saved record, its path cut short in the middle to fit
        ``width``."""
        if self.saved_path is None:
            return self.save_note
        return elide_middle(font, _("Record saved to {path}"), "path", self.saved_path, width)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self._stale = True
        self.k = fitted_scale(self.app, *DESIGN)
        px = self.px
        margin = px(20)
        total_w = min(w - 2 * margin, px(1200))
        left = (w - total_w) // 2
        self.panel = pygame.Rect(left, margin, total_w, h - 2 * margin)
        inner = self.panel.inflate(-2 * px(20), -2 * px(14))
        self.title_box = pygame.Rect(inner.x, inner.y, inner.width, px(42))
        self.subtitle_box = pygame.Rect(inner.x, self.title_box.bottom, inner.width, px(24))
        button_h = px(46)
        buttons_y = inner.bottom - button_h
        note_h = px(28) if self.live else 0
        self.note_box = pygame.Rect(inner.x, buttons_y - px(6) - note_h, inner.width, note_h)
        lower_h = px(self.lower_height())
        rows_top = self.subtitle_box.bottom + px(12)
        rows_bottom = buttons_y - px(14) - lower_h - note_h
        n = max(1, len(self.summary.piles))
        row_gap = px(10)
        row_h = (rows_bottom - rows_top - (n - 1) * row_gap) // n
        self.rows = [
            pygame.Rect(inner.x, rows_top + i * (row_h + row_gap), inner.width, row_h)
            for i in range(n)
        ]
        name_w = px(220)
        self.name_boxes = [pygame.Rect(r.x, r.y, name_w, r.height) for r in self.rows]
        self.card_areas = [
            pygame.Rect(r.x + name_w + px(8), r.y, r.width - name_w - px(20), r.height)
            for r in self.rows
        ]
        self._place_rows()
        lower_top = rows_bottom + px(12)
        self.hint_box = pygame.Rect(inner.x, lower_top + px(20), inner.width, px(28))
        lower = pygame.Rect(inner.x, lower_top, inner.width, self.note_box.top - px(6) - lower_top)
        half = (lower.width - px(16)) // 2
        self.details_box = pygame.Rect(lower.x, lower.y, half, lower.height)
        self.standing_box = pygame.Rect(lower.right - half, lower.y, half, lower.height)
        bw = px(220)
        gap = px(16)
        widths = [bw] * len(self.buttons)
        x = inner.centerx - (sum(widths) + gap * (len(widths) - 1)) // 2
        for button, width in zip(self.buttons, widths, strict=True):
            button.rect = pygame.Rect(x, buttons_y, width, button_h)
            x += width + gap

    def lower_height(self) -> int:
        """Design height under the card rows: the verdict, then the details and standing."""
        heading, rows = self.standing_rows()
        standing = 16 + 30 + (20 if heading else 0) + max(2, len(rows)) * STANDING_LINE
        details = 16 + len(self.details()) * 2 * 22  # a detail may wrap to two lines
        if self.saved_path or self.save_note:
            details += 24
        return max(70, standing, min(details, 150)) + 12

    def fan_spec(self, row: int, max_card_w: int) -> FanSpec:
        """The room for the cards of ``row`` (see :mod:`briscola.gui.layout.scorefan`)."""
        px = self.px
        area = self.card_areas[row]
        label = self.app.assets.font(self.label_size(), True).size("+11")[0] + px(6)
        return FanSpec(
            width=area.width,
            height=area.height - px(10),
            max_card_w=max_card_w,
            min_card_w=min(max_card_w, max(16, px(30))),
            label_w=label,
            label_h=px(18),
            gap=px(18),
            spacing=px(6),
            drop=px(8),
        )

    def label_size(self) -> int:
        return max(MIN_TEXT, self.px(15))

    def _place_rows(self) -> None:
        """Every row's cards at one size: the largest that keeps each row legible."""
        rows = range(len(self.card_areas))
        counts = [
            (
                sum(1 for c in self.cards if c.row == row and c.points),
                sum(1 for c in self.cards if c.row == row and not c.points),
            )
            for row in rows
        ]
        largest = self.px(84)
        widths = [
            fan_row(p, b, self.fan_spec(row, largest)).card_w for row, (p, b) in enumerate(counts)
        ]
        self.card_w = min(widths, default=largest)
        for row, (p, b) in enumerate(counts):
            fan = fan_row(p, b, self.fan_spec(row, self.card_w))
            area = self.card_areas[row]
            top = area.y + self.px(6)
            for c, spot in zip([c for c in self.cards if c.row == row], fan.spots, strict=True):
                c.x, c.y, c.strip = area.x + spot.x, top + spot.y, spot.strip

    # ------------------------------------------------------------------ events

    def handle_event(self, event: pygame.event.Event) -> None:
        self._stale = True
        if not self.done:
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                self.skip()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.audio.play("click", 0.6)
            self.menu()
            return
        if self.group.handle_event(event) and is_press(event):
            self.app.audio.play("click", 0.6)

    def update(self, dt: float) -> None:
        before = self.t
        self.t = min(self.end + 10.0, self.t + dt)
        if self.news is not None:
            news = self.news()
            note = self.going_on(news)
            if news.ended is not None:  # the table is gone: Menu (or save, review) only
                note = code_text(news.ended, news.ended_message)
                self.primary.enabled = False
            self._stale = self._stale or note != self.note
            self.note = note
        if not self.instant:
            for c in self.cards:
                land = c.start + self.flight
                if c.points and before < land <= self.t:
                    self.app.audio.play("play", 0.35)

    # ------------------------------------------------------------------ drawing

    def next_frame_in(self) -> float | None:
        # Every frame until at rest; then, online, a look at the table's news now and then.
        if not self.at_rest:
            return 0.0
        return NEWS_POLL if self.live else None

    def unchanged(self) -> bool:
        return self._settled and not self._stale

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        painter = self.painter
        painter.begin()
        self._stale, self._settled = False, self.at_rest
        if app.scenes and app.scenes[0] is self:
            app.draw_backdrop(surface)
        darken(surface, VEIL)
        # Opaque: nothing of the table (cards, names, chips) shows through. Under the panel
        # the bare felt, as on a page, then the panel's shade.
        if not (app.scenes and app.scenes[0] is self):
            veiled_backdrop_under(surface, self.panel, app.draw_backdrop, VEIL)
        r, g, b, alpha = theme.panel
        draw_panel(surface, self.panel, replace(theme, panel=(r, g, b, max(alpha, 238))), px(16))
        # The title is the hand while counting, then the verdict.
        if self.done:
            painter.fit(
                surface,
                self.verdict(),
                self.title_box,
                self.title_box.height,
                theme.accent,
                True,
                "center",
                shadow=True,
            )
        else:
            draw_title(painter, surface, self.title(), self.title_box, theme.accent)
        painter.fit(surface, self.subtitle(), self.subtitle_box, px(18), theme.dim, align="center")
        for row in range(len(self.rows)):
            self._draw_row(surface, row)
        self._draw_flying(surface)
        if self.done:
            fade = 1.0 if self.instant else min(1.0, (self.t - self.end) / FADE)
            if fade >= 1.0:
                self._draw_result(surface)
                self.group.draw(surface, app.assets, theme)
            else:  # fade the result in
                layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
                self._draw_result(layer)
                self.group.draw(layer, app.assets, theme)
                layer.set_alpha(round(255 * fade))
                surface.blit(layer, (0, 0))
        else:
            hint = _("Click or press any key to skip")
            painter.fit(surface, hint, self.hint_box, px(18), theme.dim, align="center")

    def _draw_row(self, surface: pygame.Surface, row: int) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        painter = self.painter
        rect = self.rows[row]
        result = self.summary.result
        winner = self.done and result.winner == row
        back = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(back, (0, 0, 0, 70), back.get_rect(), border_radius=px(10))
        surface.blit(back, rect)
        if winner:
            pygame.draw.rect(surface, theme.accent, rect, width=max(2, px(2)), border_radius=px(10))
        # Names, role and running total on the left.
        box = self.name_boxes[row].inflate(-px(24), -px(12))
        name_h = px(26)
        painter.fit(
            surface,
            self.side_label(row),
            pygame.Rect(box.x, box.y, box.width, name_h),
            px(20),
            theme.text,
            bold=True,
        )
        role = self.role(row)
        y = box.y + name_h
        if role:
            painter.fit(surface, role, pygame.Rect(box.x, y, box.width, px(20)), px(15), theme.dim)
            y += px(20)
        total = self.running_total(row)
        big = min(px(34), max(MIN_TEXT, box.bottom - y - px(4)))
        total_box = pygame.Rect(box.x, y, box.width, max(MIN_TEXT, box.bottom - y))
        colour = theme.accent if winner or not self.done else theme.text
        text = _("{points} points").format(points=total)
        painter.fit(surface, text, total_box, big, colour, bold=True)
        # Cards that have landed.
        assets = app.assets
        style = app.settings.deck_style
        width = self.card_w
        card_h = card_size(width)[1]
        landed = [c for c in self.cards if c.row == row and c.landed(self.t, self.flight)]
        for c in landed:
            surface.blit(assets.card_face(c.card, style, width), (c.x, c.y))
        for c in landed:
            if c.points:
                self._draw_points_label(surface, c, card_h)

    def _draw_points_label(self, surface: pygame.Surface, c: CountedCard, card_h: int) -> None:
        px = self.px
        theme = self.app.theme
        label = f"+{c.points}"
        box = pygame.Rect(c.x, c.y + card_h + px(1), c.strip, px(18))
        size = self.label_size()
        if self.app.assets.font(size, True).size(label)[0] + px(4) > box.width:
            return  # cards packed too tightly for labels: the total says it all
        # Right after the card lands its points light up where they stay, under the card
        # (never over a card's face).
        span = FLOAT * max(self.factor, 0.3)
        age = self.t - (c.start + self.flight)
        if not self.instant and 0 <= age <= span:
            k = 1 - ease_out_cubic(age / span)
            glow = rounded(box.size, (255, 255, 255, round(110 * k)), px(5))
            surface.blit(glow, box.topleft)
        self.painter.fit(surface, label, box, size, theme.accent, bold=True, align="center")

    def _draw_flying(self, surface: pygame.Surface) -> None:
        """Cards on their way from the pile to the row, turning face up halfway."""
        if self.done or self.flight <= 0:
            return
        assets = self.app.assets
        style = self.app.settings.deck_style
        width = self.card_w
        card_h = card_size(width)[1]
        back = assets.card_back(self.app.settings.back, width)
        for row in range(len(self.rows)):
            # The pile still to count, face down, under the names.
            waiting = [c for c in self.cards if c.row == row and self.t < c.start]
            if waiting:
                origin = self._origin(row, card_h)
                for i in range(min(4, len(waiting))):
                    surface.blit(back, (origin[0] + i * 2, origin[1] - i * 2))
        for c in self.cards:
            if not (c.start <= self.t < c.start + self.flight):
                continue
            k = (self.t - c.start) / self.flight
            e = ease_out_cubic(k)
            ox, oy = self._origin(c.row, card_h)
            x = ox + (c.x - ox) * e
            y = oy + (c.y - oy) * e - math.sin(k * math.pi) * self.px(12)
            turn = abs(math.cos(k * math.pi))
            image = assets.card_face(c.card, style, width) if k >= 0.5 else back
            squeezed = pygame.transform.scale(image, (max(1, int(width * turn)), card_h))
            shadow = assets.shadow(width)
            surface.blit(shadow, shadow.get_rect(center=(x + width / 2 + 4, y + card_h / 2 + 6)))
            surface.blit(squeezed, squeezed.get_rect(center=(x + width / 2, y + card_h / 2)))

    def _origin(self, row: int, card_h: int) -> tuple[int, int]:
        """Where the face-down pile waits: the right end of the row."""
        area = self.card_areas[row]
        return area.right - self.card_w, area.y + self.px(6)

    def _draw_result(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        painter = self.painter
        details = self.details()
        heading, rows = self.standing_rows()
        standing_title = self.standing_title()
        if self.note:
            painter.fit(surface, self.note, self.note_box, px(17), theme.accent, align="center")
        if details or self.saved_path or self.save_note:
            details_box, standing_box = self.details_box, self.standing_box
        else:
            standing_box = self.standing_box.copy()
            standing_box.centerx = self.panel.centerx
            details_box = None
        if details_box is not None:
            self._box(surface, details_box)
            inner = details_box.inflate(-px(24), -px(16))
            size = max(MIN_TEXT, px(15))
            note = self.save_line(app.assets.font(size), inner.width)
            bottom = inner.bottom
            if note is not None:
                note_y = inner.bottom - px(20) if details else inner.y
                note_box = pygame.Rect(inner.x, note_y, inner.width, px(20))
                painter.fit(surface, note, note_box, size, theme.dim)
                bottom = note_box.y - px(4)
            y = inner.y
            for line in details:
                room = pygame.Rect(inner.x, y, inner.width, bottom - y)
                if room.height < px(14):
                    break
                y += painter.paragraph(surface, line, room, px(17), theme.text) + px(4)
        self._box(surface, standing_box)
        inner = standing_box.inflate(-px(24), -px(16))
        title_box = pygame.Rect(inner.x, inner.y, inner.width, px(28))
        finished = self.summary.match_over and self.summary.rules.match.kind != "single"
        colour = theme.accent if finished else theme.text
        painter.fit(surface, standing_title, title_box, px(21), colour, bold=True)
        y = title_box.bottom + px(2)
        if heading:
            head = pygame.Rect(inner.x, y, inner.width, px(20))
            painter.fit(surface, heading, head, px(15), theme.dim, align="right")
            y = head.bottom
        line_h = max(MIN_TEXT + 2, min(px(STANDING_LINE), (inner.bottom - y) // max(1, len(rows))))
        value_w = int(inner.width * 0.36)
        for name, value in rows:
            name_box = pygame.Rect(inner.x, y, inner.width - value_w - px(8), line_h)
            value_box = pygame.Rect(inner.right - value_w, y, value_w, line_h)
            painter.fit(surface, name, name_box, px(17), theme.text)
            painter.fit(surface, value, value_box, px(17), theme.text, bold=True, align="right")
            y += line_h
        if not rows:
            again = _("Play again with Rematch, or choose another game from the menu.")
            note = self.epilogue or again
            room = pygame.Rect(inner.x, y + px(6), inner.width, inner.bottom - y - px(6))
            painter.paragraph(surface, note, room, px(16), theme.dim)

    def _box(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        back = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(back, (0, 0, 0, 70), back.get_rect(), border_radius=self.px(10))
        surface.blit(back, rect)
