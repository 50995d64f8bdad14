"""The pictures of the partner signals (*segni*), drawn in code: the faces a partner makes at
a bar table (lips pushed forward for the Ace of trump, a twisted mouth for the Three, eyes
to the sky for the King, fingers rubbing for a lower trump, narrowed eyes for no trump,
puffed cheeks for a carico) and two plain signs for "take it" and "let it go".

Each is drawn four times larger and scaled down (smooth edges), and cached per size.
"""

from __future__ import annotations

import functools
import math

import pygame

__all__ = ["signal_icon"]

SKIN = (250, 208, 140)
INK = (58, 36, 22)
LIPS = (196, 62, 72)
CHEEK = (238, 132, 124)
WHITE = (252, 250, 244)
TAKE = (72, 150, 96)
LEAVE = (96, 120, 168)

Point = tuple[float, float]


@functools.lru_cache(maxsize=64)
def signal_icon(kind: str, size: int) -> pygame.Surface:
    """The picture of ``kind`` (one of :data:`briscola.engine.SIGNAL_KINDS`), ``size``
    pixels square, on a transparent background."""
    big = max(8, size) * 4
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    draw = _DRAWERS.get(kind, _plain)
    draw(surface, big)
    return pygame.transform.smoothscale(surface, (max(1, size), max(1, size)))


def _p(s: int, x: float, y: float) -> tuple[int, int]:
    return round(x * s), round(y * s)


