"""A push button."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.base import Label, Widget
from briscola.gui.widgets.draw import draw_focus, fit_text
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class Button(Widget):
    def __init__(
        self,
        label: Label,
        on_click: Callable[[], None],
        rect: pygame.Rect | None = None,
        enabled: bool = True,
        name: str = "",
    ) -> None:
        super().__init__(rect, enabled)
        self.label = label
        self.on_click = on_click
        self.name = name

    def activate(self) -> None:
        if self.enabled:
            self.on_click()

    def look(self, focused: bool) -> Hashable:
        return (self.label(), tuple(self.rect), self.enabled, self.hover, focused)

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        colour = theme.button_hover if (self.hover or focused) and self.enabled else theme.button
        if not self.enabled:
            colour = theme.disabled
        radius = max(4, self.rect.height // 4)
        shadow = self.rect.move(0, max(2, self.rect.height // 16))
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
        pygame.draw.rect(surface, colour, self.rect, border_radius=radius)
        pygame.draw.rect(surface, theme.outline, self.rect, width=1, border_radius=radius)
        size = fit_text(assets, self.label(), int(self.rect.height * 0.45), self.rect.width - 16)
        text_colour = theme.button_text if self.enabled else theme.dim
        text = assets.text(self.label(), size, text_colour, bold=True)
        surface.blit(text, text.get_rect(center=self.rect.center))
        if focused:
            draw_focus(surface, self.rect, theme, radius)
