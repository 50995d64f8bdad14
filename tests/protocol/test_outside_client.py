"""A program outside the game plays through the protocol module and the documented frames
alone (issue 45's third change scenario): ``tools/outside_client.py`` imports nothing of the
game but :mod:`briscola.protocol`, and finishes a hand of every preset against a real
server (``tests/server/test_kill_run.py``: and hands across ``kill -9`` of server processes)."""

from __future__ import annotations

import ast
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from briscola.engine import VARIANTS
from briscola.protocol import messages as msg
from briscola.protocol import wire
from briscola.server import ServerConfig, ServerThread
from tools import outside_client

CLIENT = Path(outside_client.__file__)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    records = tmp_path_factory.mktemp("records")
    config = ServerConfig(port=0, records=records, rate=10_000.0, burst=10_000)
    started = ServerThread(config).start()
    yield started
    started.stop()


def test_the_outside_client_imports_only_the_protocol_of_the_game() -> None:
    tree = ast.parse(CLIENT.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            imported.add(node.module)
    ours = {name for name in imported if name.split(".")[0] == "briscola"}
    assert ours == {"briscola.protocol"}
    others = {name.split(".")[0] for name in imported - ours}
    assert others <= set(sys.stdlib_module_names) | {"websockets"}


@pytest.mark.parametrize("preset", [variant.name for variant in VARIANTS])
def test_the_outside_client_finishes_a_hand_of_every_preset(
    server: ServerThread, preset: str
) -> None:
    played = outside_client.play_hands(server.url, preset).tally
    assert played.gave_up is None and played.closed is None
    assert list(played.records) == [1] and played.deals == {1}
    record = played.records[1]
    assert record["rules"]["preset"] == preset
    assert played.moves > 0 and played.errors == {}
    assert sum(record["result"]["points"]) == 120


class Scripted:
    """A server that follows a script: the table's process dies as the client's move
    arrives (the connection drops unanswered); the client reconnects and resumes, and is
    sent the position again (``reset``) with ``legal`` as given."""

    def __init__(self, legal_after: list[dict[str, str]]) -> None:
        self.legal_after = legal_after
        self.connections = 0
        self.paths: list[str] = []
        self.acts: list[dict[str, Any]] = []
        self.after_reset: list[str] = []

    def update(self, moves: int, legal: list[dict[str, str]], **extra: Any) -> str:
        view = {"seat": 0, "current_player": 0 if legal else 1, "legal": legal}
        frame = {"type": "update", "deal": 1, "hand": 1, "moves": moves, "reset": False,
                 "phase": "playing", "standing": [0, 0], "events": [], "view": view}  # fmt: skip
        return wire.encode(frame | extra)

    async def handler(self, ws: ServerConnection) -> None:
        self.connections += 1
        assert ws.request is not None
        self.paths.append(ws.request.path)
        hello = wire.decode(await ws.recv())
        assert hello["type"] == "hello"
        await ws.send(msg.encode(msg.welcome(16384, 10.0, 30, 60.0)))
        first = wire.decode(await ws.recv())
        joined = msg.encode(msg.joined("K7MX2Q", 0, "t" * 32, True))
        if self.connections == 1:
            assert first["type"] == "create"
            await ws.send(joined)
            await ws.send(self.update(4, [{"play": "3S"}, {"play": "AD"}]))
            self.acts.append(wire.decode(await ws.recv()))
            return  # the process dies with the move: nothing answers it
        assert first == {"type": "resume", "code": "K7MX2Q", "token": "t" * 32}
        await ws.send(joined)
        await ws.send(self.update(4, self.legal_after, reset=True))
        self.acts.append(wire.decode(await ws.recv()))
        record = {"result": {"points": [61, 59]}}
        await ws.send(self.update(5, [], phase="between", record=record))
        self.after_reset.append(wire.decode(await ws.recv())["type"])


@pytest.mark.parametrize("still_legal", [True, False])
def test_after_a_reset_the_outside_client_sends_its_lost_move_again_or_chooses_again(
    still_legal: bool,
) -> None:
    async def scenario() -> tuple[Scripted, outside_client.OutsideClient]:
        legal = [{"play": "3S"}, {"play": "AD"}] if still_legal else [{"play": "KB"}]
        scripted = Scripted(legal)
        async with serve(scripted.handler, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = outside_client.OutsideClient([f"ws://127.0.0.1:{port}"], "Outsider")
            await client.create({"preset": "classic2"})
            await asyncio.wait_for(client.play(), 20)
        return scripted, client

    scripted, client = asyncio.run(scenario())
    assert scripted.connections == 2 and client.tally.reconnections == 1
    assert scripted.paths[1] == "/?table=K7MX2Q"  # a proxy routes the resume to the table
    lost, again = scripted.acts
    assert lost["moves"] == again["moves"] == 4
    if still_legal:
        assert again["action"] == lost["action"]
        assert client.tally.sent_again == 1
    else:
        assert again["action"] == {"play": "KB"}
        assert client.tally.sent_again == 0
    assert scripted.after_reset == ["leave"] and client.done
    assert client.tally.records[1]["result"]["points"] == [61, 59]
