"""Dialogs over the table hide what lies under their panel: nothing of the table (names,
chips, cards) shows through the score panel or the pause dialog (issue 15, item 7)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from guihelp import make_app, start
from layoutcheck import make_summary

from briscola.gui.app import App
from briscola.gui.scene import Scene
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.pause import PauseScene
from briscola.gui.scenes.score import ScoreScene


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"


def drawn_over(app: App, scene: Scene, under: tuple[int, int, int]) -> pygame.Surface:
    """The scene drawn over a window filled with one colour (standing for the table)."""
    surface = pygame.Surface(app.size)
    surface.fill(under)
    scene.draw(surface)
    return surface


def see_through(app: App, scene: Scene, panel: pygame.Rect, radius: int) -> list[tuple[int, int]]:
    """Points of the panel (its rounded corners left out) whose colour depends on what is
    under the dialog."""
    white = drawn_over(app, scene, (255, 255, 255))
    black = drawn_over(app, scene, (0, 0, 0))
    inner = panel.inflate(-2 * radius, -2 * radius)
    found = []
    for x in range(inner.left, inner.right, 7):
        for y in range(panel.top + 1, panel.bottom - 1, 7):
            if white.get_at((x, y)) != black.get_at((x, y)):
                found.append((x, y))
    for y in range(inner.top, inner.bottom, 7):
        for x in (panel.left + 1, panel.right - 2):
            if white.get_at((x, y)) != black.get_at((x, y)):
                found.append((x, y))
    return found


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_pause_dialog_hides_the_table_under_it(size: tuple[int, int]) -> None:
    app = make_app(size)
    start(app, MenuScene(app))  # stands for the table: PauseScene draws only itself
    pause = PauseScene(app, app.scene)  # type: ignore[arg-type]
    app.push(pause)
    app.apply_requests()
    assert see_through(app, pause, pause.panel, 14) == []
    app.close()


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_score_panel_over_the_table_hides_the_table_under_it(size: tuple[int, int]) -> None:
    app = make_app(size)
    app.settings.reduce_motion = True
    start(app, MenuScene(app))
    score = ScoreScene(app, make_summary("chiamata5"), None, print, print)
    app.push(score)
    app.apply_requests()
    assert app.scenes[0] is not score
    assert see_through(app, score, score.panel, score.px(16)) == []
    app.close()
