"""Generate the French-suited 40-card Briscola deck as SVG files.

Run from the repository root::

    python -m tools.cardgen.french            # writes assets/cards/french and french4

File names are ``<rank><suit>.svg``: rank ``A 2 3 4 5 6 7 J Q K``, suit ``D C S B`` (the game's
Italian suits drawn as French faces: D = diamonds, C = hearts, S = spades, B = clubs).

Everything is drawn in code with plain paths and basic shapes, since pygame's SVG rasteriser
(nanosvg) ignores ``<text>``, ``<use>``, CSS, masks and clip paths: the rank letters and numerals
are stroked centre lines designed here, the suit symbols are Bezier outlines, the court figures
are built from a few parametrised parts (headgear, face, robe, held attribute) per rank and suit.
The output is deterministic: same input, same bytes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools.cardgen.svg import CARD_H, CARD_W, Svg, card_base, d, num, rotate_180, transform

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS = ("D", "C", "S", "B")
SUIT_NAMES = {"D": "diamonds", "C": "hearts", "S": "spades", "B": "clubs"}

RED = "#c8102e"
BLACK = "#1b1b1b"
BLUE = "#1d58b8"
GREEN = "#17813a"
TWO_COLOURS = {"D": RED, "C": RED, "S": BLACK, "B": BLACK}
FOUR_COLOURS = {"D": BLUE, "C": RED, "S": BLACK, "B": GREEN}

INK = "#1b1b1b"  # outlines of the court figures
GOLD = "#e8b52a"
SKIN = "#f6d7b6"
CREAM = "#fbf5e4"
WHITE = "#ffffff"
STEEL = "#d5dbe3"
WOOD = "#8a5a2b"
LEAF = "#2f8f3f"

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO_ROOT / "assets" / "cards"

# --------------------------------------------------------------------------------------------
# Suit symbols, designed in a 100 x 100 box centred on the origin (x, y in -50..50).

HEART = d(
    "M", 0, 48,
    "C", -18, 26, -50, 6, -50, -20,
    "C", -50, -38, -38, -49, -25, -49,
    "C", -12, -49, -3, -41, 0, -29,
    "C", 3, -41, 12, -49, 25, -49,
    "C", 38, -49, 50, -38, 50, -20,
    "C", 50, 6, 18, 26, 0, 48, "Z",
)  # fmt: skip
DIAMOND = d(
    "M", 0, -50, "Q", 16, -22, 38, 0, "Q", 16, 22, 0, 50,
    "Q", -16, 22, -38, 0, "Q", -16, -22, 0, -50, "Z",
)  # fmt: skip
SPADE = d(
    "M", 0, -50,
    "C", 16, -30, 50, -14, 50, 10,
    "C", 50, 26, 39, 35, 26, 35,
    "C", 15, 35, 8, 30, 4, 22,
    "C", 5, 34, 10, 44, 20, 50,
    "L", -20, 50,
    "C", -10, 44, -5, 34, -4, 22,
    "C", -8, 30, -15, 35, -26, 35,
    "C", -39, 35, -50, 26, -50, 10,
    "C", -50, -14, -16, -30, 0, -50, "Z",
)  # fmt: skip
CLUB_STEM = d("M", -4, 6, "C", -4, 30, -11, 43, -22, 50, "L", 22, 50, "C", 11, 43, 4, 30, 4, 6, "Z")


def suit_shape(svg: Svg, suit: str, fill: str, **attrs: str | float) -> None:
    """Draw the bare suit symbol in its 100-unit box (inside a caller's transform)."""
    if suit == "C":
        svg.path(HEART, fill=fill, **attrs)
    elif suit == "D":
        svg.path(DIAMOND, fill=fill, **attrs)
    elif suit == "S":
        svg.path(SPADE, fill=fill, **attrs)
    else:
        svg.circle(0, -25, 23, fill=fill, **attrs)
        svg.circle(-25, 9, 23, fill=fill, **attrs)
        svg.circle(25, 9, 23, fill=fill, **attrs)
        svg.polygon([(0, -22), (-22, 9), (0, 20), (22, 9)], fill=fill, **attrs)
        svg.path(CLUB_STEM, fill=fill, **attrs)


def suit_symbol(
    svg: Svg, suit: str, cx: float, cy: float, size: float, fill: str, flip: bool = False
) -> None:
    """A suit symbol *size* units wide centred on (cx, cy), upside down if *flip*."""
    with svg.group(transform((cx, cy), 180 if flip else 0, size / 100)):
        suit_shape(svg, suit, fill)


# --------------------------------------------------------------------------------------------
# Rank glyphs: centre lines in a 60 x 100 box, stroked 18 units wide (a bold sans-serif).

GLYPH_W = 60
GLYPH_STROKE = 20
# fmt: off
GLYPHS: dict[str, list[str]] = {
    "A": [d("M", 6, 93, "L", 30, 8, "L", 54, 93), d("M", 15, 64, "L", 45, 64)],
    "2": [d("M", 9, 30, "C", 9, 15, 19, 9, 30, 9, "C", 42, 9, 51, 16, 51, 29,
            "C", 51, 47, 27, 63, 9, 91, "L", 54, 91)],
    "3": [d("M", 9, 20, "C", 14, 12, 22, 9, 30, 9, "C", 42, 9, 49, 17, 49, 28,
            "C", 49, 40, 40, 47, 26, 47),
          d("M", 26, 47, "C", 43, 47, 52, 56, 52, 69, "C", 52, 83, 42, 91, 29, 91,
            "C", 20, 91, 12, 88, 7, 80)],
    "4": [d("M", 41, 95, "L", 41, 9, "L", 6, 66, "L", 56, 66)],
    "5": [d("M", 49, 9, "L", 16, 9, "L", 13, 48, "C", 18, 43, 24, 41, 31, 41,
            "C", 44, 41, 52, 51, 52, 65, "C", 52, 81, 42, 91, 29, 91,
            "C", 20, 91, 13, 88, 8, 81)],
    "6": [d("M", 47, 14, "C", 42, 10, 37, 9, 31, 9, "C", 16, 9, 9, 27, 9, 52,
            "C", 9, 78, 17, 91, 31, 91, "C", 44, 91, 52, 81, 52, 67,
            "C", 52, 53, 44, 44, 31, 44, "C", 20, 44, 11, 51, 9, 60)],
    "7": [d("M", 6, 9, "L", 53, 9, "C", 39, 30, 28, 58, 25, 95)],
    "J": [d("M", 20, 9, "L", 54, 9),
          d("M", 42, 9, "L", 42, 68, "C", 42, 84, 35, 91, 25, 91, "C", 16, 91, 9, 85, 7, 75)],
    "Q": [d("M", 30, 9, "C", 45, 9, 51, 28, 51, 50, "C", 51, 72, 45, 91, 30, 91,
            "C", 15, 91, 9, 72, 9, 50, "C", 9, 28, 15, 9, 30, 9, "Z"),
          d("M", 34, 70, "L", 57, 99)],
    "K": [d("M", 11, 6, "L", 11, 94), d("M", 53, 6, "L", 14, 58), d("M", 27, 42, "L", 55, 94)],
}
# fmt: on


def rank_glyph(svg: Svg, rank: str, x: float, y: float, height: float, colour: str) -> None:
    """Draw *rank* with its 100-unit box's top-left corner at (x, y), *height* units tall."""
    with svg.group(
        transform((x, y), 0, height / 100),
        fill="none",
        stroke=colour,
        stroke_width=GLYPH_STROKE,
        stroke_linejoin="round",
        stroke_linecap="butt",
    ):
        for data in GLYPHS[rank]:
            svg.add("path", d=data)


# --------------------------------------------------------------------------------------------
# Corner indices and pips.

INDEX_RANK_H = 36
INDEX_CX = 23
INDEX_TOP = 12
INDEX_SUIT_SIZE = 30
INDEX_SUIT_CY = 70


def corner_indices(svg: Svg, rank: str, suit: str, colour: str) -> None:
    """Rank above suit, top-left, and the same turned 180° at the bottom-right."""
    for flipped in (False, True):
        with svg.group(rotate_180() if flipped else ""):
            scale = INDEX_RANK_H / 100
            rank_glyph(svg, rank, INDEX_CX - GLYPH_W * scale / 2, INDEX_TOP, INDEX_RANK_H, colour)
            suit_symbol(svg, suit, INDEX_CX, INDEX_SUIT_CY, INDEX_SUIT_SIZE, colour)


COL_L, COL_C, COL_R = 80.0, 125.0, 170.0
ROW_T, ROW_M, ROW_B = 90.0, 200.0, 310.0
PIP_SIZE = 48
PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "2": [(COL_C, ROW_T), (COL_C, ROW_B)],
    "3": [(COL_C, ROW_T), (COL_C, ROW_M), (COL_C, ROW_B)],
    "4": [(COL_L, ROW_T), (COL_R, ROW_T), (COL_L, ROW_B), (COL_R, ROW_B)],
    "5": [(COL_L, ROW_T), (COL_R, ROW_T), (COL_C, ROW_M), (COL_L, ROW_B), (COL_R, ROW_B)],
    "6": [(x, y) for y in (ROW_T, ROW_M, ROW_B) for x in (COL_L, COL_R)],
    "7": [(x, y) for y in (ROW_T, ROW_M, ROW_B) for x in (COL_L, COL_R)] + [(COL_C, 145.0)],
}


