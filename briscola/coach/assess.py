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
    #: Per card of ``values``, the search's utility (its chance of winning the hand, plus
    #: a small term per point of margin), on which hard decides; empty in an assessment
    #: written by hand, where the points alone compare cards.
    utilities: tuple[float, ...] = ()
    #: The best card answers a partner's signal where the search's own line went against
    #: it (partner signals, team games).
    signalled: bool = False

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

    def edge(self, card: Card) -> float:
        """Expected points ``card`` shows above the best card (0 when it shows no more)."""
        return max(0.0, self.value(card) - self.value(self.best))

    def ahead(self, card: Card) -> str:
        """Why ``card``, which shows at least :data:`CLOSE` points more than the best card,
        is not the best: ``"wins"``, the search expects it to win the hand less often (the
        most points is not the most wins: a few points more in hands already won or lost
        can cost the close ones); ``"signal"``, the best card answers a partner's signal;
        ``"noise"``, its gain is within the search's noise (hard's veto keeps its default
        card). ``""`` for the best card and any card that does not show more."""
        if card == self.best or self.edge(card) < CLOSE:
            return ""
        if self.utilities and self.utility(card) < self.utility(self.best):
            return "wins"
        return "signal" if self.signalled else "noise"

    def utility(self, card: Card) -> float:
        """The search's utility of ``card`` (see :attr:`utilities`)."""
        if len(self.utilities) == len(self.values):
            for (other, _), value in zip(self.values, self.utilities, strict=True):
                if other == card:
                    return value
        raise ValueError(f"{card.code} has no utility in this assessment")

    def about_as_good(self, card: Card) -> bool:
        """``card`` gives up less than :data:`CLOSE` points against the best card, and any
        points it shows more are the search's noise (the best card itself, and a card that
        only seems better: the hint's "about as good"). A card that shows more points but
        wins less often, or goes against a partner's signal, is not."""
        return self.loss(card) < CLOSE and self.ahead(card) in ("", "noise")

    def runner_up(self) -> Card | None:
        """The other card about as good as the best (:meth:`about_as_good`) that shows the
        most points, or None."""
        others = [card for card, _ in self.values if card != self.best]
        close = [card for card in others if self.about_as_good(card)]
        return max(close, key=self.value, default=None)

    def wins_less(self) -> tuple[Card, ...]:
        """The cards that show more points than the best but win less often (:meth:`ahead`),
        the most points first."""
        cards = [card for card, _ in self.values if self.ahead(card) == "wins"]
        return tuple(sorted(cards, key=self.value, reverse=True))


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
    by_card = {card: i for i, (_, card) in enumerate(found.lines)}
    values = tuple((card, found.points(by_card[card.index])) for card in plays)
    utilities = tuple(found.utility(by_card[card.index]) for card in plays)
    decided = bot.decide(found)
    picked = bot.pick(seen, found)
    return Assessment(
        values=values,
        best=Card.from_index(found.lines[picked][1]),
        exact=found.exact,
        samples=found.samples,
        utilities=utilities,
        signalled=picked != decided,
    )
