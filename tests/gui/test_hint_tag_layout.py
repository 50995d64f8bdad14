"""The "Hint" tag on a card stays between the card's corner indices in every language and
window size ("Suggerimento" used to cover the Italian index)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import make_app, table_at_my_turn

from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.text import i18n
from briscola.text.i18n import LANGUAGES

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_hint_tag_leaves_the_corner_indices_clear(size: tuple[int, int]) -> None:
    app = make_app(size)
    try:
        setup = default_setup(Rules.preset("classic2"), "easy")
        setup.seed = 5
        scene = table_at_my_turn(app, setup)
        for language in LANGUAGES:
            i18n.set_language(language)
            for sprite in scene.board.my_hand():
                _text, tag = scene.painter.hint_tag(sprite)
                card = sprite.rect()
                # The index sits in the top corner, within about a fifth of the width, below
                # a margin of a twentieth of the height.
                corner_w, corner_h = round(card.width * 0.21), round(card.height * 0.2)
                top = card.y + card.height // 20
                left = pygame.Rect(card.x, top, corner_w, corner_h)
                right = pygame.Rect(card.right - corner_w, top, corner_w, corner_h)
                assert not tag.colliderect(left) and not tag.colliderect(right), language
                assert tag.centerx == card.centerx
    finally:
        i18n.set_language("en")
        app.close()


@pytest.mark.parametrize("high_contrast", [False, True])
def test_the_hint_tag_shows_its_word(high_contrast: bool) -> None:
    """Issue 50: with the high-contrast table the tag was white on white ("Pista" empty)."""
    app = make_app((1024, 600), lang="es")
    try:
        app.settings.high_contrast = high_contrast
        setup = default_setup(Rules.preset("classic2"), "easy")
        setup.seed = 5
        scene = table_at_my_turn(app, setup)
        sprite = scene.board.my_hand()[0]
        fill, ink = scene.painter.tag_colours()
        assert sum(abs(a - b) for a, b in zip(fill, ink, strict=True)) > 300
        canvas = pygame.Surface(app.size)
        scene.painter._draw_hint_tag(canvas, sprite)
        _text, tag = scene.painter.hint_tag(sprite)
        colours = {
            tuple(canvas.get_at((x, y)))[:3]
            for x in range(tag.x, tag.right)
            for y in range(tag.y, tag.bottom)
        }
        assert fill in colours and ink in colours
    finally:
        i18n.set_language("en")
        app.close()
