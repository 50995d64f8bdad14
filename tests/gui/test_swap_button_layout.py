"""The Swap button lies beside the turned briscola, clear of the stock's cards, of the
briscola, of the player's hand and inside the window, at every size (issue 23, item 10)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import make_app, start_table

from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.gui.render.assets import CARD_RATIO

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("scale", [1.0, 1.3])
@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4"])
def test_the_swap_button_covers_no_card(preset: str, size: tuple[int, int], scale: float) -> None:
    app = make_app(size)
    try:
        app.settings.ui_scale = scale
        table = start_table(app, default_setup(Rules.preset(preset, swap=True), "easy"))
        app.step(1 / 60)
        lay = table.board.layout
        button = table.hud.swap.rect
        stock_h = round(lay.stock_w * CARD_RATIO)
        stock = pygame.Rect(0, 0, round(lay.stock_w) + 12, stock_h + 14)
        stock.center = (round(lay.stock[0]), round(lay.stock[1]))
        briscola = pygame.Rect(0, 0, stock_h, round(lay.stock_w))
        briscola.center = (round(lay.briscola[0]), round(lay.briscola[1]))
        assert pygame.Rect((0, 0), size).contains(button), button
        assert not button.colliderect(stock), f"{button} over the stock {stock}"
        assert not button.colliderect(briscola), f"{button} over the briscola {briscola}"
        for sprite in table.my_hand():
            assert not button.colliderect(sprite.rect()), f"{button} over {sprite.card}"
        for other in table.hud.widgets[:4]:
            assert not button.colliderect(other.rect)
    finally:
        app.close()
