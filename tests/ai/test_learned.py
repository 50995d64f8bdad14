"""The learned evaluation (briscola/ai/learned.py): frozen choices on fixed positions, the
plain-Python inference against the training script's forward pass, the fallback to the
hand-written medium when the weights are missing or damaged, legal moves in every preset
with the option on and off, determinism, and the training pipeline end to end.

Regenerate the golden files after a deliberate change of the weights or the features:
``python tests/ai/test_learned.py [NETWORK.json ...]`` (from the repository root; every
bundled network when none is named).
"""

from __future__ import annotations

import ast
import copy
import json
import logging
import math
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enginehelp import CONFIGS, IDS
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.ai import hint, make_bot
from briscola.ai.learned import (
    FEATURES,
    NETWORKS,
    WEIGHTS,
    LearnedMediumBot,
    Network,
    covers,
    learned_action,
    load_network,
    network,
    network_for,
    play_rows,
)
from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.engine import GameState, Play, PlayerView, Rules, Swap, determinize, view
from briscola.resources import asset_path
from tools.learn import generate, train

GOLDEN = Path(__file__).parents[1] / "golden" / "learned-decisions.json"
#: Seeded positions per golden file.
POSITIONS = 80
#: The preset each bundled network was trained on (its data's, in its provenance).
TRAINED = {
    "medium-net.json": "classic2",
    "medium-net-teams4.json": "teams4",
    "medium-net-teams6.json": "teams6",
    "medium-net-chiamata5.json": "chiamata5",
    "medium-net-classic3.json": "classic3",
    "medium-net-scoperta2.json": "scoperta2",
    "medium-net-briscolone2.json": "briscolone2",
    "medium-net-briscolone4.json": "briscolone4",
}


def _bundled(name: str = NETWORKS[0]) -> Network:
    net = network(asset_path("ai", name))
    assert net is not None, f"the bundled weights {name} must load"
    return net


def _golden(preset: str) -> Path:
    return GOLDEN if preset == "classic2" else GOLDEN.with_name(f"learned-{preset}-decisions.json")


def _position(seed: int, preset: str = "classic2") -> PlayerView | None:
    """A seeded position some way into a hand: medium's moves, with random ones mixed in."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    state = GameState.new(rules, rng, dealer=seed % rules.players)
    for _ in range(rng.randrange(rules.players * rules.hand_size * 4)):
        if state.is_terminal():
            return None
        seen = view(state, state.current_player or 0)
        action = rng.choice(seen.legal) if rng.random() < 0.3 else medium_action(seen)
        state.apply(action)
    if state.is_terminal() or state.phase != "play":
        return None
    seen = view(state, state.current_player or 0)
    return seen if len(seen.legal) >= 2 else None


def decisions(name: str = NETWORKS[0]) -> list[dict[str, Any]]:
    """Per seeded position of the network's preset: the learned medium's card and the
    network's value of each card (rounded to 9 places)."""
    net = _bundled(name)
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < POSITIONS:
        seed += 1
        seen = _position(seed, TRAINED[name])
        if seen is None:
            continue
        plays, rows = play_rows(seen)
        out.append(
            {
                "seed": seed,
                "seat": seen.seat,
                "hand": [c.code for c in seen.hand],
                "choice": str(learned_action(seen, net)),
                "values": {
                    a.card.code: round(net.value(row), 9)
                    for a, row in zip(plays, rows, strict=True)
                },
            }
        )
    return out


def test_every_network_is_bundled_and_covers_the_preset_it_was_trained_on() -> None:
    assert set(TRAINED) == set(NETWORKS)
    for name, preset in TRAINED.items():
        net = _bundled(name)
        assert net.provenance["data"]["preset"] == preset, name
        assert network_for(Rules.preset(preset)) is net, name


