"""Pages follow the UI scale where the window has room and scroll where it has not: Settings
and New game grow at 160 % in a 1280x720 window, the Rules contents column grows with the
text (issue 15, item 6)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from guihelp import DT, key, make_app
from layoutcheck import check_scene
from scenelist import SCENES

from briscola.gui.app import App
from briscola.gui.scenes.rules import RulesScene

SIZES = ((1024, 600), (1280, 720), (1920, 1080))
PAGES = ("settings", "newgame-classic2", "newgame-chiamata5")
#: Every page in every window size.
PAGE_CASES = [
    pytest.param(size, name, id=f"{size[0]}x{size[1]}-{name}") for size in SIZES for name in PAGES
]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    yield tmp_path / "home"


def page_at(size: tuple[int, int], name: str, scale: float) -> tuple[App, Any]:
    app = make_app(size)
    app.settings.ui_scale = scale
    app.settings_changed()
    scene = SCENES[name](app)
    app.step(DT)
    assert hasattr(scene, "page_scroll")  # a page (briscola.gui.widgets.page.PageScene)
    return app, scene


def first_row_height(scene: Any) -> int:
    return int(scene.group.widgets[0].rect.height)


@pytest.mark.parametrize(("size", "name"), PAGE_CASES)
def test_at_100_percent_a_page_fits_the_window_without_scrolling(
    size: tuple[int, int], name: str
) -> None:
    app, scene = page_at(size, name, 1.0)
    assert scene.max_page_scroll == 0
    assert check_scene(app) == []
    app.close()


@pytest.mark.parametrize(("size", "name"), PAGE_CASES)
def test_at_160_percent_a_page_grows_and_scrolls_through_tidy(
    size: tuple[int, int], name: str
) -> None:
    app, plain = page_at(size, name, 1.0)
    small = first_row_height(plain)
    app.close()
    app, scene = page_at(size, name, 1.6)
    assert first_row_height(scene) >= small * 1.3  # the controls grew with the setting
    assert scene.max_page_scroll > 0
    # Every position of the page, top to bottom, is tidy, and every widget is fully in the
    # window at one of them.
    seen: set[int] = set()
    window = pygame.Rect((0, 0), app.size)
    while True:
        assert check_scene(app) == [], scene.page_scroll
        seen |= {id(w) for w in scene.group.widgets if window.contains(w.rect)}
        if scene.page_scroll >= scene.max_page_scroll:
            break
        scene.scroll_page_to(scene.page_scroll + app.size[1] * 0.7)
    shown = [w for w in scene.group.widgets if w.visible]
    assert {id(w) for w in shown} <= seen
    app.close()


@pytest.mark.parametrize("name", PAGES)
def test_tab_scrolls_the_focused_control_into_the_window(name: str) -> None:
    app, scene = page_at((1280, 720), name, 1.6)
    window = pygame.Rect((0, 0), app.size)
    reachable = [w for w in scene.group.widgets if w.visible and w.enabled and w.focusable]
    for _press in range(len(reachable) + 2):
        key(app, pygame.K_TAB)
        focused = scene.group.focused
        assert focused is not None and window.contains(focused.rect), focused
    app.close()


def test_the_wheel_and_page_keys_scroll_a_page_taller_than_the_window() -> None:
    app, scene = page_at((1280, 720), "settings", 1.6)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2))
    app.step(DT)
    assert scene.page_scroll > 0
    key(app, pygame.K_PAGEDOWN)
    lower = scene.page_scroll
    assert lower > 0
    key(app, pygame.K_PAGEUP)
    assert scene.page_scroll < lower
    for _press in range(20):
        key(app, pygame.K_PAGEDOWN)
    assert scene.page_scroll == scene.max_page_scroll
    assert scene.done_button.rect.bottom <= app.size[1]  # Back shows at the bottom
    app.close()


def test_the_rules_contents_column_grows_with_the_ui_scale() -> None:
    heights = []
    for scale in (1.0, 1.6):
        app = make_app((1280, 720))
        app.settings.ui_scale = scale
        app.settings_changed()
        scene = SCENES["rules"](app)
        assert isinstance(scene, RulesScene)
        heights.append(scene.section_buttons[0].rect.height)
        last = scene.section_buttons[-1].rect
        assert last.bottom <= scene.back_button.rect.top  # the entries still fit the column
        assert check_scene(app) == []
        app.close()
    assert heights[1] >= heights[0] * 1.3
