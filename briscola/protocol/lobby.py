"""The public side of a server (``docs/network-protocol.md``, "The lobby"): the lobby of
public tables, quick match and spectators. Their messages are registered with the one codec
(:mod:`briscola.protocol.messages` reads :data:`CLIENT_TYPES` and :data:`SERVER_FIELDS`);
build them with the functions here.

>>> from briscola.protocol.wire import encode
>>> encode(queue(["classic2", "teams4"]))
'{"type":"queue","presets":["classic2","teams4"]}'
>>> sorted(QUICK_PRESETS)
['chiamata5', 'classic2', 'classic3', 'teams4', 'teams6']
>>> check_presets(["teams4", "teams4"], "queue")
['teams4']
>>> check_presets(["poker"], "queue")
Traceback (most recent call last):
...
briscola.protocol.errors.ProtocolError: queue: unknown configuration 'poker': expected \
classic2, classic3, teams4, chiamata5 or teams6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, NotRequired, TypedDict

from briscola.protocol.errors import ErrorCode, ProtocolError

__all__ = [
    "CLIENT_TYPES",
    "QUICK_PRESETS",
    "SERVER_FIELDS",
    "SERVER_TYPES",
    "In",
    "LobbyChange",
    "LobbyClientMessage",
    "LobbyEntry",
    "LobbyList",
    "LobbySeat",
    "LobbyServerMessage",
    "LobbyStop",
    "LobbyWatch",
    "Out",
    "Queue",
    "QueueBots",
    "Queued",
    "Unqueue",
    "Unwatch",
    "Unwatched",
    "Watch",
    "Watching",
    "check_presets",
    "lobby_change",
    "lobby_list",
    "lobby_stop",
    "lobby_watch",
    "queue",
    "queue_bots",
    "queued",
    "unqueue",
    "unwatch",
    "unwatched",
    "watch",
    "watching",
]

#: The configurations quick match seats people for, in the order offered: two players, three,
#: four in teams, Chiamata, six (the presets of :data:`briscola.engine.rules.VARIANTS`).
QUICK_PRESETS: Final = ("classic2", "classic3", "teams4", "chiamata5", "teams6")

# ---------------------------------------------------------------------- a client's messages


class LobbyWatch(TypedDict):
    type: Literal["lobby_watch"]
    presets: NotRequired[object]


class LobbyStop(TypedDict):
    type: Literal["lobby_stop"]


class Queue(TypedDict):
    type: Literal["queue"]
    presets: object


class QueueBots(TypedDict):
    type: Literal["queue_bots"]
    preset: object


class Unqueue(TypedDict):
    type: Literal["unqueue"]


class Watch(TypedDict):
    type: Literal["watch"]
    code: object


class Unwatch(TypedDict):
    type: Literal["unwatch"]


LobbyClientMessage = LobbyWatch | LobbyStop | Queue | QueueBots | Unqueue | Watch | Unwatch

# ---------------------------------------------------------------------- a server's messages


class LobbySeat(TypedDict):
    seat: int
    #: ``human`` (a person's seat, ``free`` when nobody holds it) or ``bot``.
    kind: str
    name: str
    free: bool
    #: At a rated table: the person's rating (the conservative ordinal, rounded).
    rating: NotRequired[int]


class LobbyEntry(TypedDict):
    """One public table as the lobby shows it: nothing a seat's player alone may know."""

    table: str
    preset: str
    rules: dict[str, Any]
    match: str
    phase: str
    seats: list[LobbySeat]
    free: int
    waited: float
    watchers: int
    rated: bool


class LobbyList(TypedDict):
    type: Literal["lobby"]
    presets: list[str]
    tables: list[LobbyEntry]


class LobbyChange(TypedDict):
    type: Literal["lobby_change"]
    added: list[LobbyEntry]
    changed: list[LobbyEntry]
    removed: list[str]


class Queued(TypedDict):
    type: Literal["queued"]
    presets: list[str]
    waiting: dict[str, int]
    waited: float
    bots: bool


class Watching(TypedDict):
    type: Literal["watching"]
    table: str


class Unwatched(TypedDict):
    type: Literal["unwatched"]
    table: str


LobbyServerMessage = LobbyList | LobbyChange | Queued | Watching | Unwatched
#: The two unions under the short names the codec's unions use (``messages.py``).
In = LobbyClientMessage
Out = LobbyServerMessage

CLIENT_TYPES: Final = (
    "lobby_watch",
    "lobby_stop",
    "queue",
    "queue_bots",
    "unqueue",
    "watch",
    "unwatch",
)
SERVER_TYPES: Final = ("lobby", "lobby_change", "queued", "watching", "unwatched")

