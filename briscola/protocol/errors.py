"""The codes of the network protocol, each with what it means (``docs/network-protocol.md``
lists the same, and a test holds the two together): :class:`ErrorCode` for refused
messages (and the few failures a client notices itself), :class:`CloseReason` for a table
that ends, :class:`NoticeCode` for what happens to a seat without a message of its own.

Every code is a ``str``: it is written on the wire as it is, and compares equal to its text.

>>> ErrorCode.STALE == "stale"
True
>>> print(ErrorCode("stale").description)
a move that answers an older view (its moves count is not the hand's)
>>> ProtocolError(ErrorCode.BAD_CODE, "not a code").code is ErrorCode.BAD_CODE
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = ["CloseReason", "Code", "ErrorCode", "NoticeCode", "ProtocolError"]


class ErrorCode(StrEnum):
    """Why a message was refused (the ``code`` of an ``error``). The last few
    (:attr:`local`) are never sent: a client reports them itself."""

    MALFORMED = "malformed"
    BAD_MESSAGE = "bad_message"
    HELLO_FIRST = "hello_first"
    VERSION = "version"
    BAD_NAME = "bad_name"
    HELLO_TWICE = "hello_twice"
    UNKNOWN_TYPE = "unknown_type"
    RATE_LIMITED = "rate_limited"
    NO_TABLE = "no_table"
    AT_TABLE = "at_table"
    BAD_CODE = "bad_code"
    BAD_TOKEN = "bad_token"
    MATCH_OVER = "match_over"
    TOO_MANY_FAILED_JOINS = "too_many_failed_joins"
    SERVER_FULL = "server_full"
    TOO_MANY_TABLES = "too_many_tables"
    BAD_RULES = "bad_rules"
    BAD_SEATS = "bad_seats"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    STARTED = "started"
    NOT_HOST = "not_host"
    NOT_READY = "not_ready"
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    BAD_ACTION = "bad_action"
    STALE = "stale"
    BAD_VALUE = "bad_value"
    BAD_KEY = "bad_key"
    UNKNOWN_KEY = "unknown_key"
    NAME_TAKEN = "name_taken"
    NAME_REFUSED = "name_refused"
    RENAME_WAIT = "rename_wait"
    TOO_MANY_NAMES = "too_many_names"
    IDENTIFY_FIRST = "identify_first"
    BANNED = "banned"
    BAD_CHAT = "bad_chat"
    CHAT_LIMITED = "chat_limited"
    BAD_REPORT = "bad_report"
    INTERNAL = "internal"
    UNAVAILABLE = "unavailable"
    BAD_QUEUE = "bad_queue"
    QUEUED = "queued"
    BAD_FAMILY = "bad_family"
    # A client's own: never on the wire.
    MALFORMED_FROM_SERVER = "malformed_from_server"
    BAD_ADDRESS = "bad_address"
    UNREACHABLE = "unreachable"
    HOST_FAILED = "host_failed"
    HOST_GONE = "host_gone"

    @property
    def description(self) -> str:
        """What the code means, in a line (the documentation's)."""
        return _ERRORS[self]

    @property
    def local(self) -> bool:
        """A client reports it itself: the server never sends it."""
        return self in _LOCAL


_LOCAL: Final = frozenset(
    {
        ErrorCode.MALFORMED_FROM_SERVER,
        ErrorCode.BAD_ADDRESS,
        ErrorCode.UNREACHABLE,
        ErrorCode.HOST_FAILED,
        ErrorCode.HOST_GONE,
    }
)

_ERRORS: Final[dict[ErrorCode, str]] = {
    ErrorCode.MALFORMED: (
        "not a JSON object with a `type`, bad JSON, nesting over 16 levels, or a binary frame"
    ),
    ErrorCode.BAD_MESSAGE: (
        'a string (a key or a value) holds a lone surrogate (`"\\ud800"`): not Unicode text'
    ),
    ErrorCode.HELLO_FIRST: "the first frame was not `hello` (the connection closes)",
    ErrorCode.VERSION: "another protocol version (the connection closes)",
    ErrorCode.BAD_NAME: (
        "a name that breaks the rules above (after `hello`, the connection closes)"
    ),
    ErrorCode.HELLO_TWICE: "a second `hello`",
    ErrorCode.UNKNOWN_TYPE: "an unknown `type`",
    ErrorCode.RATE_LIMITED: ("too many messages: the message was dropped (sent once per burst)"),
    ErrorCode.NO_TABLE: (
        "that table does not exist (for `watch`: no public table has that code), or a table"
        " message before `create`/`join`, or an `unwatch` when watching none"
    ),
    ErrorCode.AT_TABLE: (
        "`create`/`join`/`resume`/`queue`/`watch` while at a table or watching one,"
        " `identify`/`rename` while at a table (send `leave` or `unwatch` first)"
    ),
    ErrorCode.BAD_CODE: "not a table code",
    ErrorCode.BAD_TOKEN: "the token is not valid at that table",
    ErrorCode.MATCH_OVER: "a `resume` of a seat left with `leave` once its match has ended",
    ErrorCode.TOO_MANY_FAILED_JOINS: ("too many wrong codes or tokens from this address lately"),
    ErrorCode.SERVER_FULL: "the server holds as many tables as it may",
    ErrorCode.TOO_MANY_TABLES: (
        "this address holds its share of tables (32) or waiting rooms (8), or this"
        " connection opened 10 tables in the last minute"
    ),
    ErrorCode.BAD_RULES: "a `create` whose rules are invalid",
    ErrorCode.BAD_SEATS: "a `create` whose seat list is invalid, or a `join` seat not a number",
    ErrorCode.TABLE_FULL: "a `join` finds no free seat, or a `watch` a table with 64 spectators",
    ErrorCode.SEAT_TAKEN: "a `join` asks for a seat that is not free, or that the table lacks",
    ErrorCode.STARTED: "a `join` of a table whose game has started",
    ErrorCode.NOT_HOST: "a `start` from a guest",
    ErrorCode.NOT_READY: "a `start` while a seat is free or a guest is not ready",
    ErrorCode.WRONG_PHASE: "`start`, `ready`, `next` or `act` at the wrong moment",
    ErrorCode.NOT_YOUR_TURN: "an `act` while another seat is to move",
    ErrorCode.ILLEGAL: "an `act` whose action the rules forbid now (the reason follows)",
    ErrorCode.BAD_ACTION: "an `act` whose action is not an action",
    ErrorCode.STALE: "a move that answers an older view (its moves count is not the hand's)",
    ErrorCode.BAD_VALUE: "a `contribute` whose value is not lowercase hex of 64 bytes at most",
    ErrorCode.BAD_KEY: "an `identify` whose `key` is not 64 lowercase hexadecimal digits",
    ErrorCode.UNKNOWN_KEY: (
        "an `identify` without a `name` for a key this server does not know: send the name"
        " to register"
    ),
    ErrorCode.NAME_TAKEN: "another player of this server has that name (see Players)",
    ErrorCode.NAME_REFUSED: (
        "a name to register that is reserved or mixes scripts (the reason follows)"
    ),
    ErrorCode.RENAME_WAIT: "a `rename` sooner than a day after the last (the wait follows)",
    ErrorCode.TOO_MANY_NAMES: (
        "an `identify` that registers a player when this address registered 10 in the last hour"
    ),
    ErrorCode.IDENTIFY_FIRST: "a message of the public side (`rename`) before `identify`",
    ErrorCode.BANNED: (
        "this key or address is banned from the server: the `message` is the operator's"
        " reason (the connection closes)"
    ),
    ErrorCode.BAD_CHAT: "a `chat` whose `say` is not one of the quick chat's codes",
    ErrorCode.CHAT_LIMITED: (
        "too many `chat` messages lately (from this connection, or this address on the"
        " whole service): the message was dropped"
    ),
    ErrorCode.BAD_REPORT: "a `report` of a seat that is not another person's at this table",
    ErrorCode.INTERNAL: ("the server failed on this message (a bug; the message changed nothing)"),
    ErrorCode.UNAVAILABLE: (
        "(several server processes) the store the tables live in cannot be reached for a"
        " moment: try again"
    ),
    ErrorCode.BAD_FAMILY: (
        "a `leaderboard` or `rating_history` naming no family of rated tables (two, three,"
        " teams4, chiamata, six)"
    ),
    ErrorCode.BAD_QUEUE: (
        "a `queue` or `queue_bots` naming no configuration or one quick match does not offer,"
        " or a `queue_bots` before its wait or for a configuration not queued for"
    ),
    ErrorCode.QUEUED: (
        "`create`/`join`/`resume`/`watch` while waiting for quick match (send `unqueue` first)"
    ),
    ErrorCode.MALFORMED_FROM_SERVER: (
        "the server sent a frame that is not a message of this protocol"
    ),
    ErrorCode.BAD_ADDRESS: "the server address typed is not one (`host`, `host:port`, `ws://`)",
    ErrorCode.UNREACHABLE: "no server answered at that address, or the connection was lost",
    ErrorCode.HOST_FAILED: "the host's own server could not start (its port, its network)",
    ErrorCode.HOST_GONE: (
        "a table hosted in a player's game (`hosted` in `welcome`) stayed unreachable for 5"
        " minutes: the client gives it up, the table has ended for it"
    ),
}


class CloseReason(StrEnum):
    """Why a table ended (the ``reason`` of a ``closed``)."""

    HOST_LEFT = "host_left"
    ABANDONED = "abandoned"
    IDLE = "idle"
    SHUTDOWN = "shutdown"
    REPLACED = "replaced"

    @property
    def description(self) -> str:
        return _REASONS[self]


_REASONS: Final[dict[CloseReason, str]] = {
    CloseReason.HOST_LEFT: (
        "the host of an embedded table quit, or the host left the waiting room, or a waiting"
        " room stayed 15 s with nobody connected"
    ),
    CloseReason.ABANDONED: "no player connected",
    CloseReason.IDLE: (
        "a waiting room or finished table left untouched for 30 minutes; a connection"
        " without a table idle for 5 minutes"
    ),
    CloseReason.SHUTDOWN: (
        "the server stops; every connection is told, at a table or not: a client holding a"
        " seat should not reconnect, one at no table may try again later"
    ),
    CloseReason.REPLACED: "the seat was resumed from another connection",
}


class NoticeCode(StrEnum):
    """What happened to a seat that no message of its own caused (a ``notice``)."""

    TIMED_OUT = "timed_out"

    @property
    def description(self) -> str:
        return _NOTICES[self]


_NOTICES: Final[dict[NoticeCode, str]] = {
    NoticeCode.TIMED_OUT: (
        "the seat's person took longer than the turn clock (300 s by default) over one move,"
        " so a computer player made that move; the next move is the person's again"
    ),
}

#: Any code a player may be told about: a refusal, a table's end or a notice.
Code = ErrorCode | CloseReason | NoticeCode


class ProtocolError(ValueError):
    """A frame that breaks the protocol, or a message refused; ``code`` says why."""

    def __init__(self, code: ErrorCode, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        #: The ``type`` of the refused message, when it had one.
        self.ref = ref
