"""Random-playout invariants for every configuration (OpenSpiel's random-simulation test),
information-leak tests, determinization and the fast simulator."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from enginehelp import CONFIGS, IDS, positions, to_move
from hypothesis import given
from hypothesis import strategies as st

from briscola.engine import (
    Card,
    Drew,
    GameState,
    IllegalMoveError,
    Play,
    Rules,
    Sim,
    Swap,
    determinize,
    replay,
    to_record,
    view,
)


def _places(state: GameState) -> Counter[Card]:
    where: Counter[Card] = Counter()
    for hand in state.hands:
        where.update(hand)
    where.update(state.stock)
    where.update(state.trick)
    for pile in state.piles:
        where.update(pile)
    return where


def _check_invariants(state: GameState) -> None:
    state.validate()
    places = _places(state)
    assert set(places) == set(state.rules.deck), "every card of the deck somewhere"
    assert all(count == 1 for count in places.values()), "every card in exactly one place"
    if state.is_terminal():
        assert state.legal_actions() == []


def test_validate_names_what_is_broken() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    state.validate()
    broken = state.clone()
    broken.hands[0].append(broken.hands[1][0])
    with pytest.raises(ValueError, match="two places"):
        broken.validate()
    broken = state.clone()
    broken.stock.pop()
    with pytest.raises(ValueError, match="missing"):
        broken.validate()
    broken = state.clone()
    broken.points[0] = 5
    with pytest.raises(ValueError, match="points"):
        broken.validate()


def _random_game(rules: Rules, seed: int, check_every_step: bool = True) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(rules, rng, dealer=seed % rules.players)
    while not state.is_terminal():
        if check_every_step:
            _check_invariants(state)
        actions = state.legal_actions()
        state.apply(rng.choice(actions))
    _check_invariants(state)
    return state


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_random_playouts_keep_every_invariant(rules: Rules) -> None:
    for seed in range(40):
        state = _random_game(rules, seed)
        result = state.outcome()
        assert sum(result.points) == 120
        assert len(state.tricks) == rules.tricks_per_hand
        assert all(not hand for hand in state.hands) and not state.stock
        if rules.chiamata:
            assert sum(result.returns) == 0


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_reproduces_any_random_game(rules: Rules, seed: int) -> None:
    state = _random_game(rules, seed, check_every_step=False)
    again = replay(to_record(state))
    assert again.points == state.points
    assert again.tricks == state.tricks
    assert again.outcome() == state.outcome()
    assert again.swaps == state.swaps


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_illegal_actions_raise_and_change_nothing(rules: Rules) -> None:
    rng = random.Random(5)
    state = GameState.new(rules, rng)
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        before = to_record(state)
        other = next(s for s in range(rules.players) if s != seat)
        if state.hands[other]:
            with pytest.raises(IllegalMoveError):
                state.apply(Play(state.hands[other][0]))
        if state.phase == "play":
            with pytest.raises(IllegalMoveError):
                state.apply(Swap(Card.from_code("AD") if rules.swap else state.hands[seat][0]))
        assert to_record(state) == before
        state.apply(rng.choice(legal))


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_illegal_action_error_is_a_value_error(rules: Rules) -> None:
    assert issubclass(IllegalMoveError, ValueError)


# ---------------------------------------------------------------- information leaks


def _permute_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game for ``seat``'s eyes with the cards it cannot see shuffled around."""
    seen = view(state, seat)
    other = determinize(seen, rng)
    # Keep the real deck and events out of it: only compare views.
    return other


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_a_view_is_unchanged_when_hidden_cards_are_permuted(rules: Rules) -> None:
    rng = random.Random(17)
    for seed in range(6):
        state = GameState.new(rules, random.Random(seed))
        game_rng = random.Random(seed + 100)
        while not state.is_terminal():
            for seat in range(rules.players):
                seen = view(state, seat)
                twin = _permute_hidden(state, seat, rng)
                assert view(twin, seat) == seen
                # The hidden cards really moved somewhere for someone (sanity of the test).
            state.apply(game_rng.choice(state.legal_actions()))


