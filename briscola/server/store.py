"""Tables kept in Redis, so that any server process can drive any table (``--redis``).

A table's state is its record, kept under a few keys that share the prefix
``briscola:t:CODE:`` (``docs/server.md`` lists them, with their expiry and size):

``meta``   the table (rules, seats with their tokens, host, phase, seed, deals) as JSON;
``hands``  a list: the record (``briscola-record/1``) of each finished hand of the match;
``deal``   the current hand's deal, as a record without moves;
``moves``  a list: the current hand's moves, ``{"a": ACTION, "by": WHO}``, one per action;
``lease``  who drives the table now: ``EPOCH:PROCESS``, with an expiry, renewed while it lives;
``epoch``  the fencing token: grows by one at every new lease, never goes back.

Ownership is a lease (``SET lease EPOCH:PROCESS NX PX ttl``, the epoch taken by ``INCR``
in the same script). Every write is a Lua script that first checks that the lease still
holds this process's ``EPOCH:PROCESS`` and that ``epoch`` is still that epoch, so an owner
that paused and lost its lease cannot write over the next owner's moves (:class:`Fenced`).
Each process listens on its own channel ``briscola:p:PROCESS`` (messages forwarded to the
tables it drives, frames for the connections it holds).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["Fenced", "Lease", "RedisError", "Store", "StoredTable", "channel"]

PREFIX: Final = "briscola:t:"
#: A table's keys live this long after their last write (a table left for a day is gone).
KEEP_MS: Final = 24 * 3600 * 1000
#: ... and this long once the table is closed (enough to tell late clients it ended).
CLOSED_MS: Final = 600 * 1000

_ACQUIRE: Final = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[3]) == 0 then return false end
if ARGV[3] == '0' and redis.call('EXISTS', KEYS[3]) == 1 then return false end
local epoch = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
local value = epoch .. ':' .. ARGV[1]
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return value
"""

_RENEW: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

_RELEASE: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""

# KEYS: lease, epoch, then one key per operation; ARGV: lease value, epoch, expiry (ms),
# then an operation and its value for each key: SET, RPUSH, DEL (value ignored).
_WRITE: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
local done = {}
for i = 3, #KEYS do
  local op, value = ARGV[2 * i - 2], ARGV[2 * i - 1]
  if op == 'SET' then redis.call('SET', KEYS[i], value)
  elseif op == 'RPUSH' then redis.call('RPUSH', KEYS[i], value)
  elseif op == 'DEL' then redis.call('DEL', KEYS[i]) end
  done[KEYS[i]] = true
end
for key, _ in pairs(done) do
  if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ARGV[3]) end
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""


class Fenced(Exception):
    """This process no longer holds the table's lease: the write was refused."""


def key(code: str, part: str) -> str:
    return f"{PREFIX}{code}:{part}"


def channel(process: str) -> str:
    """The pub/sub channel a server process listens on."""
    return f"briscola:p:{process}"


@dataclass(frozen=True)
class Lease:
    """A held lease: ``value`` is ``EPOCH:PROCESS``."""

    code: str
    value: str

    @property
    def epoch(self) -> int:
        return int(self.value.split(":", 1)[0])

    @property
    def process(self) -> str:
        return self.value.split(":", 1)[1]


@dataclass
class StoredTable:
    """What Redis holds of one table."""

    meta: dict[str, Any]
    hands: list[dict[str, Any]]
    deal: dict[str, Any] | None
    moves: list[dict[str, Any]]


class Store:
    """The tables in one Redis database (``redis://HOST:PORT/N``)."""

    def __init__(self, url: str, lease_ms: int = 3000) -> None:
        self.url = url
        self.lease_ms = lease_ms
        # Every table writes on its own: many commands at once wait for one of a bounded
        # set of connections rather than fail ("Too many connections").
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=64,
            timeout=5.0,
            decode_responses=True,
            socket_timeout=5.0,
            socket_connect_timeout=5.0,
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._write = self.redis.register_script(_WRITE)
        #: Commands sent (Lua scripts count one): the load tool reports them per move.
        self.operations = 0

    async def ping(self) -> None:
        await self.redis.ping()

    async def close(self) -> None:
        await self.redis.aclose()

    # ------------------------------------------------------------------ leases

    async def acquire(self, code: str, process: str, new: bool) -> Lease | None:
        """The table's lease for ``process``, or None when another holds it (or, ``new``:
        when the code is taken; not ``new``: when there is no such table)."""
        self.operations += 1
        value = await self._acquire(
            keys=[key(code, "lease"), key(code, "epoch"), key(code, "meta")],
            args=[process, self.lease_ms, "0" if new else "1", KEEP_MS],
        )
        return Lease(code, str(value)) if value else None

    async def renew(self, lease: Lease) -> bool:
        """Keep the lease another ``lease_ms``; False: it was lost (expired, taken)."""
        self.operations += 1
        return bool(
            await self._renew(keys=[key(lease.code, "lease")], args=[lease.value, self.lease_ms])
        )

    async def release(self, lease: Lease) -> None:
        self.operations += 1
        await self._release(keys=[key(lease.code, "lease")], args=[lease.value])

    async def owner(self, code: str) -> str | None:
        """The process that holds the table's lease now (None: nobody)."""
        self.operations += 1
        value = await self.redis.get(key(code, "lease"))
        return str(value).split(":", 1)[1] if value else None

    # ------------------------------------------------------------------ writes

    async def write(
        self, lease: Lease, ops: Sequence[tuple[str, str, str]], closed: bool = False
    ) -> None:
        """Apply ``ops`` (``(OP, part, value)``: ``SET``, ``RPUSH`` or ``DEL`` of the table's
        key ``part``) at once, if the lease is still ours; raises :class:`Fenced` if not."""
        keys = [key(lease.code, "lease"), key(lease.code, "epoch")]
        args: list[Any] = [lease.value, str(lease.epoch), CLOSED_MS if closed else KEEP_MS]
        for op, part, value in ops:
            keys.append(key(lease.code, part))
            args.extend((op, value))
        self.operations += 1
        if not await self._write(keys=keys, args=args):
            raise Fenced(f"table {lease.code}: the lease {lease.value} is no longer held")

    # ------------------------------------------------------------------ reads

    async def load(self, code: str) -> StoredTable | None:
        """The table as stored (None when there is none)."""
        self.operations += 1
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(key(code, "meta"))
            pipe.lrange(key(code, "hands"), 0, -1)
            pipe.get(key(code, "deal"))
            pipe.lrange(key(code, "moves"), 0, -1)
            meta, hands, deal, moves = await pipe.execute()
        if meta is None:
            return None
        return StoredTable(
            json.loads(meta),
            [json.loads(doc) for doc in hands],
            json.loads(deal) if deal else None,
            [json.loads(move) for move in moves],
        )

    async def publish(self, process: str, message: dict[str, Any]) -> int:
        """Send ``message`` to a process; the number of processes that heard it (0: gone)."""
        self.operations += 1
        return int(await self.redis.publish(channel(process), json.dumps(message)))

    async def size(self, code: str) -> int:
        """Bytes the table's keys take in Redis (``MEMORY USAGE``, for docs/server.md)."""
        total = 0
        for part in ("meta", "hands", "deal", "moves", "lease", "epoch"):
            used = await self.redis.memory_usage(key(code, part))
            total += int(used or 0)
        return total
