"""The regional deck generators (Spanish, Piacentine, Siciliane): deterministic, committed,
drawn only with what the SVG renderer draws, and faithful to what defines each pattern."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools
import re
from pathlib import Path
from types import ModuleType

import pygame
import pytest

from tools.cardgen import piacentine, siciliane, spanish

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "assets" / "cards"
GENERATORS: dict[str, ModuleType] = {
    "spanish": spanish,
    "piacentine": piacentine,
    "siciliane": siciliane,
}
FACES = sorted(f"{rank}{suit}.svg" for rank in "A234567JQK" for suit in "DCSB")
UNSUPPORTED = re.compile(r"<(text|use|filter|mask|clipPath|style|image)\b|class=|style=")


pytestmark = pytest.mark.usefixtures("pygame_running")


@pytest.fixture(scope="module", params=sorted(GENERATORS))
def generated(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, list[Path]]:
    deck = request.param
    return deck, GENERATORS[deck].generate(tmp_path_factory.mktemp(deck))


def test_a_generator_writes_the_forty_faces_and_a_back(generated: tuple[str, list[Path]]) -> None:
    _deck, paths = generated
    assert sorted(p.name for p in paths) == sorted([*FACES, "back.svg"])


def test_generating_twice_gives_the_same_bytes(
    generated: tuple[str, list[Path]], tmp_path: Path
) -> None:
    deck, paths = generated
    again = GENERATORS[deck].generate(tmp_path)
    assert [p.name for p in again] == [p.name for p in paths]
    for first, second in zip(paths, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


def test_the_committed_files_are_what_the_generator_writes(
    generated: tuple[str, list[Path]],
) -> None:
    deck, paths = generated
    for fresh in paths:
        committed = CARDS / deck / fresh.name
        assert committed.read_bytes() == fresh.read_bytes(), (
            f"{deck}/{fresh.name} is stale: run python -m tools.cardgen.{deck}"
        )


def test_only_elements_the_renderer_draws(generated: tuple[str, list[Path]]) -> None:
    for path in generated[1]:
        text = path.read_text(encoding="utf-8")
        assert 'viewBox="0 0 250 400"' in text.splitlines()[0], path.name
        assert not UNSUPPORTED.search(text), path.name


def test_the_cli_writes_where_asked(tmp_path: Path) -> None:
    for deck, module in GENERATORS.items():
        assert module.main(["--out", str(tmp_path / deck)]) == 0
        assert len(list((tmp_path / deck).glob("*.svg"))) == 41


def frame_breaks(path: Path, frame_y: float, width: int = 300) -> int:
    """Count the breaks in the frame line along the top edge, between the index and the middle
    (-1: no line)."""
    height = width * 400 // 250
    image = pygame.image.load_sized_svg(str(path), (width, height))
    scale = width / 250
    rows = [round(frame_y * scale) + d for d in (-1, 0, 1)]
    dark = [
        min(sum(image.get_at((x, y))[:3]) for y in rows) < 3 * 140
        for x in range(round(56 * scale), round(125 * scale))
    ]
    if not any(dark):
        return -1  # no frame line there at all
    return sum(1 for a, b in itertools.pairwise(dark) if a and not b)


@pytest.mark.parametrize(("suit", "breaks"), [("D", 0), ("C", 1), ("S", 2), ("B", 3)])
def test_the_spanish_frame_line_tells_the_suit_by_its_breaks(suit: str, breaks: int) -> None:
    for rank in ("A", "4", "K"):
        assert frame_breaks(CARDS / "spanish" / f"{rank}{suit}.svg", 15) == breaks, rank


def test_spanish_figures_are_numbered_ten_to_twelve() -> None:
    assert [spanish.INDEX[rank] for rank in "JQK"] == ["10", "11", "12"]
    assert spanish.pinta_gaps("D") == 0 and spanish.pinta_gaps("B") == 3


@pytest.mark.parametrize(("deck", "frame_y"), [("piacentine", 8), ("siciliane", 7)])
def test_the_italian_patterns_have_no_pinta(deck: str, frame_y: float) -> None:
    for suit in "DCSB":
        assert frame_breaks(CARDS / deck / f"4{suit}.svg", frame_y) == 0, suit


def test_siciliane_figures_stand_on_a_ground_coloured_by_their_rank() -> None:
    for rank in "JQK":
        want = pygame.Color(siciliane.GROUND[rank])
        for suit in "DCSB":
            image = pygame.image.load_sized_svg(
                str(CARDS / "siciliane" / f"{rank}{suit}.svg"), (250, 400)
            )
            got = image.get_at((33, 344))
            assert (got.r, got.g, got.b) == (want.r, want.g, want.b), (rank, suit)
