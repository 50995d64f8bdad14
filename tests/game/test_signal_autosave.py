"""A partner signal is kept the moment it is made: a game that stops before the next card
comes back with the signal in the hand (the autosave, ``briscola/storage/autosave.py``)."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

from briscola.ai.base import Bot
from briscola.engine import Action, PlayerView, Rules, Signal, view_signals
from briscola.game.local import LocalSession
from briscola.game.setup import GameSetup, default_setup
from briscola.storage.autosave import Autosave


class NowRunner:
    """Computer players think at once, on the caller's thread."""

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        future: Future[tuple[Action, Bot]] = Future()
        future.set_result((bot.choose(seen), bot))
        return future


def _session(setup: GameSetup, keeper: Autosave, **options: object) -> LocalSession:
    return LocalSession(setup, NowRunner(), pace=lambda: 0.0, keeper=keeper, **options)  # type: ignore[arg-type]


def _to_my_turn(session: LocalSession) -> None:
    for _i in range(2000):
        if session.legal_actions():
            return
        session.new_events()
        session.advance(0.1, True)
    raise AssertionError("the person's turn never came")


def test_a_signal_survives_a_crash_before_the_next_card(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    keeper = Autosave(path)
    setup = default_setup(Rules.preset("teams4", signals="partner"), "easy")
    setup.seed = 3
    session = _session(setup, keeper)
    session.start()
    _to_my_turn(session)
    offered = view_signals(session.view())
    assert Signal("take") in offered
    assert session.send_signal(Signal("take"))
    made = session.view().signals[-1]
    assert (made.seat, made.kind) == (0, "take")
    keeper.flush()  # the background write has reached the disk; then the "crash"
    del session

    saved, notice = Autosave(path).load()
    assert notice is None and saved is not None and saved.state is not None
    assert saved.state.signals[-1] == made
    resumed = _session(saved.setup, Autosave(path), match=saved.match, state=saved.state)
    assert resumed.view().signals[-1] == made
    assert not resumed.send_signal(Signal("leave"))  # still one signal a trick
    resumed.close()


def test_a_computers_signal_is_kept_before_its_card(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    keeper = Autosave(path)
    setup = default_setup(Rules.preset("teams4", signals="open"), "easy")
    setup.seed = 3
    session = _session(setup, keeper)
    session.start()
    state = session.state
    assert state is not None
    for _i in range(400):  # the computers' first signal (between tricks or on a turn)
        if state.signals and state.signals[-1].seat != 0:
            break
        session.new_events()
        session.advance(0.1, True)
        if session.legal_actions():
            assert session.submit(session.legal_actions()[0])
    made = state.signals[-1]
    assert made.seat != 0
    keeper.flush()
    saved, _notice = Autosave(path).load()
    assert saved is not None and saved.state is not None
    assert made in saved.state.signals
    # kept at once: the saved hand is where the signal was made, no card later
    assert (len(saved.state.tricks), len(saved.state.trick)) == (len(state.tricks), made.at)
    session.close()
