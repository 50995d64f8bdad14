"""A vertical scrollbar, and the keys and wheel that scroll."""

from __future__ import annotations

import pygame

from briscola.gui.widgets.theme import Colour


class Scrollbar:
    """A vertical scrollbar beside a view; the thumb can be dragged, the track clicked."""

    def __init__(self) -> None:
        self.track = pygame.Rect(0, 0, 8, 100)
        self.dragging = False
        self._grab = 0

    def thumb(self, offset: float, view: int, content: int) -> pygame.Rect:
        if content <= view:
            return self.track.copy()
        height = max(self.track.width * 3, round(self.track.height * view / content))
        travel = self.track.height - height
        top = self.track.top + round(travel * offset / max(1, content - view))
        return pygame.Rect(self.track.x, top, self.track.width, height)

    def handle_event(
        self, event: pygame.event.Event, offset: float, view: int, content: int
    ) -> float | None:
        """A new scroll offset when the event moves the bar, else None."""
        if content <= view:
            return None
        thumb = self.thumb(offset, view, content)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = self.track.inflate(self.track.width * 2, 0)
            if thumb.inflate(self.track.width * 2, 0).collidepoint(event.pos):
                self.dragging = True
                self._grab = event.pos[1] - thumb.top
                return offset
            if hit.collidepoint(event.pos):
                page = view * 0.9
                return offset + (page if event.pos[1] > thumb.centery else -page)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.dragging:
                self.dragging = False
                return offset
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            travel = self.track.height - thumb.height
            top = event.pos[1] - self._grab - self.track.top
            return float(max(0, min(1, top / max(1, travel))) * (content - view))
        return None

    def draw(
        self,
        surface: pygame.Surface,
        offset: float,
        view: int,
        content: int,
        colour: Colour,
        accent: Colour,
    ) -> None:
        if content <= view:
            return
        radius = self.track.width // 2
        track = pygame.Surface(self.track.size, pygame.SRCALPHA)
        pygame.draw.rect(track, (0, 0, 0, 110), track.get_rect(), border_radius=radius)
        surface.blit(track, self.track)
        thumb = self.thumb(offset, view, content)
        pygame.draw.rect(surface, accent if self.dragging else colour, thumb, border_radius=radius)


def scroll_keys(event: pygame.event.Event, line: int, page: int) -> float | None:
    """The scroll change asked by a key or the mouse wheel (None: not a scroll event)."""
    if event.type == pygame.MOUSEWHEEL:
        return float(-event.y * line * 1.5)
    if event.type != pygame.KEYDOWN:
        return None
    return {
        pygame.K_UP: -line,
        pygame.K_DOWN: line,
        pygame.K_PAGEUP: -page,
        pygame.K_PAGEDOWN: page,
        pygame.K_HOME: -1e9,
        pygame.K_END: 1e9,
    }.get(event.key)
