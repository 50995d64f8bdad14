"""Fair turns for computer players: every table's bots think in the server's pool, but one
address's tables cannot fill the pool for everyone, nor one table the turns of its address.

A :class:`FairPool` runs at most ``slots`` jobs at a time on an executor and keeps a queue per
key (the address that opened the table), and within it one per table. When a slot frees it
takes the next key in turn (round robin; a key that had nothing waiting goes first), so a
neighbour's computer move waits for the moves already running and at most one of each other
busy address, however many tables that address has. Within the key it takes the table that
has used the pool least lately (seconds of thinking, halved every ``HALF_LIFE`` seconds;
ties: the one queued first): behind one address (a family, an office behind one NAT) a
table where a person plays, whose computers think only after that person's moves, goes
before tables of computers playing each other flat out, which have used far more.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Final

__all__ = ["HALF_LIFE", "FairPool"]

#: Seconds in which a table's use of the pool counts half as much.
HALF_LIFE: Final = 10.0
#: Tables whose use is remembered at most (those that used it least are forgotten first).
_REMEMBERED: Final = 4096

#: A queued job: its future, the function (picklable, for a process pool) and its arguments.
_Job = tuple["asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class FairPool:
    """Round robin between keys over an executor (use it on one event loop only)."""

    def __init__(self, executor: concurrent.futures.Executor, slots: int) -> None:
        self.executor = executor
        self.slots = max(1, slots)
        self.running = 0
        #: Per key, per table, the jobs waiting.
        self._queues: OrderedDict[str, OrderedDict[str, deque[_Job]]] = OrderedDict()
        #: Per table: its use of the pool (seconds, decayed) and when that was reckoned.
        self._used: dict[str, tuple[float, float]] = {}
        self._closed = False

    @property
    def waiting(self) -> int:
        """Jobs queued, not yet running."""
        return sum(len(jobs) for tables in self._queues.values() for jobs in tables.values())

    def run(
        self, key: str, function: Callable[..., Any], *args: Any, table: str = ""
    ) -> asyncio.Future[Any]:
        """``function(*args)`` in the pool in ``key``'s turn, and within it ``table``'s: a
        future of its result. Raises ``RuntimeError`` once the pool is shut down."""
        if self._closed:
            raise RuntimeError("the pool is shut down")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        tables = self._queues.get(key)
        if tables is None:
            # A key with nothing waiting goes before those being served: it has had no turn.
            tables = self._queues[key] = OrderedDict()
            self._queues.move_to_end(key, last=False)
        tables.setdefault(table, deque()).append((future, function, args))
        self._pump()
        return future

    def used(self, table: str, now: float | None = None) -> float:
        """Seconds ``table``'s jobs have run lately (each second counts half after
        ``HALF_LIFE`` seconds)."""
        seconds, stamp = self._used.get(table, (0.0, 0.0))
        now = time.monotonic() if now is None else now
        return seconds * 0.5 ** ((now - stamp) / HALF_LIFE) if seconds else 0.0

    def _spent(self, table: str, seconds: float) -> None:
        now = time.monotonic()
        self._used[table] = (self.used(table, now) + seconds, now)
        if len(self._used) > _REMEMBERED:
            least = min(self._used, key=lambda name: self.used(name, now))
            del self._used[least]

    def _next(self, tables: OrderedDict[str, deque[_Job]]) -> tuple[str, deque[_Job]]:
        """The key's table that has used the pool least lately (the first queued of equals)."""
        now = time.monotonic()
        table = min(tables, key=lambda name: self.used(name, now))  # (min keeps the first)
        return table, tables[table]

    def shutdown(self) -> None:
        """Drop what waits and stop the executor."""
        self._closed = True
        for tables in self._queues.values():
            for queue in tables.values():
                for future, _function, _args in queue:
                    future.cancel()
        self._queues.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def _pump(self) -> None:
        while self.running < self.slots and self._queues:
            key, tables = next(iter(self._queues.items()))
            table, queue = self._next(tables)
            future, function, args = queue.popleft()
            if not queue:
                del tables[table]
            # This key goes to the back of the line; it leaves it when it has nothing left.
            self._queues.move_to_end(key)
            if not tables:
                del self._queues[key]
            if future.cancelled():
                continue
            loop = asyncio.get_running_loop()
            try:
                inner = loop.run_in_executor(self.executor, function, *args)
            except RuntimeError as exc:  # the executor is shut down: the server is closing
                future.set_exception(exc)
                continue
            self.running += 1
            done = functools.partial(
                self._finished, outer=future, table=table, began=time.monotonic()
            )
            inner.add_done_callback(done)

    def _finished(
        self, done: asyncio.Future[Any], outer: asyncio.Future[Any], table: str, began: float
    ) -> None:
        self.running -= 1
        self._spent(table, time.monotonic() - began)
        if not outer.done():
            if done.cancelled():
                outer.cancel()
            elif (exc := done.exception()) is not None:
                outer.set_exception(exc)
            else:
                outer.set_result(done.result())
        if not self._closed:
            self._pump()
