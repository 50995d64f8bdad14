"""The network protocol's shared pieces (``docs/network-protocol.md``): the version, the
JSON forms of engine events, player names and table codes. Standard library and engine only:
both the server and the client import it.

Every frame is one JSON object with a ``type``. Views and actions use the bot protocol's
JSON forms (:meth:`PlayerView.to_json`, :func:`action_from_json`); events use the forms
below, which :func:`event_from_json` reads back:

>>> from briscola.engine import Card, Played
>>> event = Played(1, Card.from_code("3S"))
>>> event_to_json(event)
{'event': 'played', 'seat': 1, 'card': '3S'}
>>> event_from_json(event_to_json(event)) == event
True
>>> check_name("  Anna Maria ")
'Anna Maria'
>>> normalize_code("ab-c d23")
'ABCD23'
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from briscola.engine import (
    Auction,
    Bid,
    BriscolaTurned,
    Called,
    Card,
    Dealt,
    Drew,
    Event,
    HandOver,
    HandStarted,
    MatchOver,
    PartnerRevealed,
    Played,
    Signalled,
    Swapped,
    Trick,
    TrickWon,
    action_from_json,
    signal_from_json,
)
from briscola.engine.codec import CodecError, card_from_json, parse_json
from briscola.engine.state import HandResult
from briscola.protocol.errors import ErrorCode, ProtocolError

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DEFAULT_PORT",
    "MAX_NAME",
    "PROTOCOL",
    "ProtocolError",
    "check_name",
    "decode",
    "encode",
    "event_from_json",
    "event_to_json",
    "normalize_code",
    "spaced_code",
    "table_url",
    "tidy_name",
]

#: The port a server listens on, and an address typed without one connects to.
DEFAULT_PORT: Final = 8765
#: The protocol version a client names in its ``hello``; another version is refused.
PROTOCOL: Final = "briscola-net/1"
#: Table codes: no 0/O, 1/I/L, so a code read aloud or off a screen is typed right.
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6
#: Longest player name, in characters.
MAX_NAME: Final = 24
_NAME_PUNCTUATION: Final = frozenset(" .-_'")
#: No message of the protocol nests deeper than 16 levels (docs/network-protocol.md).
MAX_DEPTH: Final = 16
#: Seconds a table hosted in a player's game waits for that game to come back: its guests
#: are told until when, and the host's kept table is given up after it.
HOST_WAIT: Final = 300.0


def encode(message: Mapping[str, Any]) -> str:
    """One frame's text: compact JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def decode(text: str | bytes) -> dict[str, Any]:
    """Parse one frame: a JSON object with a string ``type``; raises :class:`ProtocolError`.

    >>> decode('{"type": "ready", "ready": true}')
    {'type': 'ready', 'ready': True}
    >>> decode('[1]')
    Traceback (most recent call last):
    ...
    briscola.protocol.errors.ProtocolError: a frame must be a JSON object with a "type"
    """
    if isinstance(text, bytes):
        raise ProtocolError(ErrorCode.MALFORMED, "frames are JSON text, not binary")
    try:
        message = parse_json(text, max_depth=MAX_DEPTH)
    except CodecError as exc:
        raise ProtocolError(ErrorCode.MALFORMED, f"malformed JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(ErrorCode.MALFORMED, 'a frame must be a JSON object with a "type"')
    if _has_lone_surrogate(message):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            "a string holds a lone surrogate (\\ud800-\\udfff): not Unicode text",
        )
    return message


def _has_lone_surrogate(data: Any) -> bool:
    """A string in ``data`` (keys included) holds a code point no UTF-8 text can carry: a
    JSON escape such as ``"\\ud800"`` that is not half of a pair.

    >>> _has_lone_surrogate({"type": "\\ud800"}), _has_lone_surrogate({"a": ["\\U0001f600"]})
    (True, False)
    """
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(data, dict):
        return any(_has_lone_surrogate(key) or _has_lone_surrogate(v) for key, v in data.items())
    if isinstance(data, list):
        return any(_has_lone_surrogate(item) for item in data)
    return False


