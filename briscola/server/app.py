"""The WebSocket server: connections, limits and the routing of messages to tables.

Limits rest on the ``websockets`` library where it has them: ``max_size`` (oversized frames
close the connection with code 1009), ``ping_interval``/``ping_timeout`` (dead peers),
``open_timeout`` (slow handshakes) and ``process_request`` (too many connections are
refused with HTTP 503 before the WebSocket opens). On top: a token bucket per connection, a
hello deadline, an idle deadline for connections without a table, failed-join limits per
address, caps on tables (in all, per address, per connection) and fair turns for computer
players (:mod:`briscola.server.fair`). A bad message gets an ``error`` reply and changes
nothing; a valid seat token is never refused by the failed-join lock.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import secrets
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING

from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from briscola.engine import ReplayError, Rules
from briscola.protocol import lobby
from briscola.protocol import messages as msg
from briscola.protocol.errors import CloseReason, ErrorCode, ProtocolError
from briscola.protocol.people import CLIENT_TYPES as PEOPLE_TYPES
from briscola.protocol.people import RATING_TYPES
from briscola.protocol.wire import PROTOCOL, check_name, encode, normalize_code
from briscola.ratings import MemoryStore, RatingService, RatingStore, SqliteStore
from briscola.server.admission import Admission, joined, new_code, tell
from briscola.server.config import ServerConfig
from briscola.server.conn import CLOSE_ABUSE, CLOSE_IDLE, CLOSE_REPLACED, Conn, address_of
from briscola.server.fair import FairPool
from briscola.server.lobby import Public, own_message
from briscola.server.people import People
from briscola.server.rated import Rated
from briscola.server.registry import MemoryRegistry, RedisRegistry
from briscola.server.seats import Seat, SeatKind, bot_names, refuse_if_ended, seat_kinds
from briscola.server.tables import FrameTap, Table

if TYPE_CHECKING:
    from briscola.server.keep import TableKeep
    from briscola.server.shared import Shared

__all__ = ["Server", "ServerConfig"]

log = logging.getLogger("briscola.server")


@dataclass
class _Stats:
    connections: int = 0
    messages: int = 0
    errors: Counter[str] = field(default_factory=Counter)


class Server:
    """The Briscola server. ``await start()``, then ``await close()``; or use
    :class:`ServerThread` to run one beside a GUI or a test."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self.per_address: Counter[str] = Counter()
        self.admission = Admission(self.config)
        self.stats = _Stats()
        #: Test hook: called with (table, seat, frame) for every frame sent to a seat.
        self.tap: FrameTap | None = None
        self.port = self.config.port
        self._ws: WsServer | None = None
        executor: concurrent.futures.Executor
        if self.config.bot_processes > 0:
            slots = self.config.bot_processes
            executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=slots, mp_context=multiprocessing.get_context("spawn")
            )
        else:
            slots = max(1, self.config.bot_threads)
            executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=slots, thread_name_prefix="briscola-bot"
            )
        #: Computer players think here, one address's tables in turn with another's.
        self.pool = FairPool(executor, slots)
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        #: ``--redis``: the tables shared with other processes (None: in memory only).
        self.shared: Shared | None = None
        if self.config.redis is not None:
            from briscola.server.shared import Shared  # only a dedicated server needs redis

            self.shared = Shared(self, self.config.redis, self.config.lease_ms)
            self.admission.on_fail = self.shared.failed
        #: Players, quick chat, reports and bans (in Redis with the tables, or in memory).
        registry = RedisRegistry(self.shared.store.redis) if self.shared else MemoryRegistry()
        self.people = People(registry, conns=lambda: self.conns)
        #: The ratings of rated tables: in Redis with the tables, kept on disk by the host.
        self.rated = Rated(RatingService(self._rating_store()), registry)
        #: ``keep``: the tables kept on disk (the host's own server; None: in memory only).
        self.keep: TableKeep | None = None
        #: The lobby of public tables, quick match and spectators.
        self.public = Public(self)

    def _rating_store(self) -> RatingStore:
        if self.config.redis is not None:
            from briscola.server.ratings import RedisStore

            store = RedisStore(self.config.redis)
            if not store.durable():
                log.warning("ratings: Redis is not durable (appendonly yes, appendfsync always)")
            return store
        return SqliteStore(self.config.keep) if self.config.keep is not None else MemoryStore()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        cfg = self.config
        if self.shared is not None:
            await self.shared.start()
        await self.public.start()
        if cfg.keep is not None:
            self._reopen(cfg.keep)
        self._ws = await serve(
            self._handle,
            cfg.host,
            cfg.port,
            ssl=cfg.ssl,
            max_size=cfg.max_message,
            max_queue=8,
            ping_interval=cfg.ping_interval,
            ping_timeout=cfg.ping_timeout,
            open_timeout=cfg.hello_timeout,
            close_timeout=5,
            compression=None,
            process_request=self._admit,
            server_header=None,
        )
        sockets = list(self._ws.sockets)
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        self._sweeper = asyncio.create_task(self._sweep())
        log.info("listening on %s", self.url)

    def _reopen(self, folder: Path) -> None:
        """Keep the tables in ``folder``, and rebuild those kept there (the host's game
        died with them): their players, who keep reconnecting, resume their seats."""
        from briscola.server.keep import TableKeep
        from briscola.server.replica import rebuild_table, table_maker

        self.keep = keep = TableKeep(folder)
        make = table_maker(self)
        for code, stored in keep.load().items():
            try:
                table = rebuild_table(stored, make, code)
            except (ReplayError, ValueError, KeyError, TypeError):
                log.exception("table %s: what is kept of it does not replay", code)
                table = None
            if table is None:
                keep.erase(code)
                continue
            table.journal = keep
            self.tables[code] = table
            self.public.attach(table)
            table.revive()
            self.rated.rebuilt(table)
            log.info("table %s opened again from %s", code, keep.path)

    @property
    def url(self) -> str:
        scheme = "wss" if self.config.ssl is not None else "ws"
        host = self.config.host
        if ":" in host:
            host = f"[{host}]"
        return f"{scheme}://{host}:{self.port}"

    async def close(
        self, reason: CloseReason = CloseReason.SHUTDOWN, message: str = "the server is closing"
    ) -> None:
        """Tell every table, save hands in progress, then close every connection."""
        if self._closing:
            return
        self._closing = True
        if self.shared is not None:
            # Other processes carry on with these tables: hand them over, lose nothing.
            if self._ws is not None:
                self._ws.close(close_connections=False)
            await self.shared.drain()
        # Connections at no table (in the lobby, or a resume not answered yet) are told too,
        # so that a client holding a seat stops rather than reconnect to a server that is gone.
        seatless = [conn for conn in self.conns if conn.table is None]
        for table in list(self.tables.values()):
            table.close(reason, message)
        if self.shared is None:
            closed = encode(msg.closed(reason, message))
            for conn in seatless:
                conn.post(closed)
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.people.close()
        for conn in list(self.conns):
            conn.outbox.put_nowait(None)
        if self._ws is not None:
            self._ws.close(close_connections=False)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._ws.wait_closed(), 10)
        self.pool.shutdown()
        await self.rated.idle()
        self.rated.service.store.close()
        await self.public.close()
        if self.shared is not None:
            await self.shared.close()
        if self.keep is not None:
            self.keep.close()

    async def serve_forever(self) -> None:
        assert self._ws is not None
        await self._ws.wait_closed()

    # ------------------------------------------------------------------ admission

    def _admit(self, ws: ServerConnection, request: Request) -> Response | None:
        address = address_of(ws, request.headers, self.config.trusted)
        if self._closing:
            return _refuse(ws, HTTPStatus.SERVICE_UNAVAILABLE, "the server is closing")
        if len(self.conns) >= self.config.max_connections:
            return _refuse(ws, HTTPStatus.SERVICE_UNAVAILABLE, "the server is full")
        if self.per_address[address] >= self.config.max_per_address:
            return _refuse(ws, HTTPStatus.TOO_MANY_REQUESTS, "too many connections from you")
        return None

    async def _handle(self, ws: ServerConnection) -> None:
        address = address_of(ws, ws.request.headers if ws.request else None, self.config.trusted)
        conn = Conn(ws, address, self.config)
        over = (
            len(self.conns) >= self.config.max_connections
            or self.per_address[address] >= self.config.max_per_address
        )
        if over or self._closing:
            await ws.close(1013, "too many connections")
            return
        self.conns.add(conn)
        self.per_address[address] += 1
        self.stats.connections += 1
        writer = asyncio.create_task(conn.write_loop())
        try:
            await self._converse(conn)
        except ConnectionClosed:
            pass
        except Exception:  # a bug must cost one connection, never the server
            log.exception("%s: connection failed", address)
        finally:
            self.conns.discard(conn)
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]
            self.detach(conn)
            conn.outbox.put_nowait(None)
            with contextlib.suppress(
                asyncio.TimeoutError, ConnectionClosed, asyncio.CancelledError
            ):
                await asyncio.wait_for(writer, 5)
            writer.cancel()

    async def _converse(self, conn: Conn) -> None:
        ws = conn.ws
        assert ws is not None
        try:
            first = await asyncio.wait_for(ws.recv(), self.config.hello_timeout)
        except TimeoutError:
            await ws.close(CLOSE_IDLE, "no hello in time")
            return
        if not await self.people.admit(conn) or not self._hello(conn, first):
            conn.outbox.put_nowait(None)
            return
        while True:
            seated = conn.table is not None or conn.remote is not None
            timeout = None if seated else self.config.idle_timeout
            try:
                if timeout is None:
                    text = await ws.recv()
                else:
                    text = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                conn.post(encode(msg.closed(CloseReason.IDLE, "idle too long")))
                conn.outbox.put_nowait(None)
                return
            self.stats.messages += 1
            if not conn.allow():
                self.stats.errors[ErrorCode.RATE_LIMITED] += 1
                if conn.strikes == 1:
                    conn.error(ErrorCode.RATE_LIMITED, "too many messages: slow down")
                if conn.strikes >= self.config.strikes:
                    await ws.close(CLOSE_ABUSE, "too many messages")
                    return
                continue
            if (
                self.shared is not None
                and isinstance(text, str)
                and self.shared.relays(conn)
                and not own_message(text)
            ):
                await self.shared.relay(conn, text)  # as it came: its table's owner reads it
                continue
            try:
                message = msg.decode_client(text)
            except ProtocolError as exc:
                self.stats.errors[exc.code] += 1
                conn.error(exc.code, str(exc), exc.ref)
                continue
            if self.shared is not None and self.shared.draining:
                continue  # handing the tables over: the client resumes elsewhere
            if self.shared is not None and message["type"] in ("create", "join", "resume"):
                try:  # the limits of the whole service (what this address did elsewhere)
                    await self.shared.quota.check(conn, message)
                except ProtocolError as exc:
                    self.stats.errors[exc.code] += 1
                    conn.error(exc.code, str(exc), message["type"])
                    continue
            await self.submit(conn, message)

    async def submit(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Act on ``message`` here, or pass it to the process that drives its table."""
        if message["type"] in RATING_TYPES:
            await self.rated.handle(conn, message)
        elif self.shared is not None and self.shared.wants(conn, message):
            await self.shared.route(conn, message)
        elif message["type"] in PEOPLE_TYPES:
            await self.people.handle(conn, message)
        else:
            self.handle(conn, message)

    def handle(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Act on one decoded message; a refused or failing one gets an ``error`` reply."""
        ref = message["type"]
        try:
            self._dispatch(conn, message)
        except ProtocolError as exc:
            self.stats.errors[exc.code] += 1
            conn.error(exc.code, str(exc), ref)
        except Exception:
            log.exception("%s: message failed", conn.address)
            self.stats.errors[ErrorCode.INTERNAL] += 1
            conn.error(ErrorCode.INTERNAL, "the server could not handle that message", ref)

    def _hello(self, conn: Conn, text: str | bytes) -> bool:
        try:
            message = msg.decode_hello(text)
            version = message.get("protocol")
            if version != PROTOCOL:
                raise ProtocolError(
                    ErrorCode.VERSION,
                    f"this server speaks {PROTOCOL}, the client {version!r}: update the game"
                    " so both speak the same version",
                )
            conn.name = check_name(message.get("name"))
        except ProtocolError as exc:
            conn.error(exc.code, str(exc), "hello", protocol=PROTOCOL)
            return False
        cfg = self.config
        conn.post(
            encode(msg.welcome(cfg.max_message, cfg.rate, cfg.burst, cfg.grace, cfg.embedded))
        )
        return True

    # ------------------------------------------------------------------ messages

    def _dispatch(self, conn: Conn, message: msg.ClientMessage) -> None:
        if message["type"] == "create":
            self._create(conn, message)
        elif message["type"] == "join":
            self._join(conn, message)
        elif message["type"] == "resume":
            self._resume(conn, message)
        elif message["type"] in PEOPLE_TYPES:
            self.people.take(conn, message)  # (a connection of another process)
        elif message["type"] == "hello":
            raise ProtocolError(ErrorCode.HELLO_TWICE, "hello was already said")
        elif message["type"] in lobby.CLIENT_TYPES:
            self.public.handle(conn, message)
        else:
            table, seat = conn.table, conn.seat
            if table is None or seat is None:
                raise ProtocolError(
                    ErrorCode.NO_TABLE, f"{message['type']}: join or create a table first"
                )
            if message["type"] == "ready":
                table.set_ready(seat, message.get("ready", True) is True)
            elif message["type"] == "start":
                table.start(seat, fill_bots=message.get("fill_bots") is True)
            elif message["type"] == "act":
                table.act(seat, message.get("action"), message.get("moves"))
            elif message["type"] == "next":
                table.next_hand(seat)
            elif message["type"] == "contribute":
                table.contribute(seat, message.get("commit"), message.get("value"))
            else:
                conn.table, conn.seat = None, None
                table.leave(seat)

    def _create(self, conn: Conn, message: msg.Create) -> None:
        if conn.table is not None:
            raise ProtocolError(ErrorCode.AT_TABLE, "leave this table before creating another")
        self.public.check_free(conn, "create")
        if len(self.tables) >= self.config.max_tables:
            raise ProtocolError(ErrorCode.SERVER_FULL, "the server holds as many tables as it can")
        self.admission.check_caps(conn, self.tables.values())
        rules_data = message.get("rules", {"preset": "classic2"})
        try:
            if not isinstance(rules_data, Mapping):
                raise ValueError("rules must be a JSON object")
            rules = Rules.from_dict(rules_data)
        except (ValueError, TypeError) as exc:
            raise ProtocolError(ErrorCode.BAD_RULES, f"rules: {exc}") from None
        kinds = seat_kinds(message.get("seats"), rules.players)
        names = bot_names(message.get("seats"))
        host = message.get("seat", 0)
        if not isinstance(host, int) or isinstance(host, bool) or not 0 <= host < rules.players:
            raise ProtocolError(
                ErrorCode.BAD_SEATS, f"seat must be a number from 0 to {rules.players - 1}"
            )
        public = message.get("public") is True
        table = self.new_table(rules, kinds, host, conn.address, public, names)
        table.opened_by = conn.serial
        conn.created.append(time.monotonic())
        seat = table.claim(conn, host)
        seat.ready = True
        self._seat(conn, table, seat)

    def new_table(
        self,
        rules: Rules,
        kinds: list[tuple[SeatKind, str]],
        host: int,
        owner: str,
        public: bool = False,
        names: list[str] | None = None,
    ) -> Table:
        """A new table driven here (``owner``: the address whose bots take turns)."""
        code = new_code(self.tables, self.config.code_start)
        config = self.config.table_config()
        table = Table(
            code, rules, kinds, host, config, self.pool, self.table_closed, lambda: self.tap,
            names or (), owner=owner,
        )  # fmt: skip
        table.public = public
        table.rater = self.rated
        if self.shared is not None:
            self.shared.adopt(table)
        elif self.keep is not None:
            table.seed = secrets.token_hex(16)  # a rebuilt table's computers play as before
            table.journal = self.keep
        self.tables[code] = table
        self.public.attach(table)
        return table

    def _find(self, conn: Conn, message: msg.Join | msg.Resume) -> Table:
        if conn.table is not None:
            raise ProtocolError(ErrorCode.AT_TABLE, "leave this table before joining another")
        self.public.check_free(conn, message["type"])
        self.admission.check_failures(conn)
        try:
            code = normalize_code(message.get("code"))
        except ProtocolError as exc:
            raise self.admission.fail(conn, exc.code, str(exc)) from None
        table = self.tables.get(code)
        if table is None or table.phase == "closed":
            raise self.admission.fail(conn, ErrorCode.NO_TABLE, f"there is no table {code}")
        return table

    def _join(self, conn: Conn, message: msg.Join) -> None:
        table = self._find(conn, message)
        wanted = message.get("seat")
        if wanted is not None and (not isinstance(wanted, int) or isinstance(wanted, bool)):
            raise ProtocolError(ErrorCode.BAD_SEATS, "seat must be a seat number")
        if wanted is not None and not 0 <= wanted < len(table.seats):
            raise ProtocolError(
                ErrorCode.SEAT_TAKEN,
                f"there is no seat {wanted} at this table (0 to {len(table.seats) - 1})",
            )
        seat = table.claim(conn, wanted)
        self._seat(conn, table, seat)

    def _resume(self, conn: Conn, message: msg.Resume) -> None:
        if conn.table is not None:
            raise ProtocolError(ErrorCode.AT_TABLE, "leave this table before joining another")
        self.public.check_free(conn, "resume")
        token = message.get("token")
        try:
            code = normalize_code(message.get("code"))
        except ProtocolError:
            code = ""
        table = self.tables.get(code)
        seat = None
        if table is not None and table.phase != "closed" and isinstance(token, str):
            seat = table.seat_of_token(token) if len(token) < 100 else None
        if seat is None or table is None:
            # People share addresses (NAT): a valid token is never refused by the lock, and
            # a locked address learns nothing about codes.
            self._find(conn, message)
            refuse_if_ended(table.ended_tokens if table is not None else None, token)
            raise self.admission.fail(
                conn, ErrorCode.BAD_TOKEN, "that seat token is not valid at this table"
            )
        everyone = [*self.conns, *(self.shared.guests.values() if self.shared else ())]
        replaced = [other for other in everyone if other is not conn and other.seat is seat]
        for other in replaced:
            other.table, other.seat = None, None
        conn.table, conn.seat = table, seat
        tell(conn, table, joined(table, seat))
        tell(conn, table, encode(table.commitment()))  # right after joined: docs/fairness.md
        table.resume(conn, seat)  # tells the connection it replaces why it goes
        for other in replaced:
            other.close_with = (CLOSE_REPLACED, "replaced: signed in elsewhere")
            other.outbox.put_nowait(None)

    def _seat(self, conn: Conn, table: Table, seat: Seat) -> None:
        conn.table, conn.seat = table, seat
        tell(conn, table, joined(table, seat))
        tell(conn, table, encode(table.commitment()))  # right after joined: docs/fairness.md
        table.broadcast_info()

    def detach(self, conn: Conn) -> None:
        """The connection is gone: its seat waits for it (the grace period)."""
        if self.shared is not None:
            self.shared.gone(conn)
        self.public.gone(conn)
        table, seat = conn.table, conn.seat
        conn.table, conn.seat = None, None
        if table is not None and seat is not None and seat.peer is conn:
            table.detach(seat)

    def table_closed(self, table: Table) -> None:
        self.tables.pop(table.code, None)
        for conn in self.conns:
            if conn.table is table:
                conn.table, conn.seat = None, None

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            now = time.monotonic()
            for table in list(self.tables.values()):
                idle = now - table.touched
                if table.phase == "lobby" and idle > self.config.lobby_timeout:
                    table.close(CloseReason.IDLE, "the waiting room stayed idle too long")
                elif table.phase == "over" and idle > self.config.lobby_timeout:
                    table.close(CloseReason.IDLE, "the table stayed idle too long")
                elif not any(seat.connected for seat in table.seats) and (
                    idle > self.config.grace + self.config.next_hand_timeout
                ):
                    table.close(CloseReason.ABANDONED, "no player is connected")


def _refuse(ws: ServerConnection, status: HTTPStatus, text: str) -> Response:
    response = ws.respond(status, text + "\n")
    response.headers = Headers([("Content-Type", "text/plain; charset=utf-8")])
    return response
