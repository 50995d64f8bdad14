"""The review after a hand: the score screen opens it for the hand's record and the
player's seat, the review is kept in the record, and a replay of that record shows it again
(or offers to make one)."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import DT, click, play_out_by_clicks, start, start_table, wait_for

from briscola.coach import Review
from briscola.engine import Rules
from briscola.game.setup import default_setup
from briscola.gui.app import App
from briscola.gui.scenes.replay import ReplayScene, review_seat
from briscola.gui.scenes.review import ReviewScene, with_review
from briscola.gui.scenes.table import TableScene

pytestmark = pytest.mark.usefixtures("gui_home")
#: A review takes a while on a busy machine.
REVIEW_SECONDS = 120.0


def _play_a_hand(app: App) -> TableScene:
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 4
    scene = start_table(app, setup)
    play_out_by_clicks(app, scene)
    return scene


def test_the_score_screen_opens_the_review_of_the_players_seat_and_keeps_it(app: App) -> None:
    _play_a_hand(app)
    score = app.scene
    assert score is not None
    summary = score.summary  # type: ignore[attr-defined]
    assert summary.viewer == 0 and "review" not in summary.record
    button = score.review_button  # type: ignore[attr-defined]
    assert button in score.buttons  # type: ignore[attr-defined]
    # The cards counted at once: the buttons take clicks.
    score.skip()  # type: ignore[attr-defined]
    app.step(DT)
    click(app, button.rect.center)
    review = app.scene
    assert isinstance(review, ReviewScene)
    assert review.seat == 0 and review.record is summary.record
    assert wait_for(app, lambda: not review.running, REVIEW_SECONDS)
    app.step(DT)
    assert review.result is not None and review.error is None
    # Each card is shown with what the player saw: the trump, the cards already down.
    assert review.context(0).startswith("Trump: ") and "You led this trick." in review.context(0)
    seen = review.views[1]
    assert bool(seen.table) == ("On the table" in review.context(1))
    kept = Review.from_json(summary.record["review"])
    assert kept == review.result and len(kept.moves) == 20
    # A replay of the record shows the kept review at once.
    app.pop()
    app.apply_requests()
    replay = ReplayScene(app, dict(summary.record))
    start(app, replay)
    assert replay.review_seat == 0
    replay.review()
    app.apply_requests()
    again = app.scene
    assert isinstance(again, ReviewScene) and not again.running
    assert again.result == kept


def test_a_replay_offers_a_review_of_its_only_human_and_saves_it_into_the_file(
    app: App, tmp_path: Path
) -> None:
    scene = _play_a_hand(app)
    record = scene.app.scene.summary.record  # type: ignore[union-attr]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    doc = json.loads(path.read_text(encoding="utf-8"))
    replay = ReplayScene(app, doc, path)
    start(app, replay)
    assert replay.review_button in replay.group.widgets
    replay.on_resize(app.size)
    click(app, replay.review_button.rect.center)
    review = app.scene
    assert isinstance(review, ReviewScene) and review.running
    assert wait_for(app, lambda: not review.running, REVIEW_SECONDS)
    app.step(DT)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert Review.from_json(saved["review"]) == review.result


def test_a_record_without_a_known_player_offers_no_review() -> None:
    doc = {"meta": {"players": [{"kind": "bot:hard"}, {"kind": "bot:easy"}]}}
    assert review_seat(doc) is None
    assert review_seat({"meta": {"players": [{"kind": "human"}, {"kind": "human"}]}}) is None
    assert review_seat({"review": {"seat": 1, "moves": []}}) == 1


def test_a_review_of_another_seat_is_kept_beside_the_first() -> None:
    first = Review(seat=0, budget=10, seed=0, moves=())
    second = Review(seat=1, budget=10, seed=0, moves=())
    kept = with_review({"review": first.to_json()}, second)
    assert [d["seat"] for d in kept] == [0, 1]
    assert with_review({"review": first.to_json()}, first) == first.to_json()
