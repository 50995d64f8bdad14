"""Render every SVG of a card deck directory into one PNG contact sheet.

Usage::

    python tools/contact_sheet.py assets/cards/french docs/cards-french.png --width 120 --cols 10
    python -m tools.contact_sheet assets/cards/backs docs/cards-backs.png --cols 4

Cards are named ``<rank><suit>.svg`` (rank ``A 2 3 4 5 6 7 J Q K``, suit ``D C S B``); they are
sorted by suit, then by rank. Any other SVG files (backs, the stock) follow in name order. The
sheet uses pygame's own SVG rasteriser (``pygame.image.load_sized_svg``, nanosvg), which is
exactly what the game uses, so the sheet shows what the player will see.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS = ("D", "C", "S", "B")
FELT = (22, 92, 52)
CARD_ASPECT = 400 / 250


def sort_key(path: Path) -> tuple[int, int, int, str]:
    """Cards first (by suit, then rank), then every other file by name."""
    stem = path.stem
    rank, suit = stem[:-1], stem[-1:]
    if rank in RANKS and suit in SUITS:
        return (0, SUITS.index(suit), RANKS.index(rank), stem)
    return (1, 0, 0, stem)


def deck_files(deck_dir: Path) -> list[Path]:
    """Every SVG file of *deck_dir*, in contact-sheet order."""
    return sorted(deck_dir.glob("*.svg"), key=sort_key)


def render_sheet(files: Sequence[Path], width: int = 120, cols: int = 10) -> pygame.Surface:
    """Rasterise *files* at *width* px and lay them out on a felt-green sheet."""
    if not files:
        raise ValueError("no SVG files to render")
    height = round(width * CARD_ASPECT)
    gap = max(4, width // 10)
    cols = max(1, min(cols, len(files)))
    rows = (len(files) + cols - 1) // cols
    sheet = pygame.Surface((gap + cols * (width + gap), gap + rows * (height + gap)))
    sheet.fill(FELT)
    for index, path in enumerate(files):
        image = pygame.image.load_sized_svg(str(path), (width, height))
        col, row = index % cols, index // cols
        x = gap + col * (width + gap)
        y = gap + row * (height + gap)
        # Centre images whose aspect differs from a card's (e.g. a larger stock drawing).
        x += (width - image.get_width()) // 2
        y += (height - image.get_height()) // 2
        sheet.blit(image, (x, y))
    return sheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="contact_sheet",
        description="Render every SVG of a deck directory into one PNG on a felt background.",
    )
    parser.add_argument("deck_dir", type=Path, help="directory holding the card SVG files")
    parser.add_argument("output", type=Path, help="PNG file to write")
    parser.add_argument("--width", type=int, default=120, help="card width in px (default 120)")
    parser.add_argument("--cols", type=int, default=10, help="cards per row (default 10)")
    args = parser.parse_args(argv)

    files = deck_files(args.deck_dir)
    if not files:
        parser.error(f"no .svg files in {args.deck_dir}")
    started = not pygame.get_init()
    if started:
        pygame.init()
    try:
        sheet = render_sheet(files, width=args.width, cols=args.cols)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(sheet, str(args.output))
    finally:
        if started:
            pygame.quit()
    print(f"{args.output}: {len(files)} images, {sheet.get_width()}x{sheet.get_height()} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
