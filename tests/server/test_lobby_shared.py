"""The public side across processes (issue 47): three server processes on one redis-server,
HAProxy in front. Quick match seats people who wait on different processes together (two,
and four in two teams), a spectator on a third process watches their table and receives no
hidden card, token or key, and a lobby change on one process reaches a watcher on another
within a second."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redishelp import HAProxy, RedisServer
from serverhelp import chooser

from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, play_all
from briscola.client.public import PublicSide
from briscola.engine import Rules
from briscola.engine.cards import DECK
from briscola.protocol import lobby
from briscola.server.watch import SECRET_KEYS
from tools.haproxy import code_start

CODES = {card.code for card in DECK}


class Service:
    """Three server processes and a proxy; ``urls[i]`` reaches process ``i`` alone."""

    def __init__(self, folder: Path, redis_url: str) -> None:
        self.log = (folder / "servers.log").open("w", encoding="utf-8")
        self.procs: list[subprocess.Popen[str]] = []
        self.urls: list[str] = []
        for index in range(3):  # (process i's table codes start with code_start(i, 3))
            proc = subprocess.Popen(
                [sys.executable, "-m", "briscola.server", "--port", "0", "--redis", redis_url,
                 "--lease", "1", "--grace", "60", "--log-level", "WARNING",
                 "--trusted-proxy", "127.0.0.1", "--code-start", code_start(index, 3)],
                stdout=subprocess.PIPE, stderr=self.log, text=True,
            )  # fmt: skip
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("listening on "), line
            self.procs.append(proc)
            self.urls.append(line.split()[-1])
        ports = [int(url.rsplit(":", 1)[1]) for url in self.urls]
        self.proxy = HAProxy(folder, ports).start()
        self.clients: list[NetClient] = []

    def client(self, url: str, name: str) -> NetClient:
        client = NetClient(url, name, backoff=0.05).start()
        self.clients.append(client)
        return client

    def stop(self) -> None:
        for client in self.clients:
            client.close(timeout=2)
        self.proxy.stop()
        for proc in self.procs:
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.log.close()


@pytest.fixture
def service(redis_server: RedisServer, tmp_path: Path) -> Iterator[Service]:
    running = Service(tmp_path, redis_server.url)
    yield running
    running.stop()


def queue_up(service: Service, preset: str, where: list[int]) -> list[HeadlessPlayer]:
    players = []
    for n, index in enumerate(where):
        client = service.client(service.urls[index], f"Player {n}")
        players.append(HeadlessPlayer(client, chooser(n)))
        client.submit(lobby.queue([preset]))
    return players


def test_two_who_wait_on_different_processes_are_seated_together_and_play(
    service: Service,
) -> None:
    players = queue_up(service, "classic2", [0, 1])
    play_all(players, lambda p: p.table is not None and p.moves >= 2, timeout=30)
    tables = {p.table["table"] for p in players if p.table is not None}
    assert len(tables) == 1
    assert sorted(p.client.seat for p in players) == [0, 1]  # type: ignore[type-var]
    table = players[0].table
    assert table is not None
    assert all(seat["kind"] == "human" for seat in table["seats"])
    assert {seat["name"] for seat in table["seats"]} == {"Player 0", "Player 1"}
    waits = [f for p in players for f in p.frames if f["type"] == "queued"]
    assert waits and all(f["presets"] == ["classic2"] for f in waits)
    assert not any(p.errors for p in players)


def test_four_who_wait_for_teams_on_three_processes_form_two_teams(service: Service) -> None:
    players = queue_up(service, "teams4", [0, 1, 2, 0])
    play_all(players, lambda p: p.table is not None and p.moves >= 4, timeout=40)
    assert len({p.table["table"] for p in players if p.table is not None}) == 1
    seats = sorted(p.client.seat for p in players)  # type: ignore[type-var]
    assert seats == [0, 1, 2, 3]
    rules = Rules.from_dict(players[0].table["rules"])  # type: ignore[index]
    assert rules.teams and [list(side) for side in rules.sides] == [[0, 2], [1, 3]]
    assert not any(p.errors for p in players)


def test_a_spectator_elsewhere_watches_a_running_table_and_nothing_hidden_reaches_it(
    service: Service,
) -> None:
    players = queue_up(service, "classic2", [0, 1])
    play_all(players, lambda p: p.table is not None and p.moves >= 1, timeout=30)
    code = players[0].table["table"]  # type: ignore[index]
    # Through the proxy (round robin): whichever process it lands on, the table is elsewhere
    # or here; a second spectator on the third process surely watches across processes.
    spectators = [
        PublicSide(service.client(service.proxy.url, "Vera")),
        PublicSide(service.client(service.urls[2], "Ugo")),
    ]
    frames: list[list[dict[str, Any]]] = [[], []]
    for side in spectators:
        side.watch(code)

    def pump_spectators() -> None:
        for side, got in zip(spectators, frames, strict=True):
            assert side.client is not None
            for message in side.client.drain():
                got.append(dict(message))
                side.take(message)

    def pump_until(done: Any) -> None:
        deadline = time.monotonic() + 10
        while not done():
            assert time.monotonic() < deadline, [side.stage for side in spectators]
            pump_spectators()
            time.sleep(0.02)

    pump_until(lambda: all(side.view is not None for side in spectators))
    assert all(side.stage == "watching" for side in spectators)
    # The players see their watchers.
    players[0].run_until(lambda p: p.table is not None and p.table.get("watchers") == 2, timeout=10)
    play_all(players, lambda p: p.phase in ("between", "over"), timeout=60)
    pump_until(
        lambda: all(
            any(f["type"] == "update" and f["phase"] != "playing" for f in got) for got in frames
        )
    )
    hands = _hands_by_moment(players)
    audited = 0
    for got in frames:
        updates = [f for f in got if f["type"] == "update"]
        assert updates and updates[-1]["phase"] in ("between", "over")
        for frame in got:
            assert not _secret_keys(frame), frame
            if frame["type"] != "update":
                continue
            assert frame["view"]["hand"] == [] and frame["view"]["seat"] == -1
            assert frame["view"]["legal"] == []
            hidden = hands.get((frame["deal"], frame["moves"]))
            if hidden is None:
                continue
            public = {frame["view"]["briscola"]}
            for known in frame["view"]["known"]:
                public |= set(known)
            leaked = (_cards_in(frame) & hidden) - public
            assert not leaked, (frame, leaked)
            audited += 1
    assert audited >= 4
    spectators[1].unwatch()
    pump_until(lambda: spectators[1].stage == "lobby")


def test_a_lobby_change_on_one_process_reaches_a_watcher_on_another_within_a_second(
    service: Service,
) -> None:
    watcher = PublicSide(service.client(service.urls[2], "Walter"))
    watcher.watch_lobby(["classic3"])
    _wait(watcher, lambda: watcher.stage == "lobby")
    host = PublicSide(service.client(service.urls[0], "Anna"))
    started = time.monotonic()
    host.create_public(Rules.preset("classic3"))
    _wait(watcher, lambda: len(watcher.lobby) == 1, timeout=1.0)
    reached = time.monotonic() - started
    entry = next(iter(watcher.lobby.values()))
    assert entry["preset"] == "classic3" and entry["free"] == 2 and entry["phase"] == "lobby"
    assert [seat["name"] for seat in entry["seats"]] == ["Anna", "", ""]
    assert reached < 1.0
    # A guest on the third process takes a free seat: the watcher sees it changed.
    guest = PublicSide(service.client(service.urls[1], "Bruno"))
    guest.join(entry["table"])
    _wait(watcher, lambda: watcher.lobby[entry["table"]]["free"] == 1, timeout=2.0)
    # A table of another configuration is not shown to this filter; the host leaving
    # removes the table.
    other = PublicSide(service.client(service.urls[1], "Carla"))
    other.create_public(Rules.preset("classic2"))
    assert host.client is not None
    host.client.leave()
    _wait(watcher, lambda: not watcher.lobby, timeout=2.0)
    kinds = [f["type"] for f in _seen[id(watcher)] if f["type"] != "status"]
    assert kinds[0] == "lobby" and set(kinds[1:]) == {"lobby_change"}
    assert all(not _secret_keys(f) for f in _seen[id(watcher)])


_seen: dict[int, list[dict[str, Any]]] = {}


def _wait(side: PublicSide, done: Any, timeout: float = 10.0) -> None:
    assert side.client is not None
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "not in time"
        message = side.client.wait_for(lambda m: True, timeout=deadline - time.monotonic())
        _seen.setdefault(id(side), []).append(dict(message))
        side.take(message)


def _hands_by_moment(players: list[HeadlessPlayer]) -> dict[tuple[int, int], set[str]]:
    """The cards in the players' hands at each (deal, moves), from their own updates."""
    hands: dict[tuple[int, int], set[str]] = {}
    for player in players:
        for frame in player.frames:
            if frame["type"] == "update":
                key = (frame["deal"], frame["moves"])
                hands.setdefault(key, set()).update(frame["view"]["hand"])
    return hands


