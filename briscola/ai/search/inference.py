"""Policy-based inference: how likely a sample makes the other seats' actual plays.

As in the Skat programs, a sampled deal is weighted by the probability that the other
players, holding the cards the sample gives them, would have played what they did, under a
model of their play (:class:`Model`): a softmax over the rollout policy's values (medium's
rules with cards as ints, :mod:`.rollout`), mixed with the greedy player's card and a
uniform choice::

    P(card) = (1 - NOISE) * ((1 - GREEDY) * exp(v(card) / TEMPERATURE) / sum(exp(v / TEMPERATURE))
                             + GREEDY * [card is the greedy player's]) + NOISE / k

Each play of the last ``HISTORY`` tricks (the current one included) is scored from the
position the player faced then: its hand rebuilt backwards from the sample (the card played
goes back into the hand; a card drawn after the trick comes out of it, chosen at random
among the hand's cards, since with a shuffled stock every order of the draws is as likely;
the face-up briscola is the last card drawn), the trick so far, the cards gone and the
stock size then. Nothing here reads a card the view does not show: the hands come from the
sample.

:class:`History` gathers, once per decision, the public part of every scored play;
:meth:`History.likelihood` weighs one sample.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from briscola.ai.search.core import POINTS, SUIT, Game, SearchRules, legal_cards, mask_of
from briscola.ai.search.rollout import values2, values_n
from briscola.engine import PlayerView
from briscola.engine.sim import taker

__all__ = ["GREEDY", "HISTORY", "NOISE", "TEMPERATURE", "History", "Model"]

#: Softmax temperature, in the policy's points. 4 since 2026-12-05 (was 12), with three
#: tricks (was two) and a greedy share: against every kind of player in the sparring pool
#: this model learns more of the hidden hands (``tools/inference_check.py``: 0.08 to 0.31
#: bits a position with two players, where the softer one learned 0.05 to 0.12); hard's
#: scores against the pool moved within their noise (docs/ai.md, *Inference against the
#: pool*).
TEMPERATURE: Final = 4.0
#: Share of a uniformly random choice in the model (a slip, or a reason the model misses).
NOISE: Final = 0.25
#: Share of the greedy player's card (the most points on the table now): players of the
#: pool that do not think like medium often play it.
GREEDY: Final = 0.05
#: Tricks scored, counting back from the current one.
HISTORY: Final = 3


@dataclass(frozen=True, slots=True)
class Model:
    """How another seat is assumed to choose its card: the rollout policy's softmax at
    ``temperature``, with a share ``greedy`` of the greedy player's card (the most points
    on the table now, :mod:`briscola.ai.greedy`) and a share ``noise`` of a uniform choice::

        P(card) = (1 - noise) * ((1 - greedy) * softmax(card) + greedy * [card is greedy's])
                  + noise / k
    """

    temperature: float = TEMPERATURE
    noise: float = NOISE
    greedy: float = GREEDY


@dataclass(frozen=True, slots=True)
class _Moment:
    """One play by another seat, and the public position it was made in."""

    seat: int
    card: int
    trick: tuple[int, ...]  # the cards before it in its trick
    gone: int  # the cards played before it, as a bit mask
    stock: int  # cards in the stock then
    sizes: tuple[int, ...]  # hand sizes then (the player's own included)
    #: The card the player drew after this trick, when it is known (the face-up briscola
    #: at the last draw), -2 when it drew an unknown card, -1 when it drew none.
    drew: int


class History:
    """The other seats' recent plays, in reverse order (latest first)."""

    def __init__(
        self, seen: PlayerView, rules: SearchRules, depth: int = HISTORY, model: Model | None = None
    ) -> None:
        self.rules = rules
        self.model = model or Model()
        self.me = seen.seat
        self.n = n = seen.rules.players
        hand_size = seen.rules.hand_size
        first_stock = seen.rules.deck_size - n * hand_size
        brisc = seen.briscola.index if seen.briscola is not None and rules.turned else -1
        self.brisc = brisc
        played = [(t.seats, tuple(c.index for c in t.cards), True) for t in seen.tricks]
        if seen.table:
            seats = tuple(s for s, _ in seen.table)
            played.append((seats, tuple(c.index for _, c in seen.table), False))
        start = max(0, len(played) - depth)
        gone = 0
        for _seats, cards, _ in played[:start]:
            gone |= mask_of(cards)
        moments: list[_Moment] = []
        for j in range(start, len(played)):
            seats, cards, done = played[j]
            stock = max(0, first_stock - n * j)
            size = hand_size - max(0, j - first_stock // n)
            draws = done and stock > 0
            for pos, (seat, card) in enumerate(zip(seats, cards, strict=True)):
                if seat != self.me:
                    sizes = tuple(size - (1 if s in seats[:pos] else 0) for s in range(n))
                    drew = -1
                    if draws:
                        drew = (
                            brisc
                            if stock == n and brisc >= 0 and _last_drawer(seen) == seat
                            else -2
                        )
                    moments.append(_Moment(seat, card, cards[:pos], gone, stock, sizes, drew))
                gone |= 1 << card
        moments.reverse()
        self.moments = moments
        #: Per (moment, sides, the hand rebuilt): its term of :meth:`likelihood`.
        self._terms: dict[tuple[object, ...], float] = {}

    def __len__(self) -> int:
        return len(self.moments)

    def likelihood(
        self, hands: list[list[int]], side: tuple[int, ...], rng: random.Random
    ) -> float:
        """The probability of the recorded plays if the hands are ``hands`` (the sample's,
        now) and the sides ``side``."""
        if not self.moments:
            return 1.0
        held = {s: list(hands[s]) for s in range(self.n) if s != self.me}
        terms = self._terms
        log_p = 0.0
        for k, m in enumerate(self.moments):
            hand = held[m.seat]
            if m.drew != -1:  # undo the draw after this trick
                if m.drew >= 0 and m.drew in hand:
                    hand.remove(m.drew)
                elif hand:
                    hand.pop(int(rng.random() * len(hand)))
            hand.append(m.card)
            # Samples alike rebuild the same hand: its term is kept (time only).
            key = (k, side, *hand)
            term = terms.get(key)
            if term is None:
                term = terms[key] = self._log_chance(m, hand, side)
            log_p += term
        return math.exp(log_p)

    def _log_chance(self, m: _Moment, hand: list[int], side: tuple[int, ...]) -> float:
        """The log of the probability of play ``m`` from ``hand`` (0 when it was forced, or
        is not a legal play from that hand)."""
        rules = self.rules
        trick = list(m.trick)
        options = legal_cards(hand, trick, rules.follow)
        if len(options) < 2 or m.card not in options:
            return 0.0
        hands_then = [hand if s == m.seat else [-1] * m.sizes[s] for s in range(self.n)]
        stock = [self.brisc if rules.turned else -1] + [-1] * (m.stock - 1) if m.stock else []
        game = Game(hands_then, stock, trick, m.seat, side, [0.0] * (max(side) + 1), m.gone)
        values = values2 if rules.n == 2 else values_n
        scores = values(game, rules, options)
        model = self.model
        top = max(scores)
        exps = [math.exp((v - top) / model.temperature) for v in scores]
        chosen = exps[options.index(m.card)] / sum(exps)
        if model.greedy:
            greedy = _greedy(options, trick, m.seat, side, rules) == m.card
            chosen = (1.0 - model.greedy) * chosen + model.greedy * greedy
        return math.log((1.0 - model.noise) * chosen + model.noise / len(options))


def _greedy(
    options: list[int], trick: list[int], seat: int, side: tuple[int, ...], rules: SearchRules
) -> int:
    """The greedy player's card (:class:`briscola.ai.greedy.GreedyBot` on ints): leading,
    the cheapest; following, the most points for its side on this trick as it lies, the
    cheapest among equals."""
    trump = rules.trump
    strength = rules.strength

    def cost(c: int) -> tuple[int, bool, int]:
        return (POINTS[c], SUIT[c] == trump, strength[c])

    if not trick:
        return min(options, key=cost)
    beats = rules.beats
    best = taker(trick, beats)
    ours = side[(seat - len(trick) + best) % rules.n] == side[seat]
    top = trick[best]
    on_table = sum(POINTS[c] for c in trick)

    def gain(c: int) -> int:
        if ours:
            return POINTS[c]
        return on_table + POINTS[c] if beats[top * 40 + c] else -POINTS[c]

    most = max(gain(c) for c in options)
    return min((c for c in options if gain(c) == most), key=cost)


def _last_drawer(seen: PlayerView) -> int:
    """Who drew the face-up briscola at the last draw: the seat that holds it now, if it is
    still in a hand (known to all, it sits in ``known``), else -1."""
    if seen.briscola is None:
        return -1
    for s, cards in enumerate(seen.known):
        if seen.briscola in cards:
            return s
    return -1
