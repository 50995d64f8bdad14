"""The coach in the Briscola Chiamata auction: the bid (or the call) to make, and why.

:func:`advise_bid` suggests what the computer players would do in the seat's place
(:mod:`briscola.ai.bidding`) and gives the facts behind it: the suit that would be trump,
the card that would be called, how many trumps the hand holds, how many Aces and Threes
outside it, and the points the calling side can expect (the same estimate the computers
bid on). The GUI words it (:func:`briscola.text.coachtext.bid_text`).

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("chiamata5"), random.Random(2))
>>> advice = advise_bid(view(state, state.current_player))
>>> advice.key in BID_REASONS
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from briscola.ai.bidding import BID_THRESHOLD, choose_bid, choose_call, hand_value
from briscola.engine import PASS, Action, Bid, Call, Card, PlayerView, Rank, Suit

__all__ = ["BID_REASONS", "BidAdvice", "advise_bid"]

#: Message ids, with what each says.
BID_REASONS: Final[dict[str, str]] = {
    "bid": "the hand is strong enough for the bid with the suit and card named",
    "bid_forced": "everyone else passed: the seat must bid, the least it may",
    "pass": "even the best suit for the lowest bid open leaves the hand short",
    "call": "calls the card that makes the strongest hand: its suit becomes trump",
}


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """What to do now in the auction or the call (``action``), and the facts why."""

    key: str
    action: Action
    #: The suit that would be trump and the card that would be called.
    trump: Suit
    called: Card
    #: Trumps in the hand, and Aces and Threes in the other suits.
    trumps: int
    tops: int
    #: Points the calling side can expect (the computers' estimate), and what the
    #: computers want for the bid in question.
    value: float
    needed: float
    #: The bid the facts are about (for a pass: the lowest bid still open).
    bid: Bid | None = None


def _best(seen: PlayerView, rank: Rank) -> tuple[float, Card]:
    """The suit (and so the card called) that makes ``seen``'s hand best for ``rank``."""
    strength = seen.rules.strength
    scored = [(hand_value(seen.hand, suit, Card(rank, suit), strength), suit) for suit in Suit]
    value, suit = max(scored, key=lambda pair: pair[0])  # the first suit on a tie
    return value, Card(rank, suit)


def _needed(bid: Bid) -> float:
    return BID_THRESHOLD + (bid.points - 61)


def _facts(seen: PlayerView, key: str, action: Action, rank: Rank, bid: Bid | None) -> BidAdvice:
    strength = seen.rules.strength
    value, called = _best(seen, rank)
    trump = called.suit
    tops = sum(1 for c in seen.hand if c.suit is not trump and strength[c.rank] >= 9)
    return BidAdvice(
        key=key,
        action=action,
        trump=trump,
        called=called,
        trumps=sum(1 for c in seen.hand if c.suit is trump),
        tops=tops,
        value=value,
        needed=_needed(bid) if bid is not None else 0.0,
        bid=bid,
    )


def advise_bid(seen: PlayerView) -> BidAdvice:
    """The coach's bid or call for ``seen`` (its seat is to bid or call now); ValueError
    otherwise."""
    if seen.phase == "call" and any(isinstance(a, Call) for a in seen.legal):
        action = choose_call(seen)
        assert isinstance(action, Call)
        strength = seen.rules.strength
        card = action.card
        trump = card.suit
        return BidAdvice(
            key="call",
            action=action,
            trump=trump,
            called=card,
            trumps=sum(1 for c in seen.hand if c.suit is trump),
            tops=sum(1 for c in seen.hand if c.suit is not trump and strength[c.rank] >= 9),
            value=hand_value(seen.hand, trump, card, strength),
            needed=0.0,
        )
    bids = [a for a in seen.legal if isinstance(a, Bid)]
    if seen.phase != "auction" or not bids:
        raise ValueError("nothing to advise: this seat is not to bid or call")
    action = choose_bid(seen)
    if isinstance(action, Bid):
        advice = _facts(seen, "bid", action, action.rank, action)
        if PASS not in seen.legal and advice.value < advice.needed:
            return replace(advice, key="bid_forced")
        return advice
    lowest = bids[0]  # the least ambitious bid still open
    return _facts(seen, "pass", action, lowest.rank, lowest)