def _face(surface: pygame.Surface, s: int, wide: float = 1.0) -> None:
    rect = pygame.Rect(0, 0, round(s * 0.86 * wide), round(s * 0.86))
    rect.center = (s // 2, s // 2)
    pygame.draw.ellipse(surface, SKIN, rect)
    pygame.draw.ellipse(surface, INK, rect, max(2, s // 26))


def _eyes(surface: pygame.Surface, s: int, y: float = 0.4) -> None:
    for x in (0.35, 0.65):
        pygame.draw.circle(surface, INK, _p(s, x, y), round(s * 0.055))


def _line(surface: pygame.Surface, s: int, a: Point, b: Point, width: float = 0.045) -> None:
    pygame.draw.line(surface, INK, _p(s, *a), _p(s, *b), max(2, round(s * width)))


def _ace(surface: pygame.Surface, s: int) -> None:
    """Lips pushed forward, as for a kiss."""
    _face(surface, s)
    _eyes(surface, s)
    lips = pygame.Rect(0, 0, round(s * 0.2), round(s * 0.16))
    lips.center = _p(s, 0.5, 0.68)
    pygame.draw.ellipse(surface, LIPS, lips)
    pygame.draw.ellipse(surface, INK, lips, max(2, s // 40))
    _line(surface, s, (0.5, 0.64), (0.5, 0.72), 0.025)
    for dx in (-1, 1):  # little marks of the lips moving forward
        _line(surface, s, (0.5 + dx * 0.17, 0.63), (0.5 + dx * 0.22, 0.6), 0.025)


def _three(surface: pygame.Surface, s: int) -> None:
    """The mouth twisted to one corner."""
    _face(surface, s)
    _eyes(surface, s)
    _line(surface, s, (0.36, 0.7), (0.58, 0.66))
    _line(surface, s, (0.58, 0.66), (0.68, 0.57))


def _king(surface: pygame.Surface, s: int) -> None:
    """Eyes to the sky."""
    _face(surface, s)
    for x in (0.35, 0.65):
        white = pygame.Rect(0, 0, round(s * 0.2), round(s * 0.17))
        white.center = _p(s, x, 0.42)
        pygame.draw.ellipse(surface, WHITE, white)
        pygame.draw.ellipse(surface, INK, white, max(2, s // 40))
        pygame.draw.circle(surface, INK, _p(s, x, 0.375), round(s * 0.045))
    _line(surface, s, (0.4, 0.7), (0.6, 0.7))
    # An arrow up, over the head.
    _line(surface, s, (0.5, 0.2), (0.5, 0.04), 0.035)
    pygame.draw.polygon(surface, INK, [_p(s, 0.5, 0.0), _p(s, 0.43, 0.09), _p(s, 0.57, 0.09)])


def _trump(surface: pygame.Surface, s: int) -> None:
    """Thumb rubbing the forefinger: a smaller trump."""
    _face(surface, s)
    _eyes(surface, s)
    _line(surface, s, (0.4, 0.66), (0.6, 0.66))
    for cx, cy in ((0.74, 0.78), (0.84, 0.72)):  # two fingertips
        pygame.draw.circle(surface, SKIN, _p(s, cx, cy), round(s * 0.1))
        pygame.draw.circle(surface, INK, _p(s, cx, cy), round(s * 0.1), max(2, s // 40))
    for r in (0.2, 0.26):  # motion
        rect = pygame.Rect(0, 0, round(s * r * 2), round(s * r * 2))
        rect.center = _p(s, 0.79, 0.75)
        pygame.draw.arc(surface, INK, rect, -0.6, 0.6, max(2, s // 50))


def _none(surface: pygame.Surface, s: int) -> None:
    """Narrowed eyes: no trump."""
    _face(surface, s)
    for x in (0.35, 0.65):
        _line(surface, s, (x - 0.09, 0.41), (x + 0.09, 0.43), 0.05)
    _line(surface, s, (0.4, 0.69), (0.6, 0.69))


def _carico(surface: pygame.Surface, s: int) -> None:
    """Puffed cheeks: an Ace or a Three of another suit."""
    _face(surface, s, wide=1.1)
    _eyes(surface, s, 0.38)
    for x in (0.22, 0.78):
        pygame.draw.circle(surface, CHEEK, _p(s, x, 0.6), round(s * 0.11))
    pygame.draw.circle(surface, INK, _p(s, 0.5, 0.68), round(s * 0.045))


def _disc(surface: pygame.Surface, s: int, colour: tuple[int, int, int]) -> None:
    pygame.draw.circle(surface, colour, (s // 2, s // 2), round(s * 0.44))
    pygame.draw.circle(surface, INK, (s // 2, s // 2), round(s * 0.44), max(2, s // 26))


def _take(surface: pygame.Surface, s: int) -> None:
    """Take it: an arrow down onto the trick."""
    _disc(surface, s, TAKE)
    white = max(3, round(s * 0.08))
    pygame.draw.line(surface, WHITE, _p(s, 0.5, 0.22), _p(s, 0.5, 0.58), white)
    pygame.draw.polygon(surface, WHITE, [_p(s, 0.5, 0.7), _p(s, 0.36, 0.54), _p(s, 0.64, 0.54)])
    pygame.draw.line(surface, WHITE, _p(s, 0.3, 0.78), _p(s, 0.7, 0.78), white)


def _leave(surface: pygame.Surface, s: int) -> None:
    """Let it go: an arrow passing over the trick."""
    _disc(surface, s, LEAVE)
    white = max(3, round(s * 0.07))
    rect = pygame.Rect(0, 0, round(s * 0.5), round(s * 0.46))
    rect.center = _p(s, 0.5, 0.55)
    pygame.draw.arc(surface, WHITE, rect, math.radians(20), math.radians(170), white)
    pygame.draw.polygon(surface, WHITE, [_p(s, 0.76, 0.5), _p(s, 0.64, 0.42), _p(s, 0.78, 0.36)])
    pygame.draw.line(surface, WHITE, _p(s, 0.3, 0.72), _p(s, 0.7, 0.72), white)


def _plain(surface: pygame.Surface, s: int) -> None:
    _face(surface, s)
    _eyes(surface, s)


_DRAWERS = {
    "ace": _ace,
    "three": _three,
    "king": _king,
    "trump": _trump,
    "none": _none,
    "carico": _carico,
    "take": _take,
    "leave": _leave,
}
