"""Search bots: ``hard`` and the ``pimc`` baseline.

Hard is Perfect Information Monte Carlo done carefully:

1. **Samples** ("determinizations"): the cards this seat cannot see are dealt at random to
   the other hands and the face-down stock, agreeing with everything the view shows (known
   cards, the face-up briscola and scoperta top, follow-suit voids). With two players near
   the end of the stock, when at most 24 deals remain possible, each is taken once instead.
   With ``inference`` on, samples are weighted by how well each explains the opponents'
   recent plays (:func:`_likelihood`) and, in Chiamata, by who probably holds the called
   card (:func:`briscola.ai.knowledge.partner_probabilities`).
2. **Evaluation** of each candidate (every legal card; with a swap available, the swap
   followed by each card) in each sample, the same samples and rollout randomness for every
   candidate so that the comparison is paired: the card is played, then the hand continues
   with a fast int version of medium's rules (:func:`_policy2`, :func:`_policy_n`) until
   the stock is empty, and from there it is **solved exactly** (minimax, alpha-beta with a
   transposition table for longer endings, every player count; paranoid with three
   players). With two players and at most one hidden card in the stock, the search solves
   straight through the last draws; with an empty stock nothing is hidden and the position
   is solved once.
3. **Utility**: a hand is played to be won, not to score points: 1 for a win, 1/2 for a
   draw, 0 for a loss (the target is 61, the Chiamata bid, or the top score with three
   players), plus a small term (``margin`` per point) that breaks ties between moves that
   win (or lose) anyway.
4. **Decision**: medium's move is the default; hard plays another candidate only when its
   mean gain over medium's move, over the samples, exceeds ``confidence`` standard errors
   (paired differences). On a small budget, sampling noise on near-equal moves otherwise
   costs more than the search gains (measured: docs/ai.md). Exact positions (solved, or every deal
   enumerated) take the best candidate outright.

Budgets: ``budget`` is a number of *work units* (simulated card plays, and solver nodes
counted at their relative cost), not seconds, so that a seeded bot makes the same moves on
any machine. The defaults (:data:`DEFAULT_BUDGET`) were tuned to about 250 ms per move at
the 95th percentile on one core for two players and 300 ms for five. ``time_limit``
(seconds) adds a clock: the search stops at whichever comes first, and is then no longer
reproducible; ``deterministic=True`` ignores the clock.

``pimc`` is the plain baseline: uniform samples, a fixed small number of them, one random
playout per card and sample, the most points on average; no inference, no solver.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial
from typing import Final

from briscola.engine import (
    Action,
    Card,
    Play,
    PlayerView,
    Sim,
    Swap,
    determinize,
)
from briscola.engine.cards import STRENGTH, STRENGTH_THREE_AS_THREE

from .knowledge import partner_probabilities
from .medium import medium_action

__all__ = ["HardBot", "PimcBot"]

# ---------------------------------------------------------------------------- card tables

_SUIT: Final[tuple[int, ...]] = tuple(i // 10 for i in range(40))
_PTS: Final[tuple[int, ...]] = tuple(Card.from_index(i).points for i in range(40))
_STR: Final[dict[bool, tuple[int, ...]]] = {
    three: tuple(
        (STRENGTH_THREE_AS_THREE if three else STRENGTH)[Card.from_index(i).rank] for i in range(40)
    )
    for three in (False, True)
}


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per (trump, three-as-three): who beats whom, and the rule policy's card costs."""

    beats: tuple[bool, ...]
    lead_cost: tuple[float, ...]
    discard_cost: tuple[float, ...]
    win_cost: tuple[float, ...]
    load_value: tuple[float, ...]
    #: Solver move ordering: big cards and trumps first.
    order: tuple[int, ...]


def _make_tables(trump: int, three: bool) -> _Tables:
    strength = _STR[three]
    beats = []
    for a in range(40):
        for b in range(40):
            if _SUIT[a] == _SUIT[b]:
                beats.append(strength[b] > strength[a])
            else:
                beats.append(_SUIT[b] == trump)
    lead, discard, win, load = [], [], [], []
    for c in range(40):
        s, p, is_trump = strength[c], _PTS[c], _SUIT[c] == trump
        keep = 5.0 + 0.6 * s if is_trump else (2.0 if p >= 10 else 0.0)
        lead.append((12.0 + s if is_trump else 0.9 * p + 0.05 * s) + (2.0 if p >= 10 else 0.0))
        discard.append(p + keep + 0.05 * s)
        win.append(keep - p + 0.01 * s)
        load.append(-1e3 if is_trump else p - 0.01 * s)
    order = tuple(-4 * _PTS[c] - (10 if _SUIT[c] == trump else 0) for c in range(40))
    return _Tables(tuple(beats), tuple(lead), tuple(discard), tuple(win), tuple(load), order)


