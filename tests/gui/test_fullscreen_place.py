"""F11 without a window manager (issue 50): SDL made the window the screen's size where it
stood, half off screen. The window goes to its screen's corner before full screen, and back
where it stood after. (Checked on a bare Xvfb by hand; here the moves asked of SDL.)"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from briscola.gui.app import App

pytestmark = pytest.mark.usefixtures("gui_home")


def test_full_screen_starts_at_the_screens_corner_and_the_window_comes_back(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves: list[object] = []
    monkeypatch.setattr(app, "_window_position", lambda: [448, 240])
    monkeypatch.setattr(app, "_move_window", moves.append)
    monkeypatch.setattr("briscola.gui.app.desktop_sizes", lambda: [(1920, 1080)])
    app.toggle_fullscreen()
    assert app.fullscreen and moves == [(0, 0)]
    app.toggle_fullscreen()
    assert not app.fullscreen and moves == [(0, 0), [448, 240]]
