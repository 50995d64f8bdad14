"""Partial frames: the table drawn only where it changed shows the very pixels of the same
frame drawn whole, at every moment of a seeded hand (the deal, cards in flight, a trick
taken, the player's turn with a card hovered), with every deck; and card images follow the
layout in use rather than every size ever drawn."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from guihelp import make_app, run_until, start, wait_for

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
    # Name plates and information lines were left as they were, not drawn again each frame.
    assert table.painter.composer.kept_pieces > 0


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


def test_a_region_keeps_far_rectangles_apart_and_covers_what_they_cover_together() -> None:
    # An L of a card at the top left and a long strip at the bottom: their bounding box
    # would be most of the window, restored for nothing.
    card, strip = pygame.Rect(0, 0, 100, 160), pygame.Rect(0, 170, 1000, 40)
    region = Region((1000, 500), [card, strip])
    assert sorted(map(tuple, region.rects)) == sorted([tuple(card), tuple(strip)])
    assert region.area == card.width * card.height + strip.width * strip.height
    # Two overlapping rectangles kept apart still cover what straddles them.
    tall, wide = pygame.Rect(100, 0, 60, 400), pygame.Rect(0, 100, 600, 60)
    cross = Region((1000, 500), [tall, wide])
    assert len(cross.rects) == 2
    assert cross.covers(pygame.Rect(110, 90, 40, 60))  # from one into the other
    assert not cross.covers(pygame.Rect(150, 150, 30, 30))  # a corner outside both
    # Past the limit the two that waste least merge, not everything into one box.
    many = Region((4000, 4000), [pygame.Rect(i * 300, (i % 2) * 2000, 50, 50) for i in range(13)])
    assert len(many.rects) == 12
    assert many.area < 4000 * 4000 // 50


@pytest.mark.parametrize("deck", ["italian", "french"])
def test_cards_turned_on_the_move_at_a_large_window_match_the_whole_frame(
    deck: str, tmp_path: Path
) -> None:
    """At 2560x1440 the cards on the move are turned once per angle and scaled (their
    images and shadows kept apart from those at rest; shadows turned without smoothing):
    frames drawn in part still match the whole frames (a card that comes to rest is drawn
    again, with its shadow at rest, as a whole frame draws it)."""
    app = make_app((2560, 1440), deck=deck, lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    _compared, partial = _play_comparing(app, table, 1)
    assert partial > 0
    renderer = table.renderer
    assert len(renderer._flying) > 0  # something was turned on the move


def test_faces_at_the_hand_width_are_only_those_of_the_hand_and_what_flies(
    tmp_path: Path,
) -> None:
    app = make_app((1920, 1080), lang="en", settings_path=tmp_path / "s.json")
    table = start(app, TableScene(app, _seeded()))
    assert isinstance(table, TableScene)
    assert run_until(app, lambda: table.awaiting_human and not table.busy)
    assert run_until(app, lambda: not table.renderer.cold)
    lay = table.board.layout
    style = app.settings.deck_style

    def faces_at(width: int) -> set[str]:
        size = (width, round(width * 1.6))
        return {k[2] for k in app.assets._cards if k[0] == "face" and k[3] == size}

    hand = {s.card.code for s in table.my_hand() if s.card is not None}
    briscola = table.board.briscola
    assert faces_at(lay.card_w) == hand
    if briscola is not None and briscola.card is not None:
        assert faces_at(lay.stock_w) == {briscola.card.code}
    assert len(faces_at(lay.trick_w)) == 40  # any card may be played: the whole deck
    played = table.legal_cards()[0]
    table.play_card(played)
    assert run_until(app, lambda: not table.busy and played.code not in faces_at(lay.card_w))
    assert app.assets.has_face(played, style, lay.trick_w)


def test_a_face_made_in_the_background_is_the_face_made_at_once(tmp_path: Path) -> None:
    from briscola.engine import Card

    app = make_app((1280, 720), settings_path=tmp_path / "s.json")
    try:
        assets = app.assets
        card = Card.from_code("7S")
        at_once = pygame.image.tobytes(assets.card_face(card, "italian", 211), "RGBA")
        assets.prepare_face(card, "italian", 173)
        assert assets.has_face(card, "italian", 173)
        background = assets.card_face(card, "italian", 173)  # waits for the job if need be
        assets.keep_card_widths(set())
        assert not assets.has_face(card, "italian", 173)
        assets.prepare_face(card, "italian", 211)
        assert wait_for(app, lambda: (assets.collect(), assets.face_ready(card, "italian", 211))[1])
        again = pygame.image.tobytes(assets.card_face(card, "italian", 211), "RGBA")
        assert again == at_once
        assert background.get_size() == (173, round(173 * 1.6))
        assert assets.preparing == 0
    finally:
        app.close()


def test_large_buffers_go_back_to_the_system_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ctypes
    import sys

    from briscola.gui.render import display

    assert not display.return_large_buffers({"MALLOC_MMAP_THRESHOLD_": "65536"})
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not display.return_large_buffers({})
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", _no_glibc)
    assert not display.return_large_buffers({})  # musl and the like: nothing to ask


def _no_glibc(name: str) -> object:
    raise OSError(f"{name}: not found")


def test_chrome_that_grows_out_of_the_region_is_drawn_again_only_there() -> None:
    """A panel of the chrome grows over a card and the felt beyond what the frame restored
    (a longer line, a tag that appears): only there is the frame drawn again, and it shows
    what the frame drawn whole shows, the panel's translucent pixels blended once."""
    from briscola.engine import Card
    from briscola.gui.render.sprites import CardRenderer, CardSprite
    from briscola.gui.table.compose import Composer, StillLayer

    app = make_app((640, 360))
    try:
        renderer = CardRenderer(app.assets)
        renderer.configure("italian", "classic", {80}, {80})
        still = StillLayer(app, renderer, lambda surface: [])
        lying = CardSprite(Card.from_code("KB"), x=200, y=180, w=80, angle=8, flip=1.0)
        moving = CardSprite(Card.from_code("AD"), x=420, y=180, w=80, flip=1.0)
        panel = pygame.Surface((60, 40), pygame.SRCALPHA)
        panel.fill((250, 240, 200, 150))
        width = {"now": 60}

        def chrome(surface: pygame.Surface) -> list[pygame.Rect]:
            box = pygame.Rect(150, 150, width["now"], 40)
            surface.blit(pygame.transform.scale(panel, box.size), box)
            return [box]

        screen, whole = pygame.Surface((640, 360)), pygame.Surface((640, 360))
        composer = Composer(renderer, still)
        placed = [(lying, True)]
        changed = still.update(screen.get_size(), "base", "marks", placed)
        composer.frame(screen, changed, [(moving, True)], chrome, partial=True)
        for step, grow in enumerate((0, 90, 0, 160, 20)):
            moving.x -= 4
            width["now"] += grow
            changed = still.update(screen.get_size(), "base", "marks", placed)
            rects = composer.frame(screen, changed, [(moving, True)], chrome, partial=True)
            assert rects is not None, f"frame {step} drawn whole ({composer.why})"
            Composer(renderer, still).frame(whole, None, [(moving, True)], chrome, partial=False)
            assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(whole, "RGB")
        assert composer.retries == 3
    finally:
        app.close()


