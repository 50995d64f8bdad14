"""Samples ("determinizations") of what a seat cannot see, and how likely each one is.

:func:`deal_of` takes from a :class:`~briscola.engine.PlayerView` what it fixes (known
cards, the face-up briscola and Scoperta top card, follow-suit voids, the cards played,
and what partner signals tell: claimed cards, voids, and counts such as "at least one lower
trump", :func:`~briscola.ai.signals.signal_claims`);
:func:`sample_hands` deals the unseen cards at random around it, :func:`enumerate2` lists
every deal when there are few (two players near the end of the stock), and
:func:`likelihood` weighs a sample by how well it explains the opponents' recent plays.
Nothing here reads a card the view does not show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial
from typing import Final

from briscola.ai.search.core import POINTS, SUIT, SearchRules
from briscola.ai.signals import determinize_with_evidence, signal_claims, with_signal_evidence
from briscola.engine import PlayerView

__all__ = [
    "Deal",
    "deal_of",
    "enumerate2",
    "from_engine",
    "likelihood",
    "meets_claims",
    "sample_hands",
    "sides_of",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """What a view fixes; samples fill in the rest."""

    n: int
    me: int
    hands: tuple[tuple[int, ...], ...]  # known cards per seat (all of mine)
    needs: tuple[int, ...]  # hidden cards per seat
    voids: tuple[frozenset[int], ...]
    unseen: tuple[int, ...]
    stock_bottom: tuple[int, ...]  # face-up briscola (bottom) when in the stock
    stock_top: tuple[int, ...]  # scoperta: the face-up top card
    stock_hidden: int
    trick: tuple[int, ...]
    gone: tuple[bool, ...]  # per card: played
    turn: int
    points: tuple[int, ...]  # per seat
    called: int  # Chiamata called card when the partner is unknown to this seat, else -1
    caller: int
    partner: int  # known partner, else -1
    #: Partner signals' claims (:func:`~briscola.ai.signals.signal_claims`): seat, cards,
    #: the least and the most of them that seat's hand holds.
    claims: tuple[tuple[int, frozenset[int], int, int], ...] = ()


#: Deals tried for one sample that meets the signals' claims, before one that does not.
CLAIM_TRIES: Final = 24


def deal_of(seen: PlayerView) -> Deal:
    seen = with_signal_evidence(seen)  # partner signals (issue 25): claims as known cards
    rules = seen.rules
    n = rules.players
    me = seen.seat
    hands = tuple(
        tuple(c.index for c in seen.hand) if s == me else tuple(c.index for c in seen.known[s])
        for s in range(n)
    )
    needs = tuple(0 if s == me else seen.hand_sizes[s] - len(seen.known[s]) for s in range(n))
    bottom: tuple[int, ...] = ()
    top: tuple[int, ...] = ()
    hidden = seen.stock_size
    if seen.briscola_in_stock and seen.briscola is not None:
        bottom = (seen.briscola.index,)
        hidden -= 1
    if seen.stock_top is not None and not (seen.briscola_in_stock and seen.stock_size == 1):
        top = (seen.stock_top.index,)
        hidden -= 1
    played = {c.index for c in seen.played_cards()}
    called = -1
    if seen.called is not None and seen.partner is None:
        called = seen.called.index
    return Deal(
        n=n,
        me=me,
        hands=hands,
        needs=needs,
        voids=tuple(frozenset(int(v) for v in seen.voids[s]) for s in range(n)),
        unseen=tuple(c.index for c in seen.unseen_cards()),
        stock_bottom=bottom,
        stock_top=top,
        stock_hidden=hidden,
        trick=tuple(c.index for _, c in seen.table),
        gone=tuple(c in played for c in range(40)),
        turn=me,
        points=seen.points,
        called=called,
        caller=seen.caller if seen.caller is not None else -1,
        partner=seen.partner if seen.partner is not None else -1,
        claims=tuple(
            (claim.seat, frozenset(c.index for c in claim.cards), claim.least, claim.most)
            for claim in signal_claims(seen)
        ),
    )


def sides_of(seen: PlayerView, partner: int) -> tuple[int, ...]:
    rules = seen.rules
    n = rules.players
    if rules.chiamata:
        calling = {seen.caller, partner}
        return tuple(0 if s in calling else 1 for s in range(n))
    return tuple(rules.side_of(s) for s in range(n))


def sample_hands(deal: Deal, rng: random.Random) -> tuple[list[list[int]], list[int]] | None:
    """Other hands and the stock (top last) for one sample; None if voids made it fail.
    With signals' claims, deals are drawn until one meets them all (rejection: each deal
    that does is as likely as before), at most :data:`CLAIM_TRIES`; then the last one."""
    sampled = _sample_once(deal, rng)
    if not deal.claims:
        return sampled
    for _ in range(CLAIM_TRIES - 1):
        if sampled is None or meets_claims(deal, sampled[0]):
            return sampled
        sampled = _sample_once(deal, rng)
    return sampled


def meets_claims(deal: Deal, hands: list[list[int]]) -> bool:
    """Every claim of ``deal`` holds of ``hands``."""
    for seat, cards, least, most in deal.claims:
        count = sum(1 for c in hands[seat] if c in cards)
        if not least <= count <= most:
            return False
    return True


def _sample_once(deal: Deal, rng: random.Random) -> tuple[list[list[int]], list[int]] | None:
    pool = list(deal.unseen)
    rng.shuffle(pool)
    n = deal.n
    hands = [list(h) for h in deal.hands]
    if any(deal.voids[s] for s in range(n) if s != deal.me):
        order = sorted(
            (s for s in range(n) if s != deal.me and deal.needs[s]),
            key=lambda s: -len(deal.voids[s]),
        )
        for s in order:
            banned = deal.voids[s]
            got = 0
            rest = []
            for c in pool:
                if got < deal.needs[s] and SUIT[c] not in banned:
                    hands[s].append(c)
                    got += 1
                else:
                    rest.append(c)
            if got < deal.needs[s]:
                return None
            pool = rest
        hidden = pool
    else:
        pos = 0
        for s in range(n):
            need = deal.needs[s]
            if need:
                hands[s].extend(pool[pos : pos + need])
                pos += need
        hidden = pool[pos:]
    stock = [*deal.stock_bottom, *hidden, *deal.stock_top]
    return hands, stock


def enumerate2(deal: Deal, limit: int = 24) -> list[tuple[list[list[int]], list[int]]] | None:
    """Two players: every deal of the unseen cards (opponent's hand, hidden stock in every
    order) when there are at most ``limit`` of them, else None."""
    opp = 1 - deal.me
    need = deal.needs[opp]
    hidden = deal.stock_hidden
    unseen = deal.unseen
    if deal.voids[opp] or need + hidden != len(unseen):
        return None
    if comb(len(unseen), need) * factorial(hidden) > limit:
        return None
    out = []
    for chosen in combinations(unseen, need):
        rest = [c for c in unseen if c not in chosen]
        for order in permutations(rest):
            hands = [list(h) for h in deal.hands]
            hands[opp].extend(chosen)
            out.append((hands, [*deal.stock_bottom, *order, *deal.stock_top]))
    return out


def from_engine(seen: PlayerView, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    state = determinize_with_evidence(seen, rng)  # partner signals (issue 25)
    hands = [[c.index for c in hand] for hand in state.hands]
    stock = [c.index for c in reversed(state.stock)]
    return hands, stock


def likelihood(seen: PlayerView, hands: list[list[int]], rules: SearchRules) -> float:
    """How well a sample explains the opponents' plays in the last trick(s) they played
    while holding cards that are still in their hands in the sample.

    Model: a player who let a trick worth 10 or more points go while holding a cheap card
    that would have taken it (a higher card of the suit, or a low trump) did so rarely
    (factor 0.25); one who trumped or overtook a poor trick while holding a liscio also
    rarely (0.5). Only cards that the player certainly held at that time count: with a draw
    after every trick, that is the cards of the current hand minus the last draw, which is
    one of them at random.
    """
    n = seen.rules.players
    me = seen.seat
    beats = rules.beats
    weight = 1.0
    recent = seen.tricks[-1:] if seen.stock_size else seen.tricks[-2:]
    for trick in recent:
        cards = [c.index for c in trick.cards]
        for pos in range(1, n):
            seat = trick.seats[pos]
            if seat == me:
                continue
            held = hands[seat]
            best_i = 0
            for i in range(1, pos):
                if beats[cards[best_i] * 40 + cards[i]]:
                    best_i = i
            best = cards[best_i]
            played = cards[pos]
            worth = sum(POINTS[c] for c in cards[:pos])
            took = bool(beats[best * 40 + played])
            if not took and worth + POINTS[played] >= 10:
                cheap = [
                    c
                    for c in held
                    if beats[best * 40 + c] and (SUIT[c] != rules.trump or POINTS[c] == 0)
                ]
                if cheap:
                    weight *= 0.25
            elif (
                took
                and worth == 0
                and POINTS[played] == 0
                and SUIT[played] == rules.trump
                and any(POINTS[c] == 0 and SUIT[c] != rules.trump for c in held)
            ):
                weight *= 0.5
    return weight
