"""Partner signals at a server's table (``docs/network-protocol.md``, *Signals*).

A person sends a signal as an ``act`` whose action is ``{"signal": KIND}``. It is not a
move: the engine judges it (on the seat's turn or between tricks, once a trick), the move
count does not change, and every seat's next ``update`` carries the ``signalled`` event
only when that seat may see it (:meth:`GameState.events_for`). A computer player makes its
signal as it is asked to move, and the other computers theirs between tricks, before the
next lead (:func:`computers_signal_between`). All are written to the table's journal
(``signal``), so a table taken over by another process has them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol

from briscola.engine import GameState, IllegalMoveError, signal_from_json
from briscola.game.driver import BotJob, MatchDriver
from briscola.protocol.errors import ErrorCode
from briscola.server.seats import Seat, TableError


class Table(Protocol):
    """What signals need of a :class:`~briscola.server.tables.Table` (a protocol: the
    table's module imports this one)."""

    touched: float

    @property
    def driver(self) -> MatchDriver | None: ...
    @property
    def state(self) -> GameState | None: ...
    @property
    def journal(self) -> Any: ...
    def _update_all(self) -> None: ...


__all__ = ["bot_job_with_signal", "computers_signal_between", "person_signalled"]


def person_signalled(table: Table, seat: Seat, data: Mapping[str, Any]) -> None:
    """``seat``'s person signals ``data`` (``{"signal": KIND}``); raises
    :class:`~briscola.server.seats.TableError` (nothing changes) when that is not allowed."""
    if seat.bot_plays:
        raise TableError(ErrorCode.NOT_YOUR_TURN, "a computer plays for you now")
    try:
        signal = signal_from_json(data)
    except ValueError as exc:
        raise TableError(ErrorCode.BAD_ACTION, str(exc)) from None
    if table.driver is None:
        raise TableError(ErrorCode.WRONG_PHASE, "no hand is being played")
    try:
        made = table.driver.signal(seat.index, signal)
    except (IllegalMoveError, ValueError) as exc:
        raise TableError(ErrorCode.ILLEGAL, str(exc)) from None
    if table.journal is not None:
        table.journal.note(table, "signal", made)
    table.touched = time.monotonic()
    table._update_all()


def computers_signal_between(table: Table) -> None:
    """After a deal or a taken trick: the computers' signals before the lead
    (:meth:`MatchDriver.computer_signals_between`), journaled; the caller tells the seats."""
    driver = table.driver
    if driver is None:
        return
    for made in driver.computer_signals_between():
        if table.journal is not None:
            table.journal.note(table, "signal", made)


def bot_job_with_signal(table: Table, driver: MatchDriver, stand_in: str | None) -> BotJob:
    """:meth:`MatchDriver.bot_job` for the table's computer to move, which may signal first:
    a new signal is journaled and every seat that may see it is told at once."""
    state = table.state
    before = len(state.signals) if state is not None else 0
    job = driver.bot_job(stand_in)
    if state is None or len(state.signals) <= before:
        return job
    for made in state.signals[before:]:
        if table.journal is not None:
            table.journal.note(table, "signal", made)
    table._update_all()
    return job
