"""What the hostile tests found, each fixed: no one address (or one connection) can spoil
the service for the others, and a bad message costs nothing but an error reply."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from serverhelp import hello, raw, replies
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from briscola.server import ServerThread
from briscola.server.fair import FairPool


def is_error(message: dict[str, Any]) -> bool:
    return message["type"] == "error"


def create(ws: ClientConnection, **extra: Any) -> dict[str, Any]:
    ws.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}, **extra}))
    return replies(ws, lambda m: m["type"] in ("joined", "error"))


# ---------------------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize(
    "frame",
    [
        r'{"type": "\ud800"}',
        r'{"type": "create", "rules": {"\udfff": "classic2"}}',
        r'{"type": "create", "rules": {"preset": "classic2\udc00"}}',
        r'{"type": "join", "code": "AB\ud800CD"}',
    ],
)
def test_a_lone_surrogate_is_answered_bad_message_and_the_connection_stays(
    make_server: Callable[..., ServerThread], frame: str
) -> None:
    server = make_server()
    with raw(server.url) as ws:
        hello(ws)
        ws.send(frame)
        answer = json.loads(ws.recv(timeout=10))
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        assert "surrogate" in answer["message"]
        # The connection is still good: a table can be created on it.
        assert create(ws)["type"] == "joined"
    assert server.server.stats.errors["internal"] == 0


# ---------------------------------------------------------------------------- replaced


@pytest.mark.parametrize("where", ["memory", "redis", "redis-across"])
def test_a_second_connection_resuming_a_seat_tells_the_first_replaced_before_closing_it(
    make_server: Callable[..., ServerThread], request: pytest.FixtureRequest, where: str
) -> None:
    """In memory, on Redis, and on Redis with the first connection held by another process
    than the table's (its frames cross Redis): ``closed`` (``replaced``), then code 4002."""
    if where == "memory":
        server = other = make_server()
    else:
        url = request.getfixturevalue("redis_server").url
        server = make_server(redis=url)
        other = make_server(redis=url) if where == "redis-across" else server
    for _ in range(3):
        with raw(server.url) as first, raw(other.url) as second:
            hello(first, "Anna")
            joined = create(first)
            hello(second, "Anna")
            second.send(
                json.dumps({"type": "resume", "code": joined["table"], "token": joined["token"]})
            )
            assert replies(second, lambda m: m["type"] == "joined")["seat"] == joined["seat"]
            seen: list[dict[str, Any]] = []
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    seen.append(json.loads(first.recv(timeout=10)))
            told = [m for m in seen if m["type"] == "closed"]
            assert told and told[-1] is seen[-1], seen
            assert told[-1]["reason"] == "replaced" and told[-1]["message"]
            assert info.value.rcvd is not None
            assert info.value.rcvd.code == 4002 and "replaced" in info.value.rcvd.reason
            second.send(json.dumps({"type": "leave"}))


# ---------------------------------------------------------------------------- caps


