"""The commands of one event-loop turn sent to Redis together, through redis-py (``--redis``).

Every move of a table kept in Redis costs a fenced write (a Lua script) and, for a player
connected to another process, a ``PUBLISH`` per frame; hundreds of tables make them at
once. :class:`Batcher` collects the commands called during one turn of the event loop and
sends them as one redis-py pipeline (``transaction=False``: no ``MULTI``, each command
stands alone), then gives each caller its own reply, or its own error: one failing command
never fails the others. While one pipeline waits for its replies, the commands called
meanwhile wait too and go together in the next one: commands reach Redis in the order they
were called, one pipeline at a time. While the client's own connection is up (the store's
hot client is a ``single_connection_client``), a send goes straight through it: redis-py's
``Connection`` packs the commands, sends them in one write and reads each reply (see
:meth:`Batcher._direct`); otherwise, and after a connection failed, a lone command is a
plain call of the client and several are a redis-py pipeline.

Scripts go as ``EVALSHA`` of a script registered with redis-py (``register_script``); one
that Redis does not know (``NOSCRIPT``: a restarted Redis forgets its scripts) is run again
through the registered script, which loads it and runs it. A connection error fails every
command of the pipeline with that error (after redis-py's own retries, the client's
``retry`` option); the callers decide whether to send again.

A stalled Redis (one that holds the connection but never answers) fails the commands of a
send with ``TimeoutError`` after ``timeout`` seconds: one watchdog for the whole send (an
``asyncio.timeout`` around it), not one per command. The hot path's connections are made
without redis-py's ``socket_timeout``, which wraps every send in ``asyncio.wait_for`` (a
task of its own per call, the biggest single part of a lone call's cost); after a watchdog
fired, the connections are dropped (a late reply can never be taken for the next
command's) and the next send connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

__all__ = ["Batcher"]

Arg = str | bytes | int | float


@dataclass
class _Call:
    args: tuple[Arg, ...]
    future: asyncio.Future[Any]
    #: A script's call: the script, its keys and its arguments.
    script: AsyncScript | None = None
    keys: tuple[str | bytes, ...] = ()
    rest: tuple[Arg, ...] = ()


class Batcher:
    """Commands for one Redis client, sent in pipelines of one event-loop turn each; a send
    that has no reply in ``timeout`` seconds fails with ``TimeoutError`` (None: waits)."""

    def __init__(self, redis: aioredis.Redis, timeout: float | None = None) -> None:
        self.redis = redis
        self.timeout = timeout
        self._queue: list[_Call] = []
        self._task: asyncio.Task[None] | None = None
        #: Set while the sender waits for a command: the next one wakes it.
        self._wake: asyncio.Future[None] | None = None
        self._closed = False
        #: Sends (pipelines, or single calls) and the commands in them (for the tests).
        self.pipelines = 0
        self.commands = 0

    def call(self, *args: Arg) -> asyncio.Future[Any]:
        """Send one command with the others of this turn; its reply (raises the command's
        own ``ResponseError``, or the ``RedisError`` that failed the whole pipeline)."""
        return self._add(_Call(args, self._future()))

    def script(
        self, script: AsyncScript, keys: Sequence[str | bytes], args: Sequence[Arg]
    ) -> asyncio.Future[Any]:
        """Run a registered script (``EVALSHA``) with the others of this turn."""
        call = _Call(("EVALSHA", script.sha, len(keys), *keys, *args), self._future())
        call.script, call.keys, call.rest = script, tuple(keys), tuple(args)
        return self._add(call)

    async def close(self) -> None:
        """Send nothing more: what is waiting fails with ``ConnectionError``."""
        self._closed = True
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._fail(self._queue, RedisConnectionError("the Redis client is closed"))
        self._queue = []

    # ------------------------------------------------------------------ inside

    @staticmethod
    def _future() -> asyncio.Future[Any]:
        return asyncio.get_running_loop().create_future()

    def _add(self, call: _Call) -> asyncio.Future[Any]:
        if self._closed:
            call.future.set_exception(RedisConnectionError("the Redis client is closed"))
            return call.future
        self._queue.append(call)
        wake = self._wake
        if wake is not None:  # the sender goes on at the next turn, with all of this one
            self._wake = None
            wake.set_result(None)
        elif self._task is None:  # (the first: it starts at the next turn alike)
            self._task = asyncio.get_running_loop().create_task(self._run())
        return call.future

    async def _run(self) -> None:
        """The sender: one task for the batcher's life (a task per send would cost more),
        waiting for the next command whenever the queue is empty."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self._queue:
                    self._wake = loop.create_future()
                    await self._wake
                batch, self._queue = self._queue, []
                try:
                    async with asyncio.timeout(self.timeout):
                        await self._send(batch)
                except TimeoutError:  # the watchdog: Redis holds the connection, silent
                    self._fail(batch, RedisTimeoutError(f"no reply from Redis in {self.timeout} s"))
                    await self._drop()
                except asyncio.CancelledError:
                    self._fail(batch, RedisConnectionError("the Redis client is closed"))
                    raise
        finally:
            self._task = None
            self._wake = None

    async def _drop(self) -> None:
        """Drop the connections whose replies were not read (redis-py connects again)."""
        with contextlib.suppress(Exception):
            if self.redis.connection is not None:
                await self.redis.connection.disconnect(nowait=True)
            await self.redis.connection_pool.disconnect()

    async def _send(self, batch: list[_Call]) -> None:
        self.pipelines += 1
        self.commands += len(batch)
        replies = await self._direct(batch)
        if replies is None and len(batch) == 1:
            await self._one(batch[0])  # alone in its turn: the client's plain call
            return
        if replies is None:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for call in batch:
                        pipe.execute_command(*call.args)
                    replies = await pipe.execute(raise_on_error=False)
            except Exception as exc:  # the connection failed (after redis-py's retries)
                self._fail(batch, exc)
                return
        unknown: list[_Call] = []
        for call, reply in zip(batch, replies, strict=True):
            if call.future.done():
                continue  # (its caller gave up waiting)
            if isinstance(reply, NoScriptError) and call.script is not None:
                unknown.append(call)
            elif isinstance(reply, Exception):
                call.future.set_exception(reply)
            else:
                call.future.set_result(reply)
        for call in unknown:  # Redis forgot the script: the registered script loads it
            await self._one(call)

    async def _direct(self, batch: list[_Call]) -> list[Any] | None:
        """Send ``batch`` straight through the client's own connection, while it is up:
        redis-py packs the commands (``Connection.pack_commands``), sends them in one write
        and reads each reply (``read_response``, parsed by hiredis), without the client's
        per-call wrapping (its lock, retry wrapper and observability hooks) or a pipeline
        taken from the pool, about half of what a lone call or a short pipeline costs.
        Each reply, or the command's own error; None when the connection failed (the
        caller sends the batch again the client's way, which connects again, as
        redis-py's ``retry`` would). A client without a connection of its own (not a
        ``single_connection_client``) always goes the client's way."""
        redis = self.redis
        if redis.connection is None and redis.single_connection_client:
            await redis.initialize()
        conn = redis.connection
        if conn is None or not conn.is_connected:
            return None
        try:
            if len(batch) == 1:
                await conn.send_command(*batch[0].args, check_health=False)
            else:
                packed = conn.pack_commands([call.args for call in batch])
                await conn.send_packed_command(packed, check_health=False)
            replies: list[Any] = []
            for call in batch:
                try:
                    reply = await conn.read_response()
                except ResponseError as exc:  # the command's own error (NOSCRIPT too)
                    replies.append(exc)
                    continue
                name = call.args[0]
                callback = redis.response_callbacks.get(name) if isinstance(name, str) else None
                replies.append(reply if callback is None else callback(reply))
        except (RedisConnectionError, OSError):  # (redis-py dropped the connection)
            return None
        return replies

    async def _one(self, call: _Call) -> None:
        """One command the client's way, or one script run by redis-py (``EVALSHA``,
        loaded on ``NOSCRIPT``)."""
        try:
            if call.script is not None:
                reply = await call.script(keys=call.keys, args=call.rest, client=self.redis)
            else:
                reply = await self.redis.execute_command(*call.args)  # type: ignore[no-untyped-call]
        except Exception as exc:
            if not call.future.done():
                call.future.set_exception(exc)
            return
        if not call.future.done():
            call.future.set_result(reply)

    @staticmethod
    def _fail(batch: list[_Call], error: BaseException) -> None:
        for call in batch:
            if not call.future.done():
                call.future.set_exception(error)
