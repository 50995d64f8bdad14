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

>>> INDEX["J"], INDEX["K"]
('8', '10')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tools.cardgen import backs
from tools.cardgen.latin import (
    BLUE,
    BLUE_DARK,
    BROWN,
    CARD_H,
    CARD_W,
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
    Palette,
    Point,
    Pose,
    alternate_rows,
    column_layout,
    draw_basto,
    draw_cavallo,
    draw_corner_indices,
    draw_crown,
    draw_cup,
    draw_eagle,
    draw_espada,
    draw_fante,
    draw_laurel,
    draw_plain_face,
    draw_standing_re,
    generate_deck,
    generator_main,
    lens_d,
    poly_d,
    rotate,
    smooth_d,
    transform,
)
from tools.cardgen.svg import Svg, card_base

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "assets" / "cards" / "piacentine"

SUIT_NAMES = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}
RANK_NAMES = {"A": "Asso", "J": "Fante", "Q": "Cavallo", "K": "Re"}
INDEX = {rank: str(number) for rank, number in RANK_NUMBER.items()}

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
    s = r / 50
    sw = OUTLINE / s
    with c.group(transform((x, y), scale=s)):
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


def draw_coppa(c: Canvas, x: float, y: float, h: float, angle: float = 0.0) -> None:
    draw_cup(c, x, y, h, BLUE, RED, angle)


def draw_spada(c: Canvas, grip: Point, angle: float, length: float, scale: float = 1.0) -> None:
    draw_espada(c, grip, angle, length, scale, 11.0 * scale, RED_DARK, BLADE)


def draw_bastone(
    c: Canvas, at: Point, angle: float, length: float, width: float = 17.0, seed: int = 7
) -> None:
    draw_basto(c, at, angle, length, width, 1.0, seed, False, WOOD, WOOD_DARK, RED)


# ---------------------------------------------------------------------------------------------
# Pips: coins and cups in columns, swords and clubs set apart, alternately up and down
# ---------------------------------------------------------------------------------------------

DENARO_RADIUS = {2: 45, 3: 39, 4: 38, 5: 35, 6: 36, 7: 29}
COPPA_HEIGHT = {2: 118, 3: 90, 4: 116, 5: 88, 6: 92, 7: 82}


def draw_coin_pips(c: Canvas, n: int) -> None:
    for x, y in column_layout(n):
        draw_denaro(c, x, y, DENARO_RADIUS[n])


def draw_cup_pips(c: Canvas, n: int) -> None:
    for x, y in column_layout(n):
        draw_coppa(c, x, y, COPPA_HEIGHT[n])


def draw_sword_pips(c: Canvas, n: int) -> None:
    scale = 1.0 if n <= 3 else 0.8
    for (x, y), angle, length in alternate_rows(n):
        offset = rotate((0, -12 * scale), angle)
        draw_spada(c, (x + offset[0], y + offset[1]), angle, length - 16 * scale, scale)


def draw_club_pips(c: Canvas, n: int) -> None:
    width = 16.0 if n <= 3 else 13.0
    for k, ((x, y), angle, length) in enumerate(alternate_rows(n, 0.86 if n != 2 else 1.0)):
        centre = rotate((0, -length / 2), angle)
        draw_bastone(c, (x + centre[0], y + centre[1]), angle, length, width, seed=51 + k)


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
    draw_cup(c, CX, CY + 30, 230, RED, BLUE)
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
    draw_spada(c, (CX, 296), 0, 250, 1.45)
    with c.group(transform((CX + 52, 300), scale=1.35)):
        draw_cherub(c, 0, 0)
        c.line([(-14, -2), (-34, -3)], SKIN, 6)
    c.circle(CX + 6, 296, 7, SKIN, INK, 1.6)
    draw_crown(c, CX, 84, 50, 24)


def draw_ace_clubs(c: Canvas) -> None:
    """Asso di bastoni: a great club of rough wood, sprouting leaves, tied with a ribbon."""
    draw_basto(c, (CX - 2, CY + 6), 8, 210, 21, 1.3, 3, True, WOOD, WOOD_DARK, RED)


ACE_DRAWERS: dict[str, Callable[[Canvas], None]] = {
    "D": draw_ace_coins,
    "C": draw_ace_cups,
    "S": draw_ace_swords,
    "B": draw_ace_clubs,
}

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


#: Where each figure is cut for the double-ended card, and how much it is scaled.
HALVES: dict[str, tuple[HalfDrawer, float, float]] = {
    "J": (draw_fante, 238.0, 0.9),
    "Q": (draw_cavallo, 262.0, 0.78),
    "K": (draw_king, 238.0, 0.92),
}


def draw_double_ended(c: Canvas, rank: str, suit: str, style: FigureStyle) -> None:
    """The figure cut at the waist and mirrored: upper half upright, lower half turned half
    round, the seam hidden under a narrow band across the middle."""
    draw, cut, scale = HALVES[rank]
    for rotated in (False, True):
        turn = transform((CARD_W, CARD_H), 180) if rotated else ""
        place = transform((CX - scale * CX, CY - scale * cut), scale=scale)
        with c.group(turn), c.group(place):
            draw(c, suit, style, cut)
    c.rect(9, CY - 11 * scale - 2, CARD_W - 18, 22 * scale + 4, PAPER, None, 0)
    for dy in (-1, 1):
        y = CY + dy * (11 * scale + 2)
        c.line([(9, y), (CARD_W - 9, y)], INK, 1.4)


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
    draw_plain_face(c, PAPER, 8.0)
    if rank == "A":
        ACE_DRAWERS[suit](c)
    elif rank in HALVES:
        draw_double_ended(c, rank, suit, FIGURES)
    else:
        PIP_DRAWERS[suit](c, int(rank))
    draw_corner_indices(c, INDEX[rank], (15.0, 15.0), 30.0, INK, 30.0)
    return c.render()


BACK = backs.LatticeBack("#a3252c", "#f3e3bd", "#6e1418", 6, False)


def back_svg() -> str:
    """The deck's own back: a deep red lattice with six-petalled rosettes."""
    svg = Svg()
    card_base(svg)
    backs.draw_lattice_back(svg, BACK)
    return str(svg)


def generate(out_dir: Path = DEFAULT_OUT) -> list[Path]:
    """Write the 40 faces and ``back.svg`` into *out_dir*; return the paths."""
    return generate_deck(out_dir, card_svg, back_svg)


def main(argv: Sequence[str] | None = None) -> int:
    return generator_main(argv, "piacentine", "Piacentine", DEFAULT_OUT, generate)


if __name__ == "__main__":
    raise SystemExit(main())