def draw_pips(svg: Svg, rank: str, suit: str, colour: str) -> None:
    for x, y in PIP_LAYOUTS[rank]:
        suit_symbol(svg, suit, x, y, PIP_SIZE, colour, flip=y > CARD_H / 2)


def draw_ace(svg: Svg, suit: str, colour: str) -> None:
    if suit == "S":
        draw_ace_of_spades(svg, colour)
    else:
        suit_symbol(svg, suit, CARD_W / 2, CARD_H / 2, 118, colour)


def draw_ace_of_spades(svg: Svg, colour: str) -> None:
    """The ornate Ace: a great spade with white filigree, framed by scrolls and a ribbon."""
    cx, cy, scale = CARD_W / 2, 190.0, 1.55
    # Side scrolls: from the foot of the stem out and up along the lobes, ending in curls.
    side = d(
        "M", 24, 80, "C", 52, 84, 76, 72, 82, 48, "C", 86, 30, 80, 16, 88, 6,
        "C", 94, -2, 104, 4, 100, 12, "C", 97, 17, 91, 14, 93, 10,
    )  # fmt: skip
    leaf = d("M", 82, 50, "C", 92, 50, 100, 44, 103, 32, "C", 94, 34, 86, 40, 82, 50, "Z")
    top = d(
        "M", 0, -84, "C", 12, -96, 30, -100, 46, -96, "C", 60, -92, 62, -78, 52, -76,
        "C", 44, -74, 42, -84, 49, -86,
    )  # fmt: skip
    with svg.group(transform((cx, cy))):
        for sx in (1, -1):
            with svg.group(f"scale({sx} 1)"):
                svg.path(side, stroke_width=3.4, stroke=colour, stroke_linecap="round")
                svg.path(top, stroke_width=2.6, stroke=colour, stroke_linecap="round")
                svg.path(leaf, fill=colour)
                svg.circle(40, -96, 2.6, fill=colour)
                svg.circle(96, 66, 3, fill=colour)
        # Finial above the tip.
        svg.path(d("M", 0, -118, "L", 6, -106, "L", 0, -94, "L", -6, -106, "Z"), fill=colour)
        svg.circle(0, -124, 3, fill=colour)
        # Ribbon across the foot of the stem, with folded, forked ends.
        for sx in (1, -1):
            tail = d(
                "M", sx * 50, 92, "L", sx * 74, 96, "L", sx * 66, 104, "L", sx * 76, 112,
                "L", sx * 50, 110, "Z",
            )  # fmt: skip
            svg.path(tail, fill=WHITE, stroke=colour, stroke_width=1.8, stroke_linejoin="round")
        band = d(
            "M", -56, 86, "C", -20, 80, 20, 80, 56, 86, "L", 56, 106,
            "C", 20, 100, -20, 100, -56, 106, "Z",
        )  # fmt: skip
        svg.path(band, fill=WHITE, stroke=colour, stroke_width=2, stroke_linejoin="round")
        for x in (-36, -18, 0, 18, 36):
            svg.path(d("M", x, 89, "L", x + 4, 93.5, "L", x, 98, "L", x - 4, 93.5, "Z"),
                     fill=colour)  # fmt: skip
    # The great spade with a white inline.
    with svg.group(transform((cx, cy), 0, scale)):
        suit_shape(svg, "S", colour)
    with svg.group(transform((cx, cy), 0, scale * 0.84)):
        svg.path(SPADE, stroke=WHITE, stroke_width=1.4)
    # White filigree inside: a rosette medallion with curls above and below.
    with svg.group(transform((cx, cy - 4))):
        svg.circle(0, 0, 15, fill=WHITE)
        svg.circle(0, 0, 11, fill=colour)
        for angle in range(0, 360, 45):
            with svg.group(transform((0, 0), angle)):
                svg.ellipse(0, -22, 4, 7, fill=WHITE)
        svg.circle(0, 0, 4.5, fill=WHITE)
        for sx in (-1, 1):
            svg.path(
                d("M", 0, 30, "C", sx * 10, 32, sx * 24, 28, sx * 28, 15,
                  "C", sx * 30, 6, sx * 24, 2, sx * 19, 8),
                fill="none", stroke=WHITE, stroke_width=2.4, stroke_linecap="round",
            )  # fmt: skip
            svg.path(
                d("M", 0, -34, "C", sx * 9, -38, sx * 18, -46, sx * 14, -56,
                  "C", sx * 10, -62, sx * 3, -58, sx * 5, -52),
                fill="none", stroke=WHITE, stroke_width=2.4, stroke_linecap="round",
            )  # fmt: skip
            svg.circle(sx * 34, 2, 2.4, fill=WHITE)


