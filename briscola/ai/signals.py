"""Computer players and partner signals (*segni*, :mod:`briscola.engine.signals`).

A computer partner signals only the truth, by the convention (:func:`choose_signal`): the
Ace, Three and King of trump once each while it holds them, "no trump" again after each
draw that left it without, "a carico" and "a lower trump" once a hand when there is nothing
better to tell; at most one signal a trick, and only on its own turn.
It never sends directions ("take it", "let it go"): those are for people, and it follows
a partner's (:func:`partner_direction`, the rule in :func:`briscola.ai.medium.direction_value`):
after "let it go" in this trick it does not spend a trump to take a cheap trick (under 10
points on the table: the partner means to take it); after "take it" it prefers a card that
takes the trick from the opponents (the partner means to load points on it). ``hard``
follows the same request: when its search would go against it, it plays medium's choice.

It reads the signals it may see (its partners', and everyone's when signals are open) as
evidence about hidden cards (:func:`with_signal_evidence`): a claimed Ace, Three or King of
trump that is still unseen is placed in the signaller's hand, and "no trump" makes the
signaller void in trump until it draws again. The search deals its samples around that
evidence (:mod:`briscola.ai.search.sampling`). Evidence that cannot be true (the card was
seen elsewhere, no room left in the hand) is ignored, so a person's false signal misleads
but never breaks the search.

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
from typing import Final

from briscola.engine import (
    Card,
    GameState,
    PlayerView,
    Rules,
    Signal,
    Signalled,
    Suit,
    determinize,
    view_signals,
)
from briscola.engine.signals import CARD_SIGNALS, DIRECTIONS, truthful, view_partners

__all__ = [
    "choose_signal",
    "determinize_with_evidence",
    "drew_since",
    "partner_direction",
    "with_signal_evidence",
]

#: Claims made once a hand (a card of trump stays true until it is played).
_ONCE: Final = ("ace", "three", "king")
#: "No trump" is made again after each draw that left the seat without trump.
_PER_DRAW: Final = ("none",)
#: Weaker claims, once a hand, when there is nothing better to tell.
_LATER: Final = ("carico", "trump")


def drew_since(rules: Rules, trick: int, now: int) -> bool:
    """Every seat drew a card between trick ``trick`` and trick ``now`` (0-based): a draw
    follows each trick while the stock lasts.

    >>> from briscola.engine import Rules
    >>> rules = Rules.preset("teams4")
    >>> drew_since(rules, 2, 2), drew_since(rules, 2, 3), drew_since(rules, 7, 9)
    (False, True, False)
    """
    return trick < now and rules.stock_size - rules.players * trick > 0


def choose_signal(seen: PlayerView) -> Signal | None:
    """The signal this computer seat makes now (always true of its hand), or None."""
    if seen.current_player != seen.seat:
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
    said = {m.kind for m in mine}
    for kind in (*_PER_DRAW, *_LATER):
        if kind not in allowed or kind in (fresh if kind in _PER_DRAW else said):
            continue
        if truthful(kind, seen.hand, seen.trump):
            return Signal(kind)
    return None


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
