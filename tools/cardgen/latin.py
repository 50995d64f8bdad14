"""Shared drawing code for the Latin-suited decks (coins, cups, swords, clubs).

The Italian (Napoletane-style), Piacentine, Siciliane and Spanish generators draw with these
pieces: the card geometry and print palette, a tiny SVG writer (:class:`Canvas`), path numerals
for the corner indices (pygame's SVG rasteriser ignores ``<text>``), the suit emblems (coin,
goblet, sword, knotty club), symmetric column layouts for coins and cups, crowns, an eagle, a
laurel branch, and the full-length court figures (page, rider on a horse, king), whose palettes
and held emblems each deck chooses through a :class:`FigureStyle`.

Each deck module is the table of what that deck does its own way: a :class:`LatinDeck` (card
face, aces, suit cards, figures, names, corner numbers, back) that writes the files and runs the
command line, the deck's :class:`Emblems` (also what its figures hold) and, for the
Italo-Spanish decks, a :class:`RowPips` that lays out their suit cards.

Everything is drawn with the few SVG elements that nanosvg understands: ``path``, ``rect``,
``circle``, ``ellipse``, ``polygon``, ``line`` and ``g`` with a ``transform``, coloured with
``#rrggbb`` attributes. Numbers are rounded to two decimals and randomness comes only from
fixed-seed generators, so generating twice gives byte-identical files.

>>> num(1.0), num(-0.001), num(2.345), num(12)
('1', '0', '2.35', '12')
>>> card_code("K", "D"), len(CARD_CODES)
('KD', 40)
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from tools.cardgen.backs import LatticeBack, back_svg

Point = tuple[float, float]
Node = Sequence[float]  # (x, y) or (x, y, 1) for a sharp corner in a smooth outline

# ---------------------------------------------------------------------------------------------
# Card geometry (shared with the French deck) and palette
# ---------------------------------------------------------------------------------------------

CARD_W = 250
CARD_H = 400
CARD_RADIUS = 14
CX = CARD_W / 2
CY = CARD_H / 2

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS = ("D", "C", "S", "B")
RANK_NUMBER = {rank: index + 1 for index, rank in enumerate(RANKS)}
#: The corner numbers of the Napoletane and most Italian patterns: 1-10, the figures 8-10.
NUMBERS = {rank: str(number) for rank, number in RANK_NUMBER.items()}
ITALIAN_SUIT_NAMES = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}
ITALIAN_RANK_NAMES = {"A": "Asso", "J": "Fante", "Q": "Cavallo", "K": "Re"}


INK = "#1f1a16"
CREAM = "#fbf7ec"
FRAME = "#3a302a"
RED = "#cc2a2a"
RED_DARK = "#8c1d1d"
GOLD = "#f5bb1f"
GOLD_DARK = "#c8860e"
GOLD_LIGHT = "#fde49a"
BLUE = "#1e5cb8"
BLUE_DARK = "#133d7e"
BLUE_LIGHT = "#8db8f0"
GREEN = "#2f8c3c"
GREEN_DARK = "#1c5c27"
GREEN_LIGHT = "#93cf7e"
BROWN = "#8a4b1f"
BROWN_DARK = "#5c3114"
WOOD = "#eccb8e"
SKIN = "#f8d6b6"
SKIN_SHADE = "#d99b77"
CHEEK = "#f0a48e"
WHITE = "#ffffff"
BLACK = "#26211d"

OUTLINE = 2.2  # default outline width in card units


def num(value: float) -> str:
    """Format a number with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def card_code(rank: str, suit: str) -> str:
    """The file stem of a card: rank then suit, e.g. ``"7S"``."""
    return f"{rank}{suit}"


CARD_CODES = tuple(card_code(rank, suit) for suit in SUITS for rank in RANKS)

# ---------------------------------------------------------------------------------------------
# Geometry helpers
# ---------------------------------------------------------------------------------------------


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def rotate(p: Point, degrees: float, origin: Point = (0.0, 0.0)) -> Point:
    """Rotate *p* clockwise on screen (SVG y points down) by *degrees* around *origin*."""
    a = math.radians(degrees)
    x, y = p[0] - origin[0], p[1] - origin[1]
    return (
        origin[0] + x * math.cos(a) - y * math.sin(a),
        origin[1] + x * math.sin(a) + y * math.cos(a),
    )


def bezier(ctrl: Sequence[Point], steps: int) -> list[Point]:
    """Sample a Bezier curve of any degree at ``steps + 1`` evenly spaced parameters."""
    out: list[Point] = []
    for i in range(steps + 1):
        t = i / steps
        pts = list(ctrl)
        while len(pts) > 1:
            pts = [lerp(pts[j], pts[j + 1], t) for j in range(len(pts) - 1)]
        out.append(pts[0])
    return out


def catmull(points: Sequence[Point], steps: int = 8) -> list[Point]:
    """Sample an open Catmull-Rom spline through *points*."""
    out: list[Point] = [points[0]]
    n = len(points)
    for i in range(n - 1):
        p0 = points[max(i - 1, 0)]
        p1, p2 = points[i], points[i + 1]
        p3 = points[min(i + 2, n - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        out.extend(bezier((p1, c1, c2, p2), steps)[1:])
    return out


def ribbon(center: Sequence[Point], half_widths: Sequence[float]) -> list[Point]:
    """Outline of a band of varying width along a sampled centre line (closed polygon)."""
    n = len(center)
    left: list[Point] = []
    right: list[Point] = []
    for i, (x, y) in enumerate(center):
        a, b = center[max(i - 1, 0)], center[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        w = half_widths[i]
        left.append((x + nx * w, y + ny * w))
        right.append((x - nx * w, y - ny * w))
    return left + right[::-1]


def sym(half: Sequence[Node], cx: float = CX) -> list[Node]:
    """Mirror a right-hand half outline (top axis point ... bottom axis point) into a loop."""
    mirrored = [(2 * cx - n[0], *n[1:]) for n in reversed(half[1:-1])]
    return [*half, *mirrored]


def poly_d(points: Sequence[Point], closed: bool = True) -> str:
    """Path data for a polyline or polygon."""
    body = "L".join(f"{num(x)} {num(y)}" for x, y in points)
    return f"M{body}{'Z' if closed else ''}"


def smooth_d(nodes: Sequence[Node], closed: bool = True) -> str:
    """Path data for a Catmull-Rom spline through *nodes* as cubic Beziers.

    A node with a truthy third value is a sharp corner.
    """
    pts = [(float(n[0]), float(n[1])) for n in nodes]
    sharp = [len(n) > 2 and bool(n[2]) for n in nodes]
    m = len(pts)
    parts = [f"M{num(pts[0][0])} {num(pts[0][1])}"]
    for i in range(m if closed else m - 1):
        p1, p2 = pts[i], pts[(i + 1) % m]
        p0 = pts[(i - 1) % m] if (closed or i > 0) else p1
        p3 = pts[(i + 2) % m] if (closed or i + 2 < m) else p2
        if sharp[i]:
            c1 = lerp(p1, p2, 0.3)
        else:
            c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        if sharp[(i + 1) % m]:
            c2 = lerp(p2, p1, 0.3)
        else:
            c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        parts.append(
            f"C{num(c1[0])} {num(c1[1])} {num(c2[0])} {num(c2[1])} {num(p2[0])} {num(p2[1])}"
        )
    if closed:
        parts.append("Z")
    return "".join(parts)


def lens_d(p0: Point, p1: Point, width: float) -> str:
    """A pointed leaf / petal from *p0* to *p1*, *width* across at its widest."""
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width * 0.66, dx / length * width * 0.66
    a = lerp(p0, p1, 0.3)
    b = lerp(p0, p1, 0.7)
    return (
        f"M{num(p0[0])} {num(p0[1])}"
        f"C{num(a[0] + nx)} {num(a[1] + ny)} {num(b[0] + nx)} {num(b[1] + ny)} "
        f"{num(p1[0])} {num(p1[1])}"
        f"C{num(b[0] - nx)} {num(b[1] - ny)} {num(a[0] - nx)} {num(a[1] - ny)} "
        f"{num(p0[0])} {num(p0[1])}Z"
    )


def transform(
    at: Point = (0.0, 0.0), angle: float = 0.0, scale: float = 1.0, flip: bool = False
) -> str:
    """An SVG transform list: translate, then rotate, then scale (and mirror)."""
    parts = [f"translate({num(at[0])} {num(at[1])})"]
    if angle:
        parts.append(f"rotate({num(angle)})")
    if scale != 1.0 or flip:
        sx = -scale if flip else scale
        parts.append(f"scale({num(sx)} {num(scale)})")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# A tiny SVG writer
# ---------------------------------------------------------------------------------------------


class Canvas:
    """Collects SVG elements for one card; :meth:`render` gives the document text."""

    def __init__(self, title: str) -> None:
        self.title = title
        self._lines: list[str] = []
        self._depth = 1

    def element(self, tag: str, attrs: dict[str, str | float]) -> None:
        text = " ".join(
            f'{key}="{num(value) if isinstance(value, float | int) else value}"'
            for key, value in attrs.items()
        )
        self._lines.append(f"{'  ' * self._depth}<{tag} {text}/>")

    @staticmethod
    def _paint(fill: str, stroke: str | None, sw: float) -> dict[str, str | float]:
        attrs: dict[str, str | float] = {"fill": fill}
        if stroke is not None and sw > 0:
            attrs["stroke"] = stroke
            attrs["stroke-width"] = float(sw)
        return attrs

    @contextmanager
    def group(self, transform_text: str = "") -> Iterator[None]:
        attr = f' transform="{transform_text}"' if transform_text else ""
        self._lines.append(f"{'  ' * self._depth}<g{attr}>")
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            self._lines.append(f"{'  ' * self._depth}</g>")

    def path(
        self, d: str, fill: str = "none", stroke: str | None = INK, sw: float = OUTLINE
    ) -> None:
        self.element("path", {"d": d, **self._paint(fill, stroke, sw)})

    def shape(
        self,
        nodes: Sequence[Node],
        fill: str,
        stroke: str | None = INK,
        sw: float = OUTLINE,
        smooth: bool = True,
    ) -> None:
        """A closed outline through *nodes* (smooth spline or polygon)."""
        points = [(n[0], n[1]) for n in nodes]
        self.path(smooth_d(nodes) if smooth else poly_d(points), fill, stroke, sw)

    def line(self, points: Sequence[Point], stroke: str, sw: float, smooth: bool = False) -> None:
        """An open stroked line (rounded ends), optionally smoothed through the points."""
        self.line_d(
            smooth_d(points, closed=False) if smooth else poly_d(points, closed=False), stroke, sw
        )

    def line_d(self, d: str, stroke: str, sw: float) -> None:
        """Stroke the path data *d* with round caps and joins, unfilled."""
        self.element(
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": stroke,
                "stroke-width": float(sw),
                "stroke-linecap": "round",
                "stroke-linejoin": "round",
            },
        )

    def circle(
        self, x: float, y: float, r: float, fill: str, stroke: str | None = INK, sw: float = OUTLINE
    ) -> None:
        attrs: dict[str, str | float] = {"cx": float(x), "cy": float(y), "r": float(r)}
        self.element("circle", {**attrs, **self._paint(fill, stroke, sw)})

    def ellipse(
        self,
        x: float,
        y: float,
        rx: float,
        ry: float,
        fill: str,
        stroke: str | None = INK,
        sw: float = OUTLINE,
    ) -> None:
        attrs: dict[str, str | float] = {
            "cx": float(x),
            "cy": float(y),
            "rx": float(rx),
            "ry": float(ry),
        }
        self.element("ellipse", {**attrs, **self._paint(fill, stroke, sw)})

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        stroke: str | None = INK,
        sw: float = OUTLINE,
        r: float = 0.0,
    ) -> None:
        attrs: dict[str, str | float] = {"x": float(x), "y": float(y)}
        attrs.update({"width": float(w), "height": float(h)})
        if r:
            attrs.update({"rx": float(r), "ry": float(r)})
        self.element("rect", {**attrs, **self._paint(fill, stroke, sw)})

    def render(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W}" height="{CARD_H}" '
            f'viewBox="0 0 {CARD_W} {CARD_H}">'
        )
        return "\n".join([head, f"  <title>{self.title}</title>", *self._lines, "</svg>", ""])


