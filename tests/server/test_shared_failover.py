"""Three server processes behind one address (HAProxy, as docs/server.md shows) share their
tables through Redis; the load tool's bot clients play 200 two-player tables while one
process is killed (``kill -9``) or drained (``SIGTERM``). Every game finishes once, and each
final record replays to exactly the cards its players saw: no move lost, none twice. The
proxy sends a client naming its table to the process whose codes start with its letter
while that process is up, and elsewhere once it is not."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redishelp import HAProxy, RedisServer, free_port

from briscola.engine import replay
from tools.load import code_start

TABLES = 200


class Cluster:
    def __init__(self, folder: Path) -> None:
        self.redis = RedisServer(folder / "redis").start()
        self.ports = [free_port() for _ in range(3)]
        self.procs: list[subprocess.Popen[str]] = []
        for index, port in enumerate(self.ports):
            proc = subprocess.Popen(
                [
                    sys.executable, "-m", "briscola.server", "--port", str(port),
                    "--redis", self.redis.url, "--lease", "2", "--max-tables", "1000",
                    "--max-connections", "2000", "--max-per-address", "2000",
                    "--max-tables-per-address", "1000", "--max-rooms-per-address", "1000",
                    "--rate", "1000", "--burst", "1000", "--log-level", "WARNING",
                    "--trusted-proxy", "127.0.0.1", "--code-start", code_start(index, 3),
                ],
                stdout=subprocess.PIPE,
                stderr=open(folder / f"server-{port}.log", "w"),  # noqa: SIM115
                text=True,
            )  # fmt: skip
            assert proc.stdout is not None
            assert proc.stdout.readline().startswith("listening on ")
            self.procs.append(proc)
        self.proxy = HAProxy(folder, self.ports).start()

    def stop(self) -> None:
        self.proxy.stop()
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.redis.stop()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(tmp_path)
    yield running
    running.stop()


def stored_hands(url: str) -> dict[str, list[dict[str, object]]]:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        codes = [key.split(":")[2] for key in client.scan_iter("briscola:t:*:meta")]
        return {
            code: [json.loads(doc) for doc in client.lrange(f"briscola:t:{code}:hands", 0, -1)]
            for code in codes
        }
    finally:
        client.close()


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_one_process_of_three_stops_mid_game_and_every_game_finishes_once_with_no_move_lost(
    cluster: Cluster, how: signal.Signals
) -> None:
    load = subprocess.Popen(
        [
            sys.executable, "-m", "tools.load", "--url", cluster.proxy.url,
            "--tables", str(TABLES), "--hands", "1", "--think", "0.15", "--duration", "100",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        assert load.stdout is not None
        seated = load.stdout.readline()  # "seated: N tables", once every table has started
        assert seated.startswith(f"seated: {TABLES} tables"), seated
        time.sleep(3)  # about a third of each hand played
        assert load.poll() is None
        cluster.procs[1].send_signal(how)
        out, _ = load.communicate(timeout=150)
    finally:
        if load.poll() is None:
            load.kill()
    print(out)
    assert load.returncode == 0, out
    assert f"finished: {TABLES} of {TABLES} tables" in out
    assert "records unlike what was seen: 0" in out and "errors: 0" in out
    reconnections = int(out.split("reconnections: ")[1].split(";")[0])
    assert reconnections > 0  # the stopped process's players did come back elsewhere
    if how == signal.SIGTERM:
        assert cluster.procs[1].wait(30) == 0
    hands = stored_hands(cluster.redis.url)
    assert len(hands) == TABLES
    for code, docs in hands.items():
        assert len(docs) == 1, code  # one hand each: none played twice
        assert replay(docs[0]).is_terminal()
