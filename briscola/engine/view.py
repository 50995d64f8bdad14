"""What one seat may know, or a spectator (seat -1, :data:`SPECTATOR`): no seat at all.

:func:`view` is the only way the GUI and the computer players look at a game: a
:class:`PlayerView` holds the seat's own hand, public information (the briscola, the table,
every card played, pile sizes and points, swaps, the auction), cards of other hands that the
seat has seen (face-up draws, swaps, a partner's shown hand), and nothing else.

:func:`~briscola.engine.determinize.determinize` turns a view back into a complete
:class:`GameState` (for search). A spectator's view (:mod:`briscola.engine.spectate`) has
seat :data:`SPECTATOR`, no hand and no legal action.

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> seen = view(state, 0)
>>> len(seen.hand), seen.hand_sizes, seen.stock_size
(3, (3, 3), 34)

:func:`view_to_json` and :func:`view_from_json` are the two halves of the view codec (below).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from briscola.engine.actions import Action, Bid, Call, Pass, Play, Swap, action_from_json
from briscola.engine.cards import Card, Suit
from briscola.engine.codec import ViewError, card_from_json, rules_from, short
from briscola.engine.rules import Rules
from briscola.engine.signals import Signalled, signals_from_json, signals_to_json, visible_signals
from briscola.engine.state import GameState, Phase, SwapRecord, Trick

__all__ = ["SPECTATOR", "PlayerView", "view"]

#: The seat of a spectator's view: no seat, so it holds no hand and sees no hidden card.
SPECTATOR: Final = -1


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
    #: Partner signals of the hand this seat may see (:mod:`briscola.engine.signals`).
    signals: tuple[Signalled, ...] = ()

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
        signals=visible_signals(state, seat),
    )


# ---------------------------------------------------------------------------- as JSON
# The bot protocol's and the network's request body: the reader checks every field and the
# whole view's consistency, and raises ViewError (a ValueError) naming the field.

PHASES: Final = ("auction", "call", "play", "over")


def view_to_json(seen: PlayerView) -> dict[str, Any]:
    """A :class:`PlayerView` as plain JSON values (the bot protocol's ``view``)."""
    return {
        "rules": seen.rules.to_dict(),
        "seat": seen.seat,
        "dealer": seen.dealer,
        "phase": seen.phase,
        "current_player": seen.current_player,
        "hand": [card.code for card in seen.hand],
        "hand_sizes": list(seen.hand_sizes),
        "trump": seen.trump.code if seen.trump is not None else None,
        "briscola": seen.briscola.code if seen.briscola is not None else None,
        "briscola_in_stock": seen.briscola_in_stock,
        "stock_size": seen.stock_size,
        "stock_top": seen.stock_top.code if seen.stock_top is not None else None,
        "table": [{"seat": seat, "card": card.code} for seat, card in seen.table],
        "tricks": [
            {
                "leader": trick.leader,
                "cards": [card.code for card in trick.cards],
                "winner": trick.winner,
                "points": trick.points,
            }
            for trick in seen.tricks
        ],
        "points": list(seen.points),
        "side_points": list(seen.side_points()),
        "pile_sizes": list(seen.pile_sizes),
        "known": [sorted(card.code for card in cards) for cards in seen.known],
        "voids": [sorted(suit.code for suit in suits) for suits in seen.voids],
        "swaps": [
            {"trick": s.trick, "seat": s.seat, "gave": s.gave.code, "took": s.took.code}
            for s in seen.swaps
        ],
        "auction": [
            {"seat": seat, "pass": True} if bid is None else {"seat": seat, "bid": str(bid)[4:]}
            for seat, bid in seen.bids
        ],
        "caller": seen.caller,
        "called": seen.called.code if seen.called is not None else None,
        "partner": seen.partner,
        "legal": [action.to_json() for action in seen.legal],
        **signals_to_json(seen.signals),
    }


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ViewError(f"view: missing {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds).replace("dict", "object")
        raise ViewError(f"view: {key!r} must be {names.replace('list', 'a list')}")
    return value


def _card(code: Any, where: str) -> Card:
    return card_from_json(code, f"view: {where}", ViewError)


def _cards(codes: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(codes, list):
        raise ViewError(f"view: {where} must be a list of card codes")
    return tuple(_card(code, where) for code in codes)


def _opt_card(code: Any, where: str) -> Card | None:
    return None if code is None else _card(code, where)


def _suit(code: Any, where: str) -> Suit:
    if not isinstance(code, str):
        raise ViewError(f"view: {where}: invalid suit {short(code)}")
    try:
        return Suit.from_code(code)
    except ValueError:
        raise ViewError(f"view: {where}: invalid suit {short(code)}") from None


def _seat(value: Any, n: int, where: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ViewError(f"view: {where} must be a seat from 0 to {n - 1}")
    return value


def _ints(values: Any, n: int, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or len(values) != n:
        raise ViewError(f"view: {where} must list {n} numbers")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in values):
        raise ViewError(f"view: {where} must hold non-negative integers")
    return tuple(values)


def _objects(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    items: list[Any] = _get(data, key, list)
    if not all(isinstance(item, Mapping) for item in items):
        raise ViewError(f"view: {key!r} entries must be objects")
    return items


def view_from_json(data: Any) -> PlayerView:
    """Rebuild the :class:`PlayerView` that :func:`view_to_json` wrote.

    A spectator's view has seat -1 (:data:`SPECTATOR`), an empty hand and no legal action.
    Raises :class:`ViewError` naming the field for anything malformed or inconsistent:
    wrong types, seats out of range, a card in two places, counts that do not add up,
    legal actions that do not fit the phase or the hand.
    """
    if not isinstance(data, Mapping):
        raise ViewError("view must be a JSON object")
    rules = rules_from(_get(data, "rules", dict), ViewError, "view: rules")
    n = rules.players
    seat = _get(data, "seat", int)
    if seat != SPECTATOR:  # a spectator's view is at no seat
        seat = _seat(seat, n, "seat")
    dealer = _seat(_get(data, "dealer", int), n, "dealer")
    phase = _get(data, "phase", str)
    if phase not in PHASES:
        raise ViewError(f"view: phase must be one of {', '.join(PHASES)}")
    if phase in ("auction", "call") and not rules.chiamata:
        raise ViewError(f"view: phase {phase!r} exists only in Briscola Chiamata")
    current = _seat(data.get("current_player"), n, "current_player", optional=True)
    if (phase == "over") != (current is None):
        raise ViewError("view: current_player must be null exactly when the phase is 'over'")
    hand = _cards(_get(data, "hand", list), "hand")
    hand_sizes = _ints(_get(data, "hand_sizes", list), n, "hand_sizes")
    if seat == SPECTATOR and hand:
        raise ViewError("view: a spectator (seat -1) holds no hand")
    if seat != SPECTATOR and hand_sizes[seat] != len(hand):
        raise ViewError("view: hand_sizes disagrees with the hand")
    if any(size > rules.hand_size + 1 for size in hand_sizes):
        raise ViewError("view: a hand holds more cards than the rules deal")
    trump_code = data.get("trump")
    trump = None if trump_code is None else _suit(trump_code, "trump")
    briscola = _opt_card(data.get("briscola"), "briscola")
    briscola_in_stock = _get(data, "briscola_in_stock", bool)
    stock_size = _get(data, "stock_size", int)
    if not 0 <= stock_size <= rules.stock_size:
        raise ViewError(f"view: stock_size must be 0 to {rules.stock_size}")
    stock_top = _opt_card(data.get("stock_top"), "stock_top")
    table: list[tuple[int, Card]] = []
    for entry in _objects(data, "table"):
        table.append((_seat(entry.get("seat"), n, "table seat"), _card(entry.get("card"), "table")))
    if len(table) >= n:
        raise ViewError(f"view: the table holds {len(table)} cards for {n} players")
    tricks: list[Trick] = []
    for i, entry in enumerate(_objects(data, "tricks")):
        where = f"trick {i + 1}"
        leader = _seat(entry.get("leader"), n, f"{where} leader")
        cards = _cards(entry.get("cards"), where)
        if len(cards) != n:
            raise ViewError(f"view: {where} must hold {n} cards")
        winner = _seat(entry.get("winner"), n, f"{where} winner")
        points = entry.get("points")
        if points != sum(c.points for c in cards) or isinstance(points, bool):
            raise ViewError(f"view: {where}: points disagree with the cards")
        seats = tuple((leader + k) % n for k in range(n))
        tricks.append(Trick(seats, cards, winner, sum(c.points for c in cards)))
    points_by_seat = _ints(_get(data, "points", list), n, "points")
    pile_sizes = _ints(_get(data, "pile_sizes", list), n, "pile_sizes")
    known_data = _get(data, "known", list)
    if len(known_data) != n:
        raise ViewError(f"view: known must list {n} seats")
    known = tuple(frozenset(_cards(codes, "known")) for codes in known_data)
    voids_data = _get(data, "voids", list)
    if len(voids_data) != n or not all(isinstance(v, list) for v in voids_data):
        raise ViewError(f"view: voids must list {n} seats")
    voids = tuple(frozenset(_suit(code, "voids") for code in codes) for codes in voids_data)
    swaps: list[SwapRecord] = []
    for entry in _objects(data, "swaps"):
        trick_no = entry.get("trick")
        if not isinstance(trick_no, int) or isinstance(trick_no, bool) or not 0 <= trick_no < 40:
            raise ViewError("view: swap trick must be a trick number")
        swaps.append(
            SwapRecord(
                trick_no,
                _seat(entry.get("seat"), n, "swap seat"),
                _card(entry.get("gave"), "swap"),
                _card(entry.get("took"), "swap"),
            )
        )
    bids: list[tuple[int, Bid | None]] = []
    high_bid: Bid | None = None
    high_bidder: int | None = None
    for entry in _objects(data, "auction") if "auction" in data else []:
        bidder = _seat(entry.get("seat"), n, "auction seat")
        if entry.get("pass") is True:
            bids.append((bidder, None))
            continue
        try:
            bid = action_from_json({"bid": entry.get("bid")})
        except ValueError as exc:
            raise ViewError(f"view: auction: {exc}") from None
        assert isinstance(bid, Bid)
        bids.append((bidder, bid))
        high_bid, high_bidder = bid, bidder
    if bids and not rules.chiamata:
        raise ViewError("view: an auction exists only in Briscola Chiamata")
    caller = _seat(data.get("caller"), n, "caller", optional=True)
    called = _opt_card(data.get("called"), "called")
    partner = _seat(data.get("partner"), n, "partner", optional=True)
    played = {c for t in tricks for c in t.cards} | {c for _, c in table}
    partner_revealed = called is not None and called in played
    legal_data = _get(data, "legal", list)
    try:
        legal = tuple(action_from_json(entry) for entry in legal_data)
    except ValueError as exc:
        raise ViewError(f"view: legal: {exc}") from None
    places = list(hand) + [c for t in tricks for c in t.cards] + [c for _, c in table]
    for cards_known in known:
        places.extend(cards_known)
    if len(set(places)) != len(places):
        raise ViewError("view: a card is in two places")
    deck = set(rules.deck)
    extra = [briscola, stock_top, called] + [c for s in swaps for c in (s.gave, s.took)]
    if any(c not in deck for c in places) or any(c is not None and c not in deck for c in extra):
        raise ViewError("view: a card that is not in this deck")
    if sum(hand_sizes) + stock_size + len(played) != rules.deck_size:
        raise ViewError("view: hands, stock and played cards do not add up to the deck")
    if any(len(cards) > size for cards, size in zip(known, hand_sizes, strict=True)):
        raise ViewError("view: more cards known in a hand than it holds")
    if briscola_in_stock and (briscola is None or stock_size < 1):
        raise ViewError("view: briscola_in_stock without a briscola under a stock")
    for name, card in (
        ("briscola", briscola if briscola_in_stock else None),
        ("stock_top", stock_top),
    ):
        if card is not None and card in set(places):
            raise ViewError(f"view: the {name} {card} is also in a hand or on a pile")
    if stock_top is not None and stock_size < 1:
        raise ViewError("view: stock_top without a stock")
    _check_legal(legal, phase, current == seat, set(hand))
    phase_value: Phase = phase
    return PlayerView(
        rules=rules,
        seat=seat,
        dealer=dealer,
        phase=phase_value,
        current_player=current,
        hand=hand,
        hand_sizes=hand_sizes,
        trump=trump,
        briscola=briscola,
        briscola_in_stock=briscola_in_stock,
        stock_size=stock_size,
        stock_top=stock_top,
        table=tuple(table),
        tricks=tuple(tricks),
        points=points_by_seat,
        pile_sizes=pile_sizes,
        known=known,
        voids=voids,
        swaps=tuple(swaps),
        bids=tuple(bids),
        high_bid=high_bid,
        high_bidder=high_bidder,
        caller=caller,
        called=called,
        partner=partner,
        partner_revealed=partner_revealed,
        legal=legal,
        signals=signals_from_json(data, rules, ViewError),
    )


def _check_legal(legal: tuple[Any, ...], phase: str, to_move: bool, hand: set[Card]) -> None:
    """Legal actions fit the phase and the hand: only the seat to move has any."""
    if legal and not to_move:
        raise ViewError("view: legal actions for a seat that is not to move")
    if len(set(legal)) != len(legal):
        raise ViewError("view: legal lists an action twice")
    kinds: dict[str, tuple[type, ...]] = {
        "auction": (Bid, Pass),
        "call": (Call,),
        "play": (Play, Swap),
        "over": (),
    }
    for action in legal:
        if not isinstance(action, kinds[phase]):
            raise ViewError(f"view: legal: {action} cannot be taken in the {phase} phase")
        if isinstance(action, Play | Swap) and action.card not in hand:
            raise ViewError(f"view: legal: {action} names a card the hand does not hold")