# ---------------------------------------------------------------------------------------------
# Numerals for the corner indices: stroked centre lines in a 16 x 28 box
# ---------------------------------------------------------------------------------------------

GLYPH_W = 16.0
GLYPH_H = 28.0
GLYPHS = {
    "0": "M8 1.5C12.6 1.5 14.6 6.5 14.6 14C14.6 21.5 12.6 26.5 8 26.5"
    "C3.4 26.5 1.4 21.5 1.4 14C1.4 6.5 3.4 1.5 8 1.5Z",
    "1": "M2.5 6.5L9 1.5L9 26.5",
    "2": "M1.8 7C2.2 3 4.8 1.5 8 1.5C11.6 1.5 14.2 3.6 14.2 7.2C14.2 13 3.5 18 1.6 26.5L14.6 26.5",
    "3": "M2 4C3.6 2.3 5.5 1.5 8 1.5C11.6 1.5 13.8 3.6 13.8 6.8C13.8 10.6 10.8 12.8 6.5 12.8"
    "C11.6 12.8 14.6 15.4 14.6 19.5C14.6 24 11.6 26.5 7.6 26.5C5 26.5 2.8 25.6 1.4 23.6",
    "4": "M11.2 26.5L11.2 1.5L1.4 18.5L15 18.5",
    "5": "M13.8 1.5L3.4 1.5L2.4 12.4C4 11.2 5.8 10.6 7.8 10.6C12 10.6 14.6 13.4 14.6 18.2"
    "C14.6 23.6 11.6 26.5 7.4 26.5C4.8 26.5 2.8 25.6 1.4 23.8",
    "6": "M13.2 3.2C11.8 2 10.2 1.5 8.6 1.5C4 1.5 1.4 6.2 1.4 14.6C1.4 22.6 3.8 26.5 8 26.5"
    "C12 26.5 14.6 23.6 14.6 19.2C14.6 14.8 12 12 8.2 12C4.8 12 2.2 14.4 1.6 17.6",
    "7": "M1.4 1.5L14.6 1.5C10.6 8 7.2 16 6.2 26.5",
    "8": "M8 13C11.4 13 13.6 10.6 13.6 7.2C13.6 3.8 11.4 1.5 8 1.5C4.6 1.5 2.4 3.8 2.4 7.2"
    "C2.4 10.6 4.6 13 8 13C12.2 13 14.8 15.6 14.8 19.8C14.8 24 12 26.5 8 26.5"
    "C4 26.5 1.2 24 1.2 19.8C1.2 15.6 3.8 13 8 13Z",
    "9": "M2.8 24.8C4.2 26 5.8 26.5 7.4 26.5C12 26.5 14.6 21.8 14.6 13.4C14.6 5.4 12.2 1.5 8 1.5"
    "C4 1.5 1.4 4.4 1.4 8.8C1.4 13.2 4 16 7.8 16C11.2 16 13.8 13.6 14.4 10.4",
}
GLYPH_ADVANCE = {"1": 12.5}


def draw_number(c: Canvas, text: str, x: float, y: float, height: float, colour: str) -> None:
    """Draw *text* (digits only) with its top-left corner at (*x*, *y*)."""
    s = height / GLYPH_H
    pen = 0.0
    for ch in text:
        with c.group(transform((x + pen * s, y), scale=s)):
            c.line_d(GLYPHS[ch], colour, 4.8)
        pen += GLYPH_ADVANCE.get(ch, GLYPH_W) + 1.5


# ---------------------------------------------------------------------------------------------
# Suit symbols. Each is drawn in its own local frame and placed with a group transform.
# ---------------------------------------------------------------------------------------------


@contextmanager
def emblem_frame(c: Canvas, at: Point, scale: float, angle: float = 0.0) -> Iterator[float]:
    """Draw in an emblem's own frame: a group moved to *at*, turned by *angle* and scaled by
    *scale*. Yields the stroke width that is :data:`OUTLINE` on the card."""
    with c.group(transform(at, angle, scale)):
        yield OUTLINE / scale


def draw_coin(c: Canvas, x: float, y: float, r: float, rosette: str = GREEN) -> None:
    """A gold coin (denaro) of radius *r*: rim, ring of red petals, centre rosette."""
    with emblem_frame(c, (x, y), r / 50) as sw:
        c.circle(0, 0, 50, GOLD, INK, sw * 1.1)
        c.circle(0, 0, 43, "none", GOLD_DARK, 3.0)
        for k in range(16):
            a = k * 22.5 + 11.25
            c.line([rotate((0, -36.5), a), rotate((0, -41.5), a)], GOLD_DARK, 2.4)
        for k in range(8):
            c.path(
                lens_d(rotate((0, -13), k * 45), rotate((0, -35), k * 45), 15), RED, INK, sw * 0.6
            )
        c.circle(0, 0, 15, rosette, INK, sw * 0.7)
        for k in range(6):
            c.path(lens_d((0, 0), rotate((0, -12), k * 60 + 30), 6), GOLD_LIGHT, None, 0)
        c.circle(0, 0, 4.5, RED, INK, sw * 0.5)


def lathe(profile: Sequence[Point]) -> list[Point]:
    """Densely sampled right-hand profile (half width, y) of a turned object, top to bottom."""
    return catmull(profile, 6)


def _half_width(dense: Sequence[Point], y: float) -> float:
    for (w0, y0), (w1, y1) in itertools.pairwise(dense):
        if y0 <= y <= y1 and y1 > y0:
            return w0 + (w1 - w0) * (y - y0) / (y1 - y0)
    return dense[0][0] if y < dense[0][1] else dense[-1][0]


def lathe_outline(
    dense: Sequence[Point], y0: float | None = None, y1: float | None = None
) -> list[Point]:
    """Symmetric outline of a turned object, optionally only the slice between *y0* and *y1*."""
    top = dense[0][1] if y0 is None else y0
    bottom = dense[-1][1] if y1 is None else y1
    ys = [top, *(y for _, y in dense if top < y < bottom), bottom]
    right = [(_half_width(dense, y), y) for y in ys]
    return right + [(-w, y) for w, y in reversed(right)]


