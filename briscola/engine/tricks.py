"""What a hand leaves behind as it is played: its tricks and its briscola swaps."""

from __future__ import annotations

from dataclasses import dataclass

from briscola.engine.cards import Card

__all__ = ["SwapRecord", "Trick"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: ``cards[i]`` was played by ``seats[i]``; ``seats[0]`` led."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int
    points: int

    @property
    def leader(self) -> int:
        return self.seats[0]


@dataclass(frozen=True, slots=True)
class SwapRecord:
    """A briscola swap made before the play of trick number ``trick`` (0-based)."""

    trick: int
    seat: int
    gave: Card
    took: Card