# --------------------------------------------------------------------------------------------
# Court cards: a framed panel with a half-figure, mirrored top/bottom.

PANEL_X, PANEL_Y, PANEL_W, PANEL_H = 46.0, 40.0, 158.0, 320.0
HALF = PANEL_H / 2


@dataclass(frozen=True)
class CourtStyle:
    """What distinguishes one court figure from another."""

    robe: str  # main garment colour
    trim: str  # bands, collar and ornaments
    accent: str  # second garment colour (sleeves, under-robe, jewels)
    hair: str
    pattern: str  # "ermine", "stripes", "lozenges" or "flowers"
    attribute: str  # what the figure holds (see ATTRIBUTES)
    side: int  # -1: the attribute on the figure's right (our left), +1 on the other side


COURTS: dict[tuple[str, str], CourtStyle] = {
    ("K", "C"): CourtStyle(RED, GOLD, "#1f4e9c", "#8a5a2b", "ermine", "sword", -1),
    ("K", "D"): CourtStyle("#1f4e9c", GOLD, RED, "#6b4a2b", "lozenges", "axe", 1),
    ("K", "S"): CourtStyle("#2a2d35", GOLD, RED, "#5a5a5a", "ermine", "sceptre", -1),
    ("K", "B"): CourtStyle("#2e7d32", GOLD, RED, "#b06a2a", "lozenges", "orb", 1),
    ("Q", "C"): CourtStyle(GOLD, RED, "#1f4e9c", "#6e3514", "flowers", "rose", 1),
    ("Q", "D"): CourtStyle(RED, GOLD, "#2e7d32", "#3b2a1e", "stripes", "fan", -1),
    ("Q", "S"): CourtStyle("#1f4e9c", GOLD, RED, "#2b2118", "flowers", "sceptre", 1),
    ("Q", "B"): CourtStyle("#7a2a6e", GOLD, "#2e7d32", "#b5651d", "stripes", "tulip", -1),
    ("J", "C"): CourtStyle("#1f4e9c", RED, GOLD, "#b5651d", "stripes", "torch", -1),
    ("J", "D"): CourtStyle(GOLD, RED, "#1f4e9c", "#5a3a1e", "lozenges", "halberd", 1),
    ("J", "S"): CourtStyle(RED, GOLD, "#2a2d35", "#2b2118", "stripes", "sword", 1),
    ("J", "B"): CourtStyle("#2e7d32", GOLD, RED, "#8a5a2b", "lozenges", "arrow", -1),
}

