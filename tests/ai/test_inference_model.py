"""Policy inference's model of the other seats' play (issue 51: inference against the
pool): its greedy share reads the greedy player's card, its options reach hard, and the
inference check measures what a model learns."""

from __future__ import annotations

import random

import pytest

from briscola.ai.greedy import GreedyBot
from briscola.ai.search import HardBot
from briscola.ai.search.core import legal_cards
from briscola.ai.search.inference import (
    GREEDY,
    HISTORY,
    NOISE,
    TEMPERATURE,
    History,
    Model,
    _greedy,
)
from briscola.ai.search.sampling import sides_of
from briscola.arena.spec import BotSpec
from briscola.engine import GameState, Play, Rules, view
from tools import inference_check
from tools.inference_check import search_rules


@pytest.mark.parametrize("preset", ["classic2", "teams4", "classic3", "briscolone2"])
def test_the_greedy_share_plays_the_greedy_players_card(preset: str) -> None:
    """At every play of random hands, the model's greedy card (cards as ints) is the card
    :class:`GreedyBot` plays from the same view."""
    rules = Rules.preset(preset)
    rng = random.Random(5)
    bot = GreedyBot()
    checked = 0
    for deal in range(12):
        state = GameState.new(rules, random.Random(deal))
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            if state.phase == "play":
                chosen = bot.choose(seen)
                assert isinstance(chosen, Play)
                hand = [c.index for c in seen.hand]
                trick = [c.index for _, c in seen.table]
                srules = search_rules(seen)
                options = legal_cards(hand, trick, srules.follow)
                side = sides_of(seen, -1)
                assert _greedy(options, trick, seat, side, srules) == chosen.card.index
                checked += 1
            state.apply(rng.choice(seen.legal))
    assert checked > 200


def test_a_model_that_knows_the_greedy_player_weighs_its_true_hand_higher() -> None:
    """Against the greedy player a model that expects greedy play learns more about its
    hand than the default model (paired on the same samples), and ``none`` learns
    nothing."""
    makers = [inference_check.parse_model(m) for m in ("none", "policy", "policy:G=0.5")]
    rows = inference_check.run(
        "classic2", BotSpec.parse("greedy"), makers, games=3, samples=60, seed=2
    )
    assert rows
    none, default, greedy = (sum(r[i][0] for r in rows) / len(rows) for i in range(3))
    assert none == pytest.approx(0.0, abs=1e-9)
    assert greedy > default > 0.0
    assert all(0.0 < r[2][1] <= 1.0 + 1e-9 for r in rows)


def test_the_models_options_reach_hard_and_bad_ones_are_refused() -> None:
    bot = HardBot(temperature=4, noise=0.2, greedy=0.05, history=3)
    assert bot.model == Model(temperature=4.0, noise=0.2, greedy=0.05)
    assert bot.history == 3
    for bad in ({"temperature": 0}, {"noise": 1.5}, {"greedy": -0.1}, {"history": 0}):
        with pytest.raises(ValueError):
            HardBot(**bad)
    with pytest.raises(ValueError, match="unknown option"):
        inference_check.parse_model("policy:X=1")
    for bad in ("policy:T=warm", "policy:T=0", "policy:G=2", "policy:H=0", "greedy"):
        with pytest.raises(ValueError):
            inference_check.parse_model(bad)


def test_the_default_model_is_hards_and_the_former_one_differs() -> None:
    """History's default model is the module's (hard's default), and the model before
    2026-12-05 (temperature 12, no greedy share, two tricks) weighs the same hands
    otherwise."""
    rules = Rules.preset("classic2")
    state = GameState.new(rules, random.Random(3))
    rng = random.Random(4)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    seen = view(state, state.current_player or 0)
    srules = search_rules(seen)
    side = sides_of(seen, -1)
    hands = [[c.index for c in h] for h in state.hands]

    def weigh(history: History) -> float:
        return history.likelihood(hands, side, random.Random(1))

    default = weigh(History(seen, srules))
    assert default == weigh(History(seen, srules, HISTORY, Model(TEMPERATURE, NOISE, GREEDY)))
    assert default != weigh(History(seen, srules, 2, Model(12.0, 0.25, 0.0)))
    assert HardBot().model == Model() and HardBot().history == HISTORY


def test_the_check_runs_at_team_tables_and_refuses_what_it_cannot_measure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In teams every unseen card's place (either opponent, the partner, the stock) is
    scored; Chiamata, whose sides are hidden, and unknown names are refused in words."""
    makers = [inference_check.parse_model(m) for m in ("none", "tricks", "policy")]
    rows = inference_check.run(
        "teams4", BotSpec.parse("greedy"), makers, games=2, samples=30, seed=1
    )
    assert rows
    assert all(abs(r[0][0]) < 1e-9 and abs(r[0][1] - 1.0) < 1e-9 for r in rows)
    for argv in (["--preset", "chiamata5"], ["--opponents", "nobody"], ["--models", "policy:Z=1"]):
        with pytest.raises(SystemExit) as stop:
            inference_check.main(argv)
        assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Chiamata" in err and "unknown bot 'nobody'" in err and "unknown option 'Z'" in err
