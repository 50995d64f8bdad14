"""Several processes behind HAProxy (docs/server.md): each process's new table codes start
with its own letters (``--code-start``), and a client that names its table in the address
(``?table=CODE``, as the game's client does) is sent to the process holding it, so no move
of that table crosses processes. A client that names nothing still plays, forwarded."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from redishelp import HAProxy, RedisServer
from serverhelp import chooser, hello, player, raw

from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import Rules
from briscola.protocol.wire import CODE_ALPHABET, table_url
from briscola.server import ServerThread
from briscola.server.admission import new_code
from briscola.server.config import ServerConfig, code_starts
from tools.load import code_start


def seated_here(server: ServerThread, code: str) -> tuple[int, int, int]:
    """Players of table ``code`` on ``server``: seated at it here, connected here but
    forwarded to another process that holds it, and forwarded here from another process."""

    def count() -> tuple[int, int, int]:
        inner = server.server
        shared = inner.shared
        assert shared is not None
        own = sum(1 for conn in inner.conns if conn.table is not None and conn.table.code == code)
        away = sum(1 for conn in shared.forwarded.values() if conn.remote_code == code)
        guests = sum(1 for g in shared.guests.values() if g.table and g.table.code == code)
        return own, away, guests

    return server.call(count)


def eventually(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


@pytest.fixture
def pair(
    make_server: Callable[..., ServerThread], redis_server: RedisServer, tmp_path: Path
) -> tuple[list[ServerThread], HAProxy]:
    servers = [
        make_server(redis=redis_server.url, lease_ms=600, code_start=code_start(i, 2))
        for i in range(2)
    ]
    return servers, HAProxy(tmp_path, [s.server.port for s in servers])


def test_through_the_proxy_a_player_naming_the_table_reaches_the_process_that_holds_it(
    pair: tuple[list[ServerThread], HAProxy],
) -> None:
    servers, proxy = pair
    proxy.start()
    players: list[HeadlessPlayer] = []
    try:
        owners: list[int] = []
        n = 0
        while len(set(owners)) < 2:  # hosts naming no table open them on both processes
            assert n < 12, owners
            n += 1
            host = player(proxy.url, f"Host {n}", n)
            players.append(host)
            code = open_table(host, Rules.preset("classic2"))
            owner = next(i for i in range(2) if code[0] in code_start(i, 2))
            owners.append(owner)
            guest = HeadlessPlayer(
                NetClient(proxy.url, f"Guest {n}", backoff=0.05, table=code).start(),
                chooser(10 + n),
            )
            players.append(guest)
            guest.client.join(code)
            guest.client.ready()
            all_ready(host)
            assert seated_here(servers[owner], code) == (2, 0, 0)  # both here, none forwarded
            assert seated_here(servers[1 - owner], code) == (0, 0, 0)
            # A dropped connection comes back with ?table=CODE too: to the same process.
            guest.client.kill()
            guest.run_until(lambda p: p.client.reconnects > 0 and p.client.status == "connected")
            holder = servers[owner]
            eventually(lambda: seated_here(holder, code) == (2, 0, 0))  # noqa: B023
            assert seated_here(servers[1 - owner], code) == (0, 0, 0)
    finally:
        for each in players:
            each.client.close(timeout=2)
        proxy.stop()


def test_through_the_proxy_a_player_naming_no_table_is_forwarded_and_still_plays(
    pair: tuple[list[ServerThread], HAProxy],
) -> None:
    servers, proxy = pair
    proxy.start()
    host = player(proxy.url, "Anna", 1)
    guests: list[HeadlessPlayer] = []
    try:
        code = open_table(host, Rules.preset("classic2"))
        owner = next(i for i in range(2) if code[0] in code_start(i, 2))
        # Connections naming nothing go round robin: one of two lands on the other process.
        while not any(seated_here(servers[1 - owner], code)):
            assert len(guests) < 12
            if guests:
                guests[-1].client.leave()
                guests[-1].client.close(timeout=2)
            guest = player(proxy.url, "Bruno", 2)
            guests.append(guest)
            guest.client.join(code)
            guest.run_until(lambda p: p.table is not None)
            guest.client.ready()
        all_ready(host)
        assert seated_here(servers[1 - owner], code) == (0, 1, 0)
        assert seated_here(servers[owner], code) == (1, 0, 1)  # Bruno's moves come through Redis
        host.client.start_game()
        play_all([host, guests[-1]], lambda p: p.moves >= 6, timeout=30)
        assert not host.errors and not guests[-1].errors
    finally:
        for each in [host, *guests]:
            each.client.close(timeout=2)
        proxy.stop()


def test_new_codes_start_with_the_process_letters_and_a_bad_letter_is_named() -> None:
    assert {new_code({}, "NP")[0] for _ in range(200)} == {"N", "P"}
    assert {new_code({})[0] for _ in range(2000)} > set(CODE_ALPHABET[:20])
    assert ServerConfig(code_start=" abca ").code_start == "ABC"
    with pytest.raises(ValueError, match=r"not '01'"):
        code_starts("A0B1")
    runs = [code_start(i, 5) for i in range(5)]
    assert "".join(runs) == CODE_ALPHABET and min(map(len, runs)) >= 6


def test_the_address_names_the_table_whatever_it_held() -> None:
    assert table_url("ws://127.0.0.1:8765", None) == "ws://127.0.0.1:8765"
    assert table_url("ws://h:1/x?table=ZZZZZZ", "K7MX2Q") == "ws://h:1/x?table=K7MX2Q"
    client = NetClient("ws://127.0.0.1:9", "Ann", reconnect=False, table="k7mx-2q")
    assert client.route == "K7MX2Q"


def test_a_table_whose_process_is_down_has_every_connection_naming_it_reach_one_other(
    make_server: Callable[..., ServerThread], redis_server: RedisServer, tmp_path: Path
) -> None:
    servers = [
        make_server(redis=redis_server.url, lease_ms=600, code_start=code_start(i, 3))
        for i in range(3)
    ]
    proxy = HAProxy(tmp_path, [s.server.port for s in servers]).start()
    survivors = servers[1:]
    servers[0].stop()
    opened = []
    try:
        reached: list[int] = []
        # Until HAProxy's checks see the process down, a connection meant for it is retried
        # elsewhere; from then on, one and the same survivor (the code's consistent hash).
        deadline = time.monotonic() + 20
        while len(reached) < 6 or len(set(reached[-6:])) > 1:
            assert time.monotonic() < deadline, reached
            before = [s.call(lambda s=s: len(s.server.conns)) for s in survivors]
            ws = raw(table_url(proxy.url, "AAAAAA"), legacy=True)  # the stopped one's letter
            opened.append(ws)
            assert hello(ws)["type"] == "welcome"
            after = [s.call(lambda s=s: len(s.server.conns)) for s in survivors]
            reached.append(next(i for i in range(2) if after[i] > before[i]))
    finally:
        for ws in opened:
            ws.close()
        proxy.stop()
