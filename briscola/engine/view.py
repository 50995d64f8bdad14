"""What one seat may know, and full states sampled to agree with it.

:func:`view` is the only way the GUI and the computer players look at a game: a
:class:`PlayerView` holds the seat's own hand, public information (the briscola, the table,
every card played, pile sizes and points, swaps, the auction), cards of other hands that the
seat has seen (face-up draws, swaps, a partner's shown hand), and nothing else.

:func:`determinize` turns a view back into a complete :class:`GameState` by dealing the
unseen cards at random, consistent with everything the view says: for search.

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> seen = view(state, 0)
>>> len(seen.hand), seen.hand_sizes, seen.stock_size
(3, (3, 3), 34)
>>> sample = determinize(seen, random.Random(1))
>>> view(sample, 0) == seen
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Action, Bid
from .cards import Card, Suit
from .rules import Rules
from .state import GameState, Phase, SwapRecord, Trick

__all__ = ["PlayerView", "determinize", "view"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know at this moment. Immutable and comparable."""

    rules: Rules
    seat: int
    dealer: int
    phase: Phase
    #: Seat to act (None when the hand is over).
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    #: Trump suit (None in Briscolone, and in Chiamata before the call).
    trump: Suit | None
    #: The turned briscola (Chiamata: the called card); known to all, kept after it is drawn.
    briscola: Card | None
    #: The briscola still lies face up under the stock.
    briscola_in_stock: bool
    #: Cards left to draw, the face-up briscola included.
    stock_size: int
    #: Scoperta: the face-up top card of the stock.
    stock_top: Card | None
    #: The trick on the table: (seat, card) in playing order.
    table: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    #: Card points taken by each seat so far (public: every trick was seen).
    points: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    #: Per seat: cards of that seat's hand this seat has seen (own seat: empty).
    known: tuple[frozenset[Card], ...]
    #: Per seat: suits known to be missing from that hand (follow-suit games).
    voids: tuple[frozenset[Suit], ...]
    swaps: tuple[SwapRecord, ...]
    #: Chiamata auction in order: (seat, bid), bid None for a pass.
    bids: tuple[tuple[int, Bid | None], ...]
    high_bid: Bid | None
    high_bidder: int | None
    caller: int | None
    called: Card | None
    #: The caller's partner when this seat knows it (revealed, or it is this seat).
    partner: int | None
    partner_revealed: bool
    #: The current player's legal actions when that is this seat, else empty.
    legal: tuple[Action, ...]

    def legal_actions(self) -> list[Action]:
        return list(self.legal)

    @property
    def leader(self) -> int | None:
        """The seat that leads the trick on the table (or will lead the next one)."""
        if self.table:
            return self.table[0][0]
        return self.current_player

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat

    def played_cards(self) -> list[Card]:
        """Every card played so far, tricks first, then the table."""
        cards = [card for trick in self.tricks for card in trick.cards]
        cards.extend(card for _, card in self.table)
        return cards

    def unseen_cards(self) -> list[Card]:
        """Cards this seat has not seen and cannot place: the rest of other hands and the
        face-down stock (in deck order)."""
        seen: set[Card] = set(self.hand)
        seen.update(self.played_cards())
        for cards in self.known:
            seen.update(cards)
        if self.briscola_in_stock and self.briscola is not None:
            seen.add(self.briscola)
        if self.stock_top is not None:
            seen.add(self.stock_top)
        return [card for card in self.rules.deck if card not in seen]

    def side_points(self) -> tuple[int, ...]:
        """Points of each side of :attr:`Rules.sides` (per seat in Chiamata)."""
        sides = self.rules.sides
        if not sides:
            return self.points
        return tuple(sum(self.points[seat] for seat in side) for side in sides)

    def to_json(self) -> dict[str, object]:
        """The view as plain JSON values (the bot protocol's request body)."""
        from .codec import view_to_json

        return view_to_json(self)


def _partner_knowledge(state: GameState, seat: int, other: int) -> frozenset[Card]:
    rules = state.rules
    if other not in rules.partners(seat):
        return frozenset()
    if rules.partners_see == "start":
        return state.shown[other] & frozenset(state.hands[other])
    if rules.partners_see == "stock-empty" and not state.stock:
        return frozenset(state.hands[other])
    return frozenset()


def view(state: GameState, seat: int) -> PlayerView:
    """What ``seat`` may know of ``state``."""
    rules = state.rules
    n = rules.players
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat} in a {n}-player game")
    known = tuple(
        frozenset()
        if other == seat
        else frozenset(state.known[other]) | _partner_knowledge(state, seat, other)
        for other in range(n)
    )
    partner: int | None = None
    if state.partner is not None and (state.partner_revealed or seat == state.partner):
        partner = state.partner
    stock_top = state.stock[0] if rules.scoperta and state.stock else None
    current = state.current_player
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=state.dealer,
        phase=state.phase,
        current_player=current,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        trump=state.trump,
        briscola=state.briscola,
        briscola_in_stock=state.briscola_in_stock,
        stock_size=len(state.stock),
        stock_top=stock_top,
        table=tuple(zip(state.trick_seats, state.trick, strict=True)),
        tricks=tuple(state.tricks),
        points=tuple(state.points),
        pile_sizes=tuple(len(pile) for pile in state.piles),
        known=known,
        voids=tuple(frozenset(suits) for suits in state.voids),
        swaps=tuple(state.swaps),
        bids=tuple(state.bids),
        high_bid=state.high_bid,
        high_bidder=state.high_bidder,
        caller=state.caller,
        called=state.called,
        partner=partner,
        partner_revealed=state.partner_revealed,
        legal=tuple(state.legal_actions()) if current == seat else (),
    )


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
    if rules.partners_see == "start":
        state.shown = [frozenset(cards) for cards in seen.known]
        state.shown[seen.seat] = frozenset(seen.hand)
    return state