def _cards_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set().union(*(_cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_cards_in(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) and data in CODES else set()


def _secret_keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        found = {k for k in data if k in SECRET_KEYS}
        for value in data.values():
            found |= _secret_keys(value)
        return found
    if isinstance(data, list):
        return set().union(*(_secret_keys(v) for v in data)) if data else set()
    return set()


def test_the_audit_helpers_find_what_they_look_for() -> None:
    frame = json.loads('{"a": [{"token": "x"}], "b": {"c": ["AD", "zz"]}}')
    assert _secret_keys(frame) == {"token"} and _cards_in(frame) == {"AD"}


def test_players_of_a_table_driven_elsewhere_queue_again_once_they_have_left(
    service: Service,
) -> None:
    """A player connected to one process whose table another process drives: its queue is
    its own process's (never the table's), refused while it sits there, taken once ``left``
    came back."""
    players = queue_up(service, "classic2", [0, 1])
    play_all(players, lambda p: p.phase == "over", timeout=60)
    first = players[0].table["table"]  # type: ignore[index]
    for player in players:
        player.client.submit(lobby.queue(["classic2"]))
    play_all(players, lambda p: any(e["code"] == "at_table" for e in p.errors), timeout=10)
    for player in players:
        player.errors.clear()
        player.client.leave()
    play_all(players, lambda p: p.last("left") is not None, timeout=10)
    for player in players:
        player.client.submit(lobby.queue(["classic2"]))
    play_all(
        players,
        lambda p: p.table is not None and p.table["table"] != first and p.moves >= 1,
        timeout=30,
    )
    assert len({p.table["table"] for p in players if p.table is not None}) == 1
    assert not any(p.errors for p in players)


def test_a_spectator_follows_its_table_when_the_process_driving_it_is_killed(
    service: Service,
) -> None:
    """kill -9 of the table's process: the players come back through the proxy, another
    process takes the table over, and the spectator (on a process that lives) is sent to
    reconnect, watches again, and sees the hand go on."""
    players = []
    for n in range(2):
        client = service.client(service.proxy.url, f"Player {n}")
        players.append(HeadlessPlayer(client, chooser(n)))
        client.submit(lobby.queue(["classic2"]))
    play_all(players, lambda p: p.table is not None and p.moves >= 2, timeout=30)
    code = players[0].table["table"]  # type: ignore[index]
    owner = next(i for i in range(3) if code[0] in code_start(i, 3))
    spectator = PublicSide(service.client(service.urls[(owner + 1) % 3], "Vera"))
    spectator.watch(code)

    def seen_moves() -> int:
        spectator.poll()
        view = spectator.view
        return -1 if view is None else len(view["tricks"]) * 2 + len(view["table"])

    deadline = time.monotonic() + 10
    while seen_moves() < 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    before = seen_moves()
    service.procs[owner].kill()  # (kill -9: no goodbye, the lease runs out)
    play_all(players, lambda p: p.client.reconnects > 0 and p.moves >= before + 4, timeout=60)
    deadline = time.monotonic() + 20
    while seen_moves() < before + 4:
        assert time.monotonic() < deadline, (spectator.stage, seen_moves(), before)
        time.sleep(0.05)
    assert spectator.stage == "watching" and spectator.client is not None
    assert spectator.client.reconnects >= 1
