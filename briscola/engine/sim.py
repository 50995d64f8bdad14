"""A compact simulator for search: the card play of a hand with cards as small ints.

:class:`GameState` validates, records events and knows everything about auctions and swaps;
that costs time. Search plays millions of cards on determinized states, so it uses
:class:`Sim`: cards are ``Card.index`` ints (``suit * 10 + rank - 1``), there is no
validation and no history, only what decides the points of the rest of the hand.
Swaps are not modelled (search treats them as a separate decision).

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> state = GameState.new(Rules.preset("classic2"), random.Random(1))
>>> sim = Sim.from_state(state)
>>> points = sim.playout(random.Random(2))
>>> sum(points)
120
"""

from __future__ import annotations

import random
from typing import Final

from briscola.engine.cards import DECK, STRENGTH, STRENGTH_THREE_AS_THREE
from briscola.engine.state import GameState

__all__ = ["BEATS", "POINTS", "STRENGTH3_INT", "STRENGTH_INT", "SUIT", "Sim", "taker"]

#: Per card index: suit, points and strength (normal, and "three as three").
SUIT: Final[tuple[int, ...]] = tuple(int(card.suit) for card in DECK)
POINTS: Final[tuple[int, ...]] = tuple(card.points for card in DECK)
STRENGTH_INT: Final[tuple[int, ...]] = tuple(STRENGTH[card.rank] for card in DECK)
STRENGTH3_INT: Final[tuple[int, ...]] = tuple(STRENGTH_THREE_AS_THREE[card.rank] for card in DECK)


def _beats_table(strength: tuple[int, ...], trump: int) -> tuple[bool, ...]:
    """``table[a * 40 + b]``: card b, played after the best card so far a, takes over."""
    table = []
    for a in range(40):
        for b in range(40):
            if SUIT[a] == SUIT[b]:
                table.append(strength[b] > strength[a])
            else:
                table.append(SUIT[b] == trump)
    return tuple(table)


#: Per (three as three, trump suit or -1): :func:`_beats_table`.
BEATS: Final[dict[tuple[bool, int], tuple[bool, ...]]] = {
    (three, trump): _beats_table(STRENGTH3_INT if three else STRENGTH_INT, trump)
    for three in (False, True)
    for trump in (-1, 0, 1, 2, 3)
}


def taker(trick: list[int], beats: tuple[bool, ...]) -> int:
    """Index in ``trick`` (playing order) of the card that takes it so far, by a
    :data:`BEATS` table: :func:`~briscola.engine.state.trick_winner` for cards as ints.

    >>> taker([2, 0], BEATS[(False, -1)])  # the Ace of the suit led takes its Three
    1
    """
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if beats[top * 40 + c]:
            best, top = i, c
    return best