_TABLES: Final[dict[tuple[int, bool], _Tables]] = {
    (trump, three): _make_tables(trump, three) for trump in range(-1, 4) for three in (False, True)
}


# ---------------------------------------------------------------------------- the game core


class _Game:
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
        gone: list[bool],
    ) -> None:
        self.hands = hands
        self.stock = stock
        self.trick = trick
        self.turn = turn
        self.side = side
        self.points = points
        #: Per card: played (public knowledge).
        self.gone = gone

    def copy(self) -> _Game:
        return _Game(
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.trick),
            self.turn,
            self.side,
            list(self.points),
            list(self.gone),
        )


@dataclass(frozen=True, slots=True)
class _Rules:
    n: int
    follow: bool
    trump: int
    tables: _Tables
    #: Cards left (hands + stock) at or below which the rest of a hand is solved exactly.
    solve_at: int
    epsilon: float
    #: Trick-taking strength per card.
    strength: tuple[int, ...] = _STR[False]
    #: The bottom card of the stock is the face-up briscola.
    turned: bool = True
    #: Seats alternate between two sides (two players, teams): the trick's loser side
    #: takes the last card of the stock.
    alternating: bool = True


def _legal(hand: list[int], trick: list[int], follow: bool) -> list[int]:
    if follow and trick:
        led = _SUIT[trick[0]]
        same = [c for c in hand if _SUIT[c] == led]
        if same:
            return same
    return hand


def _policy(game: _Game, rules: _Rules, rng: random.Random) -> int:
    """The rollout policy: medium's main rules, fast."""
    hand = game.hands[game.turn]
    trick = game.trick
    options = _legal(hand, trick, rules.follow)
    if len(options) == 1:
        return options[0]
    if rules.epsilon and rng.random() < rules.epsilon:
        return options[int(rng.random() * len(options))]
    tables = rules.tables
    if not trick:
        return min(options, key=tables.lead_cost.__getitem__)
    beats = tables.beats
    n = rules.n
    best_i = 0
    best = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if beats[best * 40 + c]:
            best_i, best = i, c
    turn = game.turn
    leader = (turn - len(trick)) % n
    side = game.side
    if side[(leader + best_i) % n] == side[turn]:
        if len(trick) == n - 1:
            return max(options, key=tables.load_value.__getitem__)
        return min(options, key=tables.discard_cost.__getitem__)
    row = best * 40
    winners = [c for c in options if beats[row + c]]
    if winners:
        card = min(winners, key=tables.win_cost.__getitem__)
        worth = sum(_PTS[c] for c in trick)
        if worth >= 3 or _SUIT[card] != rules.trump or worth + _PTS[card] >= 10:
            return card
    return min(options, key=tables.discard_cost.__getitem__)


def _comb_table(max_h: int) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """``Q[h][u][b]``: chance that ``h`` cards drawn from ``u`` include one of ``b``."""
    out = []
    for h in range(max_h + 1):
        rows = []
        for u in range(41):
            row = []
            for b in range(41):
                if b == 0 or h == 0 or u == 0 or b > u:
                    row.append(0.0 if b == 0 or h == 0 or u == 0 else 1.0)
                elif u - b < h:
                    row.append(1.0)
                else:
                    row.append(1.0 - comb(u - b, h) / comb(u, h))
            rows.append(tuple(row))
        out.append(tuple(rows))
    return tuple(out)


_Q: Final = _comb_table(8)


