"""The shared store's use of redis-py (briscola/server/batch.py, store.py): the commands of
one event-loop turn go in one pipeline and each caller gets its own reply or error, in the
order of the calls; and what matters when Redis misbehaves: a restarted Redis that forgot
the scripts takes the next write, a stalled Redis is a timeout, not a hang, the pub/sub
listener hears its channel again after Redis comes back, and URLs with a password and a
database work. Against a real ``redis-server`` (tests/redishelp.py)."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redishelp import RedisServer

from briscola.server.batch import Batcher
from briscola.server.store import Store, check_url


@pytest.fixture(scope="module")
def shared_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis for the property test's examples (each uses keys of its own)."""
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


# ---------------------------------------------------------------------------- the batcher


async def client_of(url: str, single: bool) -> aioredis.Redis:
    """A client whose batcher sends the client's way (a pool, redis-py pipelines), or
    (``single``: as the store's hot client) straight through its own connection."""
    again = Retry(NoBackoff(), retries=2, supported_errors=(RedisConnectionError,))
    client = aioredis.Redis.from_url(url, single_connection_client=single, retry=again)
    await client.ping()  # (connected: the batcher's sends go straight through it)
    return client


WAYS = pytest.mark.parametrize("single", [False, True], ids=["pipelines", "own-connection"])


@WAYS
def test_the_commands_of_one_turn_go_in_one_pipeline_each_with_its_own_reply_or_error(
    redis_server: RedisServer, single: bool
) -> None:
    async def scenario() -> None:
        client = await client_of(redis_server.url, single)
        batch = Batcher(client)
        try:
            keys = [f"k{n % 7}" for n in range(300)]
            calls = [batch.call("INCR", key) for key in keys]
            wrong = batch.call("INCR", "k0", "extra")  # a bad command among them
            answers = await asyncio.gather(*calls)
            with pytest.raises(ResponseError):
                await wrong
            assert batch.pipelines == 1 and batch.commands == 301
            # Each key counted 1, 2, 3... in the order its calls were made.
            for key in set(keys):
                mine = [answer for k, answer in zip(keys, answers, strict=True) if k == key]
                assert mine == list(range(1, len(mine) + 1))
            assert await batch.call("GET", "k0") == b"43"  # and the next command goes on
            watcher = redis.Redis.from_url(redis_server.url)
            try:
                if single:  # every command went through the one connection
                    assert watcher.info("clients")["connected_clients"] == 2
                watcher.client_kill_filter(_type="normal", skipme=True)  # connections cut
            finally:
                watcher.close()
            # The next commands find out and go again, the client's way, which connects.
            again = [batch.call("INCR", "k1"), batch.call("INCR", "k1", "extra")]
            replies = await asyncio.gather(*again, return_exceptions=True)
            assert replies[0] == 44 and isinstance(replies[1], ResponseError)
            assert await batch.call("INCR", "k1") == 45
        finally:
            await batch.close()
            await client.aclose()

    asyncio.run(scenario())


@WAYS
def test_commands_called_while_a_pipeline_waits_go_in_the_next_one_in_their_order(
    redis_server: RedisServer, single: bool
) -> None:
    async def scenario() -> None:
        client = await client_of(redis_server.url, single)
        batch = Batcher(client)
        try:
            first = [batch.call("RPUSH", "order", n) for n in range(5)]
            await asyncio.sleep(0)  # the first pipeline is on its way
            second = [batch.call("RPUSH", "order", n) for n in range(5, 12)]
            await asyncio.gather(*first, *second)
            assert batch.pipelines == 2
            assert await client.lrange("order", 0, -1) == [b"%d" % n for n in range(12)]
        finally:
            await batch.close()
            await client.aclose()

    asyncio.run(scenario())


