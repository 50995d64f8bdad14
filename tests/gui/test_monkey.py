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


def test_the_monkey_fails_when_a_computer_falls_back_on_its_first_legal_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer player that fails (its move replaced by the first legal one) stops the
    run, as an exception would: the game went on, but not as it should have."""
    from briscola.ai.medium import EasyBot, MediumBot
    from briscola.ai.search import HardBot

    def broken(self: object, view: object) -> object:
        raise RuntimeError("this computer player is broken")

    monkeypatch.setenv("BRISCOLA_BOT_THREADS", "1")  # the bots below think in this process
    for kind in (EasyBot, MediumBot, HardBot):
        monkeypatch.setattr(kind, "choose", broken)
    with pytest.raises(RuntimeError, match=r"a computer player failed: .*first legal move"):
        monkey.run(3000, seed=4242)
