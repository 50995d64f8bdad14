"""Generate the Spanish deck (baraja española, 40 cards) as SVG faces and a back.

Run from the repository root::

    python -m tools.cardgen.spanish            # writes assets/cards/spanish/
    python -m tools.cardgen.spanish --out DIR  # writes somewhere else

What makes it Spanish (see ``docs/decks.md`` for the sources): the frame line round the picture
has breaks, *la pinta*, that tell the suit (none for oros, one for copas, two for espadas, three
for bastos); swords are straight, dagger-like blades and clubs knobbly cudgels, and they stand
apart instead of interlacing (except on the three of clubs); the figures are numbered 10 (sota),
11 (caballo) and 12 (rey), all standing full length, the king too; coins are gold discs with a
star, cups red goblets. File names follow the game's codes (``JD`` is the sota de oros).

The drawing pieces shared with the other Latin-suited decks come from :mod:`tools.cardgen.latin`.

>>> INDEX["J"], INDEX["K"], pinta_gaps("B")
('10', '12', 3)
"""

from __future__ import annotations

from tools.cardgen.backs import LatticeBack
from tools.cardgen.latin import (
    BLUE,
    BLUE_DARK,
    CARD_H,
    CARD_W,
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
    RANKS,
    RED,
    RED_DARK,
    STANDING_KING_POSES,
    SUITS,
    UPRIGHT_SWORD_FANTE_POSES,
    WHITE,
    Canvas,
    Emblems,
    FigureStyle,
    LatinDeck,
    Palette,
    RowPips,
    draw_basto,
    draw_cavallo,
    draw_crown,
    draw_espada,
    draw_fante,
    draw_laurel,
    draw_paper,
    draw_standing_re,
    emblem_frame,
    lathe,
    lathe_outline,
    lens_d,
    poly_d,
    rotate,
    star_points,
    transform,
)

SUIT_NAMES = {"D": "oros", "C": "copas", "S": "espadas", "B": "bastos"}
RANK_NAMES = {"A": "As", "J": "Sota", "Q": "Caballo", "K": "Rey"}
#: The number printed in the corners: the figures are 10, 11 and 12.
INDEX = {**{rank: str(i + 1) for i, rank in enumerate(RANKS[:7])}, "J": "10", "Q": "11", "K": "12"}

PAPER = "#fffdf7"
ORANGE = "#e2781a"

# ---------------------------------------------------------------------------------------------
# The frame and its pinta
# ---------------------------------------------------------------------------------------------

FRAME_BOX = (15.0, 15.0, CARD_W - 15.0, CARD_H - 15.0)
PINTA_START = 64.0  # x of the first break on the top edge (mirrored at the bottom)
PINTA_GAP = 14.0
PINTA_STEP = 24.0


def pinta_gaps(suit: str) -> int:
    """How many breaks the frame line has: 0 oros, 1 copas, 2 espadas, 3 bastos."""
    return SUITS.index(suit)


def draw_frame(c: Canvas, suit: str) -> None:
    """The card, and the frame line round the picture broken by the suit's pinta."""
    draw_paper(c, PAPER)
    x0, y0, x1, _y1 = FRAME_BOX
    gaps = pinta_gaps(suit)
    cuts = [
        (PINTA_START + k * PINTA_STEP, PINTA_START + k * PINTA_STEP + PINTA_GAP)
        for k in range(gaps)
    ]
    for rotated in (False, True):
        with c.group(transform((CARD_W, CARD_H), 180) if rotated else ""):
            # the top edge, broken by the pinta, and both sides down to the middle (the half
            # turn draws the bottom edge with its breaks and the lower halves of the sides)
            pen = x0
            for a, b in cuts:
                c.line([(pen, y0), (a, y0)], FRAME, 2.4)
                pen = b
            c.line([(x0, CY), (x0, y0)], FRAME, 2.4)
            c.line([(pen, y0), (x1, y0), (x1, CY)], FRAME, 2.4)


# ---------------------------------------------------------------------------------------------
# Emblems: oro, copa, espada, basto
# ---------------------------------------------------------------------------------------------


def draw_oro(c: Canvas, x: float, y: float, r: float) -> None:
    """A gold coin (oro): toothed rim, plain ring, an eight-pointed red star in the middle."""
    with emblem_frame(c, (x, y), r / 50) as sw:
        c.circle(0, 0, 50, ORANGE, INK, sw * 1.1)
        for k in range(24):
            c.path(
                poly_d(
                    [
                        rotate((-3.2, -41), k * 15),
                        rotate((0, -49), k * 15),
                        rotate((3.2, -41), k * 15),
                    ]
                ),
                GOLD,
                None,
                0,
            )
        c.circle(0, 0, 40, GOLD, INK, sw * 0.8)
        c.circle(0, 0, 33, "none", GOLD_DARK, 2.4)
        c.path(poly_d(star_points(29, 13, 8)), RED, INK, sw * 0.7)
        c.path(poly_d(star_points(15, 7, 8, 22.5)), GOLD_LIGHT, None, 0)
        c.circle(0, 0, 7, GOLD, INK, sw * 0.6)


