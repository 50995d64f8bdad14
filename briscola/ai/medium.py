"""The rule players: ``medium`` (a strong club player's rules of thumb) and ``easy`` (the
same rules with human-looking slips).

Medium scores every legal card by the points it expects the trick to move to its side,
minus what the card is still worth in hand ("keep" value: trumps, Aces and Threes are saved
for tricks worth them), plus a few situational terms:

* card counting: which cards are still outstanding, and how likely each seat after it is to
  hold a card that takes the trick (exact once every card is located);
* carico: on a trick its side is winning safely, it loads points;
* it does not spend a trump on a trick worth 2 points or less;
* the last draw of the stock: with two players (or alternating teams) the loser of the trick
  takes the face-up briscola, so a valuable briscola makes losing a poor trick attractive;
* teams and Chiamata: partners (known or inferred) count as its side; a secret partner keeps
  the called card back while it is not needed;
* partner signals (rule option ``signals``): card counting takes a partner's claims as known
  (:class:`~briscola.ai.knowledge.Knowledge`), and a partner's request in this trick weighs
  in (:func:`direction_value`): "let it go" costs a trump that would take a cheap trick,
  "take it" favours a card that takes the trick from the opponents.

The Chiamata auction and call come from :mod:`briscola.ai.bidding`.
"""

from __future__ import annotations

import random
from typing import Final

from briscola.ai.bidding import choose_bid, choose_call
from briscola.ai.heuristic import (
    ACE_KEEP,
    BOSS_TRUMP_SHARE,
    CARELESS_TRUMP_SHARE,
    RICH_SUIT_KEEP,
    SECRET_PARTNER_COST,
    SIDE_KEEP_PER_STRENGTH,
    TIE_INDEX,
    TIE_STRENGTH,
    TRUMP_KEEP,
    TRUMP_WORTH,
    briscola_draw_value,
    scoperta_top_value,
)
from briscola.ai.knowledge import Knowledge, beats, table_winner
from briscola.ai.signals import partner_direction
from briscola.engine import PASS, Action, Bid, Call, Card, Pass, Play, PlayerView, Swap

__all__ = ["EasyBot", "MediumBot", "direction_value", "medium_action"]

#: "Let it go": what a trump that would take a trick worth less than this costs ...
LEAVE_CHEAP: Final = 10
#: ... in expected points (more than a trump's keep value, so that a cheaper card wins).
LEAVE_COST: Final = 12.0
#: "Take it": what a card that takes the trick from the opponents gains (the partner's load).
TAKE_BONUS: Final = 10.0


def keep_value(card: Card, kn: Knowledge, careless: bool = False) -> float:
    """What ``card`` is still worth in hand, beyond its own points."""
    seen = kn.view
    if len(seen.hand) <= 1:
        return 0.0
    strength = kn.strength[card.rank]
    if card.suit is kn.trump:
        value = TRUMP_KEEP[strength]
        if careless:
            value *= CARELESS_TRUMP_SHARE
        elif card.points and kn.is_boss(card):
            # An unbeatable trump banks its own points whenever it is played.
            value += BOSS_TRUMP_SHARE * card.points
        return value
    value = SIDE_KEEP_PER_STRENGTH * strength
    if card.points >= 10 and not careless:
        # An Ace (or a Three whose Ace is gone) captures the suit's other big cards.
        outstanding = kn.outstanding()
        higher = [c for c in outstanding if c.suit is card.suit and kn.strength[c.rank] > strength]
        if not higher:
            rich = [c for c in outstanding if c.suit is card.suit and c.points >= 10]
            value += ACE_KEEP + (RICH_SUIT_KEEP if rich else 0.0)
    return value


def _usable_beaters(kn: Knowledge, best: Card, pts: int, pool: frozenset[Card]) -> list[Card]:
    """Cards of ``pool`` an opponent would play to take a trick worth ``pts`` whose best card
    is ``best``: a higher card of the same suit always; a trump only for 3 points or more."""
    trump, strength = kn.trump, kn.strength
    out = []
    for c in pool:
        if c.suit is best.suit:
            if strength[c.rank] > strength[best.rank] and (
                c.suit is not trump or pts >= TRUMP_WORTH
            ):
                out.append(c)
        elif c.suit is trump and pts >= TRUMP_WORTH:
            out.append(c)
    return out


