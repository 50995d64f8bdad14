"""Ratings on the dedicated service (server processes on one ``redis-server`` with
``appendfsync always``): the process that drove a rated hand is killed (``kill -9``)
mid-hand, another takes the table over and the hand, finished there, is rated once; the
ratings are still there after Redis restarts; a third process's leaderboard lists both."""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from redishelp import RedisServer, server_process
from serverhelp import hello, raw, replies
from test_rated import kind, play_hand, send
from websockets.sync.client import ClientConnection

from briscola.protocol.naming import key_hash
from briscola.ratings import RatingService
from briscola.server import ServerThread
from briscola.server.ratings import RedisStore


def identified(url: str, opened: list[ClientConnection], name: str, key: str) -> ClientConnection:
    ws = raw(url)
    opened.append(ws)
    assert hello(ws, name)["type"] == "welcome"
    send(ws, type="identify", key=key, name=name)
    assert replies(ws, kind("identity"))["name"] == name
    return ws


def play_moves(players: Sequence[ClientConnection], count: int) -> None:
    """Play the first legal card at each turn until ``count`` moves were made."""
    made = 0
    deadline = time.monotonic() + 30
    while made < count and time.monotonic() < deadline:
        for ws in players:
            try:
                message = json.loads(ws.recv(timeout=0.02))
            except TimeoutError:
                continue
            view = message.get("view") if message["type"] == "update" else None
            if view and view["legal"] and view["current_player"] == view["seat"]:
                send(ws, type="act", action=view["legal"][0], moves=message["moves"])
                made += 1
    assert made >= count
    time.sleep(0.3)  # the last move is journaled


def test_a_hand_driven_by_a_process_killed_mid_hand_is_rated_once_and_survives_redis(
    make_server: Callable[..., ServerThread],
    redis_server: RedisServer,
    tmp_path: Path,
    opened: list[ClientConnection],
) -> None:
    keys = [secrets.token_hex(32), secrets.token_hex(32)]
    log = (tmp_path / "owner.log").open("w")
    proc, url = server_process(redis_server.url, log, "0.6")
    try:
        anna = identified(url, opened, "Anna", keys[0])
        bruno = identified(url, opened, "Bruno", keys[1])
        send(anna, type="create", rules={"preset": "classic2"}, public=True)
        joined = [replies(anna, kind("joined"))]
        code = joined[0]["table"]
        send(bruno, type="join", code=code)
        joined.append(replies(bruno, kind("joined")))
        send(bruno, type="ready")
        time.sleep(0.2)
        send(anna, type="start")
        play_moves([anna, bruno], 6)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
        log.close()
    other = make_server(redis=redis_server.url, lease_ms=600, grace=60.0)
    time.sleep(1.0)  # the dead process's lease runs out
    back = []
    for name, key, seat in zip(("Anna", "Bruno"), keys, joined, strict=True):
        ws = identified(other.url, opened, name, key)
        send(ws, type="resume", code=code, token=seat["token"])
        assert replies(ws, kind("joined"))["table"] == code
        back.append(ws)
    after = play_hand(back)
    told = [[m for m in after[i] if m["type"] == "rated"] for i in (0, 1)]
    assert [len(t) for t in told] == [1, 1]  # rated once, each told once
    ids = [key_hash(key) for key in keys]
    redis_server.restart()  # nothing written is lost (appendfsync always)
    store = RedisStore(redis_server.url)
    service = RatingService(store)
    try:
        assert store.durable()
        ratings = [service.rating("two", p) for p in ids]
        assert [r.games for r in ratings] == [1, 1]
        assert [round(r.ordinal, 1) for r in ratings] == [t[0]["after"] for t in told]
    finally:
        store.close()
    # Another process's leaderboard: both players, by name.
    third = make_server(redis=redis_server.url, lease_ms=600)
    carla = identified(third.url, opened, "Carla", secrets.token_hex(32))
    deadline = time.monotonic() + 10
    board: dict[str, Any] = {}
    while time.monotonic() < deadline:  # (Redis was restarted: the first try may fail)
        send(carla, type="leaderboard", family="two")
        board = replies(carla, lambda m: m["type"] in ("leaderboard", "error"))
        if board["type"] == "leaderboard":
            break
        time.sleep(0.2)
    assert {e["name"] for e in board["top"]} == {"Anna", "Bruno"} and board["you"] is None