@pytest.mark.parametrize("name", NETWORKS)
def test_the_learned_medium_makes_the_frozen_choices_on_fixed_positions(name: str) -> None:
    frozen = json.loads(_golden(TRAINED[name]).read_text(encoding="utf-8"))
    now = decisions(name)
    changed = [f"seed {a['seed']}: {a} != {b}" for a, b in zip(now, frozen, strict=True) if a != b]
    assert len(now) == len(frozen) == POSITIONS
    assert not changed, "\n".join(changed[:5])


@pytest.mark.parametrize("name", NETWORKS)
def test_the_learned_medium_sometimes_differs_from_the_rules(name: str) -> None:
    """The network is not medium in disguise, nor a stranger to it: on the golden positions
    it leaves medium's card now and then (in teams, half the time), and keeps it in at
    least a third of them."""
    preset = TRAINED[name]
    frozen = json.loads(_golden(preset).read_text(encoding="utf-8"))
    same = 0
    for entry in frozen:
        seen = _position(entry["seed"], preset)
        assert seen is not None
        assert learned_action(seen) == make_bot("medium", random.Random(0)).choose(seen)
        same += str(medium_action(seen)) == entry["choice"]
    assert 0 < POSITIONS - same <= POSITIONS * 2 // 3


# ---------------------------------------------------------------------------- inference


def test_plain_python_inference_equals_the_training_forward_pass() -> None:
    """Network.value (plain Python, the game's) and tools/learn/train.py's numpy forward
    pass give the same numbers for the bundled weights, on random vectors and real rows."""
    for name, preset in TRAINED.items():
        data = json.loads(asset_path("ai", name).read_text(encoding="utf-8"))
        params = [(np.asarray(lay["w"]), np.asarray(lay["b"])) for lay in data["layers"]]
        mean, scale = np.asarray(data["mean"]), np.asarray(data["scale"])
        net = _bundled(name)
        rows = np.random.default_rng(3).normal(0.0, 1.0, (16, len(FEATURES))).tolist()
        for seed in range(1, 40):
            seen = _position(seed, preset)
            if seen is not None:
                rows.extend(play_rows(seen)[1])
        expected = train.forward(params, mean, scale, np.asarray(rows))
        for row, want in zip(rows, expected, strict=True):
            assert math.isclose(net.value(row), float(want), rel_tol=1e-9, abs_tol=1e-12)


def test_the_game_never_imports_numpy() -> None:
    """Only the training script uses numpy (requirements-dev.txt); the game's runtime and
    the frozen build (which excludes it) do without."""
    root = Path(__file__).parents[2] / "briscola"
    importers = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name.split(".")[0] == "numpy" for name in names):
                importers.append(str(path))
    assert not importers


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_features_come_from_the_view_alone(seed: int) -> None:
    """Two games that differ only in cards the seat cannot see give it the same features
    (and so the same card)."""
    seen = _position(seed)
    if seen is None:
        return
    other = determinize(seen, random.Random(seed + 1))
    again = view(other, seen.seat)
    assert play_rows(again)[1] == play_rows(seen)[1]
    assert learned_action(again) == learned_action(seen)


@pytest.mark.parametrize("name", NETWORKS)
def test_the_bundled_weights_are_small_and_say_where_they_come_from(name: str) -> None:
    path = asset_path("ai", name)
    assert path.stat().st_size < 300_000
    provenance = _bundled(name).provenance
    for key in ("command", "data", "seed", "date", "git_revision", "valid_loss"):
        assert key in provenance, key
    assert provenance["data"]["positions"] > 10_000
    assert "tools.learn.generate" in provenance["data"]["command"]
    assert provenance["valid_regret_net"] < provenance["valid_regret_medium"]


# ---------------------------------------------------------------------------- fallback


def _bot_with(path: Path) -> LearnedMediumBot:
    return LearnedMediumBot(random.Random(0), weights=str(path))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "damaged"),
        ('{"format": "something else"}', "damaged"),
        ("[1, 2, 3]", "damaged"),
    ],
)
def test_a_damaged_weights_file_falls_back_to_the_rules_with_a_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str, reason: str
) -> None:
    path = tmp_path / "net.json"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="briscola.ai.learned"):
        bot = _bot_with(path)
    assert bot.net is None
    assert reason in caplog.text and str(path) in caplog.text
    for seed in range(1, 30):
        seen = _position(seed)
        if seen is not None:
            assert bot.choose(seen) == medium_action(seen)


