"""Computer players think in another process, so the window never freezes or stutters.

A bot thread would compete with the frame loop for Python's GIL (every blit that releases
it may wait a whole switch interval to get it back); a separate process does not. The bot
object travels to the worker with the view and comes back with its random state advanced,
so a seeded game is reproducible. Where processes cannot be started, a thread is used.

This module must not import pygame: the worker process imports it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

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
    :class:`~briscola.game.bots.BotPort` of every local session."""

    def __init__(self, use_processes: bool = True) -> None:
        self._executor: Executor | None = None
        self.use_processes = use_processes
        self.kind = "none"

    def _start(self) -> Executor:
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

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        try:
            return self._start().submit(think, bot, seen)
        except RuntimeError as exc:  # a broken pool (the worker died): fall back to a thread
            log.warning("bot worker unavailable (%s); using a thread", exc)
            self.close()
            self.use_processes = False
            return self._start().submit(think, bot, seen)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
