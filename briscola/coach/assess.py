"""What each legal card is worth, as the hard search sees it from one seat's view.

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> seen = view(state, state.current_player)
>>> found = evaluate(seen, seed=1, budget=400)
>>> sorted(card for card, _ in found.values) == sorted(seen.hand)
True
>>> found.loss(found.best)
0.0
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, replace
from typing import Final

from briscola.ai.search import DEFAULT_BUDGET, HardBot
from briscola.engine import Card, Play, PlayerView

__all__ = ["CLOSE", "Assessment", "default_budget", "evaluate", "position_seed"]

#: Expected points within which a card counts as about as good as the best.
CLOSE: Final = 0.5


def default_budget(players: int) -> int:
    """The search budget of one move of the ``hard`` bot (work units) for ``players``."""
    return DEFAULT_BUDGET.get(players, 30000)


@dataclass(frozen=True, slots=True)
class Assessment:
    """Per legal card, the expected final points of the seat's side if it is played now
    (the search plays on from there for every seat, itself included)."""

    values: tuple[tuple[Card, float], ...]
    #: The card the hard player would play: the learned evaluation's card (medium's where
    #: no network covers the table) unless the search shows a clear gain elsewhere. Another
    #: card may show a little more in ``values`` when the search's lead is within its noise.
    best: Card
    #: Every possible deal was searched (no sampling noise).
    exact: bool
    samples: int

    def value(self, card: Card) -> float:
        """Expected points of the seat's side after ``card``."""
        for other, points in self.values:
            if other == card:
                return points
        raise ValueError(f"{card.code} is not one of the cards assessed")

    def loss(self, card: Card) -> float:
        """Expected points given up by playing ``card`` instead of the best card (0 for a
        card the search values at least as high)."""
        return max(0.0, self.value(self.best) - self.value(card))

    def about_as_good(self, card: Card) -> bool:
        """``card`` gives up less than :data:`CLOSE` points against the best card (the best
        card itself, and any the search values as high: the hint's "about as good")."""
        return self.loss(card) < CLOSE

    def runner_up(self) -> Card | None:
        """The second best card, or None with a single card."""
        others = [(points, card) for card, points in self.values if card != self.best]
        if not others:
            return None
        top = max(points for points, _ in others)
        return next(card for points, card in others if points == top)


def position_seed(seen: PlayerView, salt: int = 0) -> int:
    """The search seed of the position ``seen`` (with ``salt`` mixed in): the same from
    every process and every path to the position, so the hint at the table and the review
    of the hand (both with ``salt`` 0) assess a position with the same samples and agree.

    >>> import random
    >>> from briscola.engine import GameState, Rules, view
    >>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
    >>> seen = view(state, state.current_player)
    >>> position_seed(seen) == position_seed(view(state, state.current_player))
    True
    """
    tricks = ";".join(
        ",".join(f"{s}{c.code}" for s, c in zip(t.seats, t.cards, strict=True)) + f">{t.winner}"
        for t in seen.tricks
    )
    known = "/".join(",".join(sorted(c.code for c in cards)) for cards in seen.known)
    facts = "|".join(
        (
            f"{seen.rules.players}:{seen.seat}:{seen.dealer}:{salt}",
            ",".join(c.code for c in seen.hand),
            ",".join(f"{s}{c.code}" for s, c in seen.table),
            tricks,
            seen.briscola.code if seen.briscola is not None else "-",
            f"{seen.stock_size}:{seen.briscola_in_stock}:{len(seen.swaps)}",
            seen.stock_top.code if seen.stock_top is not None else "-",
            known,
        )
    )
    return zlib.crc32(facts.encode())


def evaluate(seen: PlayerView, seed: int | None = None, budget: int | None = None) -> Assessment:
    """Assess every card ``seen.seat`` may play now with the hard search (its samples,
    rollouts and exact endgames, at ``budget`` work units; by default a hard move's), from
    ``seen`` alone: hidden cards are dealt at random consistently with the view, never
    read. The same view, seed and budget give the same assessment; without a ``seed``, the
    position's own (:func:`position_seed`), which the hint and the review both use.

    The best card is the one hard would play: the learned evaluation's (the default move of
    hard's veto) unless the search's gain elsewhere is clear of its noise, which makes hints
    and reviews as strong as hard (docs/ai.md, *The coach*). Lines that swap the briscola
    first are left out: the coach assesses the card played.
    """
    legal = tuple(a for a in seen.legal if isinstance(a, Play))
    plays = [a.card for a in legal]
    if seen.phase != "play" or not plays:
        raise ValueError("nothing to assess: this seat is not to play a card")
    if len(legal) < len(seen.legal):
        seen = replace(seen, legal=legal)
    if budget is None:
        budget = default_budget(seen.rules.players)
    if budget < 1:
        raise ValueError(f"the budget must be at least 1 work unit, not {budget}")
    if seed is None:
        seed = position_seed(seen)
    bot = HardBot(random.Random(seed), budget=budget, deterministic=True)
    found = bot.evaluate(seen)
    by_card = {card: found.points(i) for i, (_, card) in enumerate(found.lines)}
    values = tuple((card, by_card[card.index]) for card in plays)
    best = Card.from_index(found.lines[bot.pick(seen, found)][1])
    return Assessment(values=values, best=best, exact=found.exact, samples=found.samples)
