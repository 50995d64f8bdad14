"""The hand a guest keeps when the table ends under it: a record built from what its seat
saw, every move as played, the cards it never saw placed where every move stays legal."""

from __future__ import annotations

import dataclasses
import random

import pytest

from briscola.client.kept import seen_record
from briscola.engine import VARIANTS, GameState, Rules, replay, view, view_signals


def _cut(rules: Rules, seed: int) -> GameState:
    """A hand of ``rules`` played at random (signals too) and stopped somewhere."""
    rng = random.Random(seed)
    state = GameState.new(rules, rng, dealer=seed % rules.players)
    for _ in range(rng.randrange(1, 120)):
        if state.is_terminal():
            break
        signals = view_signals(view(state, state.current_player)) if state.phase == "play" else ()
        if signals and rng.random() < 0.3:
            state.signal(state.current_player, rng.choice(list(signals)))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "rules",
    [variant.rules for variant in VARIANTS]
    + [
        dataclasses.replace(Rules.preset("teams4"), signals="partner", partners_see="start"),
        dataclasses.replace(Rules.preset("chiamata5"), signals="open"),
    ],
    ids=lambda rules: rules.name,
)
def test_every_seat_keeps_a_record_that_replays_the_moves_it_saw(rules: Rules) -> None:
    for seed in range(12):
        state = _cut(rules, seed)
        for seat in range(rules.players):
            seen = state.events_for(seat)
            doc = seen_record(rules, seat, seen, {"unfinished": "host_gone"})
            assert doc is not None, (seed, seat)
            again = replay(doc)
            assert [t.cards for t in again.tricks] == [t.cards for t in state.tricks]
            assert again.trick == state.trick and again.points == state.points
            assert again.hands[seat] == state.hands[seat], "its own cards as they were"
            assert again.swaps == state.swaps and again.caller == state.caller
            assert doc["meta"]["seen_by"] == seat and doc["meta"]["unfinished"] == "host_gone"
            guessed = set(doc["meta"]["guessed"])
            for place, card in enumerate(doc["deck"]):
                if place not in guessed:
                    assert state.deck[place].code == card, "what the seat saw is as it was"


def test_a_seat_that_did_not_follow_suit_is_given_none_of_it() -> None:
    rules = Rules.preset("briscolone4")
    tried = 0
    for seed in range(40):
        state = GameState.new(rules, random.Random(seed))
        while not state.is_terminal() and len(state.tricks) < 5:
            state.apply(state.legal_actions()[-1])
        if not any(card.suit is not t.cards[0].suit for t in state.tricks for card in t.cards):
            continue
        tried += 1
        for seat in range(rules.players):
            doc = seen_record(rules, seat, state.events_for(seat), {})
            assert doc is not None
            assert [t.cards for t in replay(doc).tricks] == [t.cards for t in state.tricks]
    assert tried >= 5, "hands where a seat did not follow suit"


def test_nothing_is_kept_before_a_move_or_from_events_of_other_rules() -> None:
    rules = Rules.preset("classic2")
    state = GameState.new(rules, random.Random(2))
    assert seen_record(rules, 0, state.events_for(0), {}) is None, "nothing played yet"
    state.apply(state.legal_actions()[0])
    assert seen_record(rules, 0, state.events_for(0), {}) is not None
    assert seen_record(Rules.preset("classic3"), 0, state.events_for(0), {}) is None
