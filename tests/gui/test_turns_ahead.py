"""Turns made ahead: the images a card on the move will need (turned at the angles it will
pass, scaled to the width it will have next frame) are made on a background thread, and a
frame drawn with them shows the very pixels of the same frame drawn by a renderer that made
them itself; the frame loop turns nothing that was made ahead."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, cast

import pygame
import pytest
from guihelp import make_app, start

from briscola.engine import Card, Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.render import sprites
from briscola.gui.render.ahead import plan_turns
from briscola.gui.render.sprites import CardRenderer, CardSprite
from briscola.gui.render.tween import Tween, linear
from briscola.gui.scenes.table import TableScene
from briscola.storage.autosave import Autosave

SIZE = (800, 500)
WIDTHS = {120, 96}


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
    made = make_app(SIZE)
    yield made
    made.close()


@pytest.fixture(autouse=True)
def _small_cards_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards this small are turned ahead too (the window is small, for speed)."""
    monkeypatch.setattr(sprites, "AHEAD_WIDTH", 0)


def _renderer(app: App) -> CardRenderer:
    """A renderer whose faces, backs and shadows are all made (turns ahead need them)."""
    renderer = CardRenderer(app.assets)
    renderer.configure("italian", "classic", set(WIDTHS), set(WIDTHS))
    deadline = time.monotonic() + 60
    while renderer.cold or not renderer._backs_warm:
        renderer.warm_some()
        assert time.monotonic() < deadline, "the faces were not rasterised"
        time.sleep(0.01)
    return renderer


def _flight(code: str, flip: float = 1.0) -> tuple[CardSprite, list[Tween]]:
    """A card flying from 120 px wide at 0 degrees to 96 px at 8 degrees, a frame in."""
    sprite = CardSprite(Card.from_code(code), x=300, y=250, w=120, angle=0, flip=flip)
    sprite.air = True
    tween = Tween(sprite, 0.5, easing=linear, x=500, y=200, angle=8, w=96)
    tween.update(1 / 60)
    return sprite, [tween]


def _settle(renderer: CardRenderer) -> None:
    """Wait for the worker thread to finish what was planned."""
    deadline = time.monotonic() + 10
    while any(not job.done() for job in renderer.ahead._jobs.values()):
        assert time.monotonic() < deadline, "the worker thread did not finish"
        time.sleep(0.005)


def _drawn(renderer: CardRenderer, sprite: CardSprite, frame: int) -> bytes:
    surface = pygame.Surface(SIZE)
    surface.fill((20, 90, 50))
    renderer.next_frame(frame)
    renderer.draw(surface, sprite)
    return pygame.image.tobytes(surface, "RGB")


def _compare_flight(app: App, sprite: CardSprite, tweens: list[Tween]) -> int:
    """Draw the flight frame after frame by a renderer told what comes (and given the time
    to make it) and by one that makes everything itself; returns the frames compared: those
    where both showed the card and its shadow at their own angle (a renderer short of a
    turn shows a near one for a frame: see ``TURN_LAG`` and ``SHADOW_LAG``)."""
    ahead, alone = _renderer(app), _renderer(app)
    compared = 0
    for frame in range(1, 30):
        plan_turns(ahead, tweens, frame / 60)
        _settle(ahead)
        for tween in tweens:
            tween.update(1 / 60)
        made, own = _drawn(ahead, sprite, frame), _drawn(alone, sprite, frame)
        if not alone.lagging and not ahead.lagging:
            assert made == own, f"frame {frame}"
            compared += 1
    assert ahead.ahead.used > 0  # images made ahead were drawn
    print(f"{compared} frames compared")
    return compared


def test_a_flight_drawn_with_images_made_ahead_is_the_flight_drawn_without(app: App) -> None:
    assert _compare_flight(app, *_flight("AD")) >= 8


def test_images_made_ahead_are_the_images_the_frame_loop_makes(app: App) -> None:
    renderer = _renderer(app)
    renderer.ahead.budget = 1 << 30  # room for all of them
    _sprite, tweens = _flight("2S")
    for frame in range(2):  # the second frame's scale is of an image the first made
        renderer.next_frame(frame)
        plan_turns(renderer, tweens, frame / 60)
        _settle(renderer)
    renderer.next_frame(2)
    made: dict[tuple[Any, ...], pygame.Surface] = {
        cast(tuple[Any, ...], key): image for key, image in renderer.ahead.ready.items()
    }
    assert {key[0] for key in made} >= {"shadow", "2S", "scaled"}
    for key, image in made.items():
        if key[0] == "shadow":
            _shadow, width, lifted, angle = key
            alpha = sprites.SHADOW_ALPHAS[lifted]
            own = pygame.transform.rotate(app.assets.shadow(width, alpha), angle)
        elif key[0] == "scaled":  # next frame's: a turned image (or a face) scaled
            _scaled, source, size = key
            turned = renderer.turned_image(source)
            if source[0] == "face":
                turned = renderer.base(Card.from_code(source[1]), source[2])
            assert turned is not None
            own = pygame.transform.smoothscale(turned, size)
        else:
            code, width, angle, _style, _back = key
            own = sprites._turn(renderer.base(Card.from_code(code), width), angle)
        assert image.get_size() == own.get_size()
        assert pygame.image.tobytes(image, "RGBA") == pygame.image.tobytes(own, "RGBA")


