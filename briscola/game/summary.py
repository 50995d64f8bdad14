"""What the score screen shows about a finished hand: one :class:`HandSummary`, built the
same way from the engine's state (a local match) or from a seat's view (an online one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from briscola.engine import Bid, Card, HandResult, MatchOver, Rules, Trick


@dataclass
class HandSummary:
    rules: Rules
    #: Seat names, seat 0 first.
    names: list[str]
    result: HandResult
    #: Cards taken by each side of ``result.sides``, in the order they were won.
    piles: list[list[Card]]
    #: 1-based number of the hand in the match.
    hand_number: int
    #: Match standing after this hand: one value per side (per seat in Chiamata): hands
    #: won, card points (points matches) or match points (Chiamata).
    standing: list[int]
    match_over: bool
    #: Winning sides of the match (seats in Chiamata) once over; empty: drawn.
    match_winners: tuple[int, ...] = ()
    #: The record of the hand (JSON-ready), for "Save record".
    record: dict[str, Any] = field(default_factory=dict)
    #: Chiamata only.
    bid: Bid | None = None
    caller: int | None = None
    partner: int | None = None
    called: Card | None = None
    #: The seat whose point of view the screen takes ("you"), None for a demo or hot-seat.
    viewer: int | None = None

    def side_name(self, side: int) -> str:
        """Names of the seats of a side joined with '&'."""
        return " & ".join(self.names[seat] for seat in self.result.sides[side])


class FinishedHand(Protocol):
    """What a summary reads of a finished hand: a :class:`~briscola.engine.GameState` or
    any seat's :class:`~briscola.engine.PlayerView` (every card has been played face up)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def high_bid(self) -> Bid | None: ...
    @property
    def caller(self) -> int | None: ...
    @property
    def partner(self) -> int | None: ...
    @property
    def called(self) -> Card | None: ...


def summarize(
    hand: FinishedHand,
    result: HandResult,
    *,
    names: Sequence[str],
    hand_number: int,
    standing: Sequence[int],
    over: MatchOver | None,
    record: dict[str, Any],
    viewer: int | None,
) -> HandSummary:
    """The summary of a finished ``hand`` whose outcome is ``result``."""
    return HandSummary(
        rules=hand.rules,
        names=list(names),
        result=result,
        piles=[
            [card for trick in hand.tricks if trick.winner in side for card in trick.cards]
            for side in result.sides
        ],
        hand_number=hand_number,
        standing=list(standing),
        match_over=over is not None,
        match_winners=over.winners if over is not None else (),
        record=record,
        bid=hand.high_bid,
        caller=hand.caller,
        partner=hand.partner,
        called=hand.called,
        viewer=viewer,
    )
