"""Generate the table surfaces into ``assets/table/`` (stdlib + pygame, no numpy).

Run ``python -m tools.gen_table`` from the repository root (``--out DIR`` writes elsewhere,
``--preview FILE`` changes where the preview goes, ``--no-preview`` skips it).

``felt.png`` (512x512, RGB)
    Green baize. Periodic value noise at several octaves (soft mottling plus a fine nap), a few
    thousand short curly fibres splatted with anti-aliasing, a whisper of per-pixel grain and a
    slight hue drift. Every layer wraps around the tile edges, so it tiles seamlessly.
``wood.png`` (512x512, RGB)
    Warm wood: four horizontal boards of 128 px with grooves between them and one staggered end
    joint each. Growth rings are bent by periodic noise, with fine streaks and pores along the
    grain; each board has its own tone, ring phase and a slight grain slope. Tiles seamlessly.
``vignette.png`` (256x256, RGBA)
    Black with a soft radial alpha ramp (clear in the middle, ~60 % at the corners), to be
    smooth-scaled over the whole table.

Also writes ``docs/art-table.png``: the felt tiled 3x2 with the vignette over it (a preview).

All randomness comes from ``random.Random`` with fixed seeds; pixels are computed in pure Python
and handed to pygame with ``pygame.image.frombuffer``, so reruns give identical images (and, with
the same pygame/libpng, identical PNG bytes).
"""

from __future__ import annotations

import argparse
import math
import os
import random
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "assets" / "table"
DEFAULT_PREVIEW = REPO_ROOT / "docs" / "art-table.png"

TILE = 512
VIGNETTE = 256

Field = list[float]  # row-major, width * height


# --------------------------------------------------------------------------- noise


def _catmull_rom(p0: float, p1: float, p2: float, p3: float, t: float) -> float:
    return p1 + 0.5 * t * (
        p2 - p0 + t * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3 + t * (3.0 * (p1 - p2) + p3 - p0))
    )


def _weights(size: int, period: int) -> list[tuple[int, int, int, int, float]]:
    """Per pixel: the four lattice indices (wrapped) and the fractional position."""
    cell = size / period
    out = []
    for x in range(size):
        f = x / cell
        i = int(f)
        out.append(((i - 1) % period, i % period, (i + 1) % period, (i + 2) % period, f - i))
    return out


def periodic_noise(
    width: int, height: int, period_x: int, period_y: int, rng: random.Random
) -> Field:
    """Value noise on a ``period_x`` x ``period_y`` lattice that wraps: it tiles seamlessly.

    Interpolation is separable Catmull-Rom (rows first, then columns). Values are roughly in
    [-1, 1].
    """
    grid = [[rng.uniform(-1.0, 1.0) for _ in range(period_x)] for _ in range(period_y)]
    wx = _weights(width, period_x)
    rows = []
    for g in grid:
        rows.append([_catmull_rom(g[a], g[b], g[c], g[d], t) for a, b, c, d, t in wx])
    out: Field = []
    for a, b, c, d, t in _weights(height, period_y):
        ra, rb, rc, rd = rows[a], rows[b], rows[c], rows[d]
        out.extend(_catmull_rom(ra[x], rb[x], rc[x], rd[x], t) for x in range(width))
    return out


def fbm(size: int, octaves: Sequence[tuple[int, int, float]], rng: random.Random) -> Field:
    """Sum of periodic noise layers: (period_x, period_y, amplitude) each."""
    total = [0.0] * (size * size)
    for px, py, amp in octaves:
        layer = periodic_noise(size, size, px, py, rng)
        total = [s + amp * v for s, v in zip(total, layer, strict=True)]
    return total


def splat(field: Field, size: int, x: float, y: float, value: float) -> None:
    """Add ``value`` at a sub-pixel position with bilinear weights, wrapping at the edges."""
    x0, y0 = math.floor(x), math.floor(y)
    fx, fy = x - x0, y - y0
    for dx, dy, w in (
        (0, 0, (1 - fx) * (1 - fy)),
        (1, 0, fx * (1 - fy)),
        (0, 1, (1 - fx) * fy),
        (1, 1, fx * fy),
    ):
        field[((y0 + dy) % size) * size + (x0 + dx) % size] += value * w


def _clamp8(v: float) -> int:
    return 0 if v < 0.0 else 255 if v > 255.0 else int(v + 0.5)


def rgb_surface(size: int, pixels: bytearray) -> pygame.Surface:
    return pygame.image.frombuffer(bytes(pixels), (size, size), "RGB").copy()


# --------------------------------------------------------------------------- felt


