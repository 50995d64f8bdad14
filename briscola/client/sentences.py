"""The player's sentences for online play's codes: one for every refusal, table end and
notice of :mod:`briscola.protocol.errors` (:data:`SENTENCES`, keyed by the codes), and for
the connection's state. Any client that shows a person what happened words it here.

The codes a person can do nothing about (a frame the other side could not read, a bug)
read as the server's own words, in :func:`refused`.

>>> code_text(ErrorCode.TABLE_FULL)
'That table is full.'
>>> code_text("something_new", "the server's words")
"The server refused: the server's words"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from briscola.client.connection import ConnectionStatus
from briscola.protocol.errors import CloseReason, Code, ErrorCode, NoticeCode
from briscola.protocol.wire import CODE_LENGTH
from briscola.text.i18n import _

__all__ = ["SENTENCES", "code_text", "connection_text", "refused"]

#: A sentence from the code's detail (the server's or the connection's words, in English).
Sentence = Callable[[str], str]


def refused(detail: str) -> str:
    """A refusal this game has no words of its own for: the server's."""
    return _("The server refused: {reason}").format(reason=detail)


#: Every code's sentence (a test checks that none is missing).
SENTENCES: Final[dict[Code, Sentence]] = {
    ErrorCode.MALFORMED: refused,
    ErrorCode.BAD_MESSAGE: refused,
    ErrorCode.HELLO_FIRST: refused,
    ErrorCode.VERSION: lambda detail: _(
        "The table runs another version of the game: both players need the same version."
    ),
    ErrorCode.BAD_NAME: lambda detail: _(
        "The server refused that name: use letters, digits and spaces (at most 24)."
    ),
    ErrorCode.HELLO_TWICE: refused,
    ErrorCode.UNKNOWN_TYPE: refused,
    ErrorCode.RATE_LIMITED: lambda detail: _("Too many messages at once: slow down a little."),
    ErrorCode.NO_TABLE: lambda detail: _(
        "There is no table with that code. Check the code and try again."
    ),
    ErrorCode.AT_TABLE: refused,
    ErrorCode.BAD_CODE: lambda detail: _(
        "That is not a table code: a code has {n} characters, the letters A to Z but I,"
        " L and O, and the digits 2 to 9."
    ).format(n=CODE_LENGTH),
    ErrorCode.BAD_TOKEN: lambda detail: _("Your seat at that table is gone."),
    ErrorCode.MATCH_OVER: lambda detail: _(
        "The match you left is over: your seat at that table is closed."
    ),
    ErrorCode.TOO_MANY_FAILED_JOINS: lambda detail: _(
        "Too many wrong codes from this computer: wait a minute and try again."
    ),
    ErrorCode.SERVER_FULL: lambda detail: _("The server is full: try again later."),
    ErrorCode.TOO_MANY_TABLES: lambda detail: _(
        "This computer has opened too many tables: close one, or wait a minute and try again."
    ),
    ErrorCode.BAD_RULES: lambda detail: _("The server does not accept these rules."),
    ErrorCode.BAD_SEATS: lambda detail: _("The server does not accept these seats."),
    ErrorCode.TABLE_FULL: lambda detail: _("That table is full."),
    ErrorCode.SEAT_TAKEN: lambda detail: _("That seat is taken."),
    ErrorCode.STARTED: lambda detail: _("That game has already started."),
    ErrorCode.NOT_HOST: lambda detail: _("Only the host can start the game."),
    ErrorCode.NOT_READY: lambda detail: _("Every seat open to a friend must be taken and ready."),
    ErrorCode.WRONG_PHASE: refused,
    ErrorCode.NOT_YOUR_TURN: refused,
    ErrorCode.ILLEGAL: refused,
    ErrorCode.BAD_ACTION: refused,
    ErrorCode.STALE: refused,
    ErrorCode.BAD_VALUE: refused,
    ErrorCode.BAD_KEY: refused,
    ErrorCode.UNKNOWN_KEY: lambda detail: _(
        "This server does not know you yet: choose a name to play under."
    ),
    ErrorCode.NAME_TAKEN: lambda detail: _(
        "Another player of this server has that name, or one too like it: choose another."
    ),
    ErrorCode.NAME_REFUSED: lambda detail: _("That name cannot be used: {reason}").format(
        reason=detail
    ),
    ErrorCode.RENAME_WAIT: lambda detail: _("You can change your name once a day."),
    ErrorCode.TOO_MANY_NAMES: lambda detail: _(
        "Too many new players from this network lately: try again in an hour."
    ),
    ErrorCode.IDENTIFY_FIRST: refused,
    ErrorCode.BANNED: lambda detail: _(
        "This server's operator has banned you. The reason given: {reason}"
    ).format(reason=detail),
    ErrorCode.BAD_CHAT: refused,
    ErrorCode.CHAT_LIMITED: lambda detail: _(
        "You have sent many quick messages: wait a little before the next."
    ),
    ErrorCode.BAD_REPORT: lambda detail: _("You can report another person at your table."),
    ErrorCode.INTERNAL: refused,
    ErrorCode.UNAVAILABLE: lambda detail: _("The server is busy for a moment: try again."),
    # (a game's own client never sends these: a client that does is told what it did)
    ErrorCode.BAD_QUEUE: refused,
    ErrorCode.QUEUED: refused,
    ErrorCode.BAD_FAMILY: lambda detail: _("The server has no ratings of that kind of table."),
    ErrorCode.MALFORMED_FROM_SERVER: refused,
    ErrorCode.BAD_ADDRESS: lambda detail: _("Type the host's address, e.g. 192.168.1.5:8765."),
    ErrorCode.UNREACHABLE: lambda detail: _(
        "Cannot reach the server. Check the address and that the table is open."
    ),
    ErrorCode.HOST_FAILED: lambda detail: _(
        "Cannot open a table on this computer: {reason}"
    ).format(reason=detail),
    ErrorCode.HOST_GONE: lambda detail: _(
        "The host's game ({name}) did not come back: the table has ended."
    ).format(name=detail),
    CloseReason.HOST_LEFT: lambda detail: _("The host closed the table."),
    CloseReason.ABANDONED: lambda detail: _("Every other player left: the table is closed."),
    CloseReason.IDLE: lambda detail: _("The table was closed after a long wait."),
    CloseReason.SHUTDOWN: lambda detail: _("The server closed."),
    CloseReason.REPLACED: lambda detail: _("Your seat was taken up from another window."),
    NoticeCode.TIMED_OUT: lambda detail: _(
        "Your time to move ran out: a computer played that move for you."
    ),
}

_BY_TEXT: Final[dict[str, Code]] = {str(code): code for code in SENTENCES}


def code_text(code: Code | str, detail: str = "") -> str:
    """``code`` (an error, a table's end or a notice, or its text as it came over the wire)
    for the player; ``detail``: the server's or the connection's words, for the codes that
    have no sentence of their own and those this game does not know."""
    known = _BY_TEXT.get(str(code))
    if known is None:
        return refused(detail or str(code))
    return SENTENCES[known](detail or str(code))


def connection_text(status: ConnectionStatus) -> str:
    """Where a connection stands, for the player (empty when connected)."""
    if status in ("idle", "connecting"):
        return _("Connecting…")
    if status == "reconnecting":
        return _("Connection lost: reconnecting…")
    if status in ("failed", "closed"):
        return SENTENCES[ErrorCode.UNREACHABLE]("")
    return ""
