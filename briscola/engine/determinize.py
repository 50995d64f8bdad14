"""Full states sampled to agree with a view: :func:`determinize` deals the cards a seat has
not seen at random, consistent with everything its :class:`~briscola.engine.view.PlayerView`
says (for search).

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> from .view import view
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> seen = view(state, 0)
>>> sample = determinize(seen, random.Random(1))
>>> view(sample, 0) == seen
True
"""

from __future__ import annotations

import random

from briscola.engine.cards import Card, Suit
from briscola.engine.state import GameState
from briscola.engine.view import PlayerView

__all__ = ["determinize"]


def _deal_hidden(
    unseen: list[Card],
    needs: dict[int, int],
    voids: dict[int, frozenset[Suit]],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """Share ``unseen`` among seats (``needs[seat]`` cards each; key -1 is the stock),
    respecting each seat's voids. Uniform when nothing is void; otherwise the most
    constrained seats are served first from a random order."""
    pool = list(unseen)
    for _attempt in range(64):
        rng.shuffle(pool)
        if not any(voids.values()):
            out: dict[int, list[Card]] = {}
            start = 0
            for seat, count in needs.items():
                out[seat] = pool[start : start + count]
                start += count
            return out
        order = sorted(
            needs,
            key=lambda s: (s == -1, sum(1 for c in pool if c.suit not in voids.get(s, ()))),
        )
        remaining = list(pool)
        out = {}
        ok = True
        for seat in order:
            banned = voids.get(seat, frozenset())
            allowed = [c for c in remaining if c.suit not in banned]
            if len(allowed) < needs[seat]:
                ok = False
                break
            chosen = allowed[: needs[seat]]
            out[seat] = chosen
            chosen_set = set(chosen)
            remaining = [c for c in remaining if c not in chosen_set]
        if ok:
            return out
    raise ValueError("no deal of the unseen cards agrees with this view")


def determinize(seen: PlayerView, rng: random.Random) -> GameState:
    """A complete state that agrees with ``seen``: the unseen cards dealt at random.

    Other hands keep the cards the seat knows of, the stock keeps its face-up cards
    (briscola last, scoperta top first), and follow-suit voids are respected. The result
    plays on like any state (``determinized`` is set: it has no deck and no record).
    """
    rules = seen.rules
    n = rules.players
    stock_hidden = seen.stock_size
    if seen.briscola_in_stock:
        stock_hidden -= 1
    top_visible = seen.stock_top is not None and not (
        seen.briscola_in_stock and seen.stock_size == 1
    )
    if top_visible:
        stock_hidden -= 1
    needs: dict[int, int] = {}
    for seat in range(n):
        if seat != seen.seat:
            needs[seat] = seen.hand_sizes[seat] - len(seen.known[seat])
    needs[-1] = stock_hidden
    voids = {seat: seen.voids[seat] for seat in range(n) if seat != seen.seat}
    unseen = seen.unseen_cards()
    if sum(needs.values()) != len(unseen):
        raise ValueError(
            f"inconsistent view: {len(unseen)} unseen cards for {sum(needs.values())} places"
        )
    dealt = _deal_hidden(unseen, needs, voids, rng)

    state = GameState.__new__(GameState)
    state._init_empty(rules, seen.dealer)
    state.determinized = True
    for seat in range(n):
        if seat == seen.seat:
            state.hands[seat] = list(seen.hand)
        else:
            hand = list(seen.known[seat]) + dealt[seat]
            rng.shuffle(hand)
            state.hands[seat] = hand
    stock = list(dealt[-1])
    if top_visible and seen.stock_top is not None:
        stock.insert(0, seen.stock_top)
    if seen.briscola_in_stock and seen.briscola is not None:
        stock.append(seen.briscola)
    state.stock = stock
    state.briscola = seen.briscola
    state.trump = seen.trump
    state.phase = seen.phase
    state._current = seen.current_player if seen.current_player is not None else 0
    state.trick = [card for _, card in seen.table]
    state.trick_seats = [seat for seat, _ in seen.table]
    state.tricks = list(seen.tricks)
    for trick in seen.tricks:
        state.piles[trick.winner].extend(trick.cards)
    state.points = list(seen.points)
    state.swaps = list(seen.swaps)
    state.bids = list(seen.bids)
    for seat, bid in seen.bids:
        if bid is None:
            state.passed[seat] = True
    state.high_bid = seen.high_bid
    state.high_bidder = seen.high_bidder
    state.caller = seen.caller
    state.called = seen.called
    state.partner_revealed = seen.partner_revealed
    if seen.partner_revealed:
        state.partner = seen.partner
    elif seen.called is not None:
        state.partner = next(s for s, hand in enumerate(state.hands) if seen.called in hand)
    state.known = [set(cards) for cards in seen.known]
    state.voids = [set(suits) for suits in seen.voids]
    state.signals = list(seen.signals)
    if rules.partners_see == "start":
        state.shown = [frozenset(cards) for cards in seen.known]
        state.shown[seen.seat] = frozenset(seen.hand)
    return state