def draw_copa(c: Canvas, x: float, y: float, h: float, angle: float = 0.0) -> None:
    """A goblet (copa) *h* tall centred on (*x*, *y*): red bowl with a gold lip, gold stem."""
    with emblem_frame(c, (x, y), h / 100, angle) as sw:
        foot = lathe([(6, 26), (11, 34), (22, 43), (28, 49)])
        c.ellipse(0, 49, 28, 4.5, GOLD_DARK, INK, sw)
        c.path(poly_d(lathe_outline(foot)), GOLD, INK, sw)
        c.path(poly_d(lathe_outline(foot, 40, 44)), RED, None, 0)
        c.rect(-4, -4, 8, 32, GOLD, INK, sw)
        c.ellipse(0, 10, 9, 9, GOLD, INK, sw)
        c.ellipse(0, 22, 7, 3.2, GOLD_DARK, INK, sw * 0.8)
        bowl = lathe([(34, -44), (33, -32), (28, -17), (17, -7), (6, -3), (4, 0)])
        c.path(poly_d(lathe_outline(bowl)), RED, INK, sw)
        c.path(poly_d(lathe_outline(bowl, -44, -34)), GOLD, INK, sw * 0.6)
        c.path(poly_d(lathe_outline(bowl, -20, -15)), GOLD, None, 0)
        c.path(lens_d((-24, -30), (-12, -12), 5), "#e86a5c", None, 0)
        c.ellipse(0, -44, 34, 6, GOLD_DARK, INK, sw)
        c.ellipse(0, -43.5, 28, 3.4, RED_DARK, None, 0)


#: The Spanish emblems; in a figure's hand the blade is 9.5 wide, narrower than on the suit cards.
EMBLEMS = Emblems(draw_oro, draw_copa, draw_espada, draw_basto, held_sword_width=9.5)

# ---------------------------------------------------------------------------------------------
# Pips: coins and cups in columns; swords and clubs in fanned rows that never cross
# ---------------------------------------------------------------------------------------------

ORO_RADIUS = {2: 44, 3: 38, 4: 38, 5: 35, 6: 36, 7: 29}
COPA_HEIGHT = {2: 118, 3: 90, 4: 116, 5: 88, 6: 92, 7: 82}
#: Spanish clubs are a little thicker, and stand as far apart as the swords.
PIPS = RowPips(
    EMBLEMS, ORO_RADIUS, COPA_HEIGHT, first_club_seed=41, club_width=17.0, club_spread=1.0
)


def draw_basto_pips(c: Canvas, n: int) -> None:
    if n == 3:  # the one suit card whose emblems cross: two clubs in a saltire, one upright
        for k, angle in enumerate((-26.0, 26.0)):
            draw_basto(c, (CX, CY), angle, 300, 17, seed=31 + k)
        draw_basto(c, (CX, CY), 0, 290, 17, seed=5)
    else:
        PIPS.draw_clubs(c, n)


# ---------------------------------------------------------------------------------------------
# Aces
# ---------------------------------------------------------------------------------------------


def draw_ace_oros(c: Canvas) -> None:
    """As de oros: one great coin with a rayed rim and a crowned shield, on a ribbon."""
    with c.group(transform((CX, CY - 6))):
        for k in range(24):
            c.path(
                lens_d(rotate((0, -86), k * 15), rotate((0, -104), k * 15), 10), ORANGE, INK, 1.3
            )
    draw_oro(c, CX, CY - 6, 88)
    with c.group(transform((CX, CY - 6))):
        c.circle(0, 0, 38, WHITE, INK, 1.8)
        shield = [(-20, -22), (20, -22), (20, 4), (0, 24), (-20, 4)]
        c.path(poly_d(shield), RED, INK, 1.8)
        c.path(poly_d([(0, -22), (20, -22), (20, 4), (0, 24)]), GOLD, INK, 1.2)
        for k in range(3):
            c.rect(-16, -16 + k * 10, 12, 4, GOLD, None, 0)
        c.path(poly_d([(10, -16), (14, -8), (10, 0), (6, -8)]), RED, None, 0)
    draw_crown(c, CX, 108, 54, 28)
    ribbon = [(CX - 92, 318), (CX - 70, 300), (CX + 70, 300), (CX + 92, 318), (CX + 70, 330)]
    ribbon += [(CX - 70, 330)]
    c.path(poly_d(ribbon), RED, INK, 1.8)
    c.line([(CX - 60, 315), (CX + 60, 315)], GOLD_LIGHT, 2.0)


