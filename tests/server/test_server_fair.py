"""The server's side of deals no one can choose, seen by a raw client (docs/fairness.md):
``joined`` comes first and the seat's ``commit`` right after it; a value that is not hex is
refused (``bad_value``); one for another commitment is not taken; the deal follows from the
commitment's seed and the values sent, and the reveal after the hand says so."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from serverhelp import hello, raw, replies
from websockets.sync.client import ClientConnection

from briscola.engine import Rules
from briscola.engine.fairdeal import commitment, derive_deck
from briscola.server import ServerConfig, ServerThread


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread(ServerConfig(port=0, ping_interval=None, rate=1e4, burst=10_000))
    running.start()
    yield running
    running.stop()


def against_computers(ws: ClientConnection, rules: Rules) -> None:
    """Say hello and open a table of ``rules`` where computers take the other seats."""
    hello(ws)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (rules.players - 1)
    ws.send(json.dumps({"type": "create", "rules": {"preset": rules.name}, "seats": seats}))


def test_joined_comes_first_then_the_commit_and_a_value_not_hex_is_refused(
    server: ServerThread,
) -> None:
    with raw(server.url) as ws:
        against_computers(ws, Rules.preset("classic2"))
        assert json.loads(ws.recv(timeout=10))["type"] == "joined", "joined first, as before"
        commit = json.loads(ws.recv(timeout=10))
        assert commit["type"] == "commit" and commit["deal"] == 1 and len(commit["commit"]) == 64
        for bad in ("zz", "AB", "0", "00 ff", "00" * 65, 7):
            ws.send(json.dumps({"type": "contribute", "commit": commit["commit"], "value": bad}))
            assert replies(ws, lambda m: m["type"] == "error")["code"] == "bad_value"


@pytest.mark.parametrize("preset", ["classic2", "teams4"])
def test_the_reveal_comes_before_the_last_update_and_fits_it(
    server: ServerThread, preset: str
) -> None:
    rules = Rules.preset(preset)
    with raw(server.url) as ws:
        against_computers(ws, rules)
        commit = replies(ws, lambda m: m["type"] == "commit")["commit"]
        # Another commitment's value is not taken; the last one for this one counts.
        for other, value in (("0" * 64, "aa"), (commit, "0b"), (commit, "0c")):
            ws.send(json.dumps({"type": "contribute", "commit": other, "value": value}))
        ws.send(json.dumps({"type": "start"}))
        frames = []
        while not frames or frames[-1]["type"] != "update" or "record" not in frames[-1]:
            frame = replies(ws, lambda m: m["type"] in ("update", "reveal", "commit"))
            frames.append(frame)
            view = frame.get("view", {})
            if frame["type"] == "update" and view.get("legal") and view["current_player"] == 0:
                ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
        kinds = [frame["type"] for frame in frames]
        assert kinds[-3:] == ["reveal", "commit", "update"] and kinds.count("reveal") == 1
        reveal, last = frames[-3], frames[-1]
        assert reveal["commit"] == commit == commitment(bytes.fromhex(reveal["seed"]))
        assert reveal["values"] == ["0c"] + [""] * (rules.players - 1)
        values = [bytes.fromhex(value) for value in reveal["values"]]
        deck = derive_deck(rules, bytes.fromhex(reveal["seed"]), values)
        assert last["record"]["deck"] == [card.code for card in deck]
        assert frames[-2]["deal"] == 2 and frames[-2]["commit"] != commit


def test_a_seat_that_comes_back_after_the_hand_is_shown_the_reveal_again(
    server: ServerThread,
) -> None:
    with raw(server.url) as ws:
        against_computers(ws, Rules.preset("classic2"))
        joined = replies(ws, lambda m: m["type"] == "joined")
        ws.send(json.dumps({"type": "start"}))
        first = None
        while first is None:
            frame = replies(ws, lambda m: m["type"] in ("update", "reveal"))
            view = frame.get("view", {})
            if frame["type"] == "reveal":
                first = frame
            elif view.get("legal") and view["current_player"] == 0:
                ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
    with raw(server.url) as again:
        hello(again)
        resume = {"type": "resume", "code": joined["table"], "token": joined["token"]}
        again.send(json.dumps(resume))
        frames = [replies(again, lambda m: m["type"] in ("reveal", "update"))]
        frames.append(replies(again, lambda m: m["type"] in ("reveal", "update")))
    assert [frame["type"] for frame in frames] == ["reveal", "update"]
    assert frames[0] == first and frames[1]["reset"] and "record" in frames[1]
