"""With no display at all (SSH without X forwarding), the game says so and exits non-zero
instead of running with no window; a driver asked for (tests, smoke runs) still runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    clean.pop("SDL_VIDEODRIVER", None)
    clean.update(BRISCOLA_HOME=str(tmp_path), SDL_AUDIODRIVER="dummy", LANGUAGE="en", **env)
    return subprocess.run(
        [sys.executable, "main.py", "--frames", "3", "--turbo"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_display_is_said_and_the_game_exits_non_zero(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 1
    assert "No display was found" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_driver_asked_for_runs_without_a_window(tmp_path: Path) -> None:
    done = _run(tmp_path, SDL_VIDEODRIVER="dummy")
    assert done.returncode == 0, done.stderr
    assert "No display" not in done.stderr
