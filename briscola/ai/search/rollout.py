"""The rollout policy: medium's rules of thumb, fast, with cards as ints.

:func:`policy2` (two players) and :func:`policy_n` (three or more) score every legal card
as :func:`briscola.ai.medium.evaluate_play` does (the weights of
:mod:`briscola.ai.heuristic`), from what the player to move could know in the sample: its
own hand and the cards played. :func:`finish` plays a sample out with them and hands the
last cards to the exact solver (:mod:`.solver`).

Where the two players must agree (a test checks it): a seat that plays last to a trick,
outside Scoperta and Chiamata, gets medium's card. Elsewhere the policy is a cheaper
approximation (it counts the beaters' points in full when leading, ignores the face-up top
card of Scoperta and treats the sample's sides as known).
"""

from __future__ import annotations

import random
from math import comb
from typing import Final

from briscola.ai.heuristic import (
    ACE_KEEP,
    BOSS_TRUMP_SHARE,
    RICH_SUIT_KEEP,
    SIDE_KEEP_PER_STRENGTH,
    TIE_INDEX,
    TIE_STRENGTH,
    TRUMP_KEEP,
    TRUMP_WORTH,
    briscola_draw_value,
    scoperta_top_value,
)
from briscola.ai.search.core import (
    POINTS,
    SUIT,
    SUIT_MASK,
    SUIT_POINTS,
    Game,
    SearchRules,
    legal_cards,
    mask_of,
    points_in,
)
from briscola.ai.search.solver import solve, solve2, solve_maxn
from briscola.engine.sim import taker

__all__ = ["HOLD_ODDS", "finish", "policy2", "policy_n", "values2", "values_n"]


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


HOLD_ODDS: Final = _comb_table(8)
#: The Aces and Threes of every suit: a suit with one of them still out is "rich".
RICH: Final = mask_of(c for c in range(40) if POINTS[c] >= 10)


def _keep(
    hand_size: int, is_trump: bool, strength: int, points: int, higher_any: bool, rich: bool
) -> float:
    """Medium's keep value (:func:`briscola.ai.medium.keep_value`) from the facts the
    policies gather: ``higher_any``, an outstanding card of the suit beats it; ``rich``, an
    Ace or Three of the suit is still out."""
    if hand_size <= 1:
        return 0.0
    if is_trump:
        keep = TRUMP_KEEP[strength]
        if points and not higher_any:
            keep += BOSS_TRUMP_SHARE * points
        return keep
    if points >= 10 and not higher_any:
        return SIDE_KEEP_PER_STRENGTH * strength + ACE_KEEP + (RICH_SUIT_KEEP if rich else 0.0)
    return SIDE_KEEP_PER_STRENGTH * strength


def _unweighed(options: list[int], rules: SearchRules, rng: random.Random) -> int:
    """The card a policy plays without weighing the options: the only one, or (with
    ``rules.epsilon``'s chance) a random one; -1 when the options are to be weighed."""
    if len(options) == 1:
        return options[0]
    if rules.epsilon and rng.random() < rules.epsilon:
        return options[int(rng.random() * len(options))]
    return -1


def policy2(game: Game, rules: SearchRules, rng: random.Random) -> int:
    """The two-player rollout policy: medium's evaluation (:mod:`briscola.ai.medium`) with
    cards as ints. Each player counts the cards played and knows its own hand only."""
    options = legal_cards(game.hands[game.turn], game.trick, rules.follow)
    unweighed = _unweighed(options, rules, rng)
    if unweighed >= 0:
        return unweighed
    values = values2(game, rules, options)
    return options[values.index(max(values))]


#: What :func:`values2` needs of one card, for one trump and strength table: strength,
#: points, the mask of its suit's stronger cards, the mask of its suit's Aces and Threes,
#: its suit's bit offset, the tie-break term, whether a higher card of its suit and whether
#: (it not a trump, worth 3 or more) the trumps take it when it leads.
_Card = tuple[int, int, int, int, int, float, bool, bool]
#: Per card: its row of :data:`_Card`, and its keep value (hand of two or more) at ``4 * card
#: + 2 * (an outstanding card of the suit beats it) + (an Ace or Three of the suit is out)``.
_Tables = tuple[tuple[_Card, ...], tuple[float, ...]]
#: The keep values of a hand of one card: none.
_NO_KEEP: Final = (0.0,) * 160
#: Per (trump, ``id`` of the strength table): that table and its :data:`_Tables`.
_TABLES: dict[tuple[int, int], tuple[tuple[int, ...], _Tables]] = {}


