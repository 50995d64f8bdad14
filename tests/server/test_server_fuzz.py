"""Fuzz a live server: thousands of random and mutated messages from several connections
while another table plays. The server stays up, answers every bad message with an error (no
internal error), the other table is untouched, and a normal game completes afterwards."""

from __future__ import annotations

import json
import random
import string
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, open_table, play_all
from briscola.engine import Action, PlayerView, Rules
from briscola.protocol.wire import PROTOCOL
from briscola.server import ServerConfig, ServerThread

MESSAGES = 3000
DEADLINE = 90.0

VALID: list[dict[str, Any]] = [
    {"type": "create", "rules": {"preset": "classic2"}},
    {"type": "create", "rules": {"preset": "chiamata5"}, "seats": [{"kind": "bot"}] * 5},
    {"type": "create", "rules": {"preset": "teams4"}, "seat": 2},
    {"type": "join", "code": "K7MX2Q"},
    {"type": "join", "code": "K7MX2Q", "seat": 1},
    {"type": "resume", "code": "K7MX2Q", "token": "abc"},
    {"type": "ready", "ready": True},
    {"type": "start", "fill_bots": True},
    {"type": "act", "action": {"play": "3S"}, "moves": 0},
    {"type": "act", "action": {"bid": "2/70"}},
    {"type": "act", "action": {"swap": "7D"}},
    {"type": "act", "action": {"call": "AC"}},
    {"type": "act", "action": {"pass": True}},
    {"type": "next"},
    {"type": "leave"},
    {"type": "hello", "protocol": PROTOCOL, "name": "Again"},
]

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1 << 70, 1e308, -0.0, "", "x" * 500, "\u0000", "\ud7ff",
    "💥", [], {}, [[[[[]]]]], {"a": {"b": {"c": {}}}}, "AD", "2/999", "K7MX2Q",
    list(range(50)), {"play": "AD", "swap": "7D"}, "classic2", "bot", "human",
    "\ud800", "\udfff", "a\udc00b", {"\ud800": 1}, ["\udbff"],
]  # fmt: skip


def mutate(rng: random.Random, message: dict[str, Any], codes: list[str]) -> str:
    message = json.loads(json.dumps(message))
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        keys = list(message)
        if choice < 0.3 and keys:
            message[rng.choice(keys)] = rng.choice(ODD_VALUES)
        elif choice < 0.45 and keys:
            del message[rng.choice(keys)]
        elif choice < 0.6:
            key = rng.choice(["type", "code", "action", "rules", "seat", "seats", "zz", "\ud800"])
            message[key] = rng.choice(ODD_VALUES)
        elif choice < 0.75 and codes:
            message["code"] = rng.choice(codes)  # a real table's code
        elif choice < 0.85:
            message["type"] = rng.choice(["act", "join", "resume", "create", "start", "nope"])
        else:
            message["rules"] = {
                "preset": rng.choice(["classic2", "x", 3]),
                "players": rng.choice(ODD_VALUES),
            }
    text = json.dumps(message)
    roll = rng.random()
    if roll < 0.1:
        cut = rng.randrange(len(text))
        text = text[:cut]
    elif roll < 0.15:
        text = "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 200)))
    elif roll < 0.18:
        text = "[" * rng.randint(10, 3000) + "]" * rng.randint(0, 10)
    return text


class Fuzzer:
    def __init__(self, url: str, seed: int, codes: list[str]) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.codes = codes
        self.replies: dict[str, int] = {}
        self.reconnects = 0

    def connect(self) -> ClientConnection:
        return connect(self.url, open_timeout=10, proxy=None, max_size=None)

    def note(self, text: str | bytes) -> dict[str, Any]:
        message = json.loads(text)
        key = message.get("code") or message.get("type")
        self.replies[key] = self.replies.get(key, 0) + 1
        return dict(message)

    def drain(self, ws: ClientConnection) -> None:
        while True:
            try:
                self.note(ws.recv(timeout=0))
            except TimeoutError:
                return

    def settle(self, ws: ClientConnection) -> None:
        """Wait until every message sent so far has been answered."""
        ws.send(json.dumps({"type": "sentinel"}))
        while self.note(ws.recv(timeout=30)).get("ref") != "sentinel":
            pass

    def run(self, count: int) -> None:
        sent = 0
        while sent < count:
            with self.connect() as ws:
                ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "name": "Fuzz"}))
                try:
                    while sent < count:
                        ws.send(mutate(self.rng, self.rng.choice(VALID), self.codes))
                        sent += 1
                        self.drain(ws)
                    self.settle(ws)
                except ConnectionClosed:
                    self.reconnects += 1


def chooser(seed: int) -> Callable[[PlayerView], Action]:
    return make_bot("random", random.Random(seed)).choose


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(
        port=0,
        records=tmp_path,
        rate=100_000.0,
        burst=100_000,
        failed_joins=1_000_000,
        ping_interval=None,
        max_tables=50,
        # Every fuzzer comes from 127.0.0.1: the caps per address would refuse the test's
        # own tables (tests/server/test_server_hostile.py checks them).
        max_tables_per_address=1000,
        max_rooms_per_address=1000,
    )
    running = ServerThread(config).start()
    yield running
    running.stop()


def seated_pair(url: str, rules: Rules, seed: int, still: bool = False) -> list[HeadlessPlayer]:
    """Two players seated and ready; ``still`` ones do not move until given a chooser."""
    host = HeadlessPlayer(NetClient(url, "Host").start(), None if still else chooser(seed))
    guest = HeadlessPlayer(NetClient(url, "Guest").start(), None if still else chooser(seed + 1))
    open_table(host, rules)
    guest.client.join(host.table["table"])
    guest.client.ready()
    host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
    return [host, guest]


def test_thousands_of_random_and_mutated_messages_end_nothing_and_touch_no_other_table(
    server: ServerThread,
) -> None:
    # A table mid-game whose code the fuzzers know.
    pair = seated_pair(server.url, Rules.preset("classic2", match="first-to-3"), 1, still=True)
    code = pair[0].table["table"] if pair[0].table else ""
    pair[0].client.start_game()
    for p in pair:
        p.run_until(lambda q: q.view is not None, 10)
    fuzzers = [Fuzzer(server.url, seed, [code]) for seed in range(3)]
    threads = [threading.Thread(target=f.run, args=(MESSAGES // len(fuzzers),)) for f in fuzzers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    assert not any(thread.is_alive() for thread in threads)
    stats = server.server.stats
    assert stats.errors["internal"] == 0, "a message reached a bug"
    answered = sum(sum(f.replies.values()) for f in fuzzers)
    print(
        "fuzz replies:",
        answered,
        {
            k: sum(f.replies.get(k, 0) for f in fuzzers)
            for k in sorted({k for f in fuzzers for k in f.replies})
        },
    )
    assert answered > MESSAGES // 2
    # Nobody but its players moved at the table under attack.
    table = server.call(lambda: server.server.tables[code])
    assert table.moves == 0 and table.phase == "playing"
    assert [s.name for s in table.seats] == ["Host", "Guest"]
    # It plays on to its end, and a new table completes a game.
    for seed, p in enumerate(pair):
        p.choose = chooser(seed)
        p.move_if_due()
    fresh = seated_pair(server.url, Rules.preset("chiamata5"), 7)
    fresh[0].client.start_game(fill_bots=True)
    try:
        play_all([*pair, *fresh], lambda q: q.match_over, DEADLINE)
    finally:
        for p in [*pair, *fresh]:
            p.client.close()
    assert all(not p.errors or {e["code"] for e in p.errors} == {"stale"} for p in pair)
