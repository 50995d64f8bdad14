"""Partial frames: the table drawn only where it changed shows the very pixels of the same
frame drawn whole, at every moment of a seeded hand (the deal, cards in flight, a trick
taken, the player's turn with a card hovered), with every deck; and card images follow the
layout in use rather than every size ever drawn."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from guihelp import make_app, run_until, start

from briscola.engine import Rules
from briscola.game.setup import GameSetup, default_setup
from briscola.gui.app import App
from briscola.gui.render.assets import LRU, surface_bytes
from briscola.gui.render.damage import Region
from briscola.gui.scenes.table import TableScene
from briscola.storage.autosave import Autosave

DECKS = ("italian", "french", "piacentine", "siciliane", "spanish")
#: Frames compared: every few frames of the first tricks, whatever moves then.
EVERY = 5
TRICKS = 3


@pytest.fixture(autouse=True)
def _clean_home() -> None:
    Autosave().clear()


def _seeded(preset: str = "classic2", seed: int = 7) -> GameSetup:
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = seed
    return setup


def _step(app: App, table: TableScene) -> dict[int, float]:
    """One frame; returns the lifts of the player's cards before it (drawing the table
    eases a hovered card's lift: the whole frame starts from them too)."""
    lifts = {id(sprite): sprite.lift for sprite in table.my_hand()}
    app.step(1 / 60)
    return lifts


def _same_as_whole(
    app: App, table: TableScene, whole: pygame.Surface, lifts: dict[int, float]
) -> bool:
    """The window as the last frame left it is what drawing the frame whole gives."""
    for sprite in table.my_hand():
        sprite.lift = lifts.get(id(sprite), sprite.lift)
    table.draw(whole)
    return pygame.image.tobytes(app.screen, "RGB") == pygame.image.tobytes(whole, "RGB")


def _play_comparing(app: App, table: TableScene, tricks: int) -> tuple[int, int]:
    """Play the player's first legal card at each turn for ``tricks`` tricks, comparing
    every few frames (and each turn) with the whole frame; returns the frames compared and
    how many of them were drawn in part."""
    whole = pygame.Surface(app.size).convert()
    composer = table.painter.composer
    compared = partial = frames = 0
    while len(table.session.view().tricks) < tricks:
        before = composer.partial_frames
        lifts = _step(app, table)
        frames += 1
        assert frames < 20000, "the hand did not go on"
        drawn_in_part = composer.partial_frames > before
        if frames % EVERY == 0 or table.awaiting_human:
            assert _same_as_whole(app, table, whole, lifts), f"frame {frames} differs"
            compared += 1
            partial += drawn_in_part
        if table.awaiting_human:
            table.play_card(table.legal_cards()[0])
    return compared, partial


@pytest.mark.parametrize("deck", DECKS)
def test_a_frame_drawn_in_part_is_the_frame_drawn_whole_with_every_deck(
    deck: str, tmp_path: Path
) -> None:
    app = make_app((1280, 720), deck=deck, lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    compared, partial = _play_comparing(app, table, TRICKS)
    assert compared > 40
    # Most frames were drawn in part (else the comparison proves nothing).
    assert partial > compared // 2
    # Cards landed and left: the still layer was updated in place, not only rebuilt.
    assert table.painter.still_layer.updates > 0


@pytest.mark.parametrize("size", [(1024, 600), (2560, 1440)])
def test_frames_drawn_in_part_match_at_the_smallest_and_a_large_window(
    size: tuple[int, int], tmp_path: Path
) -> None:
    app = make_app(size, deck="italian", lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded("briscolone4", 3)))
    assert isinstance(table, TableScene)
    _compared, partial = _play_comparing(app, table, 1)
    assert partial > 0


def test_a_hovered_and_focused_hand_drawn_in_part_is_the_frame_drawn_whole(
    tmp_path: Path,
) -> None:
    app = make_app((1280, 720), deck="french", lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    assert run_until(app, lambda: table.awaiting_human and not table.busy)
    whole = pygame.Surface(app.size).convert()
    card = table.my_hand()[1].rect().center
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=card, rel=(0, 0), buttons=(0, 0, 0))
    )
    before = table.painter.composer.partial_frames
    for _ in range(20):  # the card rises under the pointer
        assert _same_as_whole(app, table, whole, _step(app, table))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    for _ in range(10):  # the keyboard's focus ring
        assert _same_as_whole(app, table, whole, _step(app, table))
    assert table.painter.composer.partial_frames > before


