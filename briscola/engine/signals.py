"""Partner signals (*segni*): what partners may tell each other about their cards.

At a bar table partners tell each other about their trumps with agreed faces: lips pushed
forward for the Ace of trump, a twisted mouth for the Three, eyes to the sky for the King,
thumb rubbing the forefinger for a lower trump, narrowed eyes for no trump at all, puffed
cheeks for a *carico* (an Ace or Three of another suit); and, aloud, "take it" or "let it
go". The rule option :attr:`Rules.signals <briscola.engine.rules.Rules.signals>` allows them:
``off`` (the default), ``partner`` (only the signaller's partners see a signal) or ``open``
(everyone does, as when the table allows talking). In Briscola Chiamata signals start once
the partner is revealed; each side then signals among itself (a caller who called their own
card has nobody to signal to).

Rules of the engine (the only judge):

* a seat may signal on its own turn, or between tricks (no card on the table), in the play
  phase, when it has a partner who may see it; at most once per trick (a signal between
  tricks counts for the trick about to start);
* any signal of the set is accepted: traditional play allows a false signal (*segnata
  falsa*), so the engine never checks a claim against the hand. The computer players only
  ever signal the truth (:func:`truthful`), and read others' signals as evidence;
* a signal never changes the card play; it is an event (:class:`Signalled`) in the events and
  the :class:`~briscola.engine.view.PlayerView` of exactly the seats allowed to see it, and in
  the record (``signals``), so replays show it.

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(2))
>>> seat = state.current_player
>>> made = state.signal(seat, Signal("king"))
>>> [may_see(state, seat, other) for other in range(4)]
[False, True, False, True]
>>> signal_refusal(state, seat, Signal("ace"))
'seat 1 has signalled in this trick already'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from briscola.engine.actions import IllegalMoveError
from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.events import Signalled
from briscola.engine.rules import Rules

__all__ = [
    "CARD_SIGNALS",
    "DIRECTIONS",
    "SIGNAL_KINDS",
    "Signal",
    "Signalled",
    "legal_signals",
    "make_signal",
    "may_see",
    "signal_from_json",
    "signal_kinds",
    "signal_partners",
    "signal_refusal",
    "signals_from_json",
    "signals_to_json",
    "truthful",
    "view_partners",
    "view_signals",
    "visible_signals",
]

#: Every signal, in the order the signal bar shows them.
SIGNAL_KINDS: Final = ("ace", "three", "king", "trump", "none", "carico", "take", "leave")
#: Signals that claim one card of trump.
CARD_SIGNALS: Final[dict[str, Rank]] = {"ace": Rank.ACE, "three": Rank.THREE, "king": Rank.KING}
#: Signals about trumps (meaningless without a trump suit: Briscolone).
TRUMP_SIGNALS: Final = frozenset({"ace", "three", "king", "trump", "none"})
#: Requests to the partner, not claims about one's hand: "take it", "let it go".
DIRECTIONS: Final = frozenset({"take", "leave"})


class _Hand(Protocol):
    """What signals read of a hand, in a state or in a seat's view alike."""

    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def tricks(self) -> Sequence[object]: ...
    @property
    def caller(self) -> int | None: ...
    @property
    def partner(self) -> int | None: ...
    @property
    def partner_revealed(self) -> bool: ...


class GameState(_Hand, Protocol):
    """What signals read of a :class:`~briscola.engine.state.GameState` (and write: its
    ``signals`` and ``events``); a protocol, so that the state's module may import this one."""

    @property
    def trick(self) -> Sequence[Card]: ...

    signals: list[Signalled]
    events: list[Any]


class PlayerView(_Hand, Protocol):
    """What :func:`view_signals` reads of a :class:`~briscola.engine.view.PlayerView`."""

    @property
    def seat(self) -> int: ...
    @property
    def table(self) -> Sequence[object]: ...
    @property
    def signals(self) -> Sequence[Signalled]: ...


