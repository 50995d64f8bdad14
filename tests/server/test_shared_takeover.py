"""A table taken over from a server process that was killed (``kill -9``) or froze
(``SIGSTOP``, until its lease ran out) answers exactly as the process that drove it
would have: a seat whose person left the match is still played by a computer, without
waiting for the grace period, and its token takes the seat back; once the match is over,
the token of a seat left is refused with ``match_over``, not ``bad_token``. What the memory
server keeps of a seat that left (its ``left`` flag, the tokens of seats given up) is in the
table's ``meta`` in Redis, written with the fenced writes (tests/redishelp.py runs Redis)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redishelp import RedisServer, server_process
from serverhelp import chooser, hello, player, raw, replies, seated_pair

from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import Rules
from briscola.server import ServerThread

DEADLINE = 60.0
#: The lease of the process that is stopped: its table is taken over soon after.
LEASE = "0.6"


@pytest.fixture
def owner(redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A dedicated server process on the test's Redis (the one the test stops): it and
    the URL it listens on. A grace period of a minute: a seat played by a computer in
    these tests is played because its person left, not because the grace ran out."""
    log = (tmp_path / "owner.log").open("w")
    proc, url = server_process(redis_server.url, log, LEASE)
    yield proc, url
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGCONT)
        proc.kill()
    proc.wait(10)
    log.close()


@pytest.fixture
def other(make_server: Callable[..., ServerThread], redis_server: RedisServer) -> ServerThread:
    """The process that takes the table over (in this test's process)."""
    return make_server(redis=redis_server.url, lease_ms=600, grace=60.0)


def stop(proc: subprocess.Popen[str], how: signal.Signals, url: str, code: str) -> None:
    """Kill the owner, or freeze it (it keeps its sockets) until its lease has run out."""
    os.kill(proc.pid, how)
    if how == signal.SIGKILL:
        proc.wait(10)
        return
    client = redis.Redis.from_url(url)
    try:
        deadline = time.monotonic() + 10
        while client.exists(f"briscola:t:{code}:lease"):
            assert time.monotonic() < deadline, "the frozen owner's lease did not run out"
            time.sleep(0.05)
    finally:
        client.close()


def stored_meta(url: str, code: str) -> dict[str, Any]:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        return dict(json.loads(client.get(f"briscola:t:{code}:meta") or "{}"))
    finally:
        client.close()


def stored_hands(url: str, code: str) -> list[dict[str, Any]]:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        return [json.loads(doc) for doc in client.lrange(f"briscola:t:{code}:hands", 0, -1)]
    finally:
        client.close()


def played_cards(p: HeadlessPlayer) -> list[str]:
    """The cards of the hand ``p`` was last sent whole (its latest ``reset`` update) and
    of the updates after it."""
    cards: list[str] = []
    for frame in p.frames:
        if frame["type"] == "update":
            if frame["reset"]:
                cards = []
            cards.extend(e["card"] for e in frame["events"] if e["event"] == "played")
    return cards


def resumed(url: str, code: str, token: str, seed: int) -> HeadlessPlayer:
    """A new client of the process at ``url`` takes the seat of ``token`` back."""
    back = player(url, "Anna", seed)
    back.client.submit({"type": "resume", "code": code, "token": token})
    back.run_until(lambda p: p.view is not None and p.table is not None, DEADLINE)
    return back


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGSTOP], ids=["kill-9", "sigstop"])
def test_a_seat_left_stays_played_by_the_computer_after_a_takeover_and_its_token_returns(
    owner: tuple[subprocess.Popen[str], str],
    other: ServerThread,
    redis_server: RedisServer,
    how: signal.Signals,
) -> None:
    proc, url = owner
    back: HeadlessPlayer | None = None
    guest_back: HeadlessPlayer | None = None
    with raw(url) as guest:
        host, code, host_token, token = seated_pair(url, guest)
        guest.send(json.dumps({"type": "leave"}))
        assert replies(guest, lambda m: m["type"] == "left")["table"] == code
    try:
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["replaced"], 10)
        host.run_until(lambda p: p.moves >= 4, DEADLINE)
        host.choose = None
        assert stored_meta(redis_server.url, code)["seats"][1]["left"] is True
        stop(proc, how, redis_server.url, code)
        host.client.close()
        back = resumed(other.url, code, host_token, 3)
        assert code in other.call(lambda: set(other.server.tables))
        seat = back.table["seats"][1] if back.table else {}
        # As on the process that drove it: the computer plays for the seat left, which is
        # away; a minute's grace is not waited for.
        assert seat["replaced"] is True and seat["away"] is True and seat["connected"] is False
        start = back.moves
        back.run_until(lambda p: p.moves >= start + 6 or p.phase != "playing", 20)
        # The person comes back with the token: the computer stands down.
        guest_back = resumed(other.url, code, token, 4)
        back.run_until(
            lambda p: p.table is not None and not p.table["seats"][1]["replaced"], DEADLINE
        )
        assert stored_meta(redis_server.url, code)["seats"][1]["left"] is False
        if how == signal.SIGSTOP:  # the frozen owner wakes: fenced, it changes nothing
            os.kill(proc.pid, signal.SIGCONT)
        acted = guest_back.acted
        play_all([back, guest_back], lambda p: p.match_over, DEADLINE)
        assert guest_back.acted > acted
        assert not [e for e in back.errors + guest_back.errors if e["code"] != "stale"]
        # The hand as stored is the hand its players saw, the moves of before included.
        hands = stored_hands(redis_server.url, code)
        assert len(hands) == 1
        cards = [card for trick in hands[0]["tricks"] for card in trick["cards"]]
        assert cards == played_cards(back) == played_cards(guest_back)
        assert any(by.startswith("bot:") for by in hands[0]["meta"]["played_by"])
    finally:
        for p in (host, back, guest_back):
            if p is not None:
                p.client.close()


