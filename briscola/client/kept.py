"""The hand a player keeps when an online table ends under it: the host's game never came
back (``host_gone``), the table was closed mid-hand, or the player gave up waiting for it.

A game sees only its own seat's side of a hand, never the whole deck, so its record
(``briscola-record/1``, kept among the recent hands like every finished one) is built from
what this seat saw: every card played, its own cards, the turned briscola, the cards drawn
face up. The cards it never saw (the others' hands, the stock not drawn) are put where
every recorded move stays legal (a seat that did not follow suit held none of it, a card
played was in that hand since it was dealt or drawn) and named in ``meta.guessed`` (their
places in ``deck``), with ``meta.seen_by`` (this seat) and ``meta.unfinished`` (why it
stopped). The statistics count no such hand, as they count no abandoned local one.

>>> import random
>>> from briscola.engine import GameState, Rules
>>> state = GameState.new(Rules.preset("classic2"), random.Random(4))
>>> for _ in range(7):
...     state.apply(state.legal_actions()[0])
>>> doc = seen_record(state.rules, 1, state.events_for(1), {"unfinished": "host_gone"})
>>> doc is not None and len(doc["tricks"]), len(doc["table"]["cards"])
(3, 1)
>>> doc["meta"]["seen_by"], len(doc["meta"]["guessed"]) > 0
(1, True)
"""

from __future__ import annotations

import time as clock
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola.client.sentences import code_text
from briscola.engine import (
    PASS,
    Action,
    Auction,
    BriscolaTurned,
    Call,
    Called,
    Card,
    Dealt,
    Drew,
    Event,
    GameState,
    HandStarted,
    IllegalMoveError,
    Play,
    Played,
    Rules,
    Signal,
    Signalled,
    Suit,
    Swap,
    Swapped,
    TrickWon,
    to_record,
)
from briscola.game.session import TableNews
from briscola.protocol import messages as msg
from briscola.protocol.wire import event_from_json
from briscola.storage.recent import keep_recent
from briscola.text.i18n import _

__all__ = ["ended_text", "keep_hand", "seen_record"]


@dataclass(frozen=True, slots=True)
class _Slot:
    """A place in the deck whose card this seat never saw: dealt or drawn (at event
    ``time``) face down to ``seat``, or left in the stock (seat -1)."""

    position: int
    seat: int
    time: int


@dataclass(frozen=True, slots=True)
class _Item:
    """A card to place: one ``seat`` played or gave at ``time`` without this seat having seen
    where it came from (seat -1: a card no one showed)."""

    card: Card
    seat: int = -1
    time: int = 0


class _Seen:
    """What the events of one hand tell this seat about the deck."""

    def __init__(self, rules: Rules, events: Sequence[Event]) -> None:
        self.rules = rules
        self.known: dict[int, Card] = {}
        self.slots: list[_Slot] = []
        self.needs: list[_Item] = []
        #: (seat, suit, time): the seat held no card of that suit then (it did not follow).
        self.voids: list[tuple[int, Suit, int]] = []
        self.actions: list[tuple[int, Action | Signal]] = []
        self.dealer = -1
        self._read(events)

    def _read(self, events: Sequence[Event]) -> None:
        rules = self.rules
        dealt = rules.hand_size * rules.players
        under = dealt if rules.turned_briscola else -1  # the turned briscola's place
        places = iter([p for p in range(rules.deck_size) if p != under])
        stock = rules.deck_size - dealt - (under >= 0)  # cards drawn before the briscola
        in_hand: list[list[Card]] = [[] for _ in range(rules.players)]
        draws = 0
        trick: list[Card] = []
        for time, event in enumerate(events):
            if isinstance(event, HandStarted):
                self.dealer = event.dealer
            elif isinstance(event, Dealt | Drew):
                if isinstance(event, Drew):
                    draws += 1
                    if draws > stock and event.card is not None:
                        # the face-up briscola (or the card swapped for it): seen already
                        in_hand[event.seat].append(event.card)
                        continue
                position = next(places)
                if event.card is None:
                    self.slots.append(_Slot(position, event.seat, time))
                else:
                    self.known[position] = event.card
                    in_hand[event.seat].append(event.card)
            elif isinstance(event, BriscolaTurned):
                self.known[dealt] = event.card
            elif isinstance(event, Played | Swapped):
                seat, card = event.seat, event.card if isinstance(event, Played) else event.gave
                led = trick[0].suit if trick and rules.follow_suit else None
                if isinstance(event, Played) and led is not None and card.suit is not led:
                    self.voids.append((seat, led, time))  # it held none of the suit led
                if card in in_hand[seat]:
                    in_hand[seat].remove(card)
                else:
                    self.needs.append(_Item(card, seat, time))
                if isinstance(event, Swapped):
                    in_hand[seat].append(event.took)
                    self.actions.append((seat, Swap(event.gave)))
                else:
                    trick.append(card)
                    self.actions.append((seat, Play(card)))
            elif isinstance(event, TrickWon):
                trick = []
            elif isinstance(event, Auction):
                self.actions.append((event.seat, PASS if event.bid is None else event.bid))
            elif isinstance(event, Called):
                self.actions.append((event.seat, Call(event.card)))
            elif isinstance(event, Signalled):
                self.actions.append((event.seat, Signal(event.kind)))
        self.slots += [_Slot(p, -1, len(events)) for p in places]

    def fits(self, item: _Item, slot: _Slot) -> bool:
        """``item``'s card may lie in ``slot``: dealt to the seat that played it before it
        did, and never in a hand while that hand showed it held none of its suit."""
        if slot.seat == -1:
            return item.seat == -1
        if item.seat not in (-1, slot.seat) or (item.seat != -1 and slot.time >= item.time):
            return False
        until = item.time if item.seat != -1 else 1 << 30
        suit = item.card.suit
        return not any(
            seat == slot.seat and void is suit and slot.time < time < until
            for seat, void, time in self.voids
        )

    def deck(self) -> tuple[list[Card], list[int]] | None:
        """A whole deck that agrees with everything seen, and the places guessed (None when
        the events do not fit these rules)."""
        shown = {*self.known.values(), *(item.card for item in self.needs)}
        items = self.needs + [_Item(card) for card in self.rules.deck if card not in shown]
        if len(items) != len(self.slots):
            return None
        placed = _match(items, self.slots, self.fits)
        if placed is None:
            return None
        cards = dict(self.known)
        for item_index, slot_index in enumerate(placed):
            cards[self.slots[slot_index].position] = items[item_index].card
        if sorted(cards) != list(range(self.rules.deck_size)):
            return None
        return [cards[p] for p in range(self.rules.deck_size)], sorted(
            slot.position for slot in self.slots
        )


