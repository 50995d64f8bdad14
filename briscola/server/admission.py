"""Who may open and join tables: the caps on the tables one address (and one connection)
holds, the failed-join lock per address, new table codes, and the ``joined`` reply.

A valid seat token is never refused by the failed-join lock (people share addresses behind
a NAT): the server checks a token before it asks :meth:`Admission.check_failures`.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Iterable, Mapping

from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import CODE_ALPHABET, CODE_LENGTH, encode
from briscola.server.config import ServerConfig
from briscola.server.conn import Conn
from briscola.server.seats import Seat
from briscola.server.tables import Table

__all__ = ["Admission", "joined", "new_code", "tell"]

#: Addresses whose failed joins are remembered at most (the oldest are forgotten first).
_REMEMBERED = 10_000


class Admission:
    """The per-address and per-connection limits of one server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        #: When each address's recent joins failed (wrong code or token).
        self.failed: dict[str, deque[float]] = {}

    def check_caps(self, conn: Conn, tables: Iterable[Table]) -> None:
        """One address (or one connection) may hold only so many open tables and waiting
        rooms, so that it cannot fill the server for everyone."""
        cfg = self.config
        now = time.monotonic()
        while conn.created and conn.created[0] < now - 60.0:
            conn.created.popleft()
        if len(conn.created) >= cfg.creates_per_minute:
            wait = conn.created[0] + 60.0 - now
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES,
                f"you opened {cfg.creates_per_minute} tables in a minute:"
                f" try again in {wait:.0f} s",
            )
        mine = [t for t in tables if t.owner == conn.address]
        rooms = [t for t in mine if t.phase == "lobby"]
        if len(rooms) >= cfg.max_rooms_per_address:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES,
                f"your address has {cfg.max_rooms_per_address} waiting rooms open already",
            )
        if len(mine) >= cfg.max_tables_per_address:
            raise ProtocolError(
                ErrorCode.TOO_MANY_TABLES,
                f"your address has {cfg.max_tables_per_address} tables open already",
            )

    def check_failures(self, conn: Conn) -> None:
        """Refuse an address that failed too many joins lately."""
        window = self.failed.get(conn.address)
        if window is None:
            return
        now = time.monotonic()
        while window and window[0] < now - self.config.failed_join_window:
            window.popleft()
        if not window:
            del self.failed[conn.address]
        elif len(window) >= self.config.failed_joins:
            wait = window[0] + self.config.failed_join_window - now
            raise ProtocolError(
                ErrorCode.TOO_MANY_FAILED_JOINS,
                f"too many wrong codes from your address: try again in {wait:.0f} s",
            )

    def fail(self, conn: Conn, code: ErrorCode, message: str) -> ProtocolError:
        """Count a failed join of the connection's address; the error to raise."""
        self.failed.setdefault(conn.address, deque()).append(time.monotonic())
        if len(self.failed) > _REMEMBERED:
            self.failed.pop(next(iter(self.failed)))
        return ProtocolError(code, message)


def new_code(tables: Mapping[str, Table], start: str = "") -> str:
    """A table code no table of ``tables`` has, starting with a character of ``start``
    (empty: any)."""
    while True:
        first = secrets.choice(start or CODE_ALPHABET)
        code = first + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))
        if code not in tables:
            return code


def tell(conn: Conn, table: Table, text: str) -> None:
    """Send ``text`` once what the table has noted so far is stored (``--redis``: a guest
    told its table's code could otherwise reach a process that cannot find it)."""
    if table.journal is not None:
        table.journal.note(table, "seats")  # the seat and its token first
        table.journal.send(table, conn, text)
    else:
        conn.post(text)


def joined(table: Table, seat: Seat) -> str:
    """The ``joined`` reply: the table, the seat and its token."""
    assert seat.token is not None
    return encode(msg.joined(table.code, seat.index, seat.token, seat.index == table.host))
