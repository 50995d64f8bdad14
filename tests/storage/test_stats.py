"""Statistics storage: counting, saving, loading, reset, damaged files, interrupted writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from briscola.engine import HandResult, Rules
from briscola.game.setup import GameSetup, SeatConfig
from briscola.storage import files as storage
from briscola.storage.stats import HOT_SEAT, Entry, Stats, opponent_strength


def setup_for(preset: str = "classic2", levels: tuple[str, ...] = ("medium",)) -> GameSetup:
    rules = Rules.preset(preset)
    seats = [SeatConfig("You", human=True)]
    for seat in range(1, rules.players):
        level = levels[(seat - 1) % len(levels)]
        seats.append(
            SeatConfig(
                f"P{seat}", human=level == "human", level="medium" if level == "human" else level
            )
        )
    return GameSetup(rules, seats)


def two_sided(points: tuple[int, int]) -> HandResult:
    winner = None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
    return HandResult(
        points=points,
        sides=((0,), (1,)),
        side_points=points,
        target=61,
        winner=winner,
        tied=(),
        cappotto=120 in points,
        returns=(0, 0),
    )


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "stats.json"


def test_opponent_strength() -> None:
    assert opponent_strength(setup_for(levels=("easy",))) == "easy"
    assert opponent_strength(setup_for("teams4", ("easy", "hard", "medium"))) == "hard"
    assert opponent_strength(setup_for("teams4", ("human", "easy"))) == "easy"
    assert opponent_strength(setup_for("classic2", ("human",))) == HOT_SEAT


def test_record_save_and_load(path: Path) -> None:
    stats = Stats.load(path)
    assert stats.empty and stats.notice is None and not path.exists()
    setup = setup_for()
    stats.record_hand(setup, two_sided((70, 50)), seat=0)
    stats.record_hand(setup, two_sided((60, 60)), seat=0)
    stats.record_hand(setup, two_sided((70, 50)), seat=1)  # seen from the other seat: a loss
    stats.record_match(setup, True)
    stats.record_match(setup, None)
    stats.record_match(setup, False)
    assert stats.save() is None
    again = Stats.load(path)
    entry = again.entries[("classic2", "medium")]
    assert (entry.hands, entry.hands_won, entry.hands_drawn, entry.hands_lost) == (3, 1, 1, 1)
    assert entry.best == 70 and entry.average == pytest.approx(180 / 3)
    assert (entry.matches, entry.matches_won, entry.matches_drawn, entry.matches_lost) == (
        3,
        1,
        1,
        1,
    )
    assert again.total() == entry
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == 2


def test_three_player_ties_and_teams(path: Path) -> None:
    stats = Stats(path)
    tie = HandResult(
        points=(45, 45, 30),
        sides=((0,), (1,), (2,)),
        side_points=(45, 45, 30),
        target=45,
        winner=None,
        tied=(0, 1),
        cappotto=False,
        returns=(0, 0, -1),
    )
    three = setup_for("classic3")
    stats.record_hand(three, tie, seat=0)
    stats.record_hand(three, tie, seat=2)
    entry = stats.entries[("classic3", "medium")]
    assert (entry.hands_drawn, entry.hands_lost) == (1, 1)
    teams = HandResult(
        points=(30, 10, 40, 40),
        sides=((0, 2), (1, 3)),
        side_points=(70, 50),
        target=61,
        winner=0,
        tied=(),
        cappotto=False,
        returns=(1, -1, 1, -1),
    )
    stats.record_hand(setup_for("teams4"), teams, seat=0)
    team_entry = stats.entries[("teams4", "medium")]
    assert team_entry.hands_won == 1 and team_entry.best == 70  # the side's points
    with pytest.raises(ValueError):
        stats.record_hand(setup_for(), two_sided((61, 59)), seat=4)


def test_rows_are_ordered() -> None:
    stats = Stats(Path("unused.json"))
    for preset, level in (("teams4", "hard"), ("classic2", "hard"), ("classic2", "easy")):
        stats.record_match(setup_for(preset, (level,)), True)
    assert [key for key, _entry in stats.rows()] == [
        ("classic2", "easy"),
        ("classic2", "hard"),
        ("teams4", "hard"),
    ]


def test_reset(path: Path) -> None:
    stats = Stats.load(path)
    stats.record_hand(setup_for(), two_sided((80, 40)), 0)
    stats.save()
    assert stats.reset() is None
    assert stats.empty and Stats.load(path).empty


def test_corrupt_file_is_kept_aside(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text('{"entries": [{"preset": "classic2", "strength"', encoding="utf-8")
    stats = Stats.load(path)
    assert stats.empty
    assert stats.notice is not None and "stats.json.bak" in stats.notice
    backup = path.with_name("stats.json.bak")
    assert backup.read_text(encoding="utf-8").startswith('{"entries"')
    stats.record_hand(setup_for(), two_sided((61, 59)), 0)
    assert stats.save() is None
    assert Stats.load(path).entries[("classic2", "medium")].hands == 1


@pytest.mark.parametrize(
    "content",
    [
        "[1, 2, 3]",
        '{"entries": 5}',
        '{"entries": [{"preset": "classic2", "strength": "easy", "hands": -4}]}',
        '{"entries": [{"preset": 3, "strength": "easy"}]}',
        '{"entries": [{"preset": "classic2", "strength": "easy", "hands": true}]}',
    ],
)
def test_wrong_content_is_kept_aside(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    stats = Stats.load(path)
    assert stats.empty and stats.notice
    assert path.with_name("stats.json.bak").read_text(encoding="utf-8") == content


def test_interrupted_write_keeps_the_old_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stats = Stats.load(path)
    setup = setup_for()
    stats.record_hand(setup, two_sided((70, 50)), 0)
    assert stats.save() is None
    before = path.read_bytes()

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    # The write fails at the last step (the rename) ...
    stats.record_hand(setup, two_sided((90, 30)), 0)
    monkeypatch.setattr(os, "replace", crash)
    notice = stats.save()
    assert notice is not None and "No space left" in notice
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    # ... or while the data is being turned into text.
    monkeypatch.setattr(
        storage.json, "dumps", lambda *a, **k: (_ for _ in ()).throw(ValueError("boom"))
    )
    assert stats.save() is not None
    monkeypatch.undo()
    assert path.read_bytes() == before
    # The file on disk still has the old counts, never fewer; the next save catches up.
    assert Stats.load(path).entries[("classic2", "medium")].hands == 1
    assert stats.save() is None
    assert Stats.load(path).entries[("classic2", "medium")].hands == 2


def test_counts_on_disk_never_go_down(path: Path) -> None:
    first = Stats.load(path)
    setup = setup_for()
    for _hand in range(3):
        first.record_hand(setup, two_sided((70, 50)), 0)
    first.save()
    # A copy that missed those hands (say the file could not be read when it loaded).
    stale = Stats(path)
    stale.record_hand(setup, two_sided((30, 90)), 0)
    stale.save()
    entry = Stats.load(path).entries[("classic2", "medium")]
    assert entry.hands >= 3 and entry.hands_won == 3 and entry.best == 70


def test_entry_validation() -> None:
    assert Entry.from_json({"hands": 2}).hands == 2
    for bad in ({"hands": "2"}, {"best": -1}, {"matches": 1.5}, []):
        with pytest.raises(ValueError):
            Entry.from_json(bad)