@pytest.mark.parametrize(
    ("how", "ended"),
    [(signal.SIGKILL, "before"), (signal.SIGSTOP, "before"), (signal.SIGKILL, "after")],
    ids=["kill-9-match-over-before", "sigstop-match-over-before", "kill-9-match-over-after"],
)
def test_after_a_takeover_the_token_of_a_seat_left_in_a_finished_match_is_match_over(
    owner: tuple[subprocess.Popen[str], str],
    other: ServerThread,
    redis_server: RedisServer,
    how: signal.Signals,
    ended: str,
) -> None:
    """The match ends before the owner stops, or after (on the process that took the
    table over, which must know the seat was left to give it up then)."""
    proc, url = owner
    back: HeadlessPlayer | None = None
    with raw(url) as guest:
        host, code, host_token, token = seated_pair(url, guest)
        guest.send(json.dumps({"type": "leave"}))
        replies(guest, lambda m: m["type"] == "left")
    try:
        if ended == "before":
            host.run_until(lambda p: p.match_over, DEADLINE)
            meta = stored_meta(redis_server.url, code)
            assert meta["phase"] == "over" and meta["ended"] == [token]
            assert meta["seats"][1]["token"] is None and meta["seats"][1]["left"] is False
        else:
            host.run_until(lambda p: p.moves >= 4, DEADLINE)
            host.choose = None
        stop(proc, how, redis_server.url, code)
        host.client.close()
        if ended == "after":
            back = resumed(other.url, code, host_token, 5)
            back.run_until(lambda p: p.match_over, DEADLINE)
        with raw(other.url) as late:
            hello(late, "Bruno")
            late.send(json.dumps({"type": "resume", "code": code, "token": token}))
            refused = replies(late, lambda m: m["type"] in ("error", "joined"))
            assert refused.get("code") == "match_over", refused
            late.send(json.dumps({"type": "resume", "code": code, "token": "x" * 32}))
            assert replies(late, lambda m: m["type"] == "error")["code"] == "bad_token"
        if back is None:  # the host's seat is still the host's, the table as it was
            back = resumed(other.url, code, host_token, 5)
        assert back.match_over and back.phase == "over"
        back.run_until(lambda p: p.table is not None and not p.table["seats"][1]["claimed"], 10)
    finally:
        for p in (host, back):
            if p is not None:
                p.client.close()


def test_a_player_forwarded_to_an_owner_that_froze_is_taken_over_once_its_lease_runs_out(
    owner: tuple[subprocess.Popen[str], str], other: ServerThread, redis_server: RedisServer
) -> None:
    """The frozen owner still hears its pub/sub channel (so a ping does not tell), but its
    lease runs out: the process that holds the guest's connection takes the table over and
    sends the guest the position again, without waiting for a message from it."""
    proc, url = owner
    host = player(url, "Anna", 0)
    guest = player(other.url, "Bruno", 1)  # its messages are forwarded to the owner
    back: HeadlessPlayer | None = None
    try:
        code = open_table(host, Rules.preset("classic2"))
        joined = host.last("joined")
        assert joined is not None
        guest.client.join(code)
        guest.client.ready()
        all_ready(host)
        host.client.start_game()
        play_all([host, guest], lambda p: p.moves >= 4, DEADLINE)
        host.choose = guest.choose = None
        resets = sum(1 for f in guest.frames if f["type"] == "update" and f["reset"])
        os.kill(proc.pid, signal.SIGSTOP)
        guest.run_until(
            lambda p: sum(1 for f in p.frames if f["type"] == "update" and f["reset"]) > resets,
            15,
        )
        assert code in other.call(lambda: set(other.server.tables))
        host.client.close()
        back = resumed(other.url, code, str(joined["token"]), 3)
        guest.choose = chooser(1)
        guest.move_if_due()
        play_all([back, guest], lambda p: p.match_over, DEADLINE)
        hands = stored_hands(redis_server.url, code)
        cards = [card for trick in hands[-1]["tricks"] for card in trick["cards"]]
        assert cards == played_cards(back) == played_cards(guest)
    finally:
        for p in (host, guest, back):
            if p is not None:
                p.client.close()
