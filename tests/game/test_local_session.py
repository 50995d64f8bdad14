"""The table's session, without a window: what a local session shows each seat and how it
plays computers, hot-seat privacy and whole hands through the ``TableSession`` protocol."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import Future

from briscola.ai.base import Bot
from briscola.engine import (
    Action,
    Card,
    Dealt,
    HandStarted,
    Play,
    Played,
    PlayerView,
    Rules,
    Signal,
    view_signals,
)
from briscola.engine.view import view
from briscola.game.local import LocalSession
from briscola.game.session import TableSession
from briscola.game.setup import GameSetup, SeatConfig, default_setup, demo_setup
from briscola.storage.autosave import Autosave


class NowRunner:
    """Computer players think at once, on the caller's thread."""

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        future: Future[tuple[Action, Bot]] = Future()
        future.set_result((bot.choose(seen), bot))
        return future


def _session(setup: GameSetup, **options: object) -> LocalSession:
    return LocalSession(setup, NowRunner(), pace=lambda: 0.0, **options)  # type: ignore[arg-type]


def _run(session: TableSession, until: object, frames: int = 2000) -> bool:
    for _i in range(frames):
        if until():  # type: ignore[operator]
            return True
        session.new_events()
        session.advance(0.1, True)
    return bool(until())  # type: ignore[operator]


def test_the_session_module_never_imports_pygame() -> None:
    code = "import sys, briscola.game.session; sys.exit('pygame' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_demo_session_plays_a_whole_hand_of_computers_and_sums_it_up() -> None:
    session = _session(demo_setup("classic2", 3), demo=True)
    session.start()
    events = session.new_events()
    assert isinstance(events[0], HandStarted)
    dealt = [event for event in events if isinstance(event, Dealt)]
    assert all((event.card is not None) == (event.seat == 0) for event in dealt)
    assert session.shown_seat == 0 and session.legal_actions() == []
    assert _run(session, lambda: session.hand_over)
    summary = session.finish_hand()
    assert summary is not None and summary.hand_number == 1 and summary.viewer is None
    assert sum(summary.result.side_points) == 120
    assert session.hand_number == 1
    session.next_hand()
    assert session.hand_number == 2 and not session.hand_over


def test_the_events_of_another_seat_hide_its_cards() -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 4
    session = _session(setup)
    session.start()
    dealt = [event for event in session.new_events() if isinstance(event, Dealt)]
    assert {event.card is None for event in dealt if event.seat == 1} == {True}
    assert {event.card is None for event in dealt if event.seat == 0} == {False}


def test_a_human_move_is_taken_only_when_legal_and_only_for_the_shown_seat() -> None:
    Autosave().clear()
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 6
    session = _session(setup)
    session.start()
    assert _run(session, lambda: session.legal_actions() != [])
    view = session.view()
    assert session.to_play == 0 == view.seat and session.plays_here(0)
    illegal = next(Card.from_index(i) for i in range(40) if Card.from_index(i) not in view.hand)
    assert not session.submit(Play(illegal))
    assert session.submit(session.legal_actions()[0])
    assert session.legal_actions() == []
    assert any(isinstance(event, Played) for event in session.new_events())
    session.close()


def test_hot_seat_hides_the_hands_after_a_move_and_waits_for_the_next_player() -> None:
    rules = Rules.preset("classic2")
    setup = GameSetup(rules, [SeatConfig("Ada", human=True), SeatConfig("Bea", human=True)], 2)
    session = _session(setup)
    session.start()
    assert session.shown_seat is None and session.new_events() == []
    session.advance(0.1, True)
    first = session.waiting_for
    assert first is not None and session.legal_actions() == []
    session.reveal()
    assert session.shown_seat == first and session.waiting_for is None
    assert session.submit(session.legal_actions()[0])
    assert session.new_events(), "the move is shown to the player who made it"
    assert session.shown_seat is None
    session.advance(0.1, True)
    assert session.waiting_for == 1 - first
    session.close()


def test_the_view_made_once_a_state_is_the_view_of_the_state_at_every_step() -> None:
    """The session keeps the view it made until the hand's state changes: after every move,
    signal, deal and undo it is the view made afresh."""
    rules = Rules.preset("teams4", signals="partner", match="best-of-3")
    setup = default_setup(rules, "easy")
    setup.seed = 11
    session = _session(setup)
    session.start()
    seen_states = set()
    undone = False
    for _step in range(400):
        state = session.state
        assert state is not None
        assert session.view() == view(state, session.view().seat)
        assert session.view() is session.view(), "made once while nothing changes"
        seen_states.add(id(state))
        if session.hand_over:
            session.finish_hand()
            session.next_hand()
            continue
        legal = session.legal_actions()
        if legal:
            offered = [s.kind for s in view_signals(session.view())]
            if offered:
                session.send_signal(Signal(offered[-1]))
                assert session.view() == view(state, 0)
            assert session.submit(legal[-1])
            if not undone and len(state.trick) == 0 and session.can_undo and session.undo():
                undone = True
        session.new_events()
        session.advance(0.1, True)
    assert undone and len(seen_states) >= 3, "a move taken back and a new hand were seen"
    session.close()