def _policy2(game: _Game, rules: _Rules, rng: random.Random) -> int:
    """The two-player rollout policy: medium's evaluation (:mod:`briscola.ai.medium`) with
    cards as ints. Each player counts the cards played and knows its own hand only."""
    turn = game.turn
    hand = game.hands[turn]
    trick = game.trick
    options = _legal(hand, trick, rules.follow)
    if len(options) == 1:
        return options[0]
    if rules.epsilon and rng.random() < rules.epsilon:
        return options[int(rng.random() * len(options))]
    gone = game.gone
    trump = rules.trump
    strength = rules.strength
    beats = rules.tables.beats
    stock_n = len(game.stock)
    brisc = game.stock[0] if stock_n and rules.turned else -1
    h = len(game.hands[1 - turn])
    u = h + stock_n - (1 if brisc >= 0 else 0)
    q_row = _Q[h][u]
    adjust = 0.0
    if brisc >= 0 and stock_n == 2:
        adjust = 0.5 * (4.6 + 0.55 * (strength[brisc] - 1) + _PTS[brisc]) - 2.5
    best_card = options[0]
    best_value = -1e9
    led = trick[0] if trick else -1
    for c in options:
        s = strength[c]
        suit = _SUIT[c]
        pts = _PTS[c]
        base = suit * 10
        # Outstanding higher cards of the suit (not played, not mine), unknown ones apart.
        higher_unknown = 0
        higher_pts = 0
        higher_any = False
        rich = False
        for x in range(base, base + 10):
            if gone[x] or x in hand:
                continue
            if strength[x] > s:
                higher_any = True
                if x != brisc:
                    higher_unknown += 1
                    higher_pts += _PTS[x]
            if _PTS[x] >= 10:
                rich = True
        if len(hand) <= 1:
            keep = 0.0
        elif suit == trump:
            keep = 4.6 + 0.55 * (s - 1)
            if pts and not higher_any:
                keep += 0.8 * pts
        elif pts >= 10 and not higher_any:
            keep = 0.02 * s + 1.5 + (1.0 if rich else 0.0)
        else:
            keep = 0.02 * s
        if led < 0:
            # Leading: the opponent takes with a higher card of the suit, or with a trump
            # when the card is worth 3 or more.
            b = 0
            extra = 0
            if suit != trump or pts >= 3:
                b = higher_unknown
                extra = higher_pts
            if suit != trump and trump >= 0 and pts >= 3:
                tb = trump * 10
                for x in range(tb, tb + 10):
                    if not gone[x] and x != brisc and x not in hand:
                        b += 1
                        extra += _PTS[x]
            q = q_row[b] if b <= u else 1.0
            p_win = 1.0 - q
            value = p_win * pts - q * (pts + (extra / b if b else 0.0))
        else:
            total = pts + _PTS[led]
            if beats[led * 40 + c]:
                p_win = 1.0
                value = total
            else:
                p_win = 0.0
                value = -total
        value -= keep
        if adjust > 0.0:
            value += (1.0 - 2.0 * p_win) * adjust
        value -= 0.001 * s + 0.00001 * c
        if value > best_value:
            best_value, best_card = value, c
    return best_card


def _policy_n(game: _Game, rules: _Rules, rng: random.Random) -> int:
    """The rollout policy for three or more players: medium's evaluation with cards as ints
    (the sides of the sample are taken as known)."""
    turn = game.turn
    hand = game.hands[turn]
    trick = game.trick
    options = _legal(hand, trick, rules.follow)
    if len(options) == 1:
        return options[0]
    if rules.epsilon and rng.random() < rules.epsilon:
        return options[int(rng.random() * len(options))]
    n = rules.n
    gone = game.gone
    trump = rules.trump
    strength = rules.strength
    beats = rules.tables.beats
    side = game.side
    hands = game.hands
    my_side = side[turn]
    stock_n = len(game.stock)
    brisc = game.stock[0] if stock_n and rules.turned else -1
    u = sum(len(h) for h in hands) - len(hand) + stock_n - (1 if brisc >= 0 else 0)
    leader = (turn - len(trick)) % n
    after = [(leader + i) % n for i in range(len(trick) + 1, n)]
    table_pts = 0
    best_seat = -1
    best = -1
    for i, c in enumerate(trick):
        table_pts += _PTS[c]
        if best < 0 or beats[best * 40 + c]:
            best, best_seat = c, (leader + i) % n
    adjust = 0.0
    if brisc >= 0 and stock_n == n and rules.alternating:
        adjust = 0.5 * (4.6 + 0.55 * (strength[brisc] - 1) + _PTS[brisc]) - 2.5
    best_card = options[0]
    best_value = -1e9
    for c in options:
        s = strength[c]
        suit = _SUIT[c]
        pts = table_pts + _PTS[c]
        if best < 0 or beats[best * 40 + c]:
            top, top_mine = c, True
        else:
            top, top_mine = best, side[best_seat] == my_side
        # Keep value of c (as in medium).
        base = suit * 10
        higher_any = False
        rich = False
        for x in range(base, base + 10):
            if gone[x] or x in hand:
                continue
            if strength[x] > s:
                higher_any = True
            if _PTS[x] >= 10:
                rich = True
        if len(hand) <= 1:
            keep = 0.0
        elif suit == trump:
            keep = 4.6 + 0.55 * (s - 1)
            if _PTS[c] and not higher_any:
                keep += 0.8 * _PTS[c]
        elif _PTS[c] >= 10 and not higher_any:
            keep = 0.02 * s + 1.5 + (1.0 if rich else 0.0)
        else:
            keep = 0.02 * s
        # Cards that would take the trick from ``top`` and that a later player would use.
        b = 0
        extra = 0
        top_suit = _SUIT[top]
        top_s = strength[top]
        if after:
            if top_suit != trump or pts >= 3:
                tb = top_suit * 10
                for x in range(tb, tb + 10):
                    if strength[x] > top_s and not gone[x] and x != brisc and x not in hand:
                        b += 1
                        extra += _PTS[x]
            if top_suit != trump and trump >= 0 and pts >= 3:
                tb = trump * 10
                for x in range(tb, tb + 10):
                    if not gone[x] and x != brisc and x not in hand:
                        b += 1
                        extra += _PTS[x]
        hold = 1.0
        rescue = 1.0
        if b:
            for seat in after:
                q = _Q[len(hands[seat])][u][b] if b <= u else 1.0
                if side[seat] == my_side:
                    rescue *= 1.0 - q
                else:
                    hold *= 1.0 - q
        p_win = hold if top_mine else 1.0 - rescue
        value = p_win * pts - (1.0 - p_win) * (pts + (extra / b if b else 0.0) * (1.0 - hold))
        value -= keep
        if adjust > 0.0:
            value += (1.0 - 2.0 * p_win) * adjust
        value -= 0.001 * s + 0.00001 * c
        if value > best_value:
            best_value, best_card = value, c
    return best_card


