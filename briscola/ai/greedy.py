"""``greedy``: a player of the arena's sparring pool that takes the most points now.

It looks at the trick on the table and nothing else: no card counting, no thought for the
cards still to come or for the players after it. Leading, it plays its cheapest card (the
fewest points, a side card before a trump, the weakest); following, it plays the card that
brings its side the most points on this trick as it lies (the table's points and its own
if the card takes it, its points lost if an opponent keeps it, loaded if a partner's card
is winning), the cheapest among equals. So it throws an Ace on a trick that the next
player can still trump, and spends a trump on any card of points. Swaps, the Chiamata
auction and call are medium's.
"""

from __future__ import annotations

import random

from briscola.ai.medium import medium_action
from briscola.engine import Action, Card, Play, PlayerView, trick_winner
from briscola.engine.cards import STRENGTH, STRENGTH_THREE_AS_THREE

__all__ = ["GreedyBot"]


class GreedyBot:
    """The most points on the table now. Deterministic; the rng is unused."""

    def __init__(self, rng: random.Random | None = None, time_limit: float | None = None) -> None:
        self.name = "greedy"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        plays = [a for a in legal if isinstance(a, Play)]
        if view.phase != "play" or len(plays) != len(legal):
            return legal[0] if len(legal) == 1 else medium_action(view)
        strength = STRENGTH_THREE_AS_THREE if view.rules.three_as_three else STRENGTH

        def cost(card: Card) -> tuple[int, int, int]:
            return (card.points, card.suit == view.trump, strength[card.rank])

        if not view.table:
            return min(plays, key=lambda a: cost(a.card))
        table = [card for _, card in view.table]
        taker = view.table[trick_winner(table, view.trump, strength)][0]
        ours = self._side(view, taker) == self._side(view, view.seat)
        on_table = sum(card.points for card in table)

        def gain(card: Card) -> int:
            if ours:  # the table's points are the side's already: load
                return card.points
            if trick_winner([*table, card], view.trump, strength) == len(table):
                return on_table + card.points
            return -card.points

        best = max(gain(a.card) for a in plays)
        return min((a for a in plays if gain(a.card) == best), key=lambda a: cost(a.card))

    @staticmethod
    def _side(view: PlayerView, seat: int) -> int:
        if view.rules.chiamata:  # only the caller and a partner it knows are one side
            return 0 if seat in (view.caller, view.partner) else seat + 1
        return view.rules.side_of(seat)
