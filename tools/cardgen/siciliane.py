"""Generate the Siciliane deck (40 cards) as SVG faces and a back.

Run from the repository root::

    python -m tools.cardgen.siciliane            # writes assets/cards/siciliane/
    python -m tools.cardgen.siciliane --out DIR  # writes somewhere else

What makes it Sicilian (see ``docs/decks.md`` for the sources): Spanish suits (straight swords,
knobbly clubs) set apart rather than interwoven; full-length, single-ended figures standing on
a coloured ground that tells the rank at a glance (red under the fante, yellow under the
cavallo, green under the re); a fante who looks like a young woman (the *donna*); little
pictures on the numeral cards, such as the Trinacria (Sicily's three-legged emblem) on the three
of coins; an eagle on the ace of coins. Printed Siciliane carry no corner numbers; ours add the
Napoletane numbers 1-10 so that a card can be read at 70 pixels wide.

>>> GROUND["J"], GROUND["K"]
('#cc2a2a', '#2f8c3c')
"""

from __future__ import annotations

from functools import partial

from tools.cardgen.backs import LatticeBack
from tools.cardgen.latin import (
    BLACK,
    BLUE,
    BLUE_DARK,
    BLUE_LIGHT,
    CX,
    CY,
    GOLD,
    GOLD_DARK,
    GOLD_LIGHT,
    GREEN,
    GREEN_DARK,
    INK,
    ITALIAN_RANK_NAMES,
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
    Node,
    Palette,
    PlainFace,
    RowPips,
    column_layout,
    draw_arms,
    draw_basto,
    draw_cavallo,
    draw_crown,
    draw_eagle,
    draw_espada,
    draw_face,
    draw_folds,
    draw_laurel,
    draw_standing_re,
    emblem_frame,
    lathe,
    lathe_outline,
    lens_d,
    limb,
    poly_d,
    rotate,
    smooth_d,
    star_points,
    sym,
    transform,
)

#: The fante is a young woman, the donna.
RANK_NAMES = {**ITALIAN_RANK_NAMES, "J": "Donna"}
#: The coloured ground under each figure: it tells the rank.
GROUND = {"J": RED, "Q": GOLD, "K": GREEN}

PAPER = "#fffaf0"
ORANGE = "#ec8f22"

# ---------------------------------------------------------------------------------------------
# Emblems
# ---------------------------------------------------------------------------------------------


def draw_denaro(c: Canvas, x: float, y: float, r: float) -> None:
    """A coin like a little sun: a ring of red rays round a gold disc with a blue heart."""
    with emblem_frame(c, (x, y), r / 50) as sw:
        c.path(poly_d(star_points(50, 40, 16)), RED, INK, sw * 0.8)
        c.circle(0, 0, 40, GOLD, INK, sw)
        c.circle(0, 0, 32, "none", ORANGE, 3)
        c.path(poly_d(star_points(27, 12, 6)), ORANGE, INK, sw * 0.5)
        c.circle(0, 0, 11, BLUE, INK, sw * 0.6)
        c.circle(0, 0, 4, GOLD_LIGHT, None, 0)


def draw_coppa(c: Canvas, x: float, y: float, h: float, angle: float = 0.0) -> None:
    """A two-handled vase-like cup: blue bowl with a gold lip and band, gold foot."""
    with emblem_frame(c, (x, y), h / 100, angle) as sw:
        for side in (-1, 1):
            c.line([(side * 22, -30), (side * 38, -34), (side * 36, -14), (side * 20, -8)], INK, 6)
            c.line([(side * 22, -30), (side * 38, -34), (side * 36, -14), (side * 20, -8)], GOLD, 3)
        foot = lathe([(6, 24), (10, 32), (20, 42), (26, 48)])
        c.ellipse(0, 48, 26, 4.5, GOLD_DARK, INK, sw)
        c.path(poly_d(lathe_outline(foot)), GOLD, INK, sw)
        c.rect(-4, 0, 8, 26, GOLD, INK, sw)
        c.ellipse(0, 12, 8, 6, RED, INK, sw)
        bowl = lathe([(26, -46), (24, -38), (28, -24), (22, -8), (10, 0), (5, 2)])
        c.path(poly_d(lathe_outline(bowl)), BLUE, INK, sw)
        c.path(poly_d(lathe_outline(bowl, -28, -20)), GOLD, None, 0)
        c.path(lens_d((-18, -34), (-10, -10), 5), BLUE_LIGHT, None, 0)
        c.ellipse(0, -46, 26, 5, GOLD, INK, sw)
        c.ellipse(0, -45.5, 20, 2.8, BLUE_DARK, None, 0)


