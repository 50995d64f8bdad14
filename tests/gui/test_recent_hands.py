"""Every hand finished at the table is kept among the recent hands, and the replays list it
(no "Save record" needed); the lesson's and the demo's hands are not kept."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import play_out_by_clicks, table_at_my_turn

from briscola.engine import Rules, replay
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.replay import load_entries
from briscola.storage.recent import recent_dir

pytestmark = pytest.mark.usefixtures("gui_home")


def test_a_finished_hand_can_be_replayed_without_saving_it(app: App) -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 9
    scene = table_at_my_turn(app, setup)
    play_out_by_clicks(app, scene)
    kept = list(recent_dir().glob("*.json"))
    assert len(kept) == 1
    entries = load_entries()
    assert [entry.path for entry in entries] == kept
    state = scene.session.view()
    assert tuple(replay(entries[0].doc).points) == tuple(state.points)
