"""Generate the Italian deck (Napoletane style) as 40 SVG card faces.

Run from the repository root::

    python -m tools.cardgen.italian            # writes assets/cards/italian/<CODE>.svg
    python -m tools.cardgen.italian --out DIR  # writes somewhere else

``CODE`` is the rank (``A 2 3 4 5 6 7 J Q K``; J = Fante, Q = Cavallo, K = Re) followed by the
suit (``D`` denari, ``C`` coppe, ``S`` spade, ``B`` bastoni), e.g. ``AD.svg`` or ``QB.svg``.

What is Napoletane here: curved swords that cross and batons that interlace on the suit cards,
an enthroned king, the corner numbers 1-10. The emblems, figures, card and files are drawn by
the shared code in :mod:`tools.cardgen.latin`, with only the SVG elements that pygame's
rasteriser (nanosvg) understands; generating twice gives byte-identical files.

>>> DECK.card_title("Q", "B"), DECK.index["K"]
('Cavallo di bastoni', '10')
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.cardgen.latin import (
    BLUE,
    CARD_H,
    CX,
    CY,
    GOLD,
    GOLD_DARK,
    GOLD_LIGHT,
    GREEN,
    GREEN_DARK,
    INK,
    ITALIAN_FIGURES,
    OUTLINE,
    RED,
    RED_DARK,
    WHITE,
    Canvas,
    LatinDeck,
    PlainFace,
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
    draw_re,
    draw_sword,
    draw_sword_curve,
    lens_d,
    poly_d,
    ribbon,
    rotate,
    smooth_d,
    transform,
)

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
        draw_cup(c, x, y, CUP_HEIGHT[n], band=band, band2=band2)


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
    draw_cup(c, at[0], at[1], 100 * s)
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


# ---------------------------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------------------------

DECK = LatinDeck(
    "italian",
    "Italian (Napoletane-style)",
    PlainFace(),
    {"D": draw_ace_coins, "C": draw_ace_cups, "S": draw_ace_swords, "B": draw_ace_clubs},
    {"D": draw_coin_pips, "C": draw_cup_pips, "S": draw_sword_pips, "B": draw_club_pips},
    {"J": draw_fante, "Q": draw_cavallo, "K": draw_re},
    ITALIAN_FIGURES,
    index_height=32.0,
)
generate = DECK.generate
main = DECK.main

if __name__ == "__main__":
    raise SystemExit(main())
