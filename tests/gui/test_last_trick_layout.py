"""The Last trick panel stays clear of the player's own name plate ("You") at every size,
for two to six seats (issue 23, item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import make_app
from layoutcheck import recording, render
from scenelist import advance, quick, table

from briscola.engine import Rules
from briscola.game.setup import default_setup

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("tricks", [1, 2])
@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4", "chiamata5", "teams6"])
def test_the_last_trick_panel_leaves_the_players_name_plate_whole(
    size: tuple[int, int], preset: str, tricks: int
) -> None:
    app = make_app(size)
    try:
        scene = table(app, default_setup(Rules.preset(preset), "easy"), demo=False)
        speed = quick(app)
        advance(app, scene, lambda: scene.awaiting_human, tricks)
        app.settings.speed = speed
        scene.toggle_last()
        assert scene.show_last
        with recording(app) as images:
            record = render(app, images).record
        panels = [rect for _count, rect in record.panels.get("TableScene", [])]
        panel = max(panels, key=lambda rect: rect.height)  # (a banner is a short one)
        lay = scene.board.layout
        plate_top = lay.spots[0].label[1] - lay.label_h / 2
        assert panel.bottom <= plate_top, f"{panel} over the plate from y={plate_top:.0f}"
        assert panel.top >= 0
    finally:
        app.close()
