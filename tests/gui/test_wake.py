"""Background work wakes a resting window (issue 50): the coach's hint and a computer's move
show without any input event, even when they finish after the last frame was drawn."""

from __future__ import annotations

import os
import random
import threading
import time
from concurrent.futures import Future
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import DT, key, table_at_my_turn, wait_for

from briscola.ai import make_bot
from briscola.engine import GameState, Rules, view
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.options import AppOptions
from briscola.gui.render.wake import WAKE
from briscola.gui.table import coach as table_coach
from briscola.gui.worker import BotWorker

pytestmark = pytest.mark.usefixtures("gui_home")


def _rest_seconds(app: App, limit: float = 3.0) -> float:
    """How long the App's idle wait lasts (stopped after ``limit`` seconds at most)."""
    app.running = True
    stop = threading.Timer(limit, lambda: setattr(app, "running", False))
    stop.start()
    began = time.monotonic()
    app._rest()
    stop.cancel()
    return time.monotonic() - began


def test_a_hint_that_arrives_after_the_last_frame_wakes_the_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()
    real = table_coach.advise

    def slow_advise(*args: Any) -> table_coach.Advice:
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(table_coach, "advise", slow_advise)
    app = App(AppOptions(size=(1280, 720), turbo=False))
    try:
        setup = default_setup(Rules.preset("classic2"), "easy")
        setup.seed = 5
        scene = table_at_my_turn(app, setup)
        assert wait_for(app, lambda: scene.next_frame_in() is None, 20)
        key(app, pygame.K_h)
        app.step(DT)
        assert scene.assist.hint_text() == "The coach is thinking…"
        # The assessment ends between frames; then no frame is due but for its result.
        release.set()
        turn = scene.assist.turn()
        scene.assist.coach.wait(turn, 60)  # no frame meanwhile
        assert not scene.assist.coach.pending(turn)
        assert _rest_seconds(app) < 1.0  # before: asleep until the next input event
        app.step(DT)
        text = scene.assist.hint_text()
        assert text and text != "The coach is thinking…"
        assert "hint" in scene.assist.boxes  # drawn, with no input event
    finally:
        app.close()


def test_a_computers_move_wakes_the_window() -> None:
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    seen = view(state, state.current_player or 0)
    worker = BotWorker(use_processes=False)
    woken = threading.Event()
    worker.on_done = woken.set
    try:
        move: Future[Any] = worker.submit(make_bot("easy", random.Random(1)), seen)
        action, _bot = move.result(10)
        assert action in seen.legal
        assert woken.wait(2)
    finally:
        worker.close()


def test_the_app_wakes_on_a_computers_move_and_drops_the_wake_event(app: App) -> None:
    assert app.bots.on_done is not None
    app.bots.on_done()
    assert _rest_seconds(app) < 1.0
    app.step(DT)
    assert not pygame.event.peek(WAKE)
