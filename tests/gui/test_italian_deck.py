"""The Italian (Napoletane-style) deck generator: deterministic, complete, loadable, distinct."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from tools.cardgen import italian

RANKS = "A234567JQK"
SUITS = "DCSB"
EXPECTED_NAMES = sorted(f"{rank}{suit}.svg" for rank in RANKS for suit in SUITS)
COMMITTED_DIR = Path(__file__).resolve().parents[2] / "assets" / "cards" / "italian"
# Elements and attributes that pygame's SVG rasteriser (nanosvg) does not draw.
UNSUPPORTED = re.compile(r"<(text|use|filter|mask|clipPath|style|image)\b|class=|style=")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return italian.generate(tmp_path_factory.mktemp("italian"))


@pytest.fixture(scope="module")
def display() -> Iterator[None]:
    pygame.init()
    yield None
    pygame.quit()


def test_generates_exactly_the_forty_cards(generated: list[Path]) -> None:
    assert sorted(p.name for p in generated) == EXPECTED_NAMES
    assert sorted(p.name for p in generated[0].parent.iterdir()) == EXPECTED_NAMES


def test_generation_is_byte_identical(generated: list[Path], tmp_path: Path) -> None:
    again = italian.generate(tmp_path)
    assert [p.name for p in again] == [p.name for p in generated]
    for first, second in zip(generated, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


def test_committed_files_match_a_fresh_generation(generated: list[Path]) -> None:
    committed = sorted(p.name for p in COMMITTED_DIR.glob("*.svg"))
    assert committed == EXPECTED_NAMES
    for fresh in generated:
        stale = (COMMITTED_DIR / fresh.name).read_bytes() != fresh.read_bytes()
        assert not stale, f"{fresh.name} is stale: run python -m tools.cardgen.italian"


def test_svg_header_and_only_supported_elements(generated: list[Path]) -> None:
    for path in generated:
        text = path.read_text(encoding="utf-8")
        assert text.startswith(
            '<svg xmlns="http://www.w3.org/2000/svg" width="250" height="400" '
            'viewBox="0 0 250 400">'
        ), path.name
        assert not UNSUPPORTED.search(text), path.name


@pytest.mark.parametrize("size", [(60, 96), (250, 400)])
def test_every_card_loads_at_the_right_size(
    generated: list[Path], display: object, size: tuple[int, int]
) -> None:
    for path in generated:
        surface = pygame.image.load_sized_svg(str(path), size)
        w, h = surface.get_size()
        assert abs(w - size[0]) <= 1 and abs(h - size[1]) <= 1, (path.name, w, h)
        assert abs(h / w - 1.6) < 0.04, path.name


def test_all_faces_are_distinct(generated: list[Path], display: object) -> None:
    faces = {}
    for path in generated:
        surface = pygame.image.load_sized_svg(str(path), (125, 200))
        faces[path.name] = pygame.image.tobytes(surface, "RGBA")
    assert len(set(faces.values())) == 40


def test_cli_writes_to_the_requested_directory(tmp_path: Path) -> None:
    assert italian.main(["--out", str(tmp_path / "deck")]) == 0
    assert sorted(p.name for p in (tmp_path / "deck").glob("*.svg")) == EXPECTED_NAMES
