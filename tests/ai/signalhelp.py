"""Random playouts by computers that signal as the game's do, for the signal tests
(tests/ai/test_signals.py, tests/ai/test_signal_claims.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from briscola.ai.signals import choose_signal, signals_between
from briscola.engine import GameState, Rules, Signalled, view


def signalled_playout(rules: Rules, seed: int) -> Iterator[tuple[GameState, list[Signalled]]]:
    """A hand of ``rules`` played out at random (seed ``seed``) by computers that signal by
    the convention, as :class:`~briscola.game.driver.MatchDriver` has them: between tricks,
    before the lead, every other seat (:func:`~briscola.ai.signals.signals_between`), then
    the mover on its turn. Before each move it yields the state and the signals just made,
    in order: the hands are still those each signal was made with, and the caller may
    check the state before the random legal move is applied."""
    rng = random.Random(seed)
    state = GameState.new(rules, rng)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        made = signals_between(state, lambda _seat: True)
        chosen = choose_signal(view(state, seat))
        if chosen is not None:
            made.append(state.signal(seat, chosen))
        yield state, made
        state.apply(rng.choice(state.legal_actions()))
