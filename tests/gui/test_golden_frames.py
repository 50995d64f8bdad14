"""Golden frames: the table drawn at fixed moments of seeded hands must not change.

A seeded hand (one human at the bottom who always plays the first legal card, easy
computers) is rendered headless at 1280x720 with the Italian and the French deck at a few
moments: after the deal, mid-trick, after tricks were taken, on the score screen; a
Chiamata auction panel, the hot-seat privacy screen and the last-trick panel too. Each frame
is compared, scaled down to 512x288, with a stored PNG under ``tests/golden/frames``: a
pixel counts as changed when a channel moves by more than ``CHANNEL``, and a frame fails
when more than ``SHARE`` of its pixels changed (fonts and anti-aliasing are identical on one
machine; the tolerance absorbs rounding, not a moved card or a changed word).

Update the frames only for a deliberate visual change, described in the commit::

    BRISCOLA_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/gui/test_golden_frames.py

(a failing comparison also writes ``<name>.actual.png`` and ``<name>.diff.png`` next to the
test's temporary folder for a look).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from guihelp import make_app, run_until, start

from briscola.engine import Rules
from briscola.game.setup import GameSetup, SeatConfig, default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene
from briscola.storage.autosave import Autosave

FRAMES = Path(__file__).resolve().parents[1] / "golden" / "frames"
SIZE = (1280, 720)
STORED = (512, 288)
CHANNEL = 32
SHARE = 0.0001
UPDATE = os.environ.get("BRISCOLA_GOLDEN_UPDATE") == "1"
DECKS = ("italian", "french")


@pytest.fixture(autouse=True)
def _clean_home() -> None:
    Autosave().clear()


def _app(tmp_path: Path, deck: str) -> App:
    return make_app(SIZE, deck=deck, lang="en", settings_path=tmp_path / "settings.json")


def _frame(app: App) -> pygame.Surface:
    app.draw()
    return pygame.transform.smoothscale(app.screen, STORED)


def _changed_share(a: pygame.Surface, b: pygame.Surface) -> tuple[float, pygame.Surface]:
    """The share of pixels that differ by more than ``CHANNEL`` in a channel, and a map of
    them (white where changed)."""
    w, h = a.get_size()
    diff = pygame.Surface((w, h))
    left, right = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    if left == right:
        return 0.0, diff
    changed = 0
    for i in range(0, len(left), 3):
        if (
            abs(left[i] - right[i]) > CHANNEL
            or abs(left[i + 1] - right[i + 1]) > CHANNEL
            or abs(left[i + 2] - right[i + 2]) > CHANNEL
        ):
            changed += 1
            diff.set_at(divmod(i // 3, w)[::-1], (255, 255, 255))
    return changed / (w * h), diff


def _check(name: str, frame: pygame.Surface, tmp_path: Path) -> None:
    path = FRAMES / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden frame {path.name}: run with BRISCOLA_GOLDEN_UPDATE=1")
        FRAMES.mkdir(parents=True, exist_ok=True)
        pygame.image.save(frame, str(path))
        return
    stored = pygame.image.load(str(path))
    assert stored.get_size() == frame.get_size(), f"{name}: stored at another size"
    share, diff = _changed_share(frame, stored)
    if share > SHARE:
        pygame.image.save(frame, str(tmp_path / f"{name}.actual.png"))
        pygame.image.save(diff, str(tmp_path / f"{name}.diff.png"))
        pytest.fail(
            f"{name}: {share:.2%} of the pixels changed (at most {SHARE:.2%}); "
            f"see {tmp_path}/{name}.actual.png and .diff.png"
        )


def _seeded(preset: str, seed: int, **opts: object) -> GameSetup:
    setup = default_setup(Rules.preset(preset, **opts), "easy")
    setup.seed = seed
    return setup


def _settled(app: App, table: TableScene, condition: Callable[[], bool]) -> None:
    assert run_until(app, lambda: condition() and not table.busy)


@pytest.mark.parametrize("deck", DECKS)
def test_a_seeded_classic_hand_looks_as_it_did(deck: str, tmp_path: Path) -> None:
    app = _app(tmp_path, deck)
    table = start(app, TableScene(app, _seeded("classic2", 7)))
    assert isinstance(table, TableScene)
    frames: dict[str, pygame.Surface] = {}
    _settled(app, table, lambda: table.awaiting_human)
    frames["deal"] = _frame(app)
    played = 0
    while type(app.scene) is TableScene:
        if not run_until(app, lambda: table.awaiting_human or type(app.scene) is not TableScene):
            pytest.fail("the hand did not go on")
        if type(app.scene) is not TableScene:
            break
        table.play_card(table.legal_cards()[0])
        played += 1
        if played == 1:
            _settled(app, table, lambda: True)
            frames["mid-trick"] = _frame(app)
        if played == 3:
            _settled(app, table, lambda: table.awaiting_human)
            frames["taken"] = _frame(app)
            table.toggle_last()
            frames["last-trick"] = _frame(app)
            table.toggle_last()
    assert played == 20
    assert run_until(app, lambda: type(app.scene).__name__ == "ScoreScene")
    app.step(1 / 60)
    frames["score"] = _frame(app)
    for moment, frame in frames.items():
        _check(f"classic2-{deck}-{moment}", frame, tmp_path)


@pytest.mark.parametrize("deck", DECKS)
def test_a_seeded_chiamata_auction_looks_as_it_did(deck: str, tmp_path: Path) -> None:
    app = _app(tmp_path, deck)
    table = start(app, TableScene(app, _seeded("chiamata5", 4)))
    assert isinstance(table, TableScene)
    _settled(app, table, lambda: table.awaiting_human)
    app.step(1 / 60)  # the auction panel is made on the first frame of the turn
    _check(f"chiamata5-{deck}-auction", _frame(app), tmp_path)


def test_the_hot_seat_privacy_screen_looks_as_it_did(tmp_path: Path) -> None:
    app = _app(tmp_path, "italian")
    rules = Rules.preset("classic2")
    setup = GameSetup(rules, [SeatConfig("Ada", human=True), SeatConfig("Bea", human=True)], 3)
    table = start(app, TableScene(app, setup))
    assert isinstance(table, TableScene)
    _settled(app, table, lambda: table.privacy is not None)
    _check("hotseat-italian-privacy", _frame(app), tmp_path)