OUTLINE: dict[str, str | float] = {"stroke": INK, "stroke_width": 1.4, "stroke_linejoin": "round"}

# Local coordinates of a half panel: x 0..PANEL_W, y 0..HALF; the figure is centred on FX.
FX = PANEL_W / 2
FACE_CY = 70.0  # the head is designed around this point, then scaled by HEAD_SCALE
FACE_RX, FACE_RY = 16.0, 20.0
HAND_Y = 128.0
HAND_X = 30.0  # distance of the holding hand from the panel's side


def draw_body(svg: Svg, rank: str, style: CourtStyle) -> None:
    """Shoulders filling the panel, robe with its pattern, collar and the neck."""
    left, right = 4.0, PANEL_W - 4
    shoulders = d(
        "M", left, HALF, "L", left, 128, "C", left + 4, 110, FX - 45, 99, FX - 18, 95,
        "L", FX + 18, 95, "C", FX + 45, 99, right - 4, 110, right, 128, "L", right, HALF, "Z",
    )  # fmt: skip
    svg.path(shoulders, fill=style.robe, **OUTLINE)
    # Sleeve seams: a trim-coloured hem on each shoulder, with a row of studs beside it.
    for sx in (-1, 1):
        seam = d(
            "M", FX + sx * 40, 99, "C", FX + sx * 54, 112, FX + sx * 62, 134, FX + sx * 64, HALF
        )
        svg.path(seam, stroke=style.trim, stroke_width=5)
        svg.path(seam, stroke=INK, stroke_width=0.8)
        for y in (118.0, 134.0, 150.0):
            t = (y - 99) / (HALF - 99)
            svg.circle(FX + sx * (40 + 24 * t**0.6 - 8), y, 2.2, fill=style.trim, **OUTLINE)
    # Under-robe showing in a V at the chest, with the pattern of the figure.
    svg.path(
        d("M", FX - 27, HALF, "L", FX - 13, 96, "L", FX + 13, 96, "L", FX + 27, HALF, "Z"),
        fill=style.accent, **OUTLINE,
    )  # fmt: skip
    if style.pattern == "stripes":
        for i in range(-3, 4):
            x = FX + i * 6.5
            svg.line(x, 100, x + i * 1.6, HALF, stroke=style.trim, stroke_width=2.4)
    elif style.pattern == "lozenges":
        for row, y in enumerate((112.0, 130.0, 148.0)):
            for i in range(-1, 2) if row else range(0, 1):
                x = FX + i * 12
                svg.polygon(
                    [(x, y - 7), (x + 5, y), (x, y + 7), (x - 5, y)], fill=style.trim, **OUTLINE
                )
    elif style.pattern == "flowers":
        for x, y in ((FX, 114.0), (FX - 10, 134.0), (FX + 10, 134.0), (FX, 152.0)):
            for angle in (0, 90):
                svg.ellipse(x, y, 5, 2.2, fill=style.trim, transform=f"rotate({angle} {x} {y})")
            svg.circle(x, y, 1.9, fill=WHITE)
    else:  # ermine: black tails on white
        svg.path(
            d("M", FX - 24, HALF, "L", FX - 12, 108, "L", FX + 12, 108, "L", FX + 24, HALF, "Z"),
            fill=WHITE, **OUTLINE,
        )  # fmt: skip
        for x, y in ((FX - 8, 122.0), (FX + 8, 122.0), (FX, 138.0), (FX - 12, 152.0),
                     (FX + 12, 152.0)):  # fmt: skip
            svg.path(d("M", x, y - 4, "L", x + 2.4, y + 3, "L", x - 2.4, y + 3, "Z"), fill=INK)
    # Bands of trim colour along the V, dotted.
    for sx in (-1, 1):
        band = d(
            "M", FX + sx * 27, HALF, "L", FX + sx * 13, 96,
            "L", FX + sx * 20, 95, "L", FX + sx * 35, HALF, "Z",
        )  # fmt: skip
        svg.path(band, fill=style.trim, **OUTLINE)
        for y in (112.0, 128.0, 144.0):
            t = (y - 96) / (HALF - 96)
            svg.circle(FX + sx * (16.5 + 14.5 * t), y, 1.7, fill=style.accent)
    # Neck.
    svg.rect(FX - 7, 80, 14, 18, fill=SKIN, **OUTLINE)
    # Collar.
    if rank == "K":
        collar = d(
            "M", FX - 42, 104, "C", FX - 28, 92, FX - 12, 92, FX, 94,
            "C", FX + 12, 92, FX + 28, 92, FX + 42, 104,
            "C", FX + 28, 112, FX + 12, 108, FX, 112,
            "C", FX - 12, 108, FX - 28, 112, FX - 42, 104, "Z",
        )  # fmt: skip
        svg.path(collar, fill=WHITE, **OUTLINE)
        for x in (FX - 32, FX - 20, FX + 20, FX + 32):
            y = 102.0
            svg.path(d("M", x, y - 3, "L", x + 2, y + 2, "L", x - 2, y + 2, "Z"), fill=INK)
    elif rank == "Q":
        # A necklace of pearls and a pendant.
        for i in range(9):
            t = i / 8
            x = FX - 22 + 44 * t
            y = 96 + 16 * 4 * t * (1 - t) * 0.8
            svg.circle(x, y, 2.2, fill=WHITE, stroke=INK, stroke_width=0.6)
        svg.polygon([(FX, 108), (FX + 4.5, 114), (FX, 121), (FX - 4.5, 114)], fill=RED, **OUTLINE)
    else:
        collar = d(
            "M", FX - 24, 97, "L", FX, 114, "L", FX + 24, 97, "L", FX + 15, 93,
            "L", FX, 104, "L", FX - 15, 93, "Z",
        )  # fmt: skip
        svg.path(collar, fill=WHITE, **OUTLINE)


