"""README.md's part for players (issue 50): it says where each of the player's files lives,
and leaves frame times and memory to docs/performance.md (linked)."""

from __future__ import annotations

import re
from pathlib import Path

from briscola.storage import paths
from briscola.storage.seats import SEAT_FILE

ROOT = Path(__file__).resolve().parents[2]


def _players_part() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme[readme.index("## Play") : readme.index("## Test")]


def test_the_readme_names_every_file_of_the_player() -> None:
    part = _players_part()
    names = [
        paths.settings_file().name,
        paths.stats_file().name,
        paths.autosave_file().name,
        paths.log_file().name,
        paths.records_dir().name + "/",
        SEAT_FILE,
    ]
    for name in names:
        assert f"`{name}`" in part, name
    assert "BRISCOLA_HOME" in part


def test_the_players_part_leaves_figures_to_the_performance_page() -> None:
    part = _players_part()
    assert not re.search(r"\d\s*(ms|MB)\b", part), "frame times or memory in the player's part"
    assert "(docs/performance.md)" in part
    performance = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "0.85-1.4 ms" in performance and "88 / 124 / 217 MB" in performance
