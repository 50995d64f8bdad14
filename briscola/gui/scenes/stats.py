"""The Statistics screen: a table of hands and matches per configuration and opponent
strength (or added up per opponent level, or per configuration), the hands and matches won
in a row, and a Reset that asks for confirmation first; for a server where the player has
a key, its ratings (:mod:`briscola.gui.widgets.ratings_view`: the leaderboards, the
player's rating and its chart), asked of the server when the screen opens."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from briscola.client.identity import Identities
from briscola.gui.widgets import (
    Button,
    PrimaryButton,
    Scrollbar,
    WidgetGroup,
    darken,
    is_press,
    scroll_keys,
)
from briscola.gui.widgets.page import PageScene
from briscola.gui.widgets.ratings_view import RatingsView
from briscola.storage.keys import KeyStore
from briscola.storage.paths import data_dir
from briscola.storage.stats import HOT_SEAT, Entry, Stats, Streaks
from briscola.text.i18n import _, decimal, ngettext
from briscola.text.labels import level_label, preset_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services


#: A row that adds up every configuration (or every opponent strength).
ALL = "*"
#: How the rows are grouped: per configuration and strength, per strength, per configuration.
GROUPINGS = ("both", "strength", "preset")


def strength_label(strength: str) -> str:
    if strength == ALL:
        return _("All opponents")
    if strength == HOT_SEAT:
        return _("Hot-seat")
    return level_label(strength)


def game_label(preset: str) -> str:
    return _("All games") if preset == ALL else preset_label(preset)


def grouping_label(grouping: str) -> str:
    if grouping == "strength":
        return _("Show: per opponent level")
    if grouping == "preset":
        return _("Show: per game")
    return _("Show: per game and opponents")


def streaks_text(streaks: Streaks) -> str:
    """The runs won against the computer, now and best, in one sentence."""
    hands = ngettext("{count} hand", "{count} hands", streaks.hands)
    matches = ngettext("{count} match", "{count} matches", streaks.matches)
    # Translators: {hands} is "3 hands", {matches} "1 match"; {best_...} are numbers.
    return _(
        "Won in a row against the computer: {hands} now (best {best_hands}),"
        " {matches} now (best {best_matches})."
    ).format(
        hands=hands.format(count=streaks.hands),
        best_hands=streaks.best_hands,
        matches=matches.format(count=streaks.matches),
        best_matches=streaks.best_matches,
    )


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


@dataclass
class Column:
    """A column of the table: its heading, its share of the width and how to fill it."""

    heading: Callable[[], str]
    weight: float
    value: Callable[[str, str, Entry], str]
    align: str = "right"


def _average(entry: Entry) -> str:
    average = entry.average
    return "–" if average is None else decimal(average)


COLUMNS: list[Column] = [
    Column(lambda: _("Game"), 3.4, lambda preset, _s, _e: game_label(preset), "left"),
    Column(lambda: _("Opponents"), 1.5, lambda _p, strength, _e: strength_label(strength), "left"),
    Column(lambda: _("Played"), 0.95, lambda _p, _s, e: str(e.hands)),
    Column(lambda: _("Won"), 0.85, lambda _p, _s, e: str(e.hands_won)),
    Column(lambda: _("Drawn"), 0.85, lambda _p, _s, e: str(e.hands_drawn)),
    Column(lambda: _("Lost"), 0.85, lambda _p, _s, e: str(e.hands_lost)),
    Column(lambda: _("Won %"), 0.9, lambda _p, _s, e: percent(e.hands_won, e.hands)),
    Column(lambda: _("Average"), 1.0, lambda _p, _s, e: _average(e)),
    Column(lambda: _("Best"), 0.8, lambda _p, _s, e: str(e.best) if e.hands else "–"),
    Column(lambda: _("Played"), 0.95, lambda _p, _s, e: str(e.matches)),
    Column(lambda: _("Won"), 0.85, lambda _p, _s, e: str(e.matches_won)),
    Column(lambda: _("Drawn"), 0.85, lambda _p, _s, e: str(e.matches_drawn)),
    Column(lambda: _("Lost"), 0.85, lambda _p, _s, e: str(e.matches_lost)),
]
#: Columns 2-8 are about hands, 9-12 about matches.
HAND_COLUMNS = range(2, 9)
MATCH_COLUMNS = range(9, 13)


SCROLL_KEYS = (
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_PAGEUP,
    pygame.K_PAGEDOWN,
    pygame.K_HOME,
    pygame.K_END,
)


class StatsScene(PageScene):
    """Statistics per configuration and opponent strength."""

    def __init__(
        self, app: Services, stats: Stats | None = None, ratings: RatingsView | None = None
    ) -> None:
        super().__init__(app)
        self.stats = stats if stats is not None else Stats.load()
        if self.stats.notice:
            app.notify(self.stats.notice)
            self.stats.notice = None
        self.scroll = 0.0
        self.scrollbar = Scrollbar()
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.reset_button = Button(lambda: _("Reset statistics"), self.ask_reset, name="reset")
        #: How the rows are grouped (one of :data:`GROUPINGS`).
        self.grouping = GROUPINGS[0]
        self.grouping_button = Button(
            lambda: (
                self.ratings.family_text()
                if self.showing_ratings
                else grouping_label(self.grouping)
            ),
            self.next_grouping,
            name="grouping",
        )
        #: The ratings on a server where the player has a key (shown instead of the table).
        self.ratings = ratings or RatingsView(Identities(KeyStore(data_dir())))
        self.showing_ratings = False
        self.ratings_button = Button(self._ratings_label, self.toggle_ratings, name="ratings")
        self.ratings_button.visible = self.ratings.offered
        self.ratings.start()
        self.group = WidgetGroup(
            [self.back_button, self.grouping_button, self.ratings_button, self.reset_button]
        )
        self.group.focus_widget(self.back_button)
        # The confirmation dialog.
        self.confirming = False
        self.cancel_button = Button(lambda: _("Cancel"), self.cancel_reset, name="cancel")
        self.confirm_button = PrimaryButton(lambda: _("Reset"), self.confirm_reset, name="confirm")
        self.confirm_button.danger = True
        self.dialog_group = WidgetGroup([self.cancel_button, self.confirm_button])
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.table = pygame.Rect(0, 0, 1, 1)
        self.body = pygame.Rect(0, 0, 1, 1)
        self.dialog = pygame.Rect(0, 0, 1, 1)
        self.row_h = 24
        self.col_x: list[tuple[int, int]] = []
        self._refresh()

    # ------------------------------------------------------------------ actions

    def back(self) -> None:
        self.app.pop()

    def ask_reset(self) -> None:
        self.confirming = True
        self.dialog_group.focus_widget(self.cancel_button)
        self.dialog_group.keyboard_focus = self.group.keyboard_focus

    def cancel_reset(self) -> None:
        self.confirming = False

    def confirm_reset(self) -> None:
        problem = self.stats.reset()
        self.confirming = False
        if problem:
            self.app.notify(problem)
        else:
            self.app.notify(_("Statistics reset."))
        self.scroll = 0.0
        self._refresh()
        self.group.focus_widget(self.back_button)

    def next_grouping(self) -> None:
        if self.showing_ratings:
            self.ratings.next_family()
            return
        self.grouping = GROUPINGS[(GROUPINGS.index(self.grouping) + 1) % len(GROUPINGS)]
        self.scroll = 0.0

    def _ratings_label(self) -> str:
        return _("Statistics") if self.showing_ratings else _("Ratings")

    def toggle_ratings(self) -> None:
        """The ratings instead of the table (and back)."""
        self.showing_ratings = not self.showing_ratings
        self._refresh()

    def _refresh(self) -> None:
        self.reset_button.enabled = not self.stats.empty
        self.grouping_button.enabled = not self.stats.empty or self.showing_ratings

    def table_rows(self) -> list[tuple[str, str, Entry]]:
        if self.grouping == "strength":
            return [(ALL, strength, entry) for strength, entry in self.stats.by_strength()]
        if self.grouping == "preset":
            return [(preset, ALL, entry) for preset, entry in self.stats.by_preset()]
        return [(preset, strength, entry) for (preset, strength), entry in self.stats.rows()]

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        frame = self.page_frame(size, 1240)
        px = self.px
        margin, button_h = frame.margin, frame.button_h
        left, total_w = frame.body.x, frame.body.width
        self.panel = frame.body
        self.table = self.panel.inflate(-px(36), -px(28))
        self.table.width -= px(14)  # room for the scrollbar
        self.row_h = px(30)
        header_h = 2 * px(26)
        self.body = pygame.Rect(
            self.table.x,
            self.table.y + header_h + px(4),
            self.table.width,
            self.table.height - header_h - px(4) - 2 * self.row_h - px(8),
        )
        self.scrollbar.track = pygame.Rect(
            self.panel.right - px(20), self.body.y, px(8), self.body.height
        )
        weights = sum(column.weight for column in COLUMNS)
        x = self.table.x
        self.col_x = []
        for column in COLUMNS:
            width = round(self.table.width * column.weight / weights)
            self.col_x.append((x, width))
            x += width
        bw = px(240)
        self.back_button.rect = pygame.Rect(left, h - margin - button_h, bw, button_h)
        self.reset_button.rect = pygame.Rect(
            left + total_w - bw, h - margin - button_h, bw, button_h
        )
        gap = px(16)
        room = total_w - 2 * (bw + gap)
        self.grouping_button.rect = pygame.Rect(
            0, h - margin - button_h, min(room, px(420)), button_h
        )
        self.grouping_button.rect.centerx = left + total_w // 2
        if self.ratings.offered:  # the two middle buttons share the room
            half = (room - gap) // 2
            self.grouping_button.rect = pygame.Rect(
                left + bw + gap, h - margin - button_h, half, button_h
            )
            self.ratings_button.rect = pygame.Rect(
                self.grouping_button.rect.right + gap, h - margin - button_h, half, button_h
            )
        self.dialog = pygame.Rect(0, 0, min(w - 2 * margin, px(560)), px(220))
        self.dialog.center = (w // 2, h // 2)
        dbw = (self.dialog.width - 3 * px(20)) // 2
        dy = self.dialog.bottom - px(20) - button_h
        self.cancel_button.rect = pygame.Rect(self.dialog.x + px(20), dy, dbw, button_h)
        self.confirm_button.rect = pygame.Rect(self.dialog.right - px(20) - dbw, dy, dbw, button_h)
        self.scroll = min(self.scroll, self.max_scroll)

    @property
    def content_h(self) -> int:
        return len(self.table_rows()) * self.row_h

    @property
    def max_scroll(self) -> int:
        return max(0, self.content_h - self.body.height)

    # ------------------------------------------------------------------ events

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.confirming:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.app.audio.play("click", 0.6)
                self.cancel_reset()
                return
            if self.dialog_group.handle_event(event) and is_press(event):
                self.app.audio.play("click", 0.6)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.audio.play("click", 0.6)
            self.back()
            return
        moved = self.scrollbar.handle_event(event, self.scroll, self.body.height, self.content_h)
        if moved is not None:
            self.scroll = max(0.0, min(float(self.max_scroll), moved))
            return
        # The wheel, arrows and page keys scroll the table; Tab moves between the buttons.
        if event.type == pygame.MOUSEWHEEL or (
            event.type == pygame.KEYDOWN and event.key in SCROLL_KEYS and self.max_scroll > 0
        ):
            delta = scroll_keys(event, self.row_h, self.body.height - self.row_h)
            if delta is not None:
                self.scroll = max(0.0, min(float(self.max_scroll), self.scroll + delta))
                return
        if self.group.handle_event(event) and is_press(event):
            self.app.audio.play("click", 0.6)

    # ------------------------------------------------------------------ drawing

    def next_frame_in(self) -> float | None:
        if self.showing_ratings and self.ratings.result is None:
            return 0.25  # the answer is on its way
        return None  # still until input

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        self.draw_page(surface, _("Statistics"), self.panel)
        if self.showing_ratings:
            self.ratings.draw(self, surface, self.panel.inflate(-self.px(36), -self.px(28)))
        elif self.stats.empty:
            self._draw_empty(surface)
        else:
            self._draw_table(surface)
        self.group.draw(surface, app.assets, theme)
        if self.confirming:
            self._draw_dialog(surface)

    def _draw_empty(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        box = self.panel.inflate(-px(120), 0)
        box.height = px(120)
        box.center = self.panel.center
        headline = pygame.Rect(box.x, box.y, box.width, px(36))
        self.painter.fit(
            surface, _("No games played yet"), headline, px(28), theme.text, True, "center"
        )
        text = _(
            "Your results appear here after your first hand, for each game and opponent strength."
        )
        room = pygame.Rect(box.x, headline.bottom + px(10), box.width, box.bottom - headline.bottom)
        self.painter.paragraph(surface, text, room, px(19), theme.dim, align="center")

    def _cell(
        self,
        surface: pygame.Surface,
        column: int,
        y: int,
        text: str,
        colour: tuple[int, int, int],
        bold: bool = False,
        size: float = 17,
        align: str | None = None,
    ) -> None:
        x, width = self.col_x[column]
        pad = self.px(6)
        box = pygame.Rect(x + pad, y, width - 2 * pad, self.row_h)
        self.painter.fit(
            surface, text, box, self.px(size), colour, bold, align or COLUMNS[column].align
        )

    def _draw_table(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        head_h = px(26)
        y = self.table.y
        # Group headings over the hand and match columns.
        for columns, label in ((HAND_COLUMNS, _("Hands")), (MATCH_COLUMNS, _("Matches"))):
            first_x = self.col_x[columns[0]][0]
            last_x, last_w = self.col_x[columns[-1]]
            box = pygame.Rect(first_x + px(6), y, last_x + last_w - first_x - px(12), head_h)
            self.painter.fit(surface, label, box, px(18), theme.accent, True, "center")
            pygame.draw.line(
                surface, theme.accent, (box.x, box.bottom - 2), (box.right, box.bottom - 2), 1
            )
        y += head_h
        for index, column in enumerate(COLUMNS):
            x, width = self.col_x[index]
            box = pygame.Rect(x + px(6), y, width - px(12), head_h)
            self.painter.fit(surface, column.heading(), box, px(15), theme.dim, True, column.align)
        # Body, scrolled and clipped.
        clip = surface.get_clip()
        surface.set_clip(self.body)
        rows = self.table_rows()
        previous = ""
        group = 0
        for i, (preset, strength, entry) in enumerate(rows):
            first = preset != previous  # the game's name shows on its first row only
            group += first
            previous = preset
            top = self.body.y + i * self.row_h - round(self.scroll)
            if top + self.row_h < self.body.y or top > self.body.bottom:
                continue
            if group % 2:
                stripe = pygame.Surface((self.table.width, self.row_h), pygame.SRCALPHA)
                stripe.fill((255, 255, 255, 14))
                surface.blit(stripe, (self.table.x, top))
            for index, column in enumerate(COLUMNS):
                if index == 0 and not first:
                    continue
                self._cell(surface, index, top, column.value(preset, strength, entry), theme.text)
        surface.set_clip(clip)
        self.scrollbar.draw(
            surface, self.scroll, self.body.height, self.content_h, theme.dim, theme.accent
        )
        # Totals under the body.
        total = self.stats.total()
        y = self.body.bottom + px(8)
        pygame.draw.line(
            surface, theme.dim, (self.table.x, y - px(4)), (self.table.right, y - px(4)), 1
        )
        label = _("All games")
        if total.hands_with_undo:  # hands in which the player took a move back
            label = _("All games ({count} with an undo)").format(count=total.hands_with_undo)
        self._cell(surface, 0, y, label, theme.accent, bold=True)
        for index in range(2, len(COLUMNS)):
            value = COLUMNS[index].value("", "", total)
            self._cell(surface, index, y, value, theme.accent, bold=True)
        # The runs won in a row, under the totals.
        line = pygame.Rect(
            self.table.x + px(6), y + self.row_h, self.table.width - px(12), self.row_h
        )
        self.painter.fit(surface, streaks_text(self.stats.streaks), line, px(17), theme.text)

    def _draw_dialog(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        darken(surface, 150)
        pygame.draw.rect(
            surface,
            (14, 34, 24) if not app.settings.high_contrast else (0, 0, 0),
            self.dialog,
            border_radius=px(14),
        )
        pygame.draw.rect(surface, theme.accent, self.dialog, width=2, border_radius=px(14))
        inner = self.dialog.inflate(-px(40), -px(30))
        head = pygame.Rect(inner.x, inner.y, inner.width, px(34))
        self.painter.fit(
            surface, _("Reset all statistics?"), head, px(26), theme.text, True, "center"
        )
        text = _("Every count for every game is deleted. This cannot be undone.")
        room = pygame.Rect(
            inner.x,
            head.bottom + px(8),
            inner.width,
            self.cancel_button.rect.top - head.bottom - px(16),
        )
        self.painter.paragraph(surface, text, room, px(18), theme.dim, align="center")
        self.dialog_group.draw(surface, app.assets, theme)
