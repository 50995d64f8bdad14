"""Every message of ``briscola-net/1``, one typed class each, and the one codec.

A message is a ``TypedDict``: on the wire it is exactly its JSON object, in memory a
``dict`` whose keys and value types ``mypy`` checks. Build a message with its function here
(:func:`hello`, :func:`joined`, ...: the ``type`` is written only in this module), send it
with :func:`encode`, and read a frame with :func:`decode_client` (the server's side) or
:func:`decode_server` (a client's side): a frame that does not parse raises
:class:`~briscola.protocol.errors.ProtocolError` with the code to answer it with, once, here.

What a client sends is checked here for its shape only (a JSON object of a known type);
its values (a table code, seats, rules, an action) the server judges, each refusal with its
own code (``bad_code``, ``bad_seats``, ``bad_rules``, ``bad_action``...). What a server
sends is checked here field by field: a client reads only well-formed messages.

>>> text = encode(hello("Anna"))
>>> text
'{"type":"hello","protocol":"briscola-net/1","name":"Anna"}'
>>> decode_client(text)["name"]
'Anna'
>>> decode_client('{"type": "dance"}')
Traceback (most recent call last):
...
briscola.protocol.errors.ProtocolError: unknown message type 'dance': expected create, join, \
resume, ready, start, act, next, leave or a lobby message
>>> decode_server('{"type": "joined", "table": "K7MX2Q", "seat": "1"}')
Traceback (most recent call last):
...
briscola.protocol.errors.ProtocolError: joined: 'seat' must be an integer
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, NotRequired, TypedDict, cast

from briscola.protocol import fairness as fair
from briscola.protocol import lobby, people
from briscola.protocol.errors import CloseReason, ErrorCode, NoticeCode, ProtocolError
from briscola.protocol.wire import PROTOCOL, decode, encode

__all__ = [
    "CLIENT_TYPES",
    "SERVER_TYPES",
    "Act",
    "ClientMessage",
    "Closed",
    "Create",
    "Error",
    "Hello",
    "Join",
    "Joined",
    "Leave",
    "Left",
    "Limits",
    "Next",
    "Notice",
    "Ready",
    "Resume",
    "SeatEntry",
    "ServerMessage",
    "Start",
    "TableInfo",
    "Update",
    "Welcome",
    "act",
    "closed",
    "create",
    "decode_client",
    "decode_hello",
    "decode_server",
    "encode",
    "error",
    "frame_type",
    "hello",
    "join",
    "joined",
    "leave",
    "left",
    "next_hand",
    "notice",
    "ready",
    "resume",
    "start",
    "table_info",
    "update",
    "welcome",
]

# ---------------------------------------------------------------------- a client's messages
# Values the server judges (codes, tokens, seats, rules, actions) are any JSON here.


class Hello(TypedDict):
    type: Literal["hello"]
    protocol: object
    name: object


class Create(TypedDict):
    type: Literal["create"]
    rules: NotRequired[object]
    seats: NotRequired[object]
    seat: NotRequired[object]
    public: NotRequired[object]  # listed in the lobby (briscola.protocol.lobby)


class Join(TypedDict):
    type: Literal["join"]
    code: object
    seat: NotRequired[object]


class Resume(TypedDict):
    type: Literal["resume"]
    code: object
    token: object


class Ready(TypedDict):
    type: Literal["ready"]
    ready: NotRequired[object]


class Start(TypedDict):
    type: Literal["start"]
    fill_bots: NotRequired[object]


class Act(TypedDict):
    type: Literal["act"]
    action: object
    moves: NotRequired[object]


class Next(TypedDict):
    type: Literal["next"]


class Leave(TypedDict):
    type: Literal["leave"]


ClientMessage = (
    Hello
    | Create
    | Join
    | Resume
    | Ready
    | Start
    | Act
    | Next
    | Leave
    | fair.Contribute
    | people.PeopleClient
    | lobby.In
)

# ---------------------------------------------------------------------- a server's messages


class Limits(TypedDict):
    max_message: int
    rate: float
    burst: int
    grace: float


class Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: str
    server: str
    limits: Limits
    #: The server runs in a player's game (the host's): it goes when that game does.
    hosted: NotRequired[bool]


class Joined(TypedDict):
    type: Literal["joined"]
    table: str
    seat: int
    token: str
    host: bool


class SeatEntry(TypedDict):
    """One seat of a ``table`` message (the server writes every field)."""

    seat: int
    kind: str
    name: str
    level: NotRequired[str | None]
    claimed: NotRequired[bool]
    connected: NotRequired[bool]
    ready: NotRequired[bool]
    away: NotRequired[bool]
    replaced: NotRequired[bool]
    next: NotRequired[bool]
    rating: NotRequired[int]  # at a rated table (briscola.protocol.people, "rated")


class TableInfo(TypedDict):
    """The ``table`` message."""

    type: Literal["table"]
    table: str
    rules: dict[str, Any]
    host: int
    phase: str
    seats: list[SeatEntry]
    standing: list[int] | None
    hand: int | None
    grace: float
    watchers: NotRequired[int]


class Update(TypedDict):
    type: Literal["update"]
    deal: int
    hand: int
    moves: int
    reset: bool
    events: list[dict[str, Any]]
    view: dict[str, Any]
    standing: list[int]
    phase: str
    signals_by: NotRequired[list[str]]
    record: NotRequired[dict[str, Any]]


class Left(TypedDict):
    type: Literal["left"]
    table: str


class Notice(TypedDict):
    type: Literal["notice"]
    code: str
    message: str


class Closed(TypedDict):
    type: Literal["closed"]
    reason: str
    message: str


class Error(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: NotRequired[str]
    protocol: NotRequired[str]


ServerMessage = (
    Welcome
    | Joined
    | TableInfo
    | Update
    | Left
    | Notice
    | Closed
    | Error
    | fair.Sent
    | people.PeopleServer
    | lobby.Out
)

#: The message types, as the documentation lists them.
CLIENT_TYPES: Final = (
    "hello",
    "create",
    "join",
    "resume",
    "ready",
    "start",
    "act",
    "next",
    "leave",
    *fair.CLIENT_TYPES,
    *people.CLIENT_TYPES,
    *lobby.CLIENT_TYPES,
)
SERVER_TYPES: Final = (
    "welcome",
    "joined",
    "table",
    "update",
    "left",
    "notice",
    "closed",
    "error",
    *fair.SERVER_TYPES,
    *people.SERVER_TYPES,
    *lobby.SERVER_TYPES,
)

# ---------------------------------------------------------------------- building


def hello(name: str) -> Hello:
    return {"type": "hello", "protocol": PROTOCOL, "name": name}


def create(
    rules: Mapping[str, Any], seats: Sequence[Mapping[str, Any]] | None, seat: int
) -> Create:
    message: Create = {"type": "create", "rules": dict(rules), "seat": seat}
    if seats is not None:
        message["seats"] = [dict(entry) for entry in seats]
    return message


def join(code: str, seat: int | None = None) -> Join:
    message: Join = {"type": "join", "code": code}
    if seat is not None:
        message["seat"] = seat
    return message


def resume(code: str, token: str) -> Resume:
    return {"type": "resume", "code": code, "token": token}


def ready(flag: bool = True) -> Ready:
    return {"type": "ready", "ready": flag}


def start(fill_bots: bool = False) -> Start:
    return {"type": "start", "fill_bots": fill_bots}


def act(action: Mapping[str, Any], moves: int | None = None) -> Act:
    """An action's (or a partner signal's) JSON form; ``moves`` from the last update."""
    message: Act = {"type": "act", "action": dict(action)}
    if moves is not None:
        message["moves"] = moves
    return message


def next_hand() -> Next:
    return {"type": "next"}


def leave() -> Leave:
    return {"type": "leave"}


def welcome(
    max_message: int, rate: float, burst: int, grace: float, hosted: bool = False
) -> Welcome:
    return {
        "type": "welcome",
        "protocol": PROTOCOL,
        "server": "briscola",
        "limits": {"max_message": max_message, "rate": rate, "burst": burst, "grace": grace},
        "hosted": hosted,
    }


def joined(table: str, seat: int, token: str, host: bool) -> Joined:
    return {"type": "joined", "table": table, "seat": seat, "token": token, "host": host}


def table_info(
    table: str,
    rules: dict[str, Any],
    host: int,
    phase: str,
    seats: list[SeatEntry],
    standing: list[int] | None,
    hand: int | None,
    grace: float,
) -> TableInfo:
    return {
        "type": "table",
        "table": table,
        "rules": rules,
        "host": host,
        "phase": phase,
        "seats": seats,
        "standing": standing,
        "hand": hand,
        "grace": grace,
    }


def update(
    deal: int,
    hand: int,
    moves: int,
    reset: bool,
    events: list[dict[str, Any]],
    view: dict[str, Any],
    standing: list[int],
    phase: str,
) -> Update:
    """An ``update`` (``signals_by`` and ``record`` are added by the caller when due)."""
    return {
        "type": "update",
        "deal": deal,
        "hand": hand,
        "moves": moves,
        "reset": reset,
        "events": events,
        "view": view,
        "standing": standing,
        "phase": phase,
    }


def left(table: str) -> Left:
    return {"type": "left", "table": table}


def notice(code: NoticeCode, message: str) -> Notice:
    return {"type": "notice", "code": code, "message": message}


def closed(reason: CloseReason, message: str) -> Closed:
    return {"type": "closed", "reason": reason, "message": message}


def error(code: ErrorCode, message: str, ref: object = None, protocol: str | None = None) -> Error:
    """An ``error``; ``ref``: the refused message's type, when it was a string (cut to 32)."""
    reply: Error = {"type": "error", "code": code, "message": message}
    if isinstance(ref, str):
        reply["ref"] = ref[:32]
    if protocol is not None:
        reply["protocol"] = protocol
    return reply


