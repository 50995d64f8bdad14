"""Full-window pages (new game, settings, statistics, score): laid out on a 1180 x 720
design, scaled to fit the window and the UI scale."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from ..scene import Scene
from ..widgets import draw_panel
from .rules import TextPainter, draw_title, fitted_scale

if TYPE_CHECKING:
    from ..app import App

DESIGN = (1180, 720)


@dataclass(frozen=True)
class PageFrame:
    """A title band at the top, the body, and room for a row of buttons at the bottom."""

    title: pygame.Rect
    body: pygame.Rect
    margin: int
    button_h: int

    def columns(self, gap: int) -> tuple[pygame.Rect, pygame.Rect]:
        """The body split into two panels ``gap`` apart."""
        body = self.body
        left_w = (body.width - gap) // 2
        left = pygame.Rect(body.x, body.y, left_w, body.height)
        right = pygame.Rect(left.right + gap, body.y, body.width - left_w - gap, body.height)
        return left, right


class PageScene(Scene):
    """A scene sized in design pixels: ``px(v)`` is ``v`` at the current scale ``k``."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.k = 1.0
        self.painter = TextPainter(app.assets)
        self.title_box = pygame.Rect(0, 0, 1, 1)

    def px(self, value: float) -> int:
        return max(1, round(value * self.k))

    def page_frame(self, size: tuple[int, int], max_width: int) -> PageFrame:
        """Rescale for ``size`` and lay out the frame (body at most ``max_width`` design
        pixels wide, centred); the title is drawn in ``frame.title``."""
        w, h = size
        self.k = fitted_scale(self.app, *DESIGN)
        px = self.px
        margin = px(22)
        title = pygame.Rect(0, px(12), w, px(48))
        width = min(w - 2 * margin, px(max_width))
        top = title.bottom + px(12)
        button_h = px(46)
        bottom = h - margin - button_h - px(14)
        body = pygame.Rect((w - width) // 2, top, width, bottom - top)
        self.title_box = title
        return PageFrame(title, body, margin, button_h)

    def draw_page(self, surface: pygame.Surface, title: str, *panels: pygame.Rect) -> None:
        """Begin a frame: the backdrop, the title and the panels."""
        theme = self.app.theme
        self.painter.begin()
        self.app.draw_backdrop(surface)
        draw_title(self.painter, surface, title, self.title_box, theme.accent)
        for panel in panels:
            draw_panel(surface, panel, theme)