HEAD_SCALE = 1.15
HEAD_CY = 60.0  # where the face centre lands in the half panel


def draw_head(svg: Svg, rank: str, style: CourtStyle) -> None:
    """Hair, face, beard and headgear for the rank."""
    top = FACE_CY - FACE_RY
    if rank == "Q":
        # Long hair falling to the shoulders, behind the face.
        hair = d(
            "M", FX - 17, top + 6, "C", FX - 30, top + 20, FX - 26, top + 50, FX - 34, 104,
            "C", FX - 22, 106, FX - 14, 96, FX - 12, 86,
            "L", FX + 12, 86, "C", FX + 14, 96, FX + 22, 106, FX + 34, 104,
            "C", FX + 26, top + 50, FX + 30, top + 20, FX + 17, top + 6, "Z",
        )  # fmt: skip
        svg.path(hair, fill=style.hair, **OUTLINE)
    elif rank == "K":
        hair = d(
            "M", FX - 18, top + 8, "C", FX - 24, top + 26, FX - 24, top + 40, FX - 20, top + 48,
            "L", FX + 20, top + 48,
            "C", FX + 24, top + 40, FX + 24, top + 26, FX + 18, top + 8, "Z",
        )  # fmt: skip
        svg.path(hair, fill=style.hair, **OUTLINE)
    else:
        hair = d(
            "M", FX - 18, top + 4, "C", FX - 25, top + 18, FX - 24, top + 34, FX - 18, top + 40,
            "L", FX + 18, top + 40,
            "C", FX + 24, top + 34, FX + 25, top + 18, FX + 18, top + 4, "Z",
        )  # fmt: skip
        svg.path(hair, fill=style.hair, **OUTLINE)

    svg.ellipse(FX, FACE_CY, FACE_RX, FACE_RY, fill=SKIN, **OUTLINE)
    # Eyes, brows, nose and mouth.
    for sx in (-1, 1):
        svg.ellipse(FX + sx * 6.5, FACE_CY - 3, 2.4, 1.6, fill=WHITE, stroke=INK, stroke_width=0.7)
        svg.circle(FX + sx * 6.2, FACE_CY - 3, 1.1, fill=INK)
        svg.path(
            d("M", FX + sx * 10, FACE_CY - 7, "C", FX + sx * 7, FACE_CY - 9.5, FX + sx * 4,
              FACE_CY - 9, FX + sx * 2.5, FACE_CY - 7.5),
            fill="none", stroke=style.hair if rank != "J" else INK, stroke_width=1.3,
        )  # fmt: skip
    svg.path(
        d("M", FX, FACE_CY - 4, "L", FX - 2.5, FACE_CY + 5, "L", FX + 1, FACE_CY + 5.5),
        fill="none", stroke=INK, stroke_width=0.9, stroke_linejoin="round",
    )  # fmt: skip
    svg.ellipse(FX - 9, FACE_CY + 5, 3, 2, fill="#f0b8a0")
    svg.ellipse(FX + 9, FACE_CY + 5, 3, 2, fill="#f0b8a0")
    if rank == "K":
        beard = d(
            "M", FX - FACE_RX + 1, FACE_CY + 2, "C", FX - 16, FACE_CY + 26, FX - 8, FACE_CY + 34,
            FX, FACE_CY + 38, "C", FX + 8, FACE_CY + 34, FX + 16, FACE_CY + 26,
            FX + FACE_RX - 1, FACE_CY + 2,
            "C", FX + 10, FACE_CY + 14, FX + 5, FACE_CY + 12, FX, FACE_CY + 12,
            "C", FX - 5, FACE_CY + 12, FX - 10, FACE_CY + 14, FX - FACE_RX + 1, FACE_CY + 2, "Z",
        )  # fmt: skip
        svg.path(beard, fill=style.hair, **OUTLINE)
        svg.path(
            d("M", FX - 10, FACE_CY + 11, "C", FX - 6, FACE_CY + 7, FX - 2, FACE_CY + 8, FX,
              FACE_CY + 9, "C", FX + 2, FACE_CY + 8, FX + 6, FACE_CY + 7, FX + 10, FACE_CY + 11),
            fill="none", stroke=INK, stroke_width=1.6, stroke_linecap="round",
        )  # fmt: skip
        svg.path(
            d("M", FX - 4, FACE_CY + 15, "L", FX + 4, FACE_CY + 15),
            fill="none", stroke="#b03030", stroke_width=1.6,
        )  # fmt: skip
    else:
        svg.path(
            d("M", FX - 4, FACE_CY + 11, "C", FX - 1, FACE_CY + 13.5, FX + 1, FACE_CY + 13.5,
              FX + 4, FACE_CY + 11),
            fill="none", stroke="#b03030", stroke_width=1.8, stroke_linecap="round",
        )  # fmt: skip

    if rank == "K":
        crown = d(
            "M", FX - 21, top + 10, "L", FX - 24, top - 18, "L", FX - 12, top - 6,
            "L", FX, top - 24, "L", FX + 12, top - 6, "L", FX + 24, top - 18,
            "L", FX + 21, top + 10, "Z",
        )  # fmt: skip
        svg.path(crown, fill=GOLD, **OUTLINE)
        svg.rect(FX - 22, top + 1, 44, 9, fill=style.accent, **OUTLINE)
        for x in (FX - 14, FX, FX + 14):
            svg.circle(x, top + 5.5, 2.4, fill=GOLD, stroke=INK, stroke_width=0.7)
        for x, y in ((FX - 24, top - 18), (FX, top - 24), (FX + 24, top - 18)):
            svg.circle(x, y, 3, fill=GOLD, **OUTLINE)
        svg.circle(FX, top - 8, 3, fill=RED, stroke=INK, stroke_width=0.7)
    elif rank == "Q":
        # A circlet of pearls on spikes, lower and rounder than the King's crown.
        for x, h in ((-15, 6), (-8, 11), (0, 17), (8, 11), (15, 6)):
            svg.polygon(
                [(FX + x - 3.5, top + 3), (FX + x, top - h), (FX + x + 3.5, top + 3)],
                fill=GOLD, **OUTLINE,
            )  # fmt: skip
            svg.circle(FX + x, top - h - 2, 2.6, fill=WHITE, stroke=INK, stroke_width=0.7)
        band = d(
            "M", FX - 20, top + 11, "C", FX - 8, top + 6, FX + 8, top + 6, FX + 20, top + 11,
            "L", FX + 19, top + 2, "C", FX + 8, top - 2, FX - 8, top - 2, FX - 19, top + 2, "Z",
        )  # fmt: skip
        svg.path(band, fill=GOLD, **OUTLINE)
        svg.ellipse(FX, top + 4, 3.2, 2.6, fill=style.accent, stroke=INK, stroke_width=0.7)
        for sx in (-1, 1):
            svg.circle(FX + sx * 11, top + 5, 1.9, fill=style.trim, stroke=INK, stroke_width=0.6)
    else:
        # A flat cap with a brim and a long feather.
        cap = d(
            "M", FX - 22, top + 8, "C", FX - 24, top - 10, FX + 22, top - 16, FX + 24, top + 6,
            "Z",
        )  # fmt: skip
        fx = -style.side
        svg.path(
            d("M", FX + fx * 14, top - 8, "C", FX + fx * 34, top - 16, FX + fx * 40, top + 8,
              FX + fx * 34, top + 34,
              "C", FX + fx * 30, top + 14, FX + fx * 26, top + 2, FX + fx * 12, top - 2, "Z"),
            fill=style.trim, **OUTLINE,
        )  # fmt: skip
        svg.path(
            d("M", FX + fx * 14, top - 5, "C", FX + fx * 30, top - 8, FX + fx * 34, top + 10,
              FX + fx * 34, top + 30),
            stroke=INK, stroke_width=0.8,
        )  # fmt: skip
        svg.path(cap, fill=style.accent, **OUTLINE)
        svg.ellipse(FX, top + 7, 26, 5, fill=style.robe, **OUTLINE)