_INT: Final = (int,)
_NUMBER: Final = (int, float)
_STR: Final = (str,)
_LIST: Final = (list,)
_OBJECT: Final = (dict,)
_BOOL: Final = (bool,)

#: Each server message's fields for the codec's check: JSON types, and whether required.
SERVER_FIELDS: Final[dict[str, dict[str, tuple[tuple[type, ...], bool]]]] = {
    "lobby": {"presets": (_LIST, True), "tables": (_LIST, True)},
    "lobby_change": {
        "added": (_LIST, True),
        "changed": (_LIST, True),
        "removed": (_LIST, True),
    },
    "queued": {
        "presets": (_LIST, True),
        "waiting": (_OBJECT, True),
        "waited": (_NUMBER, True),
        "bots": (_BOOL, True),
    },
    "watching": {"table": (_STR, True)},
    "unwatched": {"table": (_STR, True)},
}

#: A lobby entry's fields (checked in each of ``tables``, ``added`` and ``changed``).
ENTRY_FIELDS: Final[dict[str, tuple[tuple[type, ...], bool]]] = {
    "table": (_STR, True),
    "preset": (_STR, True),
    "rules": (_OBJECT, True),
    "match": (_STR, True),
    "phase": (_STR, True),
    "seats": (_LIST, True),
    "free": (_INT, True),
    "waited": (_NUMBER, True),
    "watchers": (_INT, True),
    "rated": (_BOOL, True),
}

# ---------------------------------------------------------------------- building


def lobby_watch(presets: Sequence[str] = ()) -> LobbyWatch:
    """Watch the lobby: its public tables (only these configurations; none named: all)."""
    message: LobbyWatch = {"type": "lobby_watch"}
    if presets:
        message["presets"] = list(presets)
    return message


def lobby_stop() -> LobbyStop:
    return {"type": "lobby_stop"}


def queue(presets: Sequence[str]) -> Queue:
    return {"type": "queue", "presets": list(presets)}


def queue_bots(preset: str) -> QueueBots:
    return {"type": "queue_bots", "preset": preset}


def unqueue() -> Unqueue:
    return {"type": "unqueue"}


def watch(code: str) -> Watch:
    return {"type": "watch", "code": code}


def unwatch() -> Unwatch:
    return {"type": "unwatch"}


def lobby_list(presets: Sequence[str], tables: list[LobbyEntry]) -> LobbyList:
    return {"type": "lobby", "presets": list(presets), "tables": tables}


def lobby_change(
    added: list[LobbyEntry], changed: list[LobbyEntry], removed: list[str]
) -> LobbyChange:
    return {"type": "lobby_change", "added": added, "changed": changed, "removed": removed}


def queued(presets: Sequence[str], waiting: Mapping[str, int], waited: float, bots: bool) -> Queued:
    return {
        "type": "queued",
        "presets": list(presets),
        "waiting": dict(waiting),
        "waited": round(waited, 1),
        "bots": bots,
    }


def watching(table: str) -> Watching:
    return {"type": "watching", "table": table}


def unwatched(table: str) -> Unwatched:
    return {"type": "unwatched", "table": table}


# ---------------------------------------------------------------------- reading


def check_presets(data: object, where: str, allowed: Sequence[str] = QUICK_PRESETS) -> list[str]:
    """A list of configuration names (each once, in the order given), each one of
    ``allowed``; raises :class:`ProtocolError` (``bad_queue``) otherwise."""
    if not isinstance(data, list) or not data or len(data) > len(allowed):
        raise ProtocolError(
            ErrorCode.BAD_QUEUE,
            f"{where}: presets must be a list of 1 to {len(allowed)} configuration names",
        )
    chosen: list[str] = []
    for name in data:
        if not isinstance(name, str) or name not in allowed:
            shown = repr(name[:32]) if isinstance(name, str) else "a non-string"
            raise ProtocolError(
                ErrorCode.BAD_QUEUE,
                f"{where}: unknown configuration {shown}: expected"
                f" {', '.join(allowed[:-1])} or {allowed[-1]}",
            )
        if name not in chosen:
            chosen.append(name)
    return chosen


def check_entries(message: Mapping[str, Any], check: Any) -> None:
    """Check each lobby entry of a ``lobby`` or ``lobby_change`` with ``check`` (the
    codec's field checker), and that ``removed`` holds table codes."""
    kind = message["type"]
    for key in ("tables", "added", "changed"):
        for entry in message.get(key, ()):
            if not isinstance(entry, dict):
                raise ProtocolError(ErrorCode.MALFORMED, f"{kind}: each table must be an object")
            check(entry, ENTRY_FIELDS, f"{kind}: a table")
    if any(not isinstance(code, str) for code in message.get("removed", ())):
        raise ProtocolError(ErrorCode.MALFORMED, f"{kind}: 'removed' must hold table codes")