def test_one_connection_may_open_only_so_many_tables_a_minute(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(creates_per_minute=3)
    with raw(server.url) as ws:
        hello(ws)
        for _ in range(3):
            assert create(ws)["type"] == "joined"
            ws.send(json.dumps({"type": "leave"}))  # the host leaving closes its room
            replies(ws, lambda m: m["type"] == "left")
        refused = create(ws)
        assert refused["code"] == "too_many_tables" and "in a minute" in refused["message"]
        assert server.call(lambda: len(server.server.tables)) == 0
    with raw(server.url) as other:  # another connection is not held back
        hello(other)
        assert create(other)["type"] == "joined"


def test_an_abandoned_waiting_room_goes_after_the_short_room_grace(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(room_grace=0.5, grace=60.0)
    for _ in range(2):
        with raw(server.url) as ws:
            hello(ws)
            assert create(ws)["type"] == "joined"
    assert server.call(lambda: len(server.server.tables)) == 2
    deadline = time.monotonic() + 10
    while server.call(lambda: len(server.server.tables)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.call(lambda: len(server.server.tables)) == 0


def test_one_address_cannot_fill_the_server_with_waiting_rooms(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(max_rooms_per_address=3, max_tables=100)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(raw(server.url)) for _ in range(4)]
        for ws in sockets:
            hello(ws)
        for ws in sockets[:3]:
            assert create(ws)["type"] == "joined"
        refused = create(sockets[3])
        assert refused["type"] == "error" and refused["code"] == "too_many_tables"
        assert "waiting rooms" in refused["message"]
        # Another address is untouched: the cap is per address, the server is not full.
        assert server.call(lambda: len(server.server.tables)) == 3
        owners = server.call(lambda: {t.owner for t in server.server.tables.values()})
        assert owners == {"127.0.0.1"}


def test_one_address_may_hold_only_so_many_open_tables(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(max_tables_per_address=2, max_rooms_per_address=10)
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(raw(server.url)) for _ in range(3)]
        for ws in sockets:
            hello(ws)
        for ws in sockets[:2]:
            assert create(ws, seats=[{"kind": "human"}, {"kind": "bot"}])["type"] == "joined"
            ws.send(json.dumps({"type": "start"}))
            replies(ws, lambda m: m["type"] == "update")
        refused = create(sockets[2])
        assert refused["code"] == "too_many_tables" and "2 tables" in refused["message"]


# ---------------------------------------------------------------------------- failed joins


def test_a_valid_seat_token_is_never_refused_by_the_failed_join_lock(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(failed_joins=3, failed_join_window=600.0)
    with raw(server.url) as host, raw(server.url) as stranger:
        hello(host, "Anna")
        joined = create(host)
        hello(stranger, "Eve")
        for wrong in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD"):
            stranger.send(json.dumps({"type": "join", "code": wrong}))
            replies(stranger, is_error)
        stranger.send(json.dumps({"type": "resume", "code": joined["table"], "token": "x" * 32}))
        assert replies(stranger, is_error)["code"] == "too_many_failed_joins"
        stranger.send(json.dumps({"type": "resume", "code": "ZZZZZZ", "token": joined["token"]}))
        assert replies(stranger, is_error)["code"] == "too_many_failed_joins"
        # The same address, locked out, comes back with a valid token: it gets its seat.
        host.close()
        with raw(server.url) as back:
            hello(back, "Anna")
            back.send(
                json.dumps({"type": "resume", "code": joined["table"], "token": joined["token"]})
            )
            assert replies(back, lambda m: m["type"] in ("joined", "error"))["type"] == "joined"


# ---------------------------------------------------------------------------- seats


@pytest.mark.parametrize("seat", [2, 5, 6, 99, -1])
def test_joining_a_seat_beyond_the_table_is_seat_taken(
    make_server: Callable[..., ServerThread], seat: int
) -> None:
    server = make_server()
    with raw(server.url) as host, raw(server.url) as guest:
        hello(host)
        code = create(host)["table"]
        hello(guest)
        guest.send(json.dumps({"type": "join", "code": code, "seat": seat}))
        answer = replies(guest, is_error)
        assert answer["code"] == "seat_taken" and f"no seat {seat}" in answer["message"]
        guest.send(json.dumps({"type": "join", "code": code, "seat": "1"}))
        assert replies(guest, is_error)["code"] == "bad_seats"


# ---------------------------------------------------------------------------- fair bots


def test_computer_moves_take_turns_between_addresses_so_one_cannot_starve_another() -> None:
    finished: list[str] = []

    def work(name: str) -> str:
        time.sleep(0.02)
        return name

    async def scenario() -> None:
        pool = FairPool(concurrent.futures.ThreadPoolExecutor(max_workers=1), slots=1)
        try:
            futures = [pool.run("crowd", work, f"crowd {i}") for i in range(12)]
            neighbour = pool.run("neighbour", work, "neighbour")
            futures.insert(3, neighbour)
            for done in asyncio.as_completed(futures):
                finished.append(await done)
        finally:
            pool.shutdown()

    asyncio.run(scenario())
    # One crowd move was running; the neighbour's comes next, not after the other eleven.
    assert finished.index("neighbour") == 1
    assert sorted(finished) == sorted(["neighbour", *(f"crowd {i}" for i in range(12))])


def test_behind_one_address_a_table_that_used_the_pool_least_goes_before_busy_tables() -> None:
    """Issue 46, finding 5: thirty tables of computers playing flat out from one address (a
    family, an office behind one NAT) and a neighbour's table behind the same address,
    whose computer thinks only after its person has moved: the neighbour's move waits for
    the one running, not for the thirty queued before it. (Ordering, not timing.)"""
    started: list[str] = []
    gate = threading.Event()

    def work(name: str, hold: bool = False) -> str:
        started.append(name)
        if hold:
            gate.wait(10)
        else:
            time.sleep(0.002)
        return name

    async def scenario() -> None:
        pool = FairPool(concurrent.futures.ThreadPoolExecutor(max_workers=1), slots=1)
        try:
            busy = [f"busy {i}" for i in range(30)]
            for _ in range(3):  # they have been playing for a while
                await asyncio.gather(*(pool.run("nat", work, t, table=t) for t in busy))
            await asyncio.gather(pool.run("nat", work, "neighbour", table="neighbour"))
            assert pool.used("neighbour") < min(pool.used(t) for t in busy)
            started.clear()
            running = pool.run("nat", work, "busy 0", True, table="busy 0")
            queued = [pool.run("nat", work, t, table=t) for t in busy]
            neighbour = pool.run("nat", work, "neighbour", table="neighbour")
            gate.set()
            await asyncio.gather(running, neighbour, *queued)
        finally:
            pool.shutdown()

    asyncio.run(scenario())
    assert started[:2] == ["busy 0", "neighbour"], started[:5]
    assert sorted(started[2:]) == sorted(f"busy {i}" for i in range(30))


def test_the_fair_pool_passes_errors_on_and_refuses_work_once_shut_down() -> None:
    def fail() -> None:
        raise ValueError("the bot failed")

    async def scenario() -> None:
        pool = FairPool(concurrent.futures.ThreadPoolExecutor(max_workers=2), slots=2)
        with pytest.raises(ValueError, match="the bot failed"):
            await pool.run("a", fail)
        assert await pool.run("a", lambda x: x + 1, 1) == 2
        assert pool.running == 0 and pool.waiting == 0
        pool.shutdown()
        with pytest.raises(RuntimeError):
            pool.run("a", fail)

    asyncio.run(scenario())
