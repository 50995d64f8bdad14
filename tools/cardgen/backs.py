"""Generate the card backs and the face-down stock as SVG files.

Run from the repository root::

    python -m tools.cardgen.backs            # writes assets/cards/backs/

Files (all shared by every deck style):

- ``classic.svg``: red field with a cream diagonal lattice, a rosette on every crossing, a
  double frame and a small oval medallion in the middle.
- ``blue.svg``: the same lattice back in a strong blue, with star-shaped rosettes.
- ``felt.svg``: the table's green, with a fine light-green lattice, gold frame, corner fans and a
  gold compass-star medallion.
- ``stock.svg``: the face-down stock, drawn with the classic back. It is 260 x 410 units (viewBox
  ``0 0 260 410``), a little larger than a card: the top card sits at the origin exactly where a
  250 x 400 card would be, and four card edges lie under it, each 2.5 units further right and
  down, so the pile shows a thin stepped edge at its right and bottom sides. To draw it over a
  card slot of w x h px, rasterise it at (w * 260 / 250, h * 410 / 400) and blit it at the slot's
  top-left corner. The game may equally stack back images itself; this file is a convenience.

Every back uses the shared card geometry (250 x 400 units, corner radius 14, thin dark frame
line) and is symmetric under a half turn, so a card looks the same whichever way it lies.
Output is deterministic: same input, same bytes.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.cardgen.svg import CARD_H, CARD_RADIUS, CARD_W, Point, Svg, card_base, d, transform

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO_ROOT / "assets" / "cards" / "backs"

CX, CY = CARD_W / 2, CARD_H / 2
MARGIN = 11.0  # white border between the card edge and the printed field
FIELD_RADIUS = 8.0

STOCK_LAYERS = 4
STOCK_STEP = 2.5
STOCK_W = CARD_W + STOCK_LAYERS * STOCK_STEP
STOCK_H = CARD_H + STOCK_LAYERS * STOCK_STEP


def clip_segment(
    p: Point, direction: Point, box: tuple[float, float, float, float]
) -> tuple[Point, Point] | None:
    """Clip the infinite line through *p* along *direction* to *box* (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    t_min, t_max = -math.inf, math.inf
    for origin, delta, low, high in ((p[0], direction[0], x0, x1), (p[1], direction[1], y0, y1)):
        if abs(delta) < 1e-12:
            if not low <= origin <= high:
                return None
            continue
        t1, t2 = (low - origin) / delta, (high - origin) / delta
        t_min, t_max = max(t_min, min(t1, t2)), min(t_max, max(t1, t2))
    if t_max - t_min < 1e-9:
        return None
    return (
        (p[0] + t_min * direction[0], p[1] + t_min * direction[1]),
        (p[0] + t_max * direction[0], p[1] + t_max * direction[1]),
    )


def lattice(
    svg: Svg,
    box: tuple[float, float, float, float],
    half_w: float,
    half_h: float,
    stroke: str,
    width: float,
    double: float = 0.0,
) -> list[Point]:
    """Diagonal lattice over *box*, centred on the card; returns the crossings inside the box.

    Lines run along (half_w, +-half_h) through the points (CX + 2 m half_w, CY). With *double*
    each line is drawn twice, that far apart (measured across x).
    """
    x0, y0, x1, y1 = box
    reach = int((x1 - x0 + (y1 - y0) * half_w / half_h) / (2 * half_w)) + 2
    offsets = (-double / 2, double / 2) if double else (0.0,)
    parts: list[str | float] = []
    for m in range(-reach, reach + 1):
        for sign in (1, -1):
            for off in offsets:
                seg = clip_segment((CX + 2 * m * half_w + off, CY), (half_w, sign * half_h), box)
                if seg:
                    (ax, ay), (bx, by) = seg
                    parts += ["M", ax, ay, "L", bx, by]
    svg.path(d(*parts), stroke=stroke, stroke_width=width)
    crossings = []
    for i in range(-2 * reach, 2 * reach + 1):
        for j in range(-2 * reach, 2 * reach + 1):
            if (i + j) % 2:
                continue
            x, y = CX + i * half_w, CY + j * half_h
            if x0 < x < x1 and y0 < y < y1:
                crossings.append((x, y))
    return crossings


def petals_data(x: float, y: float, r: float, petals: int) -> list[str | float]:
    """Path data for a ring of elliptic petals of radius *r* around (x, y), as two arcs each."""
    parts: list[str | float] = []
    for k in range(petals):
        theta = -90 + k * 360 / petals
        ux, uy = math.cos(math.radians(theta)), math.sin(math.radians(theta))
        inner = (x + ux * r * 0.05, y + uy * r * 0.05)
        outer = (x + ux * r * 1.05, y + uy * r * 1.05)
        rx, ry = r * 0.5, r * 0.3
        parts += ["M", *inner, "A", rx, ry, theta, 0, 1, *outer]
        parts += ["A", rx, ry, theta, 0, 1, *inner, "Z"]
    return parts


def rosette(svg: Svg, x: float, y: float, r: float, petal: str, heart: str, petals: int) -> None:
    """A small flower of *petals* petals of radius *r* centred on (x, y)."""
    svg.path(d(*petals_data(x, y, r, petals)), fill=petal)
    svg.circle(x, y, r * 0.3, fill=heart)


def star_points(x: float, y: float, r: float, points: int, inner: float) -> list[Point]:
    """Corners of a star of *points* points, outer radius *r*, inner radius *r* x *inner*."""
    pts = []
    for k in range(2 * points):
        radius = r if k % 2 == 0 else r * inner
        angle = math.radians(-90 + k * 180 / points)
        pts.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return pts


def star_data(x: float, y: float, r: float, points: int, inner: float) -> list[str | float]:
    parts: list[str | float] = []
    for k, (px, py) in enumerate(star_points(x, y, r, points, inner)):
        parts += ["M" if k == 0 else "L", px, py]
    return [*parts, "Z"]


def circle_data(x: float, y: float, r: float) -> list[str | float]:
    """A full circle as two arcs, for merging many dots into one path."""
    return ["M", x - r, y, "A", r, r, 0, 1, 0, x + r, y, "A", r, r, 0, 1, 0, x - r, y, "Z"]


def star(svg: Svg, x: float, y: float, r: float, points: int, fill: str, inner: float) -> None:
    svg.polygon(star_points(x, y, r, points, inner), fill=fill)


@dataclass(frozen=True)
class LatticeBack:
    field: str
    ink: str  # the light colour of lines and rosettes
    deep: str  # a darker shade of the field for the medallion ring
    petals: int
    star_rosettes: bool


def field(svg: Svg, fill: str) -> tuple[float, float, float, float]:
    """The printed area inside the white border; returns the lattice box inside it."""
    w, h = CARD_W - 2 * MARGIN, CARD_H - 2 * MARGIN
    svg.rect(MARGIN, MARGIN, w, h, fill=fill, rx=FIELD_RADIUS, ry=FIELD_RADIUS)
    inset = MARGIN + 4
    return (inset, inset, CARD_W - inset, CARD_H - inset)


def frame(svg: Svg, ink: str, outer: str) -> None:
    """Double frame over the field's edge, hiding where the pattern meets it."""
    w, h = CARD_W - 2 * MARGIN, CARD_H - 2 * MARGIN
    svg.rect(MARGIN + 2.5, MARGIN + 2.5, w - 5, h - 5, stroke=ink, stroke_width=5, rx=6, ry=6)
    svg.rect(MARGIN + 9, MARGIN + 9, w - 18, h - 18, stroke=ink, stroke_width=1.2, rx=3, ry=3)
    svg.rect(MARGIN, MARGIN, w, h, stroke=outer, stroke_width=1.2, rx=FIELD_RADIUS, ry=FIELD_RADIUS)


def draw_lattice_back(svg: Svg, style: LatticeBack) -> None:
    box = field(svg, style.field)
    crossings = lattice(svg, box, 13.0, 20.0, style.ink, 1.1, double=3.2)
    grounds: list[str | float] = []
    flowers: list[str | float] = []
    hearts: list[str | float] = []
    for x, y in crossings:
        if style.star_rosettes:
            flowers += star_data(x, y, 6.2, 4, 0.36)
            hearts += circle_data(x, y, 1.6)
        else:
            grounds += circle_data(x, y, 4.4)
            flowers += petals_data(x, y, 7.5, style.petals)
            hearts += circle_data(x, y, 2.2)
    # Small dots in the middle of each lattice cell.
    for x, y in crossings:
        if box[0] + 3 < x + 13.0 < box[2] - 3:
            flowers += circle_data(x + 13.0, y, 1.3)
    if grounds:
        svg.path(d(*grounds), fill=style.field)
    svg.path(d(*flowers), fill=style.ink)
    svg.path(d(*hearts), fill=style.field)
    # Central oval medallion.
    svg.ellipse(CX, CY, 34, 46, fill=style.deep, stroke=style.ink, stroke_width=3)
    svg.ellipse(CX, CY, 28, 40, fill=style.field, stroke=style.ink, stroke_width=1)
    ring: list[str | float] = []
    for k in range(16):
        ring += circle_data(
            CX + 21 * math.sin(k * math.pi / 8), CY + 31 * math.cos(k * math.pi / 8), 1.4
        )
    svg.path(d(*ring), fill=style.ink)
    rosette(svg, CX, CY, 17, style.ink, style.field, 8)
    svg.circle(CX, CY, 2.6, fill=style.ink)
    frame(svg, style.ink, "#2b2b2b")


CLASSIC = LatticeBack("#b3202a", "#f6e7c8", "#7e1119", 4, False)
BLUE = LatticeBack("#1d4f9c", "#e9eef7", "#123366", 4, True)

FELT = "#1e6b3c"
FELT_DEEP = "#124a28"
FELT_LIGHT = "#5fa872"
FELT_GOLD = "#d9b45a"


def draw_felt_back(svg: Svg) -> None:
    box = field(svg, FELT)
    crossings = lattice(svg, box, 10.0, 10.0, "#2a7d4a", 1.0)
    dots: list[str | float] = []
    for x, y in crossings:
        dots += circle_data(x, y, 1.3)
    svg.path(d(*dots), fill=FELT_LIGHT)
    # Inner panel: a darker rounded rectangle with its own fine lattice, a gold line and fans.
    px0, py0, px1, py1 = 38.0, 44.0, CARD_W - 38.0, CARD_H - 44.0
    svg.rect(px0, py0, px1 - px0, py1 - py0, fill=FELT_DEEP, rx=10, ry=10)
    lattice(svg, (px0 + 3, py0 + 3, px1 - 3, py1 - 3), 7.0, 11.0, "#1b5c34", 1.0)
    svg.rect(px0, py0, px1 - px0, py1 - py0, stroke=FELT_GOLD, stroke_width=2, rx=10, ry=10)
    svg.rect(px0 + 5, py0 + 5, px1 - px0 - 10, py1 - py0 - 10, stroke=FELT_LIGHT,
             stroke_width=0.8, rx=7, ry=7)  # fmt: skip
    for (x, y), base in (((px0, py0), 0), ((px1, py0), 90), ((px1, py1), 180), ((px0, py1), 270)):
        for k in range(7):
            angle = base + 6 + k * 13
            with svg.group(transform((x, y), angle)):
                svg.ellipse(20, 0, 11, 2.6, fill=FELT_GOLD if k % 2 == 0 else FELT_LIGHT)
        svg.circle(x, y, 5, fill=FELT_GOLD, stroke=FELT_DEEP, stroke_width=1.2)
    # Chains of small lozenges along the long sides of the panel, above and below the star.
    chain: list[str | float] = []
    for side in (-1, 1):
        x = CX + side * 60
        for k in range(15):
            y = py0 + 42 + k * (py1 - py0 - 84) / 14
            chain += ["M", x, y - 6, "L", x + 3.5, y, "L", x, y + 6, "L", x - 3.5, y, "Z"]
    for y in (py0 + 34, py1 - 34):
        for k in range(-3, 4):
            x = CX + k * 14
            chain += ["M", x, y - 6, "L", x + 3.5, y, "L", x, y + 6, "L", x - 3.5, y, "Z"]
    svg.path(d(*chain), fill=FELT_GOLD)
    # Compass-star medallion.
    svg.circle(CX, CY, 46, fill=FELT, stroke=FELT_GOLD, stroke_width=3)
    svg.circle(CX, CY, 40, stroke=FELT_LIGHT, stroke_width=1)
    for k in range(32):
        with svg.group(transform((CX, CY), k * 360 / 32)):
            svg.circle(0, -43, 1.2, fill=FELT_GOLD)
    star(svg, CX, CY, 36, 8, FELT_LIGHT, 0.42)
    star(svg, CX, CY, 34, 4, FELT_GOLD, 0.3)
    with svg.group(transform((CX, CY), 45)):
        star(svg, 0, 0, 22, 4, FELT_GOLD, 0.35)
    svg.circle(CX, CY, 7, fill=FELT_DEEP, stroke=FELT_GOLD, stroke_width=1.5)
    svg.circle(CX, CY, 2.5, fill=FELT_GOLD)
    frame(svg, FELT_GOLD, "#2b2b2b")


BACKS: dict[str, Callable[[Svg], None]] = {
    "classic": lambda svg: draw_lattice_back(svg, CLASSIC),
    "blue": lambda svg: draw_lattice_back(svg, BLUE),
    "felt": draw_felt_back,
}


def back_svg(back: str | LatticeBack) -> Svg:
    """A whole back: one of the shared :data:`BACKS` by name, or a deck's own lattice back."""
    svg = Svg()
    card_base(svg)
    if isinstance(back, LatticeBack):
        draw_lattice_back(svg, back)
    else:
        BACKS[back](svg)
    return svg


def stock_svg(back: str = "classic") -> Svg:
    """The face-down stock: card edges stepping down-right under one back (see module doc)."""
    svg = Svg(STOCK_W, STOCK_H)
    for layer in range(STOCK_LAYERS, 0, -1):
        offset = layer * STOCK_STEP
        svg.rect(
            offset + 1, offset + 1, CARD_W - 2, CARD_H - 2, fill="#f4f1ea", stroke="#6b6b6b",
            stroke_width=1.4, rx=CARD_RADIUS - 1, ry=CARD_RADIUS - 1,
        )  # fmt: skip
    card_base(svg)
    BACKS[back](svg)
    return svg


def generate(out_dir: Path) -> list[Path]:
    """Write every back and ``stock.svg`` into *out_dir*; return the paths."""
    written = [back_svg(name).write(out_dir / f"{name}.svg") for name in BACKS]
    written.append(stock_svg().write(out_dir / "stock.svg"))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools.cardgen.backs", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)
    paths = generate(args.out)
    print(f"{args.out}: {', '.join(p.name for p in paths)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
