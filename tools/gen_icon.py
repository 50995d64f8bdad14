"""Draw the application icon into ``assets/icon/`` (stdlib + pygame).

Run ``python -m tools.gen_icon`` from the repository root (``--out DIR`` writes elsewhere).

The icon is a rounded green square (a felt gradient with a thin gold rim) holding two fanned
playing cards: behind, a red card back with a cream border; in front, a cream card showing a big
gold coin (the *denari* suit of the Italian deck) with a rosette in the middle. It is described
once as a list of shapes in unit coordinates and rendered twice:

* ``icon-{16,32,48,64,128,256,512}.png``: drawn with pygame at 8x (small sizes) or 4x the target
  size and smooth-scaled down, so edges are anti-aliased. Sizes up to 32 px use a simplified
  drawing (thicker outlines, no fine ornaments) so they stay crisp.
* ``briscola.ico``: a Windows icon with 16, 32, 48 and 256 px entries, each stored as PNG
  (valid since Windows Vista); the container is written here with ``struct``.
* ``briscola.svg``: the same shapes as a scalable vector drawing.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "assets" / "icon"

PNG_SIZES = (16, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 32, 48, 256)

Point = tuple[float, float]
Colour = tuple[int, int, int]

BG_TOP: Colour = (48, 142, 84)
BG_BOTTOM: Colour = (18, 82, 46)
GOLD_RIM: Colour = (214, 170, 72)
CREAM: Colour = (250, 245, 232)
INK: Colour = (92, 66, 36)
BACK_RED: Colour = (168, 34, 46)
BACK_GOLD: Colour = (228, 184, 92)
COIN_DARK: Colour = (150, 98, 22)
COIN: Colour = (238, 188, 62)
COIN_MID: Colour = (206, 150, 38)
COIN_LIGHT: Colour = (248, 210, 110)

CORNER = 0.2  # background corner radius
CARD_W, CARD_H, CARD_R = 0.42, 0.6, 0.045
PIVOT: Point = (0.53, 0.92)


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: Colour


@dataclass(frozen=True)
class Circle:
    centre: Point
    radius: float
    fill: Colour


@dataclass(frozen=True)
class Shadow:
    points: tuple[Point, ...]


Shape = Polygon | Circle | Shadow


# --------------------------------------------------------------------------- geometry


def rotate(p: Point, pivot: Point, degrees: float) -> Point:
    a = math.radians(degrees)
    x, y = p[0] - pivot[0], p[1] - pivot[1]
    return (
        pivot[0] + x * math.cos(a) - y * math.sin(a),
        pivot[1] + x * math.sin(a) + y * math.cos(a),
    )


def rounded_rect(
    cx: float, cy: float, w: float, h: float, r: float, segments: int = 10
) -> list[Point]:
    """Points of a rounded rectangle (clockwise on screen, y down)."""
    r = max(0.0, min(r, w / 2, h / 2))
    corners = (
        (cx + w / 2 - r, cy - h / 2 + r, -90.0),
        (cx + w / 2 - r, cy + h / 2 - r, 0.0),
        (cx - w / 2 + r, cy + h / 2 - r, 90.0),
        (cx - w / 2 + r, cy - h / 2 + r, 180.0),
    )
    pts: list[Point] = []
    for ox, oy, start in corners:
        for k in range(segments + 1):
            a = math.radians(start + 90.0 * k / segments)
            pts.append((ox + r * math.cos(a), oy + r * math.sin(a)))
    return pts


def star(cx: float, cy: float, outer: float, inner: float, tips: int, turn: float) -> list[Point]:
    pts: list[Point] = []
    for k in range(2 * tips):
        a = math.radians(turn) + math.pi * k / tips
        r = outer if k % 2 == 0 else inner
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def card_shape(inset: float, angle: float) -> tuple[Point, ...]:
    pts = rounded_rect(
        PIVOT[0], 0.5, CARD_W - 2 * inset, CARD_H - 2 * inset, max(0.004, CARD_R - inset)
    )
    return tuple(rotate(p, PIVOT, angle) for p in pts)


def card_point(x: float, y: float, angle: float) -> Point:
    """A point given relative to the card centre, on the rotated card."""
    return rotate((PIVOT[0] + x, 0.5 + y), PIVOT, angle)


def icon_shapes(detailed: bool) -> list[Shape]:
    """The icon as shapes in unit coordinates (0..1), painted in order, background excluded."""
    back_angle, front_angle = -17.0, 9.0
    outline = 0.008 if detailed else 0.02
    shapes: list[Shape] = []
    # Card back.
    shapes.append(Shadow(tuple((x + 0.012, y + 0.018) for x, y in card_shape(0.0, back_angle))))
    shapes.append(Polygon(card_shape(0.0, back_angle), INK))
    shapes.append(Polygon(card_shape(outline, back_angle), CREAM))
    shapes.append(Polygon(card_shape(0.035, back_angle), BACK_RED))
    if detailed:
        shapes.append(Polygon(card_shape(0.055, back_angle), BACK_GOLD))
        shapes.append(Polygon(card_shape(0.062, back_angle), BACK_RED))
    # Front card with the coin.
    shapes.append(Shadow(tuple((x + 0.015, y + 0.022) for x, y in card_shape(0.0, front_angle))))
    shapes.append(Polygon(card_shape(0.0, front_angle), INK))
    shapes.append(Polygon(card_shape(outline, front_angle), CREAM))
    centre = card_point(0.0, 0.0, front_angle)
    if detailed:
        shapes.append(Circle(centre, 0.145, COIN_DARK))
        shapes.append(Circle(centre, 0.132, COIN))
        shapes.append(Circle(centre, 0.098, COIN_MID))
        shapes.append(Circle(centre, 0.088, COIN_LIGHT))
        shapes.append(Polygon(tuple(star(*centre, 0.075, 0.03, 8, front_angle)), COIN_MID))
        shapes.append(Circle(centre, 0.022, COIN_DARK))
        for dx, dy in ((-0.145, -0.225), (0.145, 0.225)):
            pip = card_point(dx, dy, front_angle)
            shapes.append(Circle(pip, 0.028, COIN_DARK))
            shapes.append(Circle(pip, 0.02, COIN))
    else:
        shapes.append(Circle(centre, 0.16, COIN_DARK))
        shapes.append(Circle(centre, 0.13, COIN))
        shapes.append(Circle(centre, 0.05, COIN_DARK))
    return shapes


# --------------------------------------------------------------------------- raster


def _lerp(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _scaled(points: Sequence[Point], s: float) -> list[tuple[float, float]]:
    return [(x * s, y * s) for x, y in points]


def render(size: int) -> pygame.Surface:
    """Render the icon at ``size`` px with supersampling."""
    factor = 8 if size <= 64 else 4
    s = size * factor
    canvas = pygame.Surface((s, s), pygame.SRCALPHA)
    for y in range(s):
        canvas.fill((*_lerp(BG_TOP, BG_BOTTOM, y / (s - 1)), 255), (0, y, s, 1))
    # Gold rim: a band just inside the rounded square's edge.
    rim = max(1.0, 0.018 * s if size > 32 else 0.035 * s)
    outer = rounded_rect(0.5, 0.5, 1.0, 1.0, CORNER, 24)
    band = pygame.Surface((s, s), pygame.SRCALPHA)
    pygame.draw.polygon(band, (*GOLD_RIM, 255), _scaled(outer, s))
    inner = rounded_rect(0.5, 0.5, 1.0 - 2 * rim / s, 1.0 - 2 * rim / s, CORNER - rim / s, 24)
    pygame.draw.polygon(band, (0, 0, 0, 0), _scaled(inner, s))
    canvas.blit(band, (0, 0))
    for shape in icon_shapes(detailed=size > 32):
        if isinstance(shape, Shadow):
            shadow = pygame.Surface((s, s), pygame.SRCALPHA)
            pygame.draw.polygon(shadow, (0, 0, 0, 110), _scaled(shape.points, s))
            small = max(1, s // 24)
            blurred = pygame.transform.smoothscale(shadow, (small, small))
            canvas.blit(pygame.transform.smoothscale(blurred, (s, s)), (0, 0))
        elif isinstance(shape, Polygon):
            pygame.draw.polygon(canvas, shape.fill, _scaled(shape.points, s))
        else:
            cx, cy = shape.centre
            pygame.draw.circle(canvas, shape.fill, (cx * s, cy * s), shape.radius * s)
    # Cut the rounded square out (the colour under transparent pixels stays, so no dark fringe).
    mask = pygame.Surface((s, s), pygame.SRCALPHA)
    mask.fill((255, 255, 255, 0))
    pygame.draw.polygon(mask, (255, 255, 255, 255), _scaled(outer, s))
    canvas.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    return pygame.transform.smoothscale(canvas, (size, size))


def png_bytes(surface: pygame.Surface) -> bytes:
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "icon.png")
    return buf.getvalue()


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO container whose entries are PNG images (one per size, ascending)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        data = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        blobs += data
    return header + entries + blobs


# --------------------------------------------------------------------------- svg


def _hex(c: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{x * 512:.1f},{y * 512:.1f}" for x, y in points)


def svg_text() -> str:
    rim = 0.018 * 512
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">',
        "  <title>Briscola</title>",
        "  <defs>",
        '    <linearGradient id="felt" x1="0" y1="0" x2="0" y2="1">',
        f'      <stop offset="0" stop-color="{_hex(BG_TOP)}"/>',
        f'      <stop offset="1" stop-color="{_hex(BG_BOTTOM)}"/>',
        "    </linearGradient>",
        '    <filter id="blur" x="-20%" y="-20%" width="140%" height="140%">',
        '      <feGaussianBlur stdDeviation="8"/>',
        "    </filter>",
        "  </defs>",
        f'  <rect width="512" height="512" rx="{CORNER * 512:.1f}" fill="{_hex(GOLD_RIM)}"/>',
        f'  <rect x="{rim:.1f}" y="{rim:.1f}" width="{512 - 2 * rim:.1f}" '
        f'height="{512 - 2 * rim:.1f}" rx="{CORNER * 512 - rim:.1f}" fill="url(#felt)"/>',
    ]
    for shape in icon_shapes(detailed=True):
        if isinstance(shape, Shadow):
            lines.append(
                f'  <polygon points="{_pts(shape.points)}" fill="#000" '
                'fill-opacity="0.43" filter="url(#blur)"/>'
            )
        elif isinstance(shape, Polygon):
            lines.append(f'  <polygon points="{_pts(shape.points)}" fill="{_hex(shape.fill)}"/>')
        else:
            cx, cy = shape.centre
            lines.append(
                f'  <circle cx="{cx * 512:.1f}" cy="{cy * 512:.1f}" '
                f'r="{shape.radius * 512:.1f}" fill="{_hex(shape.fill)}"/>'
            )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- output


def generate(out_dir: Path | str = DEFAULT_OUT) -> dict[str, Path]:
    """Write icon-N.png for every size, briscola.ico and briscola.svg; return {name: path}."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    pngs: dict[int, bytes] = {}
    for size in PNG_SIZES:
        data = png_bytes(render(size))
        pngs[size] = data
        path = out / f"icon-{size}.png"
        path.write_bytes(data)
        written[path.name] = path
    ico = out / "briscola.ico"
    ico.write_bytes(ico_bytes({size: pngs[size] for size in ICO_SIZES}))
    written[ico.name] = ico
    svg = out / "briscola.svg"
    svg.write_text(svg_text(), encoding="utf-8")
    written[svg.name] = svg
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    for path in generate(args.out).values():
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