def _shuffle_hidden_in_place(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A real twin of ``state`` whose cards hidden from ``seat`` (other hands' unknown cards
    and the face-down stock) are shuffled among the same places."""
    seen = view(state, seat)
    twin = state.clone()
    slots: list[tuple[list[Card], int]] = []
    for other, hand in enumerate(twin.hands):
        if other != seat:
            slots += [(hand, i) for i, card in enumerate(hand) if card not in seen.known[other]]
    face_up = {seen.stock_top, twin.briscola if seen.briscola_in_stock else None}
    slots += [(twin.stock, i) for i, card in enumerate(twin.stock) if card not in face_up]
    cards = [place[i] for place, i in slots]
    rng.shuffle(cards)
    for (place, i), card in zip(slots, cards, strict=True):
        place[i] = card
    if twin.called is not None and not twin.partner_revealed:
        twin.partner = next(s for s, h in enumerate(twin.hands) if twin.called in h)
    return twin


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_a_view_holds_no_card_its_seat_cannot_see(rules: Rules) -> None:
    """Shuffle the cards a seat cannot see among their places in the real state: the seat's
    view must not change, at every step of random games."""
    rng = random.Random(3)
    moved = 0
    for seed in range(5):
        for state in positions(rules, seed):
            for seat in range(rules.players):
                twin = _shuffle_hidden_in_place(state, seat, rng)
                moved += twin.hands != state.hands
                assert view(twin, seat) == view(state, seat)
    assert moved > 0


def test_events_for_hide_other_seats_cards() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    for seat in (0, 1):
        for event in state.events_for(seat):
            card = getattr(event, "card", None)
            event_seat = getattr(event, "seat", None)
            if event_seat is not None and event_seat != seat:
                assert card is None
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    for event in state.events_for(0):
        if isinstance(event, Drew) and event.seat == 1:
            assert (event.card is None) != event.face_up


# ---------------------------------------------------------------- determinization


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_determinized_states_agree_with_the_view_and_play_on(rules: Rules) -> None:
    rng = random.Random(2)
    state = GameState.new(rules, random.Random(8))
    while not state.is_terminal():
        seen = to_move(state)
        sample = determinize(seen, rng)
        assert view(sample, seen.seat) == seen
        _check_invariants_partial(sample)
        copy = sample.clone()
        while not copy.is_terminal():
            copy.apply(rng.choice(copy.legal_actions()))
        assert sum(copy.outcome().points) == 120
        state.apply(rng.choice(state.legal_actions()))


def _check_invariants_partial(state: GameState) -> None:
    places = _places(state)
    assert all(count == 1 for count in places.values())
    assert set(places) == set(state.rules.deck)


def test_determinize_respects_follow_suit_voids() -> None:
    rules = Rules.preset("briscolone4")
    rng = random.Random(0)
    checked = 0
    for seed in range(60):
        for state in positions(rules, seed):
            seen = to_move(state)
            if any(seen.voids):
                checked += 1
                for _ in range(5):
                    sample = determinize(seen, rng)
                    for other, suits in enumerate(seen.voids):
                        if other != seen.seat:
                            assert not any(c.suit in suits for c in sample.hands[other])
    assert checked > 20


# ---------------------------------------------------------------- fast simulator


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_sim_plays_exactly_like_the_state(rules: Rules) -> None:
    for seed in range(15):
        rng = random.Random(seed)
        state = GameState.new(rules, rng)
        while state.phase in ("auction", "call"):
            state.apply(rng.choice(state.legal_actions()))
        sim = Sim.from_state(state)
        while not state.is_terminal():
            plays = [a for a in state.legal_actions() if isinstance(a, Play)]
            assert sorted(sim.legal()) == sorted(a.card.index for a in plays)
            assert sim.turn == state.current_player
            action = rng.choice(plays)
            state.apply(action)
            sim.play(action.card.index)
        assert sim.is_over()
        result = state.outcome()
        if rules.sides:
            assert tuple(sim.points) == result.side_points
        else:
            assert sorted(sim.points) == sorted(result.side_points)


def test_fast_playouts_agree_with_stepping_the_sim() -> None:
    """Sim.playout (and the two-player playout2 under it) makes the same random choices
    as stepping Sim.play with the same random stream, and reaches the same points."""
    for name in ("classic2", "teams4", "briscolone2", "chiamata5"):
        for seed in range(30):
            state = GameState.new(Rules.preset(name), random.Random(seed))
            while state.phase in ("auction", "call"):
                state.apply(state.legal_actions()[0])
            sim = Sim.from_state(state)
            fast = sim.clone().playout(random.Random(seed))
            assert sum(fast) == 120
            stepped = sim.clone()
            rand = random.Random(seed).random
            while not stepped.is_over():
                options = stepped.legal()
                stepped.play(options[int(rand() * len(options))])
            assert stepped.points == fast, (name, seed)