# Commands on a few keys of one example: counters, lists, and commands Redis refuses.
COMMAND = st.one_of(
    st.tuples(st.just("INCR"), st.sampled_from(["a", "b"])),
    st.tuples(st.just("RPUSH"), st.sampled_from(["l", "m"]), st.integers(0, 99)),
    st.tuples(st.just("LRANGE"), st.sampled_from(["l", "m"]), st.just(0), st.just(-1)),
    st.tuples(st.just("INCR"), st.just("l")),  # WRONGTYPE once "l" is a list
    st.tuples(st.just("NOSUCHCOMMAND")),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    turns=st.lists(st.lists(COMMAND, min_size=1, max_size=6), min_size=1, max_size=5),
    data=st.data(),
)
@WAYS
def test_batched_commands_answer_exactly_what_the_same_commands_answer_one_by_one(
    shared_redis: RedisServer, single: bool, turns: list[list[tuple[Any, ...]]], data: st.DataObject
) -> None:
    prefix = f"p{data.draw(st.integers(0, 10**9))}:"

    def named(command: tuple[Any, ...], where: str) -> tuple[Any, ...]:
        return (command[0], where + str(command[1]), *command[2:]) if len(command) > 1 else command

    def outcome(reply: Any) -> Any:
        return ("error", type(reply).__name__) if isinstance(reply, Exception) else reply

    async def batched() -> list[Any]:
        client = await client_of(shared_redis.url, single)
        batch = Batcher(client)
        replies: list[Any] = []
        try:
            for turn in turns:  # each turn's commands, then the turns waited for together
                futures = [batch.call(*named(command, prefix + "b")) for command in turn]
                replies.extend(await asyncio.gather(*futures, return_exceptions=True))
        finally:
            await batch.close()
            await client.aclose()
        return [outcome(reply) for reply in replies]

    got = asyncio.run(batched())
    plain = redis.Redis.from_url(shared_redis.url)
    expected: list[Any] = []
    try:
        for command in (command for turn in turns for command in turn):
            try:
                expected.append(plain.execute_command(*named(command, prefix + "s")))
            except ResponseError as exc:
                expected.append(("error", type(exc).__name__))
    finally:
        plain.close()
    assert got == expected


