"""The arena's sparring pool (``briscola.ai.sparring``): greedy, IS-MCTS and the self-play
policy network play legal cards at every table, play as their rules say in fixed positions,
and the policy's training script writes weights the game reads and plays as trained."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import numpy as np
import pytest
from enginehelp import CONFIGS, IDS, arena_figures, stacked

from briscola.ai.ismcts import IsmctsBot
from briscola.ai.learned import Network
from briscola.ai.policy import FEATURES, FORMAT, PolicyBot, policy_network, rows, view_rows
from briscola.ai.sparring import ARENA_BOTS, POOL, make_arena_bot
from briscola.arena import BotSpec
from briscola.engine import GameState, Play, Rules, Sim, cards_from_codes, view
from briscola.engine.sim import BEATS, taker
from tools.learn import ppo


def _game(rules: Rules, seed: int, names: list[str]) -> GameState:
    state = GameState.new(rules, random.Random(seed), dealer=seed % rules.players)
    bots = [
        make_arena_bot(
            names[s % len(names)],
            random.Random(seed * 10 + s),
            **({"budget": 60} if names[s % len(names)] == "ismcts" else {}),
        )
        for s in range(rules.players)
    ]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        action = bots[seat].choose(seen)
        assert action in seen.legal, f"{bots[seat].name} chose illegal {action} in {rules.name}"
        state.apply(action)
    assert sum(state.points) == rules.total_points
    return state


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_the_pool_plays_only_legal_actions(rules: Rules) -> None:
    _game(rules, 1, ["greedy", "ppo", "ismcts", "rules"])


def test_every_pool_entry_is_an_arena_bot() -> None:
    assert {BotSpec.parse(text).name for text in POOL} == {*ARENA_BOTS, "hard"}


def _first_to_follow() -> GameState:
    """classic2, swords trump: seat 1 leads the Ace of cups; seat 0 holds a low trump and
    two worthless side cards."""
    rules = Rules.preset("classic2")
    state = stacked(rules, {0: "4S 5D 6B", 1: "AC 7D KB"}, dealer=0, briscola="2S")
    state.apply(Play(cards_from_codes("AC")[0]))
    return state


def test_greedy_takes_the_most_points_now_and_leads_its_cheapest_card() -> None:
    state = _first_to_follow()
    bot = make_arena_bot("greedy")
    assert bot.choose(view(state, 0)) == Play(cards_from_codes("4S")[0])
    rules = Rules.preset("classic2")
    lead = stacked(rules, {0: "4S 5D 6B", 1: "AC 7D KB"}, dealer=0, briscola="2S")
    assert bot.choose(view(lead, 1)) == Play(cards_from_codes("7D")[0])


def test_greedy_loads_points_on_its_partners_trick_without_taking_it() -> None:
    """teams4, swords trump: seat 1 leads the Four of coins, the partner (seat 2) takes it
    with the Ace, seat 3 follows; seat 0 loads its Three rather than trump its partner."""
    rules = Rules.preset("teams4")
    hands = {0: "3C 6B 7S", 1: "4D KB JB", 2: "AD QB 4B", 3: "5D 6D 2B"}
    state = stacked(rules, hands, dealer=0, briscola="2S")
    for code in ("4D", "AD", "5D"):
        state.apply(Play(cards_from_codes(code)[0]))
    assert state.current_player == 0
    assert make_arena_bot("greedy").choose(view(state, 0)) == Play(cards_from_codes("3C")[0])


def test_ismcts_trumps_an_ace_and_is_reproducible() -> None:
    state = _first_to_follow()
    for seed in (1, 2):
        choices = {IsmctsBot(random.Random(seed), budget=300).choose(view(state, 0)) for _ in "ab"}
        assert choices == {Play(cards_from_codes("4S")[0])}
    with pytest.raises(ValueError, match="budget"):
        IsmctsBot(budget=0)


def test_the_policy_inputs_are_the_same_from_the_fast_simulation_and_from_a_view() -> None:
    """tools/learn/ppo.py trains on Sim's ints; the bot reads a PlayerView."""
    for preset in ("classic2", "teams4"):
        for g in range(4):
            state = GameState.new(Rules.preset(preset), random.Random(g))
            gone = 0
            moves = random.Random(g)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                sim = Sim.from_state(state)
                legal = sim.legal()
                side = sim.side[seat]
                mine = False
                if sim.trick:
                    winner = (sim.leader + taker(sim.trick, BEATS[(False, sim.trump)])) % sim.n
                    mine = sim.side[winner] == side
                pts = sim.points
                fast = rows(
                    legal,
                    sim.hands[seat],
                    sim.trick,
                    mine,
                    sim.n - 1 - len(sim.trick),
                    gone,
                    sim.trump,
                    sim.stock[0] if sim.stock else -1,
                    len(sim.stock),
                    sim.n,
                    (pts[side], max(p for s, p in enumerate(pts) if s != side)),
                )
                plays, slow = view_rows(view(state, seat))
                by_card = dict(zip(legal, fast, strict=True))
                assert [by_card[p.card.index] for p in plays] == slow
                action = moves.choice(state.legal_actions())
                assert isinstance(action, Play)
                gone |= 1 << action.card.index
                state.apply(action)


