"""Where the score screen lays the cards of one side's pile: the cards worth points first, each
showing at least half its face (index and suit) and room for its "+11" under it, then after a
clear gap the cards worth nothing as a compact group. When one line is not wide enough the cards
get smaller, or the row takes a second (or third) line, whichever keeps the cards larger.

Pure arithmetic on integers (no pygame), so that the tests can try any pile in any box:

>>> spec = FanSpec(width=600, height=140, max_card_w=80, min_card_w=30, label_w=28,
...                label_h=18, gap=16, spacing=6, drop=8)
>>> fan = fan_row(3, 2, spec)
>>> fan.card_w, fan.lines, fan.legible
(76, 1, True)
>>> [spot.x for spot in fan.spots]
[0, 82, 164, 256, 338]
>>> big = fan_row(20, 20, spec)
>>> big.legible, big.card_w < 76, all(s.strip >= 28 for s in big.spots[:20])
(True, True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Least part of a card worth points left visible by the next card (index and suit show).
COUNT_STRIP = 0.5
#: Least part of a card worth nothing left visible (its index shows).
BLANK_STRIP = 0.22
#: Card height over width (as in assets.CARD_RATIO).
RATIO = 1.6
#: The most lines a row may take.
MAX_LINES = 3


@dataclass(frozen=True)
class FanSpec:
    """The room for one row of cards, in pixels."""

    width: int
    height: int
    max_card_w: int
    min_card_w: int
    #: Least visible width of a card worth points: its points label must fit under it.
    label_w: int
    #: Height of the points label under a card.
    label_h: int
    #: Space between the cards worth points and the others.
    gap: int
    #: Space between two cards when there is room for whole cards.
    spacing: int
    #: How much lower the cards worth nothing sit.
    drop: int


@dataclass(frozen=True)
class Spot:
    """One card's place, relative to the row's top left corner."""

    x: int
    y: int
    #: Width of the card not covered by the next one (the whole card for the last of a group).
    strip: int
    line: int


@dataclass(frozen=True)
class RowFan:
    card_w: int
    lines: int
    #: In the pile's order: the cards worth points, then the others.
    spots: tuple[Spot, ...]
    #: Every card worth points shows at least its least strip (else the row is squeezed).
    legible: bool


def card_h(width: int) -> int:
    return round(width * RATIO)


def _steps(card_w: int, spec: FanSpec) -> tuple[int, int]:
    """The least step between two cards worth points, and between two worth nothing."""
    count = max(spec.label_w, math.ceil(card_w * COUNT_STRIP))
    blank = max(2, math.ceil(card_w * BLANK_STRIP))
    return count, blank


def _width(
    points: int, blanks: int, count_step: int, blank_step: int, card_w: int, gap: int
) -> int:
    used = 0
    if points:
        used += (points - 1) * count_step + card_w
    if blanks:
        used += (gap if points else 0) + (blanks - 1) * blank_step + card_w
    return used


def _fill(kinds: list[bool], card_w: int, spec: FanSpec) -> list[tuple[int, int]]:
    """``kinds`` (True: worth points) cut greedily into lines at the least steps: per line the
    number of cards worth points and worth nothing."""
    count_step, blank_step = _steps(card_w, spec)
    lines: list[tuple[int, int]] = []
    points = blanks = 0
    for worth in kinds:
        p, b = (points + 1, blanks) if worth else (points, blanks + 1)
        if _width(p, b, count_step, blank_step, card_w, spec.gap) <= spec.width or p + b == 1:
            points, blanks = p, b
            continue
        lines.append((points, blanks))
        points, blanks = (1, 0) if worth else (0, 1)
    if points or blanks:
        lines.append((points, blanks))
    return lines


def _plan(points: int, blanks: int, card_w: int, spec: FanSpec) -> list[tuple[int, int]]:
    """The lines for ``card_w``: the cards worth points on lines of their own and the others
    after them when that takes no more lines than filling every line, else every line full."""
    packed = _fill([True] * points + [False] * blanks, card_w, spec)
    if points and blanks:
        apart = _fill([True] * points, card_w, spec) + _fill([False] * blanks, card_w, spec)
        if len(apart) <= len(packed):
            return apart
    return packed


def _line_height(points: int, blanks: int, card_w: int, spec: FanSpec) -> int:
    tall = card_h(card_w)
    return max(
        tall + spec.label_h if points else 0,
        tall + spec.drop if blanks and points else tall if blanks else 0,
    )


def _fits(lines: list[tuple[int, int]], card_w: int, spec: FanSpec) -> bool:
    if len(lines) > MAX_LINES or (card_w < spec.label_w and any(p for p, _b in lines)):
        return False
    count_step, blank_step = _steps(card_w, spec)
    for points, blanks in lines:
        if _width(points, blanks, count_step, blank_step, card_w, spec.gap) > spec.width:
            return False
    heights = [_line_height(p, b, card_w, spec) for p, b in lines]
    return sum(heights) + spec.spacing * (len(lines) - 1) <= spec.height


def _spread(
    points: int, blanks: int, card_w: int, spec: FanSpec, squeeze: bool
) -> tuple[int, int, int]:
    """Steps for one line (cards worth points, the others) and the gap: the least steps grown
    towards whole cards with the width to spare, the cards worth points first. When
    ``squeeze``, the least steps do not fit: all shrink alike."""
    count_step, blank_step = _steps(card_w, spec)
    natural = card_w + spec.spacing
    gap = spec.gap
    if squeeze:
        room = spec.width - card_w * (1 if points else 0) - card_w * (1 if blanks else 0)
        room -= gap if points and blanks else 0
        slots = max(1, max(0, points - 1) + max(0, blanks - 1))
        step = max(1, room // slots)
        return min(count_step, step), min(blank_step, step), gap
    spare = spec.width - _width(points, blanks, count_step, blank_step, card_w, gap)
    if points > 1:
        grow = min(spare // (points - 1), max(0, natural - count_step))
        count_step += grow
        spare -= grow * (points - 1)
    if blanks > 1:
        grow = min(spare // (blanks - 1), max(0, natural - blank_step))
        blank_step += grow
    return count_step, blank_step, gap


def _place(
    lines: list[tuple[int, int]], card_w: int, spec: FanSpec, legible: bool
) -> tuple[Spot, ...]:
    count_spots: list[Spot] = []
    blank_spots: list[Spot] = []
    y = 0
    for number, (points, blanks) in enumerate(lines):
        count_step, blank_step, gap = _spread(points, blanks, card_w, spec, not legible)
        x = 0
        for i in range(points):
            last = i == points - 1
            strip = card_w if last else min(card_w, count_step)
            count_spots.append(Spot(x, y, strip, number))
            x += count_step
        if points:
            x += card_w - count_step + gap
        drop = spec.drop if points else 0
        for i in range(blanks):
            last = i == blanks - 1
            strip = card_w if last else min(card_w, blank_step)
            blank_spots.append(Spot(x, y + drop, strip, number))
            x += blank_step
        y += _line_height(points, blanks, card_w, spec) + spec.spacing
    return tuple(count_spots + blank_spots)


def fan_row(points: int, blanks: int, spec: FanSpec) -> RowFan:
    """Lay out ``points`` cards worth points and ``blanks`` worth nothing in ``spec``'s room,
    with the largest cards that keep every card legible (squeezed at the smallest when even
    those do not fit)."""
    if points + blanks == 0:
        return RowFan(spec.max_card_w, 0, (), True)
    high = max(spec.min_card_w, spec.max_card_w)
    for card_w in range(high, spec.min_card_w - 1, -1):
        lines = _plan(points, blanks, card_w, spec)
        if _fits(lines, card_w, spec):
            return RowFan(card_w, len(lines), _place(lines, card_w, spec, True), True)
    # Nothing legible fits: the smallest cards, on as many lines as the height takes.
    card_w = spec.min_card_w
    room = max(1, (spec.height + spec.spacing) // (card_h(card_w) + spec.label_h + spec.spacing))
    count = max(1, min(MAX_LINES, room, points + blanks))
    per_line = -(-(points + blanks) // count)
    kinds = [True] * points + [False] * blanks
    lines = []
    for start in range(0, len(kinds), per_line):
        chunk = kinds[start : start + per_line]
        lines.append((sum(chunk), len(chunk) - sum(chunk)))
    return RowFan(card_w, len(lines), _place(lines, card_w, spec, False), False)
