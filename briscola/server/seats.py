"""A table's seats as the server keeps them (the player the match driver sees, and what
only the server knows: the connection, the token), what tables take from the server's
configuration, and the checks of the seats a host asks for."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from briscola.ai import BOT_NAMES
from briscola.game.driver import Seat as Player
from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import check_name

__all__ = [
    "LEVELS",
    "Peer",
    "Seat",
    "SeatKind",
    "TableConfig",
    "TableError",
    "give_up",
    "refuse_if_ended",
]

SeatKind = Literal["human", "bot"]

#: Computer levels a seat may be given (the ``pimc`` and ``hard`` searches are slower).
LEVELS: Final = BOT_NAMES


class TableError(ProtocolError):
    """A request the table refuses (wrong phase, not your turn, illegal move...)."""


class Peer(Protocol):
    """A connected player as a table sees it."""

    name: str

    def post(self, text: str) -> None:
        """Queue one frame for sending (never blocks)."""
        ...


@dataclass
class TableConfig:
    """What tables take from the server's configuration."""

    grace: float = 60.0
    #: Seconds a waiting room with nobody connected waits for its people (at most ``grace``).
    room_grace: float = 15.0
    next_hand_timeout: float = 120.0
    bot_delay: float = 0.0
    takeover_level: str = "medium"
    #: Seconds a computer player may think per move.
    bot_time: float = 1.0
    #: Seconds a person may take over one move before a computer plays it (None: no limit).
    turn_timeout: float | None = 300.0
    embedded: bool = False
    records: Path | None = None
    #: Every table deals from this seed (tests that compare matches); None: a random one.
    seed: int | None = None


@dataclass
class Seat:
    """A seat at a table: the player the match driver sees (``player``: name, kind, level,
    a computer standing in) and what only the server knows (the connection, the token)."""

    index: int
    player: Player
    token: str | None = None
    peer: Peer | None = None
    ready: bool = False
    away_since: float | None = None
    wants_next: bool = False
    #: The person left the match (``leave``): the seat is theirs again until it ends.
    left: bool = False
    #: Index into the hand's events up to which this seat's peer has been sent.
    sent: int = 0
    #: The person's player id (the SHA-256 of its key: server-only, never sent), and its
    #: rating shown beside the name at a rated table (the conservative ordinal, rounded).
    player_id: str | None = None
    rating: int | None = None
    grace_timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def kind(self) -> SeatKind:
        """As the host configured it: open to a person, or a computer player."""
        return self.player.kind

    @property
    def level(self) -> str:
        """The computer level of a bot seat, and of the bot that stands in for a person."""
        return self.player.level

    @property
    def name(self) -> str:
        return self.player.name

    @name.setter
    def name(self, value: str) -> None:
        self.player.name = value

    @property
    def bot_plays(self) -> bool:
        """A computer player moves for this seat (a bot seat, or a person replaced)."""
        return self.player.computer_plays

    @property
    def claimed(self) -> bool:
        return self.token is not None

    def computer_name(self) -> str:
        """The name of a computer player the host did not name: its level and seat."""
        return f"{self.level.capitalize()} {self.index + 1}"

    @property
    def connected(self) -> bool:
        return self.peer is not None

    def info(self) -> msg.SeatEntry:
        """The public description of the seat (no token, no player id)."""
        entry: msg.SeatEntry = {
            "seat": self.index,
            "kind": self.kind,
            "level": self.level if self.bot_plays else None,
            "name": self.name,
            "claimed": self.claimed or self.kind == "bot",
            "connected": self.connected,
            "ready": self.ready or self.kind == "bot",
            "away": self.away_since is not None,
            "replaced": self.kind == "human" and self.bot_plays,
            "next": self.wants_next,
        }
        if self.rating is not None:
            entry["rating"] = self.rating
        return entry


def give_up(seat: Seat, ended: set[str]) -> None:
    """The seat's token stops working; kept in ``ended``, a resume with it is told that the
    match it was left in has ended (``match_over``)."""
    if seat.token is not None:
        ended.add(seat.token)
        seat.token = None
    seat.player_id = seat.rating = None
    seat.left = False


def refuse_if_ended(ended: Iterable[str] | None, token: Any) -> None:
    """A ``resume`` with a token :func:`give_up` kept in ``ended`` is told why it fails."""
    if isinstance(token, str) and any(secrets.compare_digest(t, token) for t in ended or ()):
        raise TableError(ErrorCode.MATCH_OVER, "the match you left is over: the seat is closed")


def bot_names(data: Any) -> list[str]:
    """The names the host gave its computer players (checked like a person's name; "" where
    none was given): ``[{"kind": "bot", "level": "hard", "name": "Bruno"}]``. Call it after
    :func:`seat_kinds` has checked the list."""
    if not isinstance(data, list):
        return []
    return [
        check_name(entry["name"]) if entry.get("kind") == "bot" and "name" in entry else ""
        for entry in data
    ]


def seat_kinds(data: Any, players: int) -> list[tuple[SeatKind, str]]:
    """Seats as the host asks: ``[{"kind": "human"}, {"kind": "bot", "level": "hard"}]``."""
    if data is None:
        return [("human", "medium")] * players
    if not isinstance(data, list) or len(data) != players:
        raise ProtocolError(ErrorCode.BAD_SEATS, f"seats must list {players} seats")
    kinds: list[tuple[SeatKind, str]] = []
    for entry in data:
        if not isinstance(entry, dict):
            raise ProtocolError(
                ErrorCode.BAD_SEATS, 'each seat is {"kind": "human"} or {"kind": "bot"}'
            )
        level = entry.get("level", "medium")
        if level not in LEVELS:
            raise ProtocolError(ErrorCode.BAD_SEATS, f"level must be one of {', '.join(LEVELS)}")
        kind = entry.get("kind")
        if kind == "human":
            kinds.append(("human", str(level)))
        elif kind == "bot":
            kinds.append(("bot", str(level)))
        else:
            raise ProtocolError(ErrorCode.BAD_SEATS, 'a seat kind is "human" or "bot"')
    return kinds
