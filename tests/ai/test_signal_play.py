"""Computer partners act on a person's signals: "let it go" keeps a trump off a cheap trick,
"take it" takes a trick from the opponents, and medium's card counting places a partner's
claimed trumps (or its lack of them). Each in a fixed position where the signal changes
the choice: teams4, dealer 0, seat 1 leads the first trick, seat 2 (seat 0's partner)
answers it; seat 0 signals between tricks, before the lead."""

from __future__ import annotations

import random

import pytest

from briscola.ai import make_bot
from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.ai.signals import partner_direction
from briscola.engine import Card, GameState, Play, PlayerView, Rules, Signal, Suit, view
from briscola.engine.signals import truthful

RULES = Rules.preset("teams4", signals="partner")

#: seed, the lead of seat 1, seat 2's hand, the trump, seat 0's signal, seat 2's card
#: without the signal and with it.
POSITIONS = [
    (200, "7C", "3S 6S 6B", Suit.SWORDS, "leave", "3S", "6B"),
    (2, "7S", "5D 6C 2B", Suit.COINS, "take", "2B", "5D"),
    (367, "JS", "3C 7C JB", Suit.CUPS, "ace", "3C", "JB"),
    (327, "7C", "3S 5D QC", Suit.CUPS, "three", "5D", "3S"),
    (56, "JD", "JB 6S 6C", Suit.SWORDS, "none", "JB", "6C"),
    # A smaller trump: the partner, last to play, likely takes the trump lead: load the Three.
    (24, "5B", "7B KC 3D", Suit.CLUBS, "trump", "KC", "3D"),
    # A carico fills a place of the partner's hand: a trump to beat the lead is less likely.
    (240, "2D", "3C QC 6S", Suit.COINS, "carico", "3C", "6S"),
]


def position(seed: int, lead: str, signal: str | None) -> tuple[GameState, PlayerView]:
    state = GameState.new(RULES, random.Random(seed), dealer=0)
    if signal is not None:
        assert truthful(signal, state.hands[0], state.trump)
        state.signal(0, Signal(signal))
    state.apply(Play(Card.from_code(lead)))
    return state, view(state, 2)


@pytest.mark.parametrize(("seed", "lead", "hand", "trump", "kind", "without", "with_"), POSITIONS)
def test_medium_changes_its_card_for_a_partners_signal(
    seed: int, lead: str, hand: str, trump: Suit, kind: str, without: str, with_: str
) -> None:
    state, plain = position(seed, lead, None)
    assert " ".join(c.code for c in plain.hand) == hand and state.trump is trump
    assert medium_action(plain) == Play(Card.from_code(without))
    _state, told = position(seed, lead, kind)
    assert medium_action(told) == Play(Card.from_code(with_))


def test_let_it_go_keeps_a_trump_off_a_cheap_trick() -> None:
    _state, plain = position(200, "7C", None)
    _state, told = position(200, "7C", "leave")
    assert partner_direction(told) == "leave" and partner_direction(plain) is None
    assert Card.from_code("3S").suit is told.trump
    assert medium_action(told) != Play(Card.from_code("3S"))


def test_hard_lets_it_go_too_and_places_a_claimed_ace() -> None:
    """A "let it go" changes the default hard's card; a claimed Ace changes it when its
    veto keeps medium's rules (``prior=medium``; in team games the default keeps the
    learned medium's card, which plays the Jack here with or without the claim)."""
    for seed, lead, kind, without, with_, prior in (
        (200, "7C", "leave", "3S", "6B", "auto"),
        (367, "JS", "ace", "3C", "JB", "medium"),
    ):
        hard = HardBot(random.Random(1), budget=3000, min_samples=4, prior=prior)
        assert hard.choose(position(seed, lead, None)[1]) == Play(Card.from_code(without))
        hard = HardBot(random.Random(1), budget=3000, min_samples=4, prior=prior)
        assert hard.choose(position(seed, lead, kind)[1]) == Play(Card.from_code(with_))


@pytest.mark.parametrize(
    ("seed", "lead", "kind", "asked"), [(200, "7C", "leave", "6B"), (2, "7S", "take", "5D")]
)
def test_the_default_medium_and_hard_answer_a_partner_who_asks(
    seed: int, lead: str, kind: str, asked: str
) -> None:
    """The learned medium (trained without signals) answers "take it" and "let it go" as
    the hand-written rules do, and so does hard."""
    _state, told = position(seed, lead, kind)
    assert make_bot("medium", random.Random(0)).choose(told) == Play(Card.from_code(asked))
    hard = HardBot(random.Random(1), budget=3000, min_samples=4)
    assert hard.choose(told) == Play(Card.from_code(asked))


def test_an_opponents_direction_or_an_old_one_is_not_followed() -> None:
    rules = Rules.preset("teams4", signals="open")
    state = GameState.new(rules, random.Random(200), dealer=0)
    state.signal(3, Signal("leave"))  # an opponent of seat 2, seen by all with open signals
    state.apply(Play(Card.from_code("7C")))
    seen = view(state, 2)
    assert seen.signals and partner_direction(seen) is None
    assert medium_action(seen) == Play(Card.from_code("3S"))
    old = GameState.new(RULES, random.Random(200), dealer=0)
    old.signal(0, Signal("leave"))
    for _i in range(4):  # the trick the request was for is over
        seat = old.current_player
        assert seat is not None
        old.apply(medium_action(view(old, seat)))
    assert old.current_player is not None
    assert partner_direction(view(old, 2)) is None
