"""Statistics: streaks (hands and matches won in a row against the computer, now and best),
results per opponent level and per configuration, an old (format 1) file loading as it was,
and damaged streaks that lose nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stats import setup_for, two_sided

from briscola.storage.stats import HOT_SEAT, Entry, Stats, Streaks

WIN, LOSS, DRAW = (70, 50), (50, 70), (60, 60)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "stats.json"


def runs(results: list[bool]) -> tuple[int, int]:
    """The run of wins at the end of ``results``, and the longest run."""
    now = best = 0
    for won in results:
        now = now + 1 if won else 0
        best = max(best, now)
    return now, best


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["win", "loss", "draw"]), max_size=14))
def test_the_streaks_are_the_runs_of_hands_won_kept_across_saves(
    tmp_path_factory: pytest.TempPathFactory, outcomes: list[str]
) -> None:
    path = tmp_path_factory.mktemp("streaks") / "stats.json"
    setup = setup_for()
    for outcome in outcomes:  # as the game does: load, count one hand, save
        stats = Stats.load(path)
        points = {"win": WIN, "loss": LOSS, "draw": DRAW}[outcome]
        stats.record_hand(setup, two_sided(points), seat=0)
        stats.record_match(
            setup, True if outcome == "win" else None if outcome == "draw" else False
        )
        assert stats.save() is None
    again = Stats.load(path)
    now, best = runs([outcome == "win" for outcome in outcomes])
    assert (again.streaks.hands, again.streaks.best_hands) == (now, best)
    assert (again.streaks.matches, again.streaks.best_matches) == (now, best)
    assert again.notice is None


def test_hot_seat_hands_do_not_count_in_the_streaks_against_the_computer(path: Path) -> None:
    stats = Stats.load(path)
    stats.record_hand(setup_for(), two_sided(WIN), seat=0)
    stats.record_hand(setup_for(levels=("human",)), two_sided(LOSS), seat=0)
    assert stats.streaks == Streaks(hands=1, best_hands=1)
    assert stats.entries[("classic2", HOT_SEAT)].hands_lost == 1


def test_results_add_up_per_opponent_level_and_per_configuration(path: Path) -> None:
    stats = Stats.load(path)
    for preset, levels, points in (
        ("classic2", ("easy",), WIN),
        ("classic2", ("hard",), LOSS),
        ("classic2", ("hard",), WIN),
        ("teams4", ("hard",), LOSS),
        ("teams4", ("easy", "medium"), DRAW),
    ):
        stats.record_hand(setup_for(preset, levels), two_sided(points), seat=0)
    by_level = dict(stats.by_strength())
    assert list(by_level) == ["easy", "medium", "hard"]
    assert (by_level["hard"].hands, by_level["hard"].hands_won) == (3, 1)
    assert by_level["medium"].hands_drawn == 1
    by_game = dict(stats.by_preset())
    assert list(by_game) == ["classic2", "teams4"]
    assert (by_game["classic2"].hands, by_game["teams4"].hands_lost) == (3, 1)
    for grouped in (by_level, by_game):
        total = Entry()
        for entry in grouped.values():
            total.add(entry)
        assert total == stats.total()


OLD_FILE = {
    "format": 1,
    "entries": [
        {
            "preset": "classic2",
            "strength": "medium",
            "hands": 5,
            "hands_won": 3,
            "hands_drawn": 0,
            "hands_lost": 2,
            "points": 320,
            "best": 88,
            "matches": 5,
            "matches_won": 3,
            "matches_drawn": 0,
            "matches_lost": 2,
        }
    ],
}


def test_a_statistics_file_of_the_first_format_loads_as_it_was_and_is_written_anew(
    path: Path,
) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(OLD_FILE), encoding="utf-8")
    stats = Stats.load(path)
    assert stats.notice is None, "an old file is not damaged"
    entry = stats.entries[("classic2", "medium")]
    assert (entry.hands, entry.hands_won, entry.points, entry.best) == (5, 3, 320, 88)
    assert entry.hands_with_undo == 0 and stats.streaks == Streaks()
    stats.record_hand(setup_for(), two_sided(WIN), seat=0)
    assert stats.save() is None
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["format"] == 2 and saved["streaks"]["hands"] == 1
    assert saved["entries"][0]["hands"] == 6 and saved["entries"][0]["points"] == 390
    assert not list(path.parent.glob("*.bak*")), "nothing was set aside"


def test_damaged_streaks_lose_nothing_else_and_the_file_is_copied_aside(path: Path) -> None:
    damaged = dict(OLD_FILE, format=2, streaks={"hands": "many", "best_hands": 4, "matches": -1})
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(damaged), encoding="utf-8")
    stats = Stats.load(path)
    assert stats.notice is not None and "left out" in stats.notice
    assert stats.entries[("classic2", "medium")].hands == 5
    assert stats.streaks == Streaks(hands=0, best_hands=4, matches=0)
    (copy,) = path.parent.glob("*.bak*")
    assert json.loads(copy.read_text(encoding="utf-8")) == damaged


def test_a_lost_hand_ends_the_run_on_disk_too(path: Path) -> None:
    for points in (WIN, WIN, WIN, LOSS):
        stats = Stats.load(path)
        stats.record_hand(setup_for(), two_sided(points), seat=0)
        stats.save()
    on_disk = json.loads(path.read_text(encoding="utf-8"))["streaks"]
    assert (on_disk["hands"], on_disk["best_hands"]) == (0, 3), "the merge keeps a run that ended"
