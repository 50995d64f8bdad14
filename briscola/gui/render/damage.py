"""Damage: the parts of the window that a frame must draw again.

A partial frame restores the cached still layer inside its damaged rectangles, draws what
lies over them, and hands the same rectangles to ``pygame.display.update``. Rectangles are
merged where their bounding box wastes little (each one costs a blit and an update of its
own, but a bounding box around an L of two far rectangles costs far more pixels): the rest
stay apart, overlapping or not, and what they cover is their union. A region that grows past
a share of the window is better drawn whole.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

import pygame

#: Draws something over the cards (chrome) and returns where it drew (None: it cannot say,
#: and the frame is drawn whole).
Chrome = Callable[[pygame.Surface], list[pygame.Rect] | None]
#: A piece of the chrome: its name (the same from frame to frame), a key of everything its
#: drawing depends on (None: it changes every frame) and what draws it (see ``Chrome``).
#: Two frames that give a piece the same key must draw the very same pixels for it.
Piece = tuple[Hashable, Hashable | None, Chrome]

#: A region covering more than this share of the window is drawn whole: one full blit
#: and one full update cost less than many large partial ones.
WHOLE_SHARE = 0.45
#: At most this many rectangles: beyond that the two whose bounding box wastes least merge.
MOST_RECTS = 12
#: Two touching rectangles merge when their bounding box is at most this many times the
#: area they cover (two overlapping cards' boxes: yes; a card and a long strip: no).
MERGE_WASTE = 1.4
#: Touching rectangles whose bounding box adds at most this many pixels merge whatever the
#: ratio: one more blit and update cost more than those pixels.
SMALL = 64 * 64


class Region:
    """A set of rectangles within a window of ``size``; what it covers is their union."""

    def __init__(self, size: tuple[int, int], rects: Iterable[pygame.Rect] = ()) -> None:
        self.bounds = pygame.Rect((0, 0), size)
        self.rects: list[pygame.Rect] = []
        for rect in rects:
            self.add(rect)

    def add(self, rect: pygame.Rect) -> None:
        """Add ``rect`` (clipped to the window), merged with the rectangles it touches
        where their bounding box wastes little (see ``MERGE_WASTE``)."""
        rect = rect.clip(self.bounds)
        if rect.width <= 0 or rect.height <= 0:
            return
        if any(other.contains(rect) for other in self.rects):
            return
        merged = True
        while merged:
            merged = False
            for index, other in enumerate(self.rects):
                touching = other.colliderect(rect) or _adjacent(other, rect)
                if touching and _worth_merging(other, rect):
                    rect = rect.union(self.rects.pop(index))
                    merged = True
                    break
        self.rects = [other for other in self.rects if not rect.contains(other)]
        self.rects.append(rect)
        while len(self.rects) > MOST_RECTS:
            self._merge_cheapest()

    def _merge_cheapest(self) -> None:
        """Merge the two rectangles whose bounding box adds the fewest pixels."""
        best: tuple[int, int, int] | None = None
        for i, a in enumerate(self.rects):
            for j in range(i + 1, len(self.rects)):
                waste = _waste(a, self.rects[j])
                if best is None or waste < best[0]:
                    best = (waste, i, j)
        assert best is not None
        _waste_px, i, j = best
        union = self.rects[i].union(self.rects[j])
        del self.rects[j], self.rects[i]
        self.rects = [other for other in self.rects if not union.contains(other)]
        self.rects.append(union)

    def extend(self, rects: Iterable[pygame.Rect]) -> None:
        for rect in rects:
            self.add(rect)

    def touches(self, rect: pygame.Rect) -> bool:
        return rect.collidelist(self.rects) >= 0

    def covers(self, rect: pygame.Rect) -> bool:
        """``rect`` (clipped to the window) lies inside the union of the rectangles."""
        rect = rect.clip(self.bounds)
        if rect.width <= 0 or rect.height <= 0:
            return True
        touching = [self.rects[i] for i in rect.collidelistall(self.rects)]
        for other in touching:  # the usual case: inside one of them
            if other.contains(rect):
                return True
        if len(touching) < 2:
            return False
        pieces = [rect]
        for other in touching:
            pieces = [part for piece in pieces for part in _subtract(piece, other)]
            if not pieces:
                return True
        return False

    @property
    def area(self) -> int:
        """The pixels restored (overlaps counted as often as they are restored)."""
        return sum(r.width * r.height for r in self.rects)

    @property
    def too_big(self) -> bool:
        """Worth drawing the whole window instead."""
        return self.area > WHOLE_SHARE * self.bounds.width * self.bounds.height

    def __bool__(self) -> bool:
        return bool(self.rects)


def _adjacent(a: pygame.Rect, b: pygame.Rect) -> bool:
    """``a`` and ``b`` share an edge (merging them may cost nothing)."""
    return a.inflate(2, 2).colliderect(b)


def _covered(a: pygame.Rect, b: pygame.Rect) -> int:
    """The pixels ``a`` and ``b`` cover together."""
    both = a.clip(b)
    return a.width * a.height + b.width * b.height - both.width * both.height


def _waste(a: pygame.Rect, b: pygame.Rect) -> int:
    """The pixels the bounding box of ``a`` and ``b`` adds to what they cover."""
    union = a.union(b)
    return union.width * union.height - _covered(a, b)


def _worth_merging(a: pygame.Rect, b: pygame.Rect) -> bool:
    union = a.union(b)
    covered = _covered(a, b)
    return union.width * union.height - covered <= SMALL or (
        union.width * union.height <= MERGE_WASTE * covered
    )


def _subtract(piece: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """What of ``piece`` lies outside ``hole``, as up to four rectangles."""
    inner = piece.clip(hole)
    if inner.width <= 0 or inner.height <= 0:
        return [piece]
    parts = [
        pygame.Rect(piece.x, piece.y, piece.width, inner.y - piece.y),
        pygame.Rect(piece.x, inner.bottom, piece.width, piece.bottom - inner.bottom),
        pygame.Rect(piece.x, inner.y, inner.x - piece.x, inner.height),
        pygame.Rect(inner.right, inner.y, piece.right - inner.right, inner.height),
    ]
    return [part for part in parts if part.width > 0 and part.height > 0]
