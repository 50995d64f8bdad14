"""Where ratings are kept: the :class:`RatingStore` interface, kept in memory
(:class:`MemoryStore`, tests and the experiment) or in a SQLite file (:class:`SqliteStore`,
the LAN host's own ratings); the dedicated service keeps them in Redis
(:class:`briscola.server.ratings.RedisStore`).

A store keeps, per family and player, the rating (mu, sigma, games rated), the leaderboard
by the conservative ordinal, each player's history (one entry per hand rated), and the ids
of the hands rated. :meth:`RatingStore.commit` writes a hand's new ratings and its id in
one transaction, only if the hand was not rated yet and every player's count of games is
still the one the new ratings were computed from (another process may have rated one of
them meanwhile: the caller reads again and computes again). So a hand sent twice (a retry
after a lost reply) is rated once, and no update is lost between processes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, Protocol

__all__ = [
    "RATINGS_FILE",
    "Commit",
    "HistoryEntry",
    "MemoryStore",
    "Rating",
    "RatingStore",
    "SqliteStore",
    "Standing",
    "history_entry_from_json",
]

#: How a commit went: written, the hand was rated already, or a player's rating changed
#: since it was read (read again, compute again).
Commit = Literal["done", "already", "stale"]
#: The conservative ordinal: mu less this many sigmas (OpenSkill's ``ordinal()``).
Z: Final = 3.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one family: OpenSkill's mu and sigma, and the games rated."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating shown: ``mu - 3 * sigma``."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place on a family's leaderboard (``rank`` 1 is the top)."""

    player: str
    rating: Rating
    rank: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A player's rating just after the hand ``hand_id`` (``at``: seconds since the epoch)."""

    hand_id: str
    mu: float
    sigma: float
    games: int
    at: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    def to_json(self) -> str:
        return json.dumps(
            {"hand": self.hand_id, "mu": self.mu, "sigma": self.sigma, "games": self.games,
             "at": self.at}, separators=(",", ":"),
        )  # fmt: skip


def history_entry_from_json(text: str) -> HistoryEntry:
    data = json.loads(text)
    return HistoryEntry(
        str(data["hand"]), float(data["mu"]), float(data["sigma"]), int(data["games"]),
        float(data["at"]),
    )  # fmt: skip


class RatingStore(Protocol):
    """The ratings of every family (see the module docstring)."""

    def get(self, family: str, players: Sequence[str]) -> dict[str, Rating]:
        """The stored ratings of those of ``players`` that have one."""
        ...

    def commit(
        self,
        family: str,
        hand_id: str,
        expected: Mapping[str, int],
        new: Mapping[str, Rating],
        at: float,
    ) -> Commit:
        """Write ``new`` and mark ``hand_id`` rated, at once, if the hand is not rated yet
        and each player's games are still ``expected[player]`` (0: no rating yet)."""
        ...

    def is_rated(self, hand_id: str) -> bool: ...

    def top(self, family: str, count: int) -> list[Standing]:
        """The ``count`` best of ``family`` by ordinal, best first."""
        ...

    def standing(self, family: str, player: str) -> Standing | None:
        """``player``'s place in ``family`` (None: not rated there)."""
        ...

    def history(self, family: str, player: str, limit: int = 100) -> list[HistoryEntry]:
        """``player``'s last ``limit`` entries in ``family``, oldest first."""
        ...

    def close(self) -> None: ...


