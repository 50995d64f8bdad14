"""Deals no one can choose: the one procedure that orders an online hand's deck.

Before a hand the server picks a secret 32-byte *server seed* and sends its *commitment*,
``SHA-256(seed)``; each seat's game answers with a random value of its own (its
*contribution*, 0 to 64 bytes; a seat that sends none counts as the empty value). The deck
follows from all of them (:func:`derive_deck`); after the hand the server reveals the seed
and each game checks the cards it saw (:func:`check_seen`). ``docs/fairness.md`` explains it
and gives test vectors; this module is the reference (standard library only).

The procedure, ``briscola-fair/1``:

1. ``key = SHA-256(part(b"briscola-fair/1") || part(seed) || u32(n) || part(v0) || ... ||
   part(v[n-1]))``, where ``part(x) = u32(len(x)) || x``, ``u32`` is 4 bytes big-endian and
   ``v0 ... v[n-1]`` are the seats' contributions in seat order (every seat, computers'
   included: theirs are empty). The lengths make every input list its own key.
2. A stream of 32-bit numbers: block ``k`` (0, 1, 2, ...) is ``HMAC-SHA256(key, u64(k))``
   (``u64``: 8 bytes big-endian), read as eight 4-byte big-endian numbers in turn.
3. Start from the rules' deck in index order (coins, cups, swords, clubs; ace, 2 ... king
   within each; the cards the rules take out left out) and shuffle it by Fisher-Yates: for
   ``i`` from ``len - 1`` down to 1, draw ``j`` uniformly in ``0 .. i`` and swap places
   ``i`` and ``j``. Uniformly: with ``m = i + 1`` and ``limit = 2**32 - 2**32 % m``, take
   numbers from the stream until one ``x < limit`` comes, and ``j = x % m`` (no modulo
   bias). The result is the deck top card first, dealt as every hand is.

>>> from briscola.engine.rules import Rules
>>> seed = bytes(32)
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> deck = derive_deck(Rules.preset("classic2"), seed, [b"", b""])
>>> " ".join(card.code for card in deck[:5])
'5S KB JB AS 7B'
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from briscola.engine.actions import IllegalMoveError
from briscola.engine.cards import Card
from briscola.engine.events import (
    BriscolaTurned,
    Called,
    Dealt,
    Drew,
    Event,
    HandStarted,
    Played,
    Swapped,
    action_of,
)
from briscola.engine.rules import Rules
from briscola.engine.state import GameState

__all__ = [
    "MAX_VALUE",
    "PROCEDURE",
    "SEED_SIZE",
    "check_seen",
    "commitment",
    "deal_key",
    "derive_deck",
    "draws",
    "record_verdict",
]

#: The procedure's name, also the first part of every key.
PROCEDURE: Final = "briscola-fair/1"
#: Bytes of a server seed.
SEED_SIZE: Final = 32
#: The longest contribution a seat may send, in bytes.
MAX_VALUE: Final = 64


def commitment(seed: bytes) -> str:
    """What the server sends before the hand: ``SHA-256(seed)``, 64 lowercase hex digits."""
    return hashlib.sha256(seed).hexdigest()


def _part(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def deal_key(seed: bytes, values: Sequence[bytes]) -> bytes:
    """Step 1: the key of the deal made from ``seed`` and the seats' ``values``."""
    if len(seed) != SEED_SIZE:
        raise ValueError(f"a server seed has {SEED_SIZE} bytes, not {len(seed)}")
    for seat, value in enumerate(values):
        if len(value) > MAX_VALUE:
            raise ValueError(f"seat {seat}'s value is over {MAX_VALUE} bytes")
    body = _part(PROCEDURE.encode()) + _part(seed) + struct.pack(">I", len(values))
    return hashlib.sha256(body + b"".join(_part(value) for value in values)).digest()


def _stream(key: bytes) -> Iterator[int]:
    """Step 2: the 32-bit numbers of ``key``'s stream."""
    block = 0
    while True:
        digest = hmac.new(key, struct.pack(">Q", block), hashlib.sha256).digest()
        yield from struct.unpack(">8I", digest)
        block += 1


