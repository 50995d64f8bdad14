"""The engine's JSON codec: safe parsing of untrusted text, and one seat's view as JSON.

Everything the game reads from outside (its own files, records, bot requests, network
messages) is untrusted. :func:`parse_json` turns text into JSON values or raises
:class:`CodecError` with a one-line reason: never a ``RecursionError`` from deep nesting,
a ``UnicodeDecodeError`` or a number too long to convert. :func:`view_to_json` and
:func:`view_from_json` are the two halves of the view codec (the bot protocol's and the
network's request body); the reader checks every field and the whole view's consistency,
and raises :class:`ViewError` (a ``ValueError``) naming the field.

>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> parse_json("[" * 1000 + "]" * 1000)
Traceback (most recent call last):
...
briscola.engine.codec.CodecError: JSON nested deeper than 200 levels
>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> from .view import view
>>> seen = view(GameState.new(Rules.preset("teams4"), random.Random(4)), 1)
>>> view_from_json(view_to_json(seen)) == seen
True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Final

from .actions import Bid, Call, Pass, Play, Swap, action_from_json
from .cards import Card, Suit
from .rules import Rules
from .state import Phase, SwapRecord, Trick

if TYPE_CHECKING:
    from .view import PlayerView

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "PHASES",
    "CodecError",
    "ViewError",
    "nesting_depth",
    "parse_json",
    "rules_from",
    "view_from_json",
    "view_to_json",
]

#: The deepest nesting any of the game's documents needs is 5; deeper values inside a
#: document (say in a free-form field) are left to the schema checks, while the parser
#: stays far from the interpreter's recursion limit.
MAX_DEPTH: Final = 200
#: Larger than any file or message the game writes (a record is a few kilobytes).
MAX_CHARS: Final = 4_000_000
PHASES: Final = ("auction", "call", "play", "over")

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


# ---------------------------------------------------------------------------- writing


def view_to_json(seen: PlayerView) -> dict[str, Any]:
    """A :class:`PlayerView` as plain JSON values (the bot protocol's ``view``)."""
    return {
        "rules": seen.rules.to_dict(),
        "seat": seen.seat,
        "dealer": seen.dealer,
        "phase": seen.phase,
        "current_player": seen.current_player,
        "hand": [card.code for card in seen.hand],
        "hand_sizes": list(seen.hand_sizes),
        "trump": seen.trump.code if seen.trump is not None else None,
        "briscola": seen.briscola.code if seen.briscola is not None else None,
        "briscola_in_stock": seen.briscola_in_stock,
        "stock_size": seen.stock_size,
        "stock_top": seen.stock_top.code if seen.stock_top is not None else None,
        "table": [{"seat": seat, "card": card.code} for seat, card in seen.table],
        "tricks": [
            {
                "leader": trick.leader,
                "cards": [card.code for card in trick.cards],
                "winner": trick.winner,
                "points": trick.points,
            }
            for trick in seen.tricks
        ],
        "points": list(seen.points),
        "side_points": list(seen.side_points()),
        "pile_sizes": list(seen.pile_sizes),
        "known": [sorted(card.code for card in cards) for cards in seen.known],
        "voids": [sorted(suit.code for suit in suits) for suits in seen.voids],
        "swaps": [
            {"trick": s.trick, "seat": s.seat, "gave": s.gave.code, "took": s.took.code}
            for s in seen.swaps
        ],
        "auction": [
            {"seat": seat, "pass": True} if bid is None else {"seat": seat, "bid": str(bid)[4:]}
            for seat, bid in seen.bids
        ],
        "caller": seen.caller,
        "called": seen.called.code if seen.called is not None else None,
        "partner": seen.partner,
        "legal": [action.to_json() for action in seen.legal],
    }


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


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ViewError(f"view: missing {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds).replace("dict", "object")
        raise ViewError(f"view: {key!r} must be {names.replace('list', 'a list')}")
    return value


def _card(code: Any, where: str) -> Card:
    try:
        return Card.from_code(code)
    except (ValueError, TypeError):
        raise ViewError(f"view: {where}: invalid card {_short(code)}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _cards(codes: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise ViewError(f"view: {where} must be a list of card codes")
    return tuple(_card(code, where) for code in codes)


def _opt_card(code: Any, where: str) -> Card | None:
    return None if code is None else _card(code, where)


def _suit(code: Any, where: str) -> Suit:
    if not isinstance(code, str):
        raise ViewError(f"view: {where}: invalid suit {_short(code)}")
    try:
        return Suit.from_code(code)
    except ValueError:
        raise ViewError(f"view: {where}: invalid suit {_short(code)}") from None


def _seat(value: Any, n: int, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ViewError(f"view: {where} must be a seat from 0 to {n - 1}")
    return value


def _ints(values: Any, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) != n:
        raise ViewError(f"view: {where} must list {n} numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in values):
        raise ViewError(f"view: {where} must hold non-negative integers")
    return tuple(values)


def _objects(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    items: list[Any] = _get(data, key, list)
    if not all(isinstance(item, Mapping) for item in items):
        raise ViewError(f"view: {key!r} entries must be objects")
    return items


def view_from_json(data: Any) -> PlayerView:
    """Rebuild the :class:`PlayerView` that :func:`view_to_json` wrote.

    Raises :class:`ViewError` naming the field for anything malformed or inconsistent:
    wrong types, seats out of range, a card in two places, counts that do not add up,
    legal actions that do not fit the phase or the hand.
    """
    from .view import PlayerView

    if not isinstance(data, Mapping):
        raise ViewError("view must be a JSON object")
    rules = rules_from(_get(data, "rules", dict), ViewError, "view: rules")
    n = rules.players
    seat = _seat(_get(data, "seat", int), n, "seat")
    dealer = _seat(_get(data, "dealer", int), n, "dealer")
    phase = _get(data, "phase", str)
    if phase not in PHASES:
        raise ViewError(f"view: phase must be one of {', '.join(PHASES)}")
    if phase in ("auction", "call") and not rules.chiamata:
        raise ViewError(f"view: phase {phase!r} exists only in Briscola Chiamata")
    current = _seat(data.get("current_player"), n, "current_player", optional=True)
    if (phase == "over") != (current is None):
        raise ViewError("view: current_player must be null exactly when the phase is 'over'")
    hand = _cards(_get(data, "hand", list), "hand")
    hand_sizes = _ints(_get(data, "hand_sizes", list), n, "hand_sizes")
    if hand_sizes[seat] != len(hand):
        raise ViewError("view: hand_sizes disagrees with the hand")
    if any(size > rules.hand_size + 1 for size in hand_sizes):
        raise ViewError("view: a hand holds more cards than the rules deal")
    trump_code = data.get("trump")
    trump = None if trump_code is None else _suit(trump_code, "trump")
    briscola = _opt_card(data.get("briscola"), "briscola")
    briscola_in_stock = _get(data, "briscola_in_stock", bool)
    stock_size = _get(data, "stock_size", int)
    if not 0 <= stock_size <= rules.stock_size:
        raise ViewError(f"view: stock_size must be 0 to {rules.stock_size}")
    stock_top = _opt_card(data.get("stock_top"), "stock_top")
    table: list[tuple[int, Card]] = []
    for entry in _objects(data, "table"):
        table.append((_seat(entry.get("seat"), n, "table seat"), _card(entry.get("card"), "table")))
    if len(table) >= n:
        raise ViewError(f"view: the table holds {len(table)} cards for {n} players")
    tricks: list[Trick] = []
    for i, entry in enumerate(_objects(data, "tricks")):
        where = f"trick {i + 1}"
        leader = _seat(entry.get("leader"), n, f"{where} leader")
        cards = _cards(entry.get("cards"), where)
        if len(cards) != n:
            raise ViewError(f"view: {where} must hold {n} cards")
        winner = _seat(entry.get("winner"), n, f"{where} winner")
        points = entry.get("points")
        if points != sum(c.points for c in cards) or isinstance(points, bool):
            raise ViewError(f"view: {where}: points disagree with the cards")
        seats = tuple((leader + k) % n for k in range(n))
        tricks.append(Trick(seats, cards, winner, sum(c.points for c in cards)))
    points_by_seat = _ints(_get(data, "points", list), n, "points")
    pile_sizes = _ints(_get(data, "pile_sizes", list), n, "pile_sizes")
    known_data = _get(data, "known", list)
    if len(known_data) != n:
        raise ViewError(f"view: known must list {n} seats")
    known = tuple(frozenset(_cards(codes, "known")) for codes in known_data)
    voids_data = _get(data, "voids", list)
    if len(voids_data) != n or not all(isinstance(v, list) for v in voids_data):
        raise ViewError(f"view: voids must list {n} seats")
    voids = tuple(frozenset(_suit(code, "voids") for code in codes) for codes in voids_data)
    swaps: list[SwapRecord] = []
    for entry in _objects(data, "swaps"):
        trick_no = entry.get("trick")
        if not isinstance(trick_no, int) or isinstance(trick_no, bool) or not 0 <= trick_no < 40:
            raise ViewError("view: swap trick must be a trick number")
        swaps.append(
            SwapRecord(
                trick_no,
                _seat(entry.get("seat"), n, "swap seat"),
                _card(entry.get("gave"), "swap"),
                _card(entry.get("took"), "swap"),
            )
        )
    bids: list[tuple[int, Bid | None]] = []
    high_bid: Bid | None = None
    high_bidder: int | None = None
    for entry in _objects(data, "auction") if "auction" in data else []:
        bidder = _seat(entry.get("seat"), n, "auction seat")
        if entry.get("pass") is True:
            bids.append((bidder, None))
            continue
        try:
            bid = action_from_json({"bid": entry.get("bid")})
        except ValueError as exc:
            raise ViewError(f"view: auction: {exc}") from None
        assert isinstance(bid, Bid)
        bids.append((bidder, bid))
        high_bid, high_bidder = bid, bidder
    if bids and not rules.chiamata:
        raise ViewError("view: an auction exists only in Briscola Chiamata")
    caller = _seat(data.get("caller"), n, "caller", optional=True)
    called = _opt_card(data.get("called"), "called")
    partner = _seat(data.get("partner"), n, "partner", optional=True)
    played = {c for t in tricks for c in t.cards} | {c for _, c in table}
    partner_revealed = called is not None and called in played
    legal_data = _get(data, "legal", list)
    try:
        legal = tuple(action_from_json(entry) for entry in legal_data)
    except ValueError as exc:
        raise ViewError(f"view: legal: {exc}") from None
    places = list(hand) + [c for t in tricks for c in t.cards] + [c for _, c in table]
    for cards_known in known:
        places.extend(cards_known)
    if len(set(places)) != len(places):
        raise ViewError("view: a card is in two places")
    deck = set(rules.deck)
    extra = [briscola, stock_top, called] + [c for s in swaps for c in (s.gave, s.took)]
    if any(c not in deck for c in places) or any(c is not None and c not in deck for c in extra):
        raise ViewError("view: a card that is not in this deck")
    if sum(hand_sizes) + stock_size + len(played) != rules.deck_size:
        raise ViewError("view: hands, stock and played cards do not add up to the deck")
    if any(len(cards) > size for cards, size in zip(known, hand_sizes, strict=True)):
        raise ViewError("view: more cards known in a hand than it holds")
    if briscola_in_stock and (briscola is None or stock_size < 1):
        raise ViewError("view: briscola_in_stock without a briscola under a stock")
    for name, card in (
        ("briscola", briscola if briscola_in_stock else None),
        ("stock_top", stock_top),
    ):
        if card is not None and card in set(places):
            raise ViewError(f"view: the {name} {card} is also in a hand or on a pile")
    if stock_top is not None and stock_size < 1:
        raise ViewError("view: stock_top without a stock")
    _check_legal(legal, phase, current == seat, set(hand))
    phase_value: Phase = phase
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=dealer,
        phase=phase_value,
        current_player=current,
        hand=hand,
        hand_sizes=hand_sizes,
        trump=trump,
        briscola=briscola,
        briscola_in_stock=briscola_in_stock,
        stock_size=stock_size,
        stock_top=stock_top,
        table=tuple(table),
        tricks=tuple(tricks),
        points=points_by_seat,
        pile_sizes=pile_sizes,
        known=known,
        voids=voids,
        swaps=tuple(swaps),
        bids=tuple(bids),
        high_bid=high_bid,
        high_bidder=high_bidder,
        caller=caller,
        called=called,
        partner=partner,
        partner_revealed=partner_revealed,
        legal=legal,
    )


def _check_legal(legal: tuple[Any, ...], phase: str, to_move: bool, hand: set[Card]) -> None:
    """Legal actions fit the phase and the hand: only the seat to move has any."""
    if legal and not to_move:
        raise ViewError("view: legal actions for a seat that is not to move")
    if len(set(legal)) != len(legal):
        raise ViewError("view: legal lists an action twice")
    kinds: dict[str, tuple[type, ...]] = {
        "auction": (Bid, Pass),
        "call": (Call,),
        "play": (Play, Swap),
        "over": (),
    }
    for action in legal:
        if not isinstance(action, kinds[phase]):
            raise ViewError(f"view: legal: {action} cannot be taken in the {phase} phase")
        if isinstance(action, Play | Swap) and action.card not in hand:
            raise ViewError(f"view: legal: {action} names a card the hand does not hold")
