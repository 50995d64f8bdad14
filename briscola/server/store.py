"""Tables kept in Redis, so that any server process can drive any table (``--redis``).

A table's state is its record, kept under a few keys that share the prefix
``briscola:t:CODE:`` (``docs/server.md`` lists them, with their expiry and size):

``meta``   the table (rules, seats with their tokens and whether their person left, host,
           phase, seed, deals, the tokens of seats given up once their match ended) as JSON;
``hands``  a list: the record (``briscola-record/1``) of each finished hand of the match;
``deal``   the current hand's deal, as a record without moves;
``moves``  a list: the current hand's moves, ``{"a": ACTION, "by": WHO}``, one per action;
``lease``  who drives the table now: ``EPOCH:PROCESS``, with an expiry, renewed while it lives;
``epoch``  the fencing token: grows by one at every new lease, never goes back;
``written`` ``EPOCH:N``, the number of the last write applied (a write sent again after its
           reply was lost is not applied twice).

Ownership is a lease (``SET lease EPOCH:PROCESS NX PX ttl``, the epoch taken by ``INCR``
in the same script). Every write is a Lua script that first checks that the lease still
holds this process's ``EPOCH:PROCESS`` and that ``epoch`` is still that epoch, so an owner
that paused and lost its lease cannot write over the next owner's moves (:class:`Fenced`).
Each process listens on its own channel ``briscola:p:PROCESS`` (messages forwarded to the
tables it drives, frames for the connections it holds).

Everything goes through ``redis-py``'s asyncio client (replies parsed by ``hiredis`` when it
is installed). What every move costs (a fenced write, the frames published to other
processes) and the lease renewals, one script for all of a process's tables per renewal, are
sent together with the other commands of the same event-loop turn, as one pipeline
(:class:`briscola.server.batch.Batcher`); the rest (leases taken and released, tables read
back) one call at a time. A reply slower than 5 s is a ``TimeoutError`` (redis-py's
``socket_timeout`` off the hot path, the batcher's watchdog on it); a dropped connection is
connected again by redis-py (its ``retry`` option) and, failing that, a ``ConnectionError``
for the caller to retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qs, unquote, urlparse

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from briscola.server.batch import Batcher
from briscola.server.replica import StoredTable

__all__ = ["Fenced", "Lease", "RedisError", "Store", "StoredTable", "channel", "check_url"]

log = logging.getLogger("briscola.server")

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

_RELEASE: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""

# KEYS: the table's prefix (``briscola:t:CODE:``: the script names the table's keys from it,
# which a single Redis allows; few arguments cost redis-py less to send). ARGV: the lease
# value (EPOCH:PROCESS), the write's number (N; empty: none), the expiry (ms), then pairs:
# an operation on one of the table's keys (S for SET, R for RPUSH, D for DEL, then the key's
# part: ``Rmoves``) or a frame to publish (P, then the process: ``Pab12cd``), and its value.
# A write whose number is the last one stored (EPOCH:N) was applied already (its reply was
# lost, the owner sent it again): it is not applied twice, nor its frames published again.
# The keys written (not those deleted last) get the expiry, and so does the epoch.
_WRITE: Final = """
local p = KEYS[1]
if redis.call('GET', p .. 'lease') ~= ARGV[1] then return 0 end
local epoch = string.match(ARGV[1], '^(%d+):')
if redis.call('GET', p .. 'epoch') ~= epoch then return 0 end
local expiry = ARGV[3]
if ARGV[2] ~= '' then
  local number = epoch .. ':' .. ARGV[2]
  if redis.call('SET', p .. 'written', number, 'PX', expiry, 'GET') == number then return 1 end
end
local live = {}
for i = 4, #ARGV, 2 do
  local op, part, value = string.sub(ARGV[i], 1, 1), string.sub(ARGV[i], 2), ARGV[i + 1]
  if op == 'P' then redis.call('PUBLISH', 'briscola:p:' .. part, value)
  else
    local k = p .. part
    if op == 'S' then redis.call('SET', k, value); live[k] = true
    elseif op == 'R' then redis.call('RPUSH', k, value); live[k] = true
    elseif op == 'D' then redis.call('DEL', k); live[k] = nil end
  end
end
for k, _ in pairs(live) do redis.call('PEXPIRE', k, expiry) end
redis.call('PEXPIRE', p .. 'epoch', expiry)
return 1
"""

#: The letter of each operation in the write script's arguments.
_OPS: Final = {"SET": "S", "RPUSH": "R", "DEL": "D", "PUBLISH": "P"}

# KEYS: leases; ARGV: the expiry (ms), then each lease's value. Returns 1 (renewed) or 0
# (lost) for each.
_RENEW_ALL: Final = """
local held = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i + 1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    held[i] = 1
  else
    held[i] = 0
  end
