"""A server's public side (``docs/network-protocol.md``, "The lobby"): the lobby of public
tables, quick match (:mod:`briscola.server.matchmaking`) and spectators
(:mod:`briscola.server.watch`).

The lobby is a map from table code to its entry (:func:`~briscola.server.watch.lobby_entry`).
A process writes the entries of the public tables it drives; every process keeps a mirror
of the whole map and tells its lobby watchers what changed (``lobby_change``: added,
changed, removed), after a first snapshot (``lobby``), gathering the changes of 50 ms into
one message. Without Redis (one process, a LAN host) the map is this process's tables.
With ``--redis`` it lives in the hash ``briscola:lobby`` and every change is published on
the channel ``briscola:lobby``, which every process hears (a change reaches the watchers of
every process within milliseconds): :class:`LobbyBus`.

Player names come from the connection's ``hello`` (:attr:`Conn.name`); once players have
identities on a server (names kept per server with a key),
:func:`~briscola.server.watch.player_name` is the one place a quick-match ticket's name
comes from (a seat's name is the connection's, as at a private table).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Final

from briscola.engine.rules import PRESETS
from briscola.protocol import lobby
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import decode, encode, normalize_code
from briscola.server.matchmaking import Home, Matchmaker
from briscola.server.watch import MAX_SPECTATORS, Audience, lobby_entry

if TYPE_CHECKING:
    from briscola.server.conn import Conn
    from briscola.server.store import Store
    from briscola.server.tables import Table

__all__ = ["LobbyBus", "Public", "own_message"]

log = logging.getLogger("briscola.server")

#: Changes gathered into one ``lobby_change``, in seconds.
GATHER: Final = 0.05
#: Tables a snapshot lists at most (a filter shows the others), and the seconds between
#: two snapshots to one connection.
LISTED: Final = 500
SNAPSHOT_EVERY: Final = 0.25
#: Seconds between two sweeps for entries of tables gone with their process.
SWEEP: Final = 5.0
#: The hash of entries and the channel of changes (``--redis``).
LOBBY_KEY: Final = "briscola:lobby"


#: Messages about the connection itself: its own process handles them, also while its table
#: is driven by another (the lobby it watches, the queue it waits in are this process's).
OWN: Final = frozenset({"lobby_watch", "lobby_stop", "queue", "queue_bots", "unqueue"})


def own_message(text: str) -> bool:
    """``text`` is one of :data:`OWN` (read only when it may be: a move is not parsed).

    >>> own_message('{"type": "queue", "presets": ["classic2"]}'), own_message('{"type":"act"}')
    (True, False)
    """
    if "queue" not in text and "lobby_" not in text:
        return False
    try:
        return decode(text)["type"] in OWN
    except ProtocolError:
        return False


class Public:
    """The public side of one server process (see the module docstring)."""

    def __init__(self, server: Home) -> None:
        self.server = server
        #: Every public table's entry, by code (``waited`` holds the wall-clock time it
        #: opened until it is sent); with Redis, every process's.
        self.entries: dict[str, lobby.LobbyEntry] = {}
        self.watchers: dict[int, Conn] = {}
        #: The codes each watcher was sent (to tell added from changed).
        self.known: dict[int, set[str]] = {}
        self._dirty: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        self.bus: LobbyBus | None = None
        #: The audiences of the public tables driven here, by code.
        self.rooms: dict[str, Audience] = {}
        self.queue = Matchmaker(server)
        #: Test hook: called with every frame sent to a lobby watcher.
        self.tap: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        #: When each connection was last sent a snapshot.
        self._snapshots: dict[int, float] = {}

    async def start(self) -> None:
        shared = self.server.shared
        if shared is not None:
            self.bus = LobbyBus(shared.store, shared.process, self._heard)
            self.entries.update(await self.bus.start())
            shared.hooks["rebuilt"] = self.attach
            shared.hooks["lost"] = self._lost
            self._sweeper = asyncio.create_task(self._sweep())
        await self.queue.start()

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.queue.close()
        if self.bus is not None:
            await self.bus.close()

    # ------------------------------------------------------------------ messages

    def handle(self, conn: Conn, message: lobby.LobbyClientMessage) -> None:
        kind = message["type"]
        if kind == "lobby_watch":
            presets = message.get("presets")
            chosen = lobby.check_presets(presets, kind, _ALL) if presets is not None else []
            self.watch_lobby(conn, tuple(chosen))
        elif kind == "lobby_stop":
            self._unwatch_lobby(conn)
        elif kind == "queue":
            presets = tuple(lobby.check_presets(message.get("presets"), kind))
            if conn.queued:  # queued again: these configurations instead
                self.queue.leave(conn, tell=False)
            self.check_free(conn, kind)
            self.queue.join(conn, presets)
        elif kind == "queue_bots":
            self.queue.bots(conn, message.get("preset"))
        elif kind == "unqueue":
            self.queue.leave(conn)
        elif kind == "watch":
            self.watch(conn, message.get("code"))
        else:
            table = conn.watching
            audience = self.rooms.get(table.code) if table is not None else None
            if table is None or audience is None:
                raise ProtocolError(ErrorCode.NO_TABLE, "unwatch: you watch no table")
            audience.remove(table, conn)

    def check_free(self, conn: Conn, kind: str) -> None:
        """``conn`` may take a seat, watch or queue: it is at no table, watches none and
        waits for no quick match."""
        if conn.table is not None or conn.watching is not None or conn.remote is not None:
            raise ProtocolError(
                ErrorCode.AT_TABLE, f"{kind}: leave the table (or stop watching it) first"
            )
        if conn.queued:
            raise ProtocolError(ErrorCode.QUEUED, f"{kind}: leave the quick-match queue first")

    def gone(self, conn: Conn) -> None:
        """The connection is gone: it watches nothing, waits for nothing."""
        self._unwatch_lobby(conn)
        self.queue.gone(conn)
        table = conn.watching
        audience = self.rooms.get(table.code) if table is not None else None
        if table is not None and audience is not None:
            audience.remove(table, conn, tell=False)

    # ------------------------------------------------------------------ spectators

    def watch(self, conn: Conn, code: object) -> None:
        self.check_free(conn, "watch")
        self.server.admission.check_failures(conn)
        try:
            code = normalize_code(code)
        except ProtocolError as exc:
            raise self.server.admission.fail(conn, exc.code, str(exc)) from None
        table = self.server.tables.get(code)
        audience = self.rooms.get(code)
        if table is None or table.phase == "closed" or audience is None:
            # A private table is not told from none: its code stays a secret.
            raise self.server.admission.fail(
                conn, ErrorCode.NO_TABLE, f"there is no public table {code}"
            )
        if audience.count >= MAX_SPECTATORS:
            raise ProtocolError(ErrorCode.TABLE_FULL, f"table {code} has its spectators")
        audience.add(table, conn)

    # ------------------------------------------------------------------ public tables

    def attach(self, table: Table) -> None:
        """``table`` is public (new, or rebuilt here): listed, and open to spectators."""
        if not table.public or table.audience is not None:
            return
        table.audience = audience = self.rooms[table.code] = Audience(self.changed, self.removed)
        entry = self.entries.get(table.code)
        if entry is not None:
            audience.opened = entry["waited"]  # rebuilt: it waited since then
        self.changed(table)

    def _lost(self, table: Table) -> None:
        """Another process drives ``table`` now: its spectators watch it there."""
        self.rooms.pop(table.code, None)

    def changed(self, table: Table) -> None:
        audience = self.rooms.get(table.code)
        if audience is None or table.phase == "closed":
            return
        entry = lobby_entry(table, audience.opened)
        if self.entries.get(table.code) == entry:
            return
        self._apply(table.code, entry)
        if self.bus is not None:
            self.bus.put(table.code, entry)

    def removed(self, table: Table) -> None:
        self.rooms.pop(table.code, None)
        if table.code not in self.entries:
            return
        self._apply(table.code, None)
        if self.bus is not None:
            self.bus.put(table.code, None)

    async def _sweep(self) -> None:
        """Every few seconds: entries of tables that are gone from Redis altogether (their
        process died and nobody took them over before they expired) leave the lobby."""
        from briscola.server.store import key  # (redis: a dedicated server's only)

        while True:
            await asyncio.sleep(SWEEP)
            shared = self.server.shared
            codes = [code for code in self.entries if code not in self.server.tables]
            if shared is None or self.bus is None or not codes:
                continue
            try:
                holders = await shared.store.holders(codes)
                for code in [code for code, holder in holders.items() if holder is None]:
                    if not await shared.store.redis.exists(key(code, "meta")):
                        self._apply(code, None)
                        self.bus.put(code, None)
            except Exception as exc:  # Redis away: the next sweep tries again
                log.warning("lobby: cannot sweep: %s", exc)

    def _heard(self, code: str, entry: lobby.LobbyEntry | None) -> None:
        """Another process changed the lobby."""
        if entry is None and code not in self.entries:
            return
        self._apply(code, entry)

    def _apply(self, code: str, entry: lobby.LobbyEntry | None) -> None:
        if entry is None:
            self.entries.pop(code, None)
        else:
            self.entries[code] = entry
        if not self.watchers:
            return
        self._dirty.add(code)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(GATHER, self._send_changes)

    # ------------------------------------------------------------------ lobby watchers

    def watch_lobby(self, conn: Conn, presets: tuple[str, ...]) -> None:
        """Send the lobby's public tables (of ``presets``; none: all), then their changes."""
        now = time.time()
        if now - self._snapshots.get(conn.serial, 0.0) < SNAPSHOT_EVERY:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED, "lobby_watch: four snapshots a second at most"
            )
        self._snapshots[conn.serial] = now
        conn.lobby = presets
        self.watchers[conn.serial] = conn
        wanted = [entry for entry in self.entries.values() if _wanted(entry, presets)]
        # Tables with free seats first, those waiting longest first; at most LISTED.
        wanted.sort(key=lambda e: (e["free"] == 0, e["waited"]))
        shown = [_sent(entry, now) for entry in wanted[:LISTED]]
        self.known[conn.serial] = {entry["table"] for entry in shown}
        self._post(conn, encode(lobby.lobby_list(presets, shown)))

    def _unwatch_lobby(self, conn: Conn) -> None:
        conn.lobby = None
        self.watchers.pop(conn.serial, None)
        self.known.pop(conn.serial, None)
        if conn.serial in self._snapshots and conn not in self.server.conns:
            del self._snapshots[conn.serial]

    def _send_changes(self) -> None:
        self._flush = None
        dirty, self._dirty = self._dirty, set()
        now = time.time()
        for serial, conn in list(self.watchers.items()):
            known = self.known.setdefault(serial, set())
            presets = conn.lobby or ()
            added: list[lobby.LobbyEntry] = []
            changed: list[lobby.LobbyEntry] = []
            removed: list[str] = []
            for code in sorted(dirty):
                entry = self.entries.get(code)
                if entry is None or not _wanted(entry, presets):
                    if code in known:
                        known.discard(code)
                        removed.append(code)
                elif code in known:
                    changed.append(_sent(entry, now))
                else:
                    known.add(code)
                    added.append(_sent(entry, now))
            if added or changed or removed:
                self._post(conn, encode(lobby.lobby_change(added, changed, removed)))

    def _post(self, conn: Conn, text: str) -> None:
        if self.tap is not None:
            self.tap(text)
        conn.post(text)


