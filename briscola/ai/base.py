"""The bot interface and the random player."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from briscola.engine import PASS, Action, Bid, PlayerView

__all__ = ["Bot", "RandomBot"]


@runtime_checkable
class Bot(Protocol):
    """A computer player: it sees a :class:`PlayerView`, never a game state."""

    name: str

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal`` (it is this seat's turn)."""
        ...


class RandomBot:
    """Plays a uniformly random legal card (swaps included). In the Chiamata auction it
    passes seven times in ten, otherwise makes the least ambitious bid, so that auctions
    end sensibly."""

    def __init__(self, rng: random.Random | None = None, time_limit: float | None = None) -> None:
        self.name = "random"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if view.phase == "auction":
            bids = [a for a in legal if isinstance(a, Bid)]
            if PASS in legal and (not bids or self.rng.random() < 0.7):
                return PASS
            return bids[0]
        return legal[int(self.rng.random() * len(legal))]
