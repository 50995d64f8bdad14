"""``rules``: an independent rule-based player, the arena's yardstick for team and Chiamata
play (and any other preset), one of its sparring pool (:mod:`briscola.ai.sparring`).

It is written from the rules reference (``RULES.md``) and common table advice, sharing no
code or weights with the game's own levels (``briscola.ai``): its card counting, its sense of
who is a partner and its Chiamata auction are its own, so that beating it says something
about the game's bots that beating their own variants does not.

How it plays a card:

* **Leading**: a worthless card (*liscio*) of the longest side suit, or a worthless trump
  when the side cards all have points; the caller with four trumps or more leads a low
  trump to draw the defenders' trumps; an Ace (or a Three whose Ace is gone) that no card
  still out can beat is cashed at once.
* **Following**, partner winning: when no opponent still to play can take the trick (no
  card still out that beats the winner), it loads its best side points (*carico*);
  otherwise it throws its cheapest card.
* **Following**, an opponent winning: it takes with the cheapest card that wins a trick
  worth it (a higher card of the suit when nobody after it can overtake; a low trump for
  4 points or more, a trump with points for 10 or more, any trump for 20), else it throws
  its cheapest card.
* **Chiamata**: a defender suspects the seat that loads points on the caller's winning trick
  and clears the one that takes points from the caller; the secret partner keeps the
  called card for a trick of 10 points or more, or the last two tricks.

Its auction values each suit as trump with the card it would call (trumps by their
expected tricks, side Aces and Threes, voids, a share of the partner's hand), bids while the
estimate reaches the points the bid promises, and calls the missing card of its best suit.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from briscola.ai.base import Bot
from briscola.ai.bidding import choose_bid as medium_bid
from briscola.ai.bidding import choose_call as medium_call
from briscola.engine import (
    PASS,
    Action,
    Bid,
    Call,
    Card,
    Play,
    PlayerView,
    Rank,
    Suit,
    Swap,
    trick_winner,
)

__all__ = ["BIDDERS", "AuctionSwap", "RuleBot", "auction_estimate", "choose_bid", "choose_call"]

#: The auctions a bot's ``bidder`` option may name.
BIDDERS: Final = ("rules", "medium")

#: Expected points one trump of this strength (10 strongest) brings in the auction's eyes.
_TRUMP_WORTH: Final[dict[int, float]] = {
    10: 16.0,
    9: 15.0,
    8: 11.0,
    7: 9.5,
    6: 8.5,
    5: 7.0,
    4: 6.5,
    3: 6.0,
    2: 5.5,
    1: 5.5,
}
#: What the partner's other seven cards bring on average, beyond the called card.
_PARTNER_SHARE: Final = 9.0
#: Playing alone (calling one's own card): no partner at all.
_ALONE_PENALTY: Final = 12.0
#: A bid is made when the estimate reaches the points it promises plus this much.
_BID_MARGIN: Final = -12.0


class RuleBot:
    """The rule player. Deterministic: ``rng`` only breaks exact ties."""

    def __init__(self, rng: random.Random | None = None, time_limit: float | None = None) -> None:
        self.name = "rules"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if view.phase == "auction":
            return choose_bid(view)
        if view.phase == "call":
            return choose_call(view)
        swap = next((a for a in legal if isinstance(a, Swap)), None)
        if swap is not None:
            return swap  # the face-up briscola is always the better trump
        return Play(_Table(view).card())


class AuctionSwap:
    """A bot whose Chiamata auction and call are another's (``bidder=rules`` or
    ``bidder=medium``), its card play unchanged: the auction measured on its own."""

    def __init__(self, bot: Bot, bidder: str) -> None:
        if bidder not in BIDDERS:
            raise ValueError(f"unknown bidder {bidder!r}: expected one of {', '.join(BIDDERS)}")
        self.bot = bot
        self.bidder = bidder
        self.name = f"{bot.name}+{bidder} auction"

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "auction" and view.legal:
            return choose_bid(view) if self.bidder == "rules" else medium_bid(view)
        if view.phase == "call" and view.legal:
            return choose_call(view) if self.bidder == "rules" else medium_call(view)
        return self.bot.choose(view)


# ---------------------------------------------------------------------------- auction


def auction_estimate(
    hand: Iterable[Card], trump: Suit, called: Card, strength: dict[Rank, int]
) -> float:
    """The points the calling side should take with ``trump`` as trump and ``called`` in
    the partner's hand (in one's own hand: alone)."""
    cards = list(hand)
    alone = called in cards
    trumps = [c for c in cards if c.suit is trump]
    estimate = sum(_TRUMP_WORTH[strength[c.rank]] for c in trumps)
    if not alone:
        estimate += 0.9 * _TRUMP_WORTH[strength[called.rank]] + _PARTNER_SHARE
    else:
        estimate -= _ALONE_PENALTY
    for suit in Suit:
        if suit is trump:
            continue
        held = [c for c in cards if c.suit is suit]
        ranks = {strength[c.rank] for c in held}
        if 10 in ranks:
            estimate += 9.0
        if 9 in ranks:
            estimate += 7.0 if 10 in ranks else 2.5
        if 8 in ranks and len(held) >= 2:
            estimate += 1.0
        if not held and len(trumps) >= 3:
            estimate += 3.0  # a void: side Aces and Threes led there fall to a trump
    return estimate


def _estimates(view: PlayerView, rank: Rank) -> list[tuple[float, Card]]:
    strength = view.rules.strength
    return sorted(
        (
            (auction_estimate(view.hand, suit, Card(rank, suit), strength), Card(rank, suit))
            for suit in Suit
        ),
        key=lambda pair: (-pair[0], pair[1].index),
    )


def choose_bid(view: PlayerView) -> Action:
    """Bid the least the hand supports beyond the current bid, else pass."""
    legal = view.legal
    bids = [a for a in legal if isinstance(a, Bid)]
    best: dict[Rank, float] = {}
    for bid in bids:
        if bid.rank not in best:
            best[bid.rank] = _estimates(view, bid.rank)[0][0]
        if best[bid.rank] >= bid.points + _BID_MARGIN:
            return bid
    if PASS in legal:
        return PASS
    return bids[0]  # everyone else passed: the last player must bid


def choose_call(view: PlayerView) -> Action:
    """Call the card of the won rank that makes the best trump suit."""
    calls = [a for a in view.legal if isinstance(a, Call)]
    ranked = _estimates(view, calls[0].card.rank)
    wanted = ranked[0][1]
    return next((a for a in calls if a.card == wanted), calls[0])


# ---------------------------------------------------------------------------- card play


class _Table:
    """One decision: who is on which side, what is still out, what the trick is worth."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        rules = view.rules
        self.n = rules.players
        self.me = view.seat
        self.trump = view.trump
        self.strength = rules.strength
        self.hand = [a.card for a in view.legal if isinstance(a, Play)]
        self.table = list(view.table)
        self.allies, self.foes = self._sides()
        seen = set(view.hand) | set(view.played_cards())
        self.out = [c for c in rules.deck if c not in seen]  # in other hands or the stock
        self.after = [(self.me + i) % self.n for i in range(1, self.n - len(self.table))]

    # -- sides

    def _sides(self) -> tuple[set[int], set[int]]:
        """Sure allies, and seats taken as opponents (the rest are unknown)."""
        view = self.view
        others = [s for s in range(self.n) if s != self.me]
        if not view.rules.chiamata:
            partners = set(view.rules.partners(self.me))
            return partners, {s for s in others if s not in partners}
        caller = view.caller
        partner = view.partner
        if caller is None:
            return set(), set(others)
        if partner is not None:  # this seat is the caller's side, or the partner is out
            calling = {caller, partner}
            if self.me in calling:
                allies = calling - {self.me}
                return allies, {s for s in others if s not in allies}
            return {s for s in others if s not in calling}, calling
        suspicion = self._suspicion(caller)
        if self.me == caller:
            likely = [s for s in others if suspicion[s] >= 2]
            guess = max(likely, key=lambda s: suspicion[s]) if likely else None
            allies = {guess} if guess is not None else set()
            return allies, {s for s in others if s not in allies and suspicion[s] <= -2}
        suspects = {s for s in others if s != caller and suspicion[s] >= 2}
        cleared = {s for s in others if s != caller and suspicion[s] <= -2}
        return cleared, {caller} | suspects

    def _suspicion(self, caller: int) -> list[int]:
        """Evidence that each seat is the caller's secret partner, from the tricks."""
        score = [0] * self.n
        for trick in self.view.tricks:
            cards = trick.cards
            for pos in range(1, len(cards)):
                seat = trick.seats[pos]
                lead = trick_winner(cards[:pos], self.trump, self.strength)
                if trick.seats[lead] != caller or seat == caller:
                    continue
                if trick_winner(cards[: pos + 1], self.trump, self.strength) == pos:
                    score[seat] -= 3 if sum(c.points for c in cards[:pos]) >= 4 else 1
                elif cards[pos].points >= 10:
                    score[seat] += 3
                elif cards[pos].points >= 3:
                    score[seat] += 1
        return score

    # -- card facts

    def _beats(self, card: Card, best: Card) -> bool:
        if card.suit is best.suit:
            return self.strength[card.rank] > self.strength[best.rank]
        return card.suit is self.trump

    def _threatened(self, card: Card, value: int) -> bool:
        """Could an opponent still to play take the trick from ``card``?"""
        if not any(s not in self.allies for s in self.after):
            return False
        for other in self.out:
            if other.suit is card.suit and self.strength[other.rank] > self.strength[card.rank]:
                return True
            if other.suit is self.trump and card.suit is not self.trump and value >= 4:
                return True
        return False

    def _master(self, card: Card) -> bool:
        """No card still out beats ``card`` led (and no trump is out to ruff it)."""
        return not any(self._beats(other, card) for other in self.out)

    def _cheapest(self, cards: Sequence[Card]) -> Card:
        """The card that costs least to give away: no points, not a trump, low."""
        keep = self._keep_called()
        return min(
            cards,
            key=lambda c: (
                c in keep,
                c.suit is self.trump,
                c.points,
                self.strength[c.rank],
                c.index,
            ),
        )

    def _keep_called(self) -> set[Card]:
        view = self.view
        if (
            view.rules.chiamata
            and view.called is not None
            and view.called in self.hand
            and view.caller != self.me
            and len(self.hand) > 2
        ):
            return {view.called}
        return set()

    # -- the decision

    def card(self) -> Card:
        if len(self.hand) == 1:
            return self.hand[0]
        if not self.table:
            return self._lead()
        return self._follow()

    def _lead(self) -> Card:
        hand = self.hand
        keep = self._keep_called()
        side = [c for c in hand if c.suit is not self.trump and c not in keep]
        for card in sorted(side, key=lambda c: (-c.points, c.index)):
            if card.points >= 10 and self._master(card):
                return card
        trumps = [c for c in hand if c.suit is self.trump and c not in keep]
        view = self.view
        if view.rules.chiamata and view.caller == self.me and len(trumps) >= 4:
            low = [c for c in trumps if c.points == 0]
            if low:
                return min(low, key=lambda c: self.strength[c.rank])
        lisci = [c for c in side if c.points == 0]
        if lisci:
            length = {s: sum(1 for c in hand if c.suit is s) for s in Suit}
            return min(lisci, key=lambda c: (-length[c.suit], self.strength[c.rank], c.index))
        low_trumps = [c for c in trumps if c.points == 0]
        if low_trumps and all(c.points >= 3 for c in side):
            return min(low_trumps, key=lambda c: self.strength[c.rank])
        return self._cheapest(hand)

    def _follow(self) -> Card:
        cards = [c for _, c in self.table]
        seats = [s for s, _ in self.table]
        best_i = trick_winner(cards, self.trump, self.strength)
        best = cards[best_i]
        value = sum(c.points for c in cards)
        if seats[best_i] in self.allies:
            if not self._threatened(best, value):
                return self._load()
            covers = [
                c
                for c in self.hand
                if c.suit is not self.trump
                and self._beats(c, best)
                and not self._threatened(c, value + c.points)
            ]
            if covers:  # take over from the partner with a card nobody can beat
                return max(covers, key=lambda c: (c.points, c.index))
            return self._cheapest(self.hand)
        take = self._take(best, value)
        return take if take is not None else self._cheapest(self.hand)

    def _load(self) -> Card:
        keep = self._keep_called()
        side = [c for c in self.hand if c.suit is not self.trump and c not in keep]
        if side:
            return max(side, key=lambda c: (c.points, -self.strength[c.rank], -c.index))
        return self._cheapest(self.hand)

    def _take(self, best: Card, value: int) -> Card | None:
        keep = self._keep_called()
        called = self.view.called if keep else None
        options: list[tuple[int, Card]] = []
        for card in self.hand:
            if not self._beats(card, best):
                continue
            gain = value + card.points
            safe = not self._threatened(card, gain)
            if card == called:
                if gain >= 10 and safe:
                    options.append((0, card))
                continue
            if card.suit is not self.trump:  # a higher card of the suit led
                if safe or (value >= 10 and card.points <= 4):
                    # The more points it banks the better, when nobody can overtake it.
                    options.append((1 if safe else 2, card))
            else:
                if card.points == 0 and (value >= 4 or (value >= 2 and not self.view.stock_size)):
                    options.append((3 if safe else 5, card))
                elif card.points < 10 and value >= 10:
                    options.append((4 if safe else 6, card))
                elif value >= 20 or (value >= 10 and safe):
                    options.append((7, card))
        if not options:
            return None
        rank = min(tier for tier, _ in options)
        tier_cards = [card for tier, card in options if tier == rank]
        if rank in (0, 1):
            return max(tier_cards, key=lambda c: (c.points, c.index))
        return min(tier_cards, key=lambda c: (self.strength[c.rank], c.points, c.index))
