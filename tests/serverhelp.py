"""Raw WebSocket helpers for the server tests: a connection, the hello, waiting for a reply."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import ClientConnection, connect

from briscola.protocol.wire import PROTOCOL


def raw(url: str, **options: Any) -> ClientConnection:
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
