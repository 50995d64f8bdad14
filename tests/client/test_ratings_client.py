"""The Statistics screen's ratings, client side: the leaderboards and the player's history
fetched from a real in-process server with the key kept for it; a sentence when the
server cannot be reached or the player has no key there."""

from __future__ import annotations

import secrets
from pathlib import Path

from redishelp import free_port

from briscola.client.connection import NetClient
from briscola.client.identity import Identities
from briscola.client.ratings import PlayerRatings, RatingsProblem, fetch_ratings
from briscola.protocol.naming import key_hash
from briscola.ratings import FAMILIES
from briscola.server import ServerConfig, ServerThread
from briscola.storage.keys import KeyStore


def test_the_leaderboards_and_the_history_come_from_the_server(tmp_path: Path) -> None:
    server = ServerThread(ServerConfig(port=0, ping_interval=None)).start()
    try:
        identities = Identities(KeyStore(tmp_path))
        key = secrets.token_hex(32)
        identities.remember(server.url, key, "")
        first = fetch_ratings(server.url, identities)
        assert isinstance(first, RatingsProblem)  # a key the server does not know, no name
        identities.remember(server.url, key, "Anna")
        # Anna registers (the game does it at the name prompt); then she plays a rated hand.
        client = NetClient(server.url, "Anna", reconnect=False).start()
        client.identify(key, "Anna")
        while client.incoming.get(timeout=5)["type"] != "identity":
            pass
        client.close()
        service = server.server.rated.service
        service.rate_hand("two", [[key_hash(key)], ["other"]], [90.0, 30.0], "t/1/1")
        got = fetch_ratings(server.url, identities)
        assert isinstance(got, PlayerRatings), got
        assert got.name == "Anna" and [b.family for b in got.boards] == list(FAMILIES)
        two = got.boards[0]
        assert two.you is not None and two.you["rank"] == 1 and two.you["name"] == "Anna"
        assert [e["name"] for e in two.top] == ["Anna", "?"]  # "other" was never a player
        assert len(two.history) == 1 and round(two.history[0]["rating"]) == two.you["rating"]
        assert all(b.top == [] and b.you is None for b in got.boards[1:])
    finally:
        server.stop()


def test_a_server_that_cannot_be_reached_gives_a_sentence(tmp_path: Path) -> None:
    identities = Identities(KeyStore(tmp_path))
    url = f"ws://127.0.0.1:{free_port()}"
    none = fetch_ratings(url, identities)
    assert isinstance(none, RatingsProblem) and "no key" in none.text
    identities.remember(url, secrets.token_hex(32), "Anna")
    got = fetch_ratings(url, identities, timeout=2.0)
    assert isinstance(got, RatingsProblem) and "cannot be reached" in got.text
