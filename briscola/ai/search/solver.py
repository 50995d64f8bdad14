"""Exact endgames: minimax with alpha-beta once every card is known.

:func:`solve2` is the fast path (two players, empty stock, a trick about to be led);
:func:`solve` handles everything else (a trick in progress, cards left in the stock, any
number of players, paranoid with more than two sides) with a transposition table for
longer endings. Both return the root side's future points and the nodes searched (the
search's work units). :func:`solve_maxn` is the search with three or more sides in which
each plays for itself (*max-n*): it returns every side's future points.
"""

from __future__ import annotations

from briscola.ai.search.core import POINTS, Game, SearchRules, legal_cards
from briscola.engine.sim import taker

__all__ = ["solve", "solve2", "solve_maxn"]


def _draw(hands: list[list[int]], stock: list[int], winner: int, n: int) -> list[int]:
    """After a trick, each seat from the winner on draws the stock's top card (its last).
    Returns the seats in the order they drew, for :func:`_undraw`."""
    drawn = []
    for i in range(n):
        seat = (winner + i) % n
        hands[seat].append(stock.pop())
        drawn.append(seat)
    return drawn


def _undraw(hands: list[list[int]], stock: list[int], drawn: list[int]) -> None:
    """Put back on the stock the cards :func:`_draw` dealt."""
    for seat in reversed(drawn):
        stock.append(hands[seat].pop())


def solve2(
    lead: tuple[int, ...], follow: tuple[int, ...], lead_is_root: bool, beats: tuple[bool, ...]
) -> tuple[int, int]:
    """Two players, empty stock, a trick about to be led: the exact future points of the
    root player (minimax). Returns (value, nodes)."""
    nodes = 0

    def search(a: tuple[int, ...], b: tuple[int, ...], a_root: bool) -> int:
        nonlocal nodes
        if len(a) < 2:
            if not a:
                return 0
            # The last trick: one node, no choice (as the loop below would count it).
            nodes += 1
            x = a[0]
            y = b[0]
            if beats[x * 40 + y]:
                return 0 if a_root else POINTS[x] + POINTS[y]
            return POINTS[x] + POINTS[y] if a_root else 0
        best_lead = -1 if a_root else 1000
        for i, x in enumerate(a):
            rest_a = a[:i] + a[i + 1 :]
            best_reply = 1000 if a_root else -1
            for j, y in enumerate(b):
                nodes += 1
                rest_b = b[:j] + b[j + 1 :]
                pts = POINTS[x] + POINTS[y]
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


def solve(game: Game, rules: SearchRules, root_side: int) -> tuple[int, int]:
    """Exact value (future points of ``root_side``) of the rest of ``game``, everybody
    playing perfectly (paranoid when there are more than two sides). Does not change
    ``game``. Returns (value, nodes searched)."""
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
        maximizing = mine[turn]
        if len(hand) == 1 and not stock:
            # The last trick: one card each, nothing to choose; counted without the calls
            # (one node per card still to play and one for the hands then empty).
            last = trick + [hands[(turn + i) % n][0] for i in range(n - len(trick))]
            nodes += n - len(trick)
            winner = (turn - len(trick) + taker(last, beats)) % n
            best = 0
            if mine[winner]:
                best = trick_pts
                for c in last[len(trick) :]:
                    best += POINTS[c]
            order: list[int] = []
        else:
            # Big cards first: they decide most cutoffs.
            order = sorted(legal_cards(hand, trick, follow), key=order_key)
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


def solve_maxn(game: Game, rules: SearchRules, root_side: int) -> tuple[list[int], int]:
    """Exact value of the rest of ``game`` with three or more sides (*max-n*): each player
    plays the card best for its own side, judged on the final points (``game.points`` plus
    what is still to be won): a win first (the top score alone; a tie for the top next),
    then the margin over the best of the others; between cards alike for a player, the
    one worse for ``root_side``. Unlike a paranoid search, the others compete with each
    other too. Does not change ``game``. Returns (future points per side, nodes)."""
    n = rules.n
    follow = rules.follow
    beats = rules.beats
    order_key = rules.order.__getitem__
    # Big cards and trumps first, and kept in that order: the same search whatever order
    # the cards came in.
    hands = [sorted(h, key=order_key) for h in game.hands]
    stock = list(game.stock)
    trick = list(game.trick)
    side = game.side
    # The points of each side so far: the game's, then the tricks of the line searched.
    so_far = list(game.points)
    nsides = len(so_far)
    table: dict[tuple[object, ...], list[int]] = {}
    nodes = 0
    use_table = sum(len(h) for h in hands) + len(stock) > 2 * n

    def worth(finals: list[float], s: int) -> tuple[int, float]:
        """What the final points are worth to side ``s``: win (2), tie for the top (1) or
        loss (0), then the margin over the best of the others."""
        mine = finals[s]
        top = max(finals[:s] + finals[s + 1 :])
        return (2 if mine > top else 1 if mine == top else 0), mine - top

    def search(turn: int, trick_pts: int) -> list[int]:
        nonlocal nodes
        hand = hands[turn]
        if not hand:
            nodes += 1
            return [0] * nsides
        if len(hand) == 1 and not stock:
            # The last trick: one card each, nothing to choose.
            last = trick + [hands[(turn + i) % n][0] for i in range(n - len(trick))]
            nodes += n - len(trick)
            value = [0] * nsides
            value[side[(turn - len(trick) + taker(last, beats)) % n]] = trick_pts + sum(
                POINTS[c] for c in last[len(trick) :]
            )
            return value
        nodes += 1
        key: tuple[object, ...] | None = None
        if use_table and not trick:
            key = (turn, *so_far, *(frozenset(h) for h in hands))
            hit = table.get(key)
            if hit is not None:
                return hit
        me = side[turn]
        best: list[int] = []
        best_rank = (0, 0.0, 0, 0.0)
        for card in legal_cards(hand, trick, follow):
            pos = hand.index(card)
            hand.pop(pos)
            trick.append(card)
            pts = trick_pts + POINTS[card]
            if len(trick) < n:
                value = search(turn + 1 if turn + 1 < n else 0, pts)
                trick.pop()
            else:
                winner = (turn + 1 + taker(trick, beats)) % n
                saved = list(trick)
                trick.clear()
                drawn = _draw(hands, stock, winner, n) if stock else []
                so_far[side[winner]] += pts
                value = list(search(winner, 0))
                so_far[side[winner]] -= pts
                value[side[winner]] += pts
                _undraw(hands, stock, drawn)
                trick.extend(saved)
                trick.pop()
            hand.insert(pos, card)
            finals = [a + b for a, b in zip(so_far, value, strict=True)]
            win, margin = worth(finals, me)
            rank = (win, margin, 0, 0.0)
            if me != root_side:
                root_win, root_margin = worth(finals, root_side)
                rank = (win, margin, -root_win, -root_margin)
            if not best or rank > best_rank:
                best, best_rank = value, rank
        if key is not None:
            table[key] = best
        return best

    future = search(game.turn, sum(POINTS[c] for c in trick))
    return list(future), nodes
