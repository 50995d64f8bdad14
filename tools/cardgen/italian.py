"""Generate the Italian deck (Napoletane style) as 40 SVG card faces.

Run from the repository root::

    python -m tools.cardgen.italian            # writes assets/cards/italian/<CODE>.svg
    python -m tools.cardgen.italian --out DIR  # writes somewhere else

``CODE`` is the rank (``A 2 3 4 5 6 7 J Q K``; J = Fante, Q = Cavallo, K = Re) followed by the
suit (``D`` denari, ``C`` coppe, ``S`` spade, ``B`` bastoni), e.g. ``AD.svg`` or ``QB.svg``.

Everything is drawn here, in code, with the few SVG elements that pygame's rasteriser (nanosvg)
understands: ``path``, ``rect``, ``circle``, ``ellipse``, ``polygon``, ``line`` and ``g`` with a
``transform``, coloured with ``#rrggbb`` attributes. Numerals are stroked paths, never ``<text>``.
Output is deterministic: numbers are rounded to two decimals and there is no randomness beyond
fixed-seed generators, so generating twice gives byte-identical files.

>>> num(1.0), num(-0.001), num(2.345), num(12)
('1', '0', '2.35', '12')
>>> card_code("K", "D"), len(CARD_CODES)
('KD', 40)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.cardgen.latin import (  # noqa: F401  (num, CARD_CODES: doctest)
    BLUE,
    CARD_CODES,
    CARD_H,
    CARD_RADIUS,
    CARD_W,
    CREAM,
    CX,
    CY,
    FRAME,
    GOLD,
    GOLD_DARK,
    GOLD_LIGHT,
    GREEN,
    GREEN_DARK,
    INK,
    OUTLINE,
    RANK_NUMBER,
    RANKS,
    RED,
    RED_DARK,
    SUITS,
    WHITE,
    Canvas,
    card_code,
    catmull,
    column_layout,
    draw_cavallo,
    draw_club,
    draw_coin,
    draw_crown,
    draw_cup,
    draw_eagle,
    draw_fante,
    draw_laurel,
    draw_number,
    draw_re,
    draw_sword,
    draw_sword_curve,
    lens_d,
    num,
    poly_d,
    ribbon,
    rotate,
    smooth_d,
    transform,
)

SUIT_NAMES = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}
RANK_NAMES = {"A": "Asso", "J": "Fante", "Q": "Cavallo", "K": "Re"}

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "assets" / "cards" / "italian"


# ---------------------------------------------------------------------------------------------
# Pip layouts (2-7)
# ---------------------------------------------------------------------------------------------

COIN_RADIUS = {2: 46, 3: 40, 4: 38, 5: 36, 6: 37, 7: 29}
CUP_HEIGHT = {2: 120, 3: 92, 4: 118, 5: 90, 6: 94, 7: 84}


def draw_coin_pips(c: Canvas, n: int) -> None:
    for x, y in column_layout(n):
        draw_coin(c, x, y, COIN_RADIUS[n])


def draw_cup_pips(c: Canvas, n: int) -> None:
    for i, (x, y) in enumerate(column_layout(n)):
        band, band2 = (RED, BLUE) if i % 2 == 0 else (BLUE, RED)
        draw_cup(c, x, y, CUP_HEIGHT[n], band, band2)


@dataclass(frozen=True)
class Lattice:
    """Diagonal lattice of long symbols: *per_side* on each diagonal, *gap* apart."""

    per_side: int
    angle: float
    gap: float
    length: float

    def placements(self) -> list[tuple[float, float]]:
        """(x offset, angle) of every diagonal piece, alternating directions for interlacing."""
        out: list[tuple[float, float]] = []
        for i in range(self.per_side):
            d = (i - (self.per_side - 1) / 2) * self.gap
            out.append((d, self.angle))
            out.append((-d, -self.angle))
        return out


# Spade: nested pairs of curved blades; each pair bows apart and crosses near the tips.
# Per pair: half width at mid height, grip offset, tip offset, hilts at the bottom?, inset.
SWORD_PAIRS: dict[int, tuple[tuple[float, float, float, bool, float], ...]] = {
    2: ((84, 40, 30, True, 0),),
    3: ((90, 58, 30, True, 0),),
    4: ((96, 58, 24, True, 0), (58, 30, 22, False, 0)),
    5: ((98, 60, 24, True, 0), (60, 30, 22, False, 0)),
    6: ((100, 64, 26, True, 0), (72, 40, 22, False, 0), (40, 24, 14, True, 30)),
    7: ((102, 66, 26, True, 0), (76, 48, 22, False, 0), (46, 26, 14, True, 30)),
}
SWORD_HILT_SCALE = {2: 1.0, 3: 1.0, 4: 0.9, 5: 0.9, 6: 0.8, 7: 0.8}
MIDDLE_SWORD_DOWN = {3: True, 5: True, 7: False}
CLUB_LATTICE = {
    2: Lattice(1, 27, 0, 300),
    3: Lattice(1, 30, 0, 290),
    4: Lattice(2, 24, 76, 290),
    5: Lattice(2, 24, 80, 290),
    6: Lattice(3, 19, 48, 258),
    7: Lattice(3, 19, 50, 258),
}
CLUB_WIDTH = {2: 16, 3: 16, 4: 15, 5: 15, 6: 12.5, 7: 12.5}
CLUB_STUBS = {2: (0.4, 0.62, 0.8), 3: (0.4, 0.62, 0.8), 4: (0.5, 0.75), 5: (0.5, 0.75)}


def draw_sword_pips(c: Canvas, n: int) -> None:
    low, high = 334.0, 62.0
    hilt = SWORD_HILT_SCALE[n]
    for half, grip_dx, tip_dx, hilts_down, inset in SWORD_PAIRS[n]:
        y_grip, y_tip = low - inset, high + inset * 0.5
        if not hilts_down:
            y_grip, y_tip = CARD_H - y_grip, CARD_H - y_tip
        for side in (-1, 1):
            grip = (CX + side * grip_dx, y_grip)
            tip = (CX - side * tip_dx, y_tip)
            mid = (CX + side * half, CY)
            ctrl = (2 * mid[0] - (grip[0] + tip[0]) / 2, 2 * mid[1] - (grip[1] + tip[1]) / 2)
            draw_sword_curve(c, grip, ctrl, tip, 8.5, hilt)
    if n % 2:
        y_grip, y_tip = low - 4, high + 14
        if not MIDDLE_SWORD_DOWN[n]:
            y_grip, y_tip = CARD_H - y_grip, CARD_H - y_tip
        draw_sword_curve(c, (CX, y_grip), (CX, CY), (CX, y_tip), 8.5, hilt, GOLD_DARK)


def draw_club_pips(c: Canvas, n: int) -> None:
    lat = CLUB_LATTICE[n]
    width = CLUB_WIDTH[n]
    stubs = CLUB_STUBS.get(n, (0.72,))
    for k, (d, a) in enumerate(lat.placements()):
        # from 4 up the heads alternate top and bottom, as on the printed decks
        turn = 180 if lat.per_side > 1 and (k // 2) % 2 == 1 else 0
        draw_club(c, (CX + d, CY), a + turn, lat.length, width, seed=11 + k, stubs=stubs)
    if n % 2:
        draw_club(c, (CX, CY), 0, lat.length - 20, width, seed=5, stubs=stubs)


# ---------------------------------------------------------------------------------------------
# Aces
# ---------------------------------------------------------------------------------------------


def draw_ace_coins(c: Canvas) -> None:
    """Asso di denari: one great coin in a sunburst with an eagle, crowned."""
    with c.group(transform((CX, CY + 8))):
        for k in range(32):
            a = k * 11.25
            if k % 2:
                c.path(lens_d(rotate((0, -84), a), rotate((0, -101), a), 9), GOLD, INK, 1.4)
            else:
                p0, p1 = rotate((0, -84), a), rotate((0, -112), a)
                mid = rotate((5, -100), a)
                c.path(
                    smooth_d(
                        [
                            p0,
                            rotate((6, -88), a),
                            mid,
                            (p1[0], p1[1], 1),
                            rotate((-4, -97), a),
                            rotate((-6, -88), a),
                        ]
                    ),
                    RED,
                    INK,
                    1.4,
                )
        c.circle(0, 0, 89, GOLD, INK, 2.6)
        c.circle(0, 0, 81, "none", GOLD_DARK, 2.2)
        for k in range(36):
            p = rotate((0, -85), k * 10)
            c.circle(p[0], p[1], 2.6, GOLD_LIGHT, GOLD_DARK, 0.8)
        c.circle(0, 0, 78, GOLD, INK, 1.6)
        for k in range(16):
            colour = RED if k % 2 == 0 else GREEN
            p0, p1 = rotate((0, -51), k * 22.5), rotate((0, -76), k * 22.5)
            c.path(lens_d(p0, p1, 15), colour, INK, 1.3)
        c.circle(0, 0, 49, GOLD_LIGHT, INK, 2.0)
        c.circle(0, 0, 45.5, "none", RED, 3.0)
        draw_eagle(c)
    draw_crown(c, CX, 90, 74, 40)
    for side in (-1, 1):
        stem = [(CX + side * 8, 338), (CX + side * 40, 352), (CX + side * 80, 344)]
        c.line(stem, GREEN_DARK, 3, smooth=True)
        for k, t in enumerate((0.35, 0.6, 0.85)):
            p = catmull(stem, 4)[round(t * 8)]
            c.path(lens_d(p, (p[0] + side * 6, p[1] - 16 + k * 2), 9), GREEN, INK, 1.2)
            c.path(lens_d(p, (p[0] + side * 12, p[1] + 10), 8), GREEN, INK, 1.2)
        c.circle(CX + side * 82, 343, 5.5, RED, INK, 1.2)
    c.circle(CX, 337, 6.5, RED, INK, 1.4)
    c.circle(CX, 337, 2.5, GOLD, None, 0)


def draw_ace_cups(c: Canvas) -> None:
    """Asso di coppe: a great lidded chalice with handles and jewels."""
    s = 2.25
    sw = OUTLINE / s
    at = (CX, CY + 40)
    with c.group(transform(at, 0, s)):
        for side in (-1, 1):
            handle = [(side * 22, -14), (side * 44, -18), (side * 44, -44), (side * 34, -52)]
            c.line(handle, INK, 7.6, smooth=True)
            c.line(handle, GOLD, 4.6, smooth=True)
            c.circle(side * 34, -52, 3.4, GOLD, INK, sw)
    draw_cup(c, at[0], at[1], 100 * s, RED, BLUE)
    with c.group(transform(at, 0, s)):
        lid = [(-30, -48, 1), (-26, -58), (-14, -68), (0, -71), (14, -68), (26, -58), (30, -48, 1)]
        c.shape(lid, GOLD, INK, sw)
        c.path(smooth_d([(-22, -61), (0, -67.5), (22, -61)], closed=False), "none", RED, 3.4)
        c.ellipse(0, -48, 31, 3.6, GOLD_DARK, INK, sw)
        c.rect(-3, -80, 6, 10, GOLD, INK, sw)
        c.circle(0, -83, 6, GOLD, INK, sw)
        c.circle(0, -83, 2.4, RED, None, 0)
        c.path(lens_d((0, -88), (0, -101), 7), RED, INK, sw)
        for k in (-2, -1, 0, 1, 2):
            yy = -32 + abs(k) * 1.2
            c.circle(k * 11, yy, 2.8 if k else 3.6, BLUE if k % 2 else WHITE, INK, sw * 0.6)
        for k in (-1, 1):
            c.circle(k * 6, 13, 2, WHITE, INK, sw * 0.5)


def draw_ace_swords(c: Canvas) -> None:
    """Asso di spade: a great sword through a crown, between laurel branches."""
    for side in (-1, 1):
        draw_laurel(c, (CX - side * 6, 322), (CX + side * 78, 150), 38 * side, 8)
    crown_y = 132
    c.ellipse(CX, crown_y - 9, 30, 7, GOLD_DARK, INK, OUTLINE)
    draw_sword(c, (CX, 324), 0, 262, 0, 16, 1.5, RED, ornate=True)
    draw_crown(c, CX, crown_y, 60, 30)


def draw_ace_clubs(c: Canvas) -> None:
    """Asso di bastoni: a great knotty club sprouting leafy twigs, tied with a red ribbon."""
    at, angle, scale = (CX - 4, CY + 8), 9.0, 1.4
    draw_club(c, at, angle, 205, 19, scale, seed=3, leaves=True, stubs=(0.36, 0.5, 0.66, 0.8))
    with c.group(transform(at, angle, scale)):
        for side in (-1, 1):
            tail = [
                (side * 8, 38),
                (side * 20, 46),
                (side * 30, 42),
                (side * 40, 52),
                (side * 44, 66),
            ]
            c.path(poly_d(ribbon(catmull(tail, 5), [3.4] * 21)), RED, INK, 1.2)
        band = [(-10, 35, 1), (0, 37), (10, 35, 1), (10, 42, 1), (0, 44), (-10, 42, 1)]
        c.shape(band, RED, INK, 1.2)
        c.ellipse(0, 39.5, 4, 5, RED_DARK, INK, 1.0)


ACE_DRAWERS: dict[str, Callable[[Canvas], None]] = {
    "D": draw_ace_coins,
    "C": draw_ace_cups,
    "S": draw_ace_swords,
    "B": draw_ace_clubs,
}


COURT_DRAWERS: dict[str, Callable[[Canvas, str], None]] = {
    "J": draw_fante,
    "Q": draw_cavallo,
    "K": draw_re,
}


# ---------------------------------------------------------------------------------------------
# Card assembly
# ---------------------------------------------------------------------------------------------

INDEX_HEIGHT = 32.0
INDEX_AT = (15.0, 15.0)


def draw_card_face(c: Canvas) -> None:
    c.rect(0.5, 0.5, CARD_W - 1, CARD_H - 1, CREAM, "#8a8073", 1.0, CARD_RADIUS)
    c.rect(7, 7, CARD_W - 14, CARD_H - 14, "none", FRAME, 1.6, CARD_RADIUS - 6)


def draw_indices(c: Canvas, rank: str) -> None:
    text = str(RANK_NUMBER[rank])
    for rotated in (False, True):
        with c.group(transform((CARD_W, CARD_H), 180) if rotated else ""):
            draw_number(c, text, INDEX_AT[0], INDEX_AT[1], INDEX_HEIGHT, INK)


PIP_DRAWERS: dict[str, Callable[[Canvas, int], None]] = {
    "D": draw_coin_pips,
    "C": draw_cup_pips,
    "S": draw_sword_pips,
    "B": draw_club_pips,
}


def card_title(rank: str, suit: str) -> str:
    name = RANK_NAMES.get(rank, rank)
    return f"{name} di {SUIT_NAMES[suit]}"


def card_svg(rank: str, suit: str) -> str:
    """The complete SVG document of one card face."""
    c = Canvas(card_title(rank, suit))
    draw_card_face(c)
    if rank == "A":
        ACE_DRAWERS[suit](c)
    elif rank in ("J", "Q", "K"):
        COURT_DRAWERS[rank](c, suit)
    else:
        PIP_DRAWERS[suit](c, int(rank))
    draw_indices(c, rank)
    return c.render()


def generate(out_dir: Path = DEFAULT_OUT) -> list[Path]:
    """Write all 40 card faces into *out_dir*; return the written paths in deck order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for suit in SUITS:
        for rank in RANKS:
            path = out_dir / f"{card_code(rank, suit)}.svg"
            path.write_text(card_svg(rank, suit), encoding="utf-8", newline="\n")
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.cardgen.italian",
        description="Generate the Italian (Napoletane-style) deck as 40 SVG card faces.",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    paths = generate(args.out)
    print(f"wrote {len(paths)} cards to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
