"""Damage: the parts of the window that a frame must draw again.

A partial frame restores the cached still layer inside its damaged rectangles, draws what
lies over them, and hands the same rectangles to ``pygame.display.update``. Rectangles that
touch are merged (each one costs a blit and an update of its own), and a region that grows
past a share of the window is better drawn whole.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

#: A region covering more than this share of the window is drawn whole: one full blit
#: and one full update cost less than many large partial ones.
WHOLE_SHARE = 0.45
#: At most this many rectangles: beyond that they are merged into their bounding box.
MOST_RECTS = 12


class Region:
    """A set of rectangles within a window of ``size``, kept merged."""

    def __init__(self, size: tuple[int, int], rects: Iterable[pygame.Rect] = ()) -> None:
        self.bounds = pygame.Rect((0, 0), size)
        self.rects: list[pygame.Rect] = []
        for rect in rects:
            self.add(rect)

    def add(self, rect: pygame.Rect) -> None:
        """Add ``rect`` (clipped to the window), merging it with the rectangles it touches."""
        rect = rect.clip(self.bounds)
        if rect.width <= 0 or rect.height <= 0:
            return
        merged = True
        while merged:
            merged = False
            for index, other in enumerate(self.rects):
                if other.colliderect(rect) or _adjacent(other, rect):
                    rect = rect.union(self.rects.pop(index))
                    merged = True
                    break
        self.rects.append(rect)
        if len(self.rects) > MOST_RECTS:
            whole = self.rects[0].unionall(self.rects[1:])
            self.rects = [whole]

    def extend(self, rects: Iterable[pygame.Rect]) -> None:
        for rect in rects:
            self.add(rect)

    def touches(self, rect: pygame.Rect) -> bool:
        return rect.collidelist(self.rects) >= 0

    def covers(self, rect: pygame.Rect) -> bool:
        """``rect`` (clipped to the window) lies inside one of the rectangles."""
        rect = rect.clip(self.bounds)
        if rect.width <= 0 or rect.height <= 0:
            return True
        return any(other.contains(rect) for other in self.rects)

    @property
    def area(self) -> int:
        return sum(r.width * r.height for r in self.rects)

    @property
    def too_big(self) -> bool:
        """Worth drawing the whole window instead."""
        return self.area > WHOLE_SHARE * self.bounds.width * self.bounds.height

    def __bool__(self) -> bool:
        return bool(self.rects)


def _adjacent(a: pygame.Rect, b: pygame.Rect) -> bool:
    """``a`` and ``b`` share an edge (merging them costs nothing)."""
    return a.inflate(2, 2).colliderect(b)
