"""The players' stores (briscola.server.registry): the one in memory and the one in Redis
(a real redis-server) keep the same rules; and the operator's commands resolve a target."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from redishelp import RedisServer

from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.naming import name_key
from briscola.server.moderate import Refused, resolve
from briscola.server.moderate import main as moderate
from briscola.server.registry import (
    Ban,
    MemoryRegistry,
    Player,
    RedisRegistry,
    Registry,
    address_target,
    key_target,
)

DAY = 86400.0


def player(pid: str, name: str, at: float = 1000.0) -> Player:
    return Player(pid, name, name_key(name), at)


Check = Callable[[Registry], Coroutine[Any, Any, None]]


def run_on_both(check: Check, redis_server: RedisServer) -> None:
    async def both() -> None:
        await check(MemoryRegistry())
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            await client.flushdb()
            await check(RedisRegistry(client))
        finally:
            await client.aclose()

    asyncio.run(both())


async def code_of(work: Coroutine[Any, Any, Any]) -> ErrorCode:
    with pytest.raises(ProtocolError) as caught:
        await work
    return caught.value.code


def test_a_name_is_one_player_s_and_a_rename_frees_the_old_one_a_day_apart(
    redis_server: RedisServer,
) -> None:
    async def check(store: Registry) -> None:
        ada = await store.register(player("a" * 64, "Ada"))
        assert ada.name == "Ada" and await store.register(player("a" * 64, "Other")) == ada
        assert await code_of(store.register(player("b" * 64, "ADA"))) is ErrorCode.NAME_TAKEN
        await store.register(player("b" * 64, "Bea"))
        assert await code_of(store.rename("a" * 64, "bea", "bea", 2000, DAY)) is (
            ErrorCode.NAME_TAKEN
        )
        renamed = await store.rename("a" * 64, "Adele", name_key("Adele"), 2000, DAY)
        assert renamed.name == "Adele" and renamed.renamed == 2000
        assert (await store.player("a" * 64)) == renamed
        assert await store.by_name("ada") is None  # the old name is free
        assert (await store.register(player("c" * 64, "Ada"))).id == "c" * 64
        soon = store.rename("a" * 64, "Adelina", name_key("Adelina"), 2000 + DAY - 60, DAY)
        assert await code_of(soon) is ErrorCode.RENAME_WAIT
        later = await store.rename("a" * 64, "ADELE", name_key("ADELE"), 2000 + DAY, DAY)
        assert later.name == "ADELE" and (await store.by_name("adele")) == later
        unknown = store.rename("d" * 64, "Dino", "dino", 0, DAY)
        assert await code_of(unknown) is ErrorCode.IDENTIFY_FIRST
        assert [found.id for found in await store.find("aaaaaaaa")] == ["a" * 64]

    run_on_both(check, redis_server)


def test_bans_reports_and_chat_counts(redis_server: RedisServer) -> None:
    async def check(store: Registry) -> None:
        await store.ban(Ban(key_target("a" * 64), "cheating", 5.0, "Ada"))
        await store.ban(Ban(address_target("10.0.0.9"), "flooding", 6.0))
        assert (await store.banned("a" * 64, "10.0.0.1")) == Ban(
            key_target("a" * 64), "cheating", 5.0, "Ada"
        )
        assert (await store.banned(None, "10.0.0.9")) is not None
        assert (await store.banned("b" * 64, "10.0.0.1")) is None
        assert [ban.reason for ban in await store.bans()] == ["cheating", "flooding"]
        assert await store.unban(address_target("10.0.0.9"))
        assert not await store.unban(address_target("10.0.0.9"))
        for n in range(3):
            await store.report({"n": n})
        assert await store.reports(2) == [{"n": 2}, {"n": 1}]
        assert [await store.count("chat", "10.0.0.1", 60) for _ in range(3)] == [1, 2, 3]
        assert await store.count("chat", "10.0.0.2", 60) == 1
        assert await store.count("register", "10.0.0.1", 60) == 1

    run_on_both(check, redis_server)


def test_the_operator_names_a_player_by_name_id_or_an_address() -> None:
    async def check() -> None:
        store = MemoryRegistry()
        await store.register(player("ab12" + "0" * 60, "Zoë Rossi"))
        await store.register(player("ab12" + "1" * 60, "Ugo"))
        assert await resolve(store, "ZOE_ROSSI") == (key_target("ab12" + "0" * 60), "Zoë Rossi")
        assert await resolve(store, "ab120000") == (key_target("ab12" + "0" * 60), "Zoë Rossi")
        assert await resolve(store, "2001:db8::7") == ("address:2001:db8::7", "")
        for target, why in (
            ("ab12", "no player"),  # (too short for an id: read as a name)
            ("ab121", "no player"),
            ("ab12111", "no player"),
            ("Nessuno", "no player"),
            ("!!", "neither a name"),
        ):
            with pytest.raises(Refused, match=why):
                await resolve(store, target)
        await store.register(player("ab12" + "0" * 59 + "2", "Pia"))
        with pytest.raises(Refused, match="2 players have an id starting ab120000"):
            await resolve(store, "ab120000")

    asyncio.run(check())


def test_the_operator_s_commands_refuse_a_bad_line(capsys: pytest.CaptureFixture[str]) -> None:
    for line in (
        ["ban", "Ada", "--redis", "redis://127.0.0.1:9/0"],
        ["ban", "Ada", "--reason", " ", "--redis", "redis://127.0.0.1:9/0"],
        ["bans", "--redis", "http://x"],
    ):
        with pytest.raises(SystemExit) as exited:
            moderate(line)
        assert exited.value.code == 2
    assert moderate(["bans", "--redis", "redis://127.0.0.1:9/0"]) == 1
    assert "cannot reach Redis" in capsys.readouterr().err
