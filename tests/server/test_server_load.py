"""The load tool runs end to end on a tiny load and reports every figure (no times asserted)."""

from __future__ import annotations

import subprocess
import sys

from redishelp import need


def test_the_load_tool_plays_tables_over_real_sockets_and_prints_its_figures() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.load", "--tables", "3", "--duration", "2",
         "--think", "0.05"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "tables: 3 of 3 seated" in out
    for figure in ("moves/s", "p50", "p99", "KiB per table", "ms per move", "errors: 0"):
        assert figure in out, figure
    moves = int(out.split("moves: ")[1].split()[0])
    assert moves > 0


def test_the_load_tool_refuses_bad_flags() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tools.load", "--tables", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2 and "--tables must be 1 to 5000" in result.stderr


def test_the_load_tool_puts_haproxy_in_front_of_its_servers_when_asked() -> None:
    need("haproxy")
    result = subprocess.run(
        [sys.executable, "-m", "tools.load", "--tables", "3", "--duration", "2",
         "--think", "0.05", "--proxy"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "behind HAProxy" in out and "proxy CPU" in out and "errors: 0" in out
    assert int(out.split("moves: ")[1].split()[0]) > 0


def test_the_load_tool_runs_several_in_memory_servers_as_the_baseline_of_as_many_processes() -> (
    None
):
    result = subprocess.run(
        [sys.executable, "-m", "tools.load", "--tables", "4", "--duration", "2",
         "--think", "0.05", "--processes", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "2 server processes in memory, each with its own tables" in out, out
    assert "errors: 0" in out and int(out.split("moves: ")[1].split()[0]) > 0
    refused = subprocess.run(
        [sys.executable, "-m", "tools.load", "--processes", "2", "--proxy"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2 and "needs --redis" in refused.stderr
