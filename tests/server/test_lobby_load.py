"""The lobby's load tool runs end to end on a tiny load and prints every figure (no time is
asserted: a benchmark, not a timed test)."""

from __future__ import annotations

import subprocess
import sys

from redishelp import RedisServer


def test_the_lobby_load_tool_seats_people_and_measures_the_lobby(
    redis_server: RedisServer,
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.load_lobby", "--redis", redis_server.url,
         "--processes", "2", "--players", "8", "--watchers", "2", "--think", "0.01",
         "--duration", "3", "--warmup", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for figure in ("time to a table", "lobby update latency", "commands/s", "errors: none"):
        assert figure in out, figure
    samples = int(out.split("lobby update latency: ")[1].split()[0])
    assert samples > 0


def test_the_lobby_load_tool_refuses_bad_flags() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.load_lobby", "--redis", "redis://x", "--players", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and "--players" in result.stderr
