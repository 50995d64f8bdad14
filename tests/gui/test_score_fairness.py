"""An online hand's deal check on the score screen and in the replay (docs/fairness.md):
"Deal checked" in the details when the game's check passed and the record's deck is the
one the revealed seed gives; a warning in plain words when it does not."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from guihelp import make_app, start
from layoutcheck import make_summary, problems, recording, render

from briscola.client.dealcheck import check_deal
from briscola.engine import Rules
from briscola.engine.fairdeal import derive_deck, record_verdict
from briscola.game.driver import MatchDriver, Seat
from briscola.game.summary import HandSummary
from briscola.gui.app import App
from briscola.gui.scenes.replay import ReplayScene
from briscola.gui.scenes.score import ScoreScene

SEED = bytes(range(32))
VALUES = [b"\x01" * 32, b"\x02" * 32]


@pytest.fixture(scope="module")
def app() -> Iterator[App]:
    app = make_app((1024, 600))
    app.settings.reduce_motion = True
    yield app
    app.close()


def online_hand(tamper: bool = False) -> HandSummary:
    """A hand dealt from the procedure's deck and played at random; its record carries the
    proof that seat 0's game made (its seed changed afterwards with ``tamper``)."""
    rules = Rules.preset("classic2")
    driver = MatchDriver(rules, [Seat("You", "human"), Seat("Anna", "human")], random.Random(1))
    state = driver.deal(derive_deck(rules, SEED, VALUES))
    rng = random.Random(2)
    while not state.is_terminal():
        driver.apply(rng.choice(state.legal_actions()))
    commit = hashlib.sha256(SEED).hexdigest()
    reveal: Any = {"type": "reveal", "deal": 1, "commit": commit, "seed": SEED.hex(),
                   "values": [value.hex() for value in VALUES]}  # fmt: skip
    proof = check_deal(rules, 0, state.events_for(0), reveal, commit, VALUES[0])
    assert proof["verdict"] == "checked", proof
    if tamper:
        proof["seed"] = bytes(32).hex()
    summary, _over = driver.finish_hand(viewer=0)
    summary.record["meta"]["fair"] = proof
    return summary


def texts(app: App) -> list[Any]:
    with recording(app) as images:
        record = render(app, images).record
    assert problems(app, record) == []
    return list(record.texts)


def test_the_score_screen_says_deal_checked(app: App) -> None:
    summary = online_hand()
    assert record_verdict(summary.record) == "checked"
    scene = start(app, ScoreScene(app, summary, None, lambda: None, lambda: None))
    assert isinstance(scene, ScoreScene) and scene.done
    drawn = [d for d in texts(app) if d.text.startswith("Deal checked")]
    assert drawn and all(scene.details_box.contains(d.rect) for d in drawn)


def test_a_deal_that_does_not_fit_its_seed_is_a_warning_kept_in_the_record(app: App) -> None:
    summary = online_hand(tamper=True)
    assert record_verdict(summary.record) == "mismatch"
    start(app, ScoreScene(app, summary, None, lambda: None, lambda: None))
    said = " ".join(d.text for d in texts(app))
    assert "Warning: this deal does not match" in said and "Deal checked" not in said


def test_a_hand_on_this_computer_says_nothing_of_a_deal_check(app: App) -> None:
    summary = make_summary("classic2", seed=3, viewer=0)
    assert record_verdict(summary.record) is None
    start(app, ScoreScene(app, summary, None, lambda: None, lambda: None))
    assert not any(d.text.startswith("Deal") for d in texts(app))


def test_the_replay_of_a_checked_hand_says_so_at_its_end(app: App) -> None:
    summary = online_hand()
    scene = start(app, ReplayScene(app, dict(summary.record)))
    assert isinstance(scene, ReplayScene)
    scene.index = len(scene.tricks)
    said = " ".join(d.text for d in texts(app))
    assert "Deal checked" in said
