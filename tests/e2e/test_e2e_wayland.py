"""End to end on a Wayland desktop scaled 200 % (and at 100 %): headless weston, the game
as a subprocess on SDL's Wayland driver, which it picks itself (``WAYLAND_DISPLAY`` set,
``SDL_VIDEODRIVER`` not, no X display).

At scale 2 the window's drawing surface is twice its size, the menu's text twice as tall in
pixels as at scale 1, and a click in the window's screen coordinates (what the system
reports for a real one) presses the button under it. A headless weston has no pointer to
move: the clicks are written to ``BRISCOLA_CLICKS`` (see ``render.window.ClickFeeder``),
from where they go the way every mouse event goes. The game saves the frame it drew
(``BRISCOLA_FRAME``) and the compositor's screenshot is taken (``weston-screenshooter``);
``BRISCOLA_SHOTS`` keeps them. Skipped where weston is missing, except in CI (``CI``
set), where that fails (``tools/system-packages.sh test`` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from e2ehelp import ReportedGame

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.e2e

NEEDED = ("weston", "weston-screenshooter")
#: The window's size asked for, in screen coordinates.
WINDOW = (1280, 720)


class Desktop:
    """A headless weston at ``scale``, with a socket and a runtime folder of its own."""

    def __init__(self, scale: int) -> None:
        self.scale = scale
        self.runtime = Path(tempfile.mkdtemp(prefix="briscola-wl-"))
        self.runtime.chmod(0o700)
        self.socket = f"briscola-wl-{os.getpid()}-{scale}"
        self.env = dict(os.environ)
        for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
            self.env.pop(name, None)
        self.env["XDG_RUNTIME_DIR"] = str(self.runtime)
        self.log = self.runtime / "weston.log"
        self.process = subprocess.Popen(
            [
                "weston",
                "--backend=headless-backend.so",
                "--use-pixman",
                "--debug",  # weston-screenshooter needs it
                "--width=1920",
                "--height=1080",
                f"--scale={scale}",
                f"--socket={self.socket}",
                "--idle-time=0",
            ],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("w"),
        )
        deadline = time.monotonic() + 60
        while not (self.runtime / self.socket).exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"weston did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        self.env["WAYLAND_DISPLAY"] = self.socket

    def screenshot(self, path: Path) -> None:
        """The compositor's whole output (its real pixels) as PNG at ``path``."""
        folder = Path(tempfile.mkdtemp(dir=self.runtime))
        subprocess.run(["weston-screenshooter"], env=self.env, cwd=folder, timeout=30, check=True)
        shot = next(folder.glob("*.png"))
        shutil.move(shot, path)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.runtime, ignore_errors=True)


@pytest.fixture(scope="module")
def desktops() -> Iterator[Callable[[int], Desktop]]:
    """Headless weston desktops by scale, started when first asked for."""
    missing = [tool for tool in NEEDED if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install {', '.join(missing)} (tools/system-packages.sh test)")
        pytest.skip(f"needs {', '.join(missing)}")
    started: dict[int, Desktop] = {}

    def desktop(scale: int) -> Desktop:
        if scale not in started:
            started[scale] = Desktop(scale)
        return started[scale]

    try:
        yield desktop
    finally:
        for each in started.values():
            each.close()


class Game(ReportedGame):
    """The game on ``desktop``'s Wayland socket, its report, frame and clicks in ``home``."""

    def __init__(self, desktop: Desktop, home: Path) -> None:
        self.home = home
        self.report_path = home / "report.json"
        self.frame_path = home / "frame.png"
        self.clicks_path = home / "clicks.txt"
        env = dict(desktop.env)
        env.update(
            SDL_AUDIODRIVER="dummy",
            BRISCOLA_HOME=str(home),
            BRISCOLA_REPORT=str(self.report_path),
            BRISCOLA_FRAME=str(self.frame_path),
            BRISCOLA_CLICKS=str(self.clicks_path),
            BRISCOLA_NO_LAN="1",
        )
        size = f"{WINDOW[0]}x{WINDOW[1]}"
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "--windowed", "--size", size, "--lang", "en"],
            env=env,
            cwd=home,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def click(self, rect: list[int], data: dict[str, Any]) -> None:
        """A click at the middle of ``rect`` (the surface's pixels), written as the system
        gives it: in the window's screen coordinates."""
        ratio = data["size"][0] / data["window"][0]
        x = round((rect[0] + rect[2] / 2) / ratio)
        y = round((rect[1] + rect[3] / 2) / ratio)
        part = self.clicks_path.with_name("clicks.part")
        part.write_text(f"{x} {y}\n")
        part.replace(self.clicks_path)  # whole, never half written


def _ink_rows(frame: pygame.Surface, rect: list[int]) -> int:
    """How many pixel rows of ``rect`` hold the label's light text (the height of its ink)."""
    area = pygame.Rect(rect).clip(frame.get_rect())
    rows = 0
    for y in range(area.top, area.bottom):
        if any(min(frame.get_at((x, y))[:3]) > 200 for x in range(area.left, area.right)):
            rows += 1
    return rows


def _menu(desktops: Callable[[int], Desktop], scale: int, home: Path) -> dict[str, Any]:
    """The game's menu on a desktop at ``scale``: its report, the height of the New game
    label's ink, and a click on Rules in screen coordinates (which must open the rules)."""
    desktop = desktops(scale)
    shots = Path(os.environ.get("BRISCOLA_SHOTS", home))
    shots.mkdir(parents=True, exist_ok=True)
    game = Game(desktop, home)
    try:
        data = game.wait_for(lambda d: d.get("scene") == "MenuScene" and d.get("still"), 120)
        frame = pygame.image.load(str(game.frame_path))
        shutil.copy(game.frame_path, shots / f"wayland-x{scale}-menu-frame.png")
        desktop.screenshot(shots / f"wayland-x{scale}-menu-screen.png")
        data["ink"] = _ink_rows(frame, data["widgets"]["new_game"])
        data["frame_size"] = list(frame.get_size())
        game.click(data["widgets"]["rules"], data)
        data["after_click"] = game.wait_for(lambda d: d.get("scene") != "MenuScene", 60)
        return data
    finally:
        game.close()


@pytest.fixture(scope="module")
def at_scale_1(
    desktops: Callable[[int], Desktop], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    return _menu(desktops, 1, tmp_path_factory.mktemp("scale1"))


def test_at_scale_1_the_window_draws_at_its_size(at_scale_1: dict[str, Any]) -> None:
    data = at_scale_1
    assert data["window"] == list(WINDOW)
    assert data["size"] == list(WINDOW) == data["frame_size"]
    assert data["ink"] > 8  # the label was found
    assert data["after_click"]["scene"] == "RulesScene"


def test_at_scale_2_the_game_draws_the_screens_real_pixels(
    desktops: Callable[[int], Desktop], at_scale_1: dict[str, Any], tmp_path: Path
) -> None:
    data = _menu(desktops, 2, tmp_path)
    assert data["window"] == list(WINDOW)  # screen coordinates, as asked
    assert data["size"] == [2 * WINDOW[0], 2 * WINDOW[1]] == data["frame_size"]
    one = at_scale_1["widgets"]["new_game"]
    two = data["widgets"]["new_game"]
    assert all(abs(b - 2 * a) <= 2 for a, b in zip(one, two, strict=True)), (one, two)
    assert abs(data["ink"] - 2 * at_scale_1["ink"]) <= 2, (data["ink"], at_scale_1["ink"])
    # A click in screen coordinates pressed the button drawn at twice those pixels.
    assert data["after_click"]["scene"] == "RulesScene"
