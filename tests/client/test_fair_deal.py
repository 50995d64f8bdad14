"""Deals no one can choose, end to end (docs/fairness.md): two games play hands at a real
server, each sends its own value, and each checks the deal once the seed is revealed; a
server that deals another deck than the procedure gives is caught by both."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverhelp import session_at_the_deal

from briscola.client.connection import NetClient
from briscola.client.session import RemoteSession
from briscola.engine import Rules
from briscola.engine.fairdeal import commitment, derive_deck
from briscola.game.summary import HandSummary
from briscola.server import ServerConfig, ServerThread
from briscola.server import tables as server_tables

DEADLINE = 60.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(port=0, records=tmp_path, rate=10_000.0, burst=10_000, ping_interval=None)
    running = ServerThread(config).start()
    yield running
    running.stop()


def play_hands(server: ServerThread, rules: Rules, hands: int) -> list[list[HandSummary]]:
    """Two games (each a NetClient and its RemoteSession) play ``hands`` hands, moving at
    random; each one's summaries."""
    host = NetClient(server.url, "Anna").start()
    guest = NetClient(server.url, "Bruno").start()
    try:
        host.create(rules)
        joined = host.wait_for(lambda m: m["type"] == "joined", 10)
        guest.join(joined["table"])
        guest.wait_for(lambda m: m["type"] == "joined", 10)
        guest.ready()
        host.wait_for(lambda m: m["type"] == "table" and m["seats"][1]["ready"], 10)
        host.start_game()
        sessions = [session_at_the_deal(host), session_at_the_deal(guest)]
        summaries: list[list[HandSummary]] = [[], []]
        rng = random.Random(4)
        deadline = time.monotonic() + DEADLINE
        while min(len(done) for done in summaries) < hands:
            assert time.monotonic() < deadline, "the hands did not end"
            for session, done in zip(sessions, summaries, strict=True):
                _step(session, done, rng, len(done) + 1 < hands)
            time.sleep(0.005)
        return summaries
    finally:
        host.close()
        guest.close()


def _step(session: RemoteSession, done: list[HandSummary], rng: random.Random, more: bool) -> None:
    session.advance(0.016, idle=True)
    session.new_events()
    if session.hand_over:
        summary = session.finish_hand()
        if summary is not None and (not done or done[-1] is not summary):
            done.append(summary)
            if more:
                session.next_hand()
        return
    legal = session.legal_actions()
    if legal:
        session.submit(rng.choice(legal))


def proof(summary: HandSummary) -> dict[str, Any]:
    fair: dict[str, Any] = summary.record["meta"]["fair"]
    return fair


def test_two_games_check_every_deal_of_a_match(server: ServerThread) -> None:
    rules = Rules.preset("classic2", match="best-of-3")
    anna, bruno = play_hands(server, rules, 2)
    for first, second in zip(anna, bruno, strict=False):
        mine, theirs = proof(first), proof(second)
        assert mine["verdict"] == theirs["verdict"] == "checked", (mine, theirs)
        assert (mine["seat"], theirs["seat"]) == (0, 1)
        # Each game's own value was used (nonempty: the game sent it), and the deck the
        # record holds is the one the procedure gives.
        assert mine["values"] == theirs["values"] and all(len(v) == 64 for v in mine["values"])
        assert commitment(bytes.fromhex(mine["seed"])) == mine["commit"]
        values = [bytes.fromhex(value) for value in mine["values"]]
        deck = derive_deck(rules, bytes.fromhex(mine["seed"]), values)
        assert first.record["deck"] == [card.code for card in deck]
    assert proof(anna[0])["commit"] != proof(anna[1])["commit"], "each hand its own seed"


def test_a_server_that_deals_another_deck_is_caught_by_both_games(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    def rigged(rules: Rules, seed: bytes, values: Any) -> Any:
        deck = list(derive_deck(rules, seed, values))
        deck[0], deck[1] = deck[1], deck[0]  # the first two cards change places
        return tuple(deck)

    monkeypatch.setattr(server_tables, "derive_deck", rigged)
    anna, bruno = play_hands(server, Rules.preset("classic2"), 1)
    for summary in (anna[0], bruno[0]):
        found = proof(summary)
        assert found["verdict"] == "mismatch", found
        assert "do not fit" in found["reason"]


def test_a_host_who_starts_the_moment_it_is_seated_still_deals_with_its_value(
    server: ServerThread,
) -> None:
    """The seat's commitment comes right after ``joined``, and the client holds ``joined``
    back until it has answered it: a ``start`` sent on seeing the seat goes after the value."""
    for attempt in range(5):
        host = NetClient(server.url, f"Anna {attempt}").start()
        try:
            host.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
            host.wait_for(lambda m: m["type"] == "joined", 10)
            host.start_game()
            session = session_at_the_deal(host)
            done: list[HandSummary] = []
            rng = random.Random(attempt)
            deadline = time.monotonic() + DEADLINE
            while not done:
                assert time.monotonic() < deadline, "the hand did not end"
                _step(session, done, rng, False)
                time.sleep(0.002)
            found = proof(done[0])
            assert found["verdict"] == "checked", found
            assert found["values"][0] == host.fair_values[found["commit"]].hex()
            assert found["values"][1] == "", "a computer player's value is empty"
        finally:
            host.close()