def _match(
    items: Sequence[_Item], slots: Sequence[_Slot], fits: Callable[[_Item, _Slot], bool]
) -> list[int] | None:
    """For each item a slot of its own that it fits (augmenting paths), or None."""
    owner: dict[int, int] = {}

    def place(item: int, tried: set[int]) -> bool:
        for slot in range(len(slots)):
            if slot in tried or not fits(items[item], slots[slot]):
                continue
            tried.add(slot)
            if slot not in owner or place(owner[slot], tried):
                owner[slot] = item
                return True
        return False

    for item in range(len(items)):
        if not place(item, set()):
            return None
    out = [0] * len(items)
    for slot, item in owner.items():
        out[item] = slot
    return out


def seen_record(
    rules: Rules, seat: int, events: Sequence[Event], meta: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The record of the hand that ``seat`` saw as ``events`` (from the hand's start), with
    ``meta`` and ``seen_by``/``guessed`` added; None when nothing was played yet or the
    events do not make a hand of these ``rules``."""
    seen = _Seen(rules, events)
    if seen.dealer < 0 or not seen.actions:
        return None
    made = seen.deck()
    if made is None:
        return None
    deck, guessed = made
    try:
        state = GameState(rules, deck, seen.dealer)
        for who, action in seen.actions:
            if isinstance(action, Signal):
                state.signal(who, action)
            elif who != state.current_player:
                return None
            else:
                state.apply(action)
    except (IllegalMoveError, ValueError):
        return None
    return to_record(state, {**meta, "seen_by": seat, "guessed": guessed})


def keep_hand(
    rules: Rules,
    seat: int,
    seen: Sequence[Event],
    table: msg.TableInfo | None,
    hand: tuple[int, int],
    reason: str,
    later: Iterable[msg.Update] = (),
    folder: Path | None = None,
) -> Path | None:
    """Keep among the recent hands (``folder``: :func:`~briscola.storage.recent.keep_recent`'s
    own by default) the hand under way that ``seat`` saw as ``seen``, with the updates of the
    same deal that arrived after (``later``); ``hand``: the deal's number and the hand's in
    the match; stopped for ``reason``. The path written, or None (nothing was played yet, or
    it could not be written: the game goes on)."""
    events = list(seen)
    for update in later:
        if update["deal"] == hand[0]:
            more = [event_from_json(data) for data in update["events"]]
            events = more if update["reset"] else [*events, *more]
    entries = sorted(table["seats"] if table is not None else [], key=lambda e: e["seat"])
    meta = {
        "players": [{"name": e["name"], "kind": _kind(e)} for e in entries],
        "hand_number": hand[1],
        "match": str(rules.match),
        "date": clock.strftime("%Y-%m-%dT%H:%M:%S"),
        "unfinished": reason,
    }
    doc = seen_record(rules, seat, events, meta)
    return None if doc is None else keep_recent(doc, folder)


def _kind(entry: msg.SeatEntry) -> str:
    """A seat's kind as records write it: ``human``, or ``bot:LEVEL``."""
    return f"bot:{entry.get('level') or 'medium'}" if entry["kind"] == "bot" else "human"


def ended_text(news: TableNews, kept: Path | None) -> str:
    """The table's end for the player (``news.ended``), and where the hand under way went
    when it was ``kept``."""
    ended = code_text(news.ended or "", news.ended_message)
    if kept is None:
        return ended
    return _("{ended} The hand so far is kept among your recent hands (Replay a game).").format(
        ended=ended
    )