#: A straight sword with a green grip; a green knobbly club with red rings.
draw_spada = partial(draw_espada, grip_colour=GREEN_DARK, blade_colour="#2a5fb0")
draw_bastone = partial(draw_basto, wood=GREEN, wood_dark=GREEN_DARK, band=RED)

EMBLEMS = Emblems(draw_denaro, draw_coppa, draw_spada, draw_bastone, held_sword_width=9.5)

# ---------------------------------------------------------------------------------------------
# Pips, with a few little pictures as on the printed deck
# ---------------------------------------------------------------------------------------------

DENARO_RADIUS = {2: 45, 3: 39, 4: 38, 5: 35, 6: 36, 7: 29}
COPPA_HEIGHT = {2: 116, 3: 88, 4: 100, 5: 84, 6: 88, 7: 72}
PIPS = RowPips(EMBLEMS, DENARO_RADIUS, COPPA_HEIGHT, first_club_seed=61, sword_width=10.0)


def draw_trinacria(c: Canvas, x: float, y: float, r: float) -> None:
    """Sicily's emblem: a face in a gold disc with three bent running legs and ears of wheat."""
    with emblem_frame(c, (x, y), r / 50):
        for k in range(3):
            a = k * 120
            thigh = [rotate((0, -10), a), rotate((0, -34), a), rotate((16, -44), a)]
            c.line(thigh, INK, 12.5)
            c.line(thigh, SKIN, 9)
            foot = rotate((22, -44), a)
            c.circle(foot[0], foot[1], 5, SKIN, INK, 1.4)
            ear = rotate((-10, -42), a + 60)
            c.path(lens_d(rotate((0, -20), a + 60), ear, 7), GOLD, INK, 1.0)
        c.circle(0, 0, 20, GOLD, INK, 1.8)
        draw_face(c, 0, 0)
        for k in range(5):
            p = rotate((0, -17), -60 + k * 30)
            c.circle(p[0], p[1], 3.2, GREEN, INK, 0.8)


def draw_coin_pips(c: Canvas, n: int) -> None:
    """The coins in their columns, the middle one of the three a Trinacria."""
    for i, (x, y) in enumerate(column_layout(n)):
        if n == 3 and i == 1:
            draw_trinacria(c, x, y, DENARO_RADIUS[n] * 1.3)
        else:
            draw_denaro(c, x, y, DENARO_RADIUS[n])


def draw_flower(c: Canvas, x: float, y: float) -> None:
    """A little flower on a stalk, one of the pictures between the pips."""
    c.line([(x, y + 22), (x, y)], GREEN_DARK, 2.4)
    for side in (-1, 1):
        c.path(lens_d((x, y + 16), (x + side * 12, y + 8), 6), GREEN, INK, 0.8)
    for k in range(5):
        dx, dy = rotate((0, -10), k * 72)
        c.path(lens_d((x, y), (x + dx, y + dy), 8), RED, INK, 0.8)
    c.circle(x, y, 3, GOLD, INK, 0.8)


def draw_sword_pips(c: Canvas, n: int) -> None:
    """The swords in their rows, and a flower beside them on the five."""
    PIPS.draw_swords(c, n)
    if n == 5:
        draw_flower(c, CX + 56, 250)


# ---------------------------------------------------------------------------------------------
# Aces
# ---------------------------------------------------------------------------------------------