def _stick(svg: Svg, x: float, y1: float, y2: float, width: float, fill: str) -> None:
    svg.rect(x - width / 2, y1, width, y2 - y1, fill=fill, **OUTLINE)


def attr_sword(svg: Svg, x: float, style: CourtStyle) -> None:
    blade = [(x - 4, 112), (x - 4, 20), (x, 8), (x + 4, 20), (x + 4, 112)]
    svg.polygon(blade, fill=STEEL, **OUTLINE)
    svg.line(x, 22, x, 110, stroke="#9aa3ad", stroke_width=1)
    svg.rect(x - 14, 110, 28, 6, fill=GOLD, rx=2, **OUTLINE)
    _stick(svg, x, 116, 146, 6, WOOD)
    svg.circle(x, 149, 4.5, fill=GOLD, **OUTLINE)


def attr_sceptre(svg: Svg, x: float, style: CourtStyle) -> None:
    _stick(svg, x, 28, 156, 5, GOLD)
    for y in (60.0, 96.0):
        svg.rect(x - 4.5, y, 9, 5, fill=style.accent, **OUTLINE)
    # A fleur-de-lis-like finial made of three petals.
    svg.ellipse(x, 16, 4.5, 12, fill=GOLD, **OUTLINE)
    for sx in (-1, 1):
        svg.path(
            d("M", x, 28, "C", x + sx * 4, 18, x + sx * 14, 16, x + sx * 12, 26,
              "C", x + sx * 10, 30, x + sx * 6, 28, x, 30, "Z"),
            fill=GOLD, **OUTLINE,
        )  # fmt: skip
    svg.rect(x - 7, 28, 14, 4, fill=GOLD, **OUTLINE)


