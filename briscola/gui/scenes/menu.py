"""The main menu: New game, Play online, Continue, Statistics, Replay, Settings, Rules, Quit."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pygame

from briscola.engine import Card
from briscola.gui.scene import Scene
from briscola.gui.widgets import Button, WidgetGroup, scaled_px
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.scene import Services

FAN = ("AD", "3C", "KS", "AB", "3S")


class MenuScene(Scene):
    def __init__(self, app: Services) -> None:
        super().__init__(app)
        self.t = 0.0
        self._fan_cache: tuple[tuple[int, str], pygame.Surface] | None = None
        self.continue_button = Button(lambda: _("Continue"), self.resume, name="continue")
        #: Under the fan of cards (not in the column, which keeps its height).
        self.lesson_button = Button(lambda: _("Learn to play"), self.lesson, name="lesson")
        self.buttons = [
            self.continue_button,
            Button(lambda: _("New game"), self.new_game, name="new_game"),
            Button(lambda: _("Play online"), self.online, name="online"),
            self.lesson_button,
            Button(lambda: _("Statistics"), self.statistics, name="statistics"),
            Button(lambda: _("Replay a game"), self.replay, name="replay"),
            Button(lambda: _("Settings"), self.settings, name="settings"),
            Button(lambda: _("Rules"), self.rules, name="rules"),
            Button(lambda: _("Quit"), app.quit, name="quit"),
        ]
        self.group = WidgetGroup(self.buttons)
        self.k = 1.0

    def px(self, value: float) -> int:
        """A design size in pixels: the App's scale, as far as the buttons and the title still
        fit the window's height (a large UI scale in a small window)."""
        return scaled_px(value, self.k)

    # ------------------------------------------------------------------ actions

    def button(self, name: str) -> Button:
        return next(b for b in self.buttons if b.name == name)

    def resume(self) -> None:
        if self.app.open("resume") is None:
            self._refresh()

    def new_game(self) -> None:
        self.app.open("newgame")

    def online(self) -> None:
        self.app.open("online")

    def lesson(self) -> None:
        self.app.open("lesson")

    def statistics(self) -> None:
        self.app.open("stats")

    def replay(self) -> None:
        self.app.open("replays")

    def settings(self) -> None:
        self.app.open("settings")

    def rules(self) -> None:
        self.app.open("rules")

    # ------------------------------------------------------------------ scene

    def _refresh(self) -> None:
        self.continue_button.enabled = self.app.storage.autosave.exists()
        if not self.continue_button.enabled and self.group.focused is self.continue_button:
            self.group.focus_widget(self.buttons[1])

    def on_enter(self) -> None:
        self._refresh()
        self.group.focus_widget(
            self.buttons[0] if self.continue_button.enabled else self.buttons[1]
        )

    def on_resume(self) -> None:
        self._refresh()

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        # Title and subtitle (about 120 design px), the buttons and a margin under them fill
        # at most the 84 % of the height below the title's place.
        column = [b for b in self.buttons if b is not self.lesson_button]
        self.k = min(self.app.ui_scale, h * 0.84 / (120 + len(column) * 56 + 30))
        px = self.px
        bw, bh, gap = px(300), px(46), px(10)
        total = len(column) * bh + (len(column) - 1) * gap
        top = min(max(int(h * 0.42), h - total - px(40)), h - total - px(30))
        x = w // 2 - bw // 2 if w < px(1000) else int(w * 0.62)
        for i, button in enumerate(column):
            button.rect = pygame.Rect(x, top + i * (bh + gap), bw, bh)
        # The first lesson: under the fan of cards, or in the bottom left corner of a narrow
        # window (the fan is then above the column).
        lesson = pygame.Rect(0, 0, px(240), bh)
        if w < px(1000):
            lesson.width = max(px(120), min(lesson.width, x - px(32)))
            lesson.bottomleft = (px(16), h - px(16))
        else:
            fan_bottom = int(h * 0.52) + round(px(120) * 1.6 * 1.9 / 2)
            lesson.midtop = (int(w * 0.3), min(fan_bottom + px(12), h - bh - px(16)))
        self.lesson_button.rect = lesson

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.group.handle_event(event):
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                self.app.audio.play("click", 0.6)
            return

    def update(self, dt: float) -> None:
        self.t += dt

    def next_frame_in(self) -> float | None:
        return None  # still until input

    def _fan(self, width: int, style: str) -> pygame.Surface:
        key = (width, style)
        if self._fan_cache is not None and self._fan_cache[0] == key:
            return self._fan_cache[1]
        assets = self.app.assets
        height = round(width * 1.6)
        spread = width * 1.5
        size = (int(width * 5.2), int(height * 1.9))
        fan = pygame.Surface(size, pygame.SRCALPHA)
        cx, cy = size[0] / 2, size[1] / 2 + height * 0.1
        count = len(FAN)
        for i, code in enumerate(FAN):
            angle = (i - (count - 1) / 2) * 11
            face = assets.card_face(Card.from_code(code), style, width)
            rotated = pygame.transform.rotozoom(face, -angle, 1.0)
            shadow = pygame.transform.rotozoom(assets.shadow(width), -angle, 1.0)
            rad = math.radians(angle)
            x = cx + math.sin(rad) * spread
            y = cy - math.cos(rad) * spread + spread
            offset = max(2, width // 30)
            fan.blit(shadow, shadow.get_rect(center=(x + offset, y + offset * 1.5)))
            fan.blit(rotated, rotated.get_rect(center=(x, y)))
        self._fan_cache = (key, fan)
        return fan

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        px = self.px
        theme = app.theme
        app.draw_backdrop(surface)
        w, h = surface.get_size()
        # A fan of cards (drawn once per size and deck style).
        narrow = w < px(1000)
        width = px(80) if narrow else px(120)
        centre = (w // 2, int(h * 0.27)) if narrow else (int(w * 0.3), int(h * 0.52))
        fan = self._fan(width, app.settings.deck_style)
        surface.blit(fan, fan.get_rect(center=centre))
        # Title
        title_centre_x = w // 2 if narrow else self.buttons[0].rect.centerx
        title_y = int(h * 0.06) if narrow else int(h * 0.16)
        if narrow:
            title_y = int(h * 0.02)
        title = app.assets.text(
            _("Briscola"), px(64 if not narrow else 44), theme.accent, bold=True
        )
        shadow_text = app.assets.text(
            _("Briscola"), px(64 if not narrow else 44), (0, 0, 0), bold=True
        )
        rect = title.get_rect(midtop=(title_centre_x, title_y))
        surface.blit(shadow_text, rect.move(px(3), px(3)))
        surface.blit(title, rect)
        subtitle = app.assets.text(_("The Italian card game"), px(20), theme.text)
        surface.blit(subtitle, subtitle.get_rect(midtop=(title_centre_x, rect.bottom)))
        self.group.draw(surface, app.assets, theme)
        version = app.assets.text(f"v{app.version()}", px(14), theme.dim)
        surface.blit(version, version.get_rect(bottomright=(w - px(10), h - px(8))))
