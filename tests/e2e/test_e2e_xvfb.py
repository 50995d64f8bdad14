"""End to end in a real X window: Xvfb, the game as a subprocess, xdotool clicks.

The game writes what is on screen, and where, to the file named by ``BRISCOLA_REPORT``
(scene, named buttons, the cards of the hand); the test clicks those positions inside the
window with xdotool, plays a whole hand against the computer, and takes screenshots.
Skipped where Xvfb or xdotool are missing, except in CI (``CI`` set), where that fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from e2ehelp import ReportedGame

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e

NEEDED = ("Xvfb", "xdotool")


def _missing() -> list[str]:
    return [tool for tool in NEEDED if shutil.which(tool) is None]


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install {', '.join(missing)} (see .ci/run)")
        pytest.skip(f"needs {', '.join(missing)}")
    for number in range(71, 90):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            break
    name = f":{number}"
    server = subprocess.Popen(
        ["Xvfb", name, "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.05)
        yield name
    finally:
        server.terminate()
        server.wait(timeout=10)


class Game(ReportedGame):
    def __init__(self, display: str, home: Path, shots: Path) -> None:
        self.display = display
        self.home = home
        self.shots = shots
        self.report_path = home / "report.json"
        env = dict(os.environ)
        env.pop("SDL_VIDEODRIVER", None)
        env.update(
            DISPLAY=display,
            SDL_AUDIODRIVER="dummy",
            BRISCOLA_HOME=str(home),
            BRISCOLA_REPORT=str(self.report_path),
        )
        self.env = env
        self.process = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "main.py"),
                "--windowed",
                "--size",
                "1280x720",
                "--seed",
                "9",
            ],
            env=env,
            cwd=home,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.window = ""

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=10
        )
        return done.stdout.strip()

    def find_window(self, seconds: float = 120) -> None:
        """Wait until the game's window is mapped (a busy machine may take a while to start
        Python, pygame and the window)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            ids = self.xdotool("search", "--onlyvisible", "--pid", str(self.process.pid)).split()
            if ids:
                self.window = ids[-1]
                return
            self.check_alive()
            time.sleep(0.1)
        names = self.xdotool("search", "--name", "Briscola")
        raise AssertionError(f"the game window never appeared (windows named Briscola: {names})")

    def click(self, rect: list[int]) -> None:
        x = rect[0] + rect[2] // 2
        y = rect[1] + rect[3] // 2
        self.xdotool("mousemove", "--window", self.window, str(x), str(y))
        time.sleep(0.05)
        self.xdotool("click", "1")

    def click_until(
        self,
        where: Callable[[dict[str, Any]], list[int]],
        effect: Callable[[dict[str, Any]], bool],
        tries: int = 4,
        seconds: float = 20,
    ) -> dict[str, Any]:
        """Click where the report says, until ``effect`` shows in the report: on a busy
        machine a click can land before the window is ready for it, so it is tried again
        (clicks in this test are only ones that are harmless to repeat)."""
        for _attempt in range(tries):
            data = self.report()
            if data and effect(data):
                return data
            self.click(where(data))
            try:
                return self.wait_for(effect, seconds)
            except AssertionError:
                # Find the window again before the next try: once, in a full run on a
                # busy machine, four clicks had no effect with the game idle on its menu
                # (cause unknown), so a try does not rely on the first search alone.
                self.find_window()
                continue
        where_now = self.xdotool("getmouselocation")
        geometry = self.xdotool("getwindowgeometry", self.window)
        raise AssertionError(
            f"{tries} clicks had no effect; window {self.window} ({geometry}), pointer"
            f" {where_now}; last report: {self.report()}"
        )

    def click_widget(
        self, name: str, scene: str, effect: Callable[[dict[str, Any]], bool]
    ) -> dict[str, Any]:
        """Click the button ``name`` once ``scene`` shows it, until ``effect`` follows."""
        self.wait_for(lambda d: d.get("scene") == scene and name in d.get("widgets", {}), 60)
        return self.click_until(lambda d: d["widgets"][name], effect)

    def quit_from_menu(self, tries: int = 4) -> None:
        """Click Quit on the menu until the game has exited."""
        self.wait_for(lambda d: d.get("scene") == "MenuScene" and "quit" in d["widgets"], 60)
        for _attempt in range(tries):
            self.click(self.report()["widgets"]["quit"])
            try:
                self.process.wait(timeout=20)
                return
            except subprocess.TimeoutExpired:
                continue
        raise AssertionError("the game did not quit")

    def screenshot(self, name: str) -> None:
        if shutil.which("import"):
            subprocess.run(
                ["import", "-window", "root", str(self.shots / f"{name}.png")],
                env=self.env,
                capture_output=True,
                timeout=20,
            )


def test_new_game_and_a_whole_hand_by_mouse_in_a_real_window(display: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get("BRISCOLA_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    # Fast animations keep the test short; everything else is as a player finds it.
    (tmp_path / "settings.json").write_text(json.dumps({"speed": "fast"}))
    game = Game(display, tmp_path, shots)
    try:
        game.find_window()
        game.wait_for(lambda d: d.get("scene") == "MenuScene" and d.get("still"), 120)
        game.screenshot("e2e-menu")
        game.click_widget("new_game", "MenuScene", lambda d: d.get("scene") == "NewGameScene")
        game.screenshot("e2e-new-game")
        game.click_widget("start", "NewGameScene", lambda d: d.get("scene") == "TableScene")
        plays = 0
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            data = game.wait_for(
                lambda d: d.get("scene") != "TableScene" or (d.get("awaiting") and d.get("cards")),
                seconds=60,
            )
            if data.get("scene") != "TableScene":
                break
            legal = [c for c in data["cards"] if c["legal"]]
            assert legal, data
            before = [c["code"] for c in data["cards"]]
            game.click_until(
                lambda _d, card=legal[0]: card["rect"],
                lambda d, before=before: (
                    d.get("scene") != "TableScene"
                    or [c["code"] for c in d.get("cards", [])] != before
                ),
            )
            plays += 1
            if plays == 2:
                game.screenshot("e2e-table")
        # The piles counted out on the score screen: nothing moves any more.
        game.wait_for(lambda d: d.get("scene") == "ScoreScene" and d.get("still"), 60)
        assert plays >= 20, f"only {plays} cards played"
        game.screenshot("e2e-score")
        game.click_widget("menu", "ScoreScene", lambda d: d.get("scene") == "MenuScene")
        game.quit_from_menu()
        assert game.process.returncode == 0
    finally:
        game.close()