# ---------------------------------------------------------------------- reading


def decode_client(text: str | bytes) -> ClientMessage:
    """A client's frame as its message; raises :class:`ProtocolError` (``malformed``,
    ``bad_message``, ``unknown_type``) for a frame that is none."""
    message = decode(text)
    kind = message["type"]
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type {kind[:32]!r}: expected create, join, resume,"
            " ready, start, act, next, leave or a lobby message",
            kind,
        )
    return cast(ClientMessage, message)


def decode_hello(text: str | bytes) -> Hello:
    """A connection's first frame, which must be a ``hello`` (else ``hello_first``)."""
    message = decode(text)
    if message["type"] != "hello":
        raise ProtocolError(
            ErrorCode.HELLO_FIRST, 'the first message must be {"type": "hello"}', "hello"
        )
    return cast(Hello, message)


_INT: Final = (int,)
_NUMBER: Final = (int, float)
_STR: Final = (str,)
_BOOL: Final = (bool,)
_LIST: Final = (list,)
_OBJECT: Final = (dict,)
_NONE: Final = (type(None),)

#: Each server message's fields: the JSON types each may hold, and whether it may be left out.
_SERVER_FIELDS: Final[dict[str, dict[str, tuple[tuple[type, ...], bool]]]] = {
    "welcome": {
        "protocol": (_STR, True),
        "server": (_STR, True),
        "limits": (_OBJECT, True),
    },
    "joined": {"table": (_STR, True), "seat": (_INT, True), "token": (_STR, True)},
    "table": {
        "table": (_STR, True),
        "rules": (_OBJECT, True),
        "host": (_INT, True),
        "phase": (_STR, True),
        "seats": (_LIST, True),
        "standing": (_LIST + _NONE, True),
        "hand": (_INT + _NONE, True),
        "grace": (_NUMBER, True),
    },
    "update": {
        "deal": (_INT, True),
        "hand": (_INT, True),
        "moves": (_INT, True),
        "reset": (_BOOL, True),
        "events": (_LIST, True),
        "view": (_OBJECT, True),
        "standing": (_LIST, True),
        "phase": (_STR, True),
        "signals_by": (_LIST, False),
        "record": (_OBJECT, False),
    },
    "left": {"table": (_STR, True)},
    "notice": {"code": (_STR, True), "message": (_STR, True)},
    "closed": {"reason": (_STR, True), "message": (_STR, True)},
    "error": {
        "code": (_STR, True),
        "message": (_STR, True),
        "ref": (_STR, False),
        "protocol": (_STR, False),
    },
    **fair.SERVER_FIELDS,
    **people.SERVER_FIELDS,
    **lobby.SERVER_FIELDS,
}

