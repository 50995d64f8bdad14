"""The waiting room's seat numbers stay inside their circles, at two window sizes (issue 23,
item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import math
from typing import Any

import pytest
from guihelp import make_app, start

from briscola.client.flow import OnlineFlow
from briscola.engine import Rules
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.waiting_room import WaitingRoomScene

pytestmark = pytest.mark.usefixtures("gui_home")


class StillClient:
    """A client seated at seat 1 of a table for six that says nothing more."""

    seat = 1
    table = "ABCDEF"
    status = "connected"
    detail = ""

    def drain(self) -> list[dict[str, Any]]:
        return []

    def ready(self, ready: bool = True) -> None: ...

    def leave(self) -> None: ...

    def close(self, timeout: float = 5.0) -> None: ...


def table_message() -> dict[str, Any]:
    seats = [
        {
            "seat": i,
            "kind": "human",
            "level": None,
            "name": f"Player {i + 1}",
            "claimed": True,
            "connected": True,
            "ready": i % 2 == 0,
            "away": False,
            "replaced": False,
        }
        for i in range(6)
    ]
    return {
        "type": "table",
        "table": "ABCDEF",
        "rules": Rules.preset("teams6").to_dict(),
        "host": 0,
        "phase": "lobby",
        "seats": seats,
        "standing": None,
        "hand": None,
        "grace": 60.0,
    }


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_every_seat_number_is_drawn_inside_its_circle(size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        start(app, MenuScene(app))
        flow = OnlineFlow("Player 2")
        flow.client = StillClient()  # type: ignore[assignment]
        flow.stage, flow.table = "room", table_message()  # type: ignore[assignment]
        room = WaitingRoomScene(app, flow)
        app.push(room)
        app.apply_requests()
        app.step(1 / 60)
        digits = [d for d in room.painter.drawn if d.text in {"1", "2", "3", "4", "5", "6"}]
        assert len(digits) == 6
        for drawn in digits:
            badge = drawn.box
            ink = app.assets.text(drawn.text, drawn.size, (0, 0, 0), drawn.bold)
            bounds = ink.get_bounding_rect()
            bounds.move_ip(
                badge.centerx - ink.get_width() // 2, badge.centery - ink.get_height() // 2
            )
            radius = badge.width / 2
            for corner in (bounds.topleft, bounds.topright, bounds.bottomleft, bounds.bottomright):
                apart = math.dist(corner, badge.center)
                assert apart <= radius + 1, f"seat {drawn.text}: {bounds} leaves {badge}"
    finally:
        app.close()
