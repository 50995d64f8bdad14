"""The luck of a hand (briscola.ratings.luck): it adds up to zero over the sides, has no bias,
and taking it out leaves less spread in the results than the raw points, on hands played
by random players (fixed seeds: the figures are the same at every run)."""

from __future__ import annotations

import random
import statistics

import pytest
from enginehelp import finished_hand

from briscola.engine import GameState, Rules, Swapped
from briscola.ratings.luck import (
    CATEGORIES,
    actions_of,
    luck_features,
    luck_of,
    parse_worth,
    worth_for,
)
from briscola.ratings.rollout import luck_of as rollout_luck_of


@pytest.mark.parametrize(
    "preset", ["classic2", "classic3", "teams4", "teams6", "scoperta2", "briscolone2"]
)
def test_the_luck_of_the_sides_adds_up_to_zero(preset: str) -> None:
    for seed in range(5):
        state = finished_hand(Rules.preset(preset), seed)
        hand = luck_of(state)
        assert hand.points == state.side_points()
        assert sum(hand.luck) == pytest.approx(0.0, abs=1e-9)
        assert sum(hand.adjusted) == pytest.approx(float(sum(hand.points)))
        assert any(abs(k) > 0 for k in hand.luck)  # fitted values: there is luck to take out


def test_chiamata_has_no_luck_taken_out() -> None:
    state = finished_hand(Rules.preset("chiamata5"), 2)
    assert all(v == 0.0 for row in luck_features(state) for v in row)
    hand = luck_of(state)
    assert hand.luck == (0.0, 0.0)
    assert hand.adjusted == tuple(float(p) for p in hand.points)


def test_a_hand_with_a_swap_is_replayed_from_its_events() -> None:
    rules = Rules.preset("classic2", swap=True)
    for seed in range(200):
        state = finished_hand(rules, seed)
        if any(isinstance(e, Swapped) for e in state.events):
            break
    else:
        pytest.fail("no random hand swapped the briscola")
    replay = GameState(rules, state.deck, state.dealer)
    for action in actions_of(state):
        replay.apply(action)
    assert replay.points == state.points
    assert worth_for(rules) == worth_for(Rules.preset("classic2"))  # options keep the name
    assert sum(luck_of(state).luck) == pytest.approx(0.0, abs=1e-9)


def test_a_hand_not_over_has_no_luck_yet() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    with pytest.raises(ValueError, match="once it is over"):
        luck_of(state)
    with pytest.raises(ValueError, match="20 values"):
        luck_of(finished_hand(Rules.preset("classic2"), 1), worth=[1.0])


def differences(preset: str, hands: int, seed: int) -> tuple[list[float], list[float], float]:
    """Side 0's points less the mean of the sides', raw and less the luck; the mean luck."""
    raw, adjusted, luck = [], [], []
    rules = Rules.preset(preset)
    for k in range(hands):
        hand = luck_of(finished_hand(rules, seed * 100_000 + k))
        sides = len(hand.points)
        raw.append(hand.points[0] - sum(hand.points) / sides)
        adjusted.append(hand.adjusted[0] - sum(hand.adjusted) / sides)
        luck.append(hand.luck[0])
    return raw, adjusted, statistics.fmean(luck)


@pytest.mark.parametrize(("preset", "kept"), [("classic2", 0.9), ("teams4", 0.8)])
def test_taking_the_luck_out_leaves_less_variance_than_the_raw_points(
    preset: str, kept: float
) -> None:
    """Random players, fixed deals: the adjusted results vary less than the raw points by a
    wide margin (measured: 0.64 of the variance in classic2 and 0.54 in teams4), and
    the luck has no bias (its mean is within three standard errors of zero)."""
    raw, adjusted, mean_luck = differences(preset, 400, 1)
    assert statistics.pvariance(adjusted) < kept * statistics.pvariance(raw)
    luck_sd = statistics.pstdev([r - a for r, a in zip(raw, adjusted, strict=True)])
    assert abs(mean_luck) < 3 * luck_sd / len(raw) ** 0.5


def test_the_rollout_value_gives_a_luck_that_adds_up_to_zero_too() -> None:
    state = finished_hand(Rules.preset("classic2"), 4)
    hand = rollout_luck_of(state, playouts=2, seed="h")
    assert sum(hand.luck) == pytest.approx(0.0, abs=1e-6)
    assert hand == rollout_luck_of(state, playouts=2, seed="h")  # repeatable


def test_a_damaged_worth_file_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="not a briscola-luck/1 file"):
        parse_worth({"format": "other"})
    with pytest.raises(ValueError, match="expected 20 numbers"):
        parse_worth({"format": "briscola-luck/1", "worth": {"classic2": [1.0, True]}})
    good = parse_worth({"format": "briscola-luck/1", "worth": {"x": [0] * CATEGORIES}})
    assert good == {"x": (0.0,) * CATEGORIES}
