"""The messages of players on a server's public side (``docs/network-protocol.md``,
"Players, quick chat and reports"): a player's identity, quick chat and reports. The one
codec (:mod:`briscola.protocol.messages`) reads and writes them with every other message;
this module holds their classes, builders and the fields a client checks.

A player who has a key says who it is with :func:`identify` (and a name, the first time);
the server answers :func:`identity`. Quick chat sends a code of :data:`QUICK_CHAT`, never
text: every reader shows it in their own language.

>>> from briscola.protocol.messages import decode_client, decode_server, encode
>>> decode_client(encode(chat("good_game")))["say"]
'good_game'
>>> decode_server('{"type": "said", "seat": 1, "name": "Anna", "say": 3}')
Traceback (most recent call last):
...
briscola.protocol.errors.ProtocolError: said: 'say' must be a string
"""

from __future__ import annotations

from typing import Final, Literal, NotRequired, TypedDict

__all__ = [
    "CLIENT_TYPES",
    "FACES",
    "MAX_BOARD",
    "PHRASES",
    "QUICK_CHAT",
    "RATING_TYPES",
    "REPORT_REASONS",
    "SERVER_FIELDS",
    "SERVER_TYPES",
    "Chat",
    "HistoryPoint",
    "Identify",
    "Identity",
    "Leaderboard",
    "LeaderboardOut",
    "PeopleClient",
    "PeopleServer",
    "Rated",
    "RatingHistory",
    "RatingHistoryOut",
    "Rename",
    "Report",
    "Reported",
    "Said",
    "Standing",
    "chat",
    "identify",
    "identity",
    "leaderboard",
    "rating_history",
    "rename",
    "report",
    "reported",
    "said",
]

#: Quick chat's phrases: each shown in the reader's language (none says anything of cards).
PHRASES: Final = (
    "hello",
    "good_luck",
    "good_game",
    "well_played",
    "thanks",
    "sorry",
    "one_moment",
    "oops",
    "bye",
)
#: Quick chat's faces.
FACES: Final = ("smile", "laugh", "wow", "sad", "thinking")
#: Every code a ``chat`` may say: the server refuses any other (no free text).
QUICK_CHAT: Final = PHRASES + FACES
#: Why a player is reported (a ``report``'s ``reason``).
REPORT_REASONS: Final = ("name", "chat", "play", "other")


class Identify(TypedDict):
    type: Literal["identify"]
    key: object
    name: NotRequired[object]


class Rename(TypedDict):
    type: Literal["rename"]
    name: object


class Chat(TypedDict):
    type: Literal["chat"]
    say: object


class Report(TypedDict):
    type: Literal["report"]
    seat: object
    reason: NotRequired[object]


class Leaderboard(TypedDict):
    type: Literal["leaderboard"]
    family: object
    count: NotRequired[object]


class RatingHistory(TypedDict):
    type: Literal["rating_history"]
    family: object


PeopleClient = Identify | Rename | Chat | Report | Leaderboard | RatingHistory


class Identity(TypedDict):
    type: Literal["identity"]
    name: str
    new: bool
    rename_in: float


class Said(TypedDict):
    type: Literal["said"]
    seat: int
    name: str
    say: str


class Reported(TypedDict):
    type: Literal["reported"]
    seat: int


class Standing(TypedDict):
    """A place on a leaderboard: ``rating`` the conservative ordinal (rounded), ``sigma``
    its uncertainty."""

    rank: int
    name: str
    rating: int
    sigma: float
    games: int


class Rated(TypedDict):
    """What a rated hand changed for this player: ``before``/``after`` the conservative
    ordinal (one decimal), ``points`` its side's points and ``luck`` what its cards were
    worth in points (``points - luck`` is what the rating saw)."""

    type: Literal["rated"]
    family: str
    before: float
    after: float
    change: float
    sigma: float
    points: int
    luck: float
    abandoned: bool


class LeaderboardOut(TypedDict):
    type: Literal["leaderboard"]
    family: str
    top: list[Standing]
    you: Standing | None


class HistoryPoint(TypedDict):
    at: float
    rating: float
    sigma: float


class RatingHistoryOut(TypedDict):
    type: Literal["rating_history"]
    family: str
    points: list[HistoryPoint]


PeopleServer = Identity | Said | Reported | Rated | LeaderboardOut | RatingHistoryOut

#: The requests of the ratings (answered by ``briscola.server.rated``).
RATING_TYPES: Final = ("leaderboard", "rating_history")
CLIENT_TYPES: Final = ("identify", "rename", "chat", "report", *RATING_TYPES)
SERVER_TYPES: Final = ("identity", "said", "reported", "rated", "leaderboard", "rating_history")
#: The most players a leaderboard lists.
MAX_BOARD: Final = 50

#: Each server message's fields: the JSON types each may hold, and whether it is required.
SERVER_FIELDS: Final[dict[str, dict[str, tuple[tuple[type, ...], bool]]]] = {
    "identity": {"name": ((str,), True), "new": ((bool,), True), "rename_in": ((int, float), True)},
    "said": {"seat": ((int,), True), "name": ((str,), True), "say": ((str,), True)},
    "reported": {"seat": ((int,), True)},
    "rated": {
        "family": ((str,), True),
        "before": ((int, float), True),
        "after": ((int, float), True),
        "change": ((int, float), True),
        "sigma": ((int, float), True),
        "points": ((int,), True),
        "luck": ((int, float), True),
        "abandoned": ((bool,), True),
    },
    "leaderboard": {
        "family": ((str,), True),
        "top": ((list,), True),
        "you": ((dict, type(None)), True),
    },
    "rating_history": {"family": ((str,), True), "points": ((list,), True)},
}


def identify(key: str, name: str | None = None) -> Identify:
    """Say who this player is (``key``: 64 hexadecimal digits); ``name`` registers a key
    the server does not know yet."""
    message: Identify = {"type": "identify", "key": key}
    if name is not None:
        message["name"] = name
    return message


def rename(name: str) -> Rename:
    return {"type": "rename", "name": name}


def chat(say: str) -> Chat:
    return {"type": "chat", "say": say}


def report(seat: int, reason: str = "other") -> Report:
    return {"type": "report", "seat": seat, "reason": reason}


def leaderboard(family: str, count: int = 20) -> Leaderboard:
    """Ask for the top ``count`` (at most :data:`MAX_BOARD`) of ``family`` and this
    player's own place (``briscola.ratings.FAMILIES``: two, three, teams4, chiamata, six)."""
    return {"type": "leaderboard", "family": family, "count": count}


def rating_history(family: str) -> RatingHistory:
    """Ask for this player's rating after each of its last rated hands in ``family``."""
    return {"type": "rating_history", "family": family}


def identity(name: str, new: bool, rename_in: float) -> Identity:
    return {"type": "identity", "name": name, "new": new, "rename_in": round(rename_in, 1)}


def said(seat: int, name: str, say: str) -> Said:
    return {"type": "said", "seat": seat, "name": name, "say": say}


def reported(seat: int) -> Reported:
    return {"type": "reported", "seat": seat}
