"""Generate the Piacentine deck (40 cards) as SVG faces and a back.

Run from the repository root::

    python -m tools.cardgen.piacentine            # writes assets/cards/piacentine/
    python -m tools.cardgen.piacentine --out DIR  # writes somewhere else

What makes it Piacentine (see ``docs/decks.md`` for the sources): Italo-Spanish suits, that is
straight, dagger-like swords and clubs like lumps of wood, set apart (here alternately up and
down) instead of interlacing; no pinta; all the figures standing, the kings too; the ace of coins
shows a single-headed crowned eagle, the ace of swords is held by a cherub, the king of coins
holds an axe. Corner numbers 1-10 (fante 8, cavallo 9, re 10) as on the Napoletane.

The figures are double-ended, as on today's packs: the shared full-length figures cut at the
waist (:func:`tools.cardgen.latin.hem`), the lower half turned half round, a narrow band over
the seam.

>>> DECK.index["J"], DECK.index["K"], DECK.card_title("K", "D")
('8', '10', 'Re di denari')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from tools.cardgen.backs import LatticeBack
from tools.cardgen.latin import (
    BLUE,
    BLUE_DARK,
    BROWN,
    CARD_H,
    CARD_W,
    CX,
    CY,
    GOLD,
    GOLD_DARK,
    GOLD_LIGHT,
    GREEN,
    GREEN_DARK,
    INK,
    OUTLINE,
    RED,
    RED_DARK,
    SKIN,
    STANDING_KING_POSES,
    UPRIGHT_SWORD_FANTE_POSES,
    WHITE,
    Canvas,
    Emblems,
    FigureDrawer,
    FigureStyle,
    LatinDeck,
    Palette,
    PlainFace,
    Point,
    Pose,
    RowPips,
    draw_basto,
    draw_cavallo,
    draw_crown,
    draw_cup,
    draw_eagle,
    draw_espada,
    draw_fante,
    draw_laurel,
    draw_standing_re,
    emblem_frame,
    lens_d,
    poly_d,
    rotate,
    smooth_d,
    transform,
)

PAPER = "#fdf9ef"
ORANGE = "#e58a1f"
WOOD = "#b9803e"
WOOD_DARK = "#7a4e22"
BLADE = "#2f6ec4"

# ---------------------------------------------------------------------------------------------
# Emblems
# ---------------------------------------------------------------------------------------------


def draw_denaro(c: Canvas, x: float, y: float, r: float) -> None:
    """A coin: orange-gold disc, a red ring of beads, a four-petalled flower with a blue heart."""
    with emblem_frame(c, (x, y), r / 50) as sw:
        c.circle(0, 0, 50, GOLD, INK, sw * 1.1)
        c.circle(0, 0, 43, ORANGE, INK, sw * 0.6)
        for k in range(20):
            p = rotate((0, -38), k * 18)
            c.circle(p[0], p[1], 3.4, RED, None, 0)
        c.circle(0, 0, 31, GOLD, INK, sw * 0.6)
        for k in range(4):
            c.path(lens_d((0, 0), rotate((0, -28), k * 90 + 45), 18), RED, INK, sw * 0.5)
            c.path(lens_d((0, 0), rotate((0, -22), k * 90), 10), GREEN, INK, sw * 0.4)
        c.circle(0, 0, 8, BLUE, INK, sw * 0.5)
        c.circle(0, 0, 3, GOLD_LIGHT, None, 0)


#: The Napoletane cup banded blue over red; a straight sword with a dark red grip and a blue
#: blade; a club of rough wood with red rings.
draw_coppa = partial(draw_cup, band=BLUE, band2=RED)
draw_spada = partial(draw_espada, grip_colour=RED_DARK, blade_colour=BLADE)
draw_bastone = partial(draw_basto, wood=WOOD, wood_dark=WOOD_DARK, band=RED)

EMBLEMS = Emblems(draw_denaro, draw_coppa, draw_spada, draw_bastone, held_sword_width=10.45)

# ---------------------------------------------------------------------------------------------
# Pips: coins and cups in columns, swords and clubs set apart, alternately up and down
# ---------------------------------------------------------------------------------------------

DENARO_RADIUS = {2: 45, 3: 39, 4: 38, 5: 35, 6: 36, 7: 29}
COPPA_HEIGHT = {2: 118, 3: 90, 4: 116, 5: 88, 6: 92, 7: 82}
PIPS = RowPips(EMBLEMS, DENARO_RADIUS, COPPA_HEIGHT, first_club_seed=51, turned=True)


# ---------------------------------------------------------------------------------------------
# Aces
# ---------------------------------------------------------------------------------------------


def draw_ace_coins(c: Canvas) -> None:
    """Asso di denari: a great coin bearing a single-headed crowned eagle."""
    with c.group(transform((CX, CY))):
        for k in range(20):
            c.path(lens_d(rotate((0, -82), k * 18), rotate((0, -104), k * 18), 12), RED, INK, 1.3)
        c.circle(0, 0, 88, GOLD, INK, 2.6)
        c.circle(0, 0, 80, "none", ORANGE, 4)
        for k in range(40):
            p = rotate((0, -80), k * 9)
            c.circle(p[0], p[1], 2.2, RED, None, 0)
        c.circle(0, 0, 72, GOLD_LIGHT, INK, 1.6)
    with c.group(transform((CX, CY + 8), scale=1.45)):
        draw_eagle(c)
    for side in (-1, 1):
        draw_laurel(c, (CX + side * 10, 330), (CX + side * 90, 298), -18 * side, 4)


def draw_ace_cups(c: Canvas) -> None:
    """Asso di coppe: a great goblet on a foot of leaves, a flame of a lid."""
    for side in (-1, 1):
        draw_laurel(c, (CX + side * 8, 346), (CX + side * 86, 296), -20 * side, 4)
    draw_cup(c, CX, CY + 30, 230)
    with c.group(transform((CX, CY + 30), 0, 2.3)):
        c.path(lens_d((0, -46), (0, -76), 16), RED, INK, 1)
        c.path(lens_d((0, -50), (0, -68), 7), GOLD, None, 0)
        for k in (-2, -1, 0, 1, 2):
            c.circle(k * 11, -32 + abs(k) * 1.2, 2.6, WHITE if k % 2 else GREEN, INK, 0.6)


def draw_cherub(c: Canvas, x: float, y: float) -> None:
    """A little winged cherub, seen from the front, centred on its body at (*x*, *y*)."""
    for side in (-1, 1):
        for k in range(4):
            c.path(
                lens_d((x + side * 8, y - 10), (x + side * (40 - k * 5), y - 34 + k * 12), 12),
                WHITE,
                INK,
                1.4,
            )
    c.ellipse(x, y + 4, 17, 22, SKIN, INK, OUTLINE)
    c.path(
        smooth_d(
            [(x - 18, y + 6), (x, y + 14), (x + 18, y + 6), (x + 14, y + 22), (x - 14, y + 22)]
        ),
        BLUE,
        INK,
        1.6,
    )
    for side in (-1, 1):
        c.ellipse(x + side * 8, y + 30, 6, 10, SKIN, INK, OUTLINE)
    c.circle(x, y - 26, 15, SKIN, INK, OUTLINE)
    for k in range(7):
        p = rotate((0, -15), -90 + k * 30, (0, 0))
        c.circle(x + p[0], y - 28 + p[1] * 0.8, 5, GOLD, INK, 1.0)
    for side in (-1, 1):
        c.circle(x + side * 5, y - 27, 1.6, INK, None, 0)
        c.circle(x + side * 8, y - 21, 2.6, "#f0a48e", None, 0)
    c.line([(x - 3, y - 19), (x + 3, y - 19)], RED_DARK, 1.4)


def draw_ace_swords(c: Canvas) -> None:
    """Asso di spade: a great straight sword held up by a cherub."""
    draw_spada(c, (CX, 296), 0, 250, 1.45, 15.95)
    with c.group(transform((CX + 52, 300), scale=1.35)):
        draw_cherub(c, 0, 0)
        c.line([(-14, -2), (-34, -3)], SKIN, 6)
    c.circle(CX + 6, 296, 7, SKIN, INK, 1.6)
    draw_crown(c, CX, 84, 50, 24)


def draw_ace_clubs(c: Canvas) -> None:
    """Asso di bastoni: a great club of rough wood, sprouting leaves, tied with a ribbon."""
    draw_bastone(c, (CX - 2, CY + 6), 8, 210, 21, 3, 1.3, leaves=True)


# ---------------------------------------------------------------------------------------------
# Figures (all standing); the king of coins holds an axe
# ---------------------------------------------------------------------------------------------

PALETTES = {
    "D": Palette(
        GREEN,
        GREEN_DARK,
        RED,
        RED_DARK,
        GOLD,
        "#6b3a1c",
        "#d9d4c8",
        "#f0ebe0",
        "#c2b8a3",
        "#8a6a44",
    ),
    "C": Palette(
        RED, RED_DARK, BLUE, BLUE_DARK, GOLD, "#3a2a20", "#3a2a20", "#6a4a34", "#4a3020", "#2a1a10"
    ),
    "S": Palette(
        BLUE, BLUE_DARK, GOLD, GOLD_DARK, RED, "#c0652a", "#b3561f", "#c3c6cb", "#8a8f96", "#4b4f55"
    ),
    "B": Palette(
        GOLD,
        GOLD_DARK,
        GREEN,
        GREEN_DARK,
        RED,
        "#8a4b1f",
        "#7a4420",
        "#b06a32",
        "#7a4219",
        "#3b2416",
    ),
}


def draw_axe(c: Canvas, hand: Point, size: float) -> None:
    """A long-handled axe rising from *hand*, the blade at the top."""
    x, y = hand
    top = y - 150 * size
    c.rect(x - 3.5, top, 7, 176 * size, BROWN, INK, 1.6, 2)
    blade = [
        (x + 2, top + 6),
        (x + 30, top - 8),
        (x + 38, top + 18),
        (x + 30, top + 44),
        (x + 2, top + 30),
    ]
    c.path(poly_d(blade), "#c3c6cb", INK, OUTLINE)
    c.line([(x + 33, top - 2), (x + 33, top + 38)], WHITE, 2)


FIGURES = FigureStyle(
    PALETTES,
    EMBLEMS.held,
    UPRIGHT_SWORD_FANTE_POSES,
    STANDING_KING_POSES,
    cavallo_faces_right={"D": True, "C": False, "S": True, "B": False},
)


def held_by_king_of_coins(c: Canvas, suit: str, hand: Point, size: float, angle: float) -> None:
    draw_axe(c, hand, size)


KING_OF_COINS = FigureStyle(
    PALETTES,
    held_by_king_of_coins,
    king_poses={
        **STANDING_KING_POSES,
        "D": Pose(((-46, 182), (-24, 198)), ((50, 186), (52, 206)), 1.0),
    },
)


#: A figure drawer that can stop at a cut: (canvas, suit, style, cut).
HalfDrawer = Callable[[Canvas, str, FigureStyle, float | None], None]


def draw_king(c: Canvas, suit: str, style: FigureStyle, cut: float | None = None) -> None:
    if suit == "D":
        draw_standing_re(c, suit, KING_OF_COINS, cut)
        draw_denaro(c, 44, 182, 21)
    else:
        draw_standing_re(c, suit, style, cut)


def double_ended(draw: HalfDrawer, cut: float, scale: float) -> FigureDrawer:
    """A drawer of the double-ended card of the figure *draw*: cut at the waist (y *cut*),
    scaled by *scale* and mirrored, upper half upright, lower half turned half round, the seam
    hidden under a narrow band across the middle."""

    def draw_card(c: Canvas, suit: str, style: FigureStyle) -> None:
        for rotated in (False, True):
            turn = transform((CARD_W, CARD_H), 180) if rotated else ""
            place = transform((CX - scale * CX, CY - scale * cut), scale=scale)
            with c.group(turn), c.group(place):
                draw(c, suit, style, cut)
        c.rect(9, CY - 11 * scale - 2, CARD_W - 18, 22 * scale + 4, PAPER, None, 0)
        for dy in (-1, 1):
            y = CY + dy * (11 * scale + 2)
            c.line([(9, y), (CARD_W - 9, y)], INK, 1.4)

    return draw_card


# ---------------------------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------------------------

DECK = LatinDeck(
    "piacentine",
    "Piacentine",
    PlainFace(PAPER, 8.0),
    {"D": draw_ace_coins, "C": draw_ace_cups, "S": draw_ace_swords, "B": draw_ace_clubs},
    PIPS.drawers(),
    {
        "J": double_ended(draw_fante, 238.0, 0.9),
        "Q": double_ended(draw_cavallo, 262.0, 0.78),
        "K": double_ended(draw_king, 238.0, 0.92),
    },
    FIGURES,
    index_centre_x=30.0,
    back=LatticeBack("#a3252c", "#f3e3bd", "#6e1418", 6, False),  # deep red, six petals
)
generate = DECK.generate
main = DECK.main

if __name__ == "__main__":
    raise SystemExit(main())
