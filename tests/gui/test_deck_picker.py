"""The deck picker in Settings and the D key: choosing, ticking, cycling, every deck drawn."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from guihelp import DT, click, key, make_app, start

from briscola.gui.app import App
from briscola.gui.scenes.settings import SettingsScene
from briscola.storage.settings import Settings
from briscola.text.decks import deck_ids


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    application = make_app()
    yield application
    application.close()


def settings_scene(app: App) -> SettingsScene:
    scene = start(app, SettingsScene(app))
    assert isinstance(scene, SettingsScene)
    app.step(DT)
    return scene


def test_every_deck_is_offered_as_a_preview(app: App) -> None:
    scene = settings_scene(app)
    assert [tile.deck for tile in scene.picker.tiles()] == deck_ids()
    assert {"italian", "french", "piacentine", "siciliane", "spanish"} <= set(deck_ids())
    for tile in scene.picker.tiles():
        assert scene.picker.rect.contains(tile.box)
        assert tile.box.contains(tile.cards) and tile.box.contains(tile.tick)


def test_clicking_a_preview_chooses_that_deck(app: App) -> None:
    scene = settings_scene(app)
    tile = next(t for t in scene.picker.tiles() if t.deck == "spanish")
    click(app, tile.cards.center)
    assert app.settings.deck == "spanish"
    assert app.settings.deck_style == "spanish"
    assert scene.deck.value == "spanish"


def test_the_tick_box_adds_and_removes_a_deck_from_the_d_cycle(app: App) -> None:
    scene = settings_scene(app)
    assert app.settings.deck_cycle == ["italian", "french"]
    tick = next(t for t in scene.picker.tiles() if t.deck == "siciliane").tick
    click(app, tick.center)
    assert app.settings.deck_cycle == ["italian", "french", "siciliane"]
    assert app.settings.deck == "italian"  # ticking does not choose
    tick = next(t for t in scene.picker.tiles() if t.deck == "french").tick
    click(app, tick.center)
    assert app.settings.deck_cycle == ["italian", "siciliane"]


def test_keys_on_the_picker_choose_the_next_deck_and_tick_it(app: App) -> None:
    scene = settings_scene(app)
    scene.group.focus_widget(scene.picker)
    scene.group.keyboard_focus = True
    key(app, pygame.K_LEFT)
    assert app.settings.deck == deck_ids()[-1]
    key(app, pygame.K_RIGHT)
    assert app.settings.deck == "italian"
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RETURN)
    assert app.settings.deck == "french" and "french" not in app.settings.deck_cycle


def test_d_cycles_through_the_ticked_decks_only(app: App) -> None:
    app.settings.deck_cycle = ["italian", "piacentine", "spanish"]
    seen = [app.settings.cycle_deck() for _ in range(4)]
    assert seen == ["piacentine", "spanish", "italian", "piacentine"]
    app.settings.deck_cycle = []
    app.settings.deck = "spanish"
    assert app.settings.cycle_deck() == deck_ids()[0]


def test_four_colours_are_offered_only_by_a_deck_that_has_them(app: App) -> None:
    scene = settings_scene(app)
    for deck in deck_ids():
        scene.change("deck", deck)
        assert scene.four_colour.enabled == (deck == "french"), deck
        app.settings.four_colour = True
        assert app.settings.deck_style == ("french4" if deck == "french" else deck)
        app.settings.four_colour = False


@pytest.mark.parametrize("high_contrast", [False, True])
def test_the_settings_screen_draws_with_every_deck(app: App, high_contrast: bool) -> None:
    app.settings.high_contrast = high_contrast
    scene = settings_scene(app)
    for deck in deck_ids():
        scene.change("deck", deck)
        app.step(DT)
    assert app.assets.missing == []


def test_the_back_named_deck_is_the_decks_own_or_else_the_classic_one(app: App) -> None:
    def pixels(surface: pygame.Surface) -> bytes:
        return pygame.image.tobytes(surface, "RGBA")

    classic = pixels(app.assets.card_back("classic", 60))
    app.settings.deck = "spanish"
    own = pixels(app.assets.card_back("deck", 60))
    assert own != classic
    assert own == pixels(app.assets.deck_back("spanish", "classic", 60))
    app.settings.deck = "italian"  # no back of its own
    assert pixels(app.assets.card_back("deck", 60)) == classic
    assert Settings.from_json({"back": "deck"}) == (Settings(back="deck"), [])


def test_each_preview_shows_its_own_deck_whichever_deck_is_chosen(app: App) -> None:
    """Issue 50: the decks without a back of their own showed the chosen deck's back."""
    scene = settings_scene(app)
    shown: dict[str, list[bytes]] = {}
    for chosen in ("siciliane", "spanish"):
        app.settings.deck = chosen
        app.settings_changed()
        scene.draw(app.screen)
        shown[chosen] = [
            pygame.image.tobytes(app.screen.subsurface(tile.cards), "RGB")
            for tile in scene.picker.tiles()
            if tile.deck in ("italian", "french", "piacentine")  # neither chosen
        ]
    assert shown["siciliane"] == shown["spanish"]
