"""One table driven by this process with a shared store (``--redis``): its lease and the
writer that stores its changes in order (:class:`Link`, the table's
:class:`~briscola.server.tables.Journal`), and the connections of other processes seated
at tables driven here (:class:`Guest`), whose frames are published to those processes.

A frame to a player waits until everything noted at the table before it is stored; a
frame to a guest that waits for a write is published by that write's own script, so the
move and the frame cost one call to Redis.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

from briscola.protocol import messages as msg
from briscola.server.config import ServerConfig
from briscola.server.conn import Conn
from briscola.server.fair import FairPool
from briscola.server.seats import Peer
from briscola.server.store import Fenced, Lease, RedisError, Store, channel
from briscola.server.tables import FrameTap, Table

if TYPE_CHECKING:
    from briscola.server.rated import Rated

__all__ = ["FRAME", "Guest", "Host", "Link", "Owner", "Stats", "Who", "identity", "is_signal"]

log = logging.getLogger("briscola.server")

#: A frame for a connection held by another process: ``o SERIAL``, a newline, the frame.
FRAME: Final = "o"


class Stats(Protocol):
    """What the shared store counts in its server's statistics."""

    errors: Counter[str]


class Host(Protocol):
    """What the shared store needs of its server (:class:`briscola.server.app.Server`)."""

    config: ServerConfig
    tables: dict[str, Table]
    conns: set[Conn]
    pool: FairPool
    tap: FrameTap | None

    @property
    def stats(self) -> Stats: ...

    @property
    def rated(self) -> Rated: ...

    def handle(self, conn: Conn, message: msg.ClientMessage) -> None: ...

    def detach(self, conn: Conn) -> None: ...

    def table_closed(self, table: Table) -> None: ...


class Owner(Protocol):
    """What a :class:`Link` needs of its process's shared store
    (:class:`~briscola.server.shared.Shared`)."""

    store: Store
    process: str

    def ops(self, table: Table, kind: str, data: Any) -> list[tuple[str, str, str]]: ...

    def lose(self, link: Link, why: str) -> None: ...

    def forget(self, link: Link) -> None: ...


class Guest(Conn):
    """A connection another process holds (``process``), at a table driven here: each frame
    posted to it is published to that process at once, in the order posted (Redis keeps
    the order of one client's commands), as ``o SERIAL``, a newline and the frame."""

    def __init__(
        self, store: Store, process: str, serial: int, address: str, config: ServerConfig
    ) -> None:
        super().__init__(None, address, config)
        self.store = store
        self.process = process
        self.header = f"{FRAME}{serial}\n"

    def post(self, text: str) -> None:
        self.store.operations += 1
        self.store.batch.call(
            "PUBLISH", channel(self.process), self.header + text
        ).add_done_callback(_published)


