"""Many server processes, one service (``python -m briscola.server --redis URL``).

Every table lives in Redis (:mod:`briscola.server.store`) and is driven by one process at a
time, the holder of its lease. What each process does:

- It writes every change of a table it drives (:class:`Link`, a :class:`Journal`) in order,
  fenced by its lease, and holds each frame to the players until what came before it is
  stored: a player never sees a move that a crash could still take back.
- A player may connect to any process. A ``join`` or ``resume`` for a table driven elsewhere
  is forwarded to the owner through Redis pub/sub, and so is every later message of that
  connection; the owner's frames come back the same way.
- A table nobody drives (its owner was killed and its lease expired, or it handed the table
  back) is taken over by the first process a player of it reaches: it rebuilds the table by
  replaying the records through the match driver. Computer players draw their randomness
  from the table's seed and their place in the match, so the new owner plays as the old one
  would have.
- ``SIGTERM`` drains: the process stops taking connections, stores what is pending, hands
  its tables back (releases their leases) and sends every player away with code 1012, so
  their clients reconnect (to another process) and carry on with their seat tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any, Final, cast

from briscola.engine import ReplayError
from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import normalize_code
from briscola.server.conn import Conn
from briscola.server.link import FRAME, Guest, Host, Link, Who, identity, is_signal
from briscola.server.quota import Quota
from briscola.server.replica import rebuild_table, table_maker, table_ops
from briscola.server.store import Lease, RedisError, Store, StoredTable
from briscola.server.tables import Table

__all__ = ["Shared"]

log = logging.getLogger("briscola.server")

#: A frame forwarded to another process ends its connection there (close code, reason).
_END: Final = "\x00end"
#: A client's message relayed as it came to the process that drives its table: ``i``, the
#: sending process, the connection's serial, its address, name and player id (JSON), a newline,
#: the text.
RELAY: Final = "i"
#: Close code that sends a client to reconnect: the service restarts (RFC 6455).
CLOSE_RESTART: Final = 1012
#: Messages of one connection kept while its table is found again (:meth:`Shared.hold`).
HELD: Final = 16
_MOVED_MOVE: Final = (
    "your table moved to another server and this move has no move count to check it"
    " against: move again from the position just sent"
)


class Shared:
    """The shared store of one server process (see the module docstring)."""

    def __init__(self, server: Host, url: str, lease_ms: int = 3000) -> None:
        self.server = server
        self.store = Store(url, lease_ms)
        #: The per-address limits of the whole service.
        self.quota = Quota(self.store, server.config)
        self.process = secrets.token_hex(6)
        self.links: dict[str, Link] = {}
        #: Connections of other processes at tables driven here: (process, serial) -> Conn.
        self.guests: dict[tuple[str, int], Conn] = {}
        #: This process's connections whose table is driven elsewhere, by serial.
        self.forwarded: dict[int, Conn] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._draining = False
        self._pending: dict[str, asyncio.Future[Table | None]] = {}
        #: The public side's (briscola.server.lobby): ``rebuilt`` (a table taken over),
        #: ``lost`` (a table another process drives now),
        #: ``matched`` (a quick match found on another process for a connection here).
        self.hooks: dict[str, Callable[[Any], None]] = {}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Reach Redis (raises ``RedisError`` with the reason when it cannot) and listen."""
        await self.store.ping()
        await self.store.listen(self.process, self._heard_data)
        self._tasks.append(asyncio.create_task(self._keep()))

    async def drain(self) -> None:
        """Store what is pending, hand every table back, send every player away (1012)."""
        self._draining = True
        deadline = asyncio.get_running_loop().time() + 10
        while any(not link.idle for link in self.links.values()):
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.02)
        for link in list(self.links.values()):
            link.table.stop_clocks()
            link.stop()
            if link.lease is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self.store.release(link.lease)
            self.server.tables.pop(link.table.code, None)
        self.links.clear()
        for (process, serial), guest in list(self.guests.items()):
            with contextlib.suppress(RedisError, OSError):
                await self.store.publish(process, {"op": "moved", "conn": serial})
            guest.table, guest.seat = None, None
        self.guests.clear()
        for conn in list(self.server.conns):
            conn.table, conn.seat = None, None
            conn.close_with = (CLOSE_RESTART, "the server is restarting: reconnect")
            conn.outbox.put_nowait(None)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.store.close()

    # ------------------------------------------------------------------ tables driven here

    def adopt(self, table: Table, lease: Lease | None = None) -> None:
        """Drive ``table`` here: new (``lease`` None: taken with its first write) or taken
        over."""
        if table.seed is None:
            table.seed = secrets.token_hex(16)
        link = Link(self, table, lease, new=lease is None)
        self.links[table.code] = link
        table.journal = link
        if lease is None:
            self._spawn(self.quota.table(table))

    def failed(self, address: str) -> None:
        """A join or resume of ``address`` failed here: count it for the service."""
        self._spawn(self.quota.failed(address))

    def forget(self, link: Link) -> None:
        if self.links.get(link.table.code) is link:
            del self.links[link.table.code]
        if link.lease is not None:
            self._spawn(self.store.release(link.lease))

    def lose(self, link: Link, why: str) -> None:
        """Another process drives the table now: stop it here, send its players there."""
        link.stop()
        table = link.table
        table.stop_clocks()
        self.links.pop(table.code, None)
        if self.server.tables.get(table.code) is table:
            del self.server.tables[table.code]
        if "lost" in self.hooks:
            self.hooks["lost"](table)
        for conn in [*self.server.conns, *self.guests.values()]:
            if conn.table is table or conn.watching is table:  # (spectators: watch again)
                conn.table, conn.seat, conn.watching = None, None, None
                conn.close_with = (CLOSE_RESTART, why)
                conn.outbox.put_nowait(None)

    def ops(self, table: Table, kind: str, data: Any) -> list[tuple[str, str, str]]:
        if kind == "closed" or (kind == "deal" and table.deals == 1):
            self._spawn(self.quota.table(table))  # no longer a waiting room; or gone
        return table_ops(table, kind, data)

    async def take_over(self, code: str) -> Table | None:
        """Drive the stored table ``code`` here, if nobody drives it (None otherwise); two
        players of one table arriving at once wait for the same takeover."""
        if self._draining or code in self.server.tables:
            return self.server.tables.get(code)
        pending = self._pending.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        pending = self._pending[code] = asyncio.get_running_loop().create_future()
        table = None
        try:
            table = await self._take_over(code)
        finally:
            pending.set_result(table)
            del self._pending[code]
        return table

    async def _take_over(self, code: str) -> Table | None:
        lease = await self.store.acquire(code, self.process, new=False)
        if lease is None:
            return None
        try:
            stored = await self.store.load(code)
            table = None if stored is None else self._rebuild(code, stored)
        except (ReplayError, ValueError, KeyError, TypeError):
            log.exception("table %s: its stored state does not replay", code)
            table = None
        if table is None or code in self.server.tables:
            await self.store.release(lease)
            return self.server.tables.get(code)
        self.server.tables[code] = table
        self.adopt(table, lease)
        self.server.rated.rebuilt(table)
        if "rebuilt" in self.hooks:
            self.hooks["rebuilt"](table)
        log.info("table %s taken over (lease %s)", code, lease.value)
        table.revive()
        return table

    def _rebuild(self, code: str, stored: StoredTable) -> Table | None:
        return rebuild_table(stored, table_maker(self.server), code)

    # ------------------------------------------------------------------ routing

    @property
    def draining(self) -> bool:
        return self._draining

    def wants(self, conn: Conn, message: msg.ClientMessage) -> bool:
        """The message is for a table that may be driven elsewhere (or not driven now)."""
        if conn.remote is not None or conn.rescuing:
            return True
        if message["type"] not in ("join", "resume", "watch") or conn.table is not None:
            return False
        try:
            code = normalize_code(message.get("code"))
        except ProtocolError:
            return False
        return code not in self.server.tables

    async def route(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Forward ``message`` to the process that drives the table, or take the table
        over when nobody does; then handle it here. Redis away: an ``unavailable`` error."""
        try:
            await self._route(conn, message)
        except (RedisError, OSError) as exc:
            log.warning("%s: Redis unreachable: %s", conn.address, exc)
            self.server.stats.errors[ErrorCode.UNAVAILABLE] += 1
            conn.error(
                ErrorCode.UNAVAILABLE,
                "the tables' store cannot be reached: try again",
                message["type"],
            )

    async def _route(self, conn: Conn, message: msg.ClientMessage) -> None:
        if conn.rescuing:
            self.hold(conn, message)  # passed on after the resume that ends the rescue
            return
        if conn.remote is None:
            code = normalize_code(message.get("code"))
            owner = await self.store.owner(code)
            here = owner is None or owner == self.process  # (here: a takeover under way)
            if here and await self.take_over(code) is None and owner is None:
                owner = await self.store.owner(code)  # taken by another at the same moment
            if owner is not None and owner != self.process:
                conn.remote = owner
                self.forwarded[conn.serial] = conn
        if conn.remote is None:
            self.server.handle(conn, message)
            return
        heard = await self.store.publish(conn.remote, self._envelope(conn, message))
        if not heard:  # the owner is gone: its lease runs out, then the table comes here
            await self.rescue(conn, message)

    def relays(self, conn: Conn) -> bool:
        """``conn``'s messages go as they came to its table's owner, which reads them."""
        return conn.remote is not None and not conn.rescuing and not self._draining

    async def relay(self, conn: Conn, text: str) -> None:
        """Pass a message of a connection whose table is driven elsewhere to its owner,
        unread (the owner decodes, checks and answers it); the owner gone: rescue."""
        remote = conn.remote
        assert remote is not None
        if not conn.relay_head:  # (the address and name do not change: made once)
            who = json.dumps([conn.address, conn.name, conn.player_id])
            conn.relay_head = f"{RELAY}{self.process} {conn.serial} {who}\n"
        try:
            heard = await self.store.publish_text(remote, conn.relay_head + text)
        except (RedisError, OSError) as exc:
            log.warning("%s: Redis unreachable: %s", conn.address, exc)
            self.server.stats.errors[ErrorCode.UNAVAILABLE] += 1
            conn.error(ErrorCode.UNAVAILABLE, "the tables' store cannot be reached: try again")
            return
        if not heard:  # the owner is gone: its lease runs out, then the table comes here
            try:
                message: msg.ClientMessage | None = msg.decode_client(text)
            except ProtocolError as exc:
                self.server.stats.errors[exc.code] += 1
                conn.error(exc.code, str(exc), exc.ref)
                message = None
            await self.rescue(conn, message)

    def _envelope(self, conn: Conn, message: msg.ClientMessage) -> dict[str, Any]:
        return {
            "op": "in",
            "from": self.process,
            "conn": conn.serial,
            "name": conn.name,
            "address": conn.address,
            "player": conn.player_id,
            "msg": message,
        }

    async def rescue(self, conn: Conn, message: msg.ClientMessage | None = None) -> None:
        """The process that drove ``conn``'s table is gone: find or take over the table,
        seat ``conn`` again with its token, then pass ``message`` on. (Not while this
        process drains: its own connections are sent away to reconnect elsewhere.)"""
        if conn.rescuing or self._draining:
            if message is not None and not self._draining:
                self.hold(conn, message)
            return
        conn.rescuing = True
        try:
            await self._rescue(conn, message)
        except (RedisError, OSError) as exc:  # Redis away: the client reconnects, tries again
            log.warning("%s: cannot find its table again: %s", conn.address, exc)
            conn.remote = None
            conn.close_with = (CLOSE_RESTART, "the tables' store cannot be reached: reconnect")
            conn.outbox.put_nowait(None)
        finally:
            conn.rescuing = False
            conn.held.clear()

    def hold(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Keep a message that came during ``conn``'s rescue (a few: the rate of a person);
        one beyond them is answered ``unavailable``, never dropped unanswered."""
        if len(conn.held) < HELD:
            conn.held.append(message)
        else:
            self.server.stats.errors[ErrorCode.UNAVAILABLE] += 1
            conn.error(
                ErrorCode.UNAVAILABLE,
                "your table is moving to another server: try again in a moment",
                message["type"],
            )

    async def _rescue(self, conn: Conn, message: msg.ClientMessage | None) -> None:
        self.forwarded.pop(conn.serial, None)
        dead, conn.remote = conn.remote, None
        code, token = conn.remote_code, conn.remote_token
        if message is not None and message["type"] in ("join", "resume"):
            named = message.get("code")
            code = named if isinstance(named, str) else code
        if code is None:  # nothing to follow it with: the client reconnects and resumes
            conn.held.clear()
            conn.close_with = (CLOSE_RESTART, "the server of this table stopped: reconnect")
            conn.outbox.put_nowait(None)
            return
        code = normalize_code(code)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3 * self.store.lease_ms / 1000 + 5
        while loop.time() < deadline and conn in self.server.conns:
            owner = await self.store.owner(code)
            if owner is None:
                if await self.take_over(code) is not None or not await self._exists(code):
                    break
                continue  # another process took it at the same moment: follow it
            if owner not in (dead, self.process):
                conn.remote = owner
                self.forwarded[conn.serial] = conn
                break
            if owner == self.process:
                await self.take_over(code)  # one under way here: wait for it
                break
            await asyncio.sleep(0.1)
        queue: list[msg.ClientMessage] = []
        if token is not None and (message is None or message["type"] != "resume"):
            queue.append(msg.resume(code, token))
        if message is not None:
            queue.append(message)
        # The resume sends the seat the position again (``reset``); a move that came with
        # the rescue or during it follows it and is judged against that position: played
        # when its ``moves`` is still the hand's, else answered ``stale``. Never dropped:
        # a client told nothing would wait for a move the server never received.
        while queue or conn.held:
            if not queue:
                queue, conn.held = conn.held, []
            each = queue.pop(0)
            if each["type"] == "act" and each.get("moves") is None and not is_signal(each):
                self.server.stats.errors[ErrorCode.STALE] += 1
                conn.error(ErrorCode.STALE, _MOVED_MOVE, "act")
            elif conn.remote is not None:
                await self.store.publish(conn.remote, self._envelope(conn, each))
            else:
                self.server.handle(conn, each)

    async def _exists(self, code: str) -> bool:
        self.store.operations += 1
        return bool(await self.store.redis.exists(f"briscola:t:{code}:meta"))

    def gone(self, conn: Conn) -> None:
        """A forwarded connection closed here: its owner lets the seat go (grace)."""
        if conn.remote is not None and self.forwarded.pop(conn.serial, None) is not None:
            payload = {"op": "gone", "from": self.process, "conn": conn.serial}
            self._spawn(self.store.publish(conn.remote, payload))

    # ------------------------------------------------------------------ messages from Redis

    def _heard_data(self, data: str) -> None:
        """A message on this process's channel: a frame for a connection held here
        (``o SERIAL`` and the frame, as it is), or a JSON envelope."""
        if data[:1] == FRAME:
            head, _, text = data.partition("\n")
            conn = self.forwarded.get(int(head[1:]))
            if conn is not None:
                self._frame(conn, text)
            return
        if data[:1] == RELAY:
            head, _, text = data.partition("\n")
            process, serial, who = head[1:].split(" ", 2)
            self._relayed(process, int(serial), who, text)
            return
        self._heard(json.loads(data))

    def _relayed(self, process: str, serial: int, who: str, text: str) -> None:
        """A message relayed as it came (:meth:`relay`): read here, then as if forwarded."""
        try:
            message = msg.decode_client(text)
        except ProtocolError as exc:
            guest = self._guest(process, serial, who)
            self.server.stats.errors[exc.code] += 1
            guest.error(exc.code, str(exc), exc.ref)
            if guest.table is None:
                guest.outbox.put_nowait(_END + ":unbound")
            return
        self._in(process, serial, message, who)

    def _frame(self, conn: Conn, text: str) -> None:
        kind = msg.frame_type(text)
        if kind == "joined":
            joined = json.loads(text)
            conn.remote_code, conn.remote_token = joined["table"], joined["token"]
        elif kind == "closed":
            conn.remote_code = None  # the table is over: nothing to follow any more
        elif kind in ("left", "unwatched"):  # unbound there: this one's next message is ours
            self.forwarded.pop(conn.serial, None)
            conn.remote = conn.remote_code = None
        conn.post(text)

    def _heard(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        serial = int(message.get("conn", 0))
        if op == "in":
            player = message.get("player")
            who = (
                str(message.get("address", "")),
                str(message.get("name", "")),
                player if isinstance(player, str) else None,
            )
            self._in(str(message["from"]), serial, message.get("msg"), who)
        elif op == "gone":
            guest = self.guests.pop((str(message["from"]), serial), None)
            if guest is not None:
                self.server.detach(guest)
                guest.outbox.put_nowait(None)
        elif op in self.hooks:
            self.hooks[op](message)
        elif op in ("out", "end", "unbound", "moved"):
            conn = self.forwarded.get(serial)
            if conn is None:
                return
            if op == "out":
                self._frame(conn, str(message["text"]))
            elif op == "end":
                self.forwarded.pop(serial, None)
                conn.remote = None
                conn.close_with = (int(message["code"]), str(message["reason"]))
                conn.outbox.put_nowait(None)
            elif op == "unbound":
                self.forwarded.pop(serial, None)
                conn.remote = None
            else:  # the owner drained: the table is up for takeover
                again = message.get("msg")  # decoded here before it was forwarded
                again = cast(msg.ClientMessage, again) if isinstance(again, dict) else None
                self._spawn(self.rescue(conn, again))

    def _in(self, process: str, serial: int, message: Any, who: str | Who) -> None:
        """A message of connection ``serial`` of ``process`` (``who``: its address and name,
        or them as JSON), for a table driven here."""
        if self._draining:  # handed back: the sender finds the next owner
            moved = {"op": "moved", "conn": serial, "msg": message}
            self._spawn(self.store.publish(process, moved))
            return
        code = message.get("code") if isinstance(message, dict) else None
        pending = self._pending.get(code) if isinstance(code, str) else None
        if pending is not None:  # the table is being taken over here: after that
            pending.add_done_callback(
                lambda _done: self._guest_message(process, serial, message, who)
            )
        else:
            self._guest_message(process, serial, message, who)

    def _guest(self, process: str, serial: int, who: str | Who) -> Conn:
        guest = self.guests.get((process, serial))
        if guest is None:
            address, name, player = identity(who) if isinstance(who, str) else who
            guest = Guest(self.store, process, serial, address, self.server.config)
            guest.name, guest.player_id = name, player
            self.guests[(process, serial)] = guest
            self._spawn(self._pump(process, serial, guest))
        return guest

    def _guest_message(self, process: str, serial: int, message: Any, who: str | Who) -> None:
        guest = self._guest(process, serial, who)
        if not isinstance(message, dict):
            return
        # Decoded by the process the client is connected to (decode_client).
        self.server.handle(guest, cast(msg.ClientMessage, message))
        if guest.table is None and guest.watching is None:
            guest.outbox.put_nowait(_END + ":unbound")

    async def _pump(self, process: str, serial: int, guest: Conn) -> None:
        """Tell the process that holds a guest connection's WebSocket when the connection
        leaves its table or is closed here (its frames go as they are posted)."""
        while True:
            text = await guest.outbox.get()
            if text is not None and not text.startswith(_END):
                continue  # (frames are not queued: Guest.post publishes them)
            if text is not None:
                if guest.table is not None or guest.watching is not None:
                    continue  # seated again since (or watching)
                self.guests.pop((process, serial), None)
                payload: dict[str, Any] = {"op": "unbound", "conn": serial}
            else:
                self.guests.pop((process, serial), None)
                code, reason = guest.close_with
                payload = {"op": "end", "conn": serial, "code": code, "reason": reason}
            try:
                await self.store.publish(process, payload)
            except (RedisError, OSError):
                log.warning("cannot reach the process of a guest connection")
            return

    async def _keep(self) -> None:
        """Renew the leases of the tables driven here; rescue forwarded connections whose
        owner stopped answering."""
        every = self.store.lease_ms / 3000
        while True:
            await asyncio.sleep(every)
            links = [link for link in self.links.values() if link.lease and not link.lost]
            try:  # every lease in one script call (a few, for many hundreds of tables)
                answers = await self.store.renew_all([link.lease for link in links if link.lease])
            except (RedisError, OSError):
                answers = [True] * len(links)  # Redis away: try again at the next turn
            for link, held in zip(links, answers, strict=True):
                if not held and not link.lost:
                    self.lose(link, "the table moved to another server")
            owners = {conn.remote for conn in self.forwarded.values() if conn.remote}
            for owner in owners:
                assert owner is not None
                try:
                    alive = await self.store.publish(owner, {"op": "ping"})
                except (RedisError, OSError):
                    continue
                if not alive:
                    for conn in [c for c in self.forwarded.values() if c.remote == owner]:
                        self._spawn(self.rescue(conn))
            await self._check_leases()

    async def _check_leases(self) -> None:
        """Rescue forwarded connections whose owner no longer holds their table's lease.
        An owner that froze (stopped, a paused VM) still hears its channel, so the ping
        cannot tell; its leases run out (a closed table's connections are not followed)."""
        codes = {c.remote_code for c in self.forwarded.values() if c.remote and c.remote_code}
        if not codes:
            return
        try:
            holders = await self.store.holders(sorted(codes))
        except (RedisError, OSError):
            return
        for conn in list(self.forwarded.values()):
            code = conn.remote_code
            if code in holders and holders[code] != conn.remote and not conn.rescuing:
                self._spawn(self.rescue(conn))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.append(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.remove(task)  # type: ignore[arg-type]
        if not task.cancelled() and (exc := task.exception()) is not None:
            if isinstance(exc, RedisError | OSError):
                log.warning("Redis unreachable: %s", exc)
            else:
                log.error("shared store: a task failed", exc_info=exc)