def _tables(rules: SearchRules) -> _Tables:
    """The per-card tables of :func:`values2` for ``rules`` (made once per trump and
    strength table): the same figures :func:`_keep` and the tie-break give, computed once."""
    key = (rules.trump, id(rules.strength))
    cached = _TABLES.get(key)
    if cached is None or cached[0] is not rules.strength:
        trump = rules.trump
        cards: list[_Card] = []
        keeps: list[float] = []
        for c in range(40):
            s = rules.strength[c]
            suit = SUIT[c]
            pts = POINTS[c]
            is_trump = suit == trump
            cards.append(
                (
                    s,
                    pts,
                    rules.higher[c],
                    RICH & SUIT_MASK[suit],
                    10 * suit,
                    TIE_STRENGTH * s + TIE_INDEX * c,
                    not is_trump or pts >= TRUMP_WORTH,
                    not is_trump and trump >= 0 and pts >= TRUMP_WORTH,
                )
            )
            keeps += (
                _keep(2, is_trump, s, pts, beaten, rich)
                for beaten in (False, True)
                for rich in (False, True)
            )
        cached = _TABLES[key] = (rules.strength, (tuple(cards), tuple(keeps)))
    return cached[1]


def values2(game: Game, rules: SearchRules, options: list[int]) -> list[float]:
    """The two-player policy's value of each of ``options`` (the higher, the likelier)."""
    return _values2(game, rules, options, _tables(rules))


def _values2(game: Game, rules: SearchRules, options: list[int], tables: _Tables) -> list[float]:
    """:func:`values2` with the card tables of ``rules`` (:func:`_tables`) given."""
    turn = game.turn
    hand = game.hands[turn]
    trick = game.trick
    trump = rules.trump
    stock = game.stock
    stock_n = len(stock)
    brisc = stock[0] if stock_n and rules.turned else -1
    h = len(game.hands[1 - turn])
    u = h + stock_n - (1 if brisc >= 0 else 0)
    adjust = 0.0
    top_value = 0.0
    # The cards still out (not played, not mine), and those the player has not seen (not
    # the face-up briscola or scoperta top either), as bit masks.
    mine = 0
    for c in hand:
        mine |= 1 << c
    out = ~(game.gone | mine)
    unseen = out & ~(1 << brisc) if brisc >= 0 else out
    if brisc >= 0 and stock_n == 2:
        adjust = briscola_draw_value(rules.strength[brisc], POINTS[brisc])
    elif rules.scoperta and stock_n and stock[-1] >= 0:
        # Scoperta: the trick's winner draws the face-up top card (medium's weighing).
        top = stock[-1]
        top_value = scoperta_top_value(POINTS[top], SUIT[top] == trump)
        unseen &= ~(1 << top)
        u -= 1
    cards, keeps = tables
    if len(hand) < 2:
        keeps = _NO_KEEP
    terms = adjust > 0.0 or top_value != 0.0
    values: list[float] = []
    # (Each value is computed as medium's evaluation computes it, term by term in the same
    # order, so that the same card wins: :func:`_keep` and the tie-break come from tables.)
    if trick:
        led = trick[0]
        led_pts = POINTS[led]
        row = led * 40
        beats = rules.beats
        for c in options:
            _, pts, higher_mask, rich_mask, _, tie, _, _ = cards[c]
            keep = keeps[4 * c + (2 if out & higher_mask else 0) + (1 if out & rich_mask else 0)]
            total = pts + led_pts
            if beats[row + c]:
                p_win = 1.0
                value = total - keep
            else:
                p_win = 0.0
                value = -total - keep
            if terms:
                value = _with_draws(value, p_win, adjust, top_value)
            values.append(value - tie)
        return values
    # Leading: the opponent takes with a higher card of the suit, or with a trump when the
    # card is worth 3 or more.
    q_row = HOLD_ODDS[h][u]
    trumps_b = trumps_pts = 0
    if trump >= 0:
        trumps = unseen & SUIT_MASK[trump]
        trumps_b = trumps.bit_count()
        trumps_pts = points_in(trumps, trump)
    for c in options:
        _, pts, higher_mask, rich_mask, shift, tie, by_suit, by_trumps = cards[c]
        higher = out & higher_mask
        keep = keeps[4 * c + (2 if higher else 0) + (1 if out & rich_mask else 0)]
        b = 0
        extra = 0
        if by_suit:
            beaters = higher & unseen
            b = beaters.bit_count()
            extra = SUIT_POINTS[beaters >> shift]
        if by_trumps:
            b += trumps_b
            extra += trumps_pts
        q = q_row[b] if b <= u else 1.0
        p_win = 1.0 - q
        value = p_win * pts - q * (pts + (extra / b if b else 0.0))
        value -= keep
        if terms:
            value = _with_draws(value, p_win, adjust, top_value)
        values.append(value - tie)
    return values


