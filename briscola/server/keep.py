"""The tables of a host's own server kept on disk (``ServerConfig.keep``), as the dedicated
service keeps them in Redis (:mod:`briscola.server.store`): the same journal of each change
(:func:`~briscola.server.replica.table_ops`), written at once to a SQLite file, so that a
host whose game died (killed, crashed, the computer restarted) opens the server again on
the same folder and every table not closed is rebuilt by replaying its records
(:func:`~briscola.server.replica.rebuild_table`): the guests' clients, which keep
reconnecting, resume their seats, and so does the host with its own token.

A write is made before the frame that shows it is sent (:meth:`TableKeep.note` returns once
it is stored), so no player sees a move that the file could lose. A closed table is erased:
nothing comes back that its players were told has ended. Nor does a table whose last change
is older than :data:`~briscola.protocol.wire.HOST_WAIT`: its guests have been told that it
ended (``host_gone``), so the host is not offered it again either.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from briscola.protocol.wire import HOST_WAIT
from briscola.server.replica import StoredTable, table_ops
from briscola.server.seats import Peer
from briscola.server.tables import Table

__all__ = ["KEEP_FILE", "TableKeep", "kept_tables"]

log = logging.getLogger("briscola.server")

#: The file in the keep folder.
KEEP_FILE: Final = "tables.sqlite3"

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS keys (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL,
    part TEXT NOT NULL,
    value TEXT NOT NULL,
    at REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS keys_of ON keys (code, part);
"""


def _add_times(db: sqlite3.Connection, now: float) -> None:
    """A file kept by an older game has no times: its rows count as written ``now``."""
    columns = [row[1] for row in db.execute("PRAGMA table_info(keys)")]
    if "at" not in columns:
        db.execute("ALTER TABLE keys ADD COLUMN at REAL NOT NULL DEFAULT 0")
    db.execute("UPDATE keys SET at = ? WHERE at = 0", (now,))


def _fresh_codes(db: sqlite3.Connection, now: float, wait: float) -> set[str]:
    """The codes whose last change is no older than ``wait`` seconds."""
    rows = db.execute("SELECT code, MAX(at) FROM keys GROUP BY code").fetchall()
    return {str(code) for code, at in rows if now - float(at or 0) <= wait}


class TableKeep:
    """The tables of one host's server in ``folder`` (created if needed); a table's journal
    (:class:`~briscola.server.pace.Journal`). Raises ``OSError`` or ``sqlite3.Error`` when the
    file cannot be opened."""

    def __init__(
        self, folder: Path, wait: float = HOST_WAIT, clock: Callable[[], float] = time.time
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / KEEP_FILE
        #: Seconds after its last change a table is given up; ``clock``: the time of day.
        self.wait = wait
        self.clock = clock
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            _add_times(self._db, self.clock())
        #: A write failed (the disk is full, the file went): the table plays on, unkept.
        self.failed = False

    # ------------------------------------------------------------------ the journal

    def note(self, table: Table, kind: str, data: Any = None) -> None:
        """Store the change ``kind`` of ``table`` now (a closed table is erased)."""
        if kind == "closed":
            self.erase(table.code)
            return
        self.write(table.code, table_ops(table, kind, data))

    def send(self, table: Table, peer: Peer, text: str) -> None:
        peer.post(text)  # what the frame shows is stored already

    def write(self, code: str, ops: list[tuple[str, str, str]]) -> None:
        """Apply ``ops`` (``SET``, ``RPUSH``, ``DEL`` of a key part) to ``code``, at once."""
        now = self.clock()
        try:
            with self._lock, self._db:
                self._db.execute("BEGIN")
                for op, part, value in ops:
                    if op in ("SET", "DEL"):
                        self._db.execute(
                            "DELETE FROM keys WHERE code = ? AND part = ?", (code, part)
                        )
                    if op in ("SET", "RPUSH"):
                        self._db.execute(
                            "INSERT INTO keys (code, part, value, at) VALUES (?, ?, ?, ?)",
                            (code, part, value, now),
                        )
                self._db.execute("UPDATE keys SET at = ? WHERE code = ?", (now, code))
        except sqlite3.Error:
            if not self.failed:
                log.exception("table %s: cannot keep it on disk", code)
            self.failed = True

    def erase(self, code: str) -> None:
        """Forget the table ``code``."""
        try:
            with self._lock, self._db:
                self._db.execute("DELETE FROM keys WHERE code = ?", (code,))
        except sqlite3.Error:
            log.exception("table %s: cannot erase it from disk", code)

    # ------------------------------------------------------------------ reading back

    def load(self) -> dict[str, StoredTable]:
        """Every table kept, by code (a table whose keys do not parse is left out; one left
        longer than ``wait`` is erased)."""
        self._forget_stale()
        with self._lock:
            rows = self._db.execute("SELECT code, part, value FROM keys ORDER BY n").fetchall()
        found: dict[str, dict[str, list[Any]]] = {}
        for code, part, value in rows:
            try:
                found.setdefault(code, {}).setdefault(part, []).append(json.loads(value))
            except json.JSONDecodeError:
                found.setdefault(code, {})["broken"] = []
        tables: dict[str, StoredTable] = {}
        for code, parts in found.items():
            if "broken" in parts or not parts.get("meta"):
                log.warning("table %s: what is kept of it is damaged", code)
                continue
            deal = parts.get("deal")
            tables[code] = StoredTable(
                parts["meta"][-1], parts.get("hands", []), deal[-1] if deal else None,
                parts.get("moves", []),
            )  # fmt: skip
        return tables

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()

    def _forget_stale(self) -> None:
        """Erase every table left longer than ``wait``."""
        with self._lock, contextlib.suppress(sqlite3.Error), self._db:
            fresh = _fresh_codes(self._db, self.clock(), self.wait)
            for (code,) in self._db.execute("SELECT DISTINCT code FROM keys").fetchall():
                if code not in fresh:
                    log.info("table %s: left longer than its guests wait, given up", code)
                    self._db.execute("DELETE FROM keys WHERE code = ?", (code,))


def kept_tables(
    folder: Path, wait: float = HOST_WAIT, clock: Callable[[], float] = time.time
) -> list[str]:
    """The codes of the tables kept in ``folder`` that are not closed nor left longer than
    ``wait`` (for a game that asks whether there is a table to open again; never raises)."""
    path = folder / KEEP_FILE
    if not path.is_file():
        return []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            columns = [row[1] for row in db.execute("PRAGMA table_info(keys)")]
            fresh = _fresh_codes(db, clock(), wait) if "at" in columns else None
            rows = db.execute("SELECT code, value FROM keys WHERE part = 'meta'").fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return []
    codes = []
    for code, value in rows:
        if fresh is not None and code not in fresh:
            continue
        with contextlib.suppress(ValueError, TypeError, AttributeError):
            if json.loads(value).get("phase") != "closed":
                codes.append(str(code))
    return sorted(codes)