_SEAT_FIELDS: Final[dict[str, tuple[tuple[type, ...], bool]]] = {
    "seat": (_INT, True),
    "kind": (_STR, True),
    "name": (_STR, True),
    "level": (_STR + _NONE, False),
    "claimed": (_BOOL, False),
    "connected": (_BOOL, False),
    "ready": (_BOOL, False),
    "away": (_BOOL, False),
    "replaced": (_BOOL, False),
    "next": (_BOOL, False),
}

_TYPE_NAMES: Final[dict[type, str]] = {
    int: "an integer",
    float: "a number",
    str: "a string",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def decode_server(text: str | bytes) -> ServerMessage | None:
    """A server's frame as its message; None for a message type this client does not know
    (a newer server's: clients ignore it). Raises :class:`ProtocolError` for a frame that
    is not a well-formed message; a client reports it as ``malformed_from_server``."""
    message = decode(text)
    kind = message["type"]
    fields = _SERVER_FIELDS.get(kind)
    if fields is None:
        return None
    _check(message, fields, kind)
    if kind == "table":
        for entry in message["seats"]:
            if not isinstance(entry, dict):
                raise ProtocolError(ErrorCode.MALFORMED, "table: each seat must be an object")
            _check(entry, _SEAT_FIELDS, "table: a seat")
    elif kind in ("lobby", "lobby_change"):
        lobby.check_entries(message, _check)
    return cast(ServerMessage, message)


def _check(
    data: Mapping[str, Any], fields: Mapping[str, tuple[tuple[type, ...], bool]], where: str
) -> None:
    for key, (types, required) in fields.items():
        if key not in data:
            if required:
                raise ProtocolError(ErrorCode.MALFORMED, f"{where}: {key!r} is missing")
            continue
        value = data[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            wanted = _TYPE_NAMES[types[0]]
            raise ProtocolError(ErrorCode.MALFORMED, f"{where}: {key!r} must be {wanted}")


def frame_type(text: str) -> str:
    """The ``type`` of a frame :func:`encode` wrote (it writes ``type`` first), read without
    parsing it; "" for another text.

    >>> frame_type(encode(left("K7MX2Q"))), frame_type("[]")
    ('left', '')
    """
    head = '{"type":"'
    if not text.startswith(head):
        return ""
    end = text.find('"', len(head))
    return text[len(head) : end] if end > 0 else ""
