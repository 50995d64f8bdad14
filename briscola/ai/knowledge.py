"""What a computer player can work out from a :class:`PlayerView`: who may hold which cards,
which cards beat which, how likely a seat is to hold a card that beats the trick, and who
is on whose side (Chiamata partners are inferred from the play).

Everything here reads a view only; nothing ever looks at a :class:`GameState`. A counting
player also takes the partner signals it sees as known
(:func:`briscola.ai.signals.with_signal_evidence`): a claimed Ace, Three or King of trump
is in the signaller's hand, "no trump" makes the signaller void in trump until it draws;
"a lower trump" or "a carico" (:func:`briscola.ai.signals.signal_claims`) conditions the
odds that the signaller holds a card (:meth:`Knowledge.p_holds_any`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb

from briscola.ai.signals import Claim, signal_claims, with_signal_evidence
from briscola.engine import Card, PlayerView, Rank, Suit
from briscola.engine.rules import Rules

__all__ = [
    "Knowledge",
    "beats",
    "table_winner",
    "teammate_weights",
]


def beats(best: Card, card: Card, trump: Suit | None, strength: dict[Rank, int]) -> bool:
    """``card``, played after the trick's best card so far ``best``, takes over."""
    if card.suit is best.suit:
        return strength[card.rank] > strength[best.rank]
    return card.suit is trump


def table_winner(
    table: Sequence[tuple[int, Card]], trump: Suit | None, strength: dict[Rank, int]
) -> tuple[int, Card]:
    """The (seat, card) winning the trick on the table so far (the table must not be empty)."""
    seat, best = table[0]
    for other, card in table[1:]:
        if beats(best, card, trump, strength):
            seat, best = other, card
    return seat, best


def teammate_weights(seen: PlayerView) -> list[float]:
    """Per seat, the probability that the seat plays on ``seen.seat``'s side (1 for itself).

    Fixed teams and single players are certain. In Chiamata, before the partner is revealed,
    the caller's partner is inferred from the tricks: a seat that loaded points on a trick
    the caller was winning is probably the partner; one that took points away from the
    caller probably is not.
    """
    rules = seen.rules
    n = rules.players
    me = seen.seat
    if not rules.chiamata:
        side = rules.side_of(me)
        return [1.0 if rules.side_of(s) == side else 0.0 for s in range(n)]
    caller = seen.caller
    if caller is None:  # auction: nobody is on anybody's side yet
        return [1.0 if s == me else 0.0 for s in range(n)]
    partner = seen.partner
    if partner is not None:  # revealed, or this seat is the partner
        calling = {caller, partner}
        mine = me in calling
        return [1.0 if (s in calling) == mine else 0.0 for s in range(n)]
    probs = partner_probabilities(seen)
    if me == caller:
        return [1.0 if s == me else probs[s] for s in range(n)]
    # A defender who is not the partner: the caller is against us; a seat is on our side
    # when it is not the partner.
    return [1.0 if s == me else 0.0 if s == caller else max(0.0, 1.0 - probs[s]) for s in range(n)]


def partner_probabilities(seen: PlayerView) -> list[float]:
    """Chiamata: per seat, the estimated probability that it holds the called card (the
    caller's own entry is the chance that the caller called a card of its own hand)."""
    rules = seen.rules
    n = rules.players
    caller = seen.caller
    called = seen.called
    assert caller is not None and called is not None
    me = seen.seat
    if called in seen.hand:
        return [1.0 if s == me else 0.0 for s in range(n)]
    strength = rules.strength
    trump = seen.trump
    odds = [1.0] * n
    odds[me] = 0.0
    odds[caller] = 0.04 if me != caller else 0.0
    for trick in seen.tricks:
        _weigh_trick(trick.seats, trick.cards, caller, trump, strength, odds)
    if seen.table:
        seats = tuple(s for s, _ in seen.table)
        cards = tuple(c for _, c in seen.table)
        _weigh_trick(seats, cards, caller, trump, strength, odds)
    total = sum(odds)
    return [o / total if total > 0 else 0.0 for o in odds]


