"""Computer players and partner signals (*segni*, :mod:`briscola.engine.signals`).

A computer partner signals only the truth, by the convention (:func:`choose_signal`): the
Ace, Three and King of trump once each while it holds them (a card pins most), "no trump"
again after each draw that left it without, "a carico" and "a lower trump" when there is
nothing better to tell, again once the card it told of has been played and it holds
another; at most one signal a trick, on its own turn (``between=True``: also before a lead
by another seat; :func:`signals_between` asks the seats at the start of a trick).
It never sends directions ("take it", "let it go"): those are for people, and it follows
a partner's (:func:`partner_direction`, the rule in :func:`briscola.ai.medium.direction_value`):
after "let it go" in this trick it does not spend a trump to take a cheap trick (under 10
points on the table: the partner means to take it); after "take it" it prefers a card that
takes the trick from the opponents (the partner means to load points on it). ``hard``
follows the same request: when its search would go against it, it plays medium's choice.

It reads the signals it may see (its partners', and everyone's when signals are open) as
evidence about hidden cards, every signal of the hand that is still true, not only the
last: a claimed Ace, Three or King of trump that is still unseen is placed in the
signaller's hand, and "no trump" makes the signaller void in trump until it draws again
(:func:`with_signal_evidence`); "a lower trump" and "a carico" say the hand holds at least
one such card until the signaller plays one, and "no trump" after draws that it holds at
most one trump per draw since (:func:`signal_claims`). The search deals only samples that
meet them (:mod:`briscola.ai.search.sampling`); medium's card counting conditions its odds
on them (:class:`briscola.ai.knowledge.Knowledge`). Evidence that cannot be true (the card
was seen elsewhere, no room left in the hand) is ignored, so a person's false signal
misleads but never breaks the search.

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(4))
>>> seat = state.current_player
>>> signal = choose_signal(view(state, seat))
>>> signal is None or truthful(signal.kind, state.hands[seat], state.trump)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from briscola.engine import (
    Card,
    GameState,
    PlayerView,
    Rank,
    Rules,
    Signal,
    Signalled,
    Suit,
    determinize,
    view,
    view_signals,
)
from briscola.engine.signals import CARD_SIGNALS, DIRECTIONS, truthful, view_partners

__all__ = [
    "Claim",
    "choose_signal",
    "determinize_with_evidence",
    "drew_since",
    "partner_direction",
    "signal_claims",
    "signals_between",
    "with_signal_evidence",
]

#: Claims made once a hand (a card of trump stays true until it is played).
_ONCE: Final = ("ace", "three", "king")
#: "No trump" is made again after each draw that left the seat without trump.
_PER_DRAW: Final = ("none",)
#: Weaker claims, once a hand, when there is nothing better to tell.
_LATER: Final = ("carico", "trump")
#: The ranks of a carico.
_CARICO: Final = (Rank.ACE, Rank.THREE)
_DECK: Final = tuple(Card.from_index(i) for i in range(40))


def drew_since(rules: Rules, trick: int, now: int) -> bool:
    """Every seat drew a card between trick ``trick`` and trick ``now`` (0-based): a draw
    follows each trick while the stock lasts.

    >>> from briscola.engine import Rules
    >>> rules = Rules.preset("teams4")
    >>> drew_since(rules, 2, 2), drew_since(rules, 2, 3), drew_since(rules, 7, 9)
    (False, True, False)
    """
    return trick < now and rules.stock_size - rules.players * trick > 0


def choose_signal(seen: PlayerView, between: bool = False) -> Signal | None:
    """The signal this computer seat makes now (always true of its hand), or None: on its
    turn, or with ``between`` also before the trick's lead when another seat leads."""
    if seen.current_player != seen.seat and not (between and not seen.table):
        return None
    allowed = {signal.kind for signal in view_signals(seen)}
    if not allowed:
        return None
    mine = [made for made in seen.signals if made.seat == seen.seat]
    now = len(seen.tricks)
    for kind in _ONCE:
        before = any(m.kind == kind for m in mine)
        if kind in allowed and not before and truthful(kind, seen.hand, seen.trump):
            return Signal(kind)
    fresh = {m.kind for m in mine if not drew_since(seen.rules, m.trick, now)}
    # "A carico" and "a smaller trump" again once the card they told of has been played.
    said = {m.kind for m in mine if not _spent(seen, m)}
    for kind in (*_PER_DRAW, *_LATER):
        if kind not in allowed or kind in (fresh if kind in _PER_DRAW else said):
            continue
        if truthful(kind, seen.hand, seen.trump):
            return Signal(kind)
    return None


def signals_between(state: GameState, asks: Callable[[int], bool]) -> list[Signalled]:
    """Between tricks, before the lead: each seat that ``asks`` names (a computer that
    signals), in seat order, makes its :func:`choose_signal` ``between=True`` on ``state``,
    seeing the signals made before it; what they made, in order. Nothing while a trick is
    on the table, with signals off, or once the game is over; never the seat to lead (it
    signals on its turn).

    >>> import random
    >>> from briscola.engine import GameState, Rules
    >>> state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(3))
    >>> made = signals_between(state, lambda seat: True)
    >>> made == state.signals and state.current_player not in {m.seat for m in made}
    True
    """
    if state.rules.signals == "off" or state.trick or state.is_terminal():
        return []
    made: list[Signalled] = []
    for seat in range(state.rules.players):
        if seat == state.current_player or not asks(seat):
            continue
        chosen = choose_signal(view(state, seat), between=True)
        if chosen is not None:
            made.append(state.signal(seat, chosen))
    return made


