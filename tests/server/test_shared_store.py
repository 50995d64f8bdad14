"""Tables in Redis (``--redis``): fenced leases, several server processes driving one
service, a table taken over from a process that stopped, and Redis restarted during play.
A real ``redis-server`` runs on a free loopback port (tests/redishelp.py)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from redishelp import RedisServer, free_port
from serverhelp import chooser, hello, player, raw, replies

from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import Rules, replay
from briscola.server import ServerThread
from briscola.server.store import Fenced, Store

DEADLINE = 60.0


@pytest.fixture
def make_server(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> Callable[..., ServerThread]:
    """The shared fixture's servers (tests/server/conftest.py), on this test's Redis with a
    short lease."""

    def make(**options: Any) -> ServerThread:
        return make_server(**{"redis": redis_server.url, "lease_ms": 600, **options})

    return make


def played_cards(p: HeadlessPlayer) -> list[str]:
    """The cards ``p`` saw played in the last hand, in order (a new deal or a ``reset``
    update starts over)."""
    cards: list[str] = []
    deal = None
    for frame in p.frames:
        if frame["type"] != "update":
            continue
        if frame["reset"] or frame["deal"] != deal:
            cards, deal = [], frame["deal"]
        cards.extend(e["card"] for e in frame["events"] if e["event"] == "played")
    return cards


def record_cards(doc: dict[str, Any]) -> list[str]:
    return [card for trick in doc["tricks"] for card in trick["cards"]]


def stored(url: str, code: str, part: str) -> Any:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        key = f"briscola:t:{code}:{part}"
        if part in ("hands", "moves"):
            return [json.loads(item) for item in client.lrange(key, 0, -1)]
        value = client.get(key)
        return None if value is None else json.loads(value) if part != "lease" else value
    finally:
        client.close()


# ---------------------------------------------------------------------------- leases


def test_a_lease_is_held_by_one_process_and_an_owner_that_lost_it_cannot_write(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        one, two = Store(redis_server.url, lease_ms=300), Store(redis_server.url, lease_ms=300)
        try:
            first = await one.acquire("AAAAAA", "one", new=True)
            assert first is not None and first.process == "one"
            await one.write(first, [("SET", "meta", '{"phase": "lobby"}')])
            # A new table's code is taken; the table is driven: nobody else gets it.
            assert await two.acquire("AAAAAA", "two", new=True) is None
            assert await two.acquire("AAAAAA", "two", new=False) is None
            assert await one.renew(first)
            await asyncio.sleep(0.5)  # the owner pauses longer than its lease
            second = await two.acquire("AAAAAA", "two", new=False)
            assert second is not None and second.epoch == first.epoch + 1
            with pytest.raises(Fenced):
                await one.write(first, [("RPUSH", "moves", '{"a": {"play": "AS"}}')])
            assert not await one.renew(first)
            await two.write(second, [("RPUSH", "moves", '{"a": {"play": "3S"}}')])
            assert await two.owner("AAAAAA") == "two"
            loaded = await one.load("AAAAAA")
            assert loaded is not None and loaded.moves == [{"a": {"play": "3S"}}]
            # A table that does not exist cannot be taken over.
            assert await two.acquire("BBBBBB", "two", new=False) is None
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


def test_the_epoch_only_grows_even_when_leases_come_and_go(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        store = Store(redis_server.url, lease_ms=5000)
        try:
            lease = await store.acquire("CCCCCC", "a", new=True)
            assert lease is not None
            await store.write(lease, [("SET", "meta", "{}")])
            epochs = [lease.epoch]
            for name in ("b", "c", "a"):
                await store.release(lease)
                again = await store.acquire("CCCCCC", name, new=False)
                assert again is not None
                lease = again
                epochs.append(lease.epoch)
            assert epochs == sorted(epochs) and len(set(epochs)) == 4
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_write_sent_again_after_its_reply_was_lost_is_applied_once(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        store = Store(redis_server.url, lease_ms=5000)
        try:
            lease = await store.acquire("DDDDDD", "a", new=True)
            assert lease is not None
            await store.write(lease, [("SET", "meta", "{}")], number=1)
            first = [("RPUSH", "moves", '{"a":{"play":"AS"},"by":"human"}')]
            await store.write(lease, first, number=2)
            await store.write(lease, first, number=2)  # the same write again: no second move
            second = [("RPUSH", "moves", '{"a":{"play":"3S"},"by":"human"}')]
            await store.write(lease, second, number=3)
            loaded = await store.load("DDDDDD")
            assert loaded is not None
            assert [move["a"]["play"] for move in loaded.moves] == ["AS", "3S"]
            # A new owner numbers its writes under its own epoch: its first is applied.
            await store.release(lease)
            again = await store.acquire("DDDDDD", "b", new=False)
            assert again is not None
            await store.write(again, [("RPUSH", "moves", '{"a":{"play":"KS"}}')], number=3)
            loaded = await store.load("DDDDDD")
            assert loaded is not None and len(loaded.moves) == 3
        finally:
            await store.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- processes


def test_players_on_two_processes_play_a_whole_match_at_one_table(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> None:
    a, b = make_server(), make_server()
    host = player(a.url, "Host", 0)
    guest = player(b.url, "Guest", 1)
    try:
        code = open_table(host, Rules.preset("classic2", match="best-of-3"))
        guest.client.join(code)
        guest.client.ready()
        all_ready(host)
        host.client.start_game()
        play_all([host, guest], lambda p: p.match_over, DEADLINE)
        for p in (host, guest):
            assert not p.errors, p.errors
        # The table lives on the process that made it; the guest's messages went through
        # Redis, and its view matches the host's.
        assert code in a.call(lambda: set(a.server.tables))
        assert code not in b.call(lambda: set(b.server.tables))
        hands = stored(redis_server.url, code, "hands")
        assert len(hands) == max(host.hands_seen) >= 2
        for doc in hands:
            assert replay(doc).is_terminal()
        last = host.last("update")
        assert last is not None and last["record"] == hands[-1]
        assert record_cards(hands[-1]) == played_cards(host) == played_cards(guest)
        assert stored(redis_server.url, code, "meta")["phase"] == "over"
    finally:
        host.client.close()
        guest.client.close()


#: Messages a seated player may get wrong: text that is no JSON, a lone surrogate, a card
#: that is no card, a hand that is not over.
WRONG = [
    "not json",
    '{"type": "\\ud800"}',
    '{"type": "act", "action": {"play": "ZZ"}}',
    '{"type": "next"}',
]


def wrong_answers(host_url: str, guest_url: str) -> list[str]:
    """The error codes a guest connected to ``guest_url`` gets for :data:`WRONG` at a started
    table of the process at ``host_url``, and then for a message only a seated player may
    send."""
    host = player(host_url, "Host", 0)
    try:
        with raw(guest_url) as guest:
            code = open_table(host, Rules.preset("classic2"))
            hello(guest, "Guest")
            guest.send(json.dumps({"type": "join", "code": code}))
            replies(guest, lambda m: m["type"] == "joined")
            guest.send(json.dumps({"type": "ready"}))
            host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
            host.client.start_game()
            replies(guest, lambda m: m["type"] == "update")
            codes = []
            for text in [*WRONG, '{"type": "ready"}']:
                guest.send(text)
                codes.append(str(replies(guest, lambda m: m["type"] == "error")["code"]))
            return codes
    finally:
        host.client.close()


def test_a_forwarded_players_wrong_messages_get_the_answers_of_the_owners_own_players(
    make_server: Callable[..., ServerThread],
) -> None:
    """A player on another process sends its messages as they came, read by the owner: it
    is answered as the owner's own players are and keeps its seat."""
    a, b = make_server(), make_server()
    here = wrong_answers(a.url, a.url)
    counted = a.call(lambda: sum(a.server.stats.errors.values()))
    forwarded = wrong_answers(a.url, b.url)
    assert forwarded == here, (forwarded, here)
    # The owner read them (the guest's process relayed them unread).
    assert a.call(lambda: sum(a.server.stats.errors.values())) == 2 * counted
    assert b.call(lambda: sum(b.server.stats.errors.values())) == 0
    assert "no_table" not in here and "internal" not in here
    assert len(set(here)) >= 3, here


