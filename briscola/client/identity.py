"""The player on a server's public side, as the game keeps it: one secret key per server in
the data folder (:class:`~briscola.storage.keys.KeyStore`), made the first time the player
goes there, registered with the name the player chose, and moved to another computer as a
code (:func:`export_code`, :func:`import_code`). No pygame: any front end uses it.

A key code is the key and a two-byte checksum in Crockford's base 32 (no I, L, O or U;
typed in any case, with or without the dashes, ``O`` read as ``0`` and ``I``/``L`` as
``1``), after ``BK1-``; a mistyped code is refused by its checksum:

>>> key = "00" * 31 + "ff"
>>> code = export_code(key)
>>> code[:9], len(code)
('BK1-00000', 69)
>>> import_code(code.lower().replace("-", " ")) == key
True
>>> import_code(code[:-1] + ("1" if code[-1] != "1" else "2"))
Traceback (most recent call last):
...
briscola.client.identity.KeyCodeError: that code is mistyped: check it character by character
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final
from urllib.parse import urlsplit

from briscola.client.connection import NetClient
from briscola.client.sentences import code_text
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.naming import KEY_BYTES, check_player_name
from briscola.protocol.people import Identity
from briscola.protocol.wire import DEFAULT_PORT
from briscola.storage.keys import KeyStore, ServerKey

__all__ = [
    "Identities",
    "KeyCodeError",
    "export_code",
    "import_code",
    "name_problem",
    "new_key",
    "server_name",
    "sign_in",
    "signed_in",
]

_ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ: Final = {**{char: value for value, char in enumerate(_ALPHABET)}, "O": 0, "I": 1, "L": 1}
_PREFIX: Final = "BK1-"
_CHECK: Final = 2
#: Characters of a code after its prefix (the key and its checksum, 5 bits each).
_LENGTH: Final = ((KEY_BYTES + _CHECK) * 8 + 4) // 5


class KeyCodeError(ValueError):
    """A key code that cannot be read (the message says why, for the player)."""


def new_key() -> str:
    """A new key: 32 random bytes, as 64 hexadecimal digits."""
    return secrets.token_hex(KEY_BYTES)


def _check(raw: bytes) -> bytes:
    return hashlib.sha256(b"briscola-key" + raw).digest()[:_CHECK]


def export_code(key: str) -> str:
    """``key`` as a code to type on another computer (groups of five, after ``BK1-``)."""
    raw = bytes.fromhex(key)
    number = int.from_bytes(raw + _check(raw), "big") << (_LENGTH * 5 - (KEY_BYTES + _CHECK) * 8)
    chars = "".join(_ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(_LENGTH)))
    return _PREFIX + "-".join(chars[i : i + 5] for i in range(0, _LENGTH, 5))


def import_code(text: str) -> str:
    """The key a code (:func:`export_code`) holds; raises :class:`KeyCodeError`."""
    typed = text.strip().upper()
    if typed[:2] == "BK" and typed[2:3] in ("1", "L", "I") and typed[3:4] in ("-", " "):
        typed = typed[4:]
    elif len("".join(typed.split())) == _LENGTH + 3 and typed[:2] == "BK":
        typed = typed[3:]  # (typed without its dash)
    body = "".join(char for char in typed if char not in " -\t\n")
    if len(body) != _LENGTH or any(char not in _READ for char in body):
        raise KeyCodeError(
            f"a key code is BK1- and {_LENGTH} letters and digits: check that all of it was copied"
        )
    number = 0
    for char in body:
        number = number << 5 | _READ[char]
    pad = _LENGTH * 5 - (KEY_BYTES + _CHECK) * 8  # (bits after the checksum: all 0)
    whole = (number >> pad).to_bytes(KEY_BYTES + _CHECK, "big")
    raw, check = whole[:KEY_BYTES], whole[KEY_BYTES:]
    if number & ((1 << pad) - 1) or not secrets.compare_digest(check, _check(raw)):
        raise KeyCodeError("that code is mistyped: check it character by character")
    return raw.hex()


def server_name(url: str) -> str:
    """The server a key is kept for, from its address: scheme, host in lower case, port.

    >>> server_name("ws://Briscola.Example.org/?table=K7MX2Q")
    'ws://briscola.example.org:8765'
    """
    parts = urlsplit(url)
    port = parts.port or DEFAULT_PORT
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}:{port}"


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a player's name on a server, for the player (None:
    nothing the game can tell; the server may still find it taken)."""
    try:
        check_player_name(name)
    except ProtocolError as exc:
        if exc.code is ErrorCode.BAD_NAME:
            return code_text(exc.code)
        return code_text(ErrorCode.NAME_REFUSED, str(exc))
    return None


class Identities:
    """The player's keys, by server address (see the module)."""

    def __init__(self, store: KeyStore) -> None:
        self.store = store

    def get(self, url: str) -> ServerKey | None:
        return self.store.get(server_name(url))

    def remember(self, url: str, key: str, name: str) -> bool:
        """Keep ``key`` and the registered ``name`` for the server at ``url``."""
        return self.store.put(server_name(url), ServerKey(key, name))

    def forget(self, url: str) -> bool:
        return self.store.forget(server_name(url))

    def export(self, url: str) -> str | None:
        """The code of the key kept for ``url`` (None: none kept)."""
        kept = self.get(url)
        return None if kept is None else export_code(kept.key)

    def import_(self, url: str, code: str) -> str:
        """Keep the key of ``code`` for ``url`` (its name comes with the server's
        ``identity``); the key. Raises :class:`KeyCodeError`."""
        key = import_code(code)
        kept = self.get(url)
        self.store.put(server_name(url), ServerKey(key, kept.name if kept else ""))
        return key


def sign_in(client: NetClient, identities: Identities, name: str | None = None) -> bool:
    """Have ``client`` say who the player is on its server: with the key kept for it, or
    a new key registered with ``name``. False when no key is kept and no name given (ask
    the player for one). Keep the key once the server answers (:func:`signed_in`)."""
    kept = identities.get(client.url)
    if kept is not None:
        client.identify(kept.key, name if name and not kept.name else None)
    elif name is not None:
        client.identify(client.key or new_key(), name)  # (the same key, for a name taken)
    else:
        return False
    return True


def signed_in(client: NetClient, identities: Identities, message: Identity) -> bool:
    """The server answered ``identity``: keep the key and the name it knows the player by."""
    if client.key is None:
        return False
    return identities.remember(client.url, client.key, message["name"])
