"""What players see of the ratings: the score screen's sentence after a rated hand, the
Statistics screen's leaderboard, own rating and chart fetched from a real in-process
server (and a clear line when the server cannot be reached), the rating beside a name."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import secrets
from typing import Any

import pytest
from guihelp import DT, start
from layoutcheck import make_summary
from redishelp import free_port

from briscola.client.identity import Identities
from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.stats import StatsScene
from briscola.gui.widgets.ratings_view import RatingsView
from briscola.protocol.naming import key_hash
from briscola.server import ServerConfig, ServerThread
from briscola.storage.keys import KeyStore
from briscola.storage.paths import data_dir
from briscola.storage.stats import Stats
from tools.shots_ratings import register

pytestmark = pytest.mark.usefixtures("gui_home")

RATED: dict[str, Any] = {"type": "rated", "family": "two", "before": 3.1, "after": 4.4,
                         "change": 1.3, "sigma": 6.5, "points": 88, "luck": 14.0,
                         "abandoned": False}  # fmt: skip


def drawn(app: App, scene: Any) -> list[str]:
    if isinstance(scene, ScoreScene):
        scene.skip()  # the points counted at once
    app.step(DT)
    return [text.text for text in scene.painter.drawn]


def test_the_score_screen_says_what_a_rated_hand_changed(app: App) -> None:
    summary = make_summary("classic2", seed=3, viewer=0)
    summary.record.setdefault("meta", {})["rated"] = dict(RATED)
    scene = start(app, ScoreScene(app, summary, None, lambda: None, lambda: None))
    said = " ".join(drawn(app, scene))
    assert "Your rating: 3.1 → 4.4 (+1.3): you scored 14 points more than your cards" in said
    plain = make_summary("classic2", seed=3, viewer=0)
    scene = start(app, ScoreScene(app, plain, None, lambda: None, lambda: None))
    assert "Your rating" not in " ".join(drawn(app, scene))


def open_ratings(app: App, identities: Identities) -> tuple[StatsScene, RatingsView]:
    """The Statistics screen over the menu, its ratings asked for and shown."""
    start(app, MenuScene(app))
    view = RatingsView(identities)
    scene = StatsScene(app, Stats(), ratings=view)
    app.push(scene)
    app.apply_requests()
    view.wait()
    scene.toggle_ratings()
    return scene, view


def test_the_statistics_screen_shows_the_leaderboard_from_the_server(app: App) -> None:
    server = ServerThread(ServerConfig(port=0, ping_interval=None)).start()
    try:
        anna, bruno = register(server.url, "Anna"), register(server.url, "Bruno")
        service = server.server.rated.service
        for hand in range(3):
            service.rate_hand("two", [[key_hash(anna)], [key_hash(bruno)]], [90, 30], f"h/{hand}")
        identities = Identities(KeyStore(data_dir()))
        identities.remember(server.url, bruno, "Bruno")
        scene, view = open_ratings(app, identities)
        assert scene.ratings_button.visible
        texts = drawn(app, scene)
        assert "1. Anna" in texts and "2. Bruno" in texts
        assert any(t.startswith("Your rating: ") and "rank 2" in t for t in texts), texts
        assert len(view.result.boards[0].history) == 3  # type: ignore[union-attr]
        scene.next_grouping()  # the next family: nobody rated there
        assert "Nobody is rated here yet." in drawn(app, scene)
    finally:
        server.stop()


def test_a_server_that_cannot_be_reached_is_a_clear_line(app: App) -> None:
    identities = Identities(KeyStore(data_dir()))
    identities.remember(f"ws://127.0.0.1:{free_port()}", secrets.token_hex(32), "Anna")
    scene, _view = open_ratings(app, identities)
    assert any("cannot be reached" in t for t in drawn(app, scene))