def test_a_draining_process_hands_its_table_over_and_the_game_goes_on_elsewhere(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> None:
    a = make_server()
    b = make_server()
    host = player(a.url, "Host", 0)
    back: HeadlessPlayer | None = None
    try:
        code = open_table(
            host, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        )
        joined = host.last("joined")
        assert joined is not None
        host.client.start_game()
        host.run_until(lambda p: len(played_cards(p)) >= 6, DEADLINE)
        host.choose = None
        a.stop()  # SIGTERM: store, release the lease, send everyone away
        assert stored(redis_server.url, code, "lease") is None
        moves_before = stored(redis_server.url, code, "moves")
        # Every frame the process sent before it went: all are queued before the client
        # notes that the connection ended (waited for, not a fixed pause, for a busy machine).
        host.run_until(lambda p: p.client.status in ("reconnecting", "closed", "failed"), 30)
        while host.pump() is not None:
            pass
        host.client.close()
        # The player comes back through the other process with the seat token.
        back = player(b.url, "Host", 0)
        back.choose = None
        back.client.submit({"type": "resume", "code": code, "token": joined["token"]})
        back.run_until(lambda p: p.view is not None, 15)
        assert back.view is not None
        assert stored(redis_server.url, code, "moves") == moves_before
        assert code in b.call(lambda: set(b.server.tables))
        back.choose = chooser(0)
        back.move_if_due()
        back.run_until(lambda p: p.match_over, DEADLINE)
        assert not [e for e in back.errors if e["code"] != "stale"], back.errors
        hands = stored(redis_server.url, code, "hands")
        assert len(hands) == 1 and record_cards(hands[0]) == played_cards(back)
        # The cards played before the hand-over, as stored and as the player saw them, are
        # the record's first cards: nothing lost, nothing played twice.
        before = [m["a"]["play"] for m in moves_before]
        assert record_cards(hands[0])[: len(before)] == before == played_cards(host)
    finally:
        host.client.close()
        if back is not None:
            back.client.close()


def test_redis_restarted_during_play_loses_nothing_already_written(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> None:
    server = make_server(lease_ms=5000)
    host = player(server.url, "Host", 0)
    try:
        code = open_table(
            host, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        )
        host.client.start_game()
        host.run_until(lambda p: len(played_cards(p)) >= 10, DEADLINE)
        host.choose = None  # stop between moves while Redis goes away
        time.sleep(0.3)
        before = stored(redis_server.url, code, "moves")
        redis_server.restart(down=0.5)
        assert stored(redis_server.url, code, "moves") == before  # the append-only file
        host.choose = chooser(0)
        host.move_if_due()
        host.run_until(lambda p: p.match_over, DEADLINE)
        hands = stored(redis_server.url, code, "hands")
        assert len(hands) == 1 and record_cards(hands[0]) == played_cards(host)
    finally:
        host.client.close()


def test_the_command_line_refuses_a_bad_redis_url_and_says_when_redis_cannot_be_reached() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "briscola.server", "--port", "0", "--redis", "localhost:6379"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "--redis needs a URL such as redis://" in bad.stderr
    away = subprocess.run(
        [sys.executable, "-m", "briscola.server", "--port", "0",
         "--redis", f"redis://127.0.0.1:{free_port()}/0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert away.returncode == 1 and "cannot reach Redis at redis://127.0.0.1:" in away.stderr
    assert "Traceback" not in away.stderr