def _weigh_trick(
    seats: Sequence[int],
    cards: Sequence[Card],
    caller: int,
    trump: Suit | None,
    strength: dict[Rank, int],
    odds: list[float],
) -> None:
    best_seat, best = seats[0], cards[0]
    for i in range(1, len(cards)):
        seat, card = seats[i], cards[i]
        takes = beats(best, card, trump, strength)
        if seat != caller:
            if best_seat == caller and not takes and card.points >= 10 and card.suit is not trump:
                odds[seat] *= 3.0  # loaded an Ace or Three on the caller's trick
            elif best_seat == caller and takes and sum(c.points for c in cards[: i + 1]) >= 10:
                odds[seat] *= 0.35  # took a rich trick away from the caller
            elif best_seat != caller and not takes and card.points >= 10:
                odds[seat] *= 0.6  # gave points to a trick the caller was losing
        if takes:
            best_seat, best = seat, card


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Card locations from one seat's point of view.

    ``unseen`` are cards that could be anywhere hidden (other hands, the face-down stock);
    ``known[s]`` are cards certainly in seat ``s``'s hand; ``hidden[s]`` how many of seat
    ``s``'s cards are unknown. With ``counting=False`` (a forgetful player) every card not
    in the own hand and not on the table is treated as possibly outstanding, and signals are
    not taken into account.
    """

    view: PlayerView
    rules: Rules
    trump: Suit | None
    strength: dict[Rank, int]
    unseen: frozenset[Card]
    known: tuple[frozenset[Card], ...]
    hidden: tuple[int, ...]
    mates: tuple[float, ...]
    #: Signals' claims of "at least one of these cards" (:func:`signal_claims`).
    claims: tuple[Claim, ...] = ()

    @classmethod
    def of(cls, seen: PlayerView, counting: bool = True) -> Knowledge:
        rules = seen.rules
        if counting:
            seen = with_signal_evidence(seen)  # the same view when no signal tells anything
            unseen = frozenset(seen.unseen_cards())
        else:
            on_table = {card for _, card in seen.table}
            mine = set(seen.hand)
            unseen = frozenset(c for c in rules.deck if c not in mine and c not in on_table)
        known = tuple(
            frozenset() if s == seen.seat else frozenset(seen.known[s])
            for s in range(rules.players)
        )
        hidden = tuple(
            0 if s == seen.seat else max(0, seen.hand_sizes[s] - len(known[s]))
            for s in range(rules.players)
        )
        return cls(
            view=seen,
            rules=rules,
            trump=seen.trump,
            strength=rules.strength,
            unseen=unseen,
            known=known,
            hidden=hidden,
            mates=tuple(teammate_weights(seen)),
            claims=tuple(c for c in signal_claims(seen) if c.least) if counting else (),
        )

    @property
    def unseen_count(self) -> int:
        return len(self.unseen)

    def outstanding(self) -> frozenset[Card]:
        """Cards that some other seat holds or may still draw."""
        out = set(self.unseen)
        for cards in self.known:
            out.update(cards)
        seen = self.view
        if seen.briscola_in_stock and seen.briscola is not None:
            out.add(seen.briscola)
        if seen.stock_top is not None:
            out.add(seen.stock_top)
        return frozenset(out)

    def p_holds_any(self, seat: int, cards: Iterable[Card]) -> float:
        """Probability that ``seat`` holds at least one of ``cards`` now."""
        wanted = set(cards)
        if not wanted:
            return 0.0
        if wanted & self.known[seat]:
            return 1.0
        voids = self.view.voids[seat]
        b = sum(1 for c in wanted if c in self.unseen and c.suit not in voids)
        h = self.hidden[seat]
        u = len(self.unseen)
        if b == 0 or h == 0 or u == 0:
            return 0.0
        if u - b < h:
            return 1.0
        told = [c for c in self.claims if c.seat == seat]
        if told:  # the claim that says most about these cards
            claim = max(told, key=lambda c: len(c.cards & wanted))
            return 1.0 - self._none_given(claim, wanted, voids, u, b, h)
        return 1.0 - comb(u - b, h) / comb(u, h)

    def _none_given(
        self, claim: Claim, wanted: set[Card], voids: frozenset[Suit], u: int, b: int, h: int
    ) -> float:
        """The chance that none of ``b`` wanted unseen cards is among the ``h`` hidden cards
        of a hand that holds at least one of ``claim.cards`` (a signal said so)."""
        told = {c for c in claim.cards if c in self.unseen and c.suit not in voids}
        s = len(told)
        either = b + sum(1 for c in told if c not in wanted)
        held = comb(u, h) - comb(u - s, h)
        if s == 0 or held <= 0:
            return comb(u - b, h) / comb(u, h)
        return max(0.0, comb(u - b, h) - comb(max(0, u - either), h)) / held

    def beaters(self, best: Card, pool: Iterable[Card]) -> list[Card]:
        """Cards of ``pool`` that would take a trick whose best card is ``best``."""
        trump, strength = self.trump, self.strength
        return [c for c in pool if beats(best, c, trump, strength)]

    def is_boss(self, card: Card) -> bool:
        """No outstanding card beats ``card`` when it leads (trumps count unless ``card``
        is one)."""
        return not self.beaters(card, self.outstanding())