def _play(game: _Game, card: int, rules: _Rules) -> None:
    """Play ``card`` for the player to move; finish the trick and draw when complete."""
    n = rules.n
    turn = game.turn
    game.hands[turn].remove(card)
    game.gone[card] = True
    trick = game.trick
    trick.append(card)
    if len(trick) < n:
        game.turn = turn + 1 if turn + 1 < n else 0
        return
    beats = rules.tables.beats
    best_i = 0
    best = trick[0]
    for i in range(1, n):
        c = trick[i]
        if beats[best * 40 + c]:
            best_i, best = i, c
    winner = (turn + 1 + best_i) % n
    game.points[game.side[winner]] += sum(_PTS[c] for c in trick)
    trick.clear()
    stock = game.stock
    if stock:
        hands = game.hands
        for i in range(n):
            hands[(winner + i) % n].append(stock.pop())
    game.turn = winner


def _cards_left(game: _Game) -> int:
    return sum(len(h) for h in game.hands) + len(game.stock)


def _finish(
    game: _Game,
    rules: _Rules,
    rng: random.Random,
    root_side: int,
    at_root: bool = False,
) -> int:
    """Play ``game`` out: the policy, then the exact solver once the stock is empty and few
    cards remain (with ``at_root``, two players: through the last draws at once). Returns
    the work units spent; ``game.points`` then holds the final points."""
    work = 0
    solve_at = rules.solve_at
    policy = _policy2 if rules.n == 2 else _policy_n
    while True:
        trick = game.trick
        if not trick and not game.hands[game.turn]:
            return work
        if (not game.stock or at_root) and _cards_left(game) <= solve_at:
            if rules.n == 2 and not trick and not game.stock:
                turn = game.turn
                value, nodes = _solve2(
                    tuple(game.hands[turn]),
                    tuple(game.hands[1 - turn]),
                    game.side[turn] == root_side,
                    rules.tables.beats,
                )
            else:
                value, nodes = _solve(game, rules, root_side)
                nodes *= 2
            future = sum(_PTS[c] for h in game.hands for c in h) + sum(_PTS[c] for c in trick)
            game.points[root_side] += value
            # Paranoid: the others share what the root side does not take.
            other = future - value
            others = [s for s in range(len(game.points)) if s != root_side]
            for s in others:
                game.points[s] += other // len(others)
            game.points[others[0]] += other % len(others)
            for h in game.hands:
                h.clear()
            trick.clear()
            return work + nodes // 2
        _play(game, policy(game, rules, rng), rules)
        work += 1
        at_root = False


