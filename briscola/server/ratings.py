"""The dedicated service's ratings, kept in Redis: :class:`RedisStore`, the
:class:`~briscola.ratings.store.RatingStore` that every server process given the same
``--redis`` URL shares.

Keys (``docs/ratings.md``), none with an expiry:

``briscola:r:rated``            a hash: each rated hand's id -> its family and time;
``briscola:r:FAMILY:board``     a sorted set: player -> conservative ordinal (the leaderboard);
``briscola:r:FAMILY:p:PLAYER``  a hash: ``mu``, ``sigma``, ``games``;
``briscola:r:FAMILY:h:PLAYER``  a list: the player's history, one JSON entry per hand.

A hand's commit is one Lua script: it returns 0 when the hand's id is in ``rated`` already
(a retry after a lost reply), -1 when a player's ``games`` is not the count the new ratings
were computed from (another process rated that player meanwhile: the service reads again),
otherwise writes every player's rating, board entry and history and the hand's id, all at
once, and returns 1. Redis runs a script whole or not at all, so no crash leaves half a
hand. What Redis acknowledged survives a kill of Redis only with the append-only file
synced before each reply (``appendonly yes``, ``appendfsync always``, as the tests' Redis
runs and ``docs/server.md`` asks); :meth:`RedisStore.durable` says whether it is so.

Synchronous (redis-py's blocking client): the asyncio server calls it off its loop,
``await asyncio.to_thread(service.rate_hand, ...)``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

import redis

from briscola.ratings.store import (
    Commit,
    HistoryEntry,
    Rating,
    Standing,
    history_entry_from_json,
)

__all__ = ["PREFIX", "RedisStore"]

log = logging.getLogger("briscola.server")

PREFIX: Final = "briscola:r:"
#: Seconds a reply may take (and a connection).
TIMEOUT: Final = 5.0

# KEYS: rated, board, then per player its hash and its history. ARGV: the hand's id, the
# players' count, the hand's entry in ``rated``, then per player: id, games expected,
# mu, sigma, games, ordinal, history entry.
_COMMIT: Final = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local n = tonumber(ARGV[2])
for i = 1, n do
  local games = redis.call('HGET', KEYS[1 + 2 * i], 'games') or '0'
  if games ~= ARGV[3 + 7 * (i - 1) + 2] then return -1 end
end
for i = 1, n do
  local a = 3 + 7 * (i - 1)
  redis.call('HSET', KEYS[1 + 2 * i], 'mu', ARGV[a + 3], 'sigma', ARGV[a + 4],
             'games', ARGV[a + 5])
  redis.call('ZADD', KEYS[2], ARGV[a + 6], ARGV[a + 1])
  redis.call('RPUSH', KEYS[2 + 2 * i], ARGV[a + 7])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


class RedisStore:
    """Ratings in the Redis at ``url`` (``redis://HOST:PORT/N``)."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
        )
        self._commit = self.client.register_script(_COMMIT)

    def durable(self) -> bool:
        """Redis syncs its append-only file before each reply (False also when its
        configuration cannot be read)."""
        try:
            config = cast(dict[str, str], self.client.config_get("append*"))
        except redis.RedisError as exc:
            log.warning("ratings: cannot read Redis's configuration (%s)", exc)
            return False
        return config.get("appendonly") == "yes" and config.get("appendfsync") == "always"

    @staticmethod
    def _player(family: str, player: str) -> str:
        return f"{PREFIX}{family}:p:{player}"

    @staticmethod
    def _history(family: str, player: str) -> str:
        return f"{PREFIX}{family}:h:{player}"

    @staticmethod
    def _board(family: str) -> str:
        return f"{PREFIX}{family}:board"

    def get(self, family: str, players: Sequence[str]) -> dict[str, Rating]:
        pipe = self.client.pipeline(transaction=False)
        for player in players:
            pipe.hgetall(self._player(family, player))
        out: dict[str, Rating] = {}
        for player, fields in zip(players, pipe.execute(), strict=True):
            if fields:
                out[player] = _rating(fields)
        return out

    def commit(
        self,
        family: str,
        hand_id: str,
        expected: Mapping[str, int],
        new: Mapping[str, Rating],
        at: float,
    ) -> Commit:
        keys = [f"{PREFIX}rated", self._board(family)]
        args: list[Any] = [hand_id, len(new), json.dumps({"family": family, "at": at})]
        for player, r in new.items():
            keys += [self._player(family, player), self._history(family, player)]
            entry = HistoryEntry(hand_id, r.mu, r.sigma, r.games, at)
            args += [player, str(expected[player]), repr(r.mu), repr(r.sigma), str(r.games),
                     repr(r.ordinal), entry.to_json()]  # fmt: skip
        done = int(cast(int, self._commit(keys=keys, args=args)))
        return "done" if done == 1 else "already" if done == 0 else "stale"

    def is_rated(self, hand_id: str) -> bool:
        return bool(self.client.hexists(f"{PREFIX}rated", hand_id))

    def top(self, family: str, count: int) -> list[Standing]:
        if count <= 0:
            return []
        players = cast(list[str], self.client.zrevrange(self._board(family), 0, count - 1))
        ratings = self.get(family, players)
        return [Standing(p, ratings[p], i + 1) for i, p in enumerate(players) if p in ratings]

    def standing(self, family: str, player: str) -> Standing | None:
        rank = self.client.zrevrank(self._board(family), player)
        if rank is None:
            return None
        rating = self.get(family, [player]).get(player)
        return None if rating is None else Standing(player, rating, int(cast(int, rank)) + 1)

    def history(self, family: str, player: str, limit: int = 100) -> list[HistoryEntry]:
        if limit <= 0:
            return []
        items = cast(list[str], self.client.lrange(self._history(family, player), -limit, -1))
        return [history_entry_from_json(item) for item in items]

    def close(self) -> None:
        self.client.close()


def _rating(fields: dict[str, str]) -> Rating:
    return Rating(float(fields["mu"]), float(fields["sigma"]), int(fields["games"]))
