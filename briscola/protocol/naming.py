"""Players on a server's public side: the rules of a registered name, the form two names are
compared in, and the player's secret key (``docs/network-protocol.md``, "Players").

A registered name follows :func:`~briscola.protocol.wire.check_name` (1 to 24 letters,
digits, spaces and ``.-_'``: no control, format or invisible characters), and more: its
letters are of one script (Latin, Greek, Cyrillic..., the Japanese and Chinese scripts
counting as one), so that ``Аnna`` with a Cyrillic ``А`` is refused; it is no reserved word
(``admin``, ``server``, ``moderator``..., the game's computer players' names and levels).
Two names are the same name when their :func:`name_key` is: Unicode NFKC, case folded,
accents and the separators ``.-_'`` and spaces left out, and the digits ``0`` and ``1``
read as ``o`` and ``l``:

>>> name_key("Zoë_2") == name_key("ZOE 2") == name_key("ｚｏｅ２")
True
>>> check_player_name("  Anna Maria ")
'Anna Maria'
>>> check_player_name("Mod Team")
Traceback (most recent call last):
...
briscola.protocol.errors.ProtocolError: 'mod' is reserved on a server: choose another name

A key is 32 random bytes the client makes, sent as 64 hexadecimal digits; the server keeps
only its SHA-256 (:func:`key_hash`): a key that random needs no slow hash.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Final

from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import check_name

__all__ = [
    "KEY_BYTES",
    "RESERVED",
    "check_key",
    "check_player_name",
    "key_hash",
    "name_key",
    "script_of",
]

#: A player's key: this many random bytes (64 hexadecimal digits on the wire).
KEY_BYTES: Final = 32
_KEY: Final = re.compile(r"[0-9a-f]{64}")

#: Words no registered name may be, nor hold as one of its words: they would pass for the
#: server's people or the game's own players.
RESERVED: Final = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "server",
        "moderator",
        "mod",
        "operator",
        "sysop",
        "system",
        "staff",
        "support",
        "official",
        "briscola",
        "host",
        "guest",
        "anonymous",
        "nobody",
        "computer",
        "bot",
        "robot",
    }
)
#: Scripts written together in one language's names.
_ONE_SCRIPT: Final = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK"}
_SEPARATORS: Final = " .-_'"
_LOOKALIKE: Final = str.maketrans({"0": "o", "1": "l"})


def check_key(key: object) -> str:
    """A key as sent (64 lowercase hexadecimal digits); raises :class:`ProtocolError`
    (``bad_key``) for anything else.

    >>> check_key("00" * 32) == "0" * 64
    True
    """
    if not isinstance(key, str) or _KEY.fullmatch(key) is None:
        raise ProtocolError(ErrorCode.BAD_KEY, "a key is 64 lowercase hexadecimal digits")
    return key


def key_hash(key: str) -> str:
    """What the server keeps of a key: its SHA-256, in hexadecimal (the key is 32 random
    bytes, so nothing faster to guess than the key itself is kept)."""
    return hashlib.sha256(bytes.fromhex(key)).hexdigest()


def script_of(char: str) -> str:
    """The script of a letter, as its Unicode name begins (``LATIN``, ``CYRILLIC``...);
    "" for a digit or a separator.

    >>> script_of("a"), script_of("а"), script_of("7"), script_of("か")
    ('LATIN', 'CYRILLIC', '', 'CJK')
    """
    if unicodedata.category(char)[0] != "L":
        return ""
    word = unicodedata.name(char, "UNKNOWN").split()[0]
    return _ONE_SCRIPT.get(word, word)


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys, one name (see the module)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        char
        for char in unicodedata.normalize("NFD", folded)
        if not unicodedata.combining(char) and char not in _SEPARATORS
    )
    return unicodedata.normalize("NFC", bare).translate(_LOOKALIKE)


def check_player_name(name: object) -> str:
    """A name to register on a server, stripped; raises :class:`ProtocolError` with a
    sentence saying what is wrong (``bad_name`` for the characters, ``name_refused`` for a
    reserved word or mixed scripts)."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFKC", name)
    name = check_name(name)
    scripts = {script_of(char) for char in name} - {""}
    if not scripts:
        raise ProtocolError(ErrorCode.BAD_NAME, "a name needs at least one letter")
    if len(scripts) > 1:
        raise ProtocolError(
            ErrorCode.NAME_REFUSED,
            "a name mixes letters of one script only (not Latin with Cyrillic or Greek"
            " letters that look alike)",
        )
    words = [name_key(word) for word in re.split(r"[ .\-_']+", name) if word]
    whole = name_key(name)
    for word in [whole, *words]:
        if word in RESERVED:
            raise ProtocolError(
                ErrorCode.NAME_REFUSED, f"{word!r} is reserved on a server: choose another name"
            )
    return name