class Sim:
    """The card play of one hand, fast. Build with :meth:`from_state`.

    ``side[seat]`` is the scoring side of each seat (``points`` is per side); in Chiamata
    side 0 is the caller and partner, side 1 the other three.
    """

    __slots__ = (
        "beats",
        "follow",
        "hands",
        "n",
        "points",
        "side",
        "stock",
        "strength",
        "trick",
        "trump",
        "turn",
    )

    n: int
    hands: list[list[int]]
    #: Cards to draw, top LAST (so drawing is ``pop()``).
    stock: list[int]
    trump: int
    follow: bool
    side: tuple[int, ...]
    points: list[int]
    turn: int
    trick: list[int]
    beats: tuple[bool, ...]
    strength: tuple[int, ...]

    @classmethod
    def from_state(cls, state: GameState) -> Sim:
        """The card play of ``state`` (its current trick included). Auction and call must
        be over."""
        if state.phase in ("auction", "call"):
            raise ValueError("Sim starts once the cards are being played")
        rules = state.rules
        sim = cls.__new__(cls)
        sim.n = rules.players
        sim.hands = [[card.index for card in hand] for hand in state.hands]
        sim.stock = [card.index for card in reversed(state.stock)]
        sim.trump = int(state.trump) if state.trump is not None else -1
        sim.follow = rules.follow_suit
        if rules.chiamata:
            calling = {state.caller, state.partner}
            sim.side = tuple(0 if seat in calling else 1 for seat in range(rules.players))
        else:
            sim.side = tuple(rules.side_of(seat) for seat in range(rules.players))
        sides = max(sim.side) + 1
        sim.points = [0] * sides
        for seat, points in enumerate(state.points):
            sim.points[sim.side[seat]] += points
        sim.turn = state.current_player if state.current_player is not None else 0
        sim.trick = [card.index for card in state.trick]
        sim.beats = BEATS[(rules.three_as_three, sim.trump)]
        sim.strength = STRENGTH3_INT if rules.three_as_three else STRENGTH_INT
        return sim

    def clone(self) -> Sim:
        other = Sim.__new__(Sim)
        other.n = self.n
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.trump = self.trump
        other.follow = self.follow
        other.side = self.side
        other.points = list(self.points)
        other.turn = self.turn
        other.trick = list(self.trick)
        other.beats = self.beats
        other.strength = self.strength
        return other

    def is_over(self) -> bool:
        return not self.trick and not self.hands[self.turn]

    @property
    def leader(self) -> int:
        return (self.turn - len(self.trick)) % self.n

    def legal(self) -> list[int]:
        """Cards the player to move may play."""
        hand = self.hands[self.turn]
        if self.follow and self.trick:
            led = SUIT[self.trick[0]]
            follow = [card for card in hand if SUIT[card] == led]
            if follow:
                return follow
        return list(hand)

    def play(self, card: int) -> int | None:
        """Play ``card`` for the player to move (not validated). Returns the winning seat
        when this card completes a trick, else None."""
        seat = self.turn
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append(card)
        n = self.n
        if len(trick) < n:
            self.turn = seat + 1 if seat + 1 < n else 0
            return None
        leader = seat + 1 - n
        winner = (leader + taker(trick, self.beats)) % n
        self.points[self.side[winner]] += sum(POINTS[c] for c in trick)
        trick.clear()
        stock = self.stock
        if stock:
            hands = self.hands
            for i in range(n):
                hands[(winner + i) % n].append(stock.pop())
        self.turn = winner
        return winner

    def playout(self, rng: random.Random) -> list[int]:
        """Play to the end with uniformly random legal cards; the points per side."""
        if self.n == 2 and not self.follow and not self.trick:
            hands = self.hands
            left = sum(POINTS[c] for c in hands[0]) + sum(POINTS[c] for c in hands[1])
            left += sum(POINTS[c] for c in self.stock)
            p0 = playout2(hands[0], hands[1], self.stock, self.beats, self.turn, rng)
            self.points[self.side[0]] += p0
            self.points[self.side[1]] += left - p0
            return self.points
        rand = rng.random
        hands = self.hands
        stock = self.stock
        trick = self.trick
        side = self.side
        points = self.points
        beats = self.beats
        n = self.n
        follow = self.follow
        seat = self.turn
        while True:
            hand = hands[seat]
            if not hand:
                break
            if follow and trick:
                led = SUIT[trick[0]]
                options = [c for c in hand if SUIT[c] == led] or hand
                card = options[int(rand() * len(options))]
                hand.remove(card)
            else:
                card = hand.pop(int(rand() * len(hand)))
            trick.append(card)
            if len(trick) < n:
                seat = seat + 1 if seat + 1 < n else 0
                continue
            winner = (seat + 1 + taker(trick, beats)) % n
            points[side[winner]] += sum(POINTS[c] for c in trick)
            trick.clear()
            if stock:
                for i in range(n):
                    hands[(winner + i) % n].append(stock.pop())
            seat = winner
        self.turn = seat
        return points


def playout2(
    hand0: list[int],
    hand1: list[int],
    stock: list[int],
    beats: tuple[bool, ...],
    leader: int,
    rng: random.Random,
) -> int:
    """The fastest path: a random two-player playout with no follow-suit obligation, from
    the start of a trick. ``stock`` has its top LAST; ``beats`` is :attr:`Sim.beats`.
    The lists are consumed. Returns the points seat 0 takes from here on."""
    rand = rng.random
    hands = (hand0, hand1)
    p0 = 0
    while hand0:
        lead_hand = hands[leader]
        follow_hand = hands[1 - leader]
        a = lead_hand.pop(int(rand() * len(lead_hand)))
        b = follow_hand.pop(int(rand() * len(follow_hand)))
        winner = 1 - leader if beats[a * 40 + b] else leader
        if winner == 0:
            p0 += POINTS[a] + POINTS[b]
        if stock:
            hands[winner].append(stock.pop())
            hands[1 - winner].append(stock.pop())
        leader = winner
    return p0