#: What a lobby watcher may filter by: every preset, and ``custom`` rules.
_ALL: Final = (*PRESETS, "custom")


def _wanted(entry: lobby.LobbyEntry, presets: tuple[str, ...]) -> bool:
    return not presets or entry["preset"] in presets


def _sent(entry: lobby.LobbyEntry, now: float) -> lobby.LobbyEntry:
    """The entry as sent: ``waited``, seconds since the table opened."""
    sent = entry.copy()
    sent["waited"] = round(max(0.0, now - entry["waited"]), 1)
    return sent


class LobbyBus:
    """The lobby in Redis: the hash ``briscola:lobby`` (code to entry, with the process
    that wrote it) and the channel ``briscola:lobby``. Writes go in order, one at a time."""

    def __init__(self, store: Store, process: str, heard: Any) -> None:
        self.store = store
        self.process = process
        self.heard = heard
        self._queue: asyncio.Queue[tuple[str, lobby.LobbyEntry | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> dict[str, lobby.LobbyEntry]:
        """Listen for changes, then read every entry (none is missed between the two)."""
        pubsub = self.store.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(LOBBY_KEY)
        self._pubsub = pubsub
        self._tasks.append(asyncio.create_task(self._listen()))
        self._tasks.append(asyncio.create_task(self._write()))
        stored = await self.store.redis.hgetall(LOBBY_KEY)
        entries: dict[str, lobby.LobbyEntry] = {}
        for code, text in stored.items():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                entries[str(code)] = json.loads(text)["entry"]
        return entries

    def put(self, code: str, entry: lobby.LobbyEntry | None) -> None:
        self._queue.put_nowait((code, entry))

    async def _write(self) -> None:
        while True:
            code, entry = await self._queue.get()
            text = json.dumps({"from": self.process, "code": code, "entry": entry})
            try:
                async with self.store.redis.pipeline(transaction=True) as pipe:
                    if entry is None:
                        pipe.hdel(LOBBY_KEY, code)
                    else:
                        pipe.hset(LOBBY_KEY, code, text)
                    pipe.publish(LOBBY_KEY, text)
                    await pipe.execute()
                self.store.operations += 2
            except (OSError, Exception) as exc:  # Redis away: the next change writes again
                log.warning("lobby: cannot write to Redis: %s", exc)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except Exception as exc:  # Redis away: its next read connects again
                log.warning("lobby: Redis unreachable, listening again: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                if data["from"] != self.process:
                    self.heard(str(data["code"]), data["entry"])
            except (ValueError, KeyError, TypeError):
                log.warning("lobby: a change that does not read")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