def draw_ace_copas(c: Canvas) -> None:
    """As de copas: a great lidded goblet with jewels."""
    at = (CX, CY + 30)
    draw_copa(c, at[0], at[1], 230)
    s = 2.3
    with c.group(transform(at, 0, s)):
        lid = [(-32, -46), (-26, -58), (-12, -66), (0, -68), (12, -66), (26, -58), (32, -46)]
        c.path(poly_d(lid), GOLD, INK, OUTLINE / s)
        c.line([(-22, -58), (0, -63), (22, -58)], RED, 3.0)
        c.circle(0, -74, 6, GOLD, INK, OUTLINE / s)
        c.path(lens_d((0, -79), (0, -94), 8), RED, INK, OUTLINE / s)
        for k in (-2, -1, 0, 1, 2):
            c.circle(k * 11, -26 + abs(k) * 1.5, 2.8, WHITE if k % 2 else BLUE, INK, 0.6)


def draw_ace_espadas(c: Canvas) -> None:
    """As de espadas: a great straight sword between laurel branches, crowned."""
    for side in (-1, 1):
        draw_laurel(c, (CX - side * 4, 330), (CX + side * 74, 160), 34 * side, 8)
    draw_espada(c, (CX, 322), 0, 270, 1.5, 20, RED)
    draw_crown(c, CX, 96, 58, 28)


def draw_ace_bastos(c: Canvas) -> None:
    """As de bastos: a great knobbly club sprouting leaves, held by a hand in a cuff."""
    at, angle = (CX + 6, CY + 8), -10.0
    draw_basto(c, at, angle, 200, 21, seed=3, scale=1.3, leaves=True)
    hand = rotate((0, 104), angle)
    hx, hy = at[0] + hand[0], at[1] + hand[1]
    with c.group(transform((hx, hy), angle)):
        c.rect(-34, 10, 68, 22, BLUE, INK, OUTLINE, 4)
        c.rect(-34, 6, 68, 8, WHITE, INK, 1.6, 3)
        for k in range(4):
            c.ellipse(-17 + k * 11.5, -2, 7, 11, "#f8d6b6", INK, 1.6)
        c.ellipse(24, 4, 9, 6, "#f8d6b6", INK, 1.6)


# ---------------------------------------------------------------------------------------------
# Figures: sota, caballo, rey (standing)
# ---------------------------------------------------------------------------------------------

PALETTES = {
    "D": Palette(
        BLUE, BLUE_DARK, RED, RED_DARK, GOLD, "#6b3a1c", "#e6e2da", "#f0ebe0", "#c2b8a3", "#8a6a44"
    ),
    "C": Palette(
        RED,
        RED_DARK,
        GREEN,
        GREEN_DARK,
        GOLD,
        "#e0b040",
        "#9a5a26",
        "#8a5a34",
        "#5a3a20",
        "#2a1a10",
    ),
    "S": Palette(
        GOLD, GOLD_DARK, BLUE, BLUE_DARK, RED, "#2e2018", "#2e2018", "#f4f1ea", "#bdb6a6", "#6e6a62"
    ),
    "B": Palette(
        GREEN,
        GREEN_DARK,
        RED,
        RED_DARK,
        GOLD,
        "#b35a26",
        "#7a4420",
        "#c98a4a",
        "#8a5428",
        "#3b2416",
    ),
}


FIGURES = FigureStyle(
    PALETTES,
    EMBLEMS.held,
    UPRIGHT_SWORD_FANTE_POSES,
    STANDING_KING_POSES,
    cavallo_faces_right={"D": False, "C": True, "S": False, "B": True},
)

# ---------------------------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------------------------

DECK = LatinDeck(
    "spanish",
    "Spanish",
    draw_frame,
    {"D": draw_ace_oros, "C": draw_ace_copas, "S": draw_ace_espadas, "B": draw_ace_bastos},
    {**PIPS.drawers(), "B": draw_basto_pips},
    {"J": draw_fante, "Q": draw_cavallo, "K": draw_standing_re},
    FIGURES,
    suit_names=SUIT_NAMES,
    rank_names=RANK_NAMES,
    of="de",
    index=INDEX,
    index_at=(21.0, 22.0),
    index_height=28.0,
    index_centre_x=36.0,
    back=LatticeBack("#1f4f9a", "#f3e6c4", "#123366", 8, False),  # blue, cream rosettes
)
generate = DECK.generate
main = DECK.main

if __name__ == "__main__":
    raise SystemExit(main())
