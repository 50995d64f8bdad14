"""The card play of one sample, cards as ints, and the utility of a finished hand.

Cards are ``Card.index`` ints (``suit * 10 + rank - 1``); the per-card tables (suit,
points, strength, who beats whom) are those of :mod:`briscola.engine.sim`. Unlike
:class:`~briscola.engine.Sim`, a :class:`Game` keeps the cards already played (the rollout
policy counts them) and points as floats (the solver's paranoid split).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from briscola.engine.sim import BEATS, POINTS, STRENGTH3_INT, STRENGTH_INT, SUIT, taker

__all__ = [
    "POINTS",
    "SUIT",
    "SUIT_MASK",
    "SUIT_POINTS",
    "Game",
    "SearchRules",
    "cards_left",
    "legal_cards",
    "mask_of",
    "play",
    "points_in",
    "utility",
]

#: Per suit: the bit mask of its ten cards (bit ``c`` is card ``c``).
SUIT_MASK: Final[tuple[int, ...]] = tuple(((1 << 10) - 1) << (10 * suit) for suit in range(4))
#: Per ten-bit mask of one suit's cards (bit ``r`` is the card of index ``r`` in the suit):
#: their points.
SUIT_POINTS: Final[tuple[int, ...]] = tuple(
    sum(POINTS[r] for r in range(10) if bits >> r & 1) for bits in range(1 << 10)
)


def _higher_masks(strength: tuple[int, ...]) -> tuple[int, ...]:
    """Per card: the mask of the cards of its suit that are stronger."""
    return tuple(
        sum(1 << x for x in range(40) if SUIT[x] == SUIT[c] and strength[x] > strength[c])
        for c in range(40)
    )


#: Per strength table: :func:`_higher_masks`.
_HIGHER: Final[dict[tuple[int, ...], tuple[int, ...]]] = {
    table: _higher_masks(table) for table in (STRENGTH_INT, STRENGTH3_INT)
}


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of ``cards`` (bit ``c`` for card ``c``)."""
    bits = 0
    for c in cards:
        bits |= 1 << c
    return bits


def points_in(bits: int, suit: int) -> int:
    """The points of the cards of ``bits``, all of them of ``suit``."""
    return SUIT_POINTS[bits >> (10 * suit)]


#: Per trump (-1 for none): the solver's move ordering key per card, big cards and trumps
#: first, no two cards alike (ties go by index).
_ORDER: Final[dict[int, tuple[int, ...]]] = {
    trump: tuple(64 * (-4 * POINTS[c] - (10 if SUIT[c] == trump else 0)) + c for c in range(40))
    for trump in range(-1, 4)
}


class Game:
    """The card play of one sample, cards as ints (``suit * 10 + rank - 1``).

    ``stock`` has its top LAST. ``side[seat]`` is the scoring side of each seat; ``points``
    per side. Cheap to copy; no validation.
    """

    __slots__ = ("gone", "hands", "points", "side", "stock", "trick", "turn")

    def __init__(
        self,
        hands: list[list[int]],
        stock: list[int],
        trick: list[int],
        turn: int,
        side: tuple[int, ...],
        points: list[float],
        gone: int,
    ) -> None:
        self.hands = hands
        self.stock = stock
        self.trick = trick
        self.turn = turn
        self.side = side
        self.points = points
        #: The cards played (public knowledge), as a bit mask (:func:`mask_of`).
        self.gone = gone

    def copy(self) -> Game:
        return Game(
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.trick),
            self.turn,
            self.side,
            list(self.points),
            self.gone,
        )


@dataclass(frozen=True, slots=True)
class SearchRules:
    """What the search needs of the rules, with the card tables of :mod:`briscola.engine.sim`.
    Build with :meth:`make`."""

    n: int
    follow: bool
    trump: int
    #: ``beats[a * 40 + b]``: card b, played after the trick's best card a, takes over.
    beats: tuple[bool, ...]
    #: Solver move ordering key per card: big cards and trumps first, no two alike.
    order: tuple[int, ...]
    #: Cards left (hands + stock) at or below which the rest of a hand is solved exactly.
    solve_at: int
    epsilon: float
    #: Trick-taking strength per card.
    strength: tuple[int, ...] = STRENGTH_INT
    #: Per card: the mask of the cards of its suit that beat it (by ``strength``).
    higher: tuple[int, ...] = _HIGHER[STRENGTH_INT]
    #: The bottom card of the stock is the face-up briscola.
    turned: bool = True
    #: Seats alternate between two sides (two players, teams): the trick's loser side
    #: takes the last card of the stock.
    alternating: bool = True
    #: Scoperta: the top card of the stock lies face up (the stock's last card here).
    scoperta: bool = False
    #: Three or more sides: endings are solved with each player playing for itself
    #: (:func:`.solver.solve_maxn`), not all against the root side (paranoid).
    maxn: bool = False

    @classmethod
    def make(
        cls,
        n: int,
        follow: bool,
        trump: int,
        solve_at: int,
        epsilon: float,
        three_as_three: bool = False,
        turned: bool = True,
        alternating: bool = True,
        scoperta: bool = False,
        maxn: bool = False,
    ) -> SearchRules:
        """Rules for ``n`` players; ``trump`` is a suit number, or -1 for none."""
        strength = STRENGTH3_INT if three_as_three else STRENGTH_INT
        return cls(
            n=n,
            follow=follow,
            trump=trump,
            beats=BEATS[(three_as_three, trump)],
            order=_ORDER[trump],
            solve_at=solve_at,
            epsilon=epsilon,
            strength=strength,
            higher=_HIGHER[strength],
            turned=turned,
            alternating=alternating,
            scoperta=scoperta,
            maxn=maxn,
        )


def legal_cards(hand: list[int], trick: list[int], follow: bool) -> list[int]:
    """The cards of ``hand`` that may be played on ``trick`` (``hand`` itself when free)."""
    if follow and trick:
        led = SUIT[trick[0]]
        same = [c for c in hand if SUIT[c] == led]
        if same:
            return same
    return hand


def play(game: Game, card: int, rules: SearchRules) -> None:
    """Play ``card`` for the player to move; finish the trick and draw when complete."""
    n = rules.n
    turn = game.turn
    game.hands[turn].remove(card)
    game.gone |= 1 << card
    trick = game.trick
    trick.append(card)
    if len(trick) < n:
        game.turn = turn + 1 if turn + 1 < n else 0
        return
    winner = (turn + 1 + taker(trick, rules.beats)) % n
    won = 0
    for c in trick:
        won += POINTS[c]
    game.points[game.side[winner]] += won
    trick.clear()
    stock = game.stock
    if stock:
        hands = game.hands
        for i in range(n):
            hands[(winner + i) % n].append(stock.pop())
    game.turn = winner


def cards_left(game: Game) -> int:
    """Cards still to be played: the hands and the stock."""
    return sum(len(h) for h in game.hands) + len(game.stock)


def utility(
    points: Sequence[float], side: int, target: int, three_way: bool, margin: float
) -> float:
    """What a hand's final ``points`` (per side) are worth to ``side``: 1 for a win, 1/2
    for a draw, 0 for a loss, plus ``margin`` per point of margin."""
    mine = points[side]
    if three_way:
        top = max(p for s, p in enumerate(points) if s != side)
        win = 1.0 if mine > top else 0.5 if mine == top else 0.0
        return win + margin * (mine - top)
    win = 1.0 if mine >= target else 0.0
    if target == 61 and mine == 60:
        win = 0.5
    return win + margin * (mine - 60)
