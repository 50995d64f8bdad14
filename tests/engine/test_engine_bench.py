"""The engine benchmark (``python -m tools.engine_bench``, README "Tools and benchmarks")
runs and prints a rate for every path it times."""

from __future__ import annotations

import pytest

from tools import engine_bench


def test_the_engine_benchmark_prints_every_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_bench.main(["--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    for path in ("state", "sim", "playout2"):
        assert f" {path} " in out
    assert "games/s" in out
