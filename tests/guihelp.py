"""Helpers for headless GUI tests: make an App, step frames, inject input."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from briscola.gui.app import App, AppOptions
from briscola.gui.scene import Scene

DT = 1 / 60


def make_app(size: tuple[int, int] = (1280, 720), **options: object) -> App:
    return App(AppOptions(size=size, turbo=True, **options))  # type: ignore[arg-type]


def start(app: App, scene: Scene) -> Scene:
    app.reset_to(scene)
    app.apply_requests()
    return scene


def run_until(app: App, condition: Callable[[], bool], max_frames: int = 20000) -> bool:
    """Step frames until ``condition`` holds (checked before each frame)."""
    for _ in range(max_frames):
        if condition():
            return True
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
