"""What the score screen shows about a finished hand (built by the table scene)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import Bid, Card, HandResult, Rules


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
    #: The engine record of the hand (JSON-ready), for "Save record".
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