def test_the_frame_loop_turns_nothing_that_was_made_ahead(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    renderer = _renderer(app)
    turned: list[int] = []
    real = sprites._turn

    def counted(image: pygame.Surface, angle: int) -> pygame.Surface:
        turned.append(angle)
        return real(image, angle)

    monkeypatch.setattr(sprites, "_turn", counted)
    renderer.ahead.budget = 1 << 30  # room for every angle (the budget is the next test's)
    sprite, tweens = _flight("3C")
    renderer.next_frame(0)
    plan_turns(renderer, tweens, 0.0)  # the angles it will pass, and where it lands
    _settle(renderer)
    for frame in range(1, 40):
        renderer.next_frame(frame)  # what the worker made is taken in
        renderer.draw(pygame.Surface(SIZE), sprite)
        if not tweens[0].update(1 / 60):
            plan_turns(renderer, tweens, frame / 60)
            _settle(renderer)
    assert turned == []


def test_what_is_made_ahead_stays_within_its_budget(app: App) -> None:
    renderer = _renderer(app)
    sprite, tweens = _flight("7B")
    for frame in range(1, 30):
        renderer.next_frame(frame)
        plan_turns(renderer, tweens, frame / 60)
        ahead = renderer.ahead
        assert sum(ahead._sizes.values()) <= ahead.budget
        renderer.draw(pygame.Surface(SIZE), sprite)
        tweens[0].update(1 / 60)
    _settle(renderer)


def test_a_card_turning_over_in_flight_is_drawn_as_without_images_made_ahead(
    app: App,
) -> None:
    sprite, tweens = _flight("KB", flip=0.0)
    flip = Tween(sprite, 0.4, easing=linear, flip=1.0)
    flip.update(1 / 60)
    tweens.append(flip)
    assert _compare_flight(app, sprite, tweens) >= 8


def test_small_cards_are_turned_by_the_frame_loop_alone(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sprites, "AHEAD_WIDTH", 300)
    renderer = _renderer(app)
    _sprite, tweens = _flight("4C")
    renderer.next_frame(0)
    plan_turns(renderer, tweens, 0.0)
    assert renderer.ahead.budget == 0 and not renderer.ahead._jobs


def test_a_hand_drawn_in_part_with_images_made_ahead_is_the_hand_drawn_whole(app: App) -> None:
    """A seeded hand's deal and first trick, every few frames: the window as the frame drawn
    in part (with the turns and scales made ahead) left it is the frame drawn whole."""
    Autosave().clear()
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 7
    table = start(app, TableScene(app, setup))
    assert isinstance(table, TableScene)
    whole = pygame.Surface(app.size).convert()
    frames = compared = 0
    while not table.session.view().tricks:
        lifts = {id(sprite): sprite.lift for sprite in table.my_hand()}
        app.step(1 / 60)
        frames += 1
        assert frames < 20000, "the hand did not go on"
        if frames % 3 == 0:
            for sprite in table.my_hand():  # drawing eases a hovered card's lift
                sprite.lift = lifts.get(id(sprite), sprite.lift)
            table.draw(whole)
            shown = pygame.image.tobytes(app.screen, "RGB")
            assert shown == pygame.image.tobytes(whole, "RGB"), f"frame {frames} differs"
            compared += 1
        if table.awaiting_human:
            table.play_card(table.legal_cards()[0])
    assert compared > 20 and table.renderer.ahead.used > 0


def test_a_worker_copying_an_image_never_makes_a_blit_of_it_fail() -> None:
    """What the worker relies on (pygame-ce): ``Surface.copy`` keeps Python's lock, so the
    frame loop never blits an image while the worker holds it locked; turning the image
    itself on another thread would (the control)."""
    import threading

    source = pygame.Surface((400, 700), pygame.SRCALPHA)
    target = pygame.Surface((800, 800), pygame.SRCALPHA)
    stop = threading.Event()

    def copy_and_turn() -> None:
        while not stop.is_set():
            pygame.transform.rotozoom(source.copy(), 7, 1.0)

    worker = threading.Thread(target=copy_and_turn)
    worker.start()
    try:
        for _ in range(300):
            target.blit(source, (0, 0))  # raises "Surfaces must not be locked" if held
    finally:
        stop.set()
        worker.join()
