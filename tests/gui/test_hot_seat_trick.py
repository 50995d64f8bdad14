"""Hot seat: the trick a player's card completes stays on the table, its winner glowing and
named, before the screen is covered for the next player."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import DT, click_first_legal, key, start_table

from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.table.director import TIMINGS
from briscola.text.labels import means_you, trick_taken

pytestmark = pytest.mark.usefixtures("gui_home")


def test_the_player_who_completes_a_trick_sees_who_took_it_before_the_handover(
    app: App,
) -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 2
    for seat in setup.seats:
        seat.human = True
    scene = start_table(app, setup)
    session = scene.session
    played = 0
    shown: list[str] = []  # the banner of each frame the finished trick lay on the table
    for _frame in range(4000):
        if session.waiting_for is not None:
            if played == 2:
                break
            key(app, pygame.K_SPACE)  # the next player is ready
        if scene.awaiting_human and not scene.busy and played < 2:
            click_first_legal(app, scene)
            played += 1
        app.step(DT)
        table = scene.board.table
        if played == 2 and len(table) == 2 and any(sprite.glow for _s, sprite in table):
            banner = scene.captions.banner
            shown.append(banner[0]() if banner is not None else "")
    else:
        pytest.fail("the handover never came")
    trick = session.view().tricks[-1]
    winner = session.seats[trick.winner].name
    # Long enough to read, and it names the winner and the points.
    assert len(shown) * DT >= TIMINGS["hot-seat trick min"]
    said = trick_taken(winner, trick.points, means_you(winner))
    assert said.startswith("You take the trick" if winner == "You" else f"{winner} takes")
    assert all(text == said for text in shown)
