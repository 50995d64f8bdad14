"""Events: what happened, in order, for the GUI to animate and for logs.

The engine appends events to :attr:`GameState.events`. A viewer must only see what their seat
may know: :meth:`GameState.events_for` hides the face of cards dealt or drawn face down to
other seats (their ``card`` becomes ``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from briscola.engine.actions import Action, Bid, Call, Pass, Play, Swap
from briscola.engine.cards import Card

if TYPE_CHECKING:
    from briscola.engine.scoring import HandResult
    from briscola.engine.tricks import Trick

__all__ = [
    "Auction",
    "BriscolaTurned",
    "Called",
    "Dealt",
    "Drew",
    "Event",
    "HandOver",
    "HandStarted",
    "MatchOver",
    "PartnerRevealed",
    "Played",
    "Signalled",
    "Swapped",
    "TrickWon",
    "action_of",
]


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand: the dealer has shuffled ``deck_size`` cards."""

    dealer: int
    deck_size: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """One card dealt face down to ``seat`` (``card`` is None when hidden from the viewer)."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class BriscolaTurned:
    """The briscola is turned face up under the stock; its suit is trump."""

    card: Card


@dataclass(frozen=True, slots=True)
class Auction:
    """A Chiamata bid, or a pass when ``bid`` is None."""

    seat: int
    bid: Bid | None


@dataclass(frozen=True, slots=True)
class Called:
    """The auction's winner called ``card``; its suit is trump."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Swapped:
    """``seat`` put ``gave`` (7 or 2 of trump) face up and took the old briscola ``took``."""

    seat: int
    gave: Card
    took: Card


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PartnerRevealed:
    """The called card was played: ``seat`` is the caller's partner (the caller when alone)."""

    seat: int
    alone: bool


@dataclass(frozen=True, slots=True)
class Signalled:
    """``seat`` made the partner signal ``kind`` (a segno, :mod:`briscola.engine.signals`)
    during trick ``trick`` (0-based) with ``at`` cards on the table. Only the seats allowed
    to see it (:func:`~briscola.engine.signals.may_see`) find it among their events."""

    seat: int
    kind: str
    trick: int
    at: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick: Trick


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew a card from the stock; ``face_up`` when everyone saw it (the briscola,
    or the top card in scoperta). ``card`` is None when hidden from the viewer."""

    seat: int
    card: Card | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class HandOver:
    result: HandResult


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is decided: ``winners`` are side indexes (seats in Chiamata); empty: drawn."""

    winners: tuple[int, ...]
    standing: tuple[int, ...]


Event = (
    HandStarted
    | Dealt
    | BriscolaTurned
    | Auction
    | Called
    | Swapped
    | Played
    | PartnerRevealed
    | Signalled
    | TrickWon
    | Drew
    | HandOver
    | MatchOver
)


def action_of(event: Event) -> Action | None:
    """The action an event records (a bid or pass, the call, a swap, a card played), or None
    for an event that is no action: the moves of a hand read back from its events."""
    match event:
        case Auction(bid=bid):
            return bid if bid is not None else Pass()
        case Called(card=card):
            return Call(card)
        case Swapped(gave=gave):
            return Swap(gave)
        case Played(card=card):
            return Play(card)
    return None
