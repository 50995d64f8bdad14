"""The bot worker: a worker process that dies costs no move. The move is computed again
(a fresh process, then a thread), the same move the bot would have made, never a
fallback card; the failure goes to the log only."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import random
import signal
import time

import pytest
from workerhelp import StuckInProcessBot

from briscola.engine import GameState, Rules, view
from briscola.gui.worker import BotWorker


def _kill_the_worker(killed: set[int]) -> None:
    """Kill the worker process once it is thinking (one not killed before)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        alive = [c.pid for c in multiprocessing.active_children() if c.pid not in killed]
        if alive:
            time.sleep(0.3)  # it is thinking now
            for pid in alive:
                assert pid is not None
                killed.add(pid)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            return
        time.sleep(0.02)
    pytest.fail("no worker process started")


@pytest.mark.slow
def test_a_killed_worker_process_costs_no_move(caplog: pytest.LogCaptureFixture) -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    seen = view(state, state.current_player or 0)
    worker = BotWorker(use_processes=True)
    caplog.set_level(logging.WARNING, logger="briscola.gui.worker")
    killed: set[int] = set()
    try:
        future = worker.submit(StuckInProcessBot(), seen)
        _kill_the_worker(killed)  # the first worker process dies: a fresh one takes the move
        _kill_the_worker(killed)  # and dies too: the move goes to a thread
        action, bot = future.result(timeout=60)
    finally:
        worker.close()
        for child in multiprocessing.active_children():  # none should be left
            if child.pid is not None and child.pid not in killed:
                child.kill()
    assert action == seen.legal[-1]  # the bot's own choice, not the first legal move
    assert isinstance(bot, StuckInProcessBot) and bot.moves == 1
    assert worker.failures == 2 and worker.kind == "thread"
    records = [r for r in caplog.records if "worker" in r.getMessage()]
    assert len(records) == 2
    assert all(getattr(r, "log_only", False) for r in records)  # not for the terminal


def test_a_worker_started_ahead_has_its_process_before_the_first_move() -> None:
    """Started when a table with computers opens: the worker process is there before the
    first move is asked for (not started in the middle of the deal's animation)."""
    from briscola.ai import make_bot

    before = {c.pid for c in multiprocessing.active_children()}
    worker = BotWorker(use_processes=True)
    try:
        worker.start()
        assert worker.kind == "process"
        deadline = time.monotonic() + 30
        while not {c.pid for c in multiprocessing.active_children()} - before:
            assert time.monotonic() < deadline, "no worker process started"
            time.sleep(0.02)
        state = GameState.new(Rules.preset("classic2"), random.Random(1))
        seen = view(state, state.current_player or 0)
        action, _bot = worker.submit(make_bot("easy", random.Random(1)), seen).result(timeout=60)
        assert action in seen.legal
    finally:
        worker.close()


def test_a_worker_on_a_thread_is_started_ahead_too() -> None:
    worker = BotWorker(use_processes=False)
    try:
        worker.start()
        assert worker.kind == "thread"
    finally:
        worker.close()


def test_a_table_with_computers_starts_the_worker_as_it_opens_and_hot_seat_does_not() -> None:
    from guihelp import make_app

    from briscola.game.setup import GameSetup, SeatConfig, default_setup
    from briscola.gui.scenes.table import TableScene

    app = make_app()
    try:
        TableScene(app, default_setup(Rules.preset("classic2"), "easy"))
        assert app.bots.kind == "process"  # before the first frame
    finally:
        app.close()
    app = make_app()
    try:
        seats = [SeatConfig("Anna", human=True), SeatConfig("Bruno", human=True)]
        TableScene(app, GameSetup(Rules.preset("classic2"), seats))
        assert app.bots.kind == "none"
    finally:
        app.close()