def _solve2(
    lead: tuple[int, ...], follow: tuple[int, ...], lead_is_root: bool, beats: tuple[bool, ...]
) -> tuple[int, int]:
    """Two players, empty stock, a trick about to be led: the exact future points of the
    root player (minimax). Returns (value, nodes)."""
    nodes = 0

    def search(a: tuple[int, ...], b: tuple[int, ...], a_root: bool) -> int:
        nonlocal nodes
        if not a:
            return 0
        best_lead = -1 if a_root else 1000
        for i, x in enumerate(a):
            rest_a = a[:i] + a[i + 1 :]
            best_reply = 1000 if a_root else -1
            for j, y in enumerate(b):
                nodes += 1
                rest_b = b[:j] + b[j + 1 :]
                pts = _PTS[x] + _PTS[y]
                if beats[x * 40 + y]:  # the follower takes the trick and leads next
                    value = (0 if a_root else pts) + search(rest_b, rest_a, not a_root)
                else:
                    value = (pts if a_root else 0) + search(rest_a, rest_b, a_root)
                if a_root:
                    if value < best_reply:
                        best_reply = value
                        if best_reply <= best_lead:
                            break  # this lead is no better than one already found
                elif value > best_reply:
                    best_reply = value
                    if best_reply >= best_lead:
                        break
            if a_root:
                if best_reply > best_lead:
                    best_lead = best_reply
            elif best_reply < best_lead:
                best_lead = best_reply
        return best_lead

    return search(lead, follow, lead_is_root), nodes


