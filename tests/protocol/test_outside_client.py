"""A program outside the game plays through the protocol module and the documented frames
alone (issue 45's third change scenario): ``tools/outside_client.py`` imports nothing of the
game but :mod:`briscola.protocol`, and finishes a hand of every preset against a real
server (``tests/server/test_kill_run.py``: and hands across ``kill -9`` of server processes)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from briscola.engine import VARIANTS
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