@dataclass(frozen=True, slots=True)
class Signal:
    """A partner signal of one of :data:`SIGNAL_KINDS` (``str``: ``"signal ace"``; JSON:
    ``{"signal": "ace"}``). Made with :meth:`GameState.signal`, not :meth:`GameState.apply`:
    it may come from a seat that is not to play (between tricks)."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in SIGNAL_KINDS:
            raise ValueError(
                f"unknown signal {self.kind!r}: expected one of {', '.join(SIGNAL_KINDS)}"
            )

    def __str__(self) -> str:
        return f"signal {self.kind}"

    def to_json(self) -> dict[str, Any]:
        return {"signal": self.kind}


def signal_from_json(data: Any) -> Signal:
    """``{"signal": "ace"}`` as a :class:`Signal`; ``ValueError`` naming what is wrong."""
    if not isinstance(data, Mapping) or set(data) != {"signal"}:
        raise ValueError('a signal must be a JSON object such as {"signal": "ace"}')
    kind = data["signal"]
    if not isinstance(kind, str):
        raise ValueError(f"a signal's kind must be a string, got {type(kind).__name__}")
    return Signal(kind)


def signal_kinds(rules: Rules) -> tuple[str, ...]:
    """The signals these rules offer (none when off; no trump signals without a trump)."""
    if rules.signals == "off":
        return ()
    return tuple(kind for kind in SIGNAL_KINDS if rules.trump or kind not in TRUMP_SIGNALS)


def _partners(
    rules: Rules, seat: int, caller: int | None, partner: int | None, revealed: bool
) -> tuple[int, ...]:
    if rules.teams:
        return rules.partners(seat)
    if not rules.chiamata or not revealed or caller is None or partner is None:
        return ()
    calling = {caller, partner}
    side = calling if seat in calling else set(range(rules.players)) - calling
    return tuple(sorted(side - {seat}))


def signal_partners(state: GameState, seat: int) -> tuple[int, ...]:
    """The seats ``seat`` may signal to now: the team, or in Chiamata the known side."""
    return _partners(state.rules, seat, state.caller, state.partner, state.partner_revealed)


def may_see(state: GameState, signaller: int, viewer: int) -> bool:
    """``viewer`` sees the signals of ``signaller`` (a negative viewer, a spectator between
    hot-seat turns, sees open signals only)."""
    if state.rules.signals == "open":
        return True
    return viewer >= 0 and (viewer == signaller or viewer in signal_partners(state, signaller))


def visible_signals(state: GameState, viewer: int) -> tuple[Signalled, ...]:
    """The hand's signals that ``viewer`` may see, in order."""
    return tuple(made for made in state.signals if may_see(state, made.seat, viewer))


def _refusal(
    rules: Rules,
    seat: int,
    kind: str,
    *,
    phase: str,
    current: int | None,
    on_table: int,
    trick: int,
    partners: Sequence[int],
    made: Iterable[Signalled],
) -> str | None:
    if rules.signals == "off":
        return "signals are not allowed by these rules"
    if kind not in signal_kinds(rules):
        return f"no {kind!r} signal without a trump suit"
    if phase != "play":
        return f"no signals now (phase: {phase})"
    if not partners:
        return f"seat {seat} has no partner to signal to (yet)"
    if seat != current and on_table:
        return f"seat {seat} may signal only on its turn or between tricks"
    if any(m.seat == seat and m.trick == trick for m in made):
        return f"seat {seat} has signalled in this trick already"
    return None


def signal_refusal(state: GameState, seat: int, signal: Signal) -> str | None:
    """Why ``seat`` may not make ``signal`` now, or None when it may."""
    if not 0 <= seat < state.rules.players:
        return f"no seat {seat} in a {state.rules.players}-player game"
    return _refusal(
        state.rules,
        seat,
        signal.kind,
        phase=state.phase,
        current=state.current_player,
        on_table=len(state.trick),
        trick=len(state.tricks),
        partners=signal_partners(state, seat),
        made=state.signals,
    )


def legal_signals(state: GameState, seat: int) -> list[Signal]:
    """The signals ``seat`` may make now (empty when it may not signal)."""
    return [
        Signal(kind)
        for kind in signal_kinds(state.rules)
        if signal_refusal(state, seat, Signal(kind)) is None
    ]


