"""The pace of a table: when its computer players move (in the server's fair pool, off the
event loop), the clock of a person's turn, the clock that deals the next hand, and all of
them stopped or started again when the table stops here or is rebuilt on this process.

:class:`Pace` is the part of :class:`~briscola.server.tables.Table` that keeps time; the
table's module builds on it (this module does not import that one).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal, Protocol

from briscola.ai import Bot
from briscola.engine import Action, GameState
from briscola.game.bots import think
from briscola.game.driver import BotJob, MatchDriver
from briscola.protocol import messages as msg
from briscola.protocol.errors import NoticeCode
from briscola.server.fair import FairPool
from briscola.server.seats import Peer, Seat, TableConfig
from briscola.server.signals import bot_job_with_signal

__all__ = ["Journal", "Pace", "TablePhase"]

TablePhase = Literal["lobby", "playing", "between", "over", "closed"]


class Journal(Protocol):
    """Where a table kept in a shared store (``--redis``) writes what happens at it.
    ``note`` is called at each change, in order; ``send`` holds a frame until everything
    noted before it is stored, so no player sees a move that could still be lost."""

    def note(self, table: Any, kind: str, data: Any = None) -> None: ...

    def send(self, table: Any, peer: Peer, text: str) -> None: ...


class Pace:
    """The clocks and computer turns of a table (see the module docstring)."""

    # What the table holds (set by its constructor).
    phase: TablePhase
    driver: MatchDriver | None
    seats: list[Seat]
    config: TableConfig
    pool: FairPool
    owner: str
    touched: float
    journal: Journal | None
    _thinking: bool
    _next_timer: asyncio.TimerHandle | None
    _turn_timer: asyncio.TimerHandle | None

    @property
    def state(self) -> GameState | None:
        """The hand being played (or just finished)."""
        return self.driver.state if self.driver is not None else None

    # What the table does (its own methods).
    def _send(self, seat: Seat, message: msg.ServerMessage) -> None:
        raise NotImplementedError

    def _update_all(self) -> None:
        raise NotImplementedError

    def _moved(self) -> None:
        raise NotImplementedError

    def _grace_over(self, seat: Seat) -> None:
        raise NotImplementedError

    def _next_due(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ computer turns

    def _drive(self) -> None:
        """Let a computer player move when it is its turn (off the event loop); start the
        turn clock when it is a person's turn."""
        state = self.state
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        if self.phase != "playing" or state is None or self._thinking:
            return
        index = state.current_player
        if index is None:
            return
        seat = self.seats[index]
        loop = asyncio.get_running_loop()
        if not seat.bot_plays:
            limit = self.config.turn_timeout
            if limit is not None and self.driver is not None:
                stamp = self.driver.stamp
                self._turn_timer = loop.call_later(limit, self._turn_due, seat, stamp)
            return
        self._think()

    def _think(self, stand_in: str | None = None) -> None:
        """Ask the computer of the seat to move (``stand_in``: a computer of that level,
        once, for a person whose time ran out), in the pool, off the event loop."""
        assert self.driver is not None
        self._thinking = True
        job = bot_job_with_signal(self, self.driver, stand_in)  # (issue 25: it may signal)
        loop = asyncio.get_running_loop()

        def submit() -> None:
            try:
                future = self.pool.run(self.owner, think, job.bot, job.seen)
            except RuntimeError:  # the pool is shut down: the server is closing
                self._thinking = False
                return
            future.add_done_callback(lambda done: self._bot_done(done, job))

        if self.config.bot_delay > 0 and not job.forced:
            loop.call_later(self.config.bot_delay, submit)
        else:
            submit()

    def _turn_due(self, seat: Seat, stamp: int) -> None:
        """A person let the turn clock run out: a computer plays this one move for them."""
        self._turn_timer = None
        driver = self.driver
        if self.phase != "playing" or driver is None or stamp != driver.stamp:
            return
        if seat.bot_plays or self._thinking:
            return
        self._send(
            seat,
            msg.notice(
                NoticeCode.TIMED_OUT,
                "your time to move ran out: a computer played this move for you",
            ),
        )
        self._think(stand_in=self.config.takeover_level)

    def _bot_done(self, done: asyncio.Future[tuple[Action, Bot]], job: BotJob) -> None:
        self._thinking = False
        if done.cancelled():  # the pool was shut down: the server is closing
            return
        driver = self.driver
        if self.phase != "playing" or driver is None or not driver.is_current(job):
            self._drive()
            return
        if not self.seats[job.seat].bot_plays and not job.forced:
            self._drive()
            return
        action = driver.bot_move(job, done.result)
        if action is None:
            self._drive()
            return
        if self.journal is not None:
            self.journal.note(self, "move", action)
        self._moved()

    # ------------------------------------------------------------------ stopping, starting

    def revive(self) -> None:
        """The table was rebuilt from a shared store on this process (its players are not
        connected here yet): their seats wait the grace period (a seat whose person left
        the match is played by a computer and waits for nothing), computer players move,
        the clocks run again."""
        loop = asyncio.get_running_loop()
        self.touched = time.monotonic()
        for seat in self.seats:
            if seat.kind != "human" or not seat.claimed or seat.peer is not None:
                continue
            seat.away_since = time.monotonic()
            if not seat.left:
                grace = self.config.room_grace if self.phase == "lobby" else self.config.grace
                seat.grace_timer = loop.call_later(grace, self._grace_over, seat)
        if self.phase == "between":
            self._next_timer = loop.call_later(self.config.next_hand_timeout, self._next_due)
        self._drive()

    def stop_clocks(self) -> None:
        """The table stops here (closed, or handed to another server process): no timer or
        computer player of it acts any more on this process."""
        self.phase = "closed"
        for timer in (self._next_timer, self._turn_timer):
            if timer is not None:
                timer.cancel()
        for seat in self.seats:
            if seat.grace_timer is not None:
                seat.grace_timer.cancel()
                seat.grace_timer = None
