"""A slider: drag it, click the track, or Left/Right."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.base import Label, Widget
from briscola.gui.widgets.draw import draw_focus, fit_text
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class Slider(Widget):
    """A value from 0 to 1 in steps of ``step``."""

    def __init__(
        self,
        label: Label,
        value: float,
        on_change: Callable[[float], None],
        rect: pygame.Rect | None = None,
        step: float = 0.1,
        name: str = "",
    ) -> None:
        super().__init__(rect)
        self.label = label
        self.value = value
        self.on_change = on_change
        self.step_size = step
        self.name = name

    def _track(self) -> pygame.Rect:
        r = self.rect
        width = int(r.width * 0.48)
        return pygame.Rect(r.right - width + 10, r.centery - 4, width - 20, 8)

    def step(self, direction: int) -> bool:
        new = round(min(1.0, max(0.0, self.value + direction * self.step_size)), 3)
        if new != self.value:
            self.value = new
            self.on_change(new)
        return True

    def click(self, pos: tuple[int, int]) -> None:
        track = self._track()
        if track.inflate(0, self.rect.height).collidepoint(pos):
            new = round(min(1.0, max(0.0, (pos[0] - track.x) / max(1, track.width))), 2)
            self.value = new
            self.on_change(new)

    def drag(self, pos: tuple[int, int]) -> None:
        self.click(pos)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        r = self.rect
        track = self._track()
        label = f"{self.label()}  {round(self.value * 100)}%"
        size = fit_text(assets, label, int(r.height * 0.46), track.x - r.x - 20)
        text = assets.text(label, size, theme.text)
        surface.blit(text, text.get_rect(midleft=(r.x + 8, r.centery)))
        pygame.draw.rect(surface, theme.button, track, border_radius=4)
        filled = track.copy()
        filled.width = int(track.width * self.value)
        pygame.draw.rect(surface, theme.accent, filled, border_radius=4)
        knob = (track.x + filled.width, track.centery)
        pygame.draw.circle(surface, theme.button_text, knob, max(6, r.height // 4))
        if focused:
            draw_focus(surface, r, theme, max(4, r.height // 4))
