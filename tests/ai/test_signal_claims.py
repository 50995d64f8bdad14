"""Signals that name no single card still tell the search something: "a smaller trump" and
"a carico" (at least one such card, until the signaller plays one), "no trump" after a draw
(at most one trump per draw since). The hard search deals only samples that meet every
claim still true (:func:`briscola.ai.search.sampling.sample_hands`)."""

from __future__ import annotations

import random
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.ai.knowledge import Knowledge
from briscola.ai.search.sampling import deal_of, meets_claims, sample_hands
from briscola.ai.signals import Claim, signal_claims
from briscola.engine import Card, GameState, Play, Rank, Rules, Signal, view
from briscola.engine.signals import truthful
from tests.ai.signalhelp import signalled_playout

RULES = Rules.preset("teams4", signals="partner")


def claim_cards(kind: str, state: GameState) -> set[Card]:
    """The cards of the deck a true ``kind`` is about."""
    trump = state.trump
    high = (Rank.ACE, Rank.THREE, Rank.KING)
    if kind == "trump":
        return {c for c in RULES.deck if c.suit is trump and c.rank not in high}
    return {c for c in RULES.deck if c.suit is not trump and c.rank in (Rank.ACE, Rank.THREE)}


def partner_signalled(kind: str, seed: int) -> GameState:
    """A teams4 deal (dealer 1: seat 2 leads) where seat 2, seat 0's partner, truthfully
    signals ``kind`` before its first card; seat 0 does not hold every card it is about."""
    for attempt in range(500):
        state = GameState.new(RULES, random.Random(seed * 1000 + attempt), dealer=1)
        mine = {*state.hands[0], state.briscola}
        if truthful(kind, state.hands[2], state.trump) and (
            kind == "none" or not claim_cards(kind, state) <= mine
        ):
            state.signal(2, Signal(kind))
            return state
    raise AssertionError(f"no deal gives seat 2 a true {kind!r}")


@pytest.mark.parametrize("kind", ["trump", "carico"])
def test_a_partners_smaller_trump_or_carico_holds_in_every_sample(kind: str) -> None:
    state = partner_signalled(kind, 1)
    seen = view(state, 0)
    (claim,) = signal_claims(seen)
    assert claim.seat == 2 and claim.least == 1
    assert claim.cards == claim_cards(kind, state) - set(seen.hand) - {seen.briscola}
    deal = deal_of(seen)
    rng = random.Random(5)
    for _ in range(40):
        sampled = sample_hands(deal, rng)
        assert sampled is not None and meets_claims(deal, sampled[0])
    # Without the signal, the same seat's hand often lacks such a card: the claim matters.
    plain = deal_of(view(GameState.new(RULES, random.Random(0), dealer=1), 0))
    wanted = {c.index for c in claim.cards}
    lacking = 0
    for _ in range(40):
        sampled = sample_hands(plain, rng)
        assert sampled is not None
        lacking += not wanted & set(sampled[0][2])
    assert lacking > 0


def test_a_claim_is_spent_once_the_signaller_plays_such_a_card() -> None:
    state = partner_signalled("carico", 2)
    cards = claim_cards("carico", state)
    load = next(c for c in state.hands[2] if c in cards)
    state.apply(Play(load))
    assert signal_claims(view(state, 0)) == ()


def test_no_trump_allows_one_trump_per_draw_since() -> None:
    state = partner_signalled("none", 3)
    assert signal_claims(view(state, 0)) == ()  # before a draw it is a void, not a count
    while len(state.tricks) < 2:
        state.apply(state.legal_actions()[0])
    seen = view(state, 0)
    trumps_played = sum(
        1
        for trick in state.tricks
        for seat, card in zip(trick.seats, trick.cards, strict=True)
        if seat == 2 and card.suit is state.trump
    )
    (claim,) = signal_claims(seen)
    assert claim == Claim(2, frozenset(claim.cards), 0, 2 - trumps_played) and claim.cards <= {
        c for c in RULES.deck if c.suit is state.trump
    }
    deal = deal_of(seen)
    rng = random.Random(6)
    for _ in range(30):
        sampled = sample_hands(deal, rng)
        assert sampled is not None
        assert sum(1 for c in sampled[0][2] if Card.from_index(c).suit is state.trump) <= 2


def test_a_seat_reads_no_claim_in_its_own_signal() -> None:
    state = partner_signalled("trump", 4)
    assert signal_claims(view(state, 2)) == ()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_computer_signals_never_make_a_claim_the_true_hand_breaks(seed: int) -> None:
    """Played out by computers signalling the truth, on their turns and between tricks,
    every claim a seat reads holds of the real hands: the claims never exclude the truth."""
    for state, _made in signalled_playout(RULES, seed):
        for reader in range(4):
            for claim in signal_claims(view(state, reader)):
                held = sum(1 for c in state.hands[claim.seat] if c in claim.cards)
                assert claim.least <= held <= claim.most, (claim, state.hands[claim.seat])


def test_medium_counts_a_partners_smaller_trump_in_its_odds() -> None:
    """Medium's card counting conditions on the claim: the partner more likely holds a
    trump that takes a side card, and exactly as the hypergeometric odds say."""
    state = partner_signalled("trump", 5)
    told = Knowledge.of(view(state, 0))
    plain = Knowledge.of(view(GameState.new(RULES, random.Random(0), dealer=1), 0))
    (claim,) = told.claims
    trumps = [c for c in told.unseen if c.suit is state.trump]
    assert told.p_holds_any(2, trumps) == 1.0  # a smaller trump is a trump
    some = set(sorted(claim.cards)[:2])
    u, h = len(told.unseen), told.hidden[2]
    s, b = len(claim.cards), len(some)
    expected = 1.0 - (comb(u - b, h) - comb(u - s, h)) / (comb(u, h) - comb(u - s, h))
    assert told.p_holds_any(2, some) == pytest.approx(expected)
    assert told.p_holds_any(2, some) > 1.0 - comb(u - b, h) / comb(u, h)
    assert plain.claims == ()