def test_the_bundled_policy_was_trained_by_self_play_and_beats_random(tmp_path: Path) -> None:
    net = policy_network()
    assert net is not None
    prov = net.provenance
    assert prov["command"].startswith("python -m tools.learn.ppo") and "seed" in prov
    assert prov["self_play_games"] > 10_000
    figures = arena_figures(tmp_path, "--bots", "ppo,random", "--deals", "40", "--seed", "5")
    assert figures["bots"][0]["score"] > 0.65


def test_a_damaged_policy_file_is_logged_and_medium_plays(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "briscola-policy/1", "features": []}')
    with caplog.at_level(logging.WARNING, logger="briscola.ai.learned"):
        bot = PolicyBot(weights=str(bad))
    assert bot.net is None and "damaged" in caplog.text
    state = _first_to_follow()
    assert bot.choose(view(state, 0)) in view(state, 0).legal


def test_training_writes_weights_the_game_plays_as_trained(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    argv = ["--out", str(out), "--games", "16", "--iterations", "2", "--eval-every", "2"]
    assert ppo.main([*argv, "--eval-games", "2", "--hidden", "8"]) == 0
    data = json.loads(out.read_text())
    assert data["format"] == FORMAT and data["features"] == list(FEATURES)
    assert data["provenance"]["seed"] == 1 and data["provenance"]["iterations"] == 2
    net = Network.from_json(data, FORMAT, FEATURES)
    params = [(np.array(layer["w"]), np.array(layer["b"])) for layer in data["layers"]]
    state = _first_to_follow()
    plays, features = view_rows(view(state, 0))
    expected, _ = ppo.forward(params, np.array(features))
    assert [net.value(r) for r in features] == pytest.approx(list(expected))
    bot = PolicyBot(weights=str(out))
    assert bot.choose(view(state, 0)) == plays[int(np.argmax(expected))]
    for wrong in (["--games", "0"], ["--hidden", "x"], ["--preset", "briscolone2"]):
        with pytest.raises(SystemExit) as stop:
            ppo.main(["--out", str(out), *wrong])
        assert stop.value.code == 2


def test_the_pool_reports_every_score_and_the_worst(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = arena_figures(
        tmp_path, "--pool", "greedy,rules", "--bots", "medium", "--deals", "6", "--seed", "2"
    )
    assert [p["opponent"] for p in figures["pairings"]] == ["greedy", "rules"]
    worst = min(figures["pairings"], key=lambda p: p["score"])
    assert figures["worst"]["opponent"] == worst["opponent"]
    for p in figures["pairings"]:
        assert p["summary"]["deals"] == 6 and p["summary"]["bots"][0]["spec"] == "medium"
        assert p["ci95"][0] <= p["score"] <= p["ci95"][1]
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"worst: {worst['score']:.3f} [") and last.endswith(worst["opponent"])
