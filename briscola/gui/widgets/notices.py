"""The App's notices (a saved record, a report sent, a table moved to another port), drawn
over every scene: stacked at the top centre, each on a nearly opaque panel, wrapped to a
readable width so that a long one (or a long language) never leaves the window."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from briscola.gui.render.assets import Assets
from briscola.gui.widgets.text import wrap_text
from briscola.gui.widgets.theme import Theme

#: The widest a notice's lines run, in design pixels (a line of 70 to 90 characters).
NOTICE_WIDTH = 820


def draw_notices(
    surface: pygame.Surface,
    texts: Sequence[str],
    assets: Assets,
    theme: Theme,
    px: Callable[[float], int],
) -> None:
    """``texts`` (the newest last), one panel each, from the top of ``surface`` down."""
    size = px(18)
    font = assets.font(size)
    width = min(surface.get_width() - px(48), px(NOTICE_WIDTH))
    y = px(10)
    for notice in texts:
        lines = [assets.text(line, size, theme.text) for line in wrap_text(font, notice, width)]
        box = pygame.Rect(
            0, 0, max(t.get_width() for t in lines), sum(t.get_height() for t in lines)
        )
        rect = box.inflate(px(24), px(12))
        rect.midtop = (surface.get_width() // 2, y)
        panel = pygame.Surface(rect.size, pygame.SRCALPHA)
        # Nearly opaque: a notice over a page title reads as a layer, not as a text clash.
        pygame.draw.rect(panel, (0, 0, 0, 232), panel.get_rect(), border_radius=8)
        surface.blit(panel, rect)
        top = rect.y + px(6)
        for text in lines:
            surface.blit(text, text.get_rect(midtop=(rect.centerx, top)))
            top += text.get_height()
        y = rect.bottom + px(6)
