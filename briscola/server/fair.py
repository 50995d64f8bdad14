"""Fair turns for computer players: every table's bots think in the server's pool, but one
address's tables cannot fill the pool for everyone.

A :class:`FairPool` runs at most ``slots`` jobs at a time on an executor and keeps a queue per
key (the address that opened the table). When a slot frees it takes the oldest job of the
next key in turn (round robin; a key that had nothing waiting goes first), so a neighbour's
computer move waits for the moves already running and at most one of each other busy address,
however many tables that address has.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

__all__ = ["FairPool"]

#: A queued job: its future, the function (picklable, for a process pool) and its arguments.
_Job = tuple["asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class FairPool:
    """Round robin between keys over an executor (use it on one event loop only)."""

    def __init__(self, executor: concurrent.futures.Executor, slots: int) -> None:
        self.executor = executor
        self.slots = max(1, slots)
        self.running = 0
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._closed = False

    @property
    def waiting(self) -> int:
        """Jobs queued, not yet running."""
        return sum(len(queue) for queue in self._queues.values())

    def run(self, key: str, function: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``function(*args)`` in the pool in ``key``'s turn: a future of its result. Raises
        ``RuntimeError`` once the pool is shut down."""
        if self._closed:
            raise RuntimeError("the pool is shut down")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        queue = self._queues.get(key)
        if queue is None:
            # A key with nothing waiting goes before those being served: it has had no turn.
            queue = self._queues[key] = deque()
            self._queues.move_to_end(key, last=False)
        queue.append((future, function, args))
        self._pump()
        return future

    def shutdown(self) -> None:
        """Drop what waits and stop the executor."""
        self._closed = True
        for queue in self._queues.values():
            for future, _function, _args in queue:
                future.cancel()
        self._queues.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def _pump(self) -> None:
        while self.running < self.slots and self._queues:
            key, queue = next(iter(self._queues.items()))
            future, function, args = queue.popleft()
            # This key goes to the back of the line; it leaves it when it has nothing left.
            self._queues.move_to_end(key)
            if not queue:
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
            inner.add_done_callback(functools.partial(self._finished, outer=future))

    def _finished(self, done: asyncio.Future[Any], outer: asyncio.Future[Any]) -> None:
        self.running -= 1
        if not outer.done():
            if done.cancelled():
                outer.cancel()
            elif (exc := done.exception()) is not None:
                outer.set_exception(exc)
            else:
                outer.set_result(done.result())
        if not self._closed:
            self._pump()
