"""The generated card art: complete decks, loadable by pygame's SVG renderer, deterministic.

Every deck directory under ``assets/cards`` (``italian``, ``french``, ``french4``, ``spanish``,
``piacentine``, ``siciliane``, and any other) must hold exactly the 40 ``<rank><suit>.svg`` files,
a ``deck.json`` manifest and optionally the deck's own ``back.svg``; each image rasterises at
the sizes the game uses (70 and 300 px wide among them) with a card's aspect, all 40 faces
different. The backs directory holds at least the classic and felt backs and the stock. The
generators must give byte-identical output on every run and match the committed files.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import re
from pathlib import Path

import pygame
import pytest

from briscola.text import decks
from tools import contact_sheet
from tools.cardgen import backs, french

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "assets" / "cards"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
SUITS = ["D", "C", "S", "B"]
EXPECTED = {f"{rank}{suit}.svg" for rank in RANKS for suit in SUITS}
REQUIRED_DECKS = ("italian", "french", "french4", "spanish", "piacentine", "siciliane")
DECKS = sorted({*REQUIRED_DECKS, *(p.name for p in CARDS.glob("*") if p.is_dir())} - {"backs"})
VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


pytestmark = pytest.mark.usefixtures("pygame_running")


def viewbox(path: Path) -> tuple[float, float]:
    match = VIEWBOX.search(path.read_text(encoding="utf-8"))
    assert match, f"{path.name}: no viewBox"
    return float(match.group(1)), float(match.group(2))


def check_loads(path: Path) -> None:
    vw, vh = viewbox(path)
    for size in ((60, 96), (70, 112), (250, 400), (300, 480)):
        image = pygame.image.load_sized_svg(str(path), size)
        w, h = image.get_size()
        assert w <= size[0] + 1 and h <= size[1] + 1, (path.name, size, (w, h))  # rounding
        assert abs(w / h - vw / vh) < 0.03, (path.name, size, (w, h))
        # Something is drawn: the middle of the card is not transparent.
        assert image.get_at((w // 2, h // 2)).a > 0, path.name


@pytest.mark.parametrize("deck", DECKS)
def test_deck_has_exactly_the_40_cards_a_manifest_and_at_most_a_back(deck: str) -> None:
    deck_dir = CARDS / deck
    assert deck_dir.is_dir(), f"missing deck directory {deck_dir}"
    names = {p.name for p in deck_dir.iterdir()}
    assert names - {"back.svg"} == EXPECTED | {"deck.json"}


@pytest.mark.parametrize("deck", DECKS)
def test_every_deck_folder_has_a_good_manifest_that_the_game_finds(deck: str) -> None:
    info = decks.load_manifest(CARDS / deck)
    assert info.id == deck
    found = decks.discover(CARDS)
    assert deck in found.decks, found.problems
    assert not found.problems


@pytest.mark.parametrize("deck", DECKS)
def test_every_card_loads_with_a_card_aspect(deck: str) -> None:
    paths = sorted((CARDS / deck).glob("*.svg"))
    assert len(paths) in (40, 41)
    for path in paths:
        assert viewbox(path) == (250, 400), path.name
        check_loads(path)


@pytest.mark.parametrize("deck", DECKS)
def test_all_faces_are_distinct(deck: str) -> None:
    seen: dict[bytes, str] = {}
    for path in sorted((CARDS / deck).glob("*.svg")):
        if path.name == "back.svg":
            continue
        image = pygame.image.load_sized_svg(str(path), (125, 200))
        pixels = pygame.image.tobytes(image, "RGBA")
        assert pixels not in seen, f"{path.name} looks exactly like {seen.get(pixels)}"
        seen[pixels] = path.name


def test_backs_and_stock() -> None:
    names = {p.name for p in (CARDS / "backs").glob("*.svg")}
    assert {"classic.svg", "felt.svg", "stock.svg"} <= names
    for path in sorted((CARDS / "backs").glob("*.svg")):
        if path.name != "stock.svg":
            assert viewbox(path) == (250, 400), path.name
        check_loads(path)
    stock_w, stock_h = viewbox(CARDS / "backs" / "stock.svg")
    assert 250 <= stock_w <= 275 and 400 <= stock_h <= 425


def test_svgs_use_only_what_nanosvg_draws() -> None:
    # <title> is metadata (an accessible name); the renderer skips it, nothing is lost.
    allowed = {
        "svg",
        "g",
        "path",
        "rect",
        "circle",
        "ellipse",
        "polygon",
        "polyline",
        "line",
        "title",
    }
    for deck in (*DECKS, "backs"):
        for path in (CARDS / deck).glob("*.svg"):
            tags = set(re.findall(r"<([a-zA-Z]+)", path.read_text(encoding="utf-8")))
            assert tags <= allowed, (path.name, tags - allowed)


def same_files(a: list[Path], b: list[Path]) -> None:
    assert [p.name for p in a] == [p.name for p in b]
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


@pytest.mark.parametrize(("deck", "four_colour"), [("french", False), ("french4", True)])
def test_french_generator_is_deterministic_and_committed(
    deck: str, four_colour: bool, tmp_path: Path
) -> None:
    first = french.generate(tmp_path / "one", four_colour=four_colour)
    second = french.generate(tmp_path / "two", four_colour=four_colour)
    assert len(first) == 40
    same_files(first, second)
    committed = [CARDS / deck / p.name for p in first]
    same_files(first, committed)


def test_backs_generator_is_deterministic_and_committed(tmp_path: Path) -> None:
    first = backs.generate(tmp_path / "one")
    second = backs.generate(tmp_path / "two")
    same_files(first, second)
    same_files(first, [CARDS / "backs" / p.name for p in first])


def test_contact_sheet_orders_suits_then_ranks(tmp_path: Path) -> None:
    for name in ("KB.svg", "AD.svg", "stock.svg", "7C.svg", "JD.svg", "2D.svg"):
        (tmp_path / name).write_text("<svg/>", encoding="utf-8")
    order = [p.name for p in contact_sheet.deck_files(tmp_path)]
    assert order == ["AD.svg", "2D.svg", "JD.svg", "7C.svg", "KB.svg", "stock.svg"]


def test_contact_sheet_renders(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert contact_sheet.main([str(CARDS / "backs"), str(out), "--width", "60", "--cols", "2"]) == 0
    sheet = pygame.image.load(str(out))
    assert sheet.get_width() == 6 + 2 * (60 + 6)
