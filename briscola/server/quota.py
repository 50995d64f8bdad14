"""The per-address limits of a service of several processes (``--redis``), counted for the
service as a whole in Redis rather than by each process alone.

- Failed joins: each wrong code or token of an address is one ``INCR`` of
  ``briscola:q:fail:ADDRESS``, which expires ``failed_join_window`` seconds after the first
  failure of its run (a fixed window). Once it holds ``failed_joins``, a ``join`` from that
  address is refused on every process, valid code or not, and so is a ``resume`` whose
  token is not one of the table's (checked against the table's stored ``meta``): a valid
  token is never refused.
- Tables and waiting rooms: ``briscola:q:tables:ADDRESS`` is a hash of the address's open
  tables (``lobby`` for a waiting room, ``open`` once dealt), written by the process that
  drives each table as it opens, deals and closes, so a ``create`` on any process sees
  them all. It expires ``KEEP`` seconds after its last change (a table lost with every
  process stops counting then).
- Connections: the proxy's stick-table counts one address's connections for the service
  (docs/server.md); each process's own ``max_per_address`` stays as a backstop.

Each check is one or two Redis reads before the message is handled, so two messages of one
address arriving at two processes at the same instant may both pass: the limits hold to
within the messages in flight at once. Redis away: the check is skipped (each process's own
counts still hold) rather than refuse everyone.
"""

from __future__ import annotations

import json
import logging
import secrets
from typing import TYPE_CHECKING, Any, Final

from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import normalize_code
from briscola.server.admission import check_share
from briscola.server.config import ServerConfig
from briscola.server.store import RedisError, Store, key

if TYPE_CHECKING:
    from briscola.server.conn import Conn
    from briscola.server.tables import Table

__all__ = ["KEEP", "Quota"]

log = logging.getLogger("briscola.server")

#: Seconds an address's table list lives after its last change.
KEEP: Final = 6 * 3600

_FAIL: Final = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def _fail_key(address: str) -> str:
    return f"briscola:q:fail:{address}"


def _tables_key(address: str) -> str:
    return f"briscola:q:tables:{address}"


class Quota:
    """The service-wide counts of one process (see the module docstring)."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self._fail = store.redis.register_script(_FAIL)

    async def check(self, conn: Conn, message: msg.ClientMessage) -> None:
        """Raise the error a ``create``, ``join`` or ``resume`` of ``conn`` gets for what its
        address did on any process; nothing for other messages."""
        if conn.table is not None:
            return
        try:
            if message["type"] == "create":
                await self._check_tables(conn.address)
            elif message["type"] == "join" or message["type"] == "resume":
                await self._check_failures(conn.address, message)
        except (RedisError, OSError) as exc:
            log.warning("%s: service-wide limits not checked: %s", conn.address, exc)

    async def _check_tables(self, address: str) -> None:
        self.store.operations += 1
        phases = list((await self.store.redis.hgetall(_tables_key(address))).values())
        check_share(self.config, phases.count("lobby"), len(phases))

    async def _check_failures(self, address: str, message: msg.Join | msg.Resume) -> None:
        self.store.operations += 1
        async with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.get(_fail_key(address))
            pipe.pttl(_fail_key(address))
            count, ttl = await pipe.execute()
        if int(count or 0) < self.config.failed_joins:
            return
        if message["type"] == "resume" and await self._valid_token(message):
            return  # people share addresses (NAT): a valid token always takes its seat
        raise ProtocolError(
            ErrorCode.TOO_MANY_FAILED_JOINS,
            f"too many wrong codes from your address: try again in {max(ttl, 0) / 1000:.0f} s",
        )

    async def _valid_token(self, message: msg.Resume) -> bool:
        token = message.get("token")
        try:
            code = normalize_code(message.get("code"))
        except ProtocolError:
            return False
        if not isinstance(token, str) or len(token) >= 100:
            return False
        self.store.operations += 1
        stored = await self.store.redis.get(key(code, "meta"))
        try:
            seats: Any = json.loads(stored)["seats"] if stored else []
        except (ValueError, KeyError, TypeError):
            return False
        return any(
            isinstance(seat, dict)
            and isinstance(seat.get("token"), str)
            and secrets.compare_digest(seat["token"], token)
            for seat in seats
        )

    # ------------------------------------------------------------------ counting

    async def failed(self, address: str) -> None:
        """One more failed join of ``address``."""
        self.store.operations += 1
        window = int(self.config.failed_join_window * 1000)
        await self._fail(keys=[_fail_key(address)], args=[window])

    async def table(self, table: Table) -> None:
        """Write down where ``table`` stands (opened, dealt, closed) for its address."""
        if not table.owner:
            return
        name = _tables_key(table.owner)
        self.store.operations += 1
        if table.phase == "closed":
            await self.store.redis.hdel(name, table.code)
            return
        async with self.store.redis.pipeline(transaction=False) as pipe:
            pipe.hset(name, table.code, "lobby" if table.phase == "lobby" else "open")
            pipe.expire(name, KEEP)
            await pipe.execute()