def test_weights_with_bad_numbers_or_shapes_are_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = json.loads(asset_path(*WEIGHTS).read_text(encoding="utf-8"))
    breakages: dict[str, Callable[[dict[str, Any]], object]] = {
        "nan": lambda d: d["layers"][0]["b"].__setitem__(0, float("nan")),
        "short row": lambda d: d["layers"][0]["w"][0].pop(),
        "features": lambda d: d["features"].reverse(),
        "zero scale": lambda d: d["scale"].__setitem__(0, 0.0),
        "two outputs": lambda d: d["layers"][-1]["w"].append(d["layers"][-1]["w"][0]),
    }
    for name, breaks in breakages.items():
        data = json.loads(json.dumps(good))
        breaks(data)
        path = tmp_path / f"{name.replace(' ', '-')}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="briscola.ai.learned"):
            assert load_network(path) is None, name
        assert "damaged" in caplog.text, name


def test_a_missing_weights_file_falls_back_to_the_rules_with_a_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "nowhere.json"
    with caplog.at_level(logging.WARNING, logger="briscola.ai.learned"):
        bot = _bot_with(path)
    assert "missing" in caplog.text
    state = GameState.new(Rules.preset("classic2"), random.Random(4))
    while not state.is_terminal():
        seen = view(state, state.current_player or 0)
        action = bot.choose(seen)
        assert action == medium_action(seen)
        state.apply(action)


@pytest.mark.parametrize("name", NETWORKS)
def test_a_network_plays_only_where_it_was_trained(name: str) -> None:
    net = _bundled(name)
    assert covers(net, Rules.preset(TRAINED[name]))
    others = set(TRAINED.values())
    for preset in sorted(others - {TRAINED[name]}):
        assert not covers(net, Rules.preset(preset)), preset
        for seed in range(1, 12):
            seen = _position(seed, preset)
            if seen is not None:
                assert learned_action(seen, net) == medium_action(seen)
                if network_for(seen.rules) is None:  # no bundled network: medium's rules
                    assert learned_action(seen) == medium_action(seen)


def test_medium_and_the_hint_play_by_the_learned_evaluation_by_default() -> None:
    """``medium`` (and the table's hint, what medium would play) is the learned medium;
    ``learned=0`` is the hand-written one."""
    net = _bundled()
    differs = 0
    for seed in range(1, 40):
        seen = _position(seed)
        if seen is None:
            continue
        learned = learned_action(seen, net)
        assert make_bot("medium", random.Random(0)).choose(seen) == learned
        assert hint(seen) == learned
        assert make_bot("medium", random.Random(0), learned=0).choose(seen) == medium_action(seen)
        differs += learned != medium_action(seen)
    assert differs


def test_a_copied_bot_shares_the_network_and_plays_alike() -> None:
    """The match driver deep-copies the bots before each move of a person (for undo): the
    network, immutable, is shared rather than copied."""
    bot = make_bot("medium", random.Random(0))
    assert isinstance(bot, LearnedMediumBot)
    twin = copy.deepcopy(bot)
    assert twin.net is bot.net
    assert copy.deepcopy(_bundled()) is _bundled()
    seen = _position(5)
    assert seen is not None
    assert twin.choose(seen) == bot.choose(seen)


def test_hard_can_take_the_learned_card_as_its_default_move() -> None:
    """``hard:prior=learned``: the line the veto keeps is the learned medium's card."""
    found = 0
    for seed in range(1, 30):
        seen = _position(seed)
        if seen is None or any(isinstance(a, Swap) for a in seen.legal):
            continue
        learned = learned_action(seen)
        assert isinstance(learned, Play)
        bot = HardBot(random.Random(seed), budget=300, min_samples=2, prior="learned")
        evaluation = bot.evaluate(seen)
        assert evaluation.lines[evaluation.default] == (None, learned.card.index)
        assert bot.choose(seen) in seen.legal
        found += 1
    assert found
    with pytest.raises(ValueError, match="prior must be"):
        HardBot(random.Random(0), prior="oracle")


