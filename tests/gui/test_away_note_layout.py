"""The online notes ("Luca is away: a computer plays until they return.") stay clear of the
other seats' cards and name plates at every size (issue 23, item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import make_app, table_at_my_turn

from briscola.engine import Rules
from briscola.game.setup import default_setup

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4", "teams6"])
def test_the_away_notes_cover_no_card_of_another_seat(preset: str, size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        app.settings.speed = "off"
        table = table_at_my_turn(app, default_setup(Rules.preset(preset), "easy"))
        table.banner.notes = [
            "Luca is away: a computer plays until they return.",
            "Carla lost the connection: waiting…",
        ]
        surface = pygame.Surface(app.size)
        boxes = table.banner.draw(surface, table.px(10), table.banner_avoids())
        assert len(boxes) == 2
        mine = {id(sprite) for sprite in table.my_hand()}
        others = [s.rect() for s, _shadow in table.board.draw_order() if id(s) not in mine]
        for box in boxes:
            assert pygame.Rect((0, 0), size).contains(box), box
            over = [card for card in others if card.colliderect(box)]
            assert not over, f"{box} over a card {over[0]}"
    finally:
        app.close()
