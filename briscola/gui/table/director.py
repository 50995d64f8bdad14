"""The director: engine events become a queue of animation steps.

Each event the shown seat may see (from the session) becomes one or more *steps*: a step
changes the board's zones, starts tweens, sets captions (speech bubbles, the banner) and
plays a sound, and returns how many seconds to wait before the next step. The queue runs in
:meth:`Director.update`; :attr:`Director.busy` says whether anything is still to be shown
and :meth:`Director.skip` shows it all at once. Every duration is in :data:`TIMINGS`,
scaled by the player's animation speed.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from briscola.engine import (
    Auction,
    Bid,
    BriscolaTurned,
    Called,
    Dealt,
    Drew,
    Event,
    HandOver,
    HandStarted,
    PartnerRevealed,
    Played,
    Signalled,
    Swapped,
    Trick,
    TrickWon,
)
from briscola.game.session import SessionView, is_player
from briscola.game.summary import HandSummary
from briscola.gui.render.sprites import CardSprite
from briscola.gui.render.tween import ease_in_out_cubic, ease_out_cubic
from briscola.gui.table.board import Board
from briscola.text.i18n import _
from briscola.text.labels import bid_label, means_you, trick_taken
from briscola.text.names import card_the, suit_name

if TYPE_CHECKING:
    from briscola.gui.scene import Services
    from briscola.storage.settings import Settings

Step = Callable[[], float]
Text = Callable[[], str]

#: Seconds a bid's bubble stays: the whole auction (the call clears them).
AUCTION_BUBBLE = 3600.0

#: Seconds at normal speed. Moves: how long a card flies; waits: the pause before the
#: next step; captions: how long a bubble or the banner stays.
TIMINGS = {
    "shuffle": 0.9,
    "after shuffle": 0.1,
    "deal move": 0.32,
    "deal wait": 0.09,
    "turn move": 0.5,
    "turn wait": 0.6,
    "trump banner": 2.2,
    "stock move": 0.4,
    "bid wait": 0.55,
    "call move": 0.6,
    "call wait": 1.0,
    "call bubble": 2.5,
    "call bubble min": 1.5,
    "call banner": 3.0,
    "swap move": 0.5,
    "swap wait": 0.7,
    "swap banner": 2.5,
    "play move": 0.34,
    "play wait": 0.36,
    "partner wait": 0.5,
    "partner banner": 2.5,
    "partner bubble": 2.0,
    "signal bubble": 4.0,
    "signal wait": 0.3,
    "trick pause": 0.95,
    "trick pause min": 0.25,
    "hot-seat trick": 2.2,
    "hot-seat trick min": 1.2,
    "collect": 0.45,
    "draw move": 0.32,
    "draw wait": 0.14,
    "hand over": 0.4,
    "known": 0.25,
    "after move": 0.35,
    "settle": 0.25,
    "hint banner": 2.5,
    "deck banner": 1.6,
    "demo result": 2.5,
    "demo result min": 0.5,
}


def scaled(settings: Settings, seconds: float) -> float:
    """``seconds`` of animation at the player's speed (reduce motion: never slower than
    six tenths of it)."""
    factor = settings.speed_factor
    if settings.reduce_motion:
        factor = min(factor, 0.6)
    return seconds * factor


@dataclass
class Captions:
    """Speech bubbles by seat and the banner: their text is made when drawn (the language
    or the deck may change while they show), each with the time it goes."""

    bubbles: dict[int, tuple[Text, float]] = field(default_factory=dict)
    #: Partner signals by seat (a face beside the name, :mod:`briscola.gui.table.signals`).
    signals: dict[int, tuple[str, float]] = field(default_factory=dict)
    banner: tuple[Text, float] | None = None
    #: The auction as far as shown: (seat, bid or None for a pass), in order.
    bids: list[tuple[int, Bid | None]] = field(default_factory=list)
    #: Seconds since the table opened (the clock of ``until`` times).
    t: float = 0.0

    def bubble(self, seat: int, text: Text, seconds: float) -> None:
        self.bubbles[seat] = (text, self.t + seconds)

    def announce(self, text: Text, seconds: float) -> None:
        self.banner = (text, self.t + seconds)

    def tick(self, dt: float) -> None:
        self.t += dt
        self.bubbles = {s: b for s, b in self.bubbles.items() if b[1] > self.t}
        self.signals = {s: b for s, b in self.signals.items() if b[1] > self.t}
        if self.banner and self.banner[1] <= self.t:
            self.banner = None

    def ends(self) -> list[float]:
        """When each caption showing goes."""
        ends = [until for _text, until in (*self.bubbles.values(), *self.signals.values())]
        if self.banner is not None:
            ends.append(self.banner[1])
        return ends


class Director:
    """Turns the session's events into steps on ``board`` and ``captions``."""

    def __init__(
        self, app: Services, session: SessionView, board: Board, captions: Captions
    ) -> None:
        self.app = app
        self.session = session
        self.board = board
        self.captions = captions
        self.steps: deque[Step] = deque()
        self.wait = 0.0
        #: Counters for the --demo summary line.
        self.tricks_played = 0

    # ------------------------------------------------------------------ queue

    def f(self, name: str) -> float:
        """The duration ``name`` of :data:`TIMINGS`, scaled by the speed setting."""
        return self.scaled(TIMINGS[name])

    def scaled(self, seconds: float) -> float:
        return scaled(self.app.settings, seconds)

    @property
    def busy(self) -> bool:
        """Animations are running or queued: no new move yet."""
        return bool(self.steps) or self.wait > 0 or self.board.tweener.busy

    def update(self, dt: float) -> None:
        self.board.tweener.update(dt)
        if self.wait > 0:
            self.wait -= dt
        while self.wait <= 0 and self.steps:
            self.wait += self.steps.popleft()()

    def skip(self) -> None:
        """Finish the running animations at once."""
        tweener = self.board.tweener
        for _i in range(500):
            tweener.finish_all()
            self.wait = 0
            if not self.steps:
                break
            self.wait += self.steps.popleft()()
        tweener.finish_all()
        self.wait = 0

    def clear(self) -> None:
        """Forget what was queued (the board is about to be rebuilt)."""
        self.board.tweener.finish_all()
        self.steps.clear()
        self.wait = 0.0

    def then(self, step: Step) -> None:
        """Queue ``step`` after what is queued."""
        self.steps.append(step)

    def show(self, events: list[Event]) -> None:
        """Queue the steps of ``events``, then a look at what the shown seat knows."""
        for event in events:
            self.enqueue(event)
        if any(isinstance(event, HandStarted) for event in events):
            self.steps.append(self._step_stock_from_deck)
        if events:
            self.steps.append(self._step_known)

    def enqueue(self, event: Event) -> None:
        steps = self.steps
        match event:
            case HandStarted():
                steps.append(lambda: self._step_shuffle(event))
            case Dealt():
                steps.append(lambda: self._step_deal(event))
            case BriscolaTurned():
                steps.append(lambda: self._step_turn(event))
            case Auction():
                steps.append(lambda: self._step_auction(event))
            case Called():
                steps.append(lambda: self._step_called(event))
            case Swapped():
                steps.append(lambda: self._step_swap(event))
            case Played():
                steps.append(lambda: self._step_play(event))
            case PartnerRevealed():
                steps.append(lambda: self._step_partner(event))
            case Signalled(seat=seat, kind=kind):
                steps.append(lambda: self._step_signal(seat, kind))
            case TrickWon(trick=trick):
                steps.append(lambda: self._step_trick_pause(trick))
                steps.append(lambda: self._step_collect(trick))
            case Drew():
                steps.append(lambda: self._step_draw(event))
            case HandOver():
                steps.append(lambda: self.f("hand over"))
            case _:
                pass

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def hand_sound(summary: HandSummary) -> str:
        """The sound of a hand's end: a win or a loss for the player at the screen."""
        result = summary.result
        if result.winner is None:
            return "draw"
        if summary.viewer is not None:
            return "win" if result.returns[summary.viewer] > 0 else "lose"
        return "win"

    @property
    def style(self) -> str:
        return self.app.settings.deck_style

    def _name(self, seat: int) -> str:
        return self.session.seats[seat].name

    def is_player(self, seat: int) -> bool:
        return is_player(self.session, seat)

    # ------------------------------------------------------------------ steps

    def _step_shuffle(self, event: HandStarted) -> float:
        board = self.board
        board.clear()
        self.captions.bids.clear()
        board.dealer = event.dealer
        origin = board.layout.deal_origin(board.screen_index(event.dealer))
        w = board.layout.stock_w
        board.deck = [CardSprite(None, origin[0], origin[1], w) for _i in range(event.deck_size)]
        board.settle(0)
        self.app.audio.play("shuffle")
        duration = self.f("shuffle")
        if duration > 0 and not self.app.settings.reduce_motion:
            self._riffle(duration)
        return duration + self.f("after shuffle")

    def _riffle(self, duration: float) -> None:
        """The two halves of the deck part and interleave twice."""
        deck = self.board.deck
        tween = self.board.tweener
        half = len(deck) // 2
        w = self.board.layout.stock_w
        for i, sprite in enumerate(deck):
            side = -1 if i < half else 1
            dx = side * w * 0.7
            x = sprite.x
            tween(sprite, duration * 0.25, x=x + dx, angle=side * 8.0, easing=ease_out_cubic)
            delay = duration * 0.3 + (i % 7) * 0.01
            tween(sprite, duration * 0.25, delay=delay, x=x, angle=0.0, easing=ease_in_out_cubic)
            tween(
                sprite, duration * 0.2, delay=duration * 0.6, x=x + dx * 0.6, easing=ease_out_cubic
            )
            tween(sprite, duration * 0.2, delay=duration * 0.8, x=x, easing=ease_in_out_cubic)

    def _step_deal(self, event: Dealt) -> float:
        board = self.board
        if not board.deck:
            return 0.0
        sprite = board.deck.pop(0)
        sprite.card = event.card
        board.add_to_hand(event.seat, sprite)
        board.settle(self.f("deal move"), moving=sprite)
        self.app.audio.play("deal", 0.6)
        return self.f("deal wait")

    def _step_turn(self, event: BriscolaTurned) -> float:
        board = self.board
        sprite = board.deck.pop(0) if board.deck else CardSprite()
        sprite.card = event.card
        board.briscola = sprite
        board.shown_trump = event.card.suit
        board.stock = board.deck
        board.deck = []
        board.settle(self.f("turn move"), moving=sprite)
        self.app.audio.play("play", 0.7)
        suit = event.card.suit
        self.captions.announce(
            lambda: _("Trump: {suit}").format(suit=suit_name(suit, self.style)),
            TIMINGS["trump banner"],
        )
        return self.f("turn wait")

    def _step_stock_from_deck(self) -> float:
        """After the deal without a turned briscola (Briscolone): the rest is the stock."""
        board = self.board
        if board.deck:
            board.stock = board.deck + board.stock
            board.deck = []
            board.settle(self.f("stock move"), moving=list(board.stock))
            return self.f("stock move")
        return 0.0

    def _step_auction(self, event: Auction) -> float:
        bid = event.bid
        text: Text = (
            functools.partial(_, "Pass")
            if bid is None
            else functools.partial(lambda b: bid_label(b, self.style), bid)
        )
        self.captions.bubble(event.seat, text, AUCTION_BUBBLE)
        self.captions.bids.append((event.seat, bid))
        self.app.audio.play("click", 0.5)
        return self.f("bid wait")

    def _step_called(self, event: Called) -> float:
        name = self._name(event.seat)
        card = event.card
        mine = self.is_player(event.seat)
        self.captions.bubbles.clear()  # the auction's bids and passes
        self.captions.bids.clear()
        self.captions.bubble(
            event.seat,
            lambda: _("I call {card}").format(card=card_the(card, self.style)),
            max(TIMINGS["call bubble min"], self.f("call bubble")),
        )
        self.captions.announce(
            lambda: (
                _("You call {card}: {suit} are trump")
                if mine
                else _("{name} calls {card}: {suit} are trump")
            ).format(
                name=name,
                card=card_the(card, self.style),
                suit=suit_name(card.suit, self.style),
            ),
            TIMINGS["call banner"],
        )
        board = self.board
        board.shown_trump = event.card.suit
        if board.keep_sorted:
            board.sort_hand()  # the trumps, now known, to the right
        board.briscola = CardSprite(event.card, *board.layout.centre, w=board.layout.stock_w)
        board.settle(self.f("call move"), moving=board.briscola)
        self._step_known()
        return self.f("call wait")

    def _step_swap(self, event: Swapped) -> float:
        board = self.board
        hand = board.hands[event.seat]
        sprite = next((s for s in hand if s.card == event.gave), None)
        if sprite is None:
            sprite = hand[-1] if hand else CardSprite()
            if sprite in hand:
                hand.remove(sprite)
        else:
            hand.remove(sprite)
        sprite.card = event.gave
        old = board.briscola
        if old is not None:
            old.card = event.took
            hand.append(old)
        board.briscola = sprite
        board.settle(self.f("swap move"), moving=sprite)
        self.app.audio.play("swap")
        name = self._name(event.seat)
        gave, took = event.gave, event.took
        mine = self.is_player(event.seat)
        self.captions.announce(
            lambda: (
                _("You swap {gave} for {took}") if mine else _("{name} swaps {gave} for {took}")
            ).format(
                name=name,
                gave=card_the(gave, self.style),
                took=card_the(took, self.style),
            ),
            TIMINGS["swap banner"],
        )
        return self.f("swap wait")

    def _step_play(self, event: Played) -> float:
        board = self.board
        sprite = board.take_from_hand(event.seat, event.card)
        sprite.lift = 0.0
        sprite.dim = False
        sprite.glow = None
        board.table.append((event.seat, sprite))
        board.settle(self.f("play move"), moving=sprite)
        self.app.audio.play("play")
        return self.f("play wait")

    def _step_partner(self, event: PartnerRevealed) -> float:
        self.board.revealed_partner = event.seat
        name = self._name(event.seat)
        alone = event.alone
        mine = self.is_player(event.seat)
        self.captions.announce(
            lambda: (
                (_("You play alone!") if mine else _("{name} plays alone!"))
                if alone
                else (_("You are the partner!") if mine else _("{name} is the partner!"))
            ).format(name=name),
            TIMINGS["partner banner"],
        )
        self.captions.bubble(
            event.seat, lambda: _("Alone!") if alone else _("Partner!"), TIMINGS["partner bubble"]
        )
        return self.f("partner wait")

    def _step_signal(self, seat: int, kind: str) -> float:
        """A partner signal: its face beside the signaller's name for a few seconds."""
        self.captions.signals[seat] = (kind, self.captions.t + TIMINGS["signal bubble"])
        self.app.audio.play("deal", 0.3)
        return self.f("signal wait")

    def hot_seat(self) -> bool:
        """More than one person plays at this screen."""
        session = self.session
        return sum(session.plays_here(s) for s in range(len(session.seats))) > 1

    def _step_trick_pause(self, trick: Trick) -> float:
        for seat, sprite in self.board.table:
            if seat == trick.winner:
                sprite.glow = self.app.theme.accent
        instant = self.scaled(1) <= 0
        if self.hot_seat():
            # Hot seat: the player who moved sees the trick, and who took it, before the
            # screen is covered for the next player.
            name, points = self._name(trick.winner), trick.points
            pause = 0.0 if instant else max(self.f("hot-seat trick"), TIMINGS["hot-seat trick min"])
            self.captions.announce(
                lambda: trick_taken(name, points, means_you(name)), pause + self.f("collect")
            )
            return pause
        least = TIMINGS["trick pause min"] if not instant else 0.0
        return max(self.f("trick pause"), least)

    def _step_collect(self, trick: Trick) -> float:
        board = self.board
        self.tricks_played += 1
        pile = board.piles.setdefault(board.pile_key(trick.winner), [])
        for _seat, sprite in board.table:
            sprite.glow = None
            pile.append(sprite)
        moving = [sprite for _seat, sprite in board.table]
        board.table = []
        board.settle(self.f("collect"), moving=moving)
        self.app.audio.play("collect", 0.8)
        return self.f("collect")

    def _step_draw(self, event: Drew) -> float:
        board = self.board
        if board.stock:
            sprite = board.stock.pop(0)
        elif board.briscola is not None and board.rules.turned_briscola:
            sprite, board.briscola = board.briscola, None
        else:
            sprite = CardSprite()
        if event.card is not None:
            sprite.card = event.card
        elif sprite is not board.briscola:
            sprite.card = None if not event.face_up else sprite.card
        board.add_to_hand(event.seat, sprite)
        board.settle(self.f("draw move"), moving=sprite)
        self.app.audio.play("deal", 0.5)
        return self.f("draw wait")

    def _step_known(self) -> float:
        """Give identities to cards the viewer may see in partners' hands and the scoperta
        top (the session's view says which)."""
        board = self.board
        if board.viewer is None or self.session.shown_seat != board.viewer:
            return 0.0
        board.learn(self.session.view())
        board.settle(self.f("known"))
        return 0.0
