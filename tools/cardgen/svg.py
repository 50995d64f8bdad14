"""Tiny, deterministic SVG writer for the card generators.

Only what pygame's SVG rasteriser (nanosvg) draws is offered: ``path``, ``rect``, ``circle``,
``ellipse``, ``polygon``, ``polyline``, ``line`` and ``g`` with a ``transform``, coloured with
``#rrggbb`` fill and stroke attributes. Numbers are written with at most two decimals, so that
generating twice gives byte-identical files.

>>> num(1.0), num(-0.001), num(2.345), num(12)
('1', '0', '2.35', '12')
>>> d("M", 0, 1.5, "L", 2, 3, "Z")
'M0 1.5L2 3Z'
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

Point = tuple[float, float]

CARD_W = 250
CARD_H = 400
CARD_RADIUS = 14
FRAME_COLOUR = "#2b2b2b"


def num(value: float) -> str:
    """Format a number with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def d(*parts: str | float) -> str:
    """Join path commands and coordinates into compact, stable path data."""
    out: list[str] = []
    previous_was_number = False
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            previous_was_number = False
        else:
            if previous_was_number:
                out.append(" ")
            out.append(num(part))
            previous_was_number = True
    return "".join(out)


def points(pts: Sequence[Point]) -> str:
    """Format a ``points`` attribute for polygons and polylines."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


def transform(
    translate: Point = (0.0, 0.0),
    rotate: float = 0.0,
    scale: float | Point = 1.0,
) -> str:
    """An SVG transform: translate, then rotate (degrees), then scale."""
    parts = []
    if translate != (0.0, 0.0):
        parts.append(f"translate({num(translate[0])} {num(translate[1])})")
    if rotate:
        parts.append(f"rotate({num(rotate)})")
    if isinstance(scale, tuple):
        if scale != (1.0, 1.0):
            parts.append(f"scale({num(scale[0])} {num(scale[1])})")
    elif scale != 1.0:
        parts.append(f"scale({num(scale)})")
    return " ".join(parts)


def rotate_180(width: float = CARD_W, height: float = CARD_H) -> str:
    """The transform that turns a card (or a panel) of this size upside down."""
    return f"matrix(-1 0 0 -1 {num(width)} {num(height)})"


def polar(cx: float, cy: float, radius: float, degrees: float) -> Point:
    """The point at *radius* from (cx, cy), *degrees* clockwise from 3 o'clock."""
    angle = math.radians(degrees)
    return (cx + radius * math.cos(angle), cy + radius * math.sin(angle))


def _attr_name(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


def _attr_value(value: str | float) -> str:
    return value if isinstance(value, str) else num(value)


class Svg:
    """An SVG document built element by element; ``str()`` gives the file text."""

    def __init__(self, width: float = CARD_W, height: float = CARD_H) -> None:
        self.width = width
        self.height = height
        self._lines: list[str] = []
        self._depth = 1

    def add(self, tag: str, **attrs: str | float) -> None:
        """Add one element; ``stroke_width=2`` is written as ``stroke-width="2"``."""
        text = " ".join(f'{_attr_name(k)}="{_attr_value(v)}"' for k, v in attrs.items())
        self._lines.append(f"{'  ' * self._depth}<{tag} {text}/>")

    @contextmanager
    def group(self, transform_: str = "", **attrs: str | float) -> Iterator[Svg]:
        """A ``<g>`` around everything added inside the ``with`` block."""
        all_attrs: dict[str, str | float] = {}
        if transform_:
            all_attrs["transform"] = transform_
        all_attrs.update(attrs)
        text = " ".join(f'{_attr_name(k)}="{_attr_value(v)}"' for k, v in all_attrs.items())
        self._lines.append(f"{'  ' * self._depth}<g{' ' if text else ''}{text}>")
        self._depth += 1
        try:
            yield self
        finally:
            self._depth -= 1
            self._lines.append(f"{'  ' * self._depth}</g>")

    def path(self, data: str, fill: str = "none", **attrs: str | float) -> None:
        self.add("path", d=data, fill=fill, **attrs)

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str = "none", **attrs: str | float
    ) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, fill=fill, **attrs)

    def circle(
        self, cx: float, cy: float, r: float, fill: str = "none", **attrs: str | float
    ) -> None:
        self.add("circle", cx=cx, cy=cy, r=r, fill=fill, **attrs)

    def ellipse(
        self, cx: float, cy: float, rx: float, ry: float, fill: str = "none", **attrs: str | float
    ) -> None:
        self.add("ellipse", cx=cx, cy=cy, rx=rx, ry=ry, fill=fill, **attrs)

    def polygon(self, pts: Sequence[Point], fill: str = "none", **attrs: str | float) -> None:
        self.add("polygon", points=points(pts), fill=fill, **attrs)

    def polyline(self, pts: Sequence[Point], stroke: str, **attrs: str | float) -> None:
        self.add("polyline", points=points(pts), fill="none", stroke=stroke, **attrs)

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str, **attrs: str | float
    ) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs)

    def __str__(self) -> str:
        w, h = num(self.width), num(self.height)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">'
        )
        return "\n".join([head, *self._lines, "</svg>"]) + "\n"

    def write(self, path: Path) -> Path:
        """Write the document (UTF-8, ``\\n`` line ends) and return *path*."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(str(self).encode("utf-8"))
        return path


def card_base(svg: Svg, face: str = "#ffffff", frame: str = FRAME_COLOUR) -> None:
    """The shared card blank: rounded 250 x 400 face with a thin dark frame just inside."""
    svg.rect(
        1, 1, CARD_W - 2, CARD_H - 2, fill=face, stroke=frame, stroke_width=2,
        rx=CARD_RADIUS - 1, ry=CARD_RADIUS - 1,
    )  # fmt: skip
