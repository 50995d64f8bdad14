"""The messages of deals no one can choose (``docs/fairness.md``), registered with the one
codec in :mod:`briscola.protocol.messages`.

Before a hand the server sends ``commit``: the SHA-256 of its secret seed for that deal. The
client answers ``contribute`` with a random value of its own (hex). After the hand, before
its last ``update``, the server sends ``reveal``: the seed and every seat's value, from
which :func:`briscola.engine.fairdeal.derive_deck` gives the deck the hand was dealt from.

>>> commit_message(3, "ab" * 32)["deal"]
3
>>> contribute("ab" * 32, b"\\x01\\x02")["value"]
'0102'
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

__all__ = [
    "CLIENT_TYPES",
    "SERVER_FIELDS",
    "SERVER_TYPES",
    "Commit",
    "Contribute",
    "Reveal",
    "Sent",
    "commit_message",
    "contribute",
    "hex_bytes",
    "reveal",
]


class Contribute(TypedDict):
    """A seat's random value for the deal whose commitment is ``commit`` (hex; the server
    judges both)."""

    type: Literal["contribute"]
    commit: object
    value: object


class Commit(TypedDict):
    """The server's commitment (``SHA-256`` of its seed, hex) for the table's deal ``deal``."""

    type: Literal["commit"]
    deal: int
    commit: str


class Reveal(TypedDict):
    """Deal ``deal`` is over: its seed and every seat's value (hex, "" for none), in seat
    order, with the commitment sent before it."""

    type: Literal["reveal"]
    deal: int
    commit: str
    seed: str
    values: list[str]


#: The server's messages here (one member of ``ServerMessage``).
Sent = Commit | Reveal

CLIENT_TYPES: Final = ("contribute",)
SERVER_TYPES: Final = ("commit", "reveal")

#: Each server message's fields, as :mod:`briscola.protocol.messages` checks them.
SERVER_FIELDS: Final[dict[str, dict[str, tuple[tuple[type, ...], bool]]]] = {
    "commit": {"deal": ((int,), True), "commit": ((str,), True)},
    "reveal": {
        "deal": ((int,), True),
        "commit": ((str,), True),
        "seed": ((str,), True),
        "values": ((list,), True),
    },
}


def contribute(commit: str, value: bytes) -> Contribute:
    return {"type": "contribute", "commit": commit, "value": value.hex()}


def commit_message(deal: int, commit: str) -> Commit:
    return {"type": "commit", "deal": deal, "commit": commit}


def reveal(deal: int, commit: str, seed: bytes, values: list[bytes]) -> Reveal:
    return {
        "type": "reveal",
        "deal": deal,
        "commit": commit,
        "seed": seed.hex(),
        "values": [value.hex() for value in values],
    }


def hex_bytes(value: object, most: int) -> bytes | None:
    """``value`` read as lowercase hex of at most ``most`` bytes; None when it is not.

    >>> hex_bytes("00ff", 4), hex_bytes("0g", 4), hex_bytes("00" * 5, 4), hex_bytes(7, 4)
    (b'\\x00\\xff', None, None, None)
    """
    if not isinstance(value, str) or len(value) > 2 * most or len(value) % 2:
        return None
    if value.strip("0123456789abcdef"):
        return None
    return bytes.fromhex(value)