def check_name(name: object) -> str:
    """A player's name, stripped: 1 to :data:`MAX_NAME` letters, digits, spaces and
    ``.-_'``; raises :class:`ProtocolError` (code ``bad_name``) otherwise.

    >>> check_name("Zoë_2")
    'Zoë_2'
    >>> check_name("a\\u202eb")
    Traceback (most recent call last):
    ...
    briscola.protocol.errors.ProtocolError: a name may hold letters, digits, spaces and . - _ ' only
    """
    if not isinstance(name, str):
        raise ProtocolError(ErrorCode.BAD_NAME, "a name must be a string")
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ProtocolError(ErrorCode.BAD_NAME, f"a name must hold 1 to {MAX_NAME} characters")
    for char in name:
        if char in _NAME_PUNCTUATION:
            continue
        if unicodedata.category(char)[0] not in "LN":
            raise ProtocolError(
                ErrorCode.BAD_NAME, "a name may hold letters, digits, spaces and . - _ ' only"
            )
    if "  " in name:
        raise ProtocolError(ErrorCode.BAD_NAME, "a name may not hold two spaces in a row")
    return name


def tidy_name(name: str) -> str:
    """``name`` with what :func:`check_name` refuses left out: other characters dropped,
    spaces run together, cut to :data:`MAX_NAME` ("" when nothing is left).

    >>> tidy_name("  Robo\u2728  Bruno ")
    'Robo Bruno'
    >>> tidy_name("\u2728")
    ''
    """
    kept = "".join(
        char
        for char in unicodedata.normalize("NFC", name)
        if char in _NAME_PUNCTUATION or unicodedata.category(char)[0] in "LN"
    )
    return " ".join(kept.split())[:MAX_NAME].strip()


def normalize_code(code: object) -> str:
    """A table code as typed (any case, spaces and dashes ignored) in its canonical form;
    raises :class:`ProtocolError` (``bad_code``) when it cannot be a code."""
    if not isinstance(code, str) or len(code) > 32:
        raise ProtocolError(ErrorCode.BAD_CODE, "a table code is a short string")
    text = "".join(char for char in code.upper() if char not in " -")
    if len(text) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in text):
        raise ProtocolError(
            ErrorCode.BAD_CODE, f"a table code has {CODE_LENGTH} letters and digits, e.g. 'K7MX2Q'"
        )
    return text


def spaced_code(code: str) -> str:
    """A table code as shown to people, in two halves that are easy to read out.

    >>> spaced_code("K7MX2Q")
    'K7M X2Q'
    """
    return f"{code[:3]} {code[3:]}" if len(code) == CODE_LENGTH else code


def table_url(url: str, code: str | None) -> str:
    """``url`` naming the table ``code`` in its query (``?table=CODE``), for a proxy in
    front of several server processes to send the connection to the one that holds the
    table (docs/server.md); ``url`` unchanged when ``code`` is None. The server itself
    reads nothing from the address: the ``join`` or ``resume`` message says the table.

    >>> table_url("ws://play.example:8765", "K7MX2Q")
    'ws://play.example:8765/?table=K7MX2Q'
    >>> table_url("wss://play.example/briscola?table=AAAAAA&v=1", "K7MX2Q")
    'wss://play.example/briscola?v=1&table=K7MX2Q'
    """
    if code is None:
        return url
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "table"]
    query.append(("table", code))
    return urlunsplit(parts._replace(path=parts.path or "/", query=urlencode(query)))


# ---------------------------------------------------------------------------- events


def _trick_to_json(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [card.code for card in trick.cards],
        "winner": trick.winner,
        "points": trick.points,
    }


def event_to_json(event: Event) -> dict[str, Any]:
    """The JSON form of an engine event (as the receiving seat may see it)."""
    match event:
        case HandStarted(dealer=dealer, deck_size=size):
            return {"event": "hand_started", "dealer": dealer, "deck_size": size}
        case Dealt(seat=seat, card=card):
            return {"event": "dealt", "seat": seat, "card": card.code if card else None}
        case BriscolaTurned(card=card):
            return {"event": "briscola_turned", "card": card.code}
        case Auction(seat=seat, bid=bid):
            return {"event": "auction", "seat": seat, "bid": None if bid is None else str(bid)[4:]}
        case Called(seat=seat, card=card):
            return {"event": "called", "seat": seat, "card": card.code}
        case Swapped(seat=seat, gave=gave, took=took):
            return {"event": "swapped", "seat": seat, "gave": gave.code, "took": took.code}
        case Played(seat=seat, card=card):
            return {"event": "played", "seat": seat, "card": card.code}
        case PartnerRevealed(seat=seat, alone=alone):
            return {"event": "partner_revealed", "seat": seat, "alone": alone}
        case Signalled(seat=seat, kind=kind, trick=trick, at=at):
            return {"event": "signalled", "seat": seat, "kind": kind, "trick": trick, "at": at}
        case TrickWon(trick=trick):
            return {"event": "trick_won", "trick": _trick_to_json(trick)}
        case Drew(seat=seat, card=card, face_up=face_up):
            return {
                "event": "drew",
                "seat": seat,
                "card": card.code if card else None,
                "face_up": face_up,
            }
        case HandOver(result=result):
            return {"event": "hand_over", "result": result.to_json()}
        case MatchOver(winners=winners, standing=standing):
            return {"event": "match_over", "winners": list(winners), "standing": list(standing)}
    raise TypeError(f"not an event: {event!r}")


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10_000:
        raise ValueError(f"event: {key!r} must be a small non-negative integer")
    return value


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    values = data.get(key)
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ValueError(f"event: {key!r} must be a list of integers")
    return tuple(values)