def draw_ace_coins(c: Canvas) -> None:
    """Asso di denari: an eagle with spread wings over a great sun-coin, in a wreath."""
    draw_denaro(c, CX, CY, 92)
    with c.group(transform((CX, CY + 6))):
        c.circle(0, 0, 52, GOLD_LIGHT, INK, 2)
    with c.group(transform((CX, CY + 12), scale=1.1)):
        draw_eagle(c)
    for side in (-1, 1):
        draw_laurel(c, (CX + side * 8, 340), (CX + side * 100, 290), -20 * side, 5)


def draw_ace_cups(c: Canvas) -> None:
    """Asso di coppe: a great two-handled cup with flowers rising from it."""
    for k, dx in enumerate((-30, 0, 30)):
        c.line([(CX + dx * 0.4, 150), (CX + dx, 96 - (12 if k == 1 else 0))], GREEN_DARK, 3)
        draw_flower(c, CX + dx, 92 - (12 if k == 1 else 0))
    draw_coppa(c, CX, CY + 40, 210)


def draw_ace_swords(c: Canvas) -> None:
    """Asso di spade: a great sword with a ribbon wound round the blade, crowned."""
    draw_spada(c, (CX, 320), 0, 262, 1.5, 15.0)
    for k in range(4):
        y = 270 - k * 50
        c.path(
            smooth_d(
                [
                    (CX - 30, y),
                    (CX, y - 12),
                    (CX + 30, y - 24),
                    (CX + 30, y - 14),
                    (CX, y - 2),
                    (CX - 30, y + 10),
                ]
            ),
            RED,
            INK,
            1.4,
        )
    draw_crown(c, CX, 86, 52, 26)


def draw_ace_clubs(c: Canvas) -> None:
    """Asso di bastoni: a great green club sprouting leaves."""
    draw_bastone(c, (CX, CY + 6), -8, 210, 21, 3, 1.3, leaves=True)


# ---------------------------------------------------------------------------------------------
# Figures on coloured grounds: donna (a young woman), cavallo, re
# ---------------------------------------------------------------------------------------------

PALETTES = {
    "D": Palette(
        BLUE, BLUE_DARK, GOLD, GOLD_DARK, RED, "#7a3a14", "#e6e2da", "#a86a3c", "#6e4220", "#2a1a10"
    ),
    "C": Palette(
        GREEN,
        GREEN_DARK,
        RED,
        RED_DARK,
        GOLD,
        "#2a1c14",
        "#3a2a20",
        "#f0ebe0",
        "#c2b8a3",
        "#8a6a44",
    ),
    "S": Palette(
        RED, RED_DARK, BLUE, BLUE_DARK, GOLD, "#e0b040", "#9a5a26", "#5a463a", "#3a2c24", "#1f1814"
    ),
    "B": Palette(
        GOLD,
        GOLD_DARK,
        GREEN,
        GREEN_DARK,
        RED,
        "#5a2a14",
        "#7a4420",
        "#c3c6cb",
        "#8a8f96",
        "#4b4f55",
    ),
}


FIGURES = FigureStyle(
    PALETTES,
    EMBLEMS.held,
    UPRIGHT_SWORD_FANTE_POSES,
    STANDING_KING_POSES,
    cavallo_faces_right={"D": False, "C": False, "S": True, "B": True},
)


def draw_ground(c: Canvas, rank: str) -> None:
    """The coloured ground the figure stands on."""
    c.rect(30, 320, 166, 42, GROUND[rank], INK, 1.8, 8)
    c.rect(37, 327, 152, 28, "none", GOLD_LIGHT if rank != "Q" else WHITE, 1.4, 5)