class Link:
    """One table driven by this process: its lease and its ordered writer.

    What the table notes in one turn of the event loop is stored by one write, at the end
    of that turn; what it notes while a write is under way waits for that write and goes
    in the next one. A frame waits for the changes noted before it. Usually a write is one
    call (its reply handled by a callback, no task of its own); the first write of a new
    table (which takes the lease) and a write that failed because Redis could not be
    reached (sent again with its number until Redis is back or the lease has run out) go
    through :meth:`_slow`, and everything noted meanwhile waits for it."""

    def __init__(self, shared: Owner, table: Table, lease: Lease | None, new: bool) -> None:
        self.shared = shared
        self.table = table
        self.lease = lease
        self.new = new
        #: Changes and frames noted and not yet handled, in order.
        self.pending: list[tuple[str, Any, Any]] = []
        #: A write is under way (or due at the end of this turn): what is noted waits.
        self.busy = False
        #: The slow way's task, while one runs.
        self.task: asyncio.Task[None] | None = None
        self.lost = False
        self.done = False
        #: Writes made under this lease (each numbered, so that one sent again is harmless).
        self.written = 0

    @property
    def idle(self) -> bool:
        return not self.busy and not self.pending

    def note(self, table: Table, kind: str, data: Any = None) -> None:
        if self.lost or self.done:
            return
        self.pending.append(("ops", self.shared.ops(table, kind, data), kind == "closed"))
        if not self.busy:
            self.busy = True
            asyncio.get_running_loop().call_soon(self._flush)

    def send(self, table: Table, peer: Peer, text: str) -> None:
        if self.busy or self.pending:
            self.pending.append(("frame", peer, text))
        else:
            peer.post(text)

    def stop(self) -> None:
        """Handle nothing more (the table is handed over or lost)."""
        self.lost = True
        self.pending.clear()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    def _flush(self) -> None:
        """Write what is pending (one write), then send the frames that waited for it."""
        if self.lost:
            return
        batch, self.pending = self.pending, []
        # Every change goes in the one write; a frame to a player of another process that
        # waits for it is published by the write itself, once stored (one call for both).
        ops: list[tuple[str, str, str]] = []
        after: list[tuple[Peer, str]] = []
        closed = False
        for kind, a, b in batch:
            if kind == "ops":
                ops.extend(a)
                closed = closed or bool(b)
            elif not ops:
                a.post(b)  # (nothing noted before it is waiting)
            elif isinstance(a, Guest):
                ops.append(("PUBLISH", a.process, a.header + b))
            else:
                after.append((a, b))
        if not ops:
            self.busy = False
            return
        self.written += 1
        number = self.written  # the same number when sent again: applied once
        if self.lease is None:
            self.task = asyncio.create_task(self._slow(ops, after, closed, number))
            return
        sent = self.shared.store.write_soon(self.lease, ops, closed, number)
        sent.add_done_callback(lambda done: self._written(done, ops, after, closed, number))

    def _written(
        self,
        done: asyncio.Future[Any],
        ops: list[tuple[str, str, str]],
        after: list[tuple[Peer, str]],
        closed: bool,
        number: int,
    ) -> None:
        if self.lost or done.cancelled():
            return
        error = done.exception()
        if isinstance(error, RedisError | OSError):  # Redis away: the slow way waits for it
            self.task = asyncio.create_task(self._slow(ops, after, closed, number))
            return
        if error is not None or not done.result():
            if error is not None:
                log.error("table %s: a write failed", self.table.code, exc_info=error)
            self._lost(f"table {self.table.code}: the lease is no longer held")
            return
        self._stored(after, closed)

    def _stored(self, after: list[tuple[Peer, str]], closed: bool) -> None:
        for peer, text in after:
            peer.post(text)
        if closed:
            self.done = True
            self.busy = False
            self.pending.clear()
            self.shared.forget(self)
        elif self.pending:
            self._flush()  # what was noted meanwhile, now
        else:
            self.busy = False

    def _lost(self, why: str) -> None:
        log.warning("%s: another process drives it now", why)
        self.shared.lose(self, "the table moved to another server")

    async def _slow(
        self,
        ops: list[tuple[str, str, str]],
        after: list[tuple[Peer, str]],
        closed: bool,
        number: int,
    ) -> None:
        """Store ``ops`` the slow way: take the lease of a new table first; while Redis is
        away, wait (the players' frames wait too) until it is back or the lease has run
        out."""
        try:
            if self.lease is None:
                lease = await self._retry(
                    lambda: self.shared.store.acquire(
                        self.table.code, self.shared.process, new=True
                    )
                )
                if lease is None:  # the code was taken by another process at the same moment
                    raise Fenced(f"table {self.table.code}: the code is taken")
                self.lease = lease
            held = self.lease
            await self._retry(lambda: self.shared.store.write(held, ops, closed, number))
        except Fenced as exc:
            self._lost(str(exc))
            return
        finally:
            self.task = None
        if not self.lost:
            self._stored(after, closed)

    async def _retry(self, call: Callable[[], Any]) -> Any:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.shared.store.lease_ms / 1000
        delay = 0.05
        while True:
            try:
                return await call()
            except (RedisError, OSError) as exc:
                if loop.time() > give_up:  # the lease has run out meanwhile
                    raise Fenced(f"table {self.table.code}: Redis is unreachable ({exc})") from None
                log.warning("table %s: Redis unreachable, retrying: %s", self.table.code, exc)
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)


def _published(done: asyncio.Future[Any]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.warning("cannot reach the process of a guest connection: %s", done.exception())


#: A relayed message's sender: its address, name and player id (None: not identified).
Who = tuple[str, str, str | None]


def identity(who: str) -> Who:
    """A relayed message's sender (``relay``'s JSON list)."""
    try:
        found = json.loads(who)
    except ValueError:
        return "", "", None
    if isinstance(found, list) and len(found) in (2, 3):
        player = found[2] if len(found) == 3 and isinstance(found[2], str) else None
        return str(found[0]), str(found[1]), player
    return "", "", None


def is_signal(message: msg.Act) -> bool:
    """A partner signal (not a move: it has no move count)."""
    action = message.get("action")
    return isinstance(action, dict) and "signal" in action
