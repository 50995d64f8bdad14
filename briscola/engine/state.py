"""The state of one hand, with an OpenSpiel-style API.

>>> import random
>>> state = GameState.new(Rules.preset("classic2"), random.Random(7), dealer=0)
>>> state.current_player  # the player to the dealer's right leads
1
>>> len(state.hands[0]), len(state.stock), state.stock[-1] is state.briscola
(3, 34, True)
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> sum(state.outcome().points)
120
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, Literal

from briscola.engine.actions import PASS, Action, Bid, Call, IllegalMoveError, Pass, Play, Swap
from briscola.engine.cards import Card, Rank, Suit
from briscola.engine.events import (
    Auction,
    BriscolaTurned,
    Called,
    Dealt,
    Drew,
    Event,
    HandOver,
    HandStarted,
    PartnerRevealed,
    Played,
    Swapped,
    TrickWon,
)
from briscola.engine.rules import Rules
from briscola.engine.scoring import HandResult, hand_result
from briscola.engine.signals import Signal, Signalled, make_signal, may_see
from briscola.engine.tricks import SwapRecord, Trick

__all__ = [
    "GameState",
    "HandResult",
    "IllegalMoveError",
    "Phase",
    "SwapRecord",
    "Trick",
    "trick_winner",
]

Phase = Literal["auction", "call", "play", "over"]

#: One interned Play action per card, so legal_actions() allocates little.
_PLAYS: Final[tuple[Play, ...]] = tuple(Play(Card.from_index(i)) for i in range(40))

#: Face-up briscola ranks that the 7 of trump may be swapped for, and those for the 2.
SWAP_FOR_SEVEN: Final = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.THREE})
SWAP_FOR_TWO: Final = frozenset({Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN})


def trick_winner(cards: Sequence[Card], trump: Suit | None, strength: dict[Rank, int]) -> int:
    """Index in ``cards`` (playing order) of the card that takes the trick.

    The highest trump if any trump was played, otherwise the highest card of the suit led;
    a card of another non-trump suit never wins.

    >>> from .cards import STRENGTH, cards_from_codes
    >>> trick_winner(cards_from_codes("3S AS"), None, STRENGTH)
    1
    >>> trick_winner(cards_from_codes("3S AD"), None, STRENGTH)
    0
    >>> trick_winner(cards_from_codes("3S 2D"), Suit.COINS, STRENGTH)
    1
    """
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit is best_card.suit:
            if strength[card.rank] > strength[best_card.rank]:
                best, best_card = i, card
        elif card.suit is trump:
            best, best_card = i, card
    return best


class GameState:
    """One hand of Briscola in any configuration.

    Build with :meth:`new` (shuffle with a seeded ``random.Random``) or from a known deck
    order (``GameState(rules, deck, dealer)``, top card first). Seats are numbered in
    playing order; the player to the dealer's right is ``(dealer + 1) % players``.
    """

    __slots__ = (
        "_current",
        "bids",
        "briscola",
        "called",
        "caller",
        "dealer",
        "deck",
        "determinized",
        "events",
        "hands",
        "high_bid",
        "high_bidder",
        "known",
        "partner",
        "partner_revealed",
        "passed",
        "phase",
        "piles",
        "points",
        "rules",
        "shown",
        "signals",
        "stock",
        "swaps",
        "trick",
        "trick_seats",
        "tricks",
        "trump",
        "voids",
    )

    rules: Rules
    dealer: int
    #: The shuffled deck, top card first, before dealing (empty for determinized states).
    deck: tuple[Card, ...]
    hands: list[list[Card]]
    #: Cards still to draw, top first; with a turned briscola the last one is the briscola.
    stock: list[Card]
    #: The turned card (or in Chiamata the called card), known to all; stays set once drawn.
    briscola: Card | None
    trump: Suit | None
    phase: Phase
    _current: int
    trick: list[Card]
    trick_seats: list[int]
    tricks: list[Trick]
    piles: list[list[Card]]
    points: list[int]
    swaps: list[SwapRecord]
    bids: list[tuple[int, Bid | None]]
    passed: list[bool]
    high_bid: Bid | None
    high_bidder: int | None
    caller: int | None
    called: Card | None
    partner: int | None
    partner_revealed: bool
    #: Per seat: cards in that hand that every seat has seen (face-up draws, swaps).
    known: list[set[Card]]
    #: Per seat: suits the seat is known to lack (it did not follow suit when it had to)
    #: since its last draw.
    voids: list[set[Suit]]
    #: Per seat: the hand shown to partners before the first trick (partners_see="start").
    shown: list[frozenset[Card]]
    #: Partner signals made this hand, in order (:mod:`briscola.engine.signals`).
    signals: list[Signalled]
    events: list[Event]
    determinized: bool

    def __init__(self, rules: Rules, deck: Iterable[Card], dealer: int = 0) -> None:
        deck = tuple(deck)
        if sorted(deck) != sorted(rules.deck):
            raise ValueError(
                f"the deck must hold exactly the {rules.deck_size} cards of these rules"
            )
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}")
        self._init_empty(rules, dealer)
        self.deck = deck
        self._deal()

    @classmethod
    def new(cls, rules: Rules, rng: random.Random, dealer: int = 0) -> GameState:
        """Shuffle the rules' deck with ``rng`` and deal."""
        deck = list(rules.deck)
        rng.shuffle(deck)
        return cls(rules, deck, dealer)

    def _init_empty(self, rules: Rules, dealer: int) -> None:
        n = rules.players
        self.rules = rules
        self.dealer = dealer
        self.deck = ()
        self.hands = [[] for _ in range(n)]
        self.stock = []
        self.briscola = None
        self.trump = None
        self.phase = "play"
        self._current = (dealer + 1) % n
        self.trick = []
        self.trick_seats = []
        self.tricks = []
        self.piles = [[] for _ in range(n)]
        self.points = [0] * n
        self.swaps = []
        self.bids = []
        self.passed = [False] * n
        self.high_bid = None
        self.high_bidder = None
        self.caller = None
        self.called = None
        self.partner = None
        self.partner_revealed = False
        self.known = [set() for _ in range(n)]
        self.voids = [set() for _ in range(n)]
        self.shown = [frozenset() for _ in range(n)]
        self.signals = []
        self.events = []
        self.determinized = False

    def _deal(self) -> None:
        rules = self.rules
        n = rules.players
        first = (self.dealer + 1) % n
        self.events.append(HandStarted(self.dealer, len(self.deck)))
        position = 0
        for _ in range(rules.hand_size):
            for i in range(n):
                seat = (first + i) % n
                card = self.deck[position]
                position += 1
                self.hands[seat].append(card)
                self.events.append(Dealt(seat, card))
        rest = list(self.deck[position:])
        if rules.turned_briscola:
            briscola = rest.pop(0)
            self.stock = [*rest, briscola]
            self.briscola = briscola
            self.trump = briscola.suit
            self.events.append(BriscolaTurned(briscola))
        else:
            self.stock = rest
        if rules.partners_see == "start":
            self.shown = [frozenset(hand) for hand in self.hands]
        self.phase = "auction" if rules.chiamata else "play"
        self._current = first

    # ------------------------------------------------------------------ OpenSpiel-style API

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return None if self.phase == "over" else self._current

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self.trick_seats[0] if self.trick_seats else self._current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a stable order."""
        phase = self.phase
        if phase == "play":
            hand = self.hands[self._current]
            cards: list[Card] = hand
            if self.trick and self.rules.follow_suit:
                led = self.trick[0].suit
                follow = [card for card in hand if card.suit is led]
                if follow:
                    cards = follow
            actions: list[Action] = [_PLAYS[card.index] for card in cards]
            swap = self.swap_card(self._current)
            if swap is not None:
                actions.append(Swap(swap))
            return actions
        if phase == "auction":
            return self._legal_bids()
        if phase == "call":
            assert self.high_bid is not None
            rank = self.high_bid.rank
            return [Call(Card(rank, suit)) for suit in Suit]
        return []

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the current player; raise :class:`IllegalMoveError` if the
        rules forbid it (the state is then unchanged)."""
        if isinstance(action, Play):
            self._apply_play(action.card)
        elif isinstance(action, Swap):
            self._apply_swap(action.card)
        elif isinstance(action, Bid | Pass):
            self._apply_auction(action)
        elif isinstance(action, Call):
            self._apply_call(action.card)
        else:
            raise IllegalMoveError(f"not an action: {action!r}")

    def signal(self, seat: int, signal: Signal) -> Signalled:
        """``seat`` makes a partner signal (see :mod:`briscola.engine.signals`); raises
        :class:`IllegalMoveError` (nothing changes) when it may not now."""
        return make_signal(self, seat, signal)

    def outcome(self) -> HandResult:
        """The hand's result; only when :meth:`is_terminal`."""
        if self.phase != "over":
            raise ValueError("the hand is not over yet")
        return self._result()

    def returns(self) -> tuple[int, ...]:
        """Per-seat returns of a finished hand (see :class:`HandResult`)."""
        return self.outcome().returns

    def clone(self) -> GameState:
        """An independent copy (events are shared up to now, then diverge)."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other.dealer = self.dealer
        other.deck = self.deck
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.briscola = self.briscola
        other.trump = self.trump
        other.phase = self.phase
        other._current = self._current
        other.trick = list(self.trick)
        other.trick_seats = list(self.trick_seats)
        other.tricks = list(self.tricks)
        other.piles = [list(pile) for pile in self.piles]
        other.points = list(self.points)
        other.swaps = list(self.swaps)
        other.bids = list(self.bids)
        other.passed = list(self.passed)
        other.high_bid = self.high_bid
        other.high_bidder = self.high_bidder
        other.caller = self.caller
        other.called = self.called
        other.partner = self.partner
        other.partner_revealed = self.partner_revealed
        other.known = [set(cards) for cards in self.known]
        other.voids = [set(suits) for suits in self.voids]
        other.shown = list(self.shown)
        other.signals = list(self.signals)
        other.events = list(self.events)
        other.determinized = self.determinized
        return other

    def validate(self) -> None:
        """Check the state's invariants; raise ``ValueError`` naming the first broken one.

        Every card of the deck is in exactly one place (a hand, the stock, the trick or a
        pile), the piles hold the points counted, a turned briscola lies last in the stock,
        and a running hand always offers a legal action.
        """
        places: dict[Card, int] = {}
        for place in [*self.hands, self.stock, self.trick, *self.piles]:
            for card in place:
                places[card] = places.get(card, 0) + 1
        doubled = sorted(card.code for card, count in places.items() if count > 1)
        if doubled:
            raise ValueError(f"cards in two places: {' '.join(doubled)}")
        missing = sorted(card.code for card in self.rules.deck if card not in places)
        if missing:
            raise ValueError(f"cards missing: {' '.join(missing)}")
        if len(places) != self.rules.deck_size:
            raise ValueError("cards that are not in this deck are in play")
        for seat, pile in enumerate(self.piles):
            if sum(card.points for card in pile) != self.points[seat]:
                raise ValueError(f"seat {seat}'s points do not match its pile")
        if self.rules.turned_briscola and self.stock and self.stock[-1] is not self.briscola:
            raise ValueError("the face-up briscola is not the stock's last card")
        if len(self.trick) != len(self.trick_seats):
            raise ValueError("the trick's cards and seats differ in number")
        if self.phase != "over" and not self.legal_actions():
            raise ValueError("no legal action in a running hand")

    # ------------------------------------------------------------------ queries

    def swap_card(self, seat: int) -> Card | None:
        """The card ``seat`` may swap for the face-up briscola now, if any.

        The 7 of trump takes a face-up Jack, Queen, King, Ace or 3; the 2 of trump takes a
        face-up 4, 5, 6 or 7. Only on one's own turn, before playing, while the stock still
        holds a face-down card besides the briscola.
        """
        if (
            not self.rules.swap
            or self.phase != "play"
            or seat != self._current
            or len(self.stock) < 2
            or self.trump is None
        ):
            return None
        face_up = self.stock[-1]
        if face_up.rank in SWAP_FOR_SEVEN:
            wanted = Card(Rank.SEVEN, self.trump)
        elif face_up.rank in SWAP_FOR_TWO:
            wanted = Card(Rank.TWO, self.trump)
        else:
            return None
        return wanted if wanted in self.hands[seat] else None

    @property
    def briscola_in_stock(self) -> bool:
        """The turned briscola still lies face up under the stock."""
        return self.rules.turned_briscola and bool(self.stock)

    def side_points(self) -> tuple[int, ...]:
        """Points taken so far by each side of :attr:`Rules.sides` (per seat in Chiamata)."""
        sides = self.rules.sides
        if not sides:
            return tuple(self.points)
        return tuple(sum(self.points[seat] for seat in side) for side in sides)

    def events_for(self, viewer: int, start: int = 0) -> list[Event]:
        """Events from index ``start`` as ``viewer`` may see them: cards dealt or drawn face
        down to other seats are hidden (``card=None``). A negative viewer (a spectator
        between hot-seat turns) sees no hidden card at all."""
        partners: tuple[int, ...] = ()
        if self.rules.partners_see == "start" and viewer >= 0:
            partners = self.rules.partners(viewer)
        out: list[Event] = []
        for event in self.events[start:]:
            if isinstance(event, Dealt) and event.seat != viewer and event.seat not in partners:
                event = Dealt(event.seat, None)
            elif isinstance(event, Drew) and event.seat != viewer and not event.face_up:
                event = Drew(event.seat, None, False)
            elif isinstance(event, Signalled) and not may_see(self, event.seat, viewer):
                continue
            out.append(event)
        return out

    # ------------------------------------------------------------------ auction

    def _bid_beats(self, bid: Bid, other: Bid | None) -> bool:
        if other is None:
            return True
        strength = self.rules.strength
        if bid.rank == other.rank:
            return bid.points > other.points
        return strength[bid.rank] < strength[other.rank]

    def _legal_bids(self) -> list[Action]:
        actions: list[Action] = []
        high = self.high_bid
        for rank in self.rules.bid_ranks:
            if self._bid_beats(Bid(rank), high):
                actions.append(Bid(rank))
        low_points = high.points if high is not None and high.rank == Rank.TWO else 61
        actions.extend(Bid(Rank.TWO, points) for points in range(low_points + 1, 121))
        active = self.passed.count(False)
        if high is not None or active > 1:
            actions.append(PASS)
        return actions

    def _apply_auction(self, action: Bid | Pass) -> None:
        seat = self._current
        if self.phase != "auction":
            raise IllegalMoveError(f"no auction now (phase: {self.phase})")
        if isinstance(action, Bid):
            if not self._bid_beats(action, self.high_bid):
                raise IllegalMoveError(f"{action} does not beat the bid {self.high_bid}")
            self.high_bid = action
            self.high_bidder = seat
            self.bids.append((seat, action))
            self.events.append(Auction(seat, action))
        else:
            if self.high_bid is None and self.passed.count(False) == 1:
                raise IllegalMoveError("everyone else passed: the last player must bid")
            self.passed[seat] = True
            self.bids.append((seat, None))
            self.events.append(Auction(seat, None))
        n = self.rules.players
        if self.high_bid is not None and self.passed.count(False) == 1:
            assert self.high_bidder is not None
            self.phase = "call"
            self._current = self.high_bidder
            return
        nxt = (seat + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self._current = nxt

    def _apply_call(self, card: Card) -> None:
        if self.phase != "call":
            raise IllegalMoveError(f"no card to call now (phase: {self.phase})")
        assert self.high_bid is not None
        if card.rank != self.high_bid.rank:
            raise IllegalMoveError(
                f"the bid was {self.high_bid}: call a card of rank {self.high_bid.rank.code}"
            )
        seat = self._current
        self.caller = seat
        self.called = card
        self.briscola = card
        self.trump = card.suit
        self.partner = next(s for s, hand in enumerate(self.hands) if card in hand)
        self.events.append(Called(seat, card))
        self.phase = "play"
        self._current = (self.dealer + 1) % self.rules.players

    # ------------------------------------------------------------------ play

    def _apply_swap(self, card: Card) -> None:
        seat = self._current
        allowed = self.swap_card(seat)
        if allowed is None or allowed != card:
            raise IllegalMoveError(self._swap_refusal(seat, card))
        took = self.stock[-1]
        hand = self.hands[seat]
        hand[hand.index(card)] = took
        self.stock[-1] = card
        self.briscola = card
        self.known[seat].discard(card)
        self.known[seat].add(took)
        self.swaps.append(SwapRecord(len(self.tricks), seat, card, took))
        self.events.append(Swapped(seat, card, took))

    def _swap_refusal(self, seat: int, card: Card) -> str:
        if not self.rules.swap:
            return "swapping the briscola is not allowed by these rules"
        if self.phase != "play":
            return f"no swapping now (phase: {self.phase})"
        if len(self.stock) < 2:
            return "no swapping once the stock is empty"
        if card not in self.hands[seat]:
            return f"seat {seat} does not hold {card}"
        return f"{card} cannot be swapped for the face-up {self.stock[-1]}"

    def _apply_play(self, card: Card) -> None:
        if self.phase != "play":
            raise IllegalMoveError(f"no card play now (phase: {self.phase})")
        seat = self._current
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalMoveError(f"seat {seat} does not hold {card}")
        trick = self.trick
        rules = self.rules
        if trick and card.suit is not trick[0].suit and rules.follow_suit:
            led = trick[0].suit
            if any(c.suit is led for c in hand):
                raise IllegalMoveError(f"seat {seat} must follow suit ({led.name.lower()})")
            self.voids[seat].add(led)
        hand.remove(card)
        trick.append(card)
        self.trick_seats.append(seat)
        self.known[seat].discard(card)
        self.events.append(Played(seat, card))
        if card is self.called:
            self.partner_revealed = True
            assert self.partner is not None
            self.events.append(PartnerRevealed(self.partner, self.partner == self.caller))
        n = rules.players
        if len(trick) < n:
            self._current = (seat + 1) % n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        rules = self.rules
        n = rules.players
        cards = tuple(self.trick)
        seats = tuple(self.trick_seats)
        winner = seats[trick_winner(cards, self.trump, rules.strength)]
        points = sum(card.points for card in cards)
        done = Trick(seats, cards, winner, points)
        self.tricks.append(done)
        self.piles[winner].extend(cards)
        self.points[winner] += points
        self.trick = []
        self.trick_seats = []
        self.events.append(TrickWon(done))
        stock = self.stock
        if stock:
            face_up_top = rules.scoperta
            for i in range(n):
                seat = (winner + i) % n
                card = stock.pop(0)
                face_up = face_up_top or (not stock and rules.turned_briscola)
                self.hands[seat].append(card)
                self.voids[seat].clear()
                if face_up:
                    self.known[seat].add(card)
                self.events.append(Drew(seat, card, face_up))
        self._current = winner
        if not self.hands[winner]:
            self.phase = "over"
            self.events.append(HandOver(self._result()))

    # ------------------------------------------------------------------ scoring

    def _result(self) -> HandResult:
        return hand_result(self.rules, tuple(self.points), self.caller, self.partner, self.high_bid)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.name} phase={self.phase} current={self.current_player}"
            f" tricks={len(self.tricks)} stock={len(self.stock)} points={self.points}>"
        )
