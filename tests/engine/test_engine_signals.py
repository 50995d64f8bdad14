"""Partner signals (segni) in the engine: the rule option, when a signal may be made, who
sees it (events, views, the view codec), and records that carry them."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.engine import (
    SIGNAL_KINDS,
    GameState,
    IllegalMoveError,
    ReplayError,
    Rules,
    Signal,
    Signalled,
    determinize,
    legal_signals,
    replay,
    signal_from_json,
    signal_kinds,
    to_record,
    view,
    view_from_json,
    view_signals,
)
from briscola.engine.signals import truthful
from tests.enginehelp import CONFIGS, IDS

#: Every configuration that may have signals, each way.
SIGNAL_CONFIGS = [
    Rules.preset(name, signals=mode)
    for name in ("teams4", "teams6", "chiamata5", "briscolone4")
    for mode in ("partner", "open")
] + [Rules.preset("teams4", signals="partner", partners_see="start", swap=True)]
SIGNAL_IDS = [f"{rules.name}-{rules.signals}{i}" for i, rules in enumerate(SIGNAL_CONFIGS)]


def allowed_to_see(state: GameState, signaller: int, viewer: int) -> bool:
    """The seat rule, written out independently of the engine's."""
    if state.rules.signals == "open":
        return True
    if viewer < 0:
        return False
    if viewer == signaller:
        return True
    if state.rules.teams:
        return viewer % 2 == signaller % 2
    calling = {state.caller, state.partner}
    return (viewer in calling) == (signaller in calling)


def play_with_signals(rules: Rules, seed: int, stop: int | None = None) -> GameState:
    """A random playout in which random seats make random signals whenever they may
    (``stop``: after that many moves of the play phase)."""
    rng = random.Random(seed)
    state = GameState.new(rules, rng, dealer=seed % rules.players)
    moves = 0
    while not state.is_terminal() and (stop is None or moves < stop):
        for seat in rng.sample(range(rules.players), rules.players):
            options = legal_signals(state, seat)
            if options and rng.random() < 0.4:
                state.signal(seat, rng.choice(options))
        moves += state.phase == "play"
        state.apply(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------------------- the option


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_a_signal_is_refused_when_the_option_is_off(rules: Rules) -> None:
    state = GameState.new(rules, random.Random(1))
    while not state.is_terminal():
        for seat in range(rules.players):
            assert legal_signals(state, seat) == []
            with pytest.raises(IllegalMoveError, match="not allowed by these rules"):
                state.signal(seat, Signal("ace"))
        state.apply(state.legal_actions()[0])
    assert state.signals == []
    assert "signals" not in to_record(state)
    assert "signals" not in view(state, 0).to_json()
    assert "signals" not in rules.to_dict()


@pytest.mark.parametrize("name", ["classic2", "classic3", "scoperta2", "briscolone2"])
def test_signals_need_a_team_or_briscola_chiamata(name: str) -> None:
    with pytest.raises(ValueError, match="signals are for team games and Briscola Chiamata"):
        Rules.preset(name, signals="partner")


def test_an_unknown_signals_mode_or_kind_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="signals must be one of off, partner, open"):
        Rules.preset("teams4", signals="loud")
    with pytest.raises(ValueError, match="signals must be a string"):
        Rules.from_dict({"preset": "teams4", "signals": 3})
    with pytest.raises(ValueError, match="unknown signal 'wink'"):
        Signal("wink")
    with pytest.raises(ValueError, match=re.escape('such as {"signal": "ace"}')):
        signal_from_json({"signal": "ace", "extra": 1})


def test_the_signals_option_round_trips_and_is_described() -> None:
    rules = Rules.preset("chiamata5", signals="open")
    assert Rules.from_dict(rules.to_dict()) == rules
    assert "signals (open)" in rules.describe()