def _with_draws(value: float, p_win: float, adjust: float, top_value: float) -> float:
    """``value`` with what the next draws are worth: the face-up briscola to the trick's
    loser at the last draw (``adjust``), Scoperta's face-up top card to its winner."""
    if adjust > 0.0:
        value += (1.0 - 2.0 * p_win) * adjust
    if top_value:
        value += (2.0 * p_win - 1.0) * top_value
    return value


def policy_n(game: Game, rules: SearchRules, rng: random.Random) -> int:
    """The rollout policy for three or more players: medium's evaluation with cards as ints
    (the sides of the sample are taken as known)."""
    options = legal_cards(game.hands[game.turn], game.trick, rules.follow)
    unweighed = _unweighed(options, rules, rng)
    if unweighed >= 0:
        return unweighed
    values = values_n(game, rules, options)
    return options[values.index(max(values))]


def values_n(game: Game, rules: SearchRules, options: list[int]) -> list[float]:
    """The policy's value of each of ``options`` for three or more players."""
    return _values_n(game, rules, options, _tables(rules))


def _values_n(game: Game, rules: SearchRules, options: list[int], tables: _Tables) -> list[float]:
    """:func:`values_n` with the card tables of ``rules`` (:func:`_tables`) given: each
    value computed as medium's evaluation computes it, term by term in the same order, the
    keep value and the tie-break read from the tables, the later seats' odds of holding a
    beater computed once per number of beaters."""
    turn = game.turn
    hands = game.hands
    hand = hands[turn]
    trick = game.trick
    n = rules.n
    trump = rules.trump
    higher_of = rules.higher
    beats = rules.beats
    side = game.side
    my_side = side[turn]
    stock = game.stock
    stock_n = len(stock)
    brisc = stock[0] if stock_n and rules.turned else -1
    u = stock_n - len(hand) - (1 if brisc >= 0 else 0)
    for h in hands:
        u += len(h)
    played = len(trick)
    leader = (turn - played) % n
    table_pts = 0
    for c in trick:
        table_pts += POINTS[c]
    best = -1
    best_mine = False
    if trick:
        i = taker(trick, beats)
        best = trick[i]
        best_mine = side[(leader + i) % n] == my_side
    adjust = 0.0
    if brisc >= 0 and stock_n == n and rules.alternating:
        adjust = briscola_draw_value(rules.strength[brisc], POINTS[brisc])
    # As in values2: the cards still out, and those the player has not seen.
    mine = 0
    for c in hand:
        mine |= 1 << c
    out = ~(game.gone | mine)
    unseen = out & ~(1 << brisc) if brisc >= 0 else out
    trumps_b = trumps_pts = 0
    if trump >= 0:
        trumps = unseen & SUIT_MASK[trump]
        trumps_b = trumps.bit_count()
        trumps_pts = points_in(trumps, trump)
    # The seats still to play to the trick: their row of odds, and whether on my side.
    after: list[tuple[tuple[float, ...], bool]] = []
    for i in range(played + 1, n):
        seat = (leader + i) % n
        after.append((HOLD_ODDS[len(hands[seat])][u], side[seat] == my_side))
    odds: dict[int, tuple[float, float]] = {}
    cards, keeps = tables
    if len(hand) < 2:
        keeps = _NO_KEEP
    values: list[float] = []
    for c in options:
        _, c_pts, higher_mask, rich_mask, _, tie, _, _ = cards[c]
        pts = table_pts + c_pts
        if best < 0 or beats[best * 40 + c]:
            top, top_mine = c, True
        else:
            top, top_mine = best, best_mine
        keep = keeps[4 * c + (2 if out & higher_mask else 0) + (1 if out & rich_mask else 0)]
        # Cards that would take the trick from ``top`` and that a later player would use.
        b = 0
        extra = 0
        if after:
            top_suit = SUIT[top]
            if top_suit != trump or pts >= TRUMP_WORTH:
                beaters = unseen & higher_of[top]
                b = beaters.bit_count()
                extra = SUIT_POINTS[beaters >> (10 * top_suit)]
            if top_suit != trump and trump >= 0 and pts >= TRUMP_WORTH:
                b += trumps_b
                extra += trumps_pts
        hold = 1.0
        rescue = 1.0
        if b:
            known = odds.get(b)
            if known is None:
                for row, ours in after:
                    q = row[b] if b <= u else 1.0
                    if ours:
                        rescue *= 1.0 - q
                    else:
                        hold *= 1.0 - q
                odds[b] = (hold, rescue)
            else:
                hold, rescue = known
        p_win = hold if top_mine else 1.0 - rescue
        value = p_win * pts - (1.0 - p_win) * (pts + (extra / b if b else 0.0) * (1.0 - hold))
        value -= keep
        if adjust > 0.0:
            value += (1.0 - 2.0 * p_win) * adjust
        value -= tie
        values.append(value)
    return values