def draw_cup(
    c: Canvas, x: float, y: float, h: float, angle: float = 0, band: str = RED, band2: str = BLUE
) -> None:
    """A goblet (coppa) *h* tall centred on (*x*, *y*): gold bowl, bands, knotted stem, foot."""
    with emblem_frame(c, (x, y), h / 100, angle) as sw:
        foot = lathe([(5, 30), (9, 36), (20, 44), (27, 49)])
        c.ellipse(0, 49, 27, 4.5, GOLD_DARK, INK, sw)
        c.path(poly_d(lathe_outline(foot)), GOLD, INK, sw)
        c.path(poly_d(lathe_outline(foot, 42, 45.5)), band, None, 0)
        c.rect(-4.5, -2, 9, 34, GOLD, INK, sw)
        c.ellipse(0, 13, 10.5, 7, GOLD, INK, sw)
        c.ellipse(0, 13, 10.5, 2.6, band, None, 0)
        c.ellipse(0, 2, 7.5, 3, GOLD_DARK, INK, sw * 0.8)
        bowl = lathe([(31, -45), (30.5, -36), (27, -22), (19, -10), (9, -3.5), (5, 0)])
        c.path(poly_d(lathe_outline(bowl)), GOLD, INK, sw)
        c.path(poly_d(lathe_outline(bowl, -37, -27)), band, INK, sw * 0.5)
        c.path(poly_d(lathe_outline(bowl, -16, -12)), band2, None, 0)
        c.path(lens_d((-21, -24), (-10, -8), 5), GOLD_LIGHT, None, 0)
        c.ellipse(0, -45, 31, 6, GOLD_DARK, INK, sw)
        c.ellipse(0, -44, 26, 3.6, BROWN, None, 0)


def blade_outline(center: Sequence[Point], width: float) -> list[Point]:
    """Outline of a blade along *center* (hilt first), tapering to a point."""
    widths = []
    for i in range(len(center)):
        t = i / (len(center) - 1)
        taper = min(1.0, (1 - t) / 0.16)
        widths.append(width * (1 - 0.3 * t) * math.sqrt(max(taper, 0.0)))
    return ribbon(center, widths)


def heading(frm: Point, to: Point) -> float:
    """Clockwise angle in degrees from 'up' to the direction *frm* -> *to*."""
    return math.degrees(math.atan2(to[0] - frm[0], frm[1] - to[1]))


def draw_sword_curve(
    c: Canvas,
    grip: Point,
    ctrl: Point,
    tip: Point,
    width: float = 8.5,
    scale: float = 1.0,
    grip_colour: str = RED,
    ornate: bool = False,
) -> None:
    """A sword (spada): grip centre at *grip*, blade a quadratic curve via *ctrl* to *tip*."""
    angle = heading(grip, ctrl)
    off = rotate((0, -14 * scale), angle)
    base = (grip[0] + off[0], grip[1] + off[1])
    center = bezier((base, ctrl, tip), 32)
    c.path(poly_d(blade_outline(center, width)), BLUE, INK, OUTLINE)
    fuller = center[1 : int(len(center) * 0.8)]
    c.line(fuller, BLUE_LIGHT, width * 0.55)
    c.line(fuller, BLUE_DARK, 1.0)
    with emblem_frame(c, grip, scale, angle) as sw:
        # hilt: grip, cross guard with curled ends, pommel
        c.rect(-4.5, -11, 9, 23, grip_colour, INK, sw)
        for yy in (-5.0, 1.0, 7.0):
            c.line([(-4.5, yy - 2.5), (4.5, yy + 2.5)], INK, 1.0)
        guard = bezier(((-24, -9), (0, -22), (24, -9)), 12)
        c.path(poly_d(ribbon(guard, [3.6] * len(guard))), GOLD, INK, sw)
        for side in (-1, 1):
            c.circle(side * 25.5, -8, 5.2, GOLD, INK, sw)
            if ornate:
                c.circle(side * 25.5, -8, 2.2, RED, None, 0)
        c.ellipse(0, -15, 7, 5, GOLD, INK, sw)
        c.circle(0, 18, 6.5, GOLD, INK, sw)
        c.circle(0, 18, 2.4, BLUE if grip_colour == RED else RED, None, 0)


def draw_sword(
    c: Canvas,
    at: Point,
    angle: float,
    length: float = 240,
    bow: float = 0,
    width: float = 8.5,
    scale: float = 1.0,
    grip: str = RED,
    ornate: bool = False,
) -> None:
    """A sword held at *at* pointing at *angle* (clockwise from up), blade *length* long.

    *bow* bends the middle of the blade sideways (positive: to the right, before rotating).
    """
    reach = 14 * scale + length
    tip = rotate((0, -reach), angle)
    ctrl = rotate((bow * 2, -(14 * scale + length / 2)), angle)
    draw_sword_curve(
        c,
        at,
        (at[0] + ctrl[0], at[1] + ctrl[1]),
        (at[0] + tip[0], at[1] + tip[1]),
        width,
        scale,
        grip,
        ornate,
    )


def _club_profile(length: float, width: float, seed: int) -> tuple[list[Point], list[float]]:
    rng = random.Random(seed)
    center = bezier(((0, length / 2), (length * 0.04, 0), (0, -length / 2)), 30)
    phases = [rng.uniform(0, math.tau) for _ in range(3)]
    widths = []
    for i in range(len(center)):
        t = i / (len(center) - 1)
        w = 5.0 + (width - 5.0) * t**1.1
        w += 1.1 * math.sin(t * 19 + phases[0]) + 0.8 * math.sin(t * 31 + phases[1])
        if t > 0.8:
            w += width * 0.16 * math.sin(math.pi * (t - 0.8) / 0.2)
        if t > 0.95:
            w *= math.sqrt(max(0.0, 1 - ((t - 0.95) / 0.05) ** 2)) * 0.4 + 0.6
        widths.append(max(w, 4.0))
    return center, widths


