"""``pimc``: the plain Perfect Information Monte Carlo baseline (see :mod:`briscola.ai.search`)."""

from __future__ import annotations

import random
import time

from briscola.ai.medium import medium_action
from briscola.engine import Action, Play, PlayerView, Sim, Swap, determinize

__all__ = ["PimcBot"]


class PimcBot:
    """A plain baseline: ``budget`` uniform determinizations, one random playout per legal
    card in each, the card with the most points on average wins. No inference; the auction,
    the call and swaps come from medium's rules."""

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        budget: int = 48,
    ) -> None:
        self.name = "pimc"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit
        self.budget = budget

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if len(legal) == 1 or view.phase != "play":
            return legal[0] if len(legal) == 1 else medium_action(view)
        for action in legal:
            if isinstance(action, Swap):
                return action
        plays = [a for a in legal if isinstance(a, Play)]
        totals = [0.0] * len(plays)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        samples = 0
        while samples < self.budget:
            if deadline is not None and samples and time.perf_counter() > deadline:
                break
            sim = Sim.from_state(determinize(view, self.rng))
            side = sim.side[view.seat]
            for i, action in enumerate(plays):
                child = sim.clone()
                child.play(action.card.index)
                totals[i] += child.playout(self.rng)[side]
            samples += 1
        best = max(range(len(plays)), key=lambda i: (totals[i], -i))
        return plays[best]