def _share(game: Game, root_side: int, value: int) -> None:
    """Add the solved ``value`` (the root side's future points) to ``game.points``; the
    others (paranoid: all against the root side) share what the root side does not take."""
    future = sum(POINTS[c] for h in game.hands for c in h) + sum(POINTS[c] for c in game.trick)
    game.points[root_side] += value
    others = [s for s in range(len(game.points)) if s != root_side]
    other = future - value
    for s in others:
        game.points[s] += other // len(others)
    game.points[others[0]] += other % len(others)


def finish(
    game: Game,
    rules: SearchRules,
    rng: random.Random,
    root_side: int,
    at_root: bool = False,
    endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] | None = None,
    choices: dict[tuple[int, ...], int] | None = None,
) -> int:
    """Play ``game`` out: the policy, then the exact solver once the stock is empty and few
    cards remain (with ``at_root``, two players: through the last draws at once). Returns
    the work units spent; ``game.points`` then holds the final points. ``endings`` keeps
    the two-player endings solved (one search's samples often meet the same one again:
    each costs one work unit then). ``choices`` (two players) keeps the policy's card in
    each position met, to be read, not computed again, when another sample meets it (near
    the end of the stock, where the samples are many and alike; the same cards either way,
    so it saves time, not work units)."""
    if rules.n == 2:
        return _finish2(game, rules, rng, root_side, at_root, endings, choices)
    return _finish_n(game, rules, rng, root_side, at_root, endings)


def _finish_n(
    game: Game,
    rules: SearchRules,
    rng: random.Random,
    root_side: int,
    at_root: bool,
    endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] | None,
) -> int:
    """:func:`finish` with three or more players: :func:`policy_n` and :func:`.core.play`
    written out in one loop (the same cards, the same draws of ``rng``)."""
    work = 0
    n = rules.n
    solve_at = rules.solve_at
    follow = rules.follow
    epsilon = rules.epsilon
    beats = rules.beats
    tables = _tables(rules)
    hands = game.hands
    trick = game.trick
    stock = game.stock
    points = game.points
    side = game.side
    while True:
        turn = game.turn
        hand = hands[turn]
        if not trick and not hand:
            return work
        if not stock or at_root:
            left = len(stock)
            for h in hands:
                left += len(h)
            if left <= solve_at:
                return work + _solve_rest(game, rules, root_side, endings)
        options = legal_cards(hand, trick, follow) if follow else hand
        if len(options) == 1:
            card = options[0]
        elif epsilon and rng.random() < epsilon:
            card = options[int(rng.random() * len(options))]
        else:
            values = _values_n(game, rules, options, tables)
            card = options[values.index(max(values))]
        hand.remove(card)
        game.gone |= 1 << card
        trick.append(card)
        if len(trick) < n:
            game.turn = turn + 1 if turn + 1 < n else 0
        else:
            winner = (turn + 1 + taker(trick, beats)) % n
            won = 0
            for c in trick:
                won += POINTS[c]
            points[side[winner]] += won
            trick.clear()
            if stock:
                for i in range(n):
                    hands[(winner + i) % n].append(stock.pop())
            game.turn = winner
        work += 1
        at_root = False


