"""Decks during a game: D names the deck it switches to, a deck chosen in Settings is one D
comes back to, and each deck opens with its own back."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import key, start, table_at_my_turn

from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.settings import SettingsScene
from briscola.storage.settings import Settings
from briscola.text.decks import deck_info

pytestmark = pytest.mark.usefixtures("gui_home")


def test_d_names_the_deck_it_switches_to(app: App) -> None:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 3
    scene = table_at_my_turn(app, setup)
    before = app.settings.deck
    key(app, pygame.K_d)
    assert app.settings.deck != before
    banner = scene.captions.banner
    info = deck_info(app.settings.deck)
    assert banner is not None and info is not None
    assert banner[0]() == f"Deck: {info.title('en')}"


def test_a_deck_chosen_in_settings_is_in_the_d_cycle(app: App) -> None:
    assert app.settings.deck_cycle == ["italian", "french"]
    scene = start(app, SettingsScene(app))
    assert isinstance(scene, SettingsScene)
    scene.change("deck", "siciliane")
    assert "siciliane" in app.settings.deck_cycle
    seen = [app.settings.deck]
    for _turn in range(len(app.settings.deck_cycle)):
        seen.append(app.settings.cycle_deck())
    assert seen[0] == seen[-1] == "siciliane"  # D comes round to it again


def test_each_deck_opens_with_its_own_back(app: App) -> None:
    """With the settings a new player starts with, a deck that has a traditional back of
    its own shows it, and a deck without one the classic back."""
    assert app.settings.back == Settings().back

    def pixels(deck: str) -> bytes:
        app.settings.deck = deck
        return pygame.image.tobytes(app.assets.card_back(app.settings.back, 60), "RGBA")

    classic = pygame.image.tobytes(app.assets.card_back("classic", 60), "RGBA")
    owns = {deck: pixels(deck) for deck in ("piacentine", "siciliane", "spanish")}
    assert all(back != classic for back in owns.values())
    assert len(set(owns.values())) == 3
    assert pixels("italian") == classic