def test_without_a_trump_only_signals_about_points_and_directions_are_offered() -> None:
    assert signal_kinds(Rules.preset("briscolone4", signals="partner")) == (
        "carico",
        "take",
        "leave",
    )
    assert signal_kinds(Rules.preset("teams4", signals="open")) == SIGNAL_KINDS


# ---------------------------------------------------------------------------- when


def test_a_signal_is_refused_out_of_turn_and_twice_in_a_trick() -> None:
    state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(3))
    leader = state.current_player
    assert leader is not None
    other = (leader + 3) % 4
    # Between tricks (nothing on the table) every seat may signal, once.
    state.signal(other, Signal("none"))
    with pytest.raises(IllegalMoveError, match="signalled in this trick already"):
        state.signal(other, Signal("ace"))
    state.apply(state.legal_actions()[0])
    for seat in (other, (leader + 2) % 4):
        with pytest.raises(IllegalMoveError, match="only on its turn or between tricks"):
            state.signal(seat, Signal("king"))
    mover = (leader + 1) % 4
    assert state.current_player == mover
    before = ([list(hand) for hand in state.hands], list(state.trick), state.legal_actions())
    state.signal(mover, Signal("leave"))
    assert ([list(hand) for hand in state.hands], list(state.trick), state.legal_actions()) == (
        before
    )
    with pytest.raises(IllegalMoveError, match="signalled in this trick already"):
        state.signal(mover, Signal("take"))
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    state.signal(other, Signal("ace"))  # a new trick: it may signal again


def test_in_chiamata_signals_start_once_the_partner_is_revealed() -> None:
    rules = Rules.preset("chiamata5", signals="partner")
    for seed in range(30):
        state = GameState.new(rules, random.Random(seed))
        while not state.is_terminal():
            for seat in range(5):
                may = legal_signals(state, seat)
                if state.phase != "play" or not state.partner_revealed:
                    assert may == []
                elif state.caller == state.partner and seat == state.caller:
                    assert may == []  # alone: nobody to signal to
            state.apply(state.legal_actions()[-1])


def test_a_signal_never_changes_the_card_play() -> None:
    rules = Rules.preset("teams4", signals="open")
    plain = GameState.new(rules, random.Random(11))
    signalled = GameState.new(rules, random.Random(11))
    rng = random.Random(5)
    while not plain.is_terminal():
        assert plain.legal_actions() == signalled.legal_actions()
        action = rng.choice(plain.legal_actions())
        for seat in range(4):
            options = legal_signals(signalled, seat)
            if options:
                signalled.signal(seat, options[0])
        plain.apply(action)
        signalled.apply(action)
    assert signalled.outcome() == plain.outcome()
    assert signalled.signals


# ---------------------------------------------------------------------------- who sees


@pytest.mark.parametrize("rules", SIGNAL_CONFIGS, ids=SIGNAL_IDS)
def test_signals_reach_exactly_the_seats_allowed_in_events_and_views(rules: Rules) -> None:
    made = 0
    for seed in range(6):
        state = play_with_signals(rules, seed, stop=None if seed % 2 else 19)
        made += len(state.signals)
        for viewer in range(-1, rules.players):
            wanted = [s for s in state.signals if allowed_to_see(state, s.seat, viewer)]
            got = [e for e in state.events_for(viewer) if isinstance(e, Signalled)]
            assert got == wanted
            if viewer < 0:
                continue
            seen = view(state, viewer)
            assert list(seen.signals) == wanted
            assert view_from_json(json.loads(json.dumps(seen.to_json()))) == seen
            text = json.dumps(seen.to_json())
            for hidden in state.signals:
                if hidden not in wanted:
                    assert hidden not in seen.signals
            assert ('"signals": [' in text) == bool(wanted)
    assert made, "the playouts should have made signals"


