"""Hard's blend of the learned evaluation with its search (``HardBot(blend=...)``): each
card's estimated gain over the default card is the search's paired mean and the network's
estimate, weighted by the inverse of their variances."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from briscola.ai.learned import learned_action
from briscola.ai.search import Evaluation, HardBot
from briscola.engine import GameState, Play, Rules, Swap, view


def _found(prior: tuple[float, ...], means: tuple[float, ...], spread: float) -> Evaluation:
    """An evaluation of three cards over 100 equal-weight samples whose paired differences
    against card 0 have the means ``means`` and the standard deviation ``spread``."""
    n = 100
    return Evaluation(
        lines=((None, 0), (None, 1), (None, 2)),
        utility_sums=tuple(n * (0.5 + m) for m in means),
        points_sums=(0.0, 0.0, 0.0),
        diff_sums=tuple(n * m for m in means),
        diff2_sums=tuple(
            n * (m * m + (spread * spread if i else 0.0)) for i, m in enumerate(means)
        ),
        weight=float(n),
        weight2=float(n),
        default=0,
        exact=False,
        samples=n,
        prior=prior,
        prior_error=0.05,
    )


def test_a_noisy_search_leans_on_the_network() -> None:
    # The search sees card 1 a little ahead (0.03) with a standard error of 0.05; the
    # network sees it well behind (-0.10): the blend keeps the default card.
    found = _found((0.05, -0.05, 0.0), (0.0, 0.03, -0.2), spread=0.5)
    assert HardBot().decide(found) == 0


def test_a_clear_search_overrules_the_network() -> None:
    # The same means with a standard error of 0.005: the search's gain stands.
    found = _found((0.05, -0.05, 0.0), (0.0, 0.03, -0.2), spread=0.05)
    assert HardBot().decide(found) == 1


def test_the_network_alone_can_move_a_noisy_search_off_the_default() -> None:
    # Nothing between the cards in the search (noise only); the network prefers card 2.
    found = _found((-0.05, 0.0, 0.05), (0.0, 0.0, 0.0), spread=0.5)
    assert HardBot().decide(found) == 2


def test_exact_positions_take_the_search_s_best_card() -> None:
    found = dataclasses.replace(_found((0.1, 0.0, 0.0), (0.0, 0.02, 0.0), 0.5), exact=True)
    assert HardBot().decide(found) == 1


def _opening(preset: str, seed: int, **options: Any) -> GameState:
    return GameState.new(Rules.preset(preset, **options), random.Random(seed))


def test_with_a_blend_the_default_card_is_the_network_s_and_every_card_has_an_estimate() -> None:
    for seed in range(6):
        state = _opening("classic2", seed)
        seen = view(state, state.current_player)
        bot = HardBot(random.Random(seed), budget=400, blend=0.05)
        found = bot.evaluate(seen)
        assert len(found.prior) == len(found.lines)
        assert abs(sum(found.prior)) < 1e-9  # relative to the position's average card
        learned = learned_action(seen)
        assert isinstance(learned, Play)
        assert found.lines[found.default] == (None, learned.card.index)
        assert bot.choose(seen) in seen.legal


def test_no_estimate_where_the_network_does_not_apply() -> None:
    # No network for three-as-three; no blend asked for; a swap to weigh.
    state = _opening("classic2", 1, three_as_three=True)
    assert HardBot(blend=0.05).evaluate(view(state, state.current_player)).prior == ()
    state = _opening("classic2", 1)
    assert HardBot(blend=0.0).evaluate(view(state, state.current_player)).prior == ()
    rules = Rules.preset("classic2", swap=True)
    for seed in range(40):
        state = GameState.new(rules, random.Random(seed))
        seen = view(state, state.current_player)
        if any(isinstance(a, Swap) for a in seen.legal):
            assert HardBot(blend=0.05, budget=400).evaluate(seen).prior == ()
            break
    else:
        pytest.fail("no opening with a swap")


def test_a_negative_blend_is_refused() -> None:
    with pytest.raises(ValueError, match="blend"):
        HardBot(blend=-1.0)
