"""The rating experiment's tool (tools/rating_experiment.py): Kendall's tau, the players of
known strength, a small run end to end (both methods rated on the same hands), the fit."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from briscola.engine import Rules
from briscola.ratings.luck import CATEGORIES, parse_worth
from tools import rating_experiment as experiment


def test_kendall_tau_counts_pairs_in_order() -> None:
    assert experiment.kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert experiment.kendall_tau([4, 3, 2, 1], [10, 20, 30, 40]) == -1.0
    assert experiment.kendall_tau([1, 3, 2, 4], [10, 20, 30, 40]) == pytest.approx(4 / 6)


def test_a_mixed_player_plays_at_random_as_often_as_told() -> None:
    players = experiment.make_players(5, seed=1)
    assert [p.eps for p in players] == [0.0, 0.25, 0.5, 0.75, 1.0]
    state = experiment.play_hand(
        Rules.preset("classic2"), [players[0].bot, players[4].bot], random.Random(2)
    )
    assert state.is_terminal()


def test_a_small_run_measures_every_method_on_the_same_hands() -> None:
    lines: list[str] = []
    result = experiment.run(8, 4, 2, 20, 3, lines.append)
    assert set(result["curves"]) == set(experiment.METHODS)
    for curve in result["curves"].values():
        assert [c["games"] for c in curve] == [2, 4]
        for c in curve:
            assert -1.0 <= c["tau"] <= 1.0 and 0.0 <= c["brier"] <= 1.0 and c["log_loss"] > 0
    assert len(lines) == 2
    assert "| outcome |" in experiment.table(result)
    teams = experiment.run(8, 2, 2, 10, 3, lines.append, preset="teams4")
    assert set(teams["curves"]) == set(experiment.METHODS)
    with pytest.raises(ValueError, match="two sides"):
        experiment.run(9, 2, 2, 10, 3, lines.append, preset="classic3")


def test_the_fit_writes_a_worth_file_the_game_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(experiment, "FIT_PRESETS", ("classic2",))
    out = tmp_path / "luck.json"
    experiment.fit(60, 1, out, lambda _: None)
    worth = parse_worth(json.loads(out.read_text(encoding="utf-8")))
    assert list(worth) == ["classic2"] and len(worth["classic2"]) == CATEGORIES
