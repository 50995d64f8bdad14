"""Hard's search for three or more players made cheaper per work unit (issue 51) computes
what it computed before: the policy's values as the reference they were written from, the
exact endings' values and node counts (the work units) as the search that called itself
for the last trick, and the playout loop as the policy and :func:`.core.play` one call at a
time."""

from __future__ import annotations

import random

import pytest

from briscola.ai.heuristic import TIE_INDEX, TIE_STRENGTH, TRUMP_WORTH, briscola_draw_value
from briscola.ai.search.core import (
    POINTS,
    SUIT,
    SUIT_MASK,
    Game,
    SearchRules,
    cards_left,
    legal_cards,
    mask_of,
    play,
    points_in,
)
from briscola.ai.search.rollout import (
    HOLD_ODDS,
    RICH,
    _keep,
    _solve_rest,
    finish,
    policy_n,
    values_n,
)
from briscola.ai.search.solver import _draw, _undraw, solve
from briscola.engine.sim import taker

#: (players, each seat's side, follow suit, trump, seats alternate between two sides)
CASES = [
    (3, (0, 1, 2), False, 1, False),
    (4, (0, 1, 0, 1), False, 2, True),
    (4, (0, 1, 0, 1), True, -1, True),
    (5, (0, 1, 1, 0, 1), False, 0, False),
    (6, (0, 1, 0, 1, 0, 1), False, 3, True),
]


def reference_values_n(game: Game, rules: SearchRules, options: list[int]) -> list[float]:
    """The policy's values for three or more players as they were computed before the card
    tables (:func:`_keep` and the tie-break per card, the odds per card and later seat)."""
    turn = game.turn
    hand = game.hands[turn]
    trick = game.trick
    n = rules.n
    trump = rules.trump
    strength = rules.strength
    higher_of = rules.higher
    beats = rules.beats
    side = game.side
    hands = game.hands
    my_side = side[turn]
    stock_n = len(game.stock)
    brisc = game.stock[0] if stock_n and rules.turned else -1
    u = sum(len(h) for h in hands) - len(hand) + stock_n - (1 if brisc >= 0 else 0)
    leader = (turn - len(trick)) % n
    after = [(leader + i) % n for i in range(len(trick) + 1, n)]
    table_pts = 0
    for c in trick:
        table_pts += POINTS[c]
    best_seat = -1
    best = -1
    if trick:
        i = taker(trick, beats)
        best, best_seat = trick[i], (leader + i) % n
    adjust = 0.0
    if brisc >= 0 and stock_n == n and rules.alternating:
        adjust = briscola_draw_value(strength[brisc], POINTS[brisc])
    # As in values2: the cards still out, and those the player has not seen.
    out = ~(game.gone | mask_of(hand))
    unseen = out & ~(1 << brisc) if brisc >= 0 else out
    size = len(hand)
    values: list[float] = []
    for c in options:
        s = strength[c]
        suit = SUIT[c]
        pts = table_pts + POINTS[c]
        if best < 0 or beats[best * 40 + c]:
            top, top_mine = c, True
        else:
            top, top_mine = best, side[best_seat] == my_side
        keep = _keep(
            size,
            suit == trump,
            s,
            POINTS[c],
            out & higher_of[c] != 0,
            out & RICH & SUIT_MASK[suit] != 0,
        )
        # Cards that would take the trick from ``top`` and that a later player would use.
        b = 0
        extra = 0
        top_suit = SUIT[top]
        if after:
            if top_suit != trump or pts >= TRUMP_WORTH:
                beaters = unseen & higher_of[top]
                b = beaters.bit_count()
                extra = points_in(beaters, top_suit)
            if top_suit != trump and trump >= 0 and pts >= TRUMP_WORTH:
                trumps = unseen & SUIT_MASK[trump]
                b += trumps.bit_count()
                extra += points_in(trumps, trump)
        hold = 1.0
        rescue = 1.0
        if b:
            for seat in after:
                q = HOLD_ODDS[len(hands[seat])][u][b] if b <= u else 1.0
                if side[seat] == my_side:
                    rescue *= 1.0 - q
                else:
                    hold *= 1.0 - q
        p_win = hold if top_mine else 1.0 - rescue
        value = p_win * pts - (1.0 - p_win) * (pts + (extra / b if b else 0.0) * (1.0 - hold))
        value -= keep
        if adjust > 0.0:
            value += (1.0 - 2.0 * p_win) * adjust
        value -= TIE_STRENGTH * s + TIE_INDEX * c
        values.append(value)
    return values


