"""The Undo button against computers: offered in every configuration alike, enabled exactly
when there is a move of the hand to take back (Briscola Chiamata included: a bid, the call
or a card), and a click takes it back."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random

import pytest
from guihelp import DT, click, run_until, start_table

from briscola.engine import PlayerView, Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.assist import moved_this_hand

pytestmark = pytest.mark.usefixtures("gui_home")


def at_my_turn(app: App, table: TableScene) -> bool:
    """Frames until the player is to move (False when the hand ended first)."""
    run_until(app, lambda: table.awaiting_human or table.session.hand_over, 5000)
    app.step(DT)
    return table.awaiting_human


@pytest.mark.parametrize(("preset", "seed"), [("chiamata5", 4), ("chiamata5", 2), ("classic2", 1)])
def test_undo_is_enabled_exactly_when_a_move_of_the_hand_can_be_taken_back(
    app: App, preset: str, seed: int
) -> None:
    app.settings.speed = "off"
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = seed
    table = start_table(app, setup)
    button = table.assist.undo_button
    rng = random.Random(seed)
    undone: set[str] = set()
    turns = 0
    while at_my_turn(app, table) and turns < 60:
        turns += 1
        seen = table.session.view()
        assert button.visible, "offered at every turn of a game against computers"
        assert button.enabled == moved_this_hand(seen), (seen.phase, seen.bids, seen.tricks)
        if button.enabled and seen.phase not in undone and rng.random() < 0.6:
            before = table.session.view()
            click(app, button.rect.center)
            app.step(DT)
            after = table.session.view()
            assert after.phase != before.phase or len(after.hand) >= len(before.hand)

            def where(v: PlayerView) -> tuple[str, int, int, int]:
                return v.phase, len(v.bids), len(v.tricks), len(v.table)

            assert where(after) != where(before), "the click took a move back"
            undone.add(seen.phase)
            continue
        table.submit(rng.choice(table.session.legal_actions()))
    assert undone, "an undo was tried"
    if preset == "chiamata5":
        assert "play" in undone
