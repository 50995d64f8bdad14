"""Small drawing helpers: translucent rounded panels, fitted text sizes, the focus ring."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import pygame

from briscola.gui.widgets.theme import THEME, Theme

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


@functools.lru_cache(maxsize=256)
def rounded(
    size: tuple[int, int], colour: tuple[int, int, int, int], radius: int
) -> pygame.Surface:
    """A translucent rounded rectangle, cached (panels are drawn every frame)."""
    panel = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(panel, colour, panel.get_rect(), border_radius=radius)
    return panel


def draw_panel(
    surface: pygame.Surface, rect: pygame.Rect, theme: Theme = THEME, radius: int = 14
) -> None:
    """A translucent rounded panel."""
    surface.blit(rounded(rect.size, theme.panel, radius), rect.topleft)


def fit_text(assets: Assets, text: str, size: int, width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` at which ``text`` fits ``width`` pixels."""
    return assets.fit(text, size, width, bold)


def draw_focus(surface: pygame.Surface, rect: pygame.Rect, theme: Theme, radius: int) -> None:
    """The keyboard focus ring."""
    pygame.draw.rect(surface, theme.focus, rect.inflate(8, 8), width=3, border_radius=radius + 4)
