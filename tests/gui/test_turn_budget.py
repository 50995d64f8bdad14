"""Cards on the move share one new smoothed turn a frame: a second card that needs a new
angle in the same frame is shown for that frame at the nearest angle already turned, and
drawn again at its own the next frame; cards at rest are always shown at their own angle;
frames drawn in part while that happens are the frames drawn whole; a card turning over
while turned is drawn within its bounds; shadows keep to their own angle at rest."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest
from guihelp import make_app
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.engine import Card
from briscola.gui.app import App
from briscola.gui.render.sprites import TURN_LAG, CardRenderer, CardSprite
from briscola.gui.table.compose import Composer, StillLayer

SIZE = (800, 500)
WIDTH = 120


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
    made = make_app(SIZE)
    yield made
    made.close()


def _renderer(app: App) -> CardRenderer:
    renderer = CardRenderer(app.assets)
    renderer.configure("italian", "classic", {WIDTH}, {WIDTH})
    return renderer


def _moving(code: str, x: float, angle: float) -> CardSprite:
    sprite = CardSprite(Card.from_code(code), x=x, y=250, w=WIDTH, angle=angle, flip=1.0)
    sprite.moving = True
    return sprite


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def _alone(app: App, sprite: CardSprite, angle: float, shadow: bool = True) -> bytes:
    """``sprite`` at ``angle``, at rest, drawn by a fresh renderer on a plain surface."""
    surface = pygame.Surface(SIZE)
    still = CardSprite(sprite.card, x=sprite.x, y=sprite.y, w=sprite.w, angle=angle, flip=1.0)
    _renderer(app).draw(surface, still, shadow=shadow)
    return _pixels(surface)


def test_a_second_card_on_the_move_is_shown_a_frame_at_the_angle_it_had(app: App) -> None:
    renderer = _renderer(app)
    first, second = _moving("AD", 250, 4), _moving("3C", 550, 4)
    surface = pygame.Surface(SIZE)
    renderer.next_frame(1)
    for sprite in (first, second):  # nothing turned near 4 degrees yet: both are turned
        renderer.draw(surface, sprite, shadow=False)
    assert not renderer.lagging
    first.angle = second.angle = 5
    renderer.next_frame(2)
    surface.fill((0, 0, 0))
    painted = [renderer.draw(surface, sprite, shadow=False) for sprite in (first, second)]
    assert renderer.lagging == {id(second)}  # this frame's turn went to the first card
    assert renderer.bounds(second, shadow=False).contains(painted[1])
    right = surface.subsurface((400, 0, 400, 500))
    alone = pygame.image.frombytes(_alone(app, second, 4, shadow=False), SIZE, "RGB")
    assert _pixels(right) == _pixels(alone.subsurface((400, 0, 400, 500)))
    renderer.next_frame(3)
    surface.fill((0, 0, 0))
    renderer.draw(surface, second, shadow=False)
    assert not renderer.lagging
    alone = pygame.image.frombytes(_alone(app, second, 5, shadow=False), SIZE, "RGB")
    assert _pixels(surface.subsurface((400, 0, 400, 500))) == _pixels(
        alone.subsurface((400, 0, 400, 500))
    )


def test_the_same_frame_drawn_again_makes_the_same_choices(app: App) -> None:
    renderer = _renderer(app)
    cards = [_moving(code, 150 + 250 * i, 3) for i, code in enumerate(("AD", "3C", "KB"))]
    renderer.next_frame(1)
    for sprite in cards:
        renderer.draw(pygame.Surface(SIZE), sprite)
    for sprite in cards:
        sprite.angle = 4
    renderer.next_frame(2)
    once, again = pygame.Surface(SIZE), pygame.Surface(SIZE)
    for sprite in cards:
        renderer.draw(once, sprite)
    lagging = set(renderer.lagging)
    renderer.next_frame(2)  # the same frame, drawn whole after it was drawn in part
    for sprite in cards:
        renderer.draw(again, sprite)
    assert len(lagging) >= 2 and renderer.lagging == lagging
    assert _pixels(once) == _pixels(again)


def test_a_card_at_rest_is_always_drawn_at_its_own_angle(app: App) -> None:
    renderer = _renderer(app)
    mover, resting = _moving("AD", 250, 6), _moving("3C", 550, 2)
    resting.moving = False
    renderer.next_frame(1)
    renderer.draw(pygame.Surface(SIZE), mover)
    surface = pygame.Surface(SIZE)
    renderer.draw(surface, resting)  # the frame's turn is spent: it is turned all the same
    assert not renderer.lagging
    assert _pixels(surface) == _alone(app, resting, 2)


@settings(max_examples=12, deadline=None)
@given(
    angles=st.lists(
        st.tuples(st.integers(-12, 12), st.integers(-12, 12), st.booleans()),
        min_size=2,
        max_size=8,
    )
)
def test_frames_drawn_in_part_while_turns_wait_are_the_frames_drawn_whole(
    app: App, angles: list[tuple[int, int, bool]]
) -> None:
    """Two cards on the move change angle frame after frame (or stop moving): every frame
    drawn in part shows what the same frame drawn whole shows."""
    _compare_frames(app, [(0, 0, False), *angles])


def _compare_frames(app: App, angles: list[tuple[int, int, bool]]) -> int:
    """Two cards (the first one sliding) drawn in part frame after frame at ``angles``
    (the second one at rest where it says so), each frame compared with the same frame
    drawn whole; returns the frames in which a card waited for its turn."""
    renderer = _renderer(app)
    still = StillLayer(app, renderer, lambda surface: [])
    composer = Composer(renderer, still)
    screen, whole = pygame.Surface(SIZE), pygame.Surface(SIZE)
    cards = [_moving("AD", 300, 0), _moving("3C", 420, 0)]
    waited = 0
    for frame, (a, b, rest) in enumerate(angles):
        cards[0].angle, cards[1].angle = a, b
        cards[1].moving = not rest
        cards[0].x += 3
        renderer.next_frame(frame)
        live = [(s, True) for s in cards]
        changed = still.update(SIZE, "base", "marks", [])
        composer.frame(screen, changed, live, lambda s: [], partial=True)
        waited += bool(renderer.lagging)
        Composer(renderer, still).frame(whole, None, live, lambda s: [], partial=False)
        assert _pixels(screen) == _pixels(whole), f"frame {frame} differs"
    return waited


def test_a_card_that_waited_for_its_turn_is_drawn_again_though_it_did_not_move(
    app: App,
) -> None:
    # Frame 1: the second card turns to 5 degrees with the first: it waits (shown at 4);
    # frame 2: it has not changed, and is drawn at 5 all the same; frame 3: at rest.
    waited = _compare_frames(app, [(0, 4, False), (5, 5, False), (6, 5, False), (7, 5, True)])
    assert TURN_LAG >= 1 and waited >= 1


def test_a_card_turning_over_while_turned_is_drawn_within_its_bounds(app: App) -> None:
    renderer = _renderer(app)
    surface = pygame.Surface(SIZE)
    for flip in (0.1, 0.3, 0.45, 0.55, 0.7, 0.9):
        for angle in (3, 10, 30, 350):
            for w in (WIDTH, 97.0, 143.0):  # a card growing or shrinking in flight
                sprite = _moving("AD", 400, angle)
                sprite.flip, sprite.w, sprite.air = flip, w, True
                renderer.next_frame(None)
                painted = renderer.draw(surface, sprite)
                assert renderer.bounds(sprite).contains(painted), (flip, angle, w)