@given(seed=st.integers(0, 10_000), index=st.integers(0, len(SIGNAL_CONFIGS) - 1))
@settings(max_examples=25, deadline=None)
def test_an_opponent_never_learns_a_partner_only_signal(seed: int, index: int) -> None:
    rules = SIGNAL_CONFIGS[index]
    state = play_with_signals(rules, seed, stop=seed % 30)
    for signaller in range(rules.players):
        for viewer in range(rules.players):
            made = [s for s in state.signals if s.seat == signaller]
            shown = [s for s in view(state, viewer).signals if s.seat == signaller]
            if allowed_to_see(state, signaller, viewer):
                assert shown == made
            else:
                assert shown == []
                assert rules.signals == "partner"


@pytest.mark.parametrize("rules", SIGNAL_CONFIGS, ids=SIGNAL_IDS)
def test_a_view_offers_the_signals_the_engine_allows(rules: Rules) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = GameState.new(rules, rng)
        while not state.is_terminal():
            for seat in range(rules.players):
                assert view_signals(view(state, seat)) == legal_signals(state, seat)
            seat = rng.randrange(rules.players)
            if legal_signals(state, seat):
                state.signal(seat, rng.choice(legal_signals(state, seat)))
            state.apply(rng.choice(state.legal_actions()))


def test_a_determinized_state_keeps_the_signals_its_seat_saw() -> None:
    state = play_with_signals(Rules.preset("teams4", signals="partner"), 4, stop=10)
    seen = view(state, 0)
    sample = determinize(seen, random.Random(2))
    assert view(sample, 0) == seen


# ---------------------------------------------------------------------------- records


@pytest.mark.parametrize("rules", SIGNAL_CONFIGS, ids=SIGNAL_IDS)
def test_records_round_trip_with_signals(rules: Rules) -> None:
    for seed in range(5):
        state = play_with_signals(rules, seed, stop=None if seed < 3 else 7 + seed)
        doc = json.loads(json.dumps(to_record(state)))
        assert len(doc.get("signals", [])) == len(state.signals)
        again = replay(doc)
        assert again.signals == state.signals
        # (a signal made between a swap and its card replays before the swap)
        assert [e for e in again.events if not isinstance(e, Signalled)] == [
            e for e in state.events if not isinstance(e, Signalled)
        ]
        for seat in range(rules.players):
            assert view(again, seat) == view(state, seat)
        assert to_record(again) == to_record(state)


def test_replay_refuses_a_signal_that_could_not_have_been_made() -> None:
    rules = Rules.preset("teams4", signals="partner")
    state = play_with_signals(rules, 8)
    doc = to_record(state)
    first = doc["signals"][0]
    twice = json.loads(json.dumps(doc))
    twice["signals"].insert(0, dict(first))
    with pytest.raises(ReplayError, match="signalled in this trick already"):
        replay(twice)
    late = json.loads(json.dumps(doc))
    late["signals"].append({"seat": 0, "kind": "ace", "trick": 30, "at": 0})
    with pytest.raises(ReplayError, match="was never made"):
        replay(late)
    off = json.loads(json.dumps(doc))
    del off["rules"]["signals"]
    with pytest.raises(ReplayError, match="these rules allow no signals"):
        replay(off)
    bad = json.loads(json.dumps(doc))
    bad["signals"][0]["kind"] = "wink"
    with pytest.raises(ReplayError, match="unknown signal 'wink'"):
        replay(bad)
    bad["signals"][0] = {"seat": "x", "kind": "ace", "trick": 0, "at": 0}
    with pytest.raises(ReplayError, match="non-negative whole numbers"):
        replay(bad)


def test_truthful_claims_follow_the_hand() -> None:
    from briscola.engine import Suit, cards_from_codes

    hand = cards_from_codes("KB 4B 3C")
    trump = Suit.CLUBS
    kinds = [k for k in SIGNAL_KINDS if truthful(k, hand, trump)]
    assert kinds == ["king", "trump", "carico", "take", "leave"]
    assert truthful("none", cards_from_codes("AD 3S 5D"), trump)