def _seat_pool(kn: Knowledge, seat: int) -> frozenset[Card]:
    return kn.unseen | kn.known[seat]


def evaluate_play(card: Card, kn: Knowledge, careless: bool = False) -> float:
    """Expected side points of playing ``card`` now, minus its keep value."""
    seen = kn.view
    rules = kn.rules
    n = rules.players
    me = seen.seat
    trump, strength = kn.trump, kn.strength
    table = seen.table
    pts = sum(c.points for _, c in table) + card.points
    if table:
        best_seat, best = table_winner(table, trump, strength)
        if beats(best, card, trump, strength):
            best_seat, best = me, card
        leader = table[0][0]
    else:
        best_seat, best = me, card
        leader = me
    position = len(table)
    after = [(leader + i) % n for i in range(position + 1, n)]
    mates = kn.mates
    mine = mates[best_seat]
    # Threats from later seats against the current best card.
    hold_opp = 1.0
    rescue = 1.0
    extra = 0.0
    for seat in after:
        pool = _seat_pool(kn, seat)
        usable = _usable_beaters(kn, best, pts, pool)
        if not usable:
            continue
        q = kn.p_holds_any(seat, usable)
        hold_opp *= 1.0 - q * (1.0 - mates[seat])
        rescue *= 1.0 - q * mates[seat]
        extra = max(extra, sum(c.points for c in usable) / len(usable))
    p = mine * hold_opp + (1.0 - mine) * (1.0 - rescue)
    if not after:
        p = mine
    value = p * pts - (1.0 - p) * (pts + extra * (1.0 - hold_opp))
    value -= keep_value(card, kn, careless)
    value += _draw_adjustment(kn, p)
    if (
        rules.chiamata
        and seen.called is card
        and not seen.partner_revealed
        and seen.caller != me
        and len(seen.hand) > 2
    ):
        # The secret partner does not give itself away for a trifle.
        value -= SECRET_PARTNER_COST
    return value


def direction_value(card: Card, kn: Knowledge, direction: str | None) -> float:
    """What a partner's request in this trick (:func:`briscola.ai.signals.partner_direction`)
    adds to playing ``card``: "leave" (let it go) takes :data:`LEAVE_COST` from a trump that
    would take a trick with under :data:`LEAVE_CHEAP` points on the table; "take" gives
    :data:`TAKE_BONUS` to a card that takes a trick the opponents are winning. Nothing
    without a request, or when leading."""
    if direction is None:
        return 0.0
    seen = kn.view
    table = seen.table
    takes = True
    opponents_win = True
    if table:
        best_seat, best = table_winner(table, kn.trump, kn.strength)
        takes = beats(best, card, kn.trump, kn.strength)
        opponents_win = kn.mates[best_seat] < 0.5
    if direction == "leave":
        cheap = sum(c.points for _, c in table) < LEAVE_CHEAP
        spends = card.suit is kn.trump and takes and bool(table)
        return -LEAVE_COST if spends and cheap else 0.0
    if direction == "take" and takes and opponents_win and table:
        return TAKE_BONUS
    return 0.0


def _draw_adjustment(kn: Knowledge, p_win: float) -> float:
    """Value of what this trick's winner and loser draw at the end of the stock."""
    seen = kn.view
    rules = kn.rules
    n = rules.players
    if not seen.stock_size or seen.briscola is None or not rules.sides:
        return 0.0
    alternating = n == 2 or rules.teams
    if not alternating:
        return 0.0
    if seen.briscola_in_stock and seen.stock_size == n:
        # The trick's loser side takes the face-up briscola; the winner a hidden card.
        brisc = seen.briscola
        bval = briscola_draw_value(kn.strength[brisc.rank], brisc.points)
        return (1.0 - 2.0 * p_win) * max(0.0, bval)
    if seen.stock_top is not None:
        top = seen.stock_top
        return (2.0 * p_win - 1.0) * scoperta_top_value(top.points, top.suit is seen.trump)
    return 0.0