def attr_axe(svg: Svg, x: float, style: CourtStyle) -> None:
    _stick(svg, x, 18, 156, 5, WOOD)
    head = d(
        "M", x + 2, 26, "C", x + 14, 26, x + 22, 20, x + 26, 12,
        "C", x + 32, 26, x + 32, 44, x + 26, 58, "C", x + 22, 50, x + 14, 44, x + 2, 44, "Z",
    )  # fmt: skip
    svg.path(head, fill=STEEL, **OUTLINE)
    svg.polygon([(x - 2.5, 28), (x - 12, 35), (x - 2.5, 42)], fill=STEEL, **OUTLINE)
    svg.circle(x, 16, 3.5, fill=GOLD, **OUTLINE)


def attr_orb(svg: Svg, x: float, style: CourtStyle) -> None:
    cy = HAND_Y - 18
    svg.circle(x, cy, 13, fill=GOLD, **OUTLINE)
    svg.path(d("M", x - 13, cy, "L", x + 13, cy), stroke=style.accent, stroke_width=3)
    svg.path(d("M", x, cy, "L", x, cy + 13), stroke=style.accent, stroke_width=3)
    svg.circle(x, cy, 13, fill="none", **OUTLINE)
    _stick(svg, x, cy - 27, cy - 12, 3.5, GOLD)
    svg.rect(x - 6, cy - 23, 12, 3.5, fill=GOLD, **OUTLINE)


def _flower_stem(svg: Svg, x: float, top: float) -> None:
    svg.path(
        d("M", x, HAND_Y, "C", x + 2, HAND_Y - 20, x - 2, top + 30, x, top),
        stroke=LEAF, stroke_width=2.6, fill="none",
    )  # fmt: skip
    for sx, y in ((-1, HAND_Y - 22), (1, HAND_Y - 36)):
        svg.path(
            d("M", x, y, "C", x + sx * 6, y - 10, x + sx * 16, y - 10, x + sx * 18, y - 16,
              "C", x + sx * 14, y - 4, x + sx * 8, y, x, y, "Z"),
            fill=LEAF, **OUTLINE,
        )  # fmt: skip


def attr_rose(svg: Svg, x: float, style: CourtStyle) -> None:
    top = 68.0
    _flower_stem(svg, x, top)
    for angle in range(0, 360, 72):
        with svg.group(transform((x, top), angle)):
            svg.ellipse(0, -7, 6, 7.5, fill=RED, **OUTLINE)
    svg.circle(x, top, 5, fill="#e23a4e", **OUTLINE)
    svg.circle(x, top, 2, fill=GOLD)


def attr_tulip(svg: Svg, x: float, style: CourtStyle) -> None:
    top = 70.0
    _flower_stem(svg, x, top)
    cup = d(
        "M", x - 10, top - 16, "L", x - 5, top - 8, "L", x, top - 18, "L", x + 5, top - 8,
        "L", x + 10, top - 16, "C", x + 12, top - 2, x + 8, top + 4, x, top + 4,
        "C", x - 8, top + 4, x - 12, top - 2, x - 10, top - 16, "Z",
    )  # fmt: skip
    svg.path(cup, fill="#e0483a", **OUTLINE)


_FAN_DIRS = [
    (0.98, 0.20), (0.87, 0.50), (0.64, 0.77), (0.34, 0.94), (0.0, 1.0), (-0.34, 0.94),
    (-0.64, 0.77),
]  # fmt: skip


def attr_fan(svg: Svg, x: float, style: CourtStyle) -> None:
    cy = HAND_Y - 4
    ribs = [(x + 34 * c, cy - 34 * s) for c, s in _FAN_DIRS]
    outline = [(x, cy), *ribs]
    svg.polygon(outline, fill=style.accent, **OUTLINE)
    for px, py in ribs[1:-1]:
        svg.line(x, cy, px, py, stroke=GOLD, stroke_width=1.4)
    for i in range(len(ribs) - 1):
        (x1, y1), (x2, y2) = ribs[i], ribs[i + 1]
        svg.circle((x1 + x2) / 2, (y1 + y2) / 2, 1.8, fill=WHITE)


def attr_torch(svg: Svg, x: float, style: CourtStyle) -> None:
    _stick(svg, x, 48, 150, 6, WOOD)
    svg.path(d("M", x - 7, 42, "L", x + 7, 42, "L", x + 4, 56, "L", x - 4, 56, "Z"), fill=GOLD,
             **OUTLINE)  # fmt: skip
    flame = d(
        "M", x, 4, "C", x + 6, 16, x + 14, 22, x + 10, 34, "C", x + 8, 40, x + 4, 42, x, 42,
        "C", x - 6, 42, x - 12, 38, x - 11, 30, "C", x - 10, 22, x - 2, 20, x, 4, "Z",
    )  # fmt: skip
    svg.path(flame, fill="#f08a24", **OUTLINE)
    svg.path(
        d("M", x, 18, "C", x + 4, 26, x + 7, 30, x + 4, 37, "C", x + 1, 40, x - 4, 40, x - 5, 34,
          "C", x - 5, 28, x - 1, 26, x, 18, "Z"),
        fill="#ffd84a",
    )  # fmt: skip


