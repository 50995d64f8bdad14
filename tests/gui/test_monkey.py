"""A sample of the monkey test (the full run: python -m tools.monkey --events 100000)."""

from __future__ import annotations

import os

import pytest

from tools import monkey

EVENTS = int(os.environ.get("BRISCOLA_MONKEY_EVENTS", "10000"))


@pytest.mark.slow
def test_monkey_sample_never_raises_and_keeps_the_engine_valid() -> None:
    seen = monkey.run(EVENTS, seed=20261130)
    assert seen["TableScene"] > EVENTS // 20, seen
    assert seen["NewGameScene"] and seen["MenuScene"]
