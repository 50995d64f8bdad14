"""Screenshots of the ratings for docs/ratings.md (run under Xvfb): the Statistics
screen's leaderboard and chart, fetched from an in-process server with a few rated hands,
and the score screen's sentence after a rated hand, at 1024x600 and 1920x1080.

    BRISCOLA_HOME=$(mktemp -d) xvfb-run -a python -m tools.shots_ratings docs/screenshots
"""

from __future__ import annotations

import random
import secrets
import sys
from pathlib import Path

import pygame

from briscola.client.connection import NetClient
from briscola.client.identity import Identities
from briscola.engine import Rules
from briscola.game.driver import MatchDriver, Seat
from briscola.game.summary import HandSummary
from briscola.gui.app import App
from briscola.gui.options import AppOptions
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.stats import StatsScene
from briscola.gui.widgets.ratings_view import RatingsView
from briscola.protocol.naming import key_hash
from briscola.server import ServerConfig, ServerThread
from briscola.storage.keys import KeyStore
from briscola.storage.paths import data_dir
from briscola.storage.stats import Stats

NAMES = ("Zoë", "Marco", "Giulia", "Anna", "Luca", "Sofia", "Pietro")


def register(url: str, name: str) -> str:
    key = secrets.token_hex(32)
    client = NetClient(url, name, reconnect=False).start()
    client.identify(key, name)
    while client.incoming.get(timeout=5)["type"] != "identity":
        pass
    client.close()
    return key


def step(app: App, frames: int = 3) -> None:
    for _ in range(frames):
        app.apply_requests()
        app.step(1 / 60)


def main(folder: Path) -> None:
    server = ServerThread(ServerConfig(port=0, ping_interval=None)).start()
    try:
        keys = {name: register(server.url, name) for name in NAMES}
        service = server.server.rated.service
        rng = random.Random(7)
        strength = {name: i for i, name in enumerate(reversed(NAMES))}
        for hand in range(120):
            a, b = rng.sample(NAMES, 2)
            luck = rng.gauss(0, 12)
            score_a = 60 + 4 * (strength[a] - strength[b]) + luck
            ids = [[key_hash(keys[a])], [key_hash(keys[b])]]
            service.rate_hand("two", ids, [score_a, 120 - score_a], f"shot/{hand}")
        identities = Identities(KeyStore(data_dir()))
        identities.remember(server.url, keys["Anna"], "Anna")
        for size in ((1024, 600), (1920, 1080)):
            app = App(AppOptions(size=size, turbo=True))
            app.settings.reduce_motion = True
            app.reset_to(MenuScene(app))
            view = RatingsView(identities)
            scene = StatsScene(app, Stats(), ratings=view)
            app.push(scene)
            step(app)
            view.wait()
            scene.toggle_ratings()
            step(app)
            pygame.image.save(app.screen, str(folder / f"ratings-{size[0]}.jpg"))
            score = ScoreScene(app, rated_hand(), None, lambda: None, lambda: None)
            app.reset_to(score)
            step(app)
            score.skip()
            step(app, 10)
            pygame.image.save(app.screen, str(folder / f"score-rated-{size[0]}.jpg"))
            app.close()
    finally:
        server.stop()


def rated_hand() -> HandSummary:
    """A hand played at random, and what the server said it changed."""
    rules = Rules.preset("classic2")
    driver = MatchDriver(rules, [Seat("Anna", "human"), Seat("Marco", "human")], random.Random(4))
    state = driver.deal()
    rng = random.Random(5)
    while not state.is_terminal():
        driver.apply(rng.choice(state.legal_actions()))
    summary, _over = driver.finish_hand(viewer=0)
    points = state.outcome().side_points[0]
    summary.record.setdefault("meta", {})["rated"] = {
        "type": "rated", "family": "two", "before": 12.4, "after": 13.6, "change": 1.2,
        "sigma": 2.1, "points": points, "luck": points - 74.0, "abandoned": False,
    }  # fmt: skip
    return summary


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
