"""Where a server keeps its players, bans and reports: in this process's memory
(:class:`MemoryRegistry`), or in Redis for a service of several processes
(:class:`RedisRegistry`, ``--redis``). Both keep the same things the same way:

- a player: the SHA-256 of its key (never the key), its name, the name's comparison key
  (:func:`~briscola.protocol.naming.name_key`), when it registered and last renamed;
- the names taken: one name key to one player. Registering and renaming are one atomic step
  each (in Redis a Lua script that takes the name with ``HSETNX``), so two processes
  asked for the same name at the same instant give it to one player only; a rename frees
  the old name in the same step;
- bans: of a player (``key:HASH``) or an address (``address:ADDRESS``), with the reason the
  banned player is told;
- reports, newest first, the last :data:`MAX_REPORTS` of them;
- how many quick chat messages each address sent, and how many players it registered, in
  the current window (a fixed window).

Redis keys (prefix ``briscola:u:``): ``players`` (hash: HASH -> JSON), ``names`` (hash: name
key -> HASH), ``bans`` (hash: target -> JSON), ``reports`` (list of JSON); and
``briscola:q:chat:ADDRESS`` and ``briscola:q:register:ADDRESS`` (counters that expire with
their window).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from briscola.protocol.errors import ErrorCode, ProtocolError

if TYPE_CHECKING:
    import redis.asyncio as aioredis

__all__ = [
    "MAX_REPORTS",
    "Ban",
    "MemoryRegistry",
    "Player",
    "RedisRegistry",
    "Registry",
    "address_target",
    "key_target",
]

#: Reports kept (the oldest go first).
MAX_REPORTS: Final = 10_000
PREFIX: Final = "briscola:u:"


@dataclass(frozen=True)
class Player:
    """A registered player as the server keeps it (``id``: the SHA-256 of its key)."""

    id: str
    name: str
    key: str
    since: float
    renamed: float = 0.0

    def rename_in(self, now: float, every: float) -> float:
        """Seconds until this player may rename (0: now)."""
        if not self.renamed:
            return 0.0
        return max(0.0, self.renamed + every - now)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_json(text: str | bytes) -> Player:
        data = json.loads(text)
        return Player(
            str(data["id"]),
            str(data["name"]),
            str(data["key"]),
            float(data["since"]),
            float(data.get("renamed", 0.0)),
        )


@dataclass(frozen=True)
class Ban:
    """A ban: its target (``key:HASH`` or ``address:ADDRESS``), the reason the player is
    told, when, and the player's name then (a player's ban)."""

    target: str
    reason: str
    at: float
    name: str = ""


def key_target(player_id: str) -> str:
    return f"key:{player_id}"


def address_target(address: str) -> str:
    return f"address:{address}"


def _taken(name: str) -> ProtocolError:
    return ProtocolError(
        ErrorCode.NAME_TAKEN, f"another player of this server is called {name!r} (or nearly)"
    )


def _wait(seconds: float) -> ProtocolError:
    hours = seconds / 3600
    when = f"{hours:.1f} hours" if hours >= 1 else f"{max(1, round(seconds / 60))} minutes"
    return ProtocolError(ErrorCode.RENAME_WAIT, f"a name may change once a day: wait {when}")


class Registry(Protocol):
    """What the server asks of its players' store (every method may raise ``OSError`` or
    a Redis error when the store cannot be reached)."""

    async def player(self, player_id: str) -> Player | None: ...

    async def by_name(self, key: str) -> Player | None: ...

    async def find(self, prefix: str) -> list[Player]:
        """The players whose id starts with ``prefix``."""
        ...

    async def register(self, player: Player) -> Player:
        """Keep ``player`` (its name taken): the player already kept under its id when there
        is one; raises ``name_taken``."""
        ...

    async def rename(self, player_id: str, name: str, key: str, now: float, every: float) -> Player:
        """Rename (``name_taken``, ``rename_wait`` when the last was less than ``every``
        seconds ago); the old name is free at once."""
        ...

    async def ban(self, ban: Ban) -> None: ...

    async def unban(self, target: str) -> bool: ...

    async def bans(self) -> list[Ban]: ...

    async def banned(self, player_id: str | None, address: str) -> Ban | None: ...

    async def bans_of(self, targets: Sequence[str]) -> dict[str, Ban]:
        """The bans of any of ``targets``, by target."""
        ...

    async def report(self, report: dict[str, Any]) -> None: ...

    async def reports(self, last: int) -> list[dict[str, Any]]: ...

    async def count(self, what: str, address: str, window: float) -> int:
        """Count one more ``what`` (``chat``, ``register``) of ``address``: how many in its
        current window of ``window`` seconds."""
        ...


class MemoryRegistry:
    """The players of one process, in memory (lost when it stops)."""

    def __init__(self) -> None:
        self.players: dict[str, Player] = {}
        self.names: dict[str, str] = {}
        self.ban_list: dict[str, Ban] = {}
        self.report_list: deque[dict[str, Any]] = deque(maxlen=MAX_REPORTS)
        self.windows: dict[str, tuple[float, int]] = {}

    async def player(self, player_id: str) -> Player | None:
        return self.players.get(player_id)

    async def by_name(self, key: str) -> Player | None:
        owner = self.names.get(key)
        return None if owner is None else self.players.get(owner)

    async def find(self, prefix: str) -> list[Player]:
        return [player for pid, player in self.players.items() if pid.startswith(prefix)]

    async def register(self, player: Player) -> Player:
        kept = self.players.get(player.id)
        if kept is not None:
            return kept
        if player.key in self.names:
            raise _taken(player.name)
        self.names[player.key] = player.id
        self.players[player.id] = player
        return player

    async def rename(self, player_id: str, name: str, key: str, now: float, every: float) -> Player:
        player = self.players.get(player_id)
        if player is None:
            raise ProtocolError(ErrorCode.IDENTIFY_FIRST, "identify before renaming")
        wait = player.rename_in(now, every)
        if wait > 0:
            raise _wait(wait)
        if self.names.get(key, player_id) != player_id:
            raise _taken(name)
        self.names.pop(player.key, None)
        self.names[key] = player_id
        self.players[player_id] = renamed = Player(player_id, name, key, player.since, now)
        return renamed

    async def ban(self, ban: Ban) -> None:
        self.ban_list[ban.target] = ban

    async def unban(self, target: str) -> bool:
        return self.ban_list.pop(target, None) is not None

    async def bans(self) -> list[Ban]:
        return sorted(self.ban_list.values(), key=lambda ban: ban.at)

    async def banned(self, player_id: str | None, address: str) -> Ban | None:
        if player_id is not None and (ban := self.ban_list.get(key_target(player_id))):
            return ban
        return self.ban_list.get(address_target(address))

    async def bans_of(self, targets: Sequence[str]) -> dict[str, Ban]:
        return {target: ban for target in targets if (ban := self.ban_list.get(target))}

    async def report(self, report: dict[str, Any]) -> None:
        self.report_list.appendleft(report)

    async def reports(self, last: int) -> list[dict[str, Any]]:
        return list(self.report_list)[:last]

    async def count(self, what: str, address: str, window: float) -> int:
        now = time.monotonic()
        name = f"{what}:{address}"
        start, count = self.windows.get(name, (now, 0))
        if now - start >= window:
            start, count = now, 0
        self.windows[name] = (start, count + 1)
        if len(self.windows) > 10_000:  # forget the windows that are over (an hour at most)
            self.windows = {
                each: seen for each, seen in self.windows.items() if now - seen[0] < 3600
            }
        return count + 1


_REGISTER: Final = """
local kept = redis.call('HGET', KEYS[2], ARGV[1])
if kept then return kept end
if redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[1]) == 0 then return false end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return ARGV[3]
"""

_RENAME: Final = """
local kept = redis.call('HGET', KEYS[2], ARGV[1])
if not kept then return {-1, ''} end
local player = cjson.decode(kept)
local renamed = tonumber(player['renamed']) or 0
if renamed > 0 then
  local wait = renamed + tonumber(ARGV[5]) - tonumber(ARGV[4])
  if wait > 0 then return {-2, tostring(wait)} end
