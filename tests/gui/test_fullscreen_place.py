"""F11 without a window manager (issue 50): SDL left the full-screen window where and as
large as it was, half off screen. The window is put over its screen first (corner and
size; checked on a bare Xvfb: 1600x900 at 0,0), and goes back where it stood after."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from briscola.gui.app import App

pytestmark = pytest.mark.usefixtures("gui_home")


def test_full_screen_starts_over_its_screen_and_the_window_comes_back(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves: list[object] = []
    covered: list[object] = []
    monkeypatch.setattr(app, "_window_position", lambda: [448, 240])
    monkeypatch.setattr(app, "_move_window", moves.append)
    monkeypatch.setattr("briscola.gui.app.desktop_sizes", lambda: [(1920, 1080)])
    real = app.window.set_fullscreen
    monkeypatch.setattr(
        app.window,
        "set_fullscreen",
        lambda on, size, screen: (covered.append(screen), real(on, size, screen)),
    )
    app.toggle_fullscreen()
    assert app.fullscreen and covered == [(0, 0, 1920, 1080)]
    app.toggle_fullscreen()
    assert not app.fullscreen and moves == [[448, 240]]
    monkeypatch.undo()
