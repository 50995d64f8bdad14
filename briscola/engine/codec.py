"""The engine's JSON codec: safe parsing of untrusted text, and the readers' shared parts.

Everything the game reads from outside (its own files, records, bot requests, network
messages) is untrusted. :func:`parse_json` turns text into JSON values or raises
:class:`CodecError` with a one-line reason: never a ``RecursionError`` from deep nesting,
a ``UnicodeDecodeError`` or a number too long to convert. :func:`card_from_json` is the
one card parser of views, records and network messages; a seat's view as JSON is in
:mod:`briscola.engine.view`.

>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json("[" * 1000 + "]" * 1000)
Traceback (most recent call last):
...
briscola.engine.codec.CodecError: JSON nested deeper than 200 levels
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any, Final

from briscola.engine.cards import Card
from briscola.engine.rules import Rules, short_repr

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "CodecError",
    "ViewError",
    "card_from_json",
    "nesting_depth",
    "parse_json",
    "rules_from",
]

#: The deepest nesting any of the game's documents needs is 5; deeper values inside a
#: document (say in a free-form field) are left to the schema checks, while the parser
#: stays far from the interpreter's recursion limit.
MAX_DEPTH: Final = 200
#: Larger than any file or message the game writes (a record is a few kilobytes).
MAX_CHARS: Final = 4_000_000

_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


class CodecError(ValueError):
    """Text or JSON values that do not fit the expected format (the message says why)."""


class ViewError(CodecError):
    """A view (bot protocol, network) that is malformed or inconsistent."""


# ---------------------------------------------------------------------------- parsing


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in JSON ``text`` (brackets in strings ignored).

    >>> nesting_depth('{"a": [[1], "]]]"]}')
    3
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise CodecError(f"number out of range: {text[:20]}")
    return value


def _no_constant(name: str) -> Any:
    raise CodecError(f"{name} is not a JSON number")


def parse_json(text: str | bytes, *, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> Any:
    """JSON values from ``text`` (bytes must be UTF-8); raises :class:`CodecError`.

    Refuses text over ``max_chars``, nesting over ``max_depth``, ``NaN``, ``Infinity``
    and numbers that overflow a float, and integers too long to convert.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > max_chars:
            raise CodecError(f"too large ({len(text)} bytes, at most {max_chars})")
        try:
            text = bytes(text).decode("utf-8-sig")  # a byte order mark is tolerated
        except UnicodeDecodeError as exc:
            raise CodecError(f"not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise CodecError("JSON must be text")
    if len(text) > max_chars:
        raise CodecError(f"too large ({len(text)} characters, at most {max_chars})")
    if nesting_depth(text) > max_depth:
        raise CodecError(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except CodecError:
        raise
    except json.JSONDecodeError as exc:
        raise CodecError(f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise CodecError(f"not JSON: {exc}") from None


# ---------------------------------------------------------------------------- reading


def rules_from(data: Mapping[str, Any], error: type[CodecError], where: str) -> Rules:
    """:meth:`Rules.from_dict` for a document's reader: a complaint about the rules is
    raised as ``error``, prefixed with ``where``.

    >>> rules_from({"preset": "classic2"}, CodecError, "rules").players
    2
    >>> rules_from({"preset": "classic2", "players": "two"}, CodecError, "rules")
    Traceback (most recent call last):
    ...
    briscola.engine.codec.CodecError: rules: invalid rules: players must be 2 to 6, got 'two'
    """
    try:
        return Rules.from_dict(data)
    except ValueError as exc:
        raise error(f"{where}: {exc}") from None


def card_from_json(code: Any, where: str, error: type[CodecError] = CodecError) -> Card:
    """The card a JSON value names (a code such as ``"3S"``): the one card parser of views,
    records and network messages. Anything else raises ``error`` saying where.

    >>> card_from_json("qb", "hand")
    Card.from_code('QB')
    >>> card_from_json(7, "trick 2")
    Traceback (most recent call last):
    ...
    briscola.engine.codec.CodecError: trick 2: invalid card code 7
    """
    try:
        return Card.from_code(code)
    except (ValueError, TypeError):
        raise error(f"{where}: invalid card code {short(code)}") from None


def short(value: Any) -> str:
    """A bad value as a reader's message quotes it."""
    return short_repr(value, 40)
