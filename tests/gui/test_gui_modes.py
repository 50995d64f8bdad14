"""Chiamata through the table by injected input, a killed process resumed, full demo matches."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from guihelp import click, make_app, run_until, start

from briscola.engine import PRESETS, Bid, Rules
from briscola.game.setup import default_setup, demo_setup
from briscola.gui.scenes.table import TableScene
from briscola.storage.autosave import Autosave

ROOT = Path(__file__).resolve().parents[2]


def test_chiamata_auction_and_call_by_clicks() -> None:
    Autosave().clear()
    setup = default_setup(Rules.preset("chiamata5"), "easy")
    setup.seed = 8
    app = make_app()
    scene = start(app, TableScene(app, setup))
    assert isinstance(scene, TableScene)
    assert run_until(app, lambda: scene.awaiting_human)
    assert scene.session.state is not None and scene.session.state.phase == "auction"
    names = {getattr(w, "name", "") for w in scene.auction.controls.widgets}
    assert "pass" in names or any(n.startswith("bid:") for n in names)
    # Bid the Ace (the highest bid: everybody else must pass or go lower) by clicking.
    ace = next(w for w in scene.auction.controls.widgets if getattr(w, "name", "") == "bid:A")
    click(app, ace.rect.center)
    assert scene.session.state.bids[0][0] == 0
    bid = scene.session.state.bids[0][1]
    assert isinstance(bid, Bid) and bid.rank.code == "A"
    # Keep passing if asked again, until the auction ends.
    while scene.session.state.phase == "auction":
        assert run_until(
            app, lambda: scene.awaiting_human or scene.session.state.phase != "auction"
        )  # type: ignore[union-attr]
        if scene.session.state.phase != "auction":
            break
        pass_button = next(
            w for w in scene.auction.controls.widgets if getattr(w, "name", "") == "pass"
        )
        click(app, pass_button.rect.center)
    if scene.session.state.high_bidder == 0:
        assert run_until(app, lambda: scene.session.state.phase != "call" or scene.awaiting_human)  # type: ignore[union-attr]
        calls = [
            w for w in scene.auction.controls.widgets if getattr(w, "name", "").startswith("call:")
        ]
        assert len(calls) == 4
        click(app, calls[2].rect.center)
        assert scene.session.state.called is not None and scene.session.state.phase == "play"
    assert run_until(app, lambda: scene.session.state.phase == "play")  # type: ignore[union-attr]
    assert scene.session.state.trump is not None
    # Play on to the end: the partner is revealed at some point.
    while not scene.session.state.is_terminal():
        assert run_until(app, lambda: scene.awaiting_human or scene.session.state.is_terminal())  # type: ignore[union-attr]
        if scene.session.state.is_terminal():
            break
        scene.play_card(scene.legal_cards()[0])
    assert scene.board.revealed_partner is not None or scene.session.state.partner_revealed
    app.close()


def test_a_killed_game_resumes_in_a_new_process_in_the_same_state(tmp_path: Path) -> None:
    """Process 1 plays a few tricks and is killed (SIGKILL) mid-hand; a new process offers
    Continue and restores the exact hand."""
    script = textwrap.dedent(
        """
        import json, os, signal, sys
        sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/tests")
        from guihelp import make_app, run_until, start
        from briscola.engine import Rules, to_record
        from briscola.gui.scenes.table import TableScene
        from briscola.game.setup import default_setup

        def main():
            setup = default_setup(Rules.preset("classic2", match="best-of-3"), "medium")
            setup.seed = 77
            app = make_app()
            scene = start(app, TableScene(app, setup))
            for _ in range(5):
                assert run_until(app, lambda: scene.awaiting_human)
                scene.play_card(scene.legal_cards()[0])
            assert run_until(app, lambda: scene.awaiting_human)
            state = scene.session.state
            print(json.dumps({"hands": [[c.code for c in h] for h in state.hands],
                              "tricks": len(state.tricks), "current": state.current_player,
                              "record": to_record(state)}), flush=True)
            app.storage.autosave.flush()  # the background write of the last move has landed
            os.kill(os.getpid(), signal.SIGKILL)

        if __name__ == "__main__":
            main()
        """
    )
    path = tmp_path / "killed.py"
    path.write_text(script)
    env = dict(os.environ, BRISCOLA_HOME=str(tmp_path / "home"))
    done = subprocess.run(
        [sys.executable, str(path), str(ROOT)], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == -9, done.stderr
    expected = json.loads(done.stdout.strip().splitlines()[-1])
    check = textwrap.dedent(
        """
        import json, sys
        sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/tests")
        from guihelp import make_app, start
        from briscola.engine import to_record
        from briscola.gui.scenes.menu import MenuScene

        def main():
            app = make_app()
            menu = start(app, MenuScene(app))
            assert menu.continue_button.enabled
            menu.resume()
            app.apply_requests()
            table = app.scene
            state, match = table.session.state, table.session.match
            print(json.dumps({"hands": [[c.code for c in h] for h in state.hands],
                              "tricks": len(state.tricks), "current": state.current_player,
                              "record": to_record(state), "standing": match.standing}))
            app.close()

        if __name__ == "__main__":
            main()
        """
    )
    path2 = tmp_path / "resume.py"
    path2.write_text(check)
    done = subprocess.run(
        [sys.executable, str(path2), str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout.strip().splitlines()[-1])
    # Autosave happens after every move: the restored hand is exactly the killed one.
    assert resumed["record"] == expected["record"]
    assert resumed["tricks"] == expected["tricks"]
    assert resumed["hands"] == expected["hands"]
    assert resumed["current"] == expected["current"]
    assert resumed["record"]["deck"] == expected["record"]["deck"]
    assert resumed["standing"] == [0, 0]


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_full_match_of_every_preset_through_the_gui_in_demo(preset: str) -> None:
    setup = demo_setup(preset, 5)
    for seat in setup.seats:
        seat.level = "medium" if seat.level == "hard" else seat.level
    app = make_app(size=(1024, 600))
    app.settings.speed = "off"
    scene = start(app, TableScene(app, setup, demo=True))
    assert isinstance(scene, TableScene)
    assert run_until(app, lambda: scene.session.match.is_over(), max_frames=60000)
    assert scene.hands_played == len(scene.session.match.results) >= 1
    app.close()


def test_closing_the_window_stops_the_loop_without_drawing_one_more_frame() -> None:
    import pygame

    from briscola.gui.scenes.menu import MenuScene

    app = make_app((1280, 720))
    try:
        start(app, MenuScene(app))
        app.step(1 / 60)
        drawn = app.frame
        app.running = True  # as inside App.loop
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        app.step(1 / 60)
        assert not app.running and app.frame == drawn
    finally:
        app.close()