def draw_donna(c: Canvas, suit: str, style: FigureStyle) -> None:
    """The donna: a young woman in a long gown, hair down, her suit's symbol in her hand."""
    pal = style.palettes[suit]
    pose = style.fante_poses[suit]
    x = CX - 10
    head_y = 100.0
    hair: list[Node] = [
        (x, head_y - 20),
        (x + 20, head_y - 10),
        (x + 24, head_y + 30),
        (x + 16, head_y + 52),
    ]
    hair += [(x, head_y + 46)]
    c.shape(sym(hair, x), pal.hair, INK, OUTLINE)
    gown: list[Node] = [
        (x, head_y + 24),
        (x + 14, head_y + 25),
        (x + 30, head_y + 36),
        (x + 30, 170),
        (x + 22, 198),
        (x + 36, 250),
        (x + 50, 326, 1),
        (x, 330),
    ]
    c.shape(sym(gown, x), pal.main, INK, OUTLINE)
    draw_folds(c, x, [(12, 224, 18, 320), (28, 236, 38, 320)], pal.main_dark)
    apron: list[Node] = [(x, 206), (x + 16, 206, 1), (x + 24, 300, 1), (x, 304)]
    c.shape(sym(apron, x), pal.second, INK, OUTLINE * 0.8, smooth=False)
    c.line([(x - 48, 322), (x, 326), (x + 48, 322)], pal.trim, 4, smooth=True)
    c.rect(x - 24, 196, 48, 9, pal.trim, INK, 1.6, 3)
    bodice: list[Node] = [(x, head_y + 30), (x + 12, head_y + 28), (x + 20, 190, 1), (x, 196)]
    c.shape(sym(bodice, x), pal.second, INK, OUTLINE * 0.8)
    for by in (142.0, 160.0, 178.0):
        c.line([(x - 6, by), (x + 6, by + 4)], pal.trim, 1.6)
        c.line([(x + 6, by), (x - 6, by + 4)], pal.trim, 1.6)
    c.rect(x - 6, head_y + 12, 12, 14, SKIN, INK, OUTLINE)
    c.path(
        smooth_d(
            [(x - 16, head_y + 26), (x, head_y + 34), (x + 16, head_y + 26), (x, head_y + 30)]
        ),
        WHITE,
        INK,
        1.4,
    )
    draw_arms(c, suit, style, pose, (x, head_y + 38), 28, pal.main_dark, WHITE)
    draw_face(c, x, head_y)
    fringe: list[Node] = [
        (x - 15, head_y - 2, 1),
        (x - 12, head_y - 14),
        (x, head_y - 19),
        (x + 12, head_y - 14),
    ]
    fringe += [(x + 15, head_y - 2, 1), (x + 4, head_y - 12), (x - 4, head_y - 12)]
    c.shape(fringe, pal.hair, INK, OUTLINE * 0.8)
    for k in (-2, -1, 0, 1, 2):
        c.circle(x + k * 7, head_y - 19 + abs(k) * 2, 3.2, pal.trim if k else RED, INK, 0.8)
    limb(c, [(x - 8, 330), (x - 12, 334)], 6, 5, BLACK)
    limb(c, [(x + 8, 330), (x + 12, 334)], 6, 5, BLACK)


def draw_court(rank: str) -> FigureDrawer:
    """The drawer of the figure of *rank* standing on its ground."""
    figure: FigureDrawer = {
        "J": draw_donna,
        "Q": draw_cavallo,
        "K": draw_standing_re,
    }[rank]

    def draw(c: Canvas, suit: str, style: FigureStyle) -> None:
        draw_ground(c, rank)
        figure(c, suit, style)

    return draw


# ---------------------------------------------------------------------------------------------
# The deck
# ---------------------------------------------------------------------------------------------

DECK = LatinDeck(
    "siciliane",
    "Siciliane",
    PlainFace(PAPER, 7.0, RED_DARK),
    {"D": draw_ace_coins, "C": draw_ace_cups, "S": draw_ace_swords, "B": draw_ace_clubs},
    {**PIPS.drawers(), "D": draw_coin_pips, "S": draw_sword_pips},
    {rank: draw_court(rank) for rank in ("J", "Q", "K")},
    FIGURES,
    rank_names=RANK_NAMES,
    index_centre_x=30.0,
    back=LatticeBack("#1f6a3a", "#f2e6be", "#134626", 6, True),  # green, star rosettes
)
generate = DECK.generate
main = DECK.main

if __name__ == "__main__":
    raise SystemExit(main())