def test_weights_without_the_learned_evaluation_are_refused() -> None:
    with pytest.raises(ValueError, match="weights needs learned=1"):
        make_bot("medium", random.Random(0), learned=0, weights="x.json")


# ---------------------------------------------------------------------------- play


def _play(rules: Rules, opts: list[dict[str, Any]], seed: int) -> list[str]:
    state = GameState.new(rules, random.Random(seed), dealer=seed % rules.players)
    bots = [make_bot("medium", random.Random(seed), **opts[s % 2]) for s in range(rules.players)]
    moves: list[str] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        action = bots[seat].choose(seen)
        assert action in seen.legal, f"illegal {action} in {rules.name}"
        state.apply(action)
        moves.append(str(action))
    assert sum(state.points) == rules.total_points
    return moves


@pytest.mark.parametrize("rules", CONFIGS, ids=IDS)
def test_medium_plays_only_legal_moves_with_the_learned_evaluation_on_and_off(
    rules: Rules,
) -> None:
    for seed in range(3):
        _play(rules, [{"learned": 1}, {"learned": 0}], seed)
        _play(rules, [{"learned": 0}, {"learned": 1}], seed)


def test_the_learned_medium_makes_the_same_moves_for_the_same_seed() -> None:
    rules = Rules.preset("classic2")
    for seed in (1, 2):
        first = _play(rules, [{"learned": 1}, {"learned": 1}], seed)
        assert _play(rules, [{"learned": 1}, {"learned": 1}], seed) == first


# ---------------------------------------------------------------------------- training


def test_generated_data_trains_a_network_the_game_can_load(tmp_path: Path) -> None:
    """The pipeline end to end, tiny: two games labelled on a small budget, a few epochs of
    training, and the weights it writes load and play."""
    data = tmp_path / "data.jsonl"
    assert generate.main(["--games", "3", "--budget", "200", "--out", str(data)]) == 0
    header = json.loads(data.read_text(encoding="utf-8").splitlines()[0])
    assert header["games"] == 3 and header["positions"] > 30
    again = tmp_path / "again.jsonl"
    generate.main(["--games", "3", "--budget", "200", "--out", str(again)])
    assert again.read_text().splitlines()[1:] == data.read_text().splitlines()[1:]
    out = tmp_path / "net.json"
    assert train.main([str(data), "--out", str(out), "--epochs", "20", "--hidden", "4"]) == 0
    net = load_network(out)
    assert net is not None and net.provenance["data"]["positions"] == header["positions"]
    seen = _position(3)
    assert seen is not None
    assert learned_action(seen, net) in seen.legal


def test_a_second_round_is_played_by_the_learned_medium() -> None:
    """``--player learned``: the games are the learned medium's (no random moves here), so
    the positions follow its cards, not medium's rules, and are the same for the same seed."""
    learned = generate.game_positions("classic2", 5, 0, 200, 0.0, player="learned")
    assert generate.game_positions("classic2", 5, 0, 200, 0.0, player="learned") == learned
    ruled = generate.game_positions("classic2", 5, 0, 200, 0.0)
    assert [p["cards"] for p in learned] != [p["cards"] for p in ruled]


def test_the_generator_refuses_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (["--jobs", "4"], ["--games", "0"], ["--preset", "nonsense"]):
        with pytest.raises(SystemExit):
            generate.main([*args, "--out", str(tmp_path / "x.jsonl")])
        assert "error" in capsys.readouterr().err


if __name__ == "__main__":
    for bundled in NETWORKS if len(sys.argv) < 2 else sys.argv[1:]:
        where = _golden(TRAINED[bundled])
        where.write_text(json.dumps(decisions(bundled), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {where}", file=sys.stderr)