def test_a_scene_on_top_brings_a_whole_frame_and_then_frames_in_part_again(
    tmp_path: Path,
) -> None:
    app = make_app((1280, 720), lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    assert run_until(app, lambda: table.awaiting_human and not table.busy)
    table.pause()
    app.step(1 / 60)
    app.step(1 / 60)
    assert type(app.scene).__name__ == "PauseScene"
    app.pop()
    app.step(1 / 60)  # the pause menu goes after this frame
    whole = pygame.Surface(app.size).convert()
    before = table.painter.composer.partial_frames
    assert _same_as_whole(app, table, whole, _step(app, table))  # drawn whole over it
    assert table.painter.composer.partial_frames == before
    assert _same_as_whole(app, table, whole, _step(app, table))
    assert table.painter.composer.partial_frames == before + 1


def test_card_images_follow_the_layout_in_use(tmp_path: Path) -> None:
    app = make_app((1920, 1080), lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    assert run_until(app, lambda: table.awaiting_human and not table.busy)
    big = {key[-1][0] for key in app.assets._cards if isinstance(key, tuple)}
    app.screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
    app._resized()
    app.step(1 / 60)
    lay = table.board.layout
    used = {lay.card_w, lay.trick_w, lay.small_w, lay.pile_w, lay.stock_w}
    kept = {key[-1][0] for key in app.assets._cards if isinstance(key, tuple)}
    assert kept <= used
    assert not (big - used) & kept


def test_a_cache_with_a_budget_keeps_the_latest_within_it() -> None:
    cache: LRU[pygame.Surface] = LRU(100, surface_bytes, budget=3 * 40 * 40 * 4)
    for i in range(10):
        cache.get_or_make(i, lambda: pygame.Surface((40, 40), pygame.SRCALPHA))
    assert list(cache) == [7, 8, 9]
    assert cache.weight == 3 * 40 * 40 * 4
    del cache[8]
    assert cache.weight == 2 * 40 * 40 * 4


def test_a_region_merges_what_overlaps_and_says_what_it_covers() -> None:
    region = Region((1000, 500), [pygame.Rect(10, 10, 50, 50), pygame.Rect(40, 40, 50, 50)])
    assert region.rects == [pygame.Rect(10, 10, 80, 80)]
    region.add(pygame.Rect(900, 400, 200, 200))  # clipped to the window
    assert pygame.Rect(900, 400, 100, 100) in region.rects
    assert region.covers(pygame.Rect(20, 20, 10, 10))
    assert not region.covers(pygame.Rect(80, 80, 20, 20))
    assert not region.too_big
    region.add(pygame.Rect(0, 0, 1000, 300))
    assert region.too_big


def test_a_window_uncovered_is_drawn_whole_again(tmp_path: Path) -> None:
    app = make_app((1280, 720), lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    assert run_until(app, lambda: table.awaiting_human and not table.busy)
    app.step(1 / 60)
    composer = table.painter.composer
    whole, partial = composer.whole_frames, composer.partial_frames
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    app.step(1 / 60)
    assert composer.whole_frames == whole + 1
    app.step(1 / 60)
    assert composer.partial_frames == partial + 1


def test_a_card_that_comes_in_from_outside_the_window_is_drawn_not_forgotten() -> None:
    """A new live card wholly outside the window touches no changed rectangle; it is drawn
    all the same (nothing of it shows), never looked up as if the last frame had drawn it."""
    from briscola.engine import Card
    from briscola.gui.render.sprites import CardRenderer, CardSprite
    from briscola.gui.table.compose import Composer, StillLayer

    app = make_app((640, 360))
    try:
        renderer = CardRenderer(app.assets)
        still = StillLayer(app, renderer, lambda surface: [])
        surface = pygame.Surface((640, 360))
        still.update(surface.get_size(), "base", "marks", [])
        composer = Composer(renderer, still)
        assert composer.frame(surface, None, [], lambda s: [], partial=True) is None
        outside = CardSprite(Card.from_code("AD"), x=-500, y=-500)
        drawn = composer.frame(surface, [], [(outside, True)], lambda s: [], partial=True)
        assert not drawn  # nothing of it is on screen: nothing to update
        inside = CardSprite(Card.from_code("3C"), x=320, y=180)
        rects = composer.frame(surface, [], [(inside, True)], lambda s: [], partial=True)
        assert rects and any(r.collidepoint(320, 180) for r in rects)
    finally:
        app.close()