def medium_action(seen: PlayerView, careless: bool = False, counting: bool = True) -> Action:
    """Medium's choice (easy passes ``careless``/``counting`` to blur it)."""
    legal = seen.legal
    if not legal:
        raise ValueError("no legal action: it is not this seat's turn")
    if len(legal) == 1:
        return legal[0]
    if seen.phase == "auction":
        return choose_bid(seen)
    if seen.phase == "call":
        return choose_call(seen)
    for action in legal:
        if isinstance(action, Swap):
            return action
    kn = Knowledge.of(seen, counting=counting)
    direction = partner_direction(seen) if counting else None
    best_action: Action = legal[0]
    best_value = float("-inf")
    for action in legal:
        if not isinstance(action, Play):
            continue
        value = evaluate_play(action.card, kn, careless)
        value += direction_value(action.card, kn, direction)
        # Deterministic tie-break: the weaker, lower card.
        value -= TIE_STRENGTH * kn.strength[action.card.rank] + TIE_INDEX * action.card.index
        if value > best_value:
            best_value, best_action = value, action
    return best_action


class MediumBot:
    """A strong rule player (see the module docstring). Deterministic; the rng is unused."""

    def __init__(self, rng: random.Random | None = None, time_limit: float | None = None) -> None:
        self.name = "medium"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Action:
        return medium_action(view)


class EasyBot:
    """A casual beginner: medium's rules, but it forgets which cards were played, values its
    trumps and Aces lightly, and now and then makes a typical slip (a high card on a worthless
    trick, a trump wasted on a poor one, a random card): often in the first tricks, less as
    the cards thin out and the choice gets plainer, as a beginner's play firms up."""

    #: Chance of a slip on the first card play of a hand, and on the last one with a choice;
    #: in between it falls with the share of the deck already played (:meth:`slip_chance`).
    SLIP_FIRST = 0.4
    SLIP_LAST = 0.15

    def __init__(self, rng: random.Random | None = None, time_limit: float | None = None) -> None:
        self.name = "easy"
        self.rng = rng or random.Random(0)
        self.time_limit = time_limit

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        rng = self.rng
        roll = rng.random()
        if view.phase == "auction":
            choice = medium_action(view)
            if isinstance(choice, Bid) and roll < 0.3:
                return PASS if PASS in legal else choice
            if isinstance(choice, Pass) and roll < 0.1:
                bids = [a for a in legal if isinstance(a, Bid)]
                return bids[0] if bids else choice
            return choice
        if view.phase == "call":
            calls = [a for a in legal if isinstance(a, Call)]
            return rng.choice(calls) if roll < 0.3 else medium_action(view)
        plays = [a for a in legal if isinstance(a, Play)]
        swaps = [a for a in legal if isinstance(a, Swap)]
        if swaps and roll < 0.5:
            return swaps[0]  # half the time it does not notice it may swap
        if len(plays) > 1 and roll < self.slip_chance(view):
            return self._slip(view, plays, rng)
        choice = medium_action(view, careless=True, counting=False)
        if isinstance(choice, Swap):
            return rng.choice(plays)
        return choice

    @classmethod
    def slip_chance(cls, view: PlayerView) -> float:
        """The chance of a slip on this card play: :attr:`SLIP_FIRST` on a full deck, falling
        in step with the cards played to :attr:`SLIP_LAST` when none is left to play."""
        played = sum(view.pile_sizes) + len(view.table)
        deck = played + sum(view.hand_sizes) + view.stock_size
        share = played / deck if deck else 1.0
        return cls.SLIP_FIRST + (cls.SLIP_LAST - cls.SLIP_FIRST) * share

    @staticmethod
    def _slip(view: PlayerView, plays: list[Play], rng: random.Random) -> Action:
        cards: list[Card] = [a.card for a in plays]
        kind = rng.random()
        if kind < 0.4:
            # A high card thrown on a trick that is worth nothing.
            pick = max(cards, key=lambda c: (c.points, view.rules.strength[c.rank], c.index))
        elif kind < 0.7 and view.trump is not None:
            trumps = [c for c in cards if c.suit is view.trump]
            pick = rng.choice(trumps) if trumps else rng.choice(cards)
        else:
            pick = rng.choice(cards)
        return Play(pick)
