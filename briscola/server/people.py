"""Players on a server's public side: who a connection is (``identify``, ``rename``), quick
chat at a table, reports, and bans (``docs/network-protocol.md``, "Players, quick chat and
reports"; the operator's commands: :mod:`briscola.server.moderate`).

A connection that has identified carries its player: :attr:`Conn.name` is then the
registered name (the one every seat and list shows), :attr:`Conn.player_id` the SHA-256 of
its key (the server's own: never sent to anyone, never logged). A connection that has not
identified has ``player_id`` None and the name its ``hello`` gave (private tables by code
work as before).

Keys and tokens are never written to the log: lines name a player by its registered name
and address only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from briscola.protocol import people as talk
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.naming import check_key, check_player_name, key_hash, name_key
from briscola.protocol.wire import PROTOCOL, encode
from briscola.server.registry import Ban, Player, Registry, address_target, key_target

if TYPE_CHECKING:
    from briscola.protocol import messages as msg
    from briscola.server.conn import Conn

__all__ = ["CLOSE_BANNED", "People", "PeopleLimits", "require_identity"]

log = logging.getLogger("briscola.server")

#: A banned connection is closed with this code (policy violation, RFC 6455).
CLOSE_BANNED: Final = 1008


@dataclass
class PeopleLimits:
    """How often a player may rename and chat."""

    #: Seconds between two renames of one player.
    rename_every: float = 24 * 3600.0
    #: Quick chat messages one connection may send within ``chat_window`` seconds.
    chat_burst: int = 5
    chat_window: float = 10.0
    #: ... and one address, on the whole service, within ``address_window`` seconds.
    address_chats: int = 20
    address_window: float = 60.0
    #: Players one connection may report (each seat once per table).
    reports: int = 20
    #: Seconds between two looks for bans of the connections open here (a ban made while
    #: its player is connected closes that connection within this time).
    ban_check: float = 10.0
    #: New players one address may register within ``register_window`` seconds.
    registrations: int = 10
    register_window: float = 3600.0


def require_identity(conn: Conn) -> str:
    """The connection's player id; raises ``identify_first`` when it has not identified
    (for the messages of the public side)."""
    if conn.player_id is None:
        raise ProtocolError(ErrorCode.IDENTIFY_FIRST, "identify first (an 'identify' message)")
    return conn.player_id


class People:
    """The players of one server process, kept in ``registry`` (see the module)."""

    def __init__(
        self,
        registry: Registry,
        limits: PeopleLimits | None = None,
        clock: Callable[[], float] = time.time,
        conns: Callable[[], Iterable[Conn]] = tuple,
    ) -> None:
        self.registry = registry
        #: The connections open here (whose bans :meth:`watch` looks for).
        self.conns = conns
        self._watch: asyncio.Task[None] | None = None
        self.limits = limits or PeopleLimits()
        self.clock = clock
        self._chats: weakref.WeakKeyDictionary[Conn, deque[float]] = weakref.WeakKeyDictionary()
        self._reports: weakref.WeakKeyDictionary[Conn, set[tuple[str, int]]] = (
            weakref.WeakKeyDictionary()
        )
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ entry points

    async def admit(self, conn: Conn) -> bool:
        """False (the connection told why, and closing) when its address is banned."""
        if self._watch is None:
            self._watch = asyncio.ensure_future(self.watch())
        try:
            ban = await self.registry.banned(None, conn.address)
        except Exception as exc:  # the store away: nobody is refused for it
            log.warning("%s: bans not checked: %s", conn.address, exc)
            return True
        if ban is None:
            return True
        self._refuse(conn, ban, "hello")
        return False

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def watch(self) -> None:
        """Every ``ban_check`` seconds, close the connections open here whose player or
        address was banned since they connected (the ban's reason told)."""
        while True:
            await asyncio.sleep(self.limits.ban_check)
            conns = [conn for conn in self.conns() if conn.ws is not None]
            targets = {address_target(conn.address) for conn in conns}
            targets |= {key_target(conn.player_id) for conn in conns if conn.player_id}
            try:
                bans = await self.registry.bans_of(sorted(targets))
            except Exception as exc:  # the store away: look again next time
                log.warning("bans not checked: %s", exc)
                continue
            for conn in conns if bans else ():
                ban = bans.get(address_target(conn.address))
                if ban is None and conn.player_id is not None:
                    ban = bans.get(key_target(conn.player_id))
                if ban is not None and not conn.dropped and conn.close_with[0] != CLOSE_BANNED:
                    self._refuse(conn, ban, None)

    def take(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Handle ``message`` in a task of its own (a connection of another process)."""
        task = asyncio.ensure_future(self.handle(conn, message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def handle(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Act on one message of this module; a refusal is answered with its ``error``."""
        kind = message["type"]
        try:
            if message["type"] == "identify":
                await self._identify(conn, message)
            elif message["type"] == "rename":
                await self._rename(conn, message)
            elif message["type"] == "chat":
                await self._chat(conn, message)
            elif message["type"] == "report":
                await self._report(conn, message)
        except ProtocolError as exc:
            conn.error(exc.code, str(exc), kind)
        except OSError as exc:
            log.warning("%s: players' store unreachable: %s", conn.address, exc)
            conn.error(ErrorCode.UNAVAILABLE, "the players' store cannot be reached: try again")
        except Exception as exc:
            if type(exc).__module__.startswith("redis"):
                log.warning("%s: players' store unreachable: %s", conn.address, exc)
                conn.error(ErrorCode.UNAVAILABLE, "the players' store cannot be reached", kind)
            else:
                log.exception("%s: %s failed", conn.address, kind)
                conn.error(ErrorCode.INTERNAL, "the server could not handle that message", kind)

    # ------------------------------------------------------------------ who

    async def _identify(self, conn: Conn, message: talk.Identify) -> None:
        _not_at_table(conn)
        player_id = key_hash(check_key(message.get("key")))
        ban = await self.registry.banned(player_id, conn.address)
        if ban is not None:
            self._refuse(conn, ban, "identify")
            return
        now = self.clock()
        player = await self.registry.player(player_id)
        new = False
        if player is None:
            if "name" not in message:
                raise ProtocolError(
                    ErrorCode.UNKNOWN_KEY,
                    "this server does not know that key: send a name with it to register",
                )
            name = check_player_name(message.get("name"))
            if await self.registry.by_name(name_key(name)) is None:  # (else: name_taken)
                await self._count_registration(conn)
            player = await self.registry.register(Player(player_id, name, name_key(name), now))
            new = player.since == now
            if new:
                log.info("%s: player %s registered", conn.address, player.name)
        self._become(conn, player, new, now)

    async def _count_registration(self, conn: Conn) -> None:
        limits = self.limits
        count = await self.registry.count("register", conn.address, limits.register_window)
        if count > limits.registrations:
            raise ProtocolError(
                ErrorCode.TOO_MANY_NAMES,
                f"{limits.registrations} players were registered from your address in the"
                " last hour: try again later",
            )

    async def _rename(self, conn: Conn, message: talk.Rename) -> None:
        player_id = require_identity(conn)
        _not_at_table(conn)
        name = check_player_name(message.get("name"))
        now = self.clock()
        old = conn.name
        player = await self.registry.rename(
            player_id, name, name_key(name), now, self.limits.rename_every
        )
        log.info("%s: player %s renamed %s", conn.address, old, player.name)
        self._become(conn, player, False, now)

    def _become(self, conn: Conn, player: Player, new: bool, now: float) -> None:
        conn.player_id = player.id
        conn.name = player.name
        conn.relay_head = ""  # (made again with the name, for a table on another process)
        wait = player.rename_in(now, self.limits.rename_every)
        conn.post(encode(talk.identity(player.name, new, wait)))

    def _refuse(self, conn: Conn, ban: Ban, ref: str | None) -> None:
        """Tell a banned connection why, then close it."""
        log.info("%s: refused, banned (%s)", conn.address, ban.target.partition(":")[0])
        protocol = PROTOCOL if ref == "hello" else None
        conn.error(ErrorCode.BANNED, ban.reason or "banned by the operator", ref, protocol)
        conn.close_with = (CLOSE_BANNED, "banned")
        conn.outbox.put_nowait(None)

    # ------------------------------------------------------------------ quick chat

    async def _chat(self, conn: Conn, message: talk.Chat) -> None:
        say = message.get("say")
        if not isinstance(say, str) or say not in talk.QUICK_CHAT:
            raise ProtocolError(
                ErrorCode.BAD_CHAT, "quick chat sends one of the codes of the protocol, no text"
            )
        table, seat = conn.table, conn.seat
        if table is None or seat is None:
            raise ProtocolError(ErrorCode.NO_TABLE, "chat: join or create a table first")
        limits = self.limits
        sent = self._chats.setdefault(conn, deque())
        now = time.monotonic()
        while sent and now - sent[0] >= limits.chat_window:
            sent.popleft()
        if len(sent) >= limits.chat_burst:
            raise ProtocolError(ErrorCode.CHAT_LIMITED, "too many quick messages: wait a little")
        sent.append(now)
        if await self.registry.count("chat", conn.address, limits.address_window) > (
            limits.address_chats
        ):
            raise ProtocolError(
                ErrorCode.CHAT_LIMITED, "too many quick messages from your address: wait a minute"
            )
        if conn.table is not table:
            return  # left the table meanwhile
        text = encode(talk.said(seat.index, seat.name, say))
        for each in table.seats:
            if each.peer is not None:
                each.peer.post(text)
        if table.audience is not None:
            table.audience.said(table, text)

    # ------------------------------------------------------------------ reports

    async def _report(self, conn: Conn, message: talk.Report) -> None:
        table, seat = conn.table, conn.seat
        if table is None or seat is None:
            raise ProtocolError(ErrorCode.NO_TABLE, "report: join or create a table first")
        target, reason = message.get("seat"), message.get("reason", "other")
        if not isinstance(reason, str) or reason not in talk.REPORT_REASONS:
            raise ProtocolError(
                ErrorCode.BAD_REPORT, f"a reason is one of {', '.join(talk.REPORT_REASONS)}"
            )
        if (
            not isinstance(target, int)
            or isinstance(target, bool)
            or not 0 <= target < len(table.seats)
            or target == seat.index
            or table.seats[target].kind != "human"
            or not table.seats[target].claimed
        ):
            raise ProtocolError(
                ErrorCode.BAD_REPORT, "report the seat number of another person at this table"
            )
        done = self._reports.setdefault(conn, set())
        if (table.code, target) not in done:
            if len(done) >= self.limits.reports:
                raise ProtocolError(ErrorCode.BAD_REPORT, "this connection has reported enough")
            done.add((table.code, target))
            await self.registry.report(self._what(conn, table, target, reason))
            log.info("table %s: %s reported %s", table.code, conn.name, table.seats[target].name)
        conn.post(encode(talk.reported(target)))

    def _what(self, conn: Conn, table: Any, target: int, reason: str) -> dict[str, Any]:
        """A report as it is kept: who, whom, why, and the hand (its record, and where the
        server's records folder keeps the match)."""
        other = table.seats[target]
        peer = other.peer
        record: dict[str, Any] | None = None
        if table.driver is not None and table.driver.state is not None:
            try:
                record = table.driver.record(
                    unfinished="reported" if table.phase == "playing" else None
                )
            except ValueError:
                record = None
        folder = table.config.records
        return {
            "at": self.clock(),
            "reason": reason,
            "table": table.code,
            "deal": table.deals,
            "by": {"name": conn.name, "player": conn.player_id, "address": conn.address},
            "player": {
                "name": other.name,
                "player": getattr(peer, "player_id", None),
                "address": getattr(peer, "address", None),
            },
            "records": f"{table.match_id}-{table.code}.jsonl" if folder is not None else None,
            "hand": record,
        }


def _not_at_table(conn: Conn) -> None:
    if conn.table is not None or conn.remote is not None:
        raise ProtocolError(ErrorCode.AT_TABLE, "leave the table first")


def is_address(text: str) -> bool:
    """``text`` is an IP address (a ban's target).

    >>> is_address("203.0.113.9"), is_address("2001:db8::1"), is_address("Anna")
    (True, True, False)
    """
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
