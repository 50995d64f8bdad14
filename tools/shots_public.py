"""Screenshots of public play as three players see it (issue 47): two game windows
quick-match into a two-player table on one server, a third watches it; both players send
a quick chat (one game in Italian, one in English). Run it inside a private network
namespace with Xvfb, the server and the three games in it, nothing reaching real
interfaces::

    unshare -n sh -c 'ip link set lo up && .venv/bin/python tools/shots_public.py OUT [WxH...]'

It starts Xvfb (:97), ``python -m briscola.server`` on 127.0.0.1:8765 and, for each window
size (1024x600, 1920x1080), three games with their own data folders. Clicks go through
``BRISCOLA_CLICKS`` at the rectangles the games report (``BRISCOLA_REPORT``), names are
typed with xdotool, and each picture is the game's own frame (``BRISCOLA_FRAME``, saved once
nothing moves) or, where a page never rests (the lobby's and the wait's clocks, a quick
chat shown for a few seconds), the window raised and grabbed with ImageMagick's
``import``; all go to OUT as PNG. Needs Xvfb, xdotool and ImageMagick; the games look for
nothing on the network (``BRISCOLA_NO_LAN=1``). The pictures in docs/playing-online.md
("Seen in three windows") come from it, turned to JPEG.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DISPLAY = ":97"
SERVER = "127.0.0.1:8765"
Report = dict[str, Any]


class Game:
    """One game window and the files it reads and writes."""

    def __init__(self, label: str, size: str, lang: str, base: Path) -> None:
        self.label = label
        self.home = base / label
        self.home.mkdir(parents=True)
        self.report_path = self.home / "report.json"
        self.frame_path = self.home / "frame.png"
        self.clicks_path = self.home / "clicks.txt"
        self.env = dict(
            os.environ,
            DISPLAY=DISPLAY,
            SDL_AUDIODRIVER="dummy",
            BRISCOLA_NO_LAN="1",
            BRISCOLA_HOME=str(self.home),
            BRISCOLA_REPORT=str(self.report_path),
            BRISCOLA_FRAME=str(self.frame_path),
            BRISCOLA_CLICKS=str(self.clicks_path),
            BRISCOLA_BOT_THREADS="1",
        )
        command = [sys.executable, str(ROOT / "main.py"), "--windowed", "--size", size]
        command += ["--lang", lang]
        self.log = (self.home / "game.log").open("w")
        self.process = subprocess.Popen(
            command, env=self.env, cwd=self.home, stdout=self.log, stderr=subprocess.STDOUT
        )
        self.window = ""

    def report(self) -> Report:
        try:
            data: Report = json.loads(self.report_path.read_text())
        except (OSError, ValueError):
            return {}
        return data

    def wait(self, condition: Callable[[Report], bool], seconds: float = 30) -> Report:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited: {self.process.returncode}")
            data = self.report()
            if data and condition(data):
                return data
            time.sleep(0.2)
        raise RuntimeError(f"{self.label} timed out; last report: {self.report()}")

    def scene(self, name: str, seconds: float = 30) -> Report:
        return self.wait(lambda r: r.get("scene") == name, seconds)

    def widget(self, name: str, seconds: float = 30) -> Report:
        return self.wait(lambda r: name in r.get("widgets", {}), seconds)

    def click(self, name: str, seconds: float = 30, right: bool = False) -> None:
        """Click the middle of the widget ``name`` once it shows (``right``: its right
        end, where a choice's arrow is)."""
        data = self.widget(name, seconds)
        x, y, w, h = data["widgets"][name]
        scale = data["window"][0] / data["size"][0]
        middle = x + w - 15 if right else x + w / 2
        point = f"{int(middle * scale)} {int((y + h / 2) * scale)}\n"
        while self.clicks_path.exists():
            time.sleep(0.05)
        part = self.clicks_path.with_suffix(".part")
        part.write_text(point)
        part.replace(self.clicks_path)
        time.sleep(0.5)

    def type(self, text: str) -> None:
        """Type ``text`` (and Return) into this window, focused first."""
        self.find_window()
        xdotool(self.env, "windowfocus", self.window)
        time.sleep(0.2)
        xdotool(self.env, "type", "--delay", "40", text)
        time.sleep(0.3)

    def shot(self, out: Path, name: str, settle: float = 1.5, live: bool = False) -> None:
        """The window to ``out/name.png``: the game's own frame once nothing moves, or (a
        page with a live clock never rests) the window raised and grabbed from the X
        server (at once where ``live``: a quick chat shows for a few seconds)."""
        time.sleep(settle)
        self.frame_path.unlink(missing_ok=True)
        try:
            if live:
                raise RuntimeError("grab it now")
            self.wait(lambda r: bool(r.get("still")) and self.frame_path.exists(), 4)
            time.sleep(0.3)
            shutil.copy(self.frame_path, out / f"{name}.png")
        except RuntimeError:
            self.find_window()
            xdotool(self.env, "windowraise", self.window)
            time.sleep(0.5)
            target = str(out / f"{name}.png")
            grab = ["import", "-window", self.window, target]
            subprocess.run(grab, env=self.env, check=True, timeout=30)
        print("shot", name, flush=True)

    def find_window(self) -> None:
        if not self.window:
            found = xdotool(self.env, "search", "--pid", str(self.process.pid))
            self.window = found.split()[-1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def xdotool(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=10)
    return done.stdout


def to_lobby(game: Game, name: str) -> None:
    """Menu → Play online → Public tables → add the server → choose it → a name."""
    game.click("online")
    game.click("public")
    game.click("address")
    game.type(SERVER)
    game.click("add")
    game.click("server-0")
    game.click("public_name")
    game.type(name)
    game.click("sign_in")
    game.widget("quick")


def session(size: str, names: tuple[str, str, str], base: Path, out: Path) -> None:
    tag = size.split("x")[0]
    games = [
        Game("a", size, "it", base),
        Game("b", size, "en", base),
        Game("c", size, "en", base),
    ]
    a, b, c = games
    try:
        for game, name in zip(games, names, strict=True):
            game.scene("MenuScene", 60)
            to_lobby(game, name)
        a.shot(out, f"lobby-{tag}-a")
        a.click("quick")
        a.click("wait")
        a.shot(out, f"wait-{tag}-a")
        b.click("quick")
        b.click("wait")
        a.scene("TableScene", 60)
        b.scene("TableScene", 60)
        time.sleep(2)
        c.shot(out, f"lobby-{tag}-c")
        c.click("table-0")
        c.scene("TableScene", 30)
        time.sleep(3)
        a.shot(out, f"table-{tag}-a")
        b.click("menu")
        b.click("chat")
        a.click("menu")
        a.click("chat")
        a.shot(out, f"chat-{tag}-a", 0.5)
        a.click("say_hello", 10)
        b.click("say_good_luck", 10)
        for game in (a, b, c):
            game.shot(out, f"said-{tag}-{game.label}", 0.2, live=True)
    finally:
        for game in games:
            game.stop()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="shots-public-"))
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1920x1080x24"])
    server = subprocess.Popen(
        [sys.executable, "-m", "briscola.server", "--host", "127.0.0.1", "--port", "8765"],
        cwd=ROOT,
        env=dict(os.environ, BRISCOLA_HOME=str(base / "server")),
        stdout=(base / "server.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        time.sleep(2)
        sizes = sys.argv[2:] or ["1024x600", "1920x1080"]
        names = {"1024x600": ("Giulia", "Tom", "Sara"), "1920x1080": ("Marco", "Anna", "Luca")}
        for size in sizes:
            session(size, names.get(size, ("Pia", "Ned", "Eva")), base / size, out)
    finally:
        for process in (server, xvfb):
            process.terminate()
            process.wait(timeout=10)
        print("logs in", base)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
