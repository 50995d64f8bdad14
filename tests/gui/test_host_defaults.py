"""Hosting a table: every other seat starts open to a friend, the host's seat reads "You",
and what the hosting page chose does not become the seats of a game on this computer."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import start

from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.newgame import NewGameScene

pytestmark = pytest.mark.usefixtures("gui_home")


def _page(app: App, online: bool) -> NewGameScene:
    start(app, MenuScene(app))
    app.open("newgame", online=online)
    app.apply_requests()
    page = app.scene
    assert isinstance(page, NewGameScene)
    return page


def test_a_hosted_table_opens_every_other_seat_to_a_friend(app: App) -> None:
    app.settings.new_game = {"preset": "teams4", "seats": [{"name": "Anna", "human": True}]}
    page = _page(app, online=True)
    assert page.kind_choices[0].shown() == "You" and not page.kind_choices[0].enabled
    seats = page.setup().seats
    assert [seat.human for seat in seats] == [True] * 4
    assert [page.kind_choices[s].shown() for s in range(1, 4)] == ["A friend"] * 3


def test_the_hosting_page_leaves_the_seats_of_a_game_here_as_they_were(app: App) -> None:
    offline = _page(app, online=False)
    offline.set_preset("classic3")
    assert [seat.human for seat in offline.setup().seats] == [True, False, False]
    offline.back()
    host = _page(app, online=True)
    host.set_kind(2, "hard")
    host.back()
    again = _page(app, online=False)
    assert [seat.human for seat in again.setup().seats] == [True, False, False]
