"""The writer of a table kept in Redis (briscola/server/link.py), against a store whose
replies the test decides: what a table notes in one turn is one write; a frame waits for
the changes noted before it; a frame to a player of another process that waits for a write
goes in that write (published by its script), never on its own; a write that failed because
Redis was away is sent again with the same number before anything after it; a refused write
(the lease was lost) lets nothing through."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from redis.exceptions import ConnectionError as RedisConnectionError

from briscola.server.config import ServerConfig
from briscola.server.link import Guest, Link
from briscola.server.store import Lease

Op = tuple[str, str, str]


class FakeBatch:
    def __init__(self) -> None:
        self.published: list[tuple[Any, ...]] = []

    def call(self, *args: Any) -> asyncio.Future[Any]:
        self.published.append(args)
        future = asyncio.get_running_loop().create_future()
        future.set_result(1)
        return future


class FakeStore:
    """Writes wait until the test answers them (``reply``)."""

    lease_ms = 3000

    def __init__(self) -> None:
        self.batch = FakeBatch()
        self.operations = 0
        self.writes: list[tuple[list[Op], int | None, asyncio.Future[Any]]] = []

    def write_soon(
        self, lease: Lease, ops: list[Op], closed: bool = False, number: int | None = None
    ) -> asyncio.Future[Any]:
        future = asyncio.get_running_loop().create_future()
        self.writes.append((list(ops), number, future))
        return future

    async def write(
        self, lease: Lease, ops: list[Op], closed: bool = False, number: int | None = None
    ) -> None:
        if not await self.write_soon(lease, ops, closed, number):
            raise AssertionError("the retried write was refused")


class FakeOwner:
    process = "here"

    def __init__(self) -> None:
        self.store = FakeStore()
        self.lost: list[str] = []

    def ops(self, table: Any, kind: str, data: Any) -> list[Op]:
        return [("RPUSH", "moves", f"{kind}:{data}")]

    def lose(self, link: Link, why: str) -> None:
        self.lost.append(why)
        link.stop()

    def forget(self, link: Link) -> None:
        pass


class Local:
    name = "local"

    def __init__(self) -> None:
        self.got: list[str] = []

    def post(self, text: str) -> None:
        self.got.append(text)


async def turn() -> None:
    """Let the loop run what this turn scheduled (the writer's flush, callbacks)."""
    for _ in range(3):
        await asyncio.sleep(0)


def make(owner: FakeOwner) -> tuple[Link, Local, Guest]:
    table = SimpleNamespace(code="ABCDEF")
    link = Link(owner, table, Lease("ABCDEF", "7:here"), new=False)  # type: ignore[arg-type]
    guest = Guest(owner.store, "there", 12, "10.0.0.9", ServerConfig())  # type: ignore[arg-type]
    return link, Local(), guest


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["move", "local", "guest"]), min_size=1, max_size=12))
def test_a_turns_changes_are_one_write_and_a_guests_frames_go_in_it(script: list[str]) -> None:
    async def scenario() -> None:
        owner = FakeOwner()
        link, local, guest = make(owner)
        for n, step in enumerate(script):
            if step == "move":
                link.note(None, "move", n)  # type: ignore[arg-type]
            else:
                link.send(None, local if step == "local" else guest, f"frame {n}")  # type: ignore[arg-type]
        first_move = script.index("move") if "move" in script else len(script)
        # Frames before any change go at once; nothing after the first change has gone.
        early = [f"frame {n}" for n in range(first_move) if script[n] == "local"]
        assert local.got == early
        published = [args[2] for args in owner.store.batch.published]
        assert published == [f"o12\nframe {n}" for n in range(first_move) if script[n] == "guest"]
        await turn()
        if first_move == len(script):
            assert owner.store.writes == []
            return
        assert len(owner.store.writes) == 1  # the whole turn: one write
        ops, number, reply = owner.store.writes[0]
        later = range(first_move, len(script))
        assert [op for op in ops if op[0] == "RPUSH"] == [
            ("RPUSH", "moves", f"move:{n}") for n in later if script[n] == "move"
        ]
        assert [op for op in ops if op[0] == "PUBLISH"] == [
            ("PUBLISH", "there", f"o12\nframe {n}") for n in later if script[n] == "guest"
        ]
        assert number == 1 and local.got == early  # the local frames wait for the reply
        reply.set_result(1)
        await turn()
        assert local.got == [f"frame {n}" for n in range(len(script)) if script[n] == "local"]
        # The guest's frames that waited were not published on their own as well.
        assert len(owner.store.batch.published) == len(published)
        assert link.idle

    asyncio.run(scenario())


def test_what_is_noted_during_a_write_goes_in_the_next_one_after_it() -> None:
    async def scenario() -> None:
        owner = FakeOwner()
        link, local, _guest = make(owner)
        link.note(None, "move", 1)  # type: ignore[arg-type]
        await turn()
        link.note(None, "move", 2)  # type: ignore[arg-type]
        link.send(None, local, "after 2")  # type: ignore[arg-type]
        await turn()
        assert len(owner.store.writes) == 1  # the second waits for the first
        owner.store.writes[0][2].set_result(1)
        await turn()
        assert len(owner.store.writes) == 2 and owner.store.writes[1][1] == 2
        assert local.got == []
        owner.store.writes[1][2].set_result(1)
        await turn()
        assert local.got == ["after 2"] and link.idle

    asyncio.run(scenario())


def test_a_write_that_failed_is_sent_again_with_its_number_before_anything_after_it() -> None:
    async def scenario() -> None:
        owner = FakeOwner()
        link, local, _guest = make(owner)
        link.note(None, "move", 1)  # type: ignore[arg-type]
        link.send(None, local, "after 1")  # type: ignore[arg-type]
        await turn()
        owner.store.writes[0][2].set_exception(RedisConnectionError("Redis went away"))
        await turn()
        link.note(None, "move", 2)  # type: ignore[arg-type]
        for _ in range(200):  # the retry waits a little first
            if len(owner.store.writes) > 1:
                break
            await asyncio.sleep(0.01)
        assert [(ops, number) for ops, number, _ in owner.store.writes[1:]] == [
            ([("RPUSH", "moves", "move:1")], 1)
        ]
        assert local.got == []
        owner.store.writes[1][2].set_result(1)
        await turn()
        assert local.got == ["after 1"]
        assert [(ops, number) for ops, number, _ in owner.store.writes[2:]] == [
            ([("RPUSH", "moves", "move:2")], 2)
        ]

    asyncio.run(scenario())


def test_a_refused_write_loses_the_table_and_lets_no_frame_through() -> None:
    async def scenario() -> None:
        owner = FakeOwner()
        link, local, guest = make(owner)
        link.note(None, "move", 1)  # type: ignore[arg-type]
        link.send(None, local, "after 1")  # type: ignore[arg-type]
        link.send(None, guest, "after 1")  # type: ignore[arg-type]
        await turn()
        owner.store.writes[0][2].set_result(0)  # fenced: another process holds the lease
        await turn()
        link.note(None, "move", 2)  # type: ignore[arg-type]
        link.send(None, local, "after 2")  # type: ignore[arg-type]
        await turn()
        assert owner.lost and local.got == [] and owner.store.batch.published == []
        assert len(owner.store.writes) == 1

    asyncio.run(scenario())
