"""A recorded hand as the table reads it: :class:`RecordSession` is a
:class:`~briscola.game.session.SessionView` of one moment of a hand's record (before a trick,
or after the last) that never moves: nothing to play, it is only read, every hand open. The
replay scene steps it through the tricks (:meth:`RecordSession.go_to`) and draws it with the
table's painter; the scene never holds a :class:`~briscola.engine.GameState`.

>>> import random
>>> from briscola.engine import GameState, Rules, to_record
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> hand = RecordSession(to_record(state), ["Anna", "Bruno"])
>>> len(hand.tricks), [len(cards) for cards in hand.hands], hand.points
(20, [3, 3], (0, 0))
>>> hand.go_to(20)
>>> [len(cards) for cards in hand.hands], sum(hand.points), hand.finished
([0, 0], 120, True)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from briscola.engine import (
    Action,
    Card,
    Event,
    GameState,
    PlayerView,
    Rules,
    Signalled,
    Trick,
    replay,
    view,
)
from briscola.game.session import NO_NEWS, Message, SeatInfo, SessionView, TableNews


def record_players(doc: Any) -> int:
    """The number of seats of the hand ``doc`` records; raises
    :class:`~briscola.engine.ReplayError` (a ``ValueError``) when it cannot be replayed."""
    return replay(doc).rules.players


def guessed_cards(doc: Mapping[str, Any]) -> frozenset[Card]:
    """The cards of ``doc``'s deck at the places its ``meta.guessed`` names (none when it
    names none, or in a shape this game does not know).

    >>> guessed_cards({"deck": ["AD", "3C", "KS"], "meta": {"guessed": [1, 7, "x"]}})
    frozenset({Card.from_code('3C')})
    """
    meta, deck = doc.get("meta"), doc.get("deck")
    guessed = meta.get("guessed") if isinstance(meta, Mapping) else None
    if not isinstance(guessed, list) or not isinstance(deck, list):
        return frozenset()
    cards = set()
    for place in guessed:
        if isinstance(place, int) and not isinstance(place, bool) and 0 <= place < len(deck):
            try:
                cards.add(Card.from_code(deck[place]))
            except (TypeError, ValueError):
                continue
    return frozenset(cards)


class RecordSession:
    """The hand recorded in ``doc`` as the seat at the bottom (``seat``) knew it, one moment
    at a time: before trick :attr:`index` (that trick on the table), or at the end. Raises
    :class:`~briscola.engine.ReplayError` for a record that cannot be replayed."""

    def __init__(self, doc: Mapping[str, Any], names: Sequence[str], seat: int = 0) -> None:
        self._final = replay(doc)
        #: Every trick of the hand, in order.
        self.tricks: tuple[Trick, ...] = tuple(self._final.tricks)
        self._moments = [_state_after(doc, count) for count in range(len(self.tricks) + 1)]
        self.index = 0
        self._seats = [SeatInfo(name, "bot") for name in names]
        self._seat = seat
        #: The cards the game that wrote the record never saw (a guest's record of a hand cut
        #: short names their places in ``meta.guessed``): placed where every move stays
        #: legal, they are not what the other players held, and are shown face down.
        self.unseen = guessed_cards(doc)

    def go_to(self, index: int) -> None:
        """Show the hand before trick ``index`` (``len(tricks)``: the end)."""
        self.index = max(0, min(len(self.tricks), index))

    @property
    def _state(self) -> GameState:
        return self._moments[self.index]

    def name_seats(self, names: Sequence[str]) -> None:
        """Show ``names`` on the seats' plates."""
        self._seats = [SeatInfo(name, "bot") for name in names]

    # ------------------------------------------------------------------ the moment shown

    @property
    def trick(self) -> Trick | None:
        """The trick played next from this moment (None at the end)."""
        return self.tricks[self.index] if self.index < len(self.tricks) else None

    @property
    def hands(self) -> list[tuple[Card, ...]]:
        """Every seat's hand now (a record shows them all)."""
        return [tuple(hand) for hand in self._state.hands]

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's card points so far."""
        return tuple(self._state.points)

    @property
    def signals(self) -> tuple[Signalled, ...]:
        """The hand's partner signals so far."""
        return tuple(self._state.signals)

    @property
    def all_signals(self) -> tuple[Signalled, ...]:
        """Every partner signal of the hand."""
        return tuple(self._final.signals)

    @property
    def finished(self) -> bool:
        """The record plays the hand to its end (a hand stopped early, a forfeit in the
        arena, does not)."""
        return self._final.is_terminal()

    @property
    def final_points(self) -> tuple[int, ...]:
        """The points at the end of the record: per side for a finished hand, else per
        seat."""
        if self.finished:
            return tuple(self._final.outcome().side_points)
        return tuple(self._final.points)

    # ------------------------------------------------------------------ SessionView

    @property
    def rules(self) -> Rules:
        return self._final.rules

    @property
    def seats(self) -> Sequence[SeatInfo]:
        return self._seats

    @property
    def demo(self) -> bool:
        return True

    @property
    def shown_seat(self) -> int | None:
        return self._seat

    @property
    def waiting_for(self) -> int | None:
        return None

    @property
    def to_play(self) -> int | None:
        return None

    @property
    def hand_over(self) -> bool:
        return True

    @property
    def hand_number(self) -> int:
        return 1

    @property
    def standing(self) -> Sequence[int]:
        return ()

    @property
    def dealer(self) -> int:
        return self._final.dealer

    @property
    def can_undo(self) -> bool:
        return False

    def view(self) -> PlayerView:
        return view(self._state, self._seat)

    def new_events(self) -> list[Event]:
        return []

    def plays_here(self, seat: int) -> bool:
        return False

    def legal_actions(self) -> list[Action]:
        return []

    def thinking(self) -> tuple[int, float] | None:
        return None

    def news(self) -> TableNews:
        return NO_NEWS

    def take_messages(self) -> list[Message]:
        return []

    def wake_in(self) -> float | None:
        return None


if TYPE_CHECKING:
    # mypy --strict checks here that a RecordSession is everything the table reads.
    _CONFORMS: type[SessionView] = RecordSession


def _state_after(doc: Mapping[str, Any], count: int) -> GameState:
    """The hand of ``doc`` after its first ``count`` tricks."""
    part = copy.deepcopy(dict(doc))
    tricks = part["tricks"]
    part["tricks"] = tricks[:count]
    part["swaps"] = [s for s in part.get("swaps") or [] if s["trick"] < count]
    part["signals"] = [s for s in part.get("signals") or [] if s["trick"] < count]
    part.pop("table", None)
    part["result"] = None if count < len(tricks) else part.get("result")
    return replay(part)
