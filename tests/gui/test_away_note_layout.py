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


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_an_online_note_goes_below_the_table_s_caption_rather_than_over_it(
    size: tuple[int, int],
) -> None:
    app = make_app(size)
    try:
        app.settings.speed = "off"
        table = table_at_my_turn(app, default_setup(Rules.preset("classic2"), "easy"))
        table.captions.announce(lambda: "Trump: coins", 5.0)
        table.banner.notes = ["Waiting for Dario to start the new match…"]
        notes: list[pygame.Rect] = []
        captions: list[pygame.Rect | None] = []
        draw_notes, draw_caption = table.banner.draw, table.painter.draw_banner
        table.banner.draw = lambda *a, **k: notes.extend(draw_notes(*a, **k)) or notes  # type: ignore[method-assign]
        table.painter.draw_banner = lambda *a: captions.append(draw_caption(*a)) or captions[-1]  # type: ignore[method-assign]
        table.draw(pygame.Surface(app.size))
        assert len(notes) == 1 and len(captions) == 1
        caption = captions[0]
        assert caption is not None and not caption.colliderect(notes[0]), (caption, notes)
    finally:
        app.close()
