"""The Review screen: the review runs on a worker thread behind a progress bar, then the
player steps through the cards it played; a review kept in the record shows at once."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
from enginehelp import ace_on_a_trumped_trick
from guihelp import DT, key, start, wait_for

from briscola.coach import review
from briscola.gui.app import App
from briscola.gui.scenes.review import ReviewScene, kept_review

#: A review takes a while on a busy machine.
REVIEW_SECONDS = 120.0


def test_the_review_runs_behind_a_progress_bar_then_steps_through_the_cards(app: App) -> None:
    record = ace_on_a_trumped_trick()
    scene = ReviewScene(app, record, seat=0, budget=1500, seed=3)
    start(app, scene)
    assert scene.running
    surface = pygame.Surface((1280, 720))
    scene.draw(surface)  # the progress bar draws before any result
    assert wait_for(app, lambda: not scene.running, REVIEW_SECONDS)
    app.step(DT)  # the frame after the result enables the buttons
    assert scene.error is None and scene.result is not None
    assert scene.result.to_json() == review(record, 0, budget=1500, seed=3).to_json()
    assert scene.done == scene.total == 20
    assert scene.index == 0 and not scene.previous.enabled and scene.next.enabled
    key(app, pygame.K_RIGHT)
    assert scene.index == 1
    key(app, pygame.K_END)
    assert scene.index == 19 and not scene.next.enabled
    key(app, pygame.K_c)
    assert scene.move is not None and scene.move == scene.result.costliest()
    assert scene.move.loss >= scene.result.moves[0].loss  # the Ace on the trumped trick, or worse
    scene.draw(surface)
    key(app, pygame.K_ESCAPE)
    app.apply_requests()
    assert scene not in app.scenes


def test_a_review_kept_in_the_record_shows_at_once_and_a_bad_record_says_why(app: App) -> None:
    record = ace_on_a_trumped_trick()
    made = review(record, 0, budget=800, seed=1)
    kept = dict(record, review=[made.to_json()])
    assert kept_review(kept, 0) == made and kept_review(kept, 1) is None
    scene = ReviewScene(app, kept, seat=0)
    start(app, scene)
    assert not scene.running and scene.result == made
    broken = dict(record, tricks=record["tricks"][:3] + [{"leader": 9}])
    bad = ReviewScene(app, broken, seat=0, budget=100)
    start(app, bad)
    assert wait_for(app, lambda: not bad.running, REVIEW_SECONDS)
    assert bad.error is not None and "trick 4" in bad.error
    bad.draw(pygame.Surface((1280, 720)))
