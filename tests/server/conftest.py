"""The fixtures the server tests share: ``make_server(**options)`` starts a server on a free
loopback port (records in a folder of its own in the test's folder, rate limits out of the
way) and stops it after the test; ``redis_server``, a ``redis-server`` of the test's own on
a free loopback port; ``opened``, a list for raw connections, closed after the test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redishelp import RedisServer
from websockets.sync.client import ClientConnection

from briscola.server import ServerConfig, ServerThread


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., ServerThread]]:
    started: list[ServerThread] = []

    def make(**options: Any) -> ServerThread:
        config = {
            "port": 0,
            "records": tmp_path / f"records-{len(started)}",
            "rate": 10_000.0,
            "burst": 10_000,
            "ping_interval": None,
        }
        config.update(options)
        server = ServerThread(ServerConfig(**config)).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


@pytest.fixture
def opened() -> Iterator[list[ClientConnection]]:
    sockets: list[ClientConnection] = []
    yield sockets
    for ws in sockets:
        ws.close()
