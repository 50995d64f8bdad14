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

from collections.abc import Callable, Sequence
from pathlib import Path

from tools.cardgen import backs
from tools.cardgen.latin import (
    BLACK,
    BLUE,
    BLUE_DARK,
    BLUE_LIGHT,
    CX,
    CY,
    FANTE_POSES,
    GOLD,
    GOLD_DARK,
    GOLD_LIGHT,
    GREEN,
    GREEN_DARK,
    INK,
    OUTLINE,
    RANK_NUMBER,
    RED,
    RED_DARK,
    SKIN,
    STANDING_KING_POSES,
    WHITE,
    Canvas,
    FigureStyle,
    Node,
    Palette,
    Point,
    Pose,
    column_layout,
    draw_arm,
    draw_basto,
    draw_cavallo,
    draw_corner_indices,
    draw_crown,
    draw_eagle,
    draw_espada,
    draw_face,
    draw_folds,
    draw_hand,
    draw_laurel,
    draw_plain_face,
    draw_standing_re,
    generate_deck,
    generator_main,
    lathe,
    lathe_outline,
    lens_d,
    limb,
    poly_d,
    rotate,
    row_places,
    smooth_d,
    star_points,
    sym,
    transform,
)
from tools.cardgen.svg import Svg, card_base

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "assets" / "cards" / "siciliane"

SUIT_NAMES = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}
RANK_NAMES = {"A": "Asso", "J": "Donna", "Q": "Cavallo", "K": "Re"}
INDEX = {rank: str(number) for rank, number in RANK_NUMBER.items()}
#: The coloured ground under each figure: it tells the rank.
GROUND = {"J": RED, "Q": GOLD, "K": GREEN}

PAPER = "#fffaf0"
ORANGE = "#ec8f22"

# ---------------------------------------------------------------------------------------------
# Emblems
# ---------------------------------------------------------------------------------------------


def draw_denaro(c: Canvas, x: float, y: float, r: float) -> None:
    """A coin like a little sun: a ring of red rays round a gold disc with a blue heart."""
    s = r / 50
    sw = OUTLINE / s
    with c.group(transform((x, y), scale=s)):
        c.path(poly_d(star_points(50, 40, 16)), RED, INK, sw * 0.8)
        c.circle(0, 0, 40, GOLD, INK, sw)
        c.circle(0, 0, 32, "none", ORANGE, 3)
        c.path(poly_d(star_points(27, 12, 6)), ORANGE, INK, sw * 0.5)
        c.circle(0, 0, 11, BLUE, INK, sw * 0.6)
        c.circle(0, 0, 4, GOLD_LIGHT, None, 0)


def draw_coppa(c: Canvas, x: float, y: float, h: float, angle: float = 0.0) -> None:
    """A two-handled vase-like cup: blue bowl with a gold lip and band, gold foot."""
    s = h / 100
    sw = OUTLINE / s
    with c.group(transform((x, y), angle, s)):
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


def draw_spada(c: Canvas, grip: Point, angle: float, length: float, scale: float = 1.0) -> None:
    draw_espada(c, grip, angle, length, scale, 10.0 * scale, GREEN_DARK, "#2a5fb0")


def draw_bastone(
    c: Canvas, at: Point, angle: float, length: float, width: float = 17.0, seed: int = 7
) -> None:
    """A green knobbly club with red rings, set apart from its fellows."""
    draw_basto(c, at, angle, length, width, 1.0, seed, False, GREEN, GREEN_DARK, RED)


# ---------------------------------------------------------------------------------------------
# Pips, with a few little pictures as on the printed deck
# ---------------------------------------------------------------------------------------------

DENARO_RADIUS = {2: 45, 3: 39, 4: 38, 5: 35, 6: 36, 7: 29}
COPPA_HEIGHT = {2: 116, 3: 88, 4: 100, 5: 84, 6: 88, 7: 72}


def draw_trinacria(c: Canvas, x: float, y: float, r: float) -> None:
    """Sicily's emblem: a face in a gold disc with three bent running legs and ears of wheat."""
    s = r / 50
    with c.group(transform((x, y), scale=s)):
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
    for i, (x, y) in enumerate(column_layout(n)):
        if n == 3 and i == 1:
            draw_trinacria(c, x, y, DENARO_RADIUS[n] * 1.3)
        else:
            draw_denaro(c, x, y, DENARO_RADIUS[n])


def draw_cup_pips(c: Canvas, n: int) -> None:
    for x, y in column_layout(n):
        draw_coppa(c, x, y, COPPA_HEIGHT[n])


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
    scale = 1.0 if n <= 3 else 0.8
    for (x, y), angle, length in row_places(n):
        draw_spada(c, (x, y - 12 * scale), angle, length - 16 * scale, scale)
    if n == 5:
        draw_flower(c, CX + 56, 250)