def _ordered(items: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    """Best ordinal first; equal ordinals by player id."""
    return sorted(items.items(), key=lambda item: (-item[1].ordinal, item[0]))


class MemoryStore:
    """Ratings in this process's memory (lost with it): tests and the experiment."""

    def __init__(self) -> None:
        self._ratings: dict[str, dict[str, Rating]] = {}
        self._history: dict[tuple[str, str], list[HistoryEntry]] = {}
        self._rated: set[str] = set()
        self._lock = threading.Lock()

    def get(self, family: str, players: Sequence[str]) -> dict[str, Rating]:
        with self._lock:
            kept = self._ratings.get(family, {})
            return {p: kept[p] for p in players if p in kept}

    def commit(
        self,
        family: str,
        hand_id: str,
        expected: Mapping[str, int],
        new: Mapping[str, Rating],
        at: float,
    ) -> Commit:
        with self._lock:
            if hand_id in self._rated:
                return "already"
            kept = self._ratings.setdefault(family, {})
            if any((kept[p].games if p in kept else 0) != expected[p] for p in new):
                return "stale"
            for player, rating in new.items():
                kept[player] = rating
                entry = HistoryEntry(hand_id, rating.mu, rating.sigma, rating.games, at)
                self._history.setdefault((family, player), []).append(entry)
            self._rated.add(hand_id)
            return "done"

    def is_rated(self, hand_id: str) -> bool:
        with self._lock:
            return hand_id in self._rated

    def top(self, family: str, count: int) -> list[Standing]:
        with self._lock:
            ordered = _ordered(self._ratings.get(family, {}))[: max(count, 0)]
        return [Standing(p, r, i + 1) for i, (p, r) in enumerate(ordered)]

    def standing(self, family: str, player: str) -> Standing | None:
        with self._lock:
            ordered = _ordered(self._ratings.get(family, {}))
        for i, (p, r) in enumerate(ordered):
            if p == player:
                return Standing(p, r, i + 1)
        return None

    def history(self, family: str, player: str, limit: int = 100) -> list[HistoryEntry]:
        with self._lock:
            entries = self._history.get((family, player), [])
            return list(entries[-limit:]) if limit > 0 else []

    def close(self) -> None:
        pass


#: The LAN host's ratings file, in its keep folder.
RATINGS_FILE: Final = "ratings.sqlite3"

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS ratings (
    family TEXT NOT NULL,
    player TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    ordinal REAL NOT NULL,
    PRIMARY KEY (family, player)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (family, ordinal DESC, player);
CREATE TABLE IF NOT EXISTS history (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    family TEXT NOT NULL,
    player TEXT NOT NULL,
    hand TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS history_of ON history (family, player, n);
CREATE TABLE IF NOT EXISTS rated (hand TEXT PRIMARY KEY, family TEXT NOT NULL, at REAL NOT NULL);
"""


class SqliteStore:
    """Ratings in a SQLite file (``folder/ratings.sqlite3``, created if needed): the LAN
    host keeps its own, as it keeps its tables (:mod:`briscola.server.keep`). Every commit
    is one transaction, synced to disk before it returns (``synchronous=FULL``). Raises
    ``OSError`` or ``sqlite3.Error`` when the file cannot be opened."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / RATINGS_FILE
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)

    def get(self, family: str, players: Sequence[str]) -> dict[str, Rating]:
        out: dict[str, Rating] = {}
        with self._lock:
            for player in players:
                row = self._db.execute(
                    "SELECT mu, sigma, games FROM ratings WHERE family = ? AND player = ?",
                    (family, player),
                ).fetchone()
                if row is not None:
                    out[player] = Rating(float(row[0]), float(row[1]), int(row[2]))
        return out

    def commit(
        self,
        family: str,
        hand_id: str,
        expected: Mapping[str, int],
        new: Mapping[str, Rating],
        at: float,
    ) -> Commit:
        db = self._db
        with self._lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM rated WHERE hand = ?", (hand_id,)).fetchone():
                    db.execute("ROLLBACK")
                    return "already"
                for player in new:
                    row = db.execute(
                        "SELECT games FROM ratings WHERE family = ? AND player = ?",
                        (family, player),
                    ).fetchone()
                    if (int(row[0]) if row else 0) != expected[player]:
                        db.execute("ROLLBACK")
                        return "stale"
                for player, r in new.items():
                    db.execute(
                        "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
                        (family, player, r.mu, r.sigma, r.games, r.ordinal),
                    )
                    db.execute(
                        "INSERT INTO history (family, player, hand, mu, sigma, games, at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (family, player, hand_id, r.mu, r.sigma, r.games, at),
                    )
                db.execute("INSERT INTO rated VALUES (?, ?, ?)", (hand_id, family, at))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return "done"

    def is_rated(self, hand_id: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM rated WHERE hand = ?", (hand_id,)).fetchone()
        return row is not None

    def top(self, family: str, count: int) -> list[Standing]:
        with self._lock:
            rows = self._db.execute(
                "SELECT player, mu, sigma, games FROM ratings WHERE family = ?"
                " ORDER BY ordinal DESC, player LIMIT ?",
                (family, max(count, 0)),
            ).fetchall()
        return [
            Standing(str(p), Rating(float(mu), float(s), int(g)), i + 1)
            for i, (p, mu, s, g) in enumerate(rows)
        ]

    def standing(self, family: str, player: str) -> Standing | None:
        with self._lock:
            row = self._db.execute(
                "SELECT mu, sigma, games, ordinal FROM ratings WHERE family = ? AND player = ?",
                (family, player),
            ).fetchone()
            if row is None:
                return None
            above = self._db.execute(
                "SELECT COUNT(*) FROM ratings WHERE family = ?"
                " AND (ordinal > ? OR (ordinal = ? AND player < ?))",
                (family, row[3], row[3], player),
            ).fetchone()
        return Standing(player, Rating(float(row[0]), float(row[1]), int(row[2])),
                        int(above[0]) + 1)  # fmt: skip

    def history(self, family: str, player: str, limit: int = 100) -> list[HistoryEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT hand, mu, sigma, games, at FROM history WHERE family = ? AND player = ?"
                " ORDER BY n DESC LIMIT ?",
                (family, player, max(limit, 0)),
            ).fetchall()
        return [
            HistoryEntry(str(h), float(mu), float(s), int(g), float(at))
            for h, mu, s, g, at in reversed(rows)
        ]

    def close(self) -> None:
        with self._lock:
            self._db.close()
