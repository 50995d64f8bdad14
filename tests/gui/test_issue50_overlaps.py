"""Overlaps a newcomer saw (issue 50), each checked where it was seen: the Pass bubbles under
the Chiamata auction panel at 1024x600, the table's banner over the opponent's name plate
and dealer's button at 160 %, the red "Connection lost" banner over the opponent's cards."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import DT, make_app, table_at_my_turn

from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.plates import plate_pieces

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
def test_the_auction_panel_covers_no_bubble(size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        setup = default_setup(Rules.preset("chiamata5"), "easy")
        setup.seed = 3
        scene = table_at_my_turn(app, setup)
        app.step(DT)
        assert scene.auction.active
        for seat in range(1, 5):
            scene.captions.bubble(seat, lambda: "Pass", 10.0)
        painter = scene.painter
        painter.footprint = []
        scene.frame._overlays(app.screen)
        bubbles = list(painter.footprint)
        assert len(bubbles) == 4
        panel = scene.auction.panel()
        screen = app.screen.get_rect()
        for bubble in bubbles:
            assert not bubble.colliderect(panel), (bubble, panel)
            assert screen.contains(bubble)
        hands = [s.rect() for seat in range(1, 5) for s in scene.board.hands[seat]]
        for bubble in bubbles:
            assert bubble.collidelist(hands) < 0, bubble
    finally:
        app.close()


def _others(table: TableScene, size: tuple[int, int]) -> list[pygame.Rect]:
    """The other seats' cards and name plates (with the dealer's button) as drawn."""
    mine = {id(sprite) for sprite in table.my_hand()}
    boxes = [s.rect() for s, _shadow in table.board.draw_order() if id(s) not in mine]
    scratch = pygame.Surface(size)
    seen = table.session.view()
    for key, _plan, draw in plate_pieces(table.painter, None, False, seen):
        if key[1] != table.board.viewer:
            boxes.extend(draw(scratch))
    return boxes


def _table(app: App, preset: str) -> TableScene:
    app.settings.speed = "off"
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = 5
    return table_at_my_turn(app, setup)


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4", "teams6"])
@pytest.mark.parametrize("scale", [1.0, 1.6])
def test_the_tables_banner_covers_no_other_seats_cards_or_plate(
    preset: str, size: tuple[int, int], scale: float
) -> None:
    app = make_app(size)
    try:
        app.settings.ui_scale = scale
        app.settings_changed()
        table = _table(app, preset)
        table.captions.announce(lambda: "Trump: batons", 10.0)
        surface = pygame.Surface(app.size)
        box = table.painter.draw_banner(
            surface, table.hud_bottom + table.px(8), table.banner_avoids()
        )
        assert box is not None and pygame.Rect((0, 0), size).contains(box)
        over = [rect for rect in _others(table, size) if rect.colliderect(box)]
        assert not over, f"{box} over {over}"
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4", "teams6"])
def test_the_connection_lost_banner_covers_no_other_seats_cards(
    preset: str, size: tuple[int, int]
) -> None:
    app = make_app(size)
    try:
        table = _table(app, preset)
        table.banner.banner = "Connection lost: reconnecting…"
        surface = pygame.Surface(app.size)
        boxes = table.banner.draw(surface, table.px(10), table.banner_avoids())
        assert len(boxes) == 1 and pygame.Rect((0, 0), size).contains(boxes[0])
        over = [rect for rect in _others(table, size) if rect.colliderect(boxes[0])]
        assert not over, f"{boxes[0]} over {over}"
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_briscola_shows_more_than_a_strip_under_the_stock(
    size: tuple[int, int], players: int
) -> None:
    """At 1024x600 little more than its index showed (issue 50); now two thirds of it do
    where the cards are small, about half (as before) where they are large."""
    from briscola.gui.layout.table import TableLayout
    from briscola.gui.render.assets import CARD_RATIO

    lay = TableLayout(size, players)
    length = lay.stock_w * CARD_RATIO  # the briscola lies across: its length is horizontal
    thickest = lay.stock_offset(40)[0]
    stock_right = lay.stock[0] + lay.stock_w / 2 + thickest
    shown = (lay.briscola[0] + length / 2 - stock_right) / length
    assert shown >= (0.62 if lay.stock_w < 80 else 0.45), (lay.stock_w, shown)
    briscola = pygame.Rect(0, 0, round(length), lay.stock_w)
    briscola.center = (round(lay.briscola[0]), round(lay.briscola[1]))
    assert pygame.Rect((0, 0), size).contains(briscola)
    x, y, w, h = lay.hand_rect(0, 3)
    assert not briscola.colliderect(pygame.Rect(round(x), round(y), round(w), round(h)))


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("scale", [1.0, 1.6])
def test_the_solid_auction_panel_cuts_no_name_plate(size: tuple[int, int], scale: float) -> None:
    """The panel is solid (a name showing through its help lines read as clutter): it sits
    below the plates across the table, clear of the player's hand, and covers the player's
    own plate whole or not at all."""
    app = make_app(size)
    try:
        app.settings.ui_scale = scale
        app.settings_changed()
        setup = default_setup(Rules.preset("chiamata5"), "easy")
        setup.seed = 3
        scene = table_at_my_turn(app, setup)
        app.step(DT)
        assert scene.auction.active
        panel = scene.auction.panel()
        scratch = pygame.Surface(size)
        seen = scene.session.view()
        for key, _plan, draw in plate_pieces(scene.painter, None, False, seen):
            for box in draw(scratch):
                if key[1] != scene.board.viewer:
                    assert not box.colliderect(panel), (key, box, panel)
                else:
                    assert panel.contains(box) or not box.colliderect(panel), (box, panel)
        for sprite in scene.my_hand():
            assert not sprite.rect().colliderect(panel), (sprite.rect(), panel)
    finally:
        app.close()