def draw_club_pips(c: Canvas, n: int) -> None:
    width = 16.0 if n <= 3 else 13.0
    for k, ((x, y), angle, length) in enumerate(row_places(n, 0.86 if n != 2 else 1.0)):
        centre = rotate((0, -length / 2), angle)
        draw_bastone(c, (x + centre[0], y + centre[1]), angle, length, width, seed=61 + k)


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
    draw_spada(c, (CX, 320), 0, 262, 1.5)
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
    draw_basto(c, (CX, CY + 6), -8, 210, 21, 1.3, 3, True, GREEN, GREEN_DARK, RED)


ACE_DRAWERS: dict[str, Callable[[Canvas], None]] = {
    "D": draw_ace_coins,
    "C": draw_ace_cups,
    "S": draw_ace_swords,
    "B": draw_ace_clubs,
}

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


def draw_held(c: Canvas, suit: str, hand: Point, size: float = 1.0, angle: float = 0.0) -> None:
    x, y = hand
    if suit == "D":
        draw_denaro(c, x, y - 20 * size, 24 * size)
    elif suit == "C":
        off = rotate((0, -14 * size), angle)
        draw_coppa(c, x + off[0], y + off[1], 62 * size, angle)
    elif suit == "S":
        draw_spada(c, hand, angle, 160 * size, 0.95)
    else:
        length = 170 * size
        centre = rotate((0, -(length / 2 - 26)), angle)
        draw_bastone(c, (x + centre[0], y + centre[1]), angle, length, 16, seed=21)


FIGURES = FigureStyle(
    PALETTES,
    draw_held,
    fante_poses={
        **FANTE_POSES,
        "S": Pose(((-50, 172), (-26, 196)), ((48, 176), (50, 208)), 1.0, 0),
    },
    king_poses=STANDING_KING_POSES,
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
    shoulder_l, shoulder_r = (x - 28, head_y + 38), (x + 28, head_y + 38)
    el, hl = (x + pose.left[0][0], pose.left[0][1]), (x + pose.left[1][0], pose.left[1][1])
    er, hr = (x + pose.right[0][0], pose.right[0][1]), (x + pose.right[1][0], pose.right[1][1])
    draw_arm(c, shoulder_l, el, hl, pal.main_dark, WHITE)
    draw_arm(c, shoulder_r, er, hr, pal.main_dark, WHITE)
    style.held(c, suit, hr, pose.size, pose.angle)
    draw_hand(c, hl)
    draw_hand(c, hr)
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


def draw_court(rank: str) -> Callable[[Canvas, str, FigureStyle], None]:
    figure: Callable[[Canvas, str, FigureStyle], None] = {
        "J": draw_donna,
        "Q": draw_cavallo,
        "K": draw_standing_re,
    }[rank]

    def draw(c: Canvas, suit: str, style: FigureStyle) -> None:
        draw_ground(c, rank)
        figure(c, suit, style)

    return draw


COURT_DRAWERS = {rank: draw_court(rank) for rank in ("J", "Q", "K")}

# ---------------------------------------------------------------------------------------------
# Card assembly
# ---------------------------------------------------------------------------------------------

PIP_DRAWERS: dict[str, Callable[[Canvas, int], None]] = {
    "D": draw_coin_pips,
    "C": draw_cup_pips,
    "S": draw_sword_pips,
    "B": draw_club_pips,
}


def card_svg(rank: str, suit: str) -> str:
    """The complete SVG document of one card face."""
    c = Canvas(f"{RANK_NAMES.get(rank, rank)} di {SUIT_NAMES[suit]}")
    draw_plain_face(c, PAPER, 7.0, RED_DARK)
    if rank == "A":
        ACE_DRAWERS[suit](c)
    elif rank in COURT_DRAWERS:
        COURT_DRAWERS[rank](c, suit, FIGURES)
    else:
        PIP_DRAWERS[suit](c, int(rank))
    draw_corner_indices(c, INDEX[rank], (15.0, 15.0), 30.0, INK, 30.0)
    return c.render()


BACK = backs.LatticeBack("#1f6a3a", "#f2e6be", "#134626", 6, True)


def back_svg() -> str:
    """The deck's own back: a green lattice with star rosettes."""
    svg = Svg()
    card_base(svg)
    backs.draw_lattice_back(svg, BACK)
    return str(svg)


def generate(out_dir: Path = DEFAULT_OUT) -> list[Path]:
    """Write the 40 faces and ``back.svg`` into *out_dir*; return the paths."""
    return generate_deck(out_dir, card_svg, back_svg)


def main(argv: Sequence[str] | None = None) -> int:
    return generator_main(argv, "siciliane", "Siciliane", DEFAULT_OUT, generate)


if __name__ == "__main__":
    raise SystemExit(main())