def test_chrome_pieces_that_did_not_change_are_left_as_they_were_unless_a_card_touches_them() -> (
    None
):
    """A name plate whose key (everything it shows) is the last frame's, and that nothing
    changed touches, is neither restored nor drawn again; one that a moving card passes
    under, or whose key changed, is drawn again; every frame is the frame drawn whole."""
    from briscola.engine import Card
    from briscola.gui.render.damage import Piece
    from briscola.gui.render.sprites import CardRenderer, CardSprite
    from briscola.gui.table.compose import Composer, StillLayer

    app = make_app((640, 360))
    try:
        renderer = CardRenderer(app.assets)
        renderer.configure("italian", "classic", {80}, {80})
        still = StillLayer(app, renderer, lambda surface: [])
        moving = CardSprite(Card.from_code("AD"), x=60, y=200, w=80, flip=1.0)
        draws = {"near": 0, "far": 0}
        colour = {"far": (250, 240, 200, 150)}

        def plate(name: str, box: pygame.Rect) -> Piece:
            def draw(surface: pygame.Surface) -> list[pygame.Rect]:
                draws[name] += 1
                panel = pygame.Surface(box.size, pygame.SRCALPHA)
                panel.fill(colour.get(name, (40, 60, 200, 120)))
                surface.blit(panel, box)
                return [box]

            return (name, (name, colour.get(name)), draw)

        pieces = [
            plate("near", pygame.Rect(200, 170, 90, 40)),
            plate("far", pygame.Rect(480, 20, 120, 30)),
        ]
        screen, whole = pygame.Surface((640, 360)), pygame.Surface((640, 360))
        composer = Composer(renderer, still)
        changed = still.update(screen.get_size(), "base", "marks", [])
        composer.frame(screen, changed, [(moving, True)], lambda s: [], True, pieces)
        near_at: list[int] = []
        for step in range(12):
            moving.x += 25  # through the near plate, never near the far one
            if step == 9:
                colour["far"] = (200, 80, 80, 150)
                pieces[1] = plate("far", pygame.Rect(480, 20, 120, 30))
            before = draws["near"]
            changed = still.update(screen.get_size(), "base", "marks", [])
            rects = composer.frame(screen, changed, [(moving, True)], lambda s: [], True, pieces)
            assert rects is not None, f"frame {step} drawn whole ({composer.why})"
            if draws["near"] > before:
                near_at.append(step)
            counted = dict(draws)
            Composer(renderer, still).frame(
                whole, None, [(moving, True)], lambda s: [], False, pieces
            )
            draws.update(counted)
            assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(whole, "RGB")
        # The far plate: drawn by the first frame, then only when its colour changed.
        assert draws["far"] == 2
        # The near plate: again only while the card was over it (x from 85 to 360).
        assert near_at, "the card never touched the near plate"
        assert near_at[0] > 0 and near_at[-1] < 11  # not before it came, nor after it left
        assert near_at == list(range(near_at[0], near_at[-1] + 1))
        assert composer.kept_pieces > 0
    finally:
        app.close()
