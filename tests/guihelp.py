"""Helpers for headless GUI tests: make an App, step frames, inject input."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pygame

from briscola.game.local import LocalSession
from briscola.game.setup import GameSetup
from briscola.gui.app import App
from briscola.gui.options import AppOptions
from briscola.gui.scene import Scene
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.local import session_options

DT = 1 / 60


def make_app(size: tuple[int, int] = (1280, 720), **options: object) -> App:
    return App(AppOptions(size=size, turbo=True, **options))  # type: ignore[arg-type]


def start(app: App, scene: Scene) -> Scene:
    app.reset_to(scene)
    app.apply_requests()
    return scene


def start_table(app: App, setup: GameSetup, **options: Any) -> TableScene:
    """Open the table for ``setup`` as the only scene: ``match`` and ``state`` (a position
    to start from) go to the local session, other ``options`` to the TableScene."""
    position = {key: options.pop(key) for key in ("match", "state") if key in options}
    if position:
        session = LocalSession(setup, app.bots, **position, **session_options(app))
        options["session"] = session
    scene = start(app, TableScene(app, setup, **options))
    assert isinstance(scene, TableScene)
    return scene


def table_at_my_turn(app: App, setup: GameSetup, **options: object) -> TableScene:
    """``start_table``, then frames until it is the player's turn."""
    scene = start_table(app, setup, **options)
    assert run_until(app, lambda: scene.awaiting_human)
    return scene


def run_until(app: App, condition: Callable[[], bool], max_frames: int = 20000) -> bool:
    """Step frames until ``condition`` holds (checked before each frame)."""
    for _ in range(max_frames):
        if condition():
            return True
        app.step(DT)
    return condition()


def wait_for(
    app: App,
    condition: Callable[[], bool],
    seconds: float = 60.0,
    each_frame: Callable[[], object] | None = None,
) -> bool:
    """Step frames until ``condition`` holds or ``seconds`` of wall-clock time pass: for
    work on another thread (the coach, a review, the network). ``each_frame`` runs before
    each frame."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        if each_frame is not None:
            each_frame()
        app.step(DT)
    return condition()


def click(app: App, pos: tuple[float, float], button: int = 1) -> None:
    """A real click through the event queue, processed by the next frame."""
    x, y = round(pos[0]), round(pos[1])
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=button))
    app.step(DT)


def key(app: App, code: int, mod: int = 0, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=unicode))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=mod))
    app.step(DT)


def click_first_legal(app: App, scene: TableScene) -> None:
    """Click the first card in the player's hand that may be played."""
    sprite = next(s for s in scene.my_hand() if s.card in scene.legal_cards())
    click(app, sprite.rect().center)


def play_out_by_clicks(app: App, scene: TableScene) -> None:
    """At each of the player's turns click the first card that may be played, until the hand
    is over and the score screen opens."""
    session = scene.session
    while not session.hand_over:
        assert run_until(app, lambda: scene.awaiting_human or session.hand_over)
        if session.hand_over:
            break
        click_first_legal(app, scene)
    assert run_until(app, lambda: type(app.scene).__name__ == "ScoreScene")