def test_a_closed_batcher_fails_what_it_is_asked_instead_of_waiting(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        client = aioredis.Redis.from_url(redis_server.url)
        batch = Batcher(client)
        await batch.close()
        with pytest.raises(RedisConnectionError, match="closed"):
            await batch.call("PING")
        await client.aclose()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- when Redis misbehaves


def test_a_restarted_redis_that_forgot_the_scripts_takes_the_next_write_and_renewal(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        store = Store(redis_server.url, lease_ms=10_000)
        try:
            lease = await store.acquire("RRRRRR", "a", new=True)
            assert lease is not None
            first = [("SET", "meta", "{}"), ("RPUSH", "moves", '{"a":{"play":"AD"}}')]
            await store.write(lease, first, number=1)
            redis_server.restart()  # the scripts are forgotten; the keys are kept (AOF)
            admin = aioredis.Redis.from_url(redis_server.url)
            assert await admin.script_exists(store._write.sha) == [False]
            # The pool's dropped connection is connected again by redis-py, and the write
            # script is loaded again: the caller sees neither.
            await store.write(lease, [("RPUSH", "moves", '{"a":{"play":"KS"}}')], number=2)
            assert await store.renew_all([lease]) == [True]
            loaded = await store.load("RRRRRR")
            assert loaded is not None
            assert [move["a"]["play"] for move in loaded.moves] == ["AD", "KS"]
            assert await admin.script_exists(store._write.sha) == [True]
            await admin.aclose()
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_stopped_redis_fails_every_waiting_command_and_the_next_ones_connect_again(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        store = Store(redis_server.url)
        try:
            assert await store.publish_text("nobody", "one") == 0
            redis_server.stop()
            outcomes = await asyncio.gather(
                *(store.publish_text("nobody", "two") for _ in range(3)), return_exceptions=True
            )
            assert all(isinstance(each, RedisConnectionError) for each in outcomes), outcomes
            redis_server.start()
            assert await store.publish_text("nobody", "three") == 0
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_stalled_redis_is_a_timeout_error_not_a_hang(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        store = Store(redis_server.url, timeout=0.5)
        try:
            assert await store.publish_text("nobody", "one") == 0
            assert redis_server.proc is not None
            redis_server.proc.send_signal(signal.SIGSTOP)
            try:
                began = time.monotonic()
                with pytest.raises(RedisTimeoutError):
                    await store.publish_text("nobody", "two")
                assert time.monotonic() - began < 5
                # A whole pipeline stalled alike: every command of it times out.
                began = time.monotonic()
                outcomes = await asyncio.gather(
                    *(store.batch.call("ECHO", f"late{n}") for n in range(3)),
                    return_exceptions=True,
                )
                assert all(isinstance(each, RedisTimeoutError) for each in outcomes), outcomes
                assert time.monotonic() - began < 5
            finally:
                redis_server.proc.send_signal(signal.SIGCONT)
            # The late replies never answer the next commands: each gets its own.
            assert await store.publish_text("nobody", "three") == 0
            assert await store.batch.call("ECHO", "alone") == "alone"
            words = [f"next{n}" for n in range(4)]
            assert await asyncio.gather(*(store.batch.call("ECHO", w) for w in words)) == words
        finally:
            await store.close()

    asyncio.run(scenario())


def test_the_listener_hears_its_channel_again_after_redis_restarts(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        heard: asyncio.Queue[str] = asyncio.Queue()
        listener, sender = Store(redis_server.url), Store(redis_server.url)
        try:
            await listener.listen("test", heard.put_nowait)
            assert await sender.publish_text("test", "one") == 1
            assert await asyncio.wait_for(heard.get(), 5) == "one"
            redis_server.restart()
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:  # until redis-py has subscribed again
                try:
                    if await sender.publish_text("test", "two") == 1:
                        break
                except RedisConnectionError:
                    pass
                await asyncio.sleep(0.1)
            assert await asyncio.wait_for(heard.get(), 5) == "two"
        finally:
            await listener.close()
            await sender.close()

    asyncio.run(scenario())


def test_the_listener_hears_every_message_once_in_order_and_no_subscription_noise(
    redis_server: RedisServer,
) -> None:
    """Read straight from the PubSub's connection: a burst arrives whole and in order, and
    a subscription confirmed later (another channel, redis-py's bookkeeping) is not heard."""

    async def scenario() -> None:
        heard: list[str] = []
        listener, sender = Store(redis_server.url), Store(redis_server.url)
        try:
            await listener.listen("test", heard.append)
            sent = [f"o{n}\n{{}}" for n in range(500)]
            await asyncio.gather(*(sender.publish_text("test", text) for text in sent[:250]))
            assert listener._pubsub is not None
            await listener._pubsub.subscribe("briscola:p:other")
            for text in sent[250:]:
                await sender.publish_text("test", text)
            assert await sender.publish_text("other", "elsewhere") == 1
            deadline = time.monotonic() + 10
            while len(heard) < len(sent) + 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert heard == [*sent, "elsewhere"]
        finally:
            await listener.close()
            await sender.close()

    asyncio.run(scenario())


def test_a_password_and_a_database_in_the_url_are_used_and_a_wrong_password_is_said(
    redis_server: RedisServer,
) -> None:
    admin = redis.Redis.from_url(redis_server.url)
    admin.config_set("requirepass", "s3cret")
    admin.close()
    base = f"127.0.0.1:{redis_server.port}"

    async def scenario() -> None:
        store = Store(f"redis://:s3cret@{base}/3")
        try:
            await store.ping()
            assert await store.batch.call("SET", "where", "three") is True
        finally:
            await store.close()
        wrong = Store(f"redis://:wrong@{base}/3")
        with pytest.raises(redis.AuthenticationError):
            await wrong.ping()
        await wrong.close()

    asyncio.run(scenario())
    check = redis.Redis.from_url(f"redis://:s3cret@{base}/3")
    try:
        assert check.get("where") == b"three"
        check.config_set("requirepass", "")
    finally:
        check.close()


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://127.0.0.1:6379/0", "redis://"),
        ("redis://127.0.0.1:6379/zero", "database is a number"),
        ("redis://127.0.0.1:port/0", "Port"),
    ],
)
def test_a_url_that_redis_py_cannot_read_is_refused_with_its_reason(url: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        check_url(url)


def test_the_urls_redis_py_reads_are_accepted_without_connecting() -> None:
    for url in (
        "redis://127.0.0.1:1/0",
        "redis://user:pass@10.0.0.1:6380/2",
        "rediss://briscola.example.org:6380/0",
        "unix:///run/redis.sock?db=1",
    ):
        check_url(url)
