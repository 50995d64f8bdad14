"""Helpers for the server tests: a raw WebSocket connection, the hello, waiting for a
reply; a headless player; a host with a raw guest seated at a started match."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

from websockets.sync.client import ClientConnection, connect

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, open_table
from briscola.client.session import RemoteSession
from briscola.engine import PlayerView, Rules
from briscola.protocol.wire import PROTOCOL
from briscola.server.embedded import EmbeddedHost


def raw(url: str, **options: Any) -> ClientConnection:
    # Opened and closed by hand (tests hold many at once): not as a context manager.
    options.setdefault("legacy", True)
    return connect(url, open_timeout=10, proxy=None, **options)


def hello(ws: ClientConnection, name: str = "Raw") -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "name": name}))
    return dict(json.loads(ws.recv(timeout=10)))


def replies(ws: ClientConnection, want: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if want(message):
            return dict(message)
    raise TimeoutError("no such reply")


def chooser(seed: int) -> Callable[[PlayerView], Any]:
    """A random player's choice of move, seeded."""
    return make_bot("random", random.Random(seed)).choose


def player(url: str, name: str, seed: int) -> HeadlessPlayer:
    """A headless player of the server at ``url`` that plays random legal moves."""
    return HeadlessPlayer(NetClient(url, name, backoff=0.05).start(), chooser(seed))


def seated_pair(
    url: str, guest: ClientConnection, rules: Rules | None = None
) -> tuple[HeadlessPlayer, str, str, str]:
    """A host (who plays) and the raw ``guest`` seated and ready at a two-player table of
    the server at ``url`` (classic by default), the match started: the host, the table
    code, the host's token and the guest's token."""
    host = player(url, "Anna", 0)
    code = open_table(host, rules if rules is not None else Rules.preset("classic2"))
    joined = host.last("joined")
    assert joined is not None
    hello(guest, "Bruno")
    guest.send(json.dumps({"type": "join", "code": code}))
    token = str(replies(guest, lambda m: m["type"] == "joined")["token"])
    guest.send(json.dumps({"type": "ready"}))
    host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
    host.client.start_game()
    host.run_until(lambda p: p.view is not None, 10)
    return host, code, str(joined["token"]), token


def session_at_the_deal(client: NetClient) -> RemoteSession:
    """``client``'s table session once its game has begun: made from what a waiting room
    takes from the queue, up to the first ``update`` (not started)."""
    backlog: list[dict[str, Any]] = []
    while not backlog or backlog[-1]["type"] != "update":
        backlog.append(client.incoming.get(timeout=10))
    return RemoteSession(client, backlog)


def crash(host: EmbeddedHost) -> None:
    """The host's game is killed: its server stops listening and every connection drops,
    with no goodbye and no table closed (what a kill -9 leaves)."""
    running = host.server
    assert running is not None
    server = running.server

    async def die() -> None:
        assert server._ws is not None
        server._ws.server.close()
        for conn in list(server.conns):
            if conn.ws is not None and conn.ws.transport is not None:
                conn.ws.transport.abort()

    asyncio.run_coroutine_threadsafe(die(), running.loop).result(10)
    running.loop.call_soon_threadsafe(running.loop.stop)
    host.server = None  # nothing is left to close at exit


@contextlib.contextmanager
def port_taken(port: int) -> Iterator[socket.socket]:
    """Another program listens on ``port`` (and never answers)."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    deadline = time.monotonic() + 10
    while True:
        try:
            holder.bind(("127.0.0.1", port))
            break
        except OSError:
            assert time.monotonic() < deadline, "the old port is never free"
            time.sleep(0.05)
    holder.listen()
    try:
        yield holder
    finally:
        holder.close()
