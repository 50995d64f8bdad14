"""Rules of hard's three-player endings: each player plays for itself (max-n), not all
against the searching seat (paranoid)."""

from __future__ import annotations

import random

import pytest
from enginehelp import cards_from_codes, positions, search_game, to_move

from briscola.ai.search.core import Game, SearchRules, play, utility
from briscola.ai.search.rollout import finish
from briscola.ai.search.solver import solve, solve_maxn
from briscola.engine import Card, GameState, Play, Rules, Suit

Worth = tuple[int, int]


def _worth(points: list[int], side: int) -> Worth:
    """A win (2), a tie for the top (1) or a loss (0), then the margin over the best other."""
    mine = points[side]
    top = max(p for s, p in enumerate(points) if s != side)
    return (2 if mine > top else 1 if mine == top else 0), mine - top


def _maxn(state: GameState, root: int, order: tuple[int, ...]) -> list[int]:
    """Final points per seat over engine states, each seat choosing the card best for
    itself, ties going against ``root`` (then the first card in ``order``)."""
    if state.is_terminal():
        return list(state.points)
    seat = state.current_player
    assert seat is not None
    best: list[int] = []
    best_rank = (0, 0, 0, 0)
    plays = sorted(
        (a for a in state.legal_actions() if isinstance(a, Play)),
        key=lambda a: order[a.card.index],
    )
    for action in plays:
        child = state.clone()
        child.apply(action)
        final = _maxn(child, root, order)
        root_win, root_margin = _worth(final, root) if seat != root else (0, 0)
        rank = (*_worth(final, seat), -root_win, -root_margin)
        if not best or rank > best_rank:
            best, best_rank = final, rank
    return best


def _game_of(state: GameState) -> tuple[Game, SearchRules]:
    """``state`` as the search plays it, and the rules of a max-n search."""
    trump = int(state.trump) if state.trump is not None else -1
    rules = state.rules
    return search_game(state), SearchRules.make(
        rules.players, rules.follow_suit, trump, 9, 0.0, maxn=True
    )


def _ending(seed: int, rules: Rules, cards_left: int) -> GameState:
    """A deal played at random (:func:`enginehelp.positions`) until at most ``cards_left``
    cards are left to play."""
    return next(
        state
        for state in positions(rules, seed)
        if len(state.stock) + sum(len(h) for h in state.hands) <= cards_left
    )


def test_a_three_player_ending_is_solved_as_each_player_would_play_it_for_itself() -> None:
    """The max-n solver against the same search over engine states: three hands of three
    cards or fewer, a trick sometimes under way, whoever is to play."""
    rules = Rules.preset("classic3")
    for seed in range(30):
        state = _ending(seed, rules, 9 - seed % 4)
        seat = state.current_player
        assert seat is not None
        game, fast = _game_of(state)
        root = (seat + seed) % 3
        future, nodes = solve_maxn(game, fast, root)
        final = [int(p) + f for p, f in zip(game.points, future, strict=True)]
        assert final == _maxn(state, root, fast.order)
        assert nodes > 0
        assert game.hands == [[c.index for c in h] for h in state.hands]  # left unchanged


def test_with_two_sides_each_for_itself_is_the_same_as_all_against_one() -> None:
    """Two sides: what one wins the other loses, so max-n is minimax (``solve``)."""
    rules = Rules.preset("classic2")
    for seed in range(40):
        state = _ending(seed, rules, 6 + seed % 3)
        game, fast = _game_of(state)
        root = seed % 2
        future, _ = solve_maxn(game, fast, root)
        paranoid, _ = solve(game, fast, root)
        assert future[root] == paranoid
        assert sum(future) == 120 - sum(state.points)


def test_a_player_out_of_the_running_takes_a_trick_for_itself_not_for_the_leader() -> None:
    """Coins trump. Seat 0 (37 points) leads with the Three of cups and the Seven of swords
    left; seat 1 (6 points) holds the King of coins and the Knight of cups, seat 2 (47) the
    Three of swords and the Knight of batons. On the Seven, seat 1 trumps for its own
    points (it ends on 20), and seat 0's Three takes the last trick: 53 against 47. A
    paranoid search has seat 1 throw its Knight instead, for seat 2's Three to take the
    Seven and seat 2 to win, and sees no card of seat 0 win; max-n finds the Seven."""
    hands = [[c.index for c in cards_from_codes(h)] for h in ("3C 7S", "KD QC", "3S QB")]
    seven = Card.from_code("7S").index
    trump = int(Suit.COINS)
    outcomes: dict[bool, dict[int, tuple[float, list[float]]]] = {}
    for maxn in (True, False):
        rules = SearchRules.make(3, False, trump, 6, 0.0, maxn=maxn)
        outcomes[maxn] = {}
        for card in hands[0]:
            game = Game([list(h) for h in hands], [], [], 0, (0, 1, 2), [37.0, 6.0, 47.0], 0)
            play(game, card, rules)
            finish(game, rules, random.Random(0), 0)
            outcomes[maxn][card] = utility(game.points, 0, 61, True, 0.0), game.points
    assert outcomes[True][seven] == (1.0, [53.0, 20.0, 47.0])
    assert all(u == 0.0 for card, (u, _) in outcomes[True].items() if card != seven)
    assert all(u == 0.0 for u, _ in outcomes[False].values())


def test_the_ending_option_names_a_model_and_matters_only_with_three_sides() -> None:
    from briscola.ai.search import HardBot

    with pytest.raises(ValueError, match="ending must be maxn or paranoid"):
        HardBot(ending="kind")
    for preset, cards_left, differ in (("classic3", 12, True), ("classic2", 12, False)):
        seen = to_move(_ending(3, Rules.preset(preset), cards_left))
        bots = [HardBot(random.Random(1), budget=3000, ending=e) for e in ("maxn", "paranoid")]
        values = [bot.evaluate(seen).utility_sums for bot in bots]
        assert (values[0] != values[1]) == differ, preset
        if not differ:  # the same search, sample for sample
            assert bots[0].last_samples == bots[1].last_samples
