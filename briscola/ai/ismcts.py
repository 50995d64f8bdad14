"""``ismcts``: information-set Monte Carlo tree search, a player of the arena's sparring pool.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012): one tree over the seat's
information sets, the nodes keyed by the cards played since the decision. Every iteration
deals the hidden cards at random consistently with the view (:func:`~briscola.engine
.determinize`), walks down the tree choosing among the moves legal in that deal by UCB1
with availability counts (a move is judged against the iterations in which it could have
been played), adds one node, plays the rest of the hand at random and credits every node on
the way with the hand's result for the side that made its move (1 a win, 1/2 a draw, 0 a
loss, plus 0.002 a point of margin; with three or more sides, against the best other side;
in Chiamata too it plays for 61, not for the bid).
The card played most at the root is chosen.

Unlike the hard search it does not search each sample as if its cards were known (no
strategy fusion at the seat's own decisions), but its playouts are random, it weighs no
sample by the opponents' plays and it solves no ending: its own ways of going wrong.
``budget`` is the number of iterations (deterministic for a seed). Swaps are always taken;
the Chiamata auction and call are medium's.
"""

from __future__ import annotations

import math
import random
import time

from briscola.ai.medium import medium_action
from briscola.ai.search.core import utility
from briscola.engine import Action, Play, PlayerView, Sim, Swap, determinize

__all__ = ["IsmctsBot"]


class _Node:
    __slots__ = ("avail", "children", "side", "visits", "wins")

    def __init__(self, side: int) -> None:
        self.side = side  # the side of the seat whose card led here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 1


class IsmctsBot:
    """``budget`` iterations per move (1000), exploration constant ``explore`` (0.7)."""

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        budget: int = 1000,
        explore: float = 0.7,
    ) -> None:
        if budget < 1:
            raise ValueError("budget must be at least 1")
        self.name = "ismcts"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit
        self.budget = budget
        self.explore = explore

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if view.phase != "play":
            return legal[0] if len(legal) == 1 else medium_action(view)
        swap = next((a for a in legal if isinstance(a, Swap)), None)
        if swap is not None:
            return swap
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        root = self.search(view)
        by_card = {a.card.index: a for a in plays}
        best = max(
            by_card, key=lambda c: (root.children[c].visits if c in root.children else -1, -c)
        )
        return by_card[best]

    def search(self, view: PlayerView) -> _Node:
        rng = self.rng
        rules = view.rules
        three_way = len(rules.sides) > 2
        root = _Node(-1)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for done in range(self.budget):
            if deadline is not None and done >= 8 and time.perf_counter() > 0.9 * deadline:
                break
            sim = Sim.from_state(determinize(view, rng))
            node = root
            path = []
            while not sim.is_over():
                legal = sim.legal()
                side = sim.side[sim.turn]
                untried = [c for c in legal if c not in node.children]
                for c in legal:
                    child = node.children.get(c)
                    if child is not None:
                        child.avail += 1
                if untried:
                    card = untried[int(rng.random() * len(untried))]
                    node.children[card] = node = _Node(side)
                    path.append(node)
                    sim.play(card)
                    break
                log_avail = {c: math.log(node.children[c].avail) for c in legal}
                card = max(
                    legal,
                    key=lambda c: (
                        node.children[c].wins / node.children[c].visits
                        + self.explore * math.sqrt(log_avail[c] / node.children[c].visits)
                    ),
                )
                node = node.children[card]
                path.append(node)
                sim.play(card)
            points = sim.playout(rng) if not sim.is_over() else sim.points
            for node in path:
                node.visits += 1
                node.wins += utility(points, node.side, 61, three_way, 0.002)
        return root