def reference_solve(game: Game, rules: SearchRules, root_side: int) -> tuple[int, int]:
    """:func:`.solver.solve` as it was before the last trick was counted without a call."""
    n = rules.n
    follow = rules.follow
    beats = rules.beats
    hands = [list(h) for h in game.hands]
    stock = list(game.stock)
    trick = list(game.trick)
    side = game.side
    mine = [side[s] == root_side for s in range(n)]
    table: dict[tuple[object, ...], tuple[int, int]] = {}
    nodes = 0
    order_key = rules.order.__getitem__
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
        options = legal_cards(hand, trick, follow)
        maximizing = mine[turn]
        # Big cards first: they decide most cutoffs.
        order = sorted(options, key=order_key)
        best = -1 if maximizing else 10**6
        for card in order:
            pos = hand.index(card)
            hand.pop(pos)
            trick.append(card)
            pts = trick_pts + POINTS[card]
            if len(trick) < n:
                value = search(turn + 1 if turn + 1 < n else 0, pts, alpha, beta)
                trick.pop()
            else:
                winner = (turn + 1 + taker(trick, beats)) % n
                gain = pts if mine[winner] else 0
                saved = list(trick)
                trick.clear()
                drawn = _draw(hands, stock, winner, n) if stock else []
                value = gain + search(winner, 0, alpha - gain, beta - gain)
                _undraw(hands, stock, drawn)
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

    value = search(game.turn, sum(POINTS[c] for c in trick), -1, 10**6)
    return value, nodes


def _games(
    n: int, side: tuple[int, ...], follow: bool, rng: random.Random, count: int
) -> list[Game]:
    """``count`` positions of each hand of a seeded series: every decision with a choice,
    the hands played at random (a copy of the game at each)."""
    out: list[Game] = []
    rules = SearchRules.make(n=n, follow=follow, trump=-1, solve_at=0, epsilon=0.0)
    while len(out) < count:
        deck = list(range(40))
        rng.shuffle(deck)
        deck = deck[: n * (40 // n)]
        hands = [deck[3 * s : 3 * s + 3] for s in range(n)]
        game = Game(hands, deck[3 * n :], [], rng.randrange(n), side, [0.0] * (max(side) + 1), 0)
        while game.hands[game.turn] and len(out) < count:
            options = legal_cards(game.hands[game.turn], game.trick, follow)
            if len(options) > 1:
                out.append(game.copy())
            play(game, rng.choice(options), rules)
    return out


def _rules(
    n: int, follow: bool, trump: int, alternating: bool, solve_at: int = 0, epsilon: float = 0.0
) -> SearchRules:
    return SearchRules.make(
        n=n,
        follow=follow,
        trump=trump,
        solve_at=solve_at,
        epsilon=epsilon,
        alternating=alternating,
        maxn=not alternating,
    )


@pytest.mark.parametrize(("n", "side", "follow", "trump", "alternating"), CASES)
def test_policy_values_are_the_reference_ones(
    n: int, side: tuple[int, ...], follow: bool, trump: int, alternating: bool
) -> None:
    rules = _rules(n, follow, trump, alternating)
    games = _games(n, side, follow, random.Random(n * 10 + trump), 400)
    for game in games:
        options = legal_cards(game.hands[game.turn], game.trick, follow)
        assert values_n(game, rules, options) == reference_values_n(game, rules, options)


@pytest.mark.parametrize(("n", "side", "follow", "trump", "alternating"), CASES)
def test_endings_solved_as_before(
    n: int, side: tuple[int, ...], follow: bool, trump: int, alternating: bool
) -> None:
    """The same value and the same nodes (work units) for every ending, trick in progress
    or not, a round of the stock still to draw or not (with four players or fewer)."""
    rules = _rules(n, follow, trump, True)
    limit = 3 * n + (n if n <= 4 else 0)
    rng = random.Random(n + trump)
    endings = [g for g in _games(n, side, follow, rng, 3000) if cards_left(g) <= limit][:60]
    assert len(endings) == 60
    assert any(g.trick for g in endings) and any(g.stock for g in endings) == (n <= 4)
    for game in endings:
        for root in sorted(set(side)):
            assert solve(game, rules, root) == reference_solve(game, rules, root)


def _reference_finish(game: Game, rules: SearchRules, rng: random.Random, root: int) -> int:
    """The playout as it was: the policy, then :func:`.core.play`, one call at a time."""
    work = 0
    at_root = True
    while True:
        if not game.trick and not game.hands[game.turn]:
            return work
        if (not game.stock or at_root) and cards_left(game) <= rules.solve_at:
            return work + _solve_rest(game, rules, root, None)
        play(game, policy_n(game, rules, rng), rules)
        work += 1
        at_root = False


@pytest.mark.parametrize(("n", "side", "follow", "trump", "alternating"), CASES)
def test_playouts_are_the_reference_ones(
    n: int, side: tuple[int, ...], follow: bool, trump: int, alternating: bool
) -> None:
    rules = _rules(n, follow, trump, alternating, solve_at=2 * n, epsilon=0.1)
    for i, game in enumerate(_games(n, side, follow, random.Random(n), 40)):
        mine, theirs = game.copy(), game.copy()
        rng_mine, rng_theirs = random.Random(i), random.Random(i)
        work = finish(mine, rules, rng_mine, 0, at_root=True)
        assert work == _reference_finish(theirs, rules, rng_theirs, 0)
        assert mine.points == theirs.points
        assert rng_mine.random() == rng_theirs.random()
