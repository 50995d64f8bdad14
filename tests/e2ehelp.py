"""The end-to-end tests' view of the game they run: the game as a subprocess writes what is on
screen to ``BRISCOLA_REPORT`` (scene, named buttons and their rectangles, whether anything
moves), and the test waits on that report, never on a fixed sleep."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["ReportedGame"]


class ReportedGame:
    """A game process and the report it writes to ``report_path``."""

    process: subprocess.Popen[str]
    report_path: Path

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            _out, err = self.process.communicate()
            raise AssertionError(f"the game exited ({self.process.returncode}): {err[-2000:]}")

    def report(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads(self.report_path.read_text())
        except (OSError, ValueError):
            return {}
        return data

    def wait_for(
        self, condition: Callable[[dict[str, Any]], bool], seconds: float = 30
    ) -> dict[str, Any]:
        """The first report for which ``condition`` holds (the game still running)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check_alive()
            data = self.report()
            if data and condition(data):
                return data
            time.sleep(0.05)
        raise AssertionError(f"timed out; last report: {self.report()}")

    def close(self) -> None:
        """Stop the game: asked first, killed after 10 s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
