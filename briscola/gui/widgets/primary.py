"""The main action of a screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.button import Button
from briscola.gui.widgets.draw import fit_text
from briscola.gui.widgets.theme import Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class PrimaryButton(Button):
    """The main action of a screen, drawn in the accent colour (or the danger colour)."""

    danger = False

    def draw(self, surface: pygame.Surface, assets: Assets, theme: Theme, focused: bool) -> None:
        if not self.enabled:
            super().draw(surface, assets, theme, focused)
            return
        radius = max(4, self.rect.height // 4)
        shadow = self.rect.move(0, max(2, self.rect.height // 16))
        pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
        if self.danger:
            colour = theme.danger
        else:
            colour = theme.focus if self.hover or focused else theme.accent
        pygame.draw.rect(surface, colour, self.rect, border_radius=radius)
        pygame.draw.rect(surface, theme.outline, self.rect, width=1, border_radius=radius)
        label = self.label()
        size = fit_text(assets, label, int(self.rect.height * 0.45), self.rect.width - 16, True)
        ink = theme.button_text if self.danger else (24, 20, 10)
        text = assets.text(label, size, ink, bold=True)
        surface.blit(text, text.get_rect(center=self.rect.center))
        if focused:  # a light ring: the focus colour would vanish against the accent
            ring = self.rect.inflate(8, 8)
            pygame.draw.rect(surface, theme.text, ring, width=3, border_radius=radius + 4)
