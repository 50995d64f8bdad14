"""The Statistics screen: the hands and matches won in a row, and the rows added up per
opponent level and per game at a click."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import DT, click, start

from briscola.engine import HandResult, Rules
from briscola.game.setup import GameSetup, SeatConfig
from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.stats import ALL, StatsScene
from briscola.storage.stats import Stats

pytestmark = pytest.mark.usefixtures("gui_home")


def result(won: bool) -> HandResult:
    points = (70, 50) if won else (50, 70)
    return HandResult(points, ((0,), (1,)), points, 61, 0 if won else 1, (), False, (0, 0))


def setup(preset: str, level: str) -> GameSetup:
    rules = Rules.preset(preset)
    others = [SeatConfig("CPU", level=level) for _ in range(rules.players - 1)]
    return GameSetup(rules, [SeatConfig("You", True), *others])


def test_the_screen_shows_the_streaks_and_adds_rows_up_per_level_and_per_game(app: App) -> None:
    stats = Stats()
    for preset, level, won in (
        ("classic2", "easy", True),
        ("classic2", "hard", True),
        ("classic2", "hard", False),
        ("teams4", "hard", True),
        ("teams4", "hard", True),
    ):
        stats.record_hand(setup(preset, level), result(won), 0)
    start(app, MenuScene(app))
    scene = StatsScene(app, stats)
    app.push(scene)
    app.apply_requests()
    app.step(DT)
    drawn = [text.text for text in scene.painter.drawn]
    assert any("2 hands now (best 2)" in text for text in drawn), drawn
    assert [(p, s) for p, s, _e in scene.table_rows()] == [
        ("classic2", "easy"),
        ("classic2", "hard"),
        ("teams4", "hard"),
    ]
    click(app, scene.grouping_button.rect.center)
    app.step(DT)
    assert scene.grouping == "strength"
    rows = scene.table_rows()
    assert [(p, s, e.hands) for p, s, e in rows] == [(ALL, "easy", 1), (ALL, "hard", 4)]
    assert "Easy" in [text.text for text in scene.painter.drawn]
    click(app, scene.grouping_button.rect.center)
    app.step(DT)
    assert [(p, s, e.hands_won) for p, s, e in scene.table_rows()] == [
        ("classic2", ALL, 2),
        ("teams4", ALL, 2),
    ]
    assert "All opponents" in [text.text for text in scene.painter.drawn]
    click(app, scene.grouping_button.rect.center)
    app.step(DT)
    assert scene.grouping == "both"
