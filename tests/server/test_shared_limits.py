"""The per-address limits hold for a service of several processes (issue 46, finding 2):
counted in Redis (briscola.server.quota), not by each process alone. Two processes on one
Redis; one address (127.0.0.2) sends its messages to both in turn; a neighbour on
127.0.0.3 is not touched. Through the proxy, its stick-table is the service's count of one
address's connections."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from redishelp import HAProxy, RedisServer
from serverhelp import hello, raw, replies
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection

from briscola.server import ServerThread
from tools.haproxy import PER_ADDRESS


@pytest.fixture
def pair(make_server: Callable[..., ServerThread], redis_server: RedisServer) -> list[ServerThread]:
    return [make_server(redis=redis_server.url, lease_ms=600) for _ in range(2)]


def connect(server: ServerThread, source: str, opened: list[ClientConnection]) -> ClientConnection:
    ws = raw(server.url, source_address=(source, 0))
    opened.append(ws)
    hello(ws)
    return ws


def answer(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps(message))
    return replies(ws, lambda m: m["type"] in ("joined", "error"))


def test_one_address_holds_its_share_of_waiting_rooms_across_processes(
    pair: list[ServerThread], opened: list[ClientConnection]
) -> None:
    create = {"type": "create", "rules": {"preset": "classic2"}}
    answers = [answer(connect(pair[n % 2], "127.0.0.2", opened), create)["type"] for n in range(10)]
    # 8 waiting rooms for the address (4 on each process), then every process refuses.
    assert answers == ["joined"] * 8 + ["error"] * 2
    refused = answer(connect(pair[0], "127.0.0.2", opened), create)
    assert refused["code"] == "too_many_tables" and "8 waiting rooms" in refused["message"]
    assert answer(connect(pair[1], "127.0.0.3", opened), create)["type"] == "joined"


def test_wrong_codes_on_two_processes_lock_the_address_on_both_and_a_valid_token_still_returns(
    pair: list[ServerThread], opened: list[ClientConnection]
) -> None:
    host = connect(pair[0], "127.0.0.3", opened)
    table = answer(host, {"type": "create", "rules": {"preset": "classic2"}})
    seated = connect(pair[0], "127.0.0.2", opened)  # the address's own player, seated
    guest = answer(seated, {"type": "join", "code": table["table"]})
    assert guest["type"] == "joined"
    seated.close()
    codes = []
    for n in range(12):
        ws = connect(pair[n % 2], "127.0.0.2", opened)
        codes.append(answer(ws, {"type": "join", "code": "ZZZZZZ"})["code"])
    # Ten wrong codes in all (five on each process), then both lock the address.
    assert codes == ["no_table"] * 10 + ["too_many_failed_joins"] * 2
    for server in pair:
        ws = connect(server, "127.0.0.2", opened)
        # A valid code is refused too (the lock tells nothing about codes) ...
        locked = answer(ws, {"type": "join", "code": table["table"]})
        assert locked["code"] == "too_many_failed_joins"
        bad = answer(ws, {"type": "resume", "code": table["table"], "token": "x" * 32})
        assert bad["code"] == "too_many_failed_joins"
    # ... and a valid seat token is never refused: people share addresses.
    back = connect(pair[1], "127.0.0.2", opened)
    resumed = answer(back, {"type": "resume", "code": table["table"], "token": guest["token"]})
    assert resumed["type"] == "joined" and resumed["seat"] == guest["seat"]
    # Another address is not touched.
    other = connect(pair[1], "127.0.0.4", opened)
    assert answer(other, {"type": "join", "code": "ZZZZZZ"})["code"] == "no_table"


def test_through_the_proxy_one_address_holds_its_share_of_connections_to_the_service(
    pair: list[ServerThread], tmp_path: Path
) -> None:
    proxy = HAProxy(tmp_path, [s.server.port for s in pair]).start()
    held: list[ClientConnection] = []
    refused = 0
    try:
        for _ in range(PER_ADDRESS + 8):
            try:
                held.append(raw(proxy.url, source_address=("127.0.0.2", 0)))
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, EOFError):
                refused += 1
        assert len(held) == PER_ADDRESS and refused == 8
        with raw(proxy.url, source_address=("127.0.0.3", 0)) as neighbour:
            assert hello(neighbour)["type"] == "welcome"
    finally:
        for ws in held:
            ws.close()
        proxy.stop()