def _card(data: Mapping[str, Any], key: str, optional: bool = False) -> Card | None:
    code = data.get(key)
    if code is None and optional:
        return None
    return card_from_json(code, f"event: {key!r}")


def _some_card(data: Mapping[str, Any], key: str) -> Card:
    card = _card(data, key)
    assert card is not None
    return card


def _result(data: Any) -> HandResult:
    if not isinstance(data, Mapping):
        raise ValueError("event: a hand result must be an object")
    winner = data.get("winner")
    if winner is not None:
        winner = _int(data, "winner")
    sides = data.get("sides")
    if not isinstance(sides, list) or not all(isinstance(side, list) for side in sides):
        raise ValueError("event: 'sides' must be a list of seat lists")
    return HandResult(
        points=_ints(data, "points"),
        sides=tuple(_ints({"s": side}, "s") for side in sides),
        side_points=_ints(data, "side_points"),
        target=_int(data, "target"),
        winner=winner,
        tied=_ints(data, "tied"),
        cappotto=bool(data.get("cappotto")),
        returns=_ints(data, "returns"),
    )


def event_from_json(data: Any) -> Event:
    """Inverse of :func:`event_to_json`; raises ``ValueError`` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("an event must be a JSON object")
    kind = data.get("event")
    if kind == "hand_started":
        return HandStarted(_int(data, "dealer"), _int(data, "deck_size"))
    if kind == "dealt":
        return Dealt(_int(data, "seat"), _card(data, "card", optional=True))
    if kind == "briscola_turned":
        return BriscolaTurned(_some_card(data, "card"))
    if kind == "auction":
        text = data.get("bid")
        bid = None
        if text is not None:
            action = action_from_json({"bid": text})
            assert isinstance(action, Bid)
            bid = action
        return Auction(_int(data, "seat"), bid)
    if kind == "called":
        return Called(_int(data, "seat"), _some_card(data, "card"))
    if kind == "swapped":
        return Swapped(_int(data, "seat"), _some_card(data, "gave"), _some_card(data, "took"))
    if kind == "played":
        return Played(_int(data, "seat"), _some_card(data, "card"))
    if kind == "partner_revealed":
        return PartnerRevealed(_int(data, "seat"), bool(data.get("alone")))
    if kind == "signalled":
        signal = signal_from_json({"signal": data.get("kind")})
        return Signalled(_int(data, "seat"), signal.kind, _int(data, "trick"), _int(data, "at"))
    if kind == "trick_won":
        trick = data.get("trick")
        if not isinstance(trick, Mapping):
            raise ValueError("event: 'trick' must be an object")
        cards = trick.get("cards")
        if not isinstance(cards, list) or not 2 <= len(cards) <= 6:
            raise ValueError("event: a trick holds 2 to 6 cards")
        leader = _int(trick, "leader")
        seats = tuple((leader + k) % len(cards) for k in range(len(cards)))
        return TrickWon(
            Trick(
                seats,
                tuple(_some_card({"c": code}, "c") for code in cards),
                _int(trick, "winner"),
                _int(trick, "points"),
            )
        )
    if kind == "drew":
        return Drew(_int(data, "seat"), _card(data, "card", optional=True), bool(data["face_up"]))
    if kind == "hand_over":
        return HandOver(_result(data.get("result")))
    if kind == "match_over":
        return MatchOver(_ints(data, "winners"), _ints(data, "standing"))
    raise ValueError(f"unknown event {kind!r}")