end
local owner = redis.call('HGET', KEYS[1], ARGV[2])
if owner and owner ~= ARGV[1] then return {0, ''} end
if player['key'] ~= ARGV[2] then redis.call('HDEL', KEYS[1], player['key']) end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return {1, ARGV[3]}
"""

_COUNT: Final = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


class RedisRegistry:
    """The players of a service of several processes, in Redis (see the module)."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._register = redis.register_script(_REGISTER)
        self._rename = redis.register_script(_RENAME)
        self._count = redis.register_script(_COUNT)
        self.names_key = PREFIX + "names"
        self.players_key = PREFIX + "players"
        self.bans_key = PREFIX + "bans"
        self.reports_key = PREFIX + "reports"

    async def player(self, player_id: str) -> Player | None:
        kept = await self.redis.hget(self.players_key, player_id)
        return None if kept is None else Player.from_json(kept)

    async def by_name(self, key: str) -> Player | None:
        owner = await self.redis.hget(self.names_key, key)
        return None if owner is None else await self.player(_text(owner))

    async def find(self, prefix: str) -> list[Player]:
        found = []
        async for pid, kept in self.redis.hscan_iter(self.players_key, match=prefix + "*"):
            if _text(pid).startswith(prefix):
                found.append(Player.from_json(kept))
        return found

    async def register(self, player: Player) -> Player:
        keys = [self.names_key, self.players_key]
        kept = await self._register(keys=keys, args=[player.id, player.key, player.to_json()])
        if kept is None:
            raise _taken(player.name)
        return Player.from_json(kept)

    async def rename(self, player_id: str, name: str, key: str, now: float, every: float) -> Player:
        kept = await self.player(player_id)
        if kept is None:
            raise ProtocolError(ErrorCode.IDENTIFY_FIRST, "identify before renaming")
        renamed = Player(player_id, name, key, kept.since, now)
        keys = [self.names_key, self.players_key]
        args = [player_id, key, renamed.to_json(), repr(now), repr(every)]
        status, detail = await self._rename(keys=keys, args=args)
        if status == 0:
            raise _taken(name)
        if status == -2:
            raise _wait(float(_text(detail)))
        if status == -1:
            raise ProtocolError(ErrorCode.IDENTIFY_FIRST, "identify before renaming")
        return renamed

    async def ban(self, ban: Ban) -> None:
        await self.redis.hset(self.bans_key, ban.target, json.dumps(asdict(ban)))

    async def unban(self, target: str) -> bool:
        return bool(await self.redis.hdel(self.bans_key, target))

    async def bans(self) -> list[Ban]:
        kept = await self.redis.hgetall(self.bans_key)
        return sorted((Ban(**json.loads(each)) for each in kept.values()), key=lambda b: b.at)

    async def banned(self, player_id: str | None, address: str) -> Ban | None:
        targets = [address_target(address)]
        if player_id is not None:
            targets.insert(0, key_target(player_id))
        for kept in await self.redis.hmget(self.bans_key, targets):
            if kept is not None:
                return Ban(**json.loads(kept))
        return None

    async def bans_of(self, targets: Sequence[str]) -> dict[str, Ban]:
        if not targets:
            return {}
        kept = await self.redis.hmget(self.bans_key, list(targets))
        return {
            target: Ban(**json.loads(each))
            for target, each in zip(targets, kept, strict=True)
            if each is not None
        }

    async def report(self, report: dict[str, Any]) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.lpush(self.reports_key, json.dumps(report, ensure_ascii=False))
            pipe.ltrim(self.reports_key, 0, MAX_REPORTS - 1)
            await pipe.execute()

    async def reports(self, last: int) -> list[dict[str, Any]]:
        kept = await self.redis.lrange(self.reports_key, 0, max(0, last - 1))
        return [json.loads(each) for each in kept]

    async def count(self, what: str, address: str, window: float) -> int:
        name = f"briscola:q:{what}:{address}"
        return int(await self._count(keys=[name], args=[int(window * 1000)]))


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
