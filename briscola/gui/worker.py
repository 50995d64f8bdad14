"""Computer players think in another process, so the window never freezes or stutters.

A bot thread would compete with the frame loop for Python's GIL (every blit that releases
it may wait a whole switch interval to get it back); a separate process does not. The bot
object travels to the worker with the view and comes back with its random state advanced,
so a seeded game is reproducible. Where processes cannot be started, a thread is used.

This module must not import pygame: the worker process imports it.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)

from briscola.ai.base import Bot
from briscola.engine import Action, PlayerView
from briscola.game.bots import think

log = logging.getLogger(__name__)


def _watch_parent(parent: int) -> None:
    """Worker start-up: exit as soon as the game process is gone (killed, crashed), so no
    orphan is ever left behind."""

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class BotWorker:
    """One worker for the whole app (bots move one at a time): the
    :class:`~briscola.game.bots.BotPort` of every local session.

    A worker process that dies (killed, out of memory, crashed) costs no move: the move is
    computed again by a fresh worker process, and should that one die too, on a thread
    from then on. The computer never falls back on an arbitrary card for it; the failure
    goes to the log."""

    #: Worker processes started after one died, before moves go to a thread.
    RESTARTS = 1

    def __init__(self, use_processes: bool = True) -> None:
        self._executor: Executor | None = None
        self.use_processes = use_processes
        self.kind = "none"
        #: Worker processes that died (each move they owed was computed again).
        self.failures = 0
        self._lock = threading.Lock()
        #: Called (on the worker's result thread) once a move is ready: the App wakes its
        #: frame loop with it, so a move is shown even when no input comes.
        self.on_done: Callable[[], None] | None = None

    def _start(self) -> Executor:
        with self._lock:
            if self._executor is None:
                if self.use_processes:
                    try:
                        context = multiprocessing.get_context("spawn")
                        self._executor = ProcessPoolExecutor(
                            max_workers=1,
                            mp_context=context,
                            initializer=_watch_parent,
                            initargs=(os.getpid(),),
                        )
                        self.kind = "process"
                    except (OSError, ValueError, NotImplementedError) as exc:
                        log.warning("bots will think on a thread: %s", exc)
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
                    self.kind = "thread"
            return self._executor

    def start(self) -> None:
        """Have the worker ready before the first move: a worker process starts when it is
        first given work (a few milliseconds of the game's own time, a stutter if that
        comes in the middle of the deal's animation), so it is given some now."""
        with contextlib.suppress(RuntimeError):  # shut down meanwhile: the first move starts it
            self._start().submit(os.getpid)

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        outer: Future[tuple[Action, Bot]] = Future()
        self._send(bot, seen, outer)
        return outer

    def _send(self, bot: Bot, seen: PlayerView, outer: Future[tuple[Action, Bot]]) -> None:
        try:
            inner = self._start().submit(think, bot, seen)
        except RuntimeError as exc:  # a pool found broken (or shut down) on submitting
            self._lost(exc)
            inner = self._start().submit(think, bot, seen)

        def done(job: Future[tuple[Action, Bot]]) -> None:
            if outer.done():  # the session gave up on this move
                return
            if job.cancelled():
                outer.cancel()
                return
            exc = job.exception()
            if isinstance(exc, BrokenExecutor):
                self._lost(exc)
                self._send(bot, seen, outer)  # the same move, from the same bot, again
                return
            with contextlib.suppress(InvalidStateError):  # cancelled meanwhile
                if exc is not None:
                    outer.set_exception(exc)  # what the bot itself raised
                else:
                    outer.set_result(job.result())
            if self.on_done is not None:
                self.on_done()

        inner.add_done_callback(done)

    def _lost(self, exc: BaseException) -> None:
        """The worker process died: a fresh one (or, after :data:`RESTARTS`, a thread)."""
        self.failures += 1
        fresh = "a new worker process" if self.failures <= self.RESTARTS else "a thread"
        log.warning(
            "the computer players' worker %s stopped (%s); its move is computed again on %s",
            self.kind,
            exc,
            fresh,
            exc_info=exc,
            extra={"log_only": True},  # the log file: nothing the player needs to read
        )
        self.close()
        if self.failures > self.RESTARTS:
            self.use_processes = False

    def close(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
