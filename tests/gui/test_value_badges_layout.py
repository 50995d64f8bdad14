"""The coach's card values sit in each card's bottom left corner: never over the figure's face
(the upper middle of the card), inside the part of the card the next one leaves visible, and
inside the window (issue 23, item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import make_app, table_at_my_turn, wait_for

from briscola.engine import Rules
from briscola.game.setup import default_setup

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "teams4"])
def test_value_badges_leave_the_figures_faces_uncovered(preset: str, size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        app.settings.speed = "off"
        setup = default_setup(Rules.preset(preset), "easy")
        setup.seed = 3
        table = table_at_my_turn(app, setup)
        app.settings.coach_values = True
        assert wait_for(app, lambda: bool(table.assist.values()), 120)
        table.draw(pygame.Surface(app.size))
        hand = {sprite.card: sprite for sprite in table.my_hand()}
        order = [sprite.card for sprite in table.my_hand()]
        assert len(table.assist.value_boxes) == len(hand)
        for card, badge in table.assist.value_boxes:
            rect = hand[card].rect()
            face = pygame.Rect(0, 0, rect.width // 2, round(rect.height * 0.45))
            face.midtop = (rect.centerx, rect.top + round(rect.height * 0.12))
            assert not badge.colliderect(face), f"{card}: {badge} over the face {face}"
            assert rect.contains(badge), f"{card}: {badge} leaves the card {rect}"
            assert pygame.Rect((0, 0), size).contains(badge)
            index = order.index(card)
            if index + 1 < len(order):  # the next card, drawn over this one
                later = hand[order[index + 1]].rect()
                assert not badge.colliderect(later), f"{card}: {badge} under {later}"
    finally:
        app.close()