def make_felt(size: int = TILE) -> pygame.Surface:
    rng = random.Random(2024)
    # Soft mottling (large) through to the fine nap of the cloth (small).
    shade = fbm(size, ((4, 4, 0.035), (8, 8, 0.03), (32, 32, 0.025), (128, 128, 0.03)), rng)
    nap = fbm(size, ((256, 256, 0.035),), rng)
    hue = periodic_noise(size, size, 6, 6, rng)
    # Short curly fibres, light and dark, wrapped around the tile edges.
    fibres = [0.0] * (size * size)
    for _ in range(size * size // 40):
        x, y = rng.uniform(0, size), rng.uniform(0, size)
        angle = rng.uniform(0.0, 2.0 * math.pi)
        curl = rng.uniform(-0.25, 0.25)
        value = rng.choice((0.05, 0.035, -0.04)) * rng.uniform(0.5, 1.0)
        for _ in range(int(rng.uniform(6, 22))):
            splat(fibres, size, x, y, value)
            x += 0.6 * math.cos(angle)
            y += 0.6 * math.sin(angle)
            angle += curl + rng.uniform(-0.15, 0.15)
    base_r, base_g, base_b = 30.0, 104.0, 64.0
    pixels = bytearray(size * size * 3)
    for i in range(size * size):
        grain = rng.uniform(-0.012, 0.012)
        k = 1.0 + shade[i] + nap[i] + fibres[i] + grain
        h = hue[i] * 4.0
        pixels[3 * i] = _clamp8(base_r * k - 0.3 * h)
        pixels[3 * i + 1] = _clamp8(base_g * k + 0.5 * h)
        pixels[3 * i + 2] = _clamp8(base_b * k - 0.8 * h)
    return rgb_surface(size, pixels)


# --------------------------------------------------------------------------- wood


def make_wood(size: int = TILE) -> pygame.Surface:
    rng = random.Random(1966)
    boards = 4
    board_h = size // boards
    # Large bends of the grain; x-period small (long waves), y-period larger.
    # The x-period-1 layer is constant along x: it makes the ring spacing irregular.
    warp = fbm(size, ((1, 8, 0.9), (2, 4, 0.55), (4, 8, 0.25), (8, 16, 0.08), (32, 32, 0.02)), rng)
    # Fine streaks running along the grain: long in x, thin in y.
    streak = fbm(size, ((8, 128, 0.6), (16, 256, 0.4)), rng)
    tone = periodic_noise(size, size, 4, 4, rng)
    pores = [0.0] * (size * size)
    for _ in range(size * size // 60):
        x, y = rng.uniform(0, size), rng.uniform(0, size)
        depth = -rng.uniform(0.06, 0.16)
        for step in range(int(rng.uniform(3, 9))):
            splat(pores, size, x + step * 0.8, y, depth)
    layout = []
    for _ in range(boards):
        layout.append(
            (
                rng.randrange(size),  # x of the end joint
                rng.uniform(0.0, 1.0),  # ring phase
                rng.uniform(3.0, 6.0),  # rings across the board
                rng.uniform(-1.2, 1.2),  # grain slope along the board
                rng.uniform(0.92, 1.08),  # board tone
                rng.randrange(size),  # where in the warp field the board was "cut"
            )
        )
    dark = (104.0, 58.0, 30.0)
    light = (184.0, 124.0, 72.0)
    pixels = bytearray(size * size * 3)
    for y in range(size):
        board = y // board_h
        joint, phase, rings, slope, btone, cut = layout[board]
        yl = (y % board_h) / board_h
        groove_y = min(y % board_h, board_h - 1 - (y % board_h))
        for x in range(size):
            u = (x - joint) % size
            wi = ((y + cut) % size) * size + (u + cut) % size
            i = y * size + x
            r = phase + rings * yl + warp[wi] + slope * u / size
            f = r - math.floor(r)
            # Earlywood (light, wide) to latewood (dark, narrow band).
            ring = 1.0 - (math.sin(math.pi * f) ** 6) * (0.6 + 0.3 * tone[wi])
            t = 0.62 * ring + 0.22 * streak[wi] + pores[i] + 0.08 * tone[i] + 0.12
            k = btone
            if groove_y == 0:
                k *= 0.45
            elif groove_y == 1:
                k *= 0.8
            if u == 0:
                k *= 0.5
            elif u in (1, size - 1):
                k *= 0.85
            t = min(1.0, max(0.0, t))
            for c in range(3):
                pixels[3 * i + c] = _clamp8((dark[c] + (light[c] - dark[c]) * t) * k)
    return rgb_surface(size, pixels)


# --------------------------------------------------------------------------- vignette


def make_vignette(size: int = VIGNETTE, max_alpha: float = 155.0) -> pygame.Surface:
    rng = random.Random(7)
    half = (size - 1) / 2.0
    pixels = bytearray(size * size * 4)  # RGBA, black everywhere: only alpha varies
    for y in range(size):
        for x in range(size):
            d = math.hypot((x - half) / half, (y - half) / half) / math.sqrt(2.0)
            t = min(1.0, max(0.0, (d - 0.3) / 0.7))
            a = max_alpha * (t * t * (3.0 - 2.0 * t)) ** 1.3 + rng.uniform(-0.5, 0.5)
            pixels[4 * (y * size + x) + 3] = _clamp8(a)
    return pygame.image.frombuffer(bytes(pixels), (size, size), "RGBA").copy()


# --------------------------------------------------------------------------- output


def make_preview(felt: pygame.Surface, vignette: pygame.Surface) -> pygame.Surface:
    w, h = felt.get_size()
    out = pygame.Surface((3 * w, 2 * h))
    for ty in range(2):
        for tx in range(3):
            out.blit(felt, (tx * w, ty * h))
    out.blit(pygame.transform.smoothscale(vignette, out.get_size()), (0, 0))
    return out


def generate(
    out_dir: Path | str = DEFAULT_OUT, preview: Path | str | None = DEFAULT_PREVIEW
) -> dict[str, Path]:
    """Write felt.png, wood.png and vignette.png (and the preview); return {name: path}."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    surfaces = {"felt": make_felt(), "wood": make_wood(), "vignette": make_vignette()}
    written: dict[str, Path] = {}
    for name, surf in surfaces.items():
        path = out / f"{name}.png"
        pygame.image.save(surf, str(path))
        written[name] = path
    if preview is not None:
        ppath = Path(preview)
        ppath.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(make_preview(surfaces["felt"], surfaces["vignette"]), str(ppath))
        written["preview"] = ppath
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("--preview", type=Path, default=DEFAULT_PREVIEW, help="preview PNG")
    parser.add_argument("--no-preview", action="store_true", help="do not write the preview")
    args = parser.parse_args(argv)
    written = generate(args.out, None if args.no_preview else args.preview)
    for path in written.values():
        print(f"{path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