def draw_club(
    c: Canvas,
    at: Point,
    angle: float,
    length: float = 280,
    width: float = 14,
    scale: float = 1.0,
    seed: int = 7,
    band: str | None = RED,
    leaves: bool = False,
    stubs: Sequence[float] = (0.34, 0.52, 0.7, 0.84),
    wood: str = GREEN,
    wood_dark: str = GREEN_DARK,
) -> None:
    """A knotty cudgel (bastone) centred on *at*, thick end up, then rotated by *angle*.

    *stubs* are the positions (0 grip .. 1 head) of cut-off branches, alternating sides;
    *wood* and *wood_dark* colour the bark (green on the Napoletane), *band* the rings (None: none).
    """
    with emblem_frame(c, at, scale, angle) as sw:
        center, widths = _club_profile(length, width, seed)
        n = len(center)
        rng = random.Random(seed * 31 + 5)
        # cut-off branches (drawn first, the trunk overlaps their roots)
        cuts = []
        for k, t in enumerate(stubs):
            i = round(t * (n - 1))
            side = 1 if k % 2 else -1
            p = center[i]
            base = (p[0] + side * widths[i] * 0.6, p[1])
            tip = (p[0] + side * (widths[i] + 9 + rng.uniform(0, 3)), p[1] - 9 - rng.uniform(0, 4))
            cuts.append((base, tip, side))
            c.path(poly_d(ribbon([base, tip], [4.6, 4.0])), wood, INK, sw)
            if leaves:
                twig_end = (tip[0] + side * 30, tip[1] - 24)
                twig = bezier((tip, (tip[0] + side * 20, tip[1] - 2), twig_end), 6)
                c.line(twig, BROWN, 2.0)
                for j, q in enumerate(twig[2:]):
                    up = j % 2 == 0
                    end = (q[0] + side * (3 if up else 12), q[1] - (15 if up else 4))
                    c.path(lens_d(q, end, 7), GREEN_LIGHT, INK, sw * 0.6)
                c.path(
                    lens_d(twig_end, lerp(twig[-2], twig_end, 4.0), 8), GREEN_LIGHT, INK, sw * 0.6
                )
        c.path(poly_d(ribbon(center, widths)), wood, INK, sw)
        # bark shading down one side
        edge = ribbon(center[2:-2], [w * 0.52 for w in widths[2:-2]])
        right_edge = edge[len(edge) // 2 :][::-1]
        c.path(poly_d(ribbon(right_edge, [w * 0.3 for w in widths[2:-2]])), wood_dark, None, 0)
        # bands near the grip and below the head
        for t0, t1 in ((0.1, 0.15), (0.19, 0.22), (0.6, 0.64)) if band else ():
            i0, i1 = round(t0 * (n - 1)), round(t1 * (n - 1))
            c.path(
                poly_d(ribbon(center[i0 : i1 + 1], [w + 0.6 for w in widths[i0 : i1 + 1]])),
                band or wood,
                INK,
                sw * 0.7,
            )
        # knots
        for t in (0.3, 0.45, 0.77):
            i = round(t * (n - 1))
            p = center[i]
            c.ellipse(p[0] - widths[i] * 0.25, p[1], 2.6, 1.6, wood_dark, INK, sw * 0.5)
        for _base, tip, _side in cuts:
            c.ellipse(tip[0], tip[1], 4.2, 4.2, WOOD, INK, sw * 0.8)
        top = center[-1]
        c.ellipse(top[0], top[1] + 2, widths[-4] * 0.9, widths[-4] * 0.38, WOOD, INK, sw)
        c.ellipse(top[0], top[1] + 2, widths[-4] * 0.4, widths[-4] * 0.15, "none", BROWN, 1.0)
        bottom = center[0]
        c.ellipse(bottom[0], bottom[1], widths[0], widths[0] * 0.45, WOOD, INK, sw)


# ---------------------------------------------------------------------------------------------
# Pip layouts (2-7)
# ---------------------------------------------------------------------------------------------

LEFT_X = 80.0
RIGHT_X = 170.0


def column_layout(n: int) -> list[Point]:
    """Symmetric positions for *n* coins or cups: columns, rows, four corners plus centre."""
    top, bottom = 98.0, 302.0
    if n == 2:
        return [(CX, 112), (CX, 288)]
    if n == 3:
        return [(CX, 90), (CX, CY), (CX, 310)]
    if n == 4:
        return [(x, y) for y in (top, bottom) for x in (LEFT_X, RIGHT_X)]
    if n == 5:
        return [(x, y) for y in (92.0, 308.0) for x in (LEFT_X, RIGHT_X)] + [(CX, CY)]
    if n == 6:
        return [(x, y) for y in (88, CY, 312) for x in (LEFT_X, RIGHT_X)]
    if n == 7:
        row = (66.0, CX, 184.0)
        return [*((x, 90.0) for x in row), (CX, CY), *((x, 310.0) for x in row)]
    raise ValueError(n)


# ---------------------------------------------------------------------------------------------
# Crowns, eagle, laurel
# ---------------------------------------------------------------------------------------------


def draw_crown(c: Canvas, x: float, y: float, w: float, h: float, gem: str = RED) -> None:
    """A gold crown whose band's bottom centre is at (*x*, *y*), *w* wide, *h* tall."""
    band = h * 0.36
    pts: list[Node] = [(x - w / 2, y, 1), (x - w / 2 - w * 0.06, y - h, 1)]
    spikes = 5
    for k in range(1, spikes * 2 - 1):
        px = x - w / 2 - w * 0.06 + (w * 1.12) * k / (spikes * 2 - 2)
        py = y - h if k % 2 == 0 else y - band - (h - band) * 0.25
        pts.append((px, py, 1))
    pts += [(x + w / 2 + w * 0.06, y - h, 1), (x + w / 2, y, 1)]
    c.shape(pts, GOLD, INK, OUTLINE, smooth=False)
    c.rect(x - w / 2, y - band, w, band, GOLD_DARK, INK, OUTLINE * 0.8)
    for k in range(spikes):
        px = x - w / 2 - w * 0.06 + (w * 1.12) * k / (spikes - 1)
        c.circle(px, y - h, max(1.6, w * 0.045), GOLD_LIGHT, INK, 1.0)
    for k in (-1, 0, 1):
        c.circle(x + k * w * 0.3, y - band / 2, band * 0.28, gem if k else BLUE, INK, 0.8)


def draw_eagle(c: Canvas) -> None:
    """A small heraldic eagle, wings spread, drawn around the origin (about 90 wide)."""
    for side in (-1, 1):
        for k, (a, length) in enumerate(
            ((20, 34), (40, 38), (60, 38), (80, 35), (100, 30), (120, 24))
        ):
            p0 = (side * 6.0, -6.0)
            p1 = (
                p0[0] + side * length * math.sin(math.radians(a)),
                p0[1] - length * math.cos(math.radians(a)),
            )
            c.path(lens_d(p0, p1, 9.5 - k * 0.5), BLACK, INK, 0.8)
        c.line([(side * 7, 19), (side * 13, 27)], BLACK, 3.2)
        c.line([(side * 13, 27), (side * 16, 26)], RED, 1.8)
    for a in (-24, 0, 24):
        c.path(lens_d((0, 14), rotate((0, 40), a, (0, 14)), 10), BLACK, INK, 0.8)
    c.ellipse(0, 4, 9.5, 17, BLACK, INK, 0.8)
    c.circle(0, -17, 7, BLACK, INK, 0.8)
    c.path(poly_d([(6, -20), (15, -16.5), (6, -13)]), GOLD, INK, 0.8)
    c.circle(2.4, -18.5, 1.5, GOLD_LIGHT, None, 0)
    draw_crown(c, 0, -22.5, 11, 8, RED)


def draw_laurel(c: Canvas, start: Point, end: Point, bow: float, leaves: int = 7) -> None:
    """A laurel branch from *start* to *end*, bowed sideways by *bow*."""
    mid = lerp(start, end, 0.5)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    ctrl = (mid[0] - dy / length * bow, mid[1] + dx / length * bow)
    pts = bezier((start, ctrl, end), leaves * 2)
    c.line(pts, BROWN, 2.6)
    for i in range(1, len(pts)):
        p, q = pts[i - 1], pts[i]
        ang = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
        side = 1 if i % 2 else -1
        tip = rotate((p[0] + 17, p[1]), ang + side * 40, p)
        c.path(lens_d(p, tip, 8), GREEN, INK, 1.1)
    c.path(lens_d(pts[-1], lerp(start, end, 1.08), 8), GREEN, INK, 1.1)


# ---------------------------------------------------------------------------------------------
# Court figures: Fante (page), Cavallo (rider), Re (king), parametrised by suit
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Palette:
    """Clothing and horse colours of one suit's court figures."""

    main: str
    main_dark: str
    second: str
    second_dark: str
    trim: str
    hair: str
    beard: str
    horse: str
    horse_dark: str
    mane: str


PALETTES = {
    "D": Palette(
        RED,
        RED_DARK,
        GREEN,
        GREEN_DARK,
        GOLD,
        "#e3b443",
        "#f2efe8",
        "#f3efe4",
        "#c9bfaa",
        "#d9ceb8",
    ),
    "C": Palette(
        BLUE, BLUE_DARK, RED, RED_DARK, GOLD, "#8a4b1f", "#7a4420", "#b06a32", "#7a4219", "#3b2416"
    ),
    "S": Palette(
        GREEN,
        GREEN_DARK,
        RED,
        RED_DARK,
        GOLD,
        "#3a2a20",
        "#3a2a20",
        "#c3c6cb",
        "#8a8f96",
        "#4b4f55",
    ),
    "B": Palette(
        GOLD, GOLD_DARK, BLUE, BLUE_DARK, RED, "#c0652a", "#b3561f", "#5a463a", "#3a2c24", "#1f1814"
    ),
}


def limb(c: Canvas, joints: Sequence[Point], w0: float, w1: float, fill: str) -> None:
    """An arm or leg: a smooth tapering band through *joints* (half widths *w0* -> *w1*)."""
    center = catmull(joints, 6)
    n = len(center)
    widths = [w0 + (w1 - w0) * i / (n - 1) for i in range(n)]
    c.path(poly_d(ribbon(center, widths)), fill, INK, OUTLINE)


def draw_face(c: Canvas, x: float, y: float, beard: str | None = None) -> None:
    """Face centred on (*x*, *y*): skin oval, eyes, brows, nose, mouth, optional beard."""
    c.ellipse(x, y + 1, 14.5, 17.5, SKIN, INK, OUTLINE)
    if beard is not None:
        shape: list[Node] = [
            (x - 14.5, y + 1, 1),
            (x - 13, y + 14),
            (x - 7, y + 26),
            (x, y + 31),
            (x + 7, y + 26),
            (x + 13, y + 14),
            (x + 14.5, y + 1, 1),
            (x + 9, y + 8),
            (x, y + 14),
            (x - 9, y + 8),
        ]
        c.shape(shape, beard, INK, OUTLINE * 0.8)
        for side in (-1, 1):
            c.path(lens_d((x + side * 1, y + 8.5), (x + side * 11, y + 11), 5), beard, INK, 1.0)
    for side in (-1, 1):
        c.circle(x + side * 5.5, y - 1, 1.8, INK, None, 0)
        c.line([(x + side * 8.5, y - 5), (x + side * 3, y - 6)], INK, 1.2)
        if beard is None:
            c.circle(x + side * 8.5, y + 6, 3, CHEEK, None, 0)
    c.line([(x, y), (x - 1.6, y + 6), (x + 1.2, y + 6.6)], SKIN_SHADE, 1.4)
    c.line([(x - 3.5, y + 11), (x + 3.5, y + 11)], RED_DARK, 1.7)


def draw_page_head(c: Canvas, x: float, y: float, pal: Palette) -> None:
    """A young page: bob of hair, beret with a feather."""
    c.ellipse(x, y + 1, 19, 20, pal.hair, INK, OUTLINE)
    draw_face(c, x, y)
    fringe: list[Node] = [(x - 15, y - 3, 1), (x - 13, y - 14), (x, y - 19), (x + 13, y - 14)]
    fringe += [(x + 15, y - 3, 1), (x + 6, y - 9), (x - 6, y - 10)]
    c.shape(fringe, pal.hair, INK, OUTLINE * 0.8)
    c.path(lens_d((x + 8, y - 18), (x + 34, y - 48), 10), WHITE, INK, 1.4)
    c.line([(x + 10, y - 19), (x + 31, y - 45)], pal.second_dark, 1.0)
    with c.group(transform((x + 2, y - 18), -10)):
        c.ellipse(0, -2, 22, 8, pal.second, INK, OUTLINE)
        c.rect(-17, -1, 34, 5, pal.trim, INK, 1.2, 2)
    c.circle(x - 6, y - 22, 3.2, pal.trim, INK, 1.0)


def draw_rider_head(c: Canvas, x: float, y: float, pal: Palette) -> None:
    """The rider: short hair, wide-brimmed hat with a plume."""
    c.ellipse(x, y + 2, 17.5, 19, pal.hair, INK, OUTLINE)
    draw_face(c, x, y)
    c.path(lens_d((x + 4, y - 26), (x - 26, y - 44), 11), pal.trim, INK, 1.4)
    c.ellipse(x, y - 14, 25, 5.5, pal.main_dark, INK, OUTLINE)
    crown: list[Node] = [(x - 14, y - 15, 1), (x - 13, y - 28), (x, y - 33), (x + 13, y - 28)]
    crown.append((x + 14, y - 15, 1))
    c.shape(crown, pal.main_dark, INK, OUTLINE)
    c.rect(x - 14, y - 21, 28, 5, pal.trim, INK, 1.2)


def draw_king_head(c: Canvas, x: float, y: float, pal: Palette) -> None:
    """The king: long hair, full pointed beard, jewelled crown."""
    c.ellipse(x, y + 5, 20, 22, pal.beard, INK, OUTLINE)
    draw_face(c, x, y, pal.beard)
    c.ellipse(x, y - 17, 14, 8, pal.second, INK, OUTLINE)
    draw_crown(c, x, y - 11, 30, 22, pal.second if pal.second != GOLD else RED)


def draw_folds(
    c: Canvas, x: float, folds: Sequence[tuple[float, float, float, float]], colour: str
) -> None:
    """Symmetric fold lines (offset from the axis *x*) on a garment, in a darker tone."""
    for dx0, y0, dx1, y1 in folds:
        for side in (-1, 1):
            mid = (x + side * (dx0 + dx1) / 2 + side * 1.5, (y0 + y1) / 2)
            c.line([(x + side * dx0, y0), mid, (x + side * dx1, y1)], colour, 2.2, smooth=True)


def draw_shoes(c: Canvas, x: float, right: Sequence[Node]) -> None:
    """A pair of black shoes either side of the axis *x*; *right* outlines the right one as
    (offset from the axis, y) nodes, a third value marking a sharp corner."""
    for side in (-1, 1):
        c.path(smooth_d([(x + side * n[0], *n[1:]) for n in right]), BLACK, INK, OUTLINE)


ERMINE_SPOTS = ((-26, 146), (-12, 160), (0, 148), (12, 160), (26, 146), (-22, 136), (22, 136))


def draw_ermine_cape(c: Canvas, x: float, half: Sequence[Node]) -> None:
    """A king's white ermine cape (*half*: its right half outline) with black tails."""
    c.shape(sym(half, x), WHITE, INK, OUTLINE)
    for px, py in ERMINE_SPOTS:
        c.path(lens_d((x + px, py - 3), (x + px, py + 4), 3), BLACK, None, 0)


def draw_hand(c: Canvas, p: Point) -> None:
    c.circle(p[0], p[1], 6, SKIN, INK, OUTLINE * 0.9)


def draw_arm(c: Canvas, shoulder: Point, elbow: Point, hand: Point, sleeve: str, cuff: str) -> None:
    """A sleeved arm ending at a cuff; the hand is drawn separately (over any held symbol)."""
    wrist = lerp(elbow, hand, 0.86)
    limb(c, [shoulder, elbow, wrist], 10.5, 7.5, sleeve)
    angle = heading(elbow, hand)
    with c.group(transform(wrist, angle)):
        c.rect(-8.5, -3, 17, 6, cuff, INK, 1.4, 2)


#: The four emblems as a deck draws them on their own, in a figure's hand or in rows:
#: a coin (canvas, x, y, radius), a cup (canvas, x, y, height, angle), a sword (canvas, grip,
#: angle, length, scale, blade width) and a club (canvas, middle, angle, length, width, seed).
CoinDrawer = Callable[[Canvas, float, float, float], None]
CupDrawer = Callable[[Canvas, float, float, float, float], None]
SwordDrawer = Callable[[Canvas, Point, float, float, float, float], None]
ClubDrawer = Callable[[Canvas, Point, float, float, float, int], None]


@dataclass(frozen=True)
class Emblems:
    """A deck's four suit emblems and how big a figure holds them."""

    coin: CoinDrawer
    cup: CupDrawer
    sword: SwordDrawer
    club: ClubDrawer
    held_sword_width: float  # the blade's width in a figure's hand
    held_cup: float = 62.0  # a held cup's height at size 1
    held_sword: float = 160.0  # a held sword's length at size 1
    held_club: float = 170.0  # a held club's length at size 1
    held_club_width: float = 16.0

    def held(
        self, c: Canvas, suit: str, hand: Point, size: float = 1.0, angle: float = 0.0
    ) -> None:
        """The suit's emblem held in a hand at *hand* (coins and cups above it, blades and clubs
        rising from it), *size* times the usual size, tilted by *angle*: a :data:`HeldDrawer`."""
        x, y = hand
        if suit == "D":
            self.coin(c, x, y - 20 * size, 24 * size)
        elif suit == "C":
            off = rotate((0, -14 * size), angle)
            self.cup(c, x + off[0], y + off[1], self.held_cup * size, angle)
        elif suit == "S":
            self.sword(c, hand, angle, self.held_sword * size, 0.95, self.held_sword_width)
        else:
            length = self.held_club * size
            centre = rotate((0, -(length / 2 - 26)), angle)
            self.club(c, (x + centre[0], y + centre[1]), angle, length, self.held_club_width, 21)


def draw_held_sword(
    c: Canvas, grip: Point, angle: float, length: float, scale: float, width: float
) -> None:
    """A Napoletane sword as a figure holds it, the blade bowed a little to the left."""
    draw_sword(c, grip, angle, length, -6, width, scale)


def draw_held_club(
    c: Canvas, at: Point, angle: float, length: float, width: float, seed: int
) -> None:
    """A Napoletane club as a figure holds it, with two cut-off branches."""
    draw_club(c, at, angle, length, width, seed=seed, stubs=(0.5, 0.75))


#: The Napoletane emblems: gold coin, banded cup, curved sword, green knotty club.
NAPOLETANE_EMBLEMS = Emblems(
    draw_coin,
    draw_cup,
    draw_held_sword,
    draw_held_club,
    held_sword_width=8,
    held_cup=64,
    held_sword=165,
    held_club=175,
    held_club_width=14,
)


@dataclass(frozen=True)
class Pose:
    """Where the figure's two hands are (elbow, hand), and how the held symbol sits."""

    left: tuple[Point, Point]
    right: tuple[Point, Point]
    size: float = 1.0
    angle: float = 0.0

    def joints(self, x: float) -> tuple[Point, Point, Point, Point]:
        """Left elbow, left hand, right elbow, right hand of a figure whose axis is at *x*."""
        (el, hl), (er, hr) = self.left, self.right
        return (x + el[0], el[1]), (x + hl[0], hl[1]), (x + er[0], er[1]), (x + hr[0], hr[1])


def draw_arms(
    c: Canvas,
    suit: str,
    style: FigureStyle,
    pose: Pose,
    neck: Point,
    half_width: float,
    sleeve: str,
    cuff: str,
) -> None:
    """Both arms of a figure from shoulders *half_width* either side of *neck* (on its axis),
    the suit's emblem in the right hand, and the hands drawn over it."""
    x, y = neck
    el, hl, er, hr = pose.joints(x)
    draw_arm(c, (x - half_width, y), el, hl, sleeve, cuff)
    draw_arm(c, (x + half_width, y), er, hr, sleeve, cuff)
    style.held(c, suit, hr, pose.size, pose.angle)
    draw_hand(c, hl)
    draw_hand(c, hr)


def hem(nodes: Sequence[Node], cut: float | None, overlap: float = 12.0) -> list[Node]:
    """*nodes* with every y below *cut* + *overlap* raised to it (a garment cut off for a
    double-ended half figure); unchanged without a cut."""
    if cut is None:
        return list(nodes)
    return [(n[0], min(n[1], cut + overlap), *n[2:]) for n in nodes]


def shown(y: float, cut: float | None) -> bool:
    """False for a part that starts below the *cut* of a half figure."""
    return cut is None or y <= cut


FANTE_POSES = {
    "D": Pose(((-50, 172), (-26, 196)), ((54, 118), (60, 92)), 1.05),
    "C": Pose(((-42, 176), (-40, 212)), ((52, 166), (50, 196)), 1.0),
    "S": Pose(((-50, 172), (-26, 196)), ((48, 176), (50, 208)), 1.0, 6),
    "B": Pose(((-42, 176), (-40, 212)), ((52, 172), (54, 204)), 1.0, 12),
}
#: The page of the Italo-Spanish decks holds his straight sword upright.
UPRIGHT_SWORD_FANTE_POSES = {**FANTE_POSES, "S": replace(FANTE_POSES["S"], angle=0)}


def draw_fante(
    c: Canvas, suit: str, style: FigureStyle | None = None, cut: float | None = None
) -> None:
    """Fante: a young page standing, holding his suit's symbol (above *cut* only: a half
    figure for a double-ended card)."""
    style = style or ITALIAN_FIGURES
    pal = style.palettes[suit]
    pose = style.fante_poses[suit]
    x = CX - 10
    head_y = 98.0
    # legs (parti-coloured hose) and shoes
    if shown(246, cut):
        limb(c, [(x - 12, 246), (x - 14, 290), (x - 16, 332)], 9.5, 7, pal.second)
        limb(c, [(x + 12, 246), (x + 14, 290), (x + 16, 332)], 9.5, 7, pal.main_dark)
    if shown(332, cut):
        draw_shoes(c, x, [(9, 333, 1), (24, 332), (32, 339), (20, 342), (9, 341, 1)])
    c.rect(x - 6, head_y + 12, 12, 16, SKIN, INK, OUTLINE)
    half: list[Node] = [
        (x, head_y + 24),
        (x + 14, head_y + 24),
        (x + 34, head_y + 34),
        (x + 37, head_y + 46),
        (x + 29, 175),
        (x + 24, 202),
        (x + 33, 228),
        (x + 44, 256, 1),
        (x + 20, 261),
        (x, 259),
    ]
    c.shape(sym(hem(half, cut), x), pal.main, INK, OUTLINE)
    if shown(250, cut):
        draw_folds(c, x, [(10, 212, 15, 250), (24, 214, 33, 248)], pal.main_dark)
        c.line(
            [(x - 42, 253), (x - 20, 258), (x, 256.5), (x + 20, 258), (x + 42, 253)],
            pal.trim,
            4,
            smooth=True,
        )
    c.line([(x, head_y + 30), (x, 200)], pal.trim, 3.2)
    for by in (140.0, 158.0, 176.0):
        c.circle(x, by, 2.4, pal.trim, INK, 0.8)
    c.rect(x - 25, 197, 50, 9, BROWN, INK, 1.6, 2)
    c.rect(x - 5, 196, 10, 11, GOLD, INK, 1.2, 1)
    c.ellipse(x, head_y + 24, 15, 5, WHITE, INK, 1.6)
    draw_arms(c, suit, style, pose, (x, head_y + 38), 31, pal.second, pal.trim)
    draw_page_head(c, x, head_y, pal)


KING_POSES = {
    "D": Pose(((-48, 210), (-36, 246)), ((52, 200), (56, 176)), 1.15),
    "C": Pose(((-48, 210), (-36, 246)), ((52, 222), (54, 212)), 1.05),
    "S": Pose(((-48, 210), (-36, 246)), ((50, 214), (50, 238)), 1.08),
    "B": Pose(((-48, 210), (-36, 246)), ((50, 214), (50, 238)), 1.08, -4),
}


def draw_re(c: Canvas, suit: str, style: FigureStyle | None = None) -> None:
    """Re: a crowned, bearded king enthroned, holding his suit's symbol."""
    style = style or ITALIAN_FIGURES
    pal = style.palettes[suit]
    pose = style.king_poses[suit]
    x = CX - 6
    head_y = 112.0
    # throne: carved back with finials, side posts, seat
    c.rect(x - 62, 100, 124, 175, BROWN, INK, OUTLINE, 10)
    c.rect(x - 52, 110, 104, 160, pal.second_dark, INK, 1.4, 6)
    for k in range(3):
        for j in range(5):
            c.circle(x - 40 + j * 20, 130 + k * 26, 2.4, pal.trim, None, 0)
    for side in (-1, 1):
        c.rect(x + side * 66 - 8, 96, 16, 240, BROWN, INK, OUTLINE, 4)
        c.circle(x + side * 66, 90, 9, GOLD, INK, OUTLINE)
        c.rect(x + side * 66 - 8, 230, 16, 8, GOLD, INK, 1.4)
    c.rect(x - 60, 292, 120, 44, BROWN_DARK, INK, OUTLINE, 3)
    # cloak behind, robe, ermine cape
    cloak: list[Node] = [
        (x, 126),
        (x + 30, 138),
        (x + 46, 170),
        (x + 56, 250),
        (x + 60, 326, 1),
        (x, 330),
    ]
    c.shape(sym(cloak, x), pal.second, INK, OUTLINE)
    draw_folds(c, x, [(50, 230, 54, 318)], pal.second_dark)
    robe: list[Node] = [
        (x, 128),
        (x + 16, 130),
        (x + 33, 142),
        (x + 34, 160),
        (x + 27, 204),
        (x + 46, 240),
        (x + 50, 270),
        (x + 46, 334, 1),
        (x, 338),
    ]
    c.shape(sym(robe, x), pal.main, INK, OUTLINE)
    draw_folds(c, x, [(20, 222, 26, 322), (34, 250, 38, 322)], pal.main_dark)
    c.line([(x - 46, 330), (x, 334), (x + 46, 330)], pal.trim, 5, smooth=True)
    c.rect(x - 7, 200, 14, 132, pal.trim, INK, 1.4)
    for by in range(214, 330, 18):
        c.circle(x, by, 2.8, pal.second, INK, 0.8)
    c.rect(x - 27, 198, 54, 10, pal.trim, INK, 1.6, 3)
    draw_shoes(c, x, [(10, 334, 1), (24, 335), (30, 342), (18, 345), (9, 343, 1)])
    cape: list[Node] = [
        (x, 128),
        (x + 18, 128),
        (x + 36, 140),
        (x + 38, 156),
        (x + 20, 170),
        (x, 174),
    ]
    draw_ermine_cape(c, x, cape)
    draw_arms(c, suit, style, pose, (x, 150), 30, pal.main_dark, WHITE)
    draw_king_head(c, x, head_y, pal)


CAVALLO_POSES = {
    "D": Pose(((-14, 176), (-30, 182)), ((40, 130), (44, 100)), 1.0, 0),
    "C": Pose(((-14, 176), (-30, 182)), ((40, 130), (44, 100)), 1.0, 0),
    "S": Pose(((-14, 176), (-30, 182)), ((40, 150), (44, 128)), 0.62, 14),
    "B": Pose(((-14, 176), (-30, 182)), ((40, 146), (44, 124)), 0.72, 14),
}
CAVALLO_FACES_RIGHT = {"D": True, "C": True, "S": False, "B": False}

#: Draws a suit's emblem in a figure's hand: (canvas, suit, hand, size, angle).
HeldDrawer = Callable[[Canvas, str, Point, float, float], None]


@dataclass(frozen=True)
class FigureStyle:
    """What a deck changes in the shared court figures: clothes, held emblems, poses."""

    palettes: Mapping[str, Palette]
    held: HeldDrawer
    fante_poses: Mapping[str, Pose] = field(default_factory=lambda: FANTE_POSES)
    king_poses: Mapping[str, Pose] = field(default_factory=lambda: KING_POSES)
    cavallo_poses: Mapping[str, Pose] = field(default_factory=lambda: CAVALLO_POSES)
    cavallo_faces_right: Mapping[str, bool] = field(default_factory=lambda: CAVALLO_FACES_RIGHT)


ITALIAN_FIGURES = FigureStyle(PALETTES, NAPOLETANE_EMBLEMS.held)


def draw_horse(c: Canvas, pal: Palette, cut: float | None = None) -> None:
    """A prancing horse facing left, with a caparison in the suit's colours (no legs and no
    tail, body and caparison ending at *cut*, for a half figure)."""
    horse, dark, mane = pal.horse, pal.horse_dark, pal.mane
    # far legs and tail behind the body
    if cut is None:  # a half figure leaves out legs and tail
        limb(c, [(100, 258), (98, 298), (96, 332)], 8, 5.5, dark)
        limb(c, [(172, 258), (182, 296), (172, 332)], 9, 5.5, dark)
        for hx in (96.0, 172.0):
            c.shape(
                [(hx - 7, 330, 1), (hx + 6, 330, 1), (hx + 8, 340, 1), (hx - 9, 340, 1)],
                BLACK,
                INK,
                1.4,
                smooth=False,
            )
        limb(c, [(206, 214), (222, 240), (228, 276), (216, 312)], 7, 3, mane)
        c.line([(210, 228), (224, 262), (222, 296)], dark, 1.4, smooth=True)
    neck: list[Node] = [
        (72, 244),
        (58, 212),
        (48, 180),
        (56, 150),
        (70, 146),
        (86, 170),
        (104, 204),
        (100, 230),
    ]
    c.shape(neck, horse, INK, OUTLINE)
    body: list[Node] = [
        (70, 228),
        (86, 206),
        (112, 200),
        (150, 203),
        (185, 199),
        (206, 211),
        (213, 236),
        (203, 259),
        (180, 268),
        (130, 272),
        (92, 266),
        (72, 252),
    ]
    c.shape(hem(body, cut), horse, INK, OUTLINE)
    # near legs: raised foreleg, planted hind leg
    if cut is None:
        limb(c, [(82, 254), (62, 276), (52, 298), (56, 312)], 8.5, 5.5, horse)
        limb(c, [(194, 248), (204, 290), (190, 334)], 10, 5.5, horse)
        with c.group(transform((56, 314), -30)):
            c.shape([(-7, -2, 1), (6, -2, 1), (8, 8, 1), (-9, 8, 1)], BLACK, INK, 1.4, smooth=False)
        c.shape(
            [(183, 332, 1), (196, 332, 1), (198, 342, 1), (181, 342, 1)],
            BLACK,
            INK,
            1.4,
            smooth=False,
        )
    # head, ears, mane
    c.path(lens_d((63, 148), (68, 126), 8), horse, INK, 1.6)
    head: list[Node] = [
        (64, 148),
        (50, 144),
        (36, 158),
        (22, 178),
        (17, 190),
        (22, 199),
        (34, 198),
        (48, 186),
        (58, 172),
    ]
    c.shape(head, horse, INK, OUTLINE)
    c.circle(44, 160, 2.2, INK, None, 0)
    c.ellipse(23, 188, 2.2, 1.5, INK, None, 0)
    for k in range(7):
        p0 = lerp((66, 146), (100, 200), k / 7)
        c.path(lens_d(p0, (p0[0] + 14, p0[1] + 6), 8), mane, INK, 1.0)
    c.path(lens_d((58, 146), (46, 154), 6), mane, INK, 1.0)
    # bridle and caparison
    c.line([(56, 150), (36, 184), (22, 190)], pal.trim, 2.6)
    c.line([(40, 160), (54, 170)], pal.trim, 2.6)
    cap: list[Node] = [
        (96, 202, 1),
        (186, 200, 1),
        (196, 226),
        (192, 266, 1),
        (176, 270),
        (160, 264),
        (144, 272),
        (128, 264),
        (112, 272),
        (98, 266, 1),
        (90, 232),
    ]
    c.shape(hem(cap, cut), pal.main, INK, OUTLINE)
    c.line(
        [(98, 262), (112, 268), (128, 260), (144, 268), (160, 260), (176, 266), (190, 262)],
        pal.trim,
        3.4,
    )
    for k in range(4):
        c.circle(118 + k * 22, 236, 5, pal.trim, INK, 1.2)
    c.shape([(112, 204, 1), (150, 204, 1), (156, 196), (106, 196)], BROWN, INK, 1.6)


def draw_cavallo(
    c: Canvas, suit: str, style: FigureStyle | None = None, cut: float | None = None
) -> None:
    """Cavallo: a rider on a prancing horse, holding his suit's symbol aloft (above *cut*
    only: a half figure for a double-ended card)."""
    style = style or ITALIAN_FIGURES
    pal = style.palettes[suit]
    pose = style.cavallo_poses[suit]
    flip = style.cavallo_faces_right[suit]
    with c.group("translate(250 0) scale(-1 1)" if flip else ""):
        draw_horse(c, pal, cut)
        x, head_y = 132.0, 118.0
        torso: list[Node] = [
            (x, 134),
            (x + 13, 134),
            (x + 24, 142),
            (x + 22, 172),
            (x + 19, 200, 1),
            (x, 202),
        ]
        c.shape(sym(torso, x), pal.second, INK, OUTLINE)
        c.shape(
            [(x - 26, 190, 1), (x + 24, 190, 1), (x + 28, 222, 1), (x - 30, 222, 1)],
            pal.second,
            INK,
            OUTLINE,
            smooth=False,
        )
        c.rect(x - 20, 186, 40, 7, pal.trim, INK, 1.4, 2)
        limb(c, [(x - 4, 204), (x - 25, 214)], 9.5, 8.5, pal.main_dark)
        limb(c, [(x - 26, 212), (x - 24, 232), (x - 24, 252)], 8.5, 7.5, BLACK)
        boot: list[Node] = [(x - 17, 246, 1), (x - 17, 258, 1), (x - 42, 260, 1), (x - 38, 252)]
        c.shape(boot, BLACK, INK, OUTLINE)
        c.rect(x - 36, 214, 22, 6, pal.trim, INK, 1.2, 2)
        c.line([(x - 36, 262), (x - 20, 262)], GOLD, 2.6)
        c.ellipse(x, head_y + 18, 11, 4, WHITE, INK, 1.4)
        c.line([(24, 192), pose.joints(x)[1]], INK, 1.6)  # the rein
        draw_arms(c, suit, style, pose, (x, 146), 20, pal.second_dark, pal.trim)
        draw_rider_head(c, x, head_y, pal)


def draw_standing_re(
    c: Canvas, suit: str, style: FigureStyle | None = None, cut: float | None = None
) -> None:
    """Re standing (the Spanish-derived patterns): a crowned, bearded king in a long robe and
    an ermine cape, his suit's symbol in his right hand, his left hand on his belt (above *cut*
    only: a half figure for a double-ended card)."""
    style = style or ITALIAN_FIGURES
    pal = style.palettes[suit]
    pose = style.king_poses[suit]
    x = CX - 8
    head_y = 100.0
    if shown(334, cut):
        draw_shoes(c, x, [(8, 334, 1), (24, 333), (32, 340), (20, 344), (8, 342, 1)])
    cloak: list[Node] = [
        (x, head_y + 26),
        (x + 30, head_y + 34),
        (x + 46, 170),
        (x + 54, 260),
        (x + 60, 330, 1),
        (x, 334),
    ]
    c.shape(sym(hem(cloak, cut), x), pal.second, INK, OUTLINE)
    if shown(322, cut):
        draw_folds(c, x, [(48, 236, 54, 322)], pal.second_dark)
    robe: list[Node] = [
        (x, head_y + 24),
        (x + 16, head_y + 26),
        (x + 33, head_y + 38),
        (x + 34, 160),
        (x + 27, 200),
        (x + 38, 250),
        (x + 44, 334, 1),
        (x, 336),
    ]
    c.shape(sym(hem(robe, cut), x), pal.main, INK, OUTLINE)
    bottom = 332.0 if cut is None else cut + 12
    if shown(326, cut):
        draw_folds(c, x, [(14, 226, 20, 326), (28, 240, 34, 326)], pal.main_dark)
        c.line([(x - 44, 330), (x, 333), (x + 44, 330)], pal.trim, 5, smooth=True)
    c.rect(x - 6, 198, 12, bottom - 198, pal.trim, INK, 1.4)
    for by in range(212, round(bottom) - 2, 18):
        c.circle(x, by, 2.6, pal.second, INK, 0.8)
    c.rect(x - 27, 194, 54, 10, pal.trim, INK, 1.6, 3)
    cape: list[Node] = [
        (x, head_y + 24),
        (x + 18, head_y + 24),
        (x + 37, head_y + 38),
        (x + 39, head_y + 56),
        (x + 20, head_y + 70),
        (x, head_y + 74),
    ]
    draw_ermine_cape(c, x, cape)
    draw_arms(c, suit, style, pose, (x, head_y + 40), 31, pal.main_dark, WHITE)
    draw_king_head(c, x, head_y, pal)


#: Hands of the standing king: left on the belt, right holding the emblem out.
STANDING_KING_POSES = {
    "D": Pose(((-46, 182), (-24, 198)), ((54, 160), (58, 132)), 1.1),
    "C": Pose(((-46, 182), (-24, 198)), ((54, 176), (56, 160)), 1.0),
    "S": Pose(((-46, 182), (-24, 198)), ((50, 186), (52, 206)), 1.0, 4),
    "B": Pose(((-46, 182), (-24, 198)), ((50, 186), (52, 206)), 1.0, 8),
}


# ---------------------------------------------------------------------------------------------
# Italo-Spanish emblems (Spanish, Piacentine, Siciliane): straight swords, knobbly clubs, set
# apart in rows rather than crossing
# ---------------------------------------------------------------------------------------------

STEEL = "#3d78c9"
WOOD_LIGHT = "#dc9a48"
WOOD_SHADE = "#a35f22"


def star_points(r_out: float, r_in: float, points: int, turn: float = 0.0) -> list[Point]:
    """A star of *points* points round the origin (first point straight up)."""
    pts = []
    for k in range(points * 2):
        radius = r_out if k % 2 == 0 else r_in
        pts.append(rotate((0, -radius), turn + k * 180 / points))
    return pts


def draw_espada(
    c: Canvas,
    grip: Point,
    angle: float,
    length: float,
    scale: float = 1.0,
    width: float = 9.0,
    grip_colour: str = RED,
    blade_colour: str = STEEL,
) -> None:
    """A straight sword (espada) whose grip is centred on *grip*, pointing at *angle* (degrees
    clockwise from up): a tapering blade *length* long, a straight cross guard, a round pommel."""
    reach = length / scale
    w = width / scale
    with emblem_frame(c, grip, scale, angle) as sw:
        tip = -14 - reach
        blade = [(-w / 2, -14), (-w * 0.42, tip + w * 2.2), (0, tip), (w * 0.42, tip + w * 2.2)]
        blade.append((w / 2, -14))
        c.path(poly_d(blade), blade_colour, INK, sw)
        c.line([(0, -18), (0, tip + w * 2.6)], BLUE_LIGHT, w * 0.3)
        c.rect(-4.5, -11, 9, 23, grip_colour, INK, sw)
        for yy in (-5.0, 1.0, 7.0):
            c.line([(-4.5, yy - 2), (4.5, yy + 2)], INK, 1.0)
        c.rect(-22, -17, 44, 6.5, GOLD, INK, sw, 3)
        for side in (-1, 1):
            c.circle(side * 24, -13.75, 5, GOLD, INK, sw)
        c.ellipse(0, -16, 7, 5, GOLD_DARK, INK, sw * 0.8)
        c.circle(0, 17.5, 6.5, GOLD, INK, sw)
        c.circle(0, 17.5, 2.4, BLUE, None, 0)


def draw_basto(
    c: Canvas,
    at: Point,
    angle: float,
    length: float,
    width: float = 17.0,
    seed: int = 7,
    scale: float = 1.0,
    leaves: bool = False,
    wood: str = WOOD_LIGHT,
    wood_dark: str = WOOD_SHADE,
    band: str | None = None,
) -> None:
    """A knobbly cudgel (basto) in bare wood, thick end up, centred on *at*."""
    draw_club(
        c, at, angle, length, width, scale, seed, band, leaves, (0.3, 0.5, 0.7, 0.86),
        wood, wood_dark,
    )  # fmt: skip


#: Items per row, top to bottom.
ROWS = {2: (2,), 3: (3,), 4: (2, 2), 5: (3, 2), 6: (3, 3), 7: (4, 3)}


def row_places(n: int, spread: float = 1.0) -> list[tuple[Point, float, float]]:
    """(grip or foot point, angle, length) of each long emblem: rows fanning out upwards."""
    rows = ROWS[n]
    top, bottom = 44.0, 352.0
    band = (bottom - top) / len(rows)
    out = []
    for r, count in enumerate(rows):
        y_low = top + band * (r + 1) - 18
        length = band - 40
        gap = min(80.0 if len(rows) == 1 else 66.0, 150.0 / max(count - 1, 1)) * spread
        for i in range(count):
            k = i - (count - 1) / 2
            out.append(((CX + k * gap, y_low), k * 5.0, length))
    return out


def alternate_rows(n: int, spread: float = 1.0) -> list[tuple[Point, float, float]]:
    """:func:`row_places` with every other emblem turned half round about its own middle
    (hilts or heads alternately up and down), as the northern Spanish-derived patterns do."""
    out = []
    for k, ((x, y), angle, length) in enumerate(row_places(n, spread)):
        if k % 2:
            middle = rotate((0, -length / 2), angle)
            centre = (x + middle[0], y + middle[1])
            x, y = 2 * centre[0] - x, 2 * centre[1] - y
            angle += 180
        out.append(((x, y), angle, length))
    return out


@dataclass(frozen=True)
class RowPips:
    """The suit cards 2-7 of an Italo-Spanish deck: coins and cups in the columns of
    :func:`column_layout`; swords and clubs set apart in the rows of :func:`row_places`, or
    with every other one turned half round (:func:`alternate_rows`) when *turned*, drawn
    smaller from four up."""

    emblems: Emblems
    coin_radius: Mapping[int, float]
    cup_height: Mapping[int, float]
    first_club_seed: int  # the clubs' knots and bumps come from seeds counting up from here
    sword_width: float = 11.0  # blade width of a full-size sword (the 2 and the 3)
    club_width: float = 16.0  # of a club on the 2 and the 3; 13 from four up
    club_spread: float = 0.86  # spacing of the clubs from three up, as a share of the swords'
    turned: bool = False

    def places(self, n: int, spread: float = 1.0) -> list[tuple[Point, float, float]]:
        return alternate_rows(n, spread) if self.turned else row_places(n, spread)

    def draw_coins(self, c: Canvas, n: int) -> None:
        for x, y in column_layout(n):
            self.emblems.coin(c, x, y, self.coin_radius[n])

    def draw_cups(self, c: Canvas, n: int) -> None:
        for x, y in column_layout(n):
            self.emblems.cup(c, x, y, self.cup_height[n], 0.0)

    def draw_swords(self, c: Canvas, n: int) -> None:
        """Each grip 12 units (at full size) above its row point: straight up, or along the
        blade when every other sword is turned."""
        scale = 1.0 if n <= 3 else 0.8
        for (x, y), angle, length in self.places(n):
            dx, dy = rotate((0, -12 * scale), angle) if self.turned else (0.0, -12 * scale)
            width = self.sword_width * scale
            self.emblems.sword(c, (x + dx, y + dy), angle, length - 16 * scale, scale, width)

    def draw_clubs(self, c: Canvas, n: int) -> None:
        """Each club standing on its row point (hanging from it when turned)."""
        width = self.club_width if n <= 3 else 13.0
        places = self.places(n, self.club_spread if n != 2 else 1.0)
        for k, ((x, y), angle, length) in enumerate(places):
            middle = rotate((0, -length / 2), angle)
            seed = self.first_club_seed + k
            self.emblems.club(c, (x + middle[0], y + middle[1]), angle, length, width, seed)

    def drawers(self) -> dict[str, Callable[[Canvas, int], None]]:
        """The suit card drawers by suit, for :attr:`LatinDeck.pips`."""
        return {
            "D": self.draw_coins,
            "C": self.draw_cups,
            "S": self.draw_swords,
            "B": self.draw_clubs,
        }


# ---------------------------------------------------------------------------------------------
# The card: paper, frame, corner indices
# ---------------------------------------------------------------------------------------------


def draw_paper(c: Canvas, paper: str) -> None:
    """The card itself: rounded, *paper* coloured, with a fine edge."""
    c.rect(0.5, 0.5, CARD_W - 1, CARD_H - 1, paper, "#8a8073", 1.0, CARD_RADIUS)


@dataclass(frozen=True)
class PlainFace:
    """The card and one thin frame line *inset* from its edge (no pinta): a card face drawer
    for :attr:`LatinDeck.face`."""

    paper: str = CREAM
    inset: float = 7.0
    frame: str = FRAME

    def __call__(self, c: Canvas, suit: str) -> None:
        draw_paper(c, self.paper)
        w, h = CARD_W - 2 * self.inset, CARD_H - 2 * self.inset
        c.rect(self.inset, self.inset, w, h, "none", self.frame, 1.6, CARD_RADIUS - 6)


def number_width(text: str, height: float) -> float:
    """The width of *text* drawn by :func:`draw_number` at *height*."""
    s = height / GLYPH_H
    pen = sum(GLYPH_ADVANCE.get(ch, GLYPH_W) + 1.5 for ch in text) - 1.5
    return pen * s


def draw_corner_indices(
    c: Canvas, text: str, at: Point, height: float, colour: str = INK, centre_x: float = 0.0
) -> None:
    """*text* (digits) at the top left and, turned half round, at the bottom right.

    With *centre_x* the number is centred on that x instead of starting at ``at[0]``.
    """
    x = centre_x - number_width(text, height) / 2 if centre_x else at[0]
    for rotated in (False, True):
        with c.group(transform((CARD_W, CARD_H), 180) if rotated else ""):
            draw_number(c, text, x, at[1], height, colour)


# ---------------------------------------------------------------------------------------------
# A deck: what each card shows, the files, the command line
# ---------------------------------------------------------------------------------------------

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "cards"
#: Draws a court figure: (canvas, suit, style).
FigureDrawer = Callable[[Canvas, str, FigureStyle], None]


@dataclass(frozen=True)
class LatinDeck:
    """One Latin-suited deck, as the table of what it does its own way; it draws the 40 faces,
    writes them (and its back) and runs the generator's command line.

    *face* draws the blank card with its frame (canvas, suit); *aces*, *pips* (canvas, count)
    and *courts* (figure drawers, given *figures*) draw what is on it by suit or rank. The
    corner number *index[rank]* starts at *index_at*, or is centred on *index_centre_x*.
    """

    name: str  # the module under tools.cardgen and the folder under assets/cards
    title: str  # the deck's name in the command line's help
    face: Callable[[Canvas, str], None]
    aces: Mapping[str, Callable[[Canvas], None]]
    pips: Mapping[str, Callable[[Canvas, int], None]]
    courts: Mapping[str, FigureDrawer]
    figures: FigureStyle
    suit_names: Mapping[str, str] = field(default_factory=lambda: ITALIAN_SUIT_NAMES)
    rank_names: Mapping[str, str] = field(default_factory=lambda: ITALIAN_RANK_NAMES)
    of: str = "di"  # between rank and suit in a card's title
    index: Mapping[str, str] = field(default_factory=lambda: NUMBERS)
    index_at: Point = (15.0, 15.0)
    index_height: float = 30.0
    index_centre_x: float = 0.0
    back: LatticeBack | None = None  # the deck's own back.svg, if it has one

    @property
    def default_out(self) -> Path:
        return ASSETS / self.name

    def card_title(self, rank: str, suit: str) -> str:
        return f"{self.rank_names.get(rank, rank)} {self.of} {self.suit_names[suit]}"

    def card_svg(self, rank: str, suit: str) -> str:
        """The complete SVG document of one card face."""
        c = Canvas(self.card_title(rank, suit))
        self.face(c, suit)
        if rank == "A":
            self.aces[suit](c)
        elif rank in self.courts:
            self.courts[rank](c, suit, self.figures)
        else:
            self.pips[suit](c, int(rank))
        text = self.index[rank]
        draw_corner_indices(c, text, self.index_at, self.index_height, INK, self.index_centre_x)
        return c.render()

    def generate(self, out_dir: Path | None = None) -> list[Path]:
        """Write the 40 faces and the deck's ``back.svg``, if any, into *out_dir* (default: the
        deck's folder under ``assets/cards``); return the paths, faces in deck order first."""
        out = self.default_out if out_dir is None else out_dir
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for suit in SUITS:
            for rank in RANKS:
                path = out / f"{card_code(rank, suit)}.svg"
                path.write_text(self.card_svg(rank, suit), encoding="utf-8", newline="\n")
                written.append(path)
        if self.back is not None:
            written.append(back_svg(self.back).write(out / "back.svg"))
        return written

    def main(self, argv: Sequence[str] | None = None) -> int:
        """The command line: ``python -m tools.cardgen.<name> [--out DIR]``."""
        back = " and back.svg" if self.back else ""
        parser = argparse.ArgumentParser(
            prog=f"python -m tools.cardgen.{self.name}",
            description=f"Generate the {self.title} deck: 40 SVG card faces{back}.",
        )
        default = self.default_out
        parser.add_argument(
            "--out", type=Path, default=default, help=f"output directory (default {default})"
        )
        args = parser.parse_args(argv)
        paths = self.generate(args.out)
        print(f"wrote {len(paths)} {'files' if self.back else 'cards'} to {args.out}")
        return 0
