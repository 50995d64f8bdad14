"""The recent hands: each is kept by itself, the newest few, the oldest dropped."""

from __future__ import annotations

from pathlib import Path

from briscola.storage.recent import keep_recent


def test_the_newest_hands_are_kept_and_the_oldest_dropped(tmp_path: Path) -> None:
    written = [keep_recent({"hand": n}, tmp_path, kept=3) for n in range(5)]
    assert all(path is not None for path in written)
    left = sorted(tmp_path.glob("hand_*.json"))
    assert left == written[2:]


def test_a_folder_that_cannot_be_written_loses_nothing_else(tmp_path: Path) -> None:
    blocker = tmp_path / "recent"
    blocker.write_text("a file where the folder should be")
    assert keep_recent({"hand": 1}, blocker) is None
    assert blocker.read_text() == "a file where the folder should be"
