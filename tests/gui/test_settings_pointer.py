"""The text-size arrows in Settings stay under the pointer (issue 50: after each click the
page was laid out at the new size and the arrow moved away from it)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import DT, click, key, start

from briscola.gui.app import App
from briscola.gui.scenes.settings import SettingsScene

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("arrow", [2, 0])
def test_the_size_arrow_clicked_stays_under_the_pointer(app: App, arrow: int) -> None:
    scene = start(app, SettingsScene(app))
    assert isinstance(scene, SettingsScene)
    app.step(DT)
    if arrow == 0:
        app.settings.ui_scale = 1.6
        app.settings_changed()
        scene.scroll_page_to(scene.max_page_scroll)  # the size row in view
    pointer = scene.ui_scale._parts()[arrow].center
    assert pygame.Rect((0, 0), app.size).collidepoint(pointer)
    scales = [app.settings.ui_scale]
    for _click in range(4):
        pygame.mouse.set_pos(pointer)
        click(app, pointer)
        pointer = pygame.mouse.get_pos()
        assert scene.ui_scale._parts()[arrow].collidepoint(pointer), app.settings.ui_scale
        scales.append(app.settings.ui_scale)
    assert len(set(scales)) == 5, "each click changed the size"
    # A key changes the size without moving the pointer.
    pygame.mouse.set_pos((5, 5))
    scene.group.focus_widget(scene.ui_scale)
    key(app, pygame.K_LEFT)
    assert pygame.mouse.get_pos() == (5, 5)
