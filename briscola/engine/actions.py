"""Actions a seat can take: play a card, swap the briscola, bid or pass, call a card.

Each action is a small frozen value with a text form (``str``) that :func:`parse_action`
reads back, and a JSON form used by records and the bot protocol:

>>> action = parse_action("3S")
>>> action
Play(card=Card.from_code('3S'))
>>> str(action), action.to_json()
('3S', {'play': '3S'})
>>> parse_action("bid 2/64"), action_from_json({"bid": "K"})
(Bid(rank=<Rank.TWO: 2>, points=64), Bid(rank=<Rank.KING: 10>, points=61))
>>> [str(parse_action(text)) for text in ("swap 7D", "pass", "call AC", "bid A")]
['swap 7D', 'pass', 'call AC', 'bid A']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from briscola.engine.cards import Card, Rank

__all__ = [
    "PASS",
    "Action",
    "Bid",
    "Call",
    "IllegalMoveError",
    "Pass",
    "Play",
    "Swap",
    "action_from_json",
    "parse_action",
]

#: The least a Chiamata bid can promise.
MIN_BID_POINTS: Final = 61


class IllegalMoveError(ValueError):
    """An action that the rules do not allow in the current state."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from the hand to the trick."""

    card: Card

    def __str__(self) -> str:
        return self.card.code

    def to_json(self) -> dict[str, Any]:
        return {"play": self.card.code}


@dataclass(frozen=True, slots=True)
class Swap:
    """Exchange the 7 (or 2) of trump in hand for the face-up briscola."""

    card: Card

    def __str__(self) -> str:
        return f"swap {self.card.code}"

    def to_json(self) -> dict[str, Any]:
        return {"swap": self.card.code}


@dataclass(frozen=True, slots=True, order=False)
class Bid:
    """A Chiamata bid: call a card of ``rank`` and take at least ``points`` with the partner.

    Bids go down the ranks (Ace, 3, King, ... 2), then continue as "2 and N points".
    """

    rank: Rank
    points: int = MIN_BID_POINTS

    def __post_init__(self) -> None:
        if not MIN_BID_POINTS <= self.points <= 120:
            raise ValueError(f"a bid promises 61 to 120 points, got {self.points}")
        if self.points != MIN_BID_POINTS and self.rank != Rank.TWO:
            raise ValueError("only the Two is bid with more than 61 points ('2 and N points')")

    def __str__(self) -> str:
        if self.points == MIN_BID_POINTS:
            return f"bid {self.rank.code}"
        return f"bid {self.rank.code}/{self.points}"

    def to_json(self) -> dict[str, Any]:
        return {"bid": str(self)[4:]}


@dataclass(frozen=True, slots=True)
class Pass:
    """Leave the Chiamata auction."""

    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> dict[str, Any]:
        return {"pass": True}


@dataclass(frozen=True, slots=True)
class Call:
    """The auction's winner calls a card; its suit becomes trump, its holder the partner."""

    card: Card

    def __str__(self) -> str:
        return f"call {self.card.code}"

    def to_json(self) -> dict[str, Any]:
        return {"call": self.card.code}


Action = Play | Swap | Bid | Pass | Call

PASS: Final = Pass()


def _parse_bid(text: str) -> Bid:
    rank_text, _, points_text = text.partition("/")
    try:
        rank = Rank.from_code(rank_text.strip())
        points = int(points_text) if points_text else MIN_BID_POINTS
    except ValueError:
        raise ValueError(f"invalid bid {text!r}: expected a rank such as 'K' or '2/64'") from None
    return Bid(rank, points)


def parse_action(text: str) -> Action:
    """Parse the text form of an action (``"3S"``, ``"swap 7D"``, ``"bid K"``, ``"bid 2/70"``,
    ``"pass"``, ``"call AC"``)."""
    words = text.strip().split()
    if len(words) == 1 and words[0].lower() == "pass":
        return PASS
    if len(words) == 1:
        return Play(Card.from_code(words[0]))
    if len(words) == 2:
        verb, arg = words[0].lower(), words[1]
        if verb == "play":
            return Play(Card.from_code(arg))
        if verb == "swap":
            return Swap(Card.from_code(arg))
        if verb == "call":
            return Call(Card.from_code(arg))
        if verb == "bid":
            return _parse_bid(arg)
    raise ValueError(f"invalid action {text!r}")


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Parse the JSON form of an action: ``{"play": "3S"}``, ``{"swap": "7D"}``,
    ``{"bid": "2/64"}``, ``{"pass": true}``, ``{"call": "AC"}``."""
    if not isinstance(data, Mapping):
        raise ValueError('an action must be a JSON object such as {"play": "3S"}')
    keys = [key for key in ("play", "swap", "bid", "pass", "call") if key in data]
    if len(keys) != 1:
        raise ValueError(
            "an action needs exactly one of the keys play, swap, bid, pass, call;"
            f" got {sorted(data)}"
        )
    key = keys[0]
    value = data[key]
    if key == "pass":
        return PASS
    if not isinstance(value, str):
        raise ValueError(f"action {key!r} needs a string value, got {value!r}")
    if key == "bid":
        return _parse_bid(value)
    card = Card.from_code(value)
    if key == "swap":
        return Swap(card)
    if key == "call":
        return Call(card)
    return Play(card)