end
return held
"""

#: Leases renewed by one script call (a longer script would hold Redis up longer).
_RENEW_CHUNK: Final = 500

#: Seconds a reply may take (a stalled Redis is a ``TimeoutError`` then), and a connection.
TIMEOUT: Final = 5.0


def _retry() -> Retry:
    """A dropped connection is connected again and the command sent again, twice at most
    (a stalled one is not: the caller hears of the timeout)."""
    return Retry(
        ExponentialBackoff(cap=0.5, base=0.05), retries=2, supported_errors=(RedisConnectionError,)
    )


def check_url(url: str) -> None:
    """Raise ``ValueError`` with the reason when ``url`` is not a Redis URL redis-py reads
    (``redis://[[USER]:PASSWORD@]HOST:PORT/N``, ``rediss://`` for TLS, ``unix:///PATH?db=N``).
    Connects to nothing."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"a Redis URL starts with redis://, rediss:// or unix://: {url!r}")
    parsed = urlparse(url)
    query = parse_qs(parsed.query)
    db = query["db"][0] if "db" in query else ""
    if parsed.scheme != "unix":
        db = db or unquote(parsed.path).strip("/")
    if db and not db.isdigit():  # (redis-py would quietly use database 0)
        raise ValueError(f"a Redis URL's database is a number (redis://HOST:PORT/0): {url!r}")
    try:
        aioredis.ConnectionPool.from_url(url)
    except ValueError as exc:
        raise ValueError(str(exc)) from None


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


class Store:
    """The tables in one Redis database (``redis://HOST:PORT/N``)."""

    def __init__(self, url: str, lease_ms: int = 3000, timeout: float = TIMEOUT) -> None:
        self.url = url
        self.lease_ms = lease_ms
        # Every table writes on its own: many commands at once wait for one of a bounded
        # set of connections rather than fail ("Too many connections").
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=64,
            timeout=timeout,
            decode_responses=True,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=_retry(),
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        # The hot path has a pool of its own: the batcher sends one thing at a time, a single
        # command on the client's own connection, a pipeline on a second one (a plain pool
        # and a connection kept by the client cost redis-py less work per call). No
        # ``socket_timeout`` there (redis-py would start a task per send for it; it has one,
        # 5 s, unless told None): the batcher's one watchdog per send fails a stalled send
        # after ``timeout`` instead.
        hot = aioredis.ConnectionPool.from_url(
            url,
            max_connections=4,
            decode_responses=True,
            socket_timeout=None,
            socket_connect_timeout=timeout,
            retry=_retry(),
        )
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._release = self.redis.register_script(_RELEASE)
        self._write = self.redis.register_script(_WRITE)
        self._renew = self.redis.register_script(_RENEW_ALL)
        #: The hot path: fenced writes, lease renewals, publishing (see the module docstring).
        self.batch = Batcher(
            aioredis.Redis(connection_pool=hot, single_connection_client=True), timeout=timeout
        )
        self._pubsub: PubSub | None = None
        self._hearing: asyncio.Task[None] | None = None
        #: Commands sent (Lua scripts count one): the load tool reports them per move.
        self.operations = 0

    async def ping(self) -> None:
        await self.redis.ping()

    async def close(self) -> None:
        await self.batch.close()
        await self.batch.redis.aclose()
        await self.batch.redis.connection_pool.aclose()
        if self._hearing is not None:
            self._hearing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._hearing
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()
        await self.redis.connection_pool.aclose()  # (the clients do not own their pools)

    async def listen(self, process: str, heard: Callable[[str], None]) -> None:
        """Call ``heard`` with every message published to the process's channel from now on
        (redis-py's PubSub subscribes again whenever its connection is found again)."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(channel(process))
        self._hearing = asyncio.create_task(self._hear(self._pubsub, heard))

    @staticmethod
    async def _hear(pubsub: PubSub, heard: Callable[[str], None]) -> None:
        slow = False
        while True:
            conn = pubsub.connection
            fast = conn is not None and conn.is_connected and not conn.health_check_interval
            if fast and not slow:
                assert conn is not None
                # Straight from the PubSub's connection (hiredis still parses): not through
                # get_message's health check, retry wrapper and observability hooks. A read
                # that fails goes get_message's way next, which connects again (redis-py's
                # retry) and subscribes again.
                try:
                    response = await conn.read_response(
                        timeout=math.inf, disconnect_on_error=False, push_request=True
                    )
                except (RedisError, OSError):
                    slow = True
                    continue
                if isinstance(response, list) and len(response) == 3 and response[0] == "message":
                    data: Any = response[2]
                else:  # (a subscription's confirmation and the like: PubSub's bookkeeping)
                    message = await pubsub.handle_message(response, ignore_subscribe_messages=True)
                    if message is None or message["type"] != "message":
                        continue
                    data = message["data"]
            else:
                try:
                    message = await pubsub.get_message(timeout=None)
                except (RedisError, OSError) as exc:  # Redis away: its next read connects again
                    log.warning("pub/sub: Redis unreachable, listening again: %s", exc)
                    await asyncio.sleep(0.5)
                    continue
                slow = False
                if message is None or message["type"] != "message":
                    continue
                data = message["data"]
            try:
                heard(data)
            except Exception:  # one bad message must not cost the others
                log.exception("pub/sub: a message failed")

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
        return (await self.renew_all([lease]))[0]

    async def renew_all(self, leases: Sequence[Lease]) -> list[bool]:
        """Renew many leases in one script call per few hundred; for each: still held."""
        held: list[bool] = []
        for start in range(0, len(leases), _RENEW_CHUNK):
            chunk = leases[start : start + _RENEW_CHUNK]
            self.operations += 1
            answers = await self.batch.script(
                self._renew,
                [key(lease.code, "lease") for lease in chunk],
                [self.lease_ms, *(lease.value for lease in chunk)],
            )
            held.extend(bool(answer) for answer in answers)
        return held

    async def release(self, lease: Lease) -> None:
        self.operations += 1
        await self._release(keys=[key(lease.code, "lease")], args=[lease.value])

    async def holders(self, codes: Sequence[str]) -> dict[str, str | None]:
        """The process that holds each table's lease now (None: nobody), in one ``MGET``."""
        self.operations += 1
        values = await self.redis.mget([key(code, "lease") for code in codes])
        return {
            code: str(value).split(":", 1)[1] if value else None
            for code, value in zip(codes, values, strict=True)
        }

    async def owner(self, code: str) -> str | None:
        """The process that holds the table's lease now (None: nobody)."""
        self.operations += 1
        value = await self.redis.get(key(code, "lease"))
        return str(value).split(":", 1)[1] if value else None

    # ------------------------------------------------------------------ writes

    async def write(
        self,
        lease: Lease,
        ops: Sequence[tuple[str, str, str]],
        closed: bool = False,
        number: int | None = None,
    ) -> None:
        """Apply ``ops`` at once, if the lease is still ours; raises :class:`Fenced` if not.
        An op is ``(OP, part, value)``: ``SET``, ``RPUSH`` or ``DEL`` of the table's key
        ``part``, or ``PUBLISH`` of ``value`` to the process ``part`` (a frame to a player
        connected there, sent only once the write before it is stored). ``number``
        (growing with each write of this lease) makes sending it again harmless: a write
        already applied is not applied twice, nor are its frames published twice."""
        if not await self.write_soon(lease, ops, closed, number):
            raise Fenced(f"table {lease.code}: the lease {lease.value} is no longer held")

    def write_soon(
        self,
        lease: Lease,
        ops: Sequence[tuple[str, str, str]],
        closed: bool = False,
        number: int | None = None,
    ) -> asyncio.Future[Any]:
        """:meth:`write`, sent with the other commands of this turn: its reply, 1 (done)
        or 0 (the lease is no longer held)."""
        args: list[str | int] = [lease.value, "" if number is None else number]
        args.append(CLOSED_MS if closed else KEEP_MS)
        for op, part, value in ops:
            args.append(_OPS[op] + part)
            args.append(value)
        self.operations += 1
        return self.batch.script(self._write, (f"{PREFIX}{lease.code}:",), args)

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
        return await self.publish_text(process, json.dumps(message, separators=(",", ":")))

    async def publish_text(self, process: str, text: str) -> int:
        """Send ``text`` to a process as it is; the number of processes that heard it."""
        self.operations += 1
        return int(await self.batch.call("PUBLISH", channel(process), text))

    async def size(self, code: str) -> int:
        """Bytes the table's keys take in Redis (``MEMORY USAGE``, for docs/server.md)."""
        total = 0
        for part in ("meta", "hands", "deal", "moves", "lease", "epoch", "written"):
            used = await self.redis.memory_usage(key(code, part))
            total += int(used or 0)
        return total