def attr_halberd(svg: Svg, x: float, style: CourtStyle) -> None:
    _stick(svg, x, 12, 156, 5, WOOD)
    svg.polygon([(x - 3, 14), (x, 0), (x + 3, 14)], fill=STEEL, **OUTLINE)
    blade = d(
        "M", x + 2, 22, "C", x + 12, 22, x + 18, 18, x + 20, 14,
        "C", x + 24, 24, x + 24, 36, x + 20, 44, "C", x + 16, 40, x + 10, 38, x + 2, 38, "Z",
    )  # fmt: skip
    svg.path(blade, fill=STEEL, **OUTLINE)
    svg.path(d("M", x - 2, 26, "L", x - 14, 20, "L", x - 2, 34, "Z"), fill=STEEL, **OUTLINE)
    svg.rect(x - 4, 50, 8, 6, fill=style.trim, **OUTLINE)


def attr_arrow(svg: Svg, x: float, style: CourtStyle) -> None:
    _stick(svg, x, 16, 158, 3.5, WOOD)
    svg.polygon([(x - 6, 22), (x, 4), (x + 6, 22)], fill=STEEL, **OUTLINE)
    for sx in (-1, 1):
        svg.polygon(
            [(x, 128), (x + sx * 8, 138), (x + sx * 8, 156), (x, 148)], fill=style.trim, **OUTLINE
        )


ATTRIBUTES: dict[str, Callable[[Svg, float, CourtStyle], None]] = {
    "sword": attr_sword,
    "sceptre": attr_sceptre,
    "axe": attr_axe,
    "orb": attr_orb,
    "rose": attr_rose,
    "tulip": attr_tulip,
    "fan": attr_fan,
    "torch": attr_torch,
    "halberd": attr_halberd,
    "arrow": attr_arrow,
}


def draw_half_figure(svg: Svg, rank: str, suit: str, colour: str) -> None:
    """One half of the court panel, in half-panel coordinates."""
    style = COURTS[rank, suit]
    attr_x = HAND_X if style.side < 0 else PANEL_W - HAND_X
    draw_body(svg, rank, style)
    head = f"translate({num(FX * (1 - HEAD_SCALE))} {num(HEAD_CY - FACE_CY * HEAD_SCALE)}) "
    with svg.group(head + f"scale({num(HEAD_SCALE)})"):
        draw_head(svg, rank, style)
    ATTRIBUTES[style.attribute](svg, attr_x, style)
    # The sleeve rising from below, the cuff in the trim colour and the hand.
    sx = 1 if style.side < 0 else -1
    svg.polygon(
        [(attr_x - 10 * sx, HAND_Y + 12), (attr_x + 10 * sx, HAND_Y + 12),
         (attr_x + 10 * sx, HALF), (attr_x - 20 * sx, HALF)],
        fill=style.accent, **OUTLINE,
    )  # fmt: skip
    svg.path(
        d("M", attr_x - 12, HAND_Y + 14, "L", attr_x + 12, HAND_Y + 14, "L", attr_x + 9,
          HAND_Y + 6, "L", attr_x - 9, HAND_Y + 6, "Z"),
        fill=style.trim, **OUTLINE,
    )  # fmt: skip
    svg.ellipse(attr_x, HAND_Y, 8.5, 7, fill=SKIN, **OUTLINE)
    # The suit symbol in the free upper corner.
    pip_x = PANEL_W - 20 if style.side < 0 else 20
    suit_symbol(svg, suit, pip_x, 22, 28, colour)


def draw_court(svg: Svg, rank: str, suit: str, colour: str) -> None:
    svg.rect(PANEL_X, PANEL_Y, PANEL_W, PANEL_H, fill=CREAM)
    for flipped in (False, True):
        matrix = (
            f"matrix(-1 0 0 -1 {num(PANEL_X + PANEL_W)} {num(PANEL_Y + PANEL_H)})"
            if flipped
            else transform((PANEL_X, PANEL_Y))
        )
        with svg.group(matrix):
            draw_half_figure(svg, rank, suit, colour)
    svg.line(
        PANEL_X, PANEL_Y + HALF, PANEL_X + PANEL_W, PANEL_Y + HALF, stroke=INK, stroke_width=1.4
    )
    svg.rect(PANEL_X, PANEL_Y, PANEL_W, PANEL_H, stroke=colour, stroke_width=2.5)
    svg.rect(PANEL_X + 4, PANEL_Y + 4, PANEL_W - 8, PANEL_H - 8, stroke=colour, stroke_width=0.8)


# --------------------------------------------------------------------------------------------
# Whole cards and files.


def card_svg(rank: str, suit: str, four_colour: bool = False) -> Svg:
    """The complete SVG document of one card."""
    colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
    svg = Svg()
    card_base(svg)
    if rank == "A":
        draw_ace(svg, suit, colour)
    elif rank in PIP_LAYOUTS:
        draw_pips(svg, rank, suit, colour)
    else:
        draw_court(svg, rank, suit, colour)
    corner_indices(svg, rank, suit, colour)
    return svg


def card_codes() -> list[str]:
    return [rank + suit for suit in SUITS for rank in RANKS]


def generate(out_dir: Path, four_colour: bool = False) -> list[Path]:
    """Write the 40 card files into *out_dir*; return their paths in suit, rank order."""
    written = []
    for code in card_codes():
        written.append(card_svg(code[:-1], code[-1], four_colour).write(out_dir / f"{code}.svg"))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools.cardgen.french", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="parent directory (default assets/cards)"
    )
    args = parser.parse_args(argv)
    for name, four in (("french", False), ("french4", True)):
        paths = generate(args.out / name, four_colour=four)
        print(f"{args.out / name}: {len(paths)} cards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