def draws(key: bytes, size: int) -> list[int]:
    """Step 3's choices for a deck of ``size`` cards: ``j`` for ``i = size - 1 .. 1``."""
    stream = _stream(key)
    out: list[int] = []
    for i in range(size - 1, 0, -1):
        span = i + 1
        limit = 2**32 - 2**32 % span
        number = next(stream)
        while number >= limit:
            number = next(stream)
        out.append(number % span)
    return out


def derive_deck(rules: Rules, seed: bytes, values: Sequence[bytes]) -> tuple[Card, ...]:
    """The deck of the hand, top card first, from the server ``seed`` and every seat's
    contribution in seat order (``rules.players`` of them)."""
    if len(values) != rules.players:
        raise ValueError(f"{rules.players} contributions needed (one a seat), got {len(values)}")
    deck = list(rules.deck)
    chosen = draws(deal_key(seed, values), len(deck))
    for i, j in zip(range(len(deck) - 1, 0, -1), chosen, strict=True):
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


# ---------------------------------------------------------------------- checking a hand


def _faces(events: Sequence[Event]) -> list[tuple[str, int, Card]]:
    """Every card face in ``events``, in order, with what showed it and to which seat."""
    out: list[tuple[str, int, Card]] = []
    for event in events:
        match event:
            case Dealt(seat=seat, card=Card() as card):
                out.append(("dealt", seat, card))
            case Drew(seat=seat, card=Card() as card):
                out.append(("drew", seat, card))
            case BriscolaTurned(card=card):
                out.append(("briscola", -1, card))
            case Played(seat=seat, card=card):
                out.append(("played", seat, card))
            case Swapped(seat=seat, gave=gave, took=took):
                out.append(("swapped", seat, gave))
                out.append(("took", seat, took))
            case Called(seat=seat, card=card):
                out.append(("called", seat, card))
    return out


def check_seen(rules: Rules, deck: Sequence[Card], seat: int, seen: Sequence[Event]) -> str | None:
    """Whether the events ``seat`` was sent in a hand (``seen``, in order, from the deal)
    fit ``deck``: the hand dealt from ``deck`` and played with the moves ``seen`` shows must
    show ``seat`` every card ``seen`` shows, in the same places and order (dealt to it, the
    briscola, drawn, played, swapped). None when they fit, else what does not, in a line."""
    dealer = next((event.dealer for event in seen if isinstance(event, HandStarted)), None)
    if dealer is None:
        return "the start of the hand was not seen"
    try:
        state = GameState(rules, deck, dealer)
    except ValueError as exc:
        return str(exc)
    for number, event in enumerate(seen):
        action = action_of(event)
        if action is None:
            continue
        try:
            state.apply(action)
        except IllegalMoveError as exc:
            return f"move {number} ({action}) does not fit that deck: {exc}"
    wanted, got = _faces(state.events_for(seat)), _faces(seen)
    for place, (want, saw) in enumerate(zip(wanted, got, strict=False)):
        if want != saw:
            return f"card {place + 1} seen: {saw[0]} {saw[2].code}, the deck gives {want[2].code}"
    if len(wanted) != len(got):
        return f"{len(got)} cards seen, the deck shows {len(wanted)}"
    return None


def record_verdict(doc: Mapping[str, Any]) -> str | None:
    """What a hand's record says of its deal (``meta.fair``, written by the game that played
    it): None without a proof; ``checked`` only when the stored verdict says so and the
    record's own deck is the one the revealed seed and values give; else ``mismatch``, or
    ``unchecked`` when the game had nothing to check against."""
    meta = doc.get("meta")
    proof = meta.get("fair") if isinstance(meta, Mapping) else None
    if not isinstance(proof, Mapping):
        return None
    verdict = proof.get("verdict")
    if verdict not in ("checked", "mismatch", "unchecked"):
        return "mismatch"
    if verdict != "checked":
        return str(verdict)
    try:
        rules = Rules.from_dict(doc["rules"])
        seed = bytes.fromhex(proof["seed"])
        values = [bytes.fromhex(value) for value in proof["values"]]
        fits = commitment(seed) == proof["commit"] and [
            card.code for card in derive_deck(rules, seed, values)
        ] == list(doc["deck"])
    except (KeyError, TypeError, ValueError):
        fits = False
    return "checked" if fits else "mismatch"
