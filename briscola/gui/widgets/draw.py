"""Small drawing helpers: translucent rounded panels, the veil under a dialog, a dialog over
the table, fitted text sizes, the focus ring, the arrow of the direction of play."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
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


def darken(surface: pygame.Surface, alpha: int) -> None:
    """Darken what ``surface`` shows (within its clip) as a black veil of ``alpha`` over it
    would: each colour multiplied by ``(255 - alpha) / 255`` in place, with no window-sized
    layer made and blended each frame (at 3840x2160 that layer alone cost 13 ms)."""
    keep = 255 - alpha
    surface.fill((keep, keep, keep), special_flags=pygame.BLEND_MULT)


def veiled_backdrop_under(
    surface: pygame.Surface,
    rect: pygame.Rect,
    draw_backdrop: Callable[[pygame.Surface], None],
    alpha: int,
) -> None:
    """The bare backdrop under a dialog's ``rect``, darkened like the table around it, so
    that nothing of the table (cards, names, chips) shows through the dialog."""
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip))
    draw_backdrop(surface)
    darken(surface, alpha)
    surface.set_clip(clip)


def draw_panel(
    surface: pygame.Surface, rect: pygame.Rect, theme: Theme = THEME, radius: int = 14
) -> None:
    """A translucent rounded panel."""
    surface.blit(rounded(rect.size, theme.panel, radius), rect.topleft)


def draw_dialog(
    surface: pygame.Surface,
    rect: pygame.Rect,
    draw_backdrop: Callable[[pygame.Surface], None],
    theme: Theme,
    frame: int,
) -> None:
    """A dialog over the table (the table's menu, quick chat): the table darkened, the
    dialog a :func:`draw_solid_panel`."""
    darken(surface, 150)
    draw_solid_panel(surface, rect, draw_backdrop, theme, frame, 150)


def draw_solid_panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    draw_backdrop: Callable[[pygame.Surface], None],
    theme: Theme,
    frame: int,
    veil: int = 0,
) -> None:
    """A panel over the table that nothing of the table shows through (the bare backdrop
    under it, darkened by ``veil``), framed, so that where it crosses a name chip it reads
    as lying over it."""
    if veil:
        veiled_backdrop_under(surface, rect, draw_backdrop, veil)
    else:
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))
        draw_backdrop(surface)
        surface.set_clip(clip)
    draw_panel(surface, rect, theme)
    pygame.draw.rect(surface, theme.button_hover, rect, width=frame, border_radius=14)


def fit_text(assets: Assets, text: str, size: int, width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` at which ``text`` fits ``width`` pixels."""
    return assets.fit(text, size, width, bold)


def draw_focus(surface: pygame.Surface, rect: pygame.Rect, theme: Theme, radius: int) -> None:
    """The keyboard focus ring."""
    pygame.draw.rect(surface, theme.focus, rect.inflate(8, 8), width=3, border_radius=radius + 4)


def draw_turn_arrow(
    surface: pygame.Surface,
    table: pygame.Rect,
    colour: tuple[int, int, int],
    px: Callable[[float], int],
) -> None:
    """A counterclockwise arrow in the middle of ``table`` (the direction of play)."""
    rx, ry = table.width * 0.26, table.height * 0.26
    cx, cy = table.center
    width = max(2, px(2))
    # On screen, counterclockwise from the bottom goes right, up, then left.
    points = []
    for step in range(0, 21):
        a = math.radians(200 + step * 12)  # screen angle, y down
        points.append((cx + rx * math.cos(a), cy - ry * math.sin(a)))
    pygame.draw.lines(surface, colour, False, points, width)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    angle = math.atan2(y2 - y1, x2 - x1)
    size = px(8)
    head = [
        (x2 + math.cos(angle) * size * 0.4, y2 + math.sin(angle) * size * 0.4),
        (x2 + math.cos(angle + 2.5) * size, y2 + math.sin(angle + 2.5) * size),
        (x2 + math.cos(angle - 2.5) * size, y2 + math.sin(angle - 2.5) * size),
    ]
    pygame.draw.polygon(surface, colour, head)