def partner_direction(seen: PlayerView) -> str | None:
    """The latest "take" or "let it go" a partner of the view's seat asked for in the trick
    being played (or between the last trick and this one), or None."""
    if not seen.signals or seen.phase != "play":
        return None
    partners = view_partners(seen)
    now = len(seen.tricks)
    for made in reversed(seen.signals):
        if made.trick != now:
            break
        if made.kind in DIRECTIONS and made.seat in partners:
            return made.kind
    return None


def _claimed_card(made: Signalled, trump: Suit) -> Card | None:
    rank = CARD_SIGNALS.get(made.kind)
    return None if rank is None else Card(rank, trump)


def with_signal_evidence(seen: PlayerView) -> PlayerView:
    """``seen`` with what the other seats' signals tell taken as known: claimed trumps in
    their hands (``known``), "no trump" as a void in trump (``voids``). The same view when
    there is nothing to add."""
    trump = seen.trump
    if trump is None or not seen.signals:
        return seen
    known = [set(cards) for cards in seen.known]
    voids = [set(suits) for suits in seen.voids]
    unseen = set(seen.unseen_cards())
    now = len(seen.tricks)
    changed = False
    for made in seen.signals:
        seat = made.seat
        if seat == seen.seat:
            continue
        card = _claimed_card(made, trump)
        if card is not None:
            if card in unseen and len(known[seat]) < seen.hand_sizes[seat]:
                known[seat].add(card)
                unseen.discard(card)
                changed = True
        elif made.kind == "none" and not drew_since(seen.rules, made.trick, now):
            if trump in voids[seat] or any(c.suit is trump for c in known[seat]):
                continue
            needs = seen.hand_sizes[seat] - len(known[seat])
            room = sum(1 for c in unseen if c.suit is not trump and c.suit not in voids[seat])
            if room >= needs:
                voids[seat].add(trump)
                changed = True
    if not changed:
        return seen
    return dataclasses.replace(
        seen,
        known=tuple(frozenset(cards) for cards in known),
        voids=tuple(frozenset(suits) for suits in voids),
    )


@dataclass(frozen=True, slots=True)
class Claim:
    """What a signal still tells about a hand beyond a known card or a void: ``seat`` holds
    at least ``least`` and at most ``most`` of ``cards`` (the cards still unseen or known in
    that hand that the claim is about)."""

    seat: int
    cards: frozenset[Card]
    least: int
    most: int


def _claim_cards(kind: str, trump: Suit) -> frozenset[Card] | None:
    if kind == "trump":
        return frozenset(
            c for c in _DECK if c.suit is trump and c.rank not in CARD_SIGNALS.values()
        )
    if kind == "carico":
        return frozenset(c for c in _DECK if c.suit is not trump and c.rank in _CARICO)
    if kind == "none":
        return frozenset(c for c in _DECK if c.suit is trump)
    return None


def _played_since(seen: PlayerView, seat: int, trick: int) -> list[Card]:
    """The cards ``seat`` played in trick ``trick`` and after (the table included)."""
    out = [
        card
        for number, done in enumerate(seen.tricks)
        if number >= trick
        for who, card in zip(done.seats, done.cards, strict=True)
        if who == seat
    ]
    out.extend(card for who, card in seen.table if who == seat)
    return out


def _spent(seen: PlayerView, made: Signalled) -> bool:
    """A claim of "at least one such card" that its signaller may have played since."""
    trump = seen.trump
    cards = _claim_cards(made.kind, trump) if trump is not None else None
    if cards is None or made.kind == "none":
        return False
    return any(card in cards for card in _played_since(seen, made.seat, made.trick))


def _draws_between(rules: Rules, trick: int, now: int) -> int:
    """How many cards each seat drew after tricks ``trick`` .. ``now - 1``."""
    return sum(1 for t in range(trick, now) if rules.stock_size - rules.players * t > 0)


def signal_claims(seen: PlayerView) -> tuple[Claim, ...]:
    """The signals the view's seat sees from other seats, as counts of cards their hands
    still hold: "a smaller trump" and "a carico" (at least one such card, until the
    signaller plays one), "no trump" after draws (at most one trump per draw since, less
    the trumps played since). A claim the view already settles (a known card, a void) or
    that cannot be true any more (no such card unseen) tells nothing and is left out."""
    trump = seen.trump
    if trump is None or not seen.signals:
        return ()
    now = len(seen.tricks)
    unseen = set(seen.unseen_cards())
    out: list[Claim] = []
    for made in seen.signals:
        seat = made.seat
        cards = _claim_cards(made.kind, trump) if seat != seen.seat else None
        if cards is None:
            continue
        since = sum(1 for card in _played_since(seen, seat, made.trick) if card in cards)
        possible = frozenset(c for c in cards if c in unseen or c in seen.known[seat])
        if made.kind == "none":
            draws = _draws_between(seen.rules, made.trick, now)
            most = draws - since
            if draws == 0 or most >= seen.hand_sizes[seat] or not possible:
                continue  # a void (with_signal_evidence) or no limit
            out.append(Claim(seat, possible, 0, max(0, most)))
        elif since == 0 and possible and not possible & seen.known[seat]:
            out.append(Claim(seat, possible, 1, seen.hand_sizes[seat]))
    return tuple(out)


def determinize_with_evidence(seen: PlayerView, rng: random.Random) -> GameState:
    """:func:`~briscola.engine.determinize` around the signals' evidence; when that
    evidence and the view's voids leave no deal (a false signal), around the view alone."""
    evidence = with_signal_evidence(seen)
    if evidence is not seen:
        try:
            return determinize(evidence, rng)
        except ValueError:
            pass
    return determinize(seen, rng)
