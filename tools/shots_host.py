"""Host mode seen in two windows (issue 46): Anna hosts a table from her game, Bruno finds it
on the network and joins; Anna's game is killed (``kill -9``) in the middle of the hand and
started again, takes the table back from Play online, and both finish the match. Run it
inside a private network namespace, Xvfb and both games in it, nothing reaching real
interfaces (mDNS only on loopback)::

    unshare -n sh -c 'ip link set lo up && ip link set lo multicast on &&
        ip route add 224.0.0.0/4 dev lo && .venv/bin/python tools/shots_host.py OUT [WxH...]'

For each window size (1024x600, 1920x1080) two games with their own data folders; the host
listens on 127.0.0.1:8765. With ``WxH+taken`` (e.g. ``1920x1080+taken``) another program
holds port 8765 when Anna's game starts again: the table opens on another port, announced
on the network, where Bruno's game finds it. Clicks go through the games' test hooks
(``BRISCOLA_CLICKS`` at the rectangles ``BRISCOLA_REPORT`` gives, as in
``tools/shots_public.py``); pictures go to OUT as PNG: the guest's "away" banner, the
host's Play online page with **Back to your table**, the table taken back, and the finished
match in both windows. It checks what it waits for (the guest's game holding its seat until
the host's game is back, then holding it plainly again; the scenes; the match over in both
windows) and exits non-zero when one never comes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.shots_public import ROOT, Game, Report

DISPLAY = ":57"
PORT = 8765


class Window(Game):
    """A game window (``tools/shots_public.py``'s, looking for tables on loopback) that may
    be killed and started again on the same data folder."""

    def __init__(self, label: str, size: str, base: Path) -> None:  # (Game's starts at once)
        self.label, self.size, self.window = label, size, ""
        self.home = base / label
        self.home.mkdir(parents=True)
        # The New game screen's last choices: classic Briscola, a single hand.
        choices = {"new_game": {"preset": "classic2", "matches": {"classic2": "single"}}}
        (self.home / "settings.json").write_text(json.dumps(choices))
        hooks = {"REPORT": "report.json", "FRAME": "frame.png", "CLICKS": "clicks.txt"}
        self.report_path, self.frame_path, self.clicks_path = (
            self.home / name for name in hooks.values()
        )
        settings = {"HOME": str(self.home), "BOT_THREADS": "1", "HOST_BIND": "127.0.0.1",
                    "HOST_PORT": str(PORT), "MDNS_INTERFACES": "127.0.0.1"}  # fmt: skip
        settings.update({key: str(self.home / name) for key, name in hooks.items()})
        self.env = {**os.environ, "DISPLAY": DISPLAY, "SDL_AUDIODRIVER": "dummy"}
        self.env.update({f"BRISCOLA_{key}": value for key, value in settings.items()})
        self.env.pop("BRISCOLA_NO_LAN", None)
        self.log = (self.home / "game.log").open("w")
        self.start()

    def start(self) -> None:
        self.report_path.unlink(missing_ok=True)
        self.clicks_path.unlink(missing_ok=True)
        self.window = ""
        command = [sys.executable, str(ROOT / "main.py"), "--windowed", "--size", self.size]
        self.process = subprocess.Popen(
            [*command, "--lang", "en"], env=self.env, cwd=self.home, stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip

    def restart(self) -> None:
        """``kill -9`` the game (nothing of it runs on: no goodbye) and start it again."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        print(self.label, "killed", flush=True)
        self.start()

    def away(self) -> bool:
        """The host's game is away for this guest's game: the seat it holds says until when
        the table can come back (``online-seat.json``), as the banner does."""
        try:
            held = json.loads((self.home / "online-seat.json").read_text())
        except (OSError, ValueError):
            return False
        return isinstance(held, dict) and held.get("until") is not None

    def picture(self, out: Path, name: str, live: bool = False) -> None:
        """:meth:`Game.shot`, taken again (up to three times) when the window grabbed was
        blank (a window mapped late on a busy machine): a picture has thousands of colours."""
        for _ in range(3):
            self.shot(out, name, 1.0, live=live)
            colours = subprocess.run(
                ["identify", "-format", "%k", str(out / f"{name}.png")],
                capture_output=True, text=True, timeout=60,
            ).stdout  # fmt: skip
            if colours.isdigit() and int(colours) > 500:
                return
            self.window = ""
        raise RuntimeError(f"{name}: the window stays blank")

    def click_at(self, rect: list[int], data: Report) -> None:
        """Click the middle of ``rect`` (the report's coordinates)."""
        scale = data["window"][0] / data["size"][0]
        x, y, w, h = rect
        while self.clicks_path.exists():
            time.sleep(0.05)
        part = self.clicks_path.with_suffix(".part")
        part.write_text(f"{int((x + w / 2) * scale)} {int((y + h / 2) * scale)}\n")
        part.replace(self.clicks_path)

    def play_one(self) -> bool:
        """Play a legal card if it is this window's turn (True when one was clicked)."""
        data = self.report()
        if data.get("scene") != "TableScene" or not data.get("awaiting"):
            return False
        legal = [card for card in data.get("cards", []) if card["legal"]]
        if not legal:
            return False
        self.click_at(legal[0]["rect"], data)
        time.sleep(0.6)
        return True


def set_name(game: Window, name: str) -> None:
    game.click("player_name")
    game.type(name)


def open_table(anna: Window, bruno: Window) -> None:
    """Anna hosts classic Briscola (a single hand: her settings say so); Bruno finds the
    table on the network, joins and is ready; Anna starts."""
    anna.scene("MenuScene", 90)
    anna.click("online")
    set_name(anna, "Anna")
    anna.click("host")
    anna.scene("NewGameScene")
    anna.click("start")
    anna.scene("WaitingRoomScene", 60)
    bruno.scene("MenuScene", 90)
    bruno.click("online")
    set_name(bruno, "Bruno")
    bruno.click("join")
    bruno.click("lan-0", 60)  # found on the network
    bruno.scene("WaitingRoomScene", 60)
    bruno.click("ready")
    anna.click("start", 60)
    anna.scene("TableScene", 60)
    bruno.scene("TableScene", 60)


def play_until(games: list[Window], done: Callable[[], bool], seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out playing: {[g.report().get('scene') for g in games]}")
        if not any(game.play_one() for game in games):
            time.sleep(0.3)


@contextlib.contextmanager
def held(port: int) -> Iterator[None]:
    """Another program listens on ``port`` (and never answers)."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", port))
    holder.listen()
    try:
        yield
    finally:
        holder.close()


def session(size: str, taken: bool, base: Path, out: Path) -> None:
    tag = size.split("x")[0] + ("-taken" if taken else "")
    anna, bruno = Window("anna", size, base), Window("bruno", size, base)
    games = [anna, bruno]
    try:
        open_table(anna, bruno)
        play_until(
            games,
            lambda: anna.report().get("tricks", 0) >= 3 and bruno.report().get("awaiting", False),
        )
        anna.restart()  # kill -9, mid-hand
        bruno.wait(lambda r: bruno.away(), 60)
        bruno.picture(out, f"host-away-{tag}-guest")
        with held(PORT) if taken else contextlib.nullcontext():
            anna.scene("MenuScene", 90)
            anna.click("online")
            anna.widget("rejoin", 30)
            anna.picture(out, f"host-back-{tag}-host")
            anna.click("rejoin")
            anna.scene("TableScene", 60)
            if taken:
                anna.picture(out, f"host-moved-{tag}-host", live=True)  # (a notice, 12 s)
            bruno.wait(lambda r: not bruno.away(), 90)  # reconnected by itself
            bruno.picture(out, f"host-resumed-{tag}-guest")
            play_until(games, lambda: all(g.report().get("scene") == "ScoreScene" for g in games))
            for game in games:
                data = game.wait(lambda r: "rematch" in r.get("widgets", {}), 30)
                if "next" in data["widgets"]:
                    raise RuntimeError(f"{game.label}: the match is not over")
                game.picture(out, f"host-over-{tag}-{game.label}")
    finally:
        for game in games:
            game.stop()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    base = Path(tempfile.mkdtemp(prefix="shots-host-"))
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1920x1080x24"])
    try:
        for run in sys.argv[2:] or ["1024x600", "1920x1080+taken"]:
            size, _plus, extra = run.partition("+")
            session(size, extra == "taken", base / run, out)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
        print("logs in", base)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