def _finish2(
    game: Game,
    rules: SearchRules,
    rng: random.Random,
    root_side: int,
    at_root: bool,
    endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] | None,
    choices: dict[tuple[int, ...], int] | None,
) -> int:
    """:func:`finish` with two players: :func:`policy2` and :func:`.core.play` written out
    in one loop (the search's hottest; the same cards, the same draws of ``rng``)."""
    work = 0
    solve_at = rules.solve_at
    follow = rules.follow
    epsilon = rules.epsilon
    beats = rules.beats
    tables = _tables(rules)
    hands = game.hands
    trick = game.trick
    stock = game.stock
    points = game.points
    side = game.side
    while True:
        turn = game.turn
        hand = hands[turn]
        if not trick and not hand:
            return work
        if (not stock or at_root) and len(hands[0]) + len(hands[1]) + len(stock) <= solve_at:
            return work + _solve_rest(game, rules, root_side, endings)
        options = legal_cards(hand, trick, follow) if follow else hand
        if len(options) == 1:
            card = options[0]
        elif epsilon and rng.random() < epsilon:
            card = options[int(rng.random() * len(options))]
        elif choices is None:
            values = _values2(game, rules, options, tables)
            card = options[values.index(max(values))]
        else:
            # Everything the policy reads: the hand (in order: ties go to the first), the
            # card led, the cards gone, the stock's size and its face-up ends, the other
            # hand's size.
            key = (
                *hand,
                trick[0] if trick else -1,
                game.gone,
                len(stock),
                stock[0] if stock else -1,
                stock[-1] if stock else -1,
                len(hands[1 - turn]),
            )
            card = choices.get(key, -1)
            if card < 0:
                values = _values2(game, rules, options, tables)
                card = choices[key] = options[values.index(max(values))]
        hand.remove(card)
        game.gone |= 1 << card
        if trick:
            led = trick[0]
            winner = turn if beats[led * 40 + card] else 1 - turn
            points[side[winner]] += POINTS[led] + POINTS[card]
            trick.clear()
            if stock:
                hands[winner].append(stock.pop())
                hands[1 - winner].append(stock.pop())
            game.turn = winner
        else:
            trick.append(card)
            game.turn = 1 - turn
        work += 1
        at_root = False


def _solve_rest(
    game: Game,
    rules: SearchRules,
    root_side: int,
    endings: dict[tuple[tuple[int, ...], tuple[int, ...], bool], int] | None,
) -> int:
    """Solve the rest of ``game`` exactly (:func:`finish`'s last step): its points then
    hold the final points, its hands and trick are empty. Returns the work units spent."""
    trick = game.trick
    if rules.n == 2 and not trick and not game.stock:
        turn = game.turn
        # Big cards and trumps first: alpha-beta prunes sooner, and the same
        # ending is the same key whatever order the cards came in.
        order = rules.order.__getitem__
        key = (
            tuple(sorted(game.hands[turn], key=order)),
            tuple(sorted(game.hands[1 - turn], key=order)),
            game.side[turn] == root_side,
        )
        known = endings.get(key) if endings is not None else None
        if known is None:
            value, nodes = solve2(*key, rules.beats)
            if endings is not None:
                endings[key] = value
        else:
            value, nodes = known, 2
        points = game.points
        if len(points) == 2:
            # :func:`_share` for two sides, written out.
            future = 0
            for c in key[0]:
                future += POINTS[c]
            for c in key[1]:
                future += POINTS[c]
            points[root_side] += value
            points[1 - root_side] += future - value
        else:
            _share(game, root_side, value)
    elif rules.maxn:
        won, nodes = solve_maxn(game, rules, root_side)
        nodes *= 2
        for s, pts in enumerate(won):
            game.points[s] += pts
    else:
        value, nodes = solve(game, rules, root_side)
        nodes *= 2
        _share(game, root_side, value)
    for h in game.hands:
        h.clear()
    trick.clear()
    return nodes // 2
