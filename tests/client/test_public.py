"""The public side without a window (issue 47): a lobby kept up to date, two people who
queue seated together and handed their table's session, a spectator's table and view."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from briscola.client.connection import NetClient
from briscola.client.online import OnlineSession
from briscola.client.public import PublicSide
from briscola.engine import Rules
from briscola.server import ServerConfig, ServerThread
from briscola.storage.seats import SeatStore


@pytest.fixture
def server() -> Iterator[ServerThread]:
    config = ServerConfig(port=0, rate=10_000.0, burst=10_000, ping_interval=None)
    running = ServerThread(config).start()
    yield running
    running.stop()


def side(url: str, name: str) -> PublicSide:
    return PublicSide(NetClient(url, name, backoff=0.05).start())


def settle(sides: list[PublicSide], done: Callable[[], bool], seconds: float = 15.0) -> None:
    """Poll as a window would, once a frame, until ``done``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, [s.stage for s in sides]
        for each in sides:
            each.poll()
        time.sleep(0.01)


def test_the_lobby_is_listed_and_kept_up_to_date(server: ServerThread) -> None:
    walter, anna = side(server.url, "Walter"), side(server.url, "Anna")
    walter.watch_lobby()
    settle([walter], lambda: walter.stage == "lobby")
    anna.create_public(Rules.preset("classic3"), seat=1)
    settle([walter, anna], lambda: bool(walter.tables()))
    (entry,) = walter.tables(open_only=True)
    assert entry["preset"] == "classic3" and entry["seats"][1]["name"] == "Anna"
    assert walter.tables("classic2") == []
    time.sleep(0.2)
    assert walter.tables()[0]["waited"] >= entry["waited"] + 0.15  # counted on locally
    bruno = side(server.url, "Bruno")
    bruno.join(entry["table"])
    settle([walter, bruno], lambda: walter.lobby[entry["table"]]["free"] == 1)
    for each in (walter, anna, bruno):
        assert each.client is not None
        each.client.close(timeout=2)


def test_two_who_queue_are_handed_their_table_s_session_and_a_third_watches(
    server: ServerThread, tmp_path: Path
) -> None:
    anna, bruno, vera = (side(server.url, n) for n in ("Anna", "Bruno", "Vera"))
    anna.queue(["classic2", "teams4"])
    settle([anna], lambda: anna.stage == "queued")
    assert anna.wait is not None and anna.wait["presets"] == ["classic2", "teams4"]
    bruno.queue(["classic2"])
    settle([anna, bruno], lambda: anna.playing and bruno.playing)
    assert anna.seated == bruno.seated is not None
    sessions = [anna.session(SeatStore(tmp_path / "a")), bruno.session(SeatStore(tmp_path / "b"))]
    assert all(isinstance(s, OnlineSession) for s in sessions)
    assert {s.view().seat for s in sessions} == {0, 1}
    assert all(len(s.view().hand) == 3 for s in sessions)
    vera.watch(anna.seated)
    settle([vera], lambda: vera.view is not None and vera.table is not None)
    assert vera.stage == "watching" and vera.view is not None
    assert vera.view["seat"] == -1 and vera.view["hand"] == []
    assert vera.table is not None and vera.table["watchers"] == 1
    vera.unwatch()
    settle([vera], lambda: vera.stage == "lobby")
    for session in sessions:
        session.close()
    assert vera.client is not None
    vera.client.close(timeout=2)


def test_a_dropped_connection_queues_and_watches_the_lobby_again(server: ServerThread) -> None:
    anna, bruno = side(server.url, "Anna"), side(server.url, "Bruno")
    anna.watch_lobby(["classic2"])
    anna.queue(["classic2"])
    settle([anna], lambda: anna.stage == "queued")
    assert anna.client is not None
    anna.client.kill()
    settle([anna], lambda: anna.client is not None and anna.client.reconnects > 0)
    assert server.call(lambda: len(server.server.public.queue.tickets)) <= 1
    settle([anna], lambda: server.call(lambda: len(server.server.public.queue.tickets)) == 1)
    bruno.queue(["classic2"])  # (without Anna's queue again, Bruno would wait alone)
    settle([anna, bruno], lambda: anna.playing and bruno.playing)
    assert anna.seated == bruno.seated
    for each in (anna, bruno):
        assert each.client is not None
        each.client.close(timeout=2)
