"""A program outside the game plays through the protocol module and the documented frames
alone (issue 45's third change scenario): ``outside_client.py`` imports nothing of the game
but :mod:`briscola.protocol`, and finishes a hand of every preset against a real server."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import outside_client
import pytest

from briscola.engine import VARIANTS
from briscola.server import ServerConfig, ServerThread

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    records = tmp_path_factory.mktemp("records")
    config = ServerConfig(port=0, records=records, rate=10_000.0, burst=10_000)
    started = ServerThread(config).start()
    yield started
    started.stop()


def test_the_outside_client_imports_only_the_protocol_of_the_game() -> None:
    tree = ast.parse((HERE / "outside_client.py").read_text(encoding="utf-8"))
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
    played = outside_client.play_one_hand(server.url, preset)
    assert played.record is not None
    assert played.record["rules"]["preset"] == preset
    assert played.moves > 0
    assert sum(played.record["result"]["points"]) == 120
