"""A client as another program would write it: the documented frames of
``docs/network-protocol.md``, built and read through :mod:`briscola.protocol` alone (no
engine, no client package, no server), over a plain ``websockets`` connection.

It opens a table of a preset with computer players in every other seat, starts it, and
plays the first legal action of each view sent to it until its first hand is over (the
``update`` that carries the hand's ``record``). ``tests/protocol/test_outside_client.py``
checks that it imports nothing else of the game and that it finishes a hand of every preset.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import connect

from briscola.protocol import messages as msg


@dataclass
class Played:
    """What the outside client saw of its hand."""

    seat: int = -1
    moves: int = 0
    record: dict[str, Any] | None = None
    types: list[str] = field(default_factory=list)


def play_one_hand(url: str, preset: str, limit: float = 60.0) -> Played:
    """Host a table of ``preset`` at ``url``, the other seats computers, and play its first
    hand to the end; raises ``TimeoutError`` past ``limit`` seconds."""
    seen = Played()
    deadline = time.monotonic() + limit
    with connect(url, open_timeout=10, proxy=None) as ws:

        def receive() -> msg.ServerMessage | None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{preset}: the hand did not end in {limit} s")
            message = msg.decode_server(ws.recv(timeout=left))
            if message is not None:
                seen.types.append(message["type"])
                if message["type"] == "error":
                    raise RuntimeError(f"{preset}: the server refused: {message}")
            return message

        ws.send(msg.encode(msg.hello("Outsider")))
        while (message := receive()) is None or message["type"] != "welcome":
            pass
        ws.send(msg.encode(msg.create({"preset": preset}, None, 0)))
        while (message := receive()) is None or message["type"] != "joined":
            pass
        seen.seat = message["seat"]
        ws.send(msg.encode(msg.start(fill_bots=True)))  # the free seats: computers
        while True:
            message = receive()
            if message is None or message["type"] != "update":
                continue
            if "record" in message:
                seen.record = message["record"]
                return seen
            view = message["view"]
            if view["current_player"] == seen.seat and view["legal"]:
                ws.send(msg.encode(msg.act(view["legal"][0], message["moves"])))
                seen.moves += 1