def _solve(game: _Game, rules: _Rules, root_side: int) -> tuple[int, int]:
    """Exact value (future points of ``root_side``) of the rest of ``game``, everybody
    playing perfectly (paranoid when there are more than two sides). Does not change
    ``game``. Returns (value, nodes searched)."""
    n = rules.n
    follow = rules.follow
    beats = rules.tables.beats
    hands = [list(h) for h in game.hands]
    stock = list(game.stock)
    trick = list(game.trick)
    side = game.side
    mine = [side[s] == root_side for s in range(n)]
    table: dict[tuple[object, ...], tuple[int, int]] = {}
    nodes = 0
    order_key = rules.tables.order.__getitem__
    # Transpositions only pay off in longer endings.
    use_table = sum(len(h) for h in hands) + len(stock) > 2 * n

    def search(turn: int, trick_pts: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        hand = hands[turn]
        if not hand:
            return 0
        key: tuple[object, ...] | None = None
        if use_table and not trick:
            key = (turn, *(frozenset(h) for h in hands))
            hit = table.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        options = _legal(hand, trick, follow)
        maximizing = mine[turn]
        # Big cards first: they decide most cutoffs.
        order = sorted(options, key=order_key)
        best = -1 if maximizing else 10**6
        for card in order:
            pos = hand.index(card)
            hand.pop(pos)
            trick.append(card)
            pts = trick_pts + _PTS[card]
            if len(trick) < n:
                value = search(turn + 1 if turn + 1 < n else 0, pts, alpha, beta)
                trick.pop()
            else:
                best_i = 0
                top = trick[0]
                for i in range(1, n):
                    c = trick[i]
                    if beats[top * 40 + c]:
                        best_i, top = i, c
                winner = (turn + 1 + best_i) % n
                gain = pts if mine[winner] else 0
                saved = list(trick)
                trick.clear()
                drawn: list[int] = []
                if stock:
                    for i in range(n):
                        seat = (winner + i) % n
                        hands[seat].append(stock.pop())
                        drawn.append(seat)
                value = gain + search(winner, 0, alpha - gain, beta - gain)
                for seat in reversed(drawn):
                    stock.append(hands[seat].pop())
                trick.extend(saved)
                trick.pop()
            hand.insert(pos, card)
            if maximizing:
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = table.get(key, (0, 10**6))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            table[key] = (lo, hi)
        return best

    value = search(game.turn, sum(_PTS[c] for c in trick), -1, 10**6)
    return value, nodes


# ---------------------------------------------------------------------------- sampling


@dataclass(frozen=True, slots=True)
class _Deal:
    """What a view fixes; samples fill in the rest."""

    n: int
    me: int
    hands: tuple[tuple[int, ...], ...]  # known cards per seat (all of mine)
    needs: tuple[int, ...]  # hidden cards per seat
    voids: tuple[frozenset[int], ...]
    unseen: tuple[int, ...]
    stock_bottom: tuple[int, ...]  # face-up briscola (bottom) when in the stock
    stock_top: tuple[int, ...]  # scoperta: the face-up top card
    stock_hidden: int
    trick: tuple[int, ...]
    gone: tuple[bool, ...]  # per card: played
    turn: int
    points: tuple[int, ...]  # per seat
    called: int  # Chiamata called card when the partner is unknown to this seat, else -1
    caller: int
    partner: int  # known partner, else -1


def _deal_of(seen: PlayerView) -> _Deal:
    rules = seen.rules
    n = rules.players
    me = seen.seat
    hands = tuple(
        tuple(c.index for c in seen.hand) if s == me else tuple(c.index for c in seen.known[s])
        for s in range(n)
    )
    needs = tuple(0 if s == me else seen.hand_sizes[s] - len(seen.known[s]) for s in range(n))
    bottom: tuple[int, ...] = ()
    top: tuple[int, ...] = ()
    hidden = seen.stock_size
    if seen.briscola_in_stock and seen.briscola is not None:
        bottom = (seen.briscola.index,)
        hidden -= 1
    if seen.stock_top is not None and not (seen.briscola_in_stock and seen.stock_size == 1):
        top = (seen.stock_top.index,)
        hidden -= 1
    played = {c.index for c in seen.played_cards()}
    called = -1
    if seen.called is not None and seen.partner is None:
        called = seen.called.index
    return _Deal(
        n=n,
        me=me,
        hands=hands,
        needs=needs,
        voids=tuple(frozenset(int(v) for v in seen.voids[s]) for s in range(n)),
        unseen=tuple(c.index for c in seen.unseen_cards()),
        stock_bottom=bottom,
        stock_top=top,
        stock_hidden=hidden,
        trick=tuple(c.index for _, c in seen.table),
        gone=tuple(c in played for c in range(40)),
        turn=me,
        points=seen.points,
        called=called,
        caller=seen.caller if seen.caller is not None else -1,
        partner=seen.partner if seen.partner is not None else -1,
    )


def _sides(seen: PlayerView, partner: int) -> tuple[int, ...]:
    rules = seen.rules
    n = rules.players
    if rules.chiamata:
        calling = {seen.caller, partner}
        return tuple(0 if s in calling else 1 for s in range(n))
    return tuple(rules.side_of(s) for s in range(n))


def _sample_hands(deal: _Deal, rng: random.Random) -> tuple[list[list[int]], list[int]] | None:
    """Other hands and the stock (top last) for one sample; None if voids made it fail."""
    pool = list(deal.unseen)
    rng.shuffle(pool)
    n = deal.n
    hands = [list(h) for h in deal.hands]
    if any(deal.voids[s] for s in range(n) if s != deal.me):
        order = sorted(
            (s for s in range(n) if s != deal.me and deal.needs[s]),
            key=lambda s: -len(deal.voids[s]),
        )
        for s in order:
            banned = deal.voids[s]
            got = 0
            rest = []
            for c in pool:
                if got < deal.needs[s] and _SUIT[c] not in banned:
                    hands[s].append(c)
                    got += 1
                else:
                    rest.append(c)
            if got < deal.needs[s]:
                return None
            pool = rest
        hidden = pool
    else:
        pos = 0
        for s in range(n):
            need = deal.needs[s]
            if need:
                hands[s].extend(pool[pos : pos + need])
                pos += need
        hidden = pool[pos:]
    stock = [*deal.stock_bottom, *hidden, *deal.stock_top]
    return hands, stock


# ---------------------------------------------------------------------------- inference


def _likelihood(seen: PlayerView, hands: list[list[int]], rules: _Rules) -> float:
    """How well a sample explains the opponents' plays in the last trick(s) they played
    while holding cards that are still in their hands in the sample.

    Model: a player who let a trick worth 10 or more points go while holding a cheap card
    that would have taken it (a higher card of the suit, or a low trump) did so rarely
    (factor 0.25); one who trumped or overtook a poor trick while holding a liscio also
    rarely (0.5). Only cards that the player certainly held at that time count: with a draw
    after every trick, that is the cards of the current hand minus the last draw, which is
    one of them at random.
    """
    n = seen.rules.players
    me = seen.seat
    beats = rules.tables.beats
    weight = 1.0
    recent = seen.tricks[-1:] if seen.stock_size else seen.tricks[-2:]
    for trick in recent:
        cards = [c.index for c in trick.cards]
        for pos in range(1, n):
            seat = trick.seats[pos]
            if seat == me:
                continue
            held = hands[seat]
            best_i = 0
            for i in range(1, pos):
                if beats[cards[best_i] * 40 + cards[i]]:
                    best_i = i
            best = cards[best_i]
            played = cards[pos]
            worth = sum(_PTS[c] for c in cards[:pos])
            took = bool(beats[best * 40 + played])
            if not took and worth + _PTS[played] >= 10:
                cheap = [
                    c
                    for c in held
                    if beats[best * 40 + c] and (_SUIT[c] != rules.trump or _PTS[c] == 0)
                ]
                if cheap:
                    weight *= 0.25
            elif (
                took
                and worth == 0
                and _PTS[played] == 0
                and _SUIT[played] == rules.trump
                and any(_PTS[c] == 0 and _SUIT[c] != rules.trump for c in held)
            ):
                weight *= 0.5
    return weight


# ---------------------------------------------------------------------------- the bots


def _utility(
    points: Sequence[float], side: int, target: int, three_way: bool, margin: float
) -> float:
    mine = points[side]
    if three_way:
        top = max(p for s, p in enumerate(points) if s != side)
        win = 1.0 if mine > top else 0.5 if mine == top else 0.0
        return win + margin * (mine - top)
    win = 1.0 if mine >= target else 0.0
    if target == 61 and mine == 60:
        win = 0.5
    return win + margin * (mine - 60)


#: Work units per move by player count: tuned to about 250 ms per move at the 95th
#: percentile on one core for two players, 300 ms for five (measured: docs/ai.md).
DEFAULT_BUDGET: Final[dict[int, int]] = {2: 28000, 3: 20000, 4: 30000, 5: 40000, 6: 30000}


class HardBot:
    """Search over samples consistent with the view (see the module docstring).

    Options: ``budget`` (work units per move; fixed, reproducible), ``time_limit`` (seconds;
    a clock on top of the budget), ``inference`` (weight samples by the opponents' plays),
    ``epsilon`` (rollout randomness), ``margin`` (utility per point of margin),
    ``solve_at`` (cards left at which the rest of a hand is solved exactly), ``min_samples``,
    ``confidence`` (how many standard errors the best line must gain over medium's move for
    hard to leave it; 0 plays the best line whatever the noise).
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        time_limit: float | None = None,
        budget: int | None = None,
        inference: bool = True,
        epsilon: float = 0.05,
        solve_at: int | None = None,
        min_samples: int = 8,
        deterministic: bool = False,
        margin: float = 0.002,
        confidence: float = 1.0,
    ) -> None:
        self.name = "hard"
        self.margin = margin
        self.confidence = confidence
        self.rng = rng or random.Random(0)
        self.time_limit = None if deterministic else time_limit
        self.budget = budget
        self.inference = inference
        self.epsilon = epsilon
        self.solve_at = solve_at
        self.min_samples = min_samples
        #: Statistics of the last search: samples taken, mean utility of each line.
        self.last_samples = 0
        self.last_values: dict[str, float] = {}

    def _budget(self, n: int) -> int:
        if self.budget is not None:
            return self.budget
        return DEFAULT_BUDGET.get(n, 30000)

    def _solve_at(self, n: int) -> int:
        if self.solve_at is not None:
            return self.solve_at
        return {2: 8, 3: 6, 4: 8, 5: 10, 6: 12}.get(n, 10)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if view.phase != "play":
            return medium_action(view)
        return self._search(view)

    def _search(self, seen: PlayerView) -> Action:
        rng = self.rng
        n = seen.rules.players
        trump = int(seen.trump) if seen.trump is not None else -1
        tables = _TABLES[(trump, seen.rules.three_as_three)]
        rules = _Rules(
            n=n,
            follow=seen.rules.follow_suit,
            trump=trump,
            tables=tables,
            solve_at=self._solve_at(n),
            epsilon=self.epsilon,
            strength=_STR[seen.rules.three_as_three],
            turned=seen.rules.turned_briscola,
            alternating=n == 2 or seen.rules.teams,
        )
        plays = [a for a in seen.legal if isinstance(a, Play)]
        swap = next((a for a in seen.legal if isinstance(a, Swap)), None)
        deal = _deal_of(seen)
        three_way = len(seen.rules.sides) > 2
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + 0.92 * self.time_limit
        budget = self._budget(n)
        places = sum(1 for s in range(n) if deal.needs[s]) + (1 if deal.stock_hidden else 0)
        perfect = places <= 1
        # Candidate lines: each play, and (when legal) a swap followed by each play.
        lines: list[tuple[Swap | None, int]] = [(None, a.card.index) for a in plays]
        if swap is not None:
            briscola = seen.briscola
            assert briscola is not None
            swapped_hand = [c.index for c in seen.hand if c is not swap.card] + [briscola.index]
            lines += [(swap, c) for c in swapped_hand]
        totals = [0.0] * len(lines)
        utils = [0.0] * len(lines)
        diffs = [0.0] * len(lines)
        diffs2 = [0.0] * len(lines)
        wsum = wsum2 = 0.0
        # The rule player's choice is the default; search must show a clear gain to leave it.
        ruled = medium_action(seen)
        default = 0
        for i, (swap_action, card) in enumerate(lines):
            if (isinstance(ruled, Swap) and swap_action is not None) or (
                isinstance(ruled, Play) and swap_action is None and card == ruled.card.index
            ):
                default = i
                break
        # Two players, at most one hidden card left in the stock: solve through the draws.
        stock_solve = n == 2 and seen.stock_size <= 2
        work = 0
        samples = 0
        inference = self.inference and not perfect
        # Few possible deals (two players near the end of the stock): take each once.
        every = _enumerate2(deal) if n == 2 and not perfect else None
        exact = perfect or every is not None
        # Chiamata: who holds the called card, as the play so far suggests.
        partner_odds = partner_probabilities(seen) if inference and deal.called >= 0 else None
        while True:
            if every is not None:
                if samples >= len(every):
                    break
                hands, stock = every[samples]
                hands = [list(h) for h in hands]
                stock = list(stock)
            else:
                if samples >= self.min_samples or perfect:
                    if perfect and samples:
                        break
                    if work >= budget:
                        break
                    if deadline is not None and time.perf_counter() > deadline:
                        break
                sampled = _sample_hands(deal, rng)
                if sampled is None:
                    # Void constraints are hard to meet by chance: the engine's dealer.
                    sampled = _from_engine(seen, rng)
                hands, stock = sampled
            partner = deal.partner
            if deal.called >= 0:
                partner = next(s for s in range(n) if deal.called in hands[s])
            side = _sides(seen, partner)
            points: list[float] = [0.0] * (max(side) + 1)
            for s in range(n):
                points[side[s]] += deal.points[s]
            root_side = side[deal.me]
            target = 61
            if seen.rules.chiamata and seen.high_bid is not None:
                target = seen.high_bid.points if root_side == 0 else 121 - seen.high_bid.points
            weight = _likelihood(seen, hands, rules) if inference else 1.0
            if inference and partner_odds is not None:
                weight *= partner_odds[partner]
            base = _Game(hands, stock, list(deal.trick), deal.turn, side, points, list(deal.gone))
            seed = rng.random()
            for i, (swap_action, card) in enumerate(lines):
                game = base.copy()
                if swap_action is not None:
                    game.hands[deal.me].remove(swap_action.card.index)
                    game.hands[deal.me].append(game.stock[0])
                    game.stock[0] = swap_action.card.index
                _play(game, card, rules)
                # Common random numbers: every line sees the same rollout randomness.
                work += 1 + _finish(game, rules, random.Random(seed), root_side, stock_solve)
                utils[i] = _utility(game.points, root_side, target, three_way, self.margin)
            base_u = utils[default]
            for i in range(len(lines)):
                totals[i] += weight * utils[i]
                diff = utils[i] - base_u
                diffs[i] += weight * diff
                diffs2[i] += weight * diff * diff
            wsum += weight
            wsum2 += weight * weight
            samples += 1
        self.last_samples = samples
        self.last_values = {
            (str(swap_action) + " " if swap_action else "") + Card.from_index(card).code: (
                totals[i] / wsum if wsum else 0.0
            )
            for i, (swap_action, card) in enumerate(lines)
        }
        best = max(range(len(lines)), key=lambda i: (totals[i], -i))
        if lines[default][0] is not None and lines[best][0] is not None:
            default = best  # medium swaps too; which card follows is search's choice
        if best != default and not exact and wsum > 0:
            # Sampling noise: leave the rule player's move only on clear evidence.
            mean = diffs[best] / wsum
            var = max(0.0, diffs2[best] / wsum - mean * mean)
            n_eff = wsum * wsum / wsum2
            if mean <= self.confidence * math.sqrt(var / n_eff):
                best = default
        swap_action, card = lines[best]
        if swap_action is not None:
            return swap_action
        return Play(Card.from_index(card))


def _enumerate2(deal: _Deal, limit: int = 24) -> list[tuple[list[list[int]], list[int]]] | None:
    """Two players: every deal of the unseen cards (opponent's hand, hidden stock in every
    order) when there are at most ``limit`` of them, else None."""
    opp = 1 - deal.me
    need = deal.needs[opp]
    hidden = deal.stock_hidden
    unseen = deal.unseen
    if deal.voids[opp] or need + hidden != len(unseen):
        return None
    if comb(len(unseen), need) * factorial(hidden) > limit:
        return None
    out = []
    for chosen in combinations(unseen, need):
        rest = [c for c in unseen if c not in chosen]
        for order in permutations(rest):
            hands = [list(h) for h in deal.hands]
            hands[opp].extend(chosen)
            out.append((hands, [*deal.stock_bottom, *order, *deal.stock_top]))
    return out


def _from_engine(seen: PlayerView, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    state = determinize(seen, rng)
    hands = [[c.index for c in hand] for hand in state.hands]
    stock = [c.index for c in reversed(state.stock)]
    return hands, stock


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