def view_partners(seen: PlayerView) -> tuple[int, ...]:
    """The seats the view's seat signals to now (its team, or in Chiamata its known side)."""
    return _partners(seen.rules, seen.seat, seen.caller, seen.partner, seen.partner_revealed)


def view_signals(seen: PlayerView) -> list[Signal]:
    """The signals the view's seat may make now, from what the view shows (the engine's
    :func:`legal_signals` gives the same list)."""
    rules = seen.rules
    partners = view_partners(seen)
    return [
        Signal(kind)
        for kind in signal_kinds(rules)
        if _refusal(
            rules,
            seen.seat,
            kind,
            phase=seen.phase,
            current=seen.current_player,
            on_table=len(seen.table),
            trick=len(seen.tricks),
            partners=partners,
            made=seen.signals,
        )
        is None
    ]


def make_signal(state: GameState, seat: int, signal: Signal) -> Signalled:
    """Record ``signal`` by ``seat`` (its event and its place in the hand); raise
    :class:`IllegalMoveError` (the state unchanged) when it may not be made now."""
    if not isinstance(signal, Signal):
        raise IllegalMoveError(f"not a signal: {signal!r}")
    problem = signal_refusal(state, seat, signal)
    if problem is not None:
        raise IllegalMoveError(problem)
    made = Signalled(seat, signal.kind, len(state.tricks), len(state.trick))
    state.signals.append(made)
    state.events.append(made)
    return made


def truthful(kind: str, hand: Iterable[Card], trump: Suit | None) -> bool:
    """A claim about ``hand`` is true (directions, "take it" and "let it go", always are).

    >>> from .cards import cards_from_codes
    >>> hand = cards_from_codes("AD 3S 5D")
    >>> [truthful(k, hand, Suit.COINS) for k in ("ace", "three", "trump", "none", "carico")]
    [True, False, True, False, True]
    """
    cards = list(hand)
    trumps = [card for card in cards if card.suit is trump]
    if kind in CARD_SIGNALS:
        return Card(CARD_SIGNALS[kind], trump) in trumps if trump is not None else False
    if kind == "trump":
        return any(card.rank not in CARD_SIGNALS.values() for card in trumps)
    if kind == "none":
        return trump is not None and not trumps
    if kind == "carico":
        return any(card.rank in (Rank.ACE, Rank.THREE) and card.suit is not trump for card in cards)
    return kind in DIRECTIONS


def signals_to_json(signals: Sequence[Signalled]) -> dict[str, Any]:
    """``{"signals": [...]}`` for a record or a view, or ``{}`` when there are none (so
    records and views of games without signals read as before)."""
    if not signals:
        return {}
    return {
        "signals": [{"seat": s.seat, "kind": s.kind, "trick": s.trick, "at": s.at} for s in signals]
    }


def signals_from_json(
    data: Mapping[str, Any], rules: Rules, error: type[ValueError] = ValueError
) -> tuple[Signalled, ...]:
    """The ``signals`` of a record or view (absent: none), checked field by field; raises
    ``error`` naming the entry. Whether each could be made is for replay to judge."""
    entries = data.get("signals")
    if entries is None:
        return ()
    if not isinstance(entries, list):
        raise error("signals must be a list")
    if entries and rules.signals == "off":
        raise error("signals: these rules allow no signals")
    out: list[Signalled] = []
    n = rules.players
    for i, entry in enumerate(entries):
        where = f"signal {i + 1}"
        if not isinstance(entry, Mapping):
            raise error(f"{where}: must be an object")
        kind = entry.get("kind")
        if kind not in signal_kinds(rules):
            raise error(f"{where}: unknown signal {str(kind)[:20]!r}")
        numbers: list[int] = []
        for key in ("seat", "trick", "at"):
            value = entry.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise error(f"{where}: seat, trick and at must be non-negative whole numbers")
            numbers.append(value)
        seat, trick, at = numbers
        if seat >= n or trick >= 40 or at >= n:
            raise error(f"{where}: no seat {seat}, trick {trick} or place {at} in this game")
        out.append(Signalled(seat, kind, trick, at))
    return tuple(out)
