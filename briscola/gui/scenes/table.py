"""The table: the game itself, animated.

Data flows one way. The scene holds the engine's :class:`GameState` and :class:`Match`, but
draws only what the viewing seat may know: engine events are taken through
:meth:`GameState.events_for` (cards hidden from the viewer arrive as ``None``) and turned
into animation steps that move :class:`CardSprite` objects between zones (deck, hands,
stock, briscola, trick, piles). Input becomes engine actions; bots get a
:class:`PlayerView` on a worker thread, so the window never freezes.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import pygame

from ...ai import hint, make_bot
from ...ai.base import Bot
from ...engine import (
    PASS,
    Action,
    Auction,
    Bid,
    BriscolaTurned,
    Call,
    Called,
    Card,
    Dealt,
    Drew,
    Event,
    GameState,
    HandOver,
    HandStarted,
    Match,
    PartnerRevealed,
    Play,
    Played,
    PlayerView,
    Rank,
    Suit,
    Swap,
    Swapped,
    Trick,
    TrickWon,
    view,
)
from .. import autosave
from ..assets import CARD_RATIO
from ..i18n import _, current_language, pgettext
from ..names import card_the, rank_name, suit_name
from ..scene import Scene
from ..setup import GameSetup
from ..sprites import CardRenderer, CardSprite
from ..summary import HandSummary
from ..tablelayout import TableLayout
from ..tween import Tween, Tweener, ease_in_out_cubic, ease_out_cubic
from ..widgets import Button, WidgetGroup, draw_focus, draw_panel, fit_text, rounded

if TYPE_CHECKING:
    from ..app import App

log = logging.getLogger(__name__)

Step = Callable[[], float]
TEAM_COLOURS = ((86, 156, 236), (232, 112, 86))
SEAT_COLOURS = (
    (86, 156, 236),
    (232, 112, 86),
    (120, 200, 120),
    (220, 180, 70),
    (190, 120, 220),
    (90, 200, 200),
)
BOT_TIME = {"easy": 0.3, "medium": 0.3, "hard": 0.8}
DRAG_THRESHOLD = 8


@functools.lru_cache(maxsize=8)
def _ring(radius: int) -> pygame.Surface:
    """The faint ring that marks the trick area."""
    ring = pygame.Surface((radius * 2 + 4, radius * 2 + 4), pygame.SRCALPHA)
    pygame.draw.ellipse(ring, (255, 255, 255, 18), ring.get_rect(), width=2)
    return ring


class TableScene(Scene):
    """Plays a match of ``setup`` (any configuration, any mix of humans and computers)."""

    def __init__(
        self,
        app: App,
        setup: GameSetup,
        demo: bool = False,
        match: Match | None = None,
        state: GameState | None = None,
    ) -> None:
        super().__init__(app)
        self.setup = setup
        self.rules = setup.rules
        self.demo = demo
        self.n = self.rules.players
        self.rng = random.Random(setup.seed) if setup.seed is not None else random.Random()
        self.match = match or Match(self.rules, first_dealer=self.n - 1)
        self.state: GameState | None = state
        self.bots: dict[int, Bot] = {}
        for seat, config in enumerate(setup.seats):
            if demo or not config.human:
                level = config.level
                # Turbo runs (tests, smoke runs) give the search bots less time to think.
                limit = BOT_TIME.get(level, 0.5) * (0.25 if app.options.turbo else 1.0)
                self.bots[seat] = make_bot(
                    level, random.Random(self.rng.random()), time_limit=limit
                )
        self.humans = [s for s in range(self.n) if s not in self.bots]
        self.future: Future[tuple[Action, Bot]] | None = None
        self.future_seat = -1
        self.think_start = 0.0
        self.pace = 0.0  # seconds before the next computer move may start
        # What is drawn: the viewer's seat is at the bottom of the screen.
        self.viewer: int | None = self._initial_viewer()
        self.anchor = self.viewer if self.viewer is not None else 0
        self.layout = TableLayout(
            app.size, self.n, app.settings.ui_scale, self.rules.stock_size > 0
        )
        self.renderer = CardRenderer(app.assets)
        self.tweener = Tweener()
        self.steps: deque[Step] = deque()
        self.wait = 0.0
        self.event_index = 0
        # Sprite zones
        self.deck: list[CardSprite] = []
        self.hands: list[list[CardSprite]] = [[] for _s in range(self.n)]
        self.stock: list[CardSprite] = []  # top first
        self.briscola: CardSprite | None = None
        #: The trump suit as far as the animations have shown it.
        self.shown_trump: Suit | None = None
        self.table: list[tuple[int, CardSprite]] = []
        self.piles: dict[int, list[CardSprite]] = {}
        # Interaction
        self.selected = 0
        self.keyboard = False
        self.hover: CardSprite | None = None
        self.press: tuple[CardSprite, tuple[int, int], tuple[float, float]] | None = None
        self.dragging = False
        self.hint_card: Card | None = None
        self.show_last = False
        self.privacy: int | None = None  # hot-seat: covered, waiting for this seat
        #: Speech bubbles and the banner: their text is made when drawn (the language or the
        #: deck may change while they show).
        self.bubbles: dict[int, tuple[Callable[[], str], float]] = {}
        self.banner: tuple[Callable[[], str], float] | None = None
        self.revealed_partner: int | None = None
        self.hand_done = False
        self.summary: HandSummary | None = None
        self.bid_points = 62
        self.t = 0.0
        #: Counters for the --demo summary line.
        self.tricks_played = 0
        self.hands_played = 0
        self._warm: list[Card] = []
        self.hud = WidgetGroup()
        self.menu_button = self.hud.add(Button(lambda: _("Menu"), self.pause, name="menu"))
        self.last_button = self.hud.add(
            Button(lambda: _("Last trick"), self.toggle_last, name="last")
        )
        self.hint_button = self.hud.add(Button(lambda: _("Hint"), self.show_hint, name="hint"))
        self.deck_button = self.hud.add(Button(lambda: _("Deck"), self.switch_deck, name="deck"))
        self.swap_button = self.hud.add(Button(lambda: _("Swap"), self.swap, name="swap"))
        self.controls = WidgetGroup()  # auction and call
        self._controls_key = ""  # which auction/call turn the controls were made for
        self._still: pygame.Surface | None = None
        self._still_key: object = None
        self._pending_key: object = None
        self._configure_renderer()

    # ------------------------------------------------------------------ setup

    @classmethod
    def from_autosave(cls, app: App) -> TableScene | None:
        saved, notice = autosave.load()
        if notice:
            app.notify(_(notice))
        if saved is None:
            return None
        return cls(app, saved.setup, match=saved.match, state=saved.state)

    def _initial_viewer(self) -> int | None:
        if self.demo or not self.humans:
            return 0
        return self.humans[0]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    def px(self, value: float) -> int:
        """A design size (for a 720 px high window) in pixels. The UI scale setting makes the
        table's text a quarter larger at most: beyond that, names and information would
        cover the cards (which TableLayout enlarges within the same limits)."""
        app = self.app
        scale = min(app.ui_scale, app.size[1] / 720 * 1.25)
        return max(1, round(value * scale))

    def screen_index(self, seat: int) -> int:
        return (seat - self.anchor) % self.n

    def f(self, seconds: float) -> float:
        """An animation duration scaled by the speed setting."""
        settings = self.app.settings
        factor = settings.speed_factor
        if settings.reduce_motion:
            factor = min(factor, 0.6)
        return seconds * factor

    def _configure_renderer(self) -> None:
        lay = self.layout
        widths = {lay.card_w, lay.trick_w, lay.small_w, lay.pile_w, lay.stock_w}
        faces = {lay.card_w, lay.trick_w, lay.stock_w}
        self.renderer.configure(self.app.settings.deck_style, self.app.settings.back, widths, faces)
        self._warm = [Card.from_index(i) for i in range(40)]

    def on_enter(self) -> None:
        if self.state is None:
            if self.match.is_over():
                self.match = Match(self.rules, first_dealer=self.n - 1)
            self._start_hand()
        else:
            self._rebuild()
            self._after_action()

    def on_exit(self) -> None:
        autosave.flush()
        if self.future is not None:
            self.future.cancel()
            self.future = None

    def on_resize(self, size: tuple[int, int]) -> None:
        self.layout = TableLayout(
            size, self.n, self.app.settings.ui_scale, self.rules.stock_size > 0
        )
        self._configure_renderer()
        self._layout_hud()
        self._layout_controls()
        self.tweener.finish_all()
        self._settle(0)

    def on_resume(self) -> None:
        self.on_resize(self.app.size)

    def _layout_hud(self) -> None:
        px = self.px
        x, y = px(10), px(10)
        h = px(32)
        for button in self.hud.widgets:
            width = max(
                px(70),
                self.app.assets.font(int(h * 0.45), True).size(
                    button.label()  # type: ignore[attr-defined]
                )[0]
                + px(24),
            )
            button.rect = pygame.Rect(x, y, width, h)
            x += width + px(8)
        self._place_swap_button()

    def _place_swap_button(self) -> None:
        lay = self.layout
        px = self.px
        bx, by = lay.briscola
        width = px(90)
        rect = pygame.Rect(0, 0, width, px(32))
        rect.midtop = (round(bx), round(by + lay.stock_w * 0.5 + px(14)))
        if rect.bottom > lay.h - px(4):
            rect.midbottom = (round(bx), round(by - lay.stock_w * 0.5 - px(14)))
        self.swap_button.rect = rect

    # ------------------------------------------------------------------ hands and flow

    def _start_hand(self) -> None:
        self.state = self.match.new_hand(self.rng)
        self.event_index = 0
        self.hand_done = False
        self.summary = None
        self.revealed_partner = None
        self.bubbles.clear()
        self.hint_card = None
        self.show_last = False
        self.deck = []
        self.hands = [[] for _s in range(self.n)]
        self.stock = []
        self.briscola = None
        self.shown_trump = None
        self.table = []
        self.piles = {}
        if self.hot_seat:
            self._set_viewer(None)
        self._pull_events()
        if not self.demo:
            autosave.save(self.setup, self.match, self.state)

    def _view_seat(self) -> int:
        return self.viewer if self.viewer is not None else -1

    def _pull_events(self) -> None:
        assert self.state is not None
        events = self.state.events_for(self._view_seat(), self.event_index)
        self.event_index = len(self.state.events)
        for event in events:
            self._enqueue(event)
        if any(isinstance(event, HandStarted) for event in events):
            self.steps.append(self._step_stock_from_deck)
        self.steps.append(self._sync_known)

    def apply(self, action: Action) -> None:
        """Apply an action for the current player and animate what follows."""
        assert self.state is not None
        seat = self.state.current_player
        self.state.apply(action)
        self.hint_card = None
        self._pull_events()
        if not self.demo and not self.state.is_terminal():
            autosave.save(self.setup, self.match, self.state, background=True)
        if self.hot_seat and seat in self.humans:
            self.steps.append(self._step_hide_hands)
        self._after_action()

    def _after_action(self) -> None:
        self.selected = 0
        self.pace = self.f(0.35)

    def _set_viewer(self, seat: int | None) -> None:
        self.viewer = seat
        if seat is not None:
            self.anchor = seat
        if self.state is not None:
            self._rebuild()

    # ------------------------------------------------------------------ update

    def update(self, dt: float) -> None:
        self.t += dt
        self._warm_some()
        self.tweener.update(dt)
        if self.wait > 0:
            self.wait -= dt
        while self.wait <= 0 and self.steps:
            self.wait += self.steps.popleft()()
        now = time.monotonic()
        self.bubbles = {s: b for s, b in self.bubbles.items() if b[1] > self.t}
        if self.banner and self.banner[1] <= self.t:
            self.banner = None
        if self.busy or self.state is None:
            return
        if self.state.is_terminal():
            if not self.hand_done:
                self.hand_done = True
                self._hand_over()
            return
        seat = self.state.current_player
        assert seat is not None
        if seat in self.bots:
            self._bot_turn(seat, dt, now)
        elif self.hot_seat and self.viewer != seat and self.privacy is None:
            self.privacy = seat
        elif not self.hot_seat and self.viewer != seat:
            self._set_viewer(seat)
        self._refresh_controls()

    @property
    def turn_shown(self) -> int | None:
        """The seat shown as the one to play: once the animations have caught up with the
        engine (during the deal nobody is to play yet)."""
        state = self.state
        if state is None or state.is_terminal() or self.busy or self.privacy is not None:
            return None
        return state.current_player

    @property
    def busy(self) -> bool:
        """Animations are running or queued: no new move yet."""
        return bool(self.steps) or self.wait > 0 or self.tweener.busy

    def _warm_some(self) -> None:
        """Rasterise card faces a few per frame, so that the first deal never stutters."""
        deadline = time.perf_counter() + 0.004
        while self._warm and time.perf_counter() < deadline:
            card = self._warm.pop()
            for width in self.renderer.faces:
                self.renderer.base(card, width)
            if not self._warm:  # and the backs, at every width in use
                for width in self.renderer.exact:
                    self.renderer.base(None, width)
                    self.app.assets.shadow(width)

    def _bot_turn(self, seat: int, dt: float, now: float) -> None:
        assert self.state is not None
        if self.future is None:
            self.pace -= dt
            if self.pace > 0:
                return
            seen = view(self.state, seat)
            bot = self.bots[seat]
            self.future = self.app.bots.submit(bot, seen)
            self.future_seat = seat
            self.think_start = now
            return
        if not self.future.done():
            if not self.app.options.turbo:
                return
            # Turbo (tests, smoke runs): frames do not outrun the computer players.
            with contextlib.suppress(Exception):  # a failure is handled just below
                self.future.result(timeout=10)
        future, self.future = self.future, None
        try:
            action, self.bots[seat] = future.result()
        except Exception:
            log.exception("computer player %s failed; playing its first legal move", seat)
            action = self.state.legal_actions()[0]
        if action not in self.state.legal_actions():
            log.error("computer player %s chose an illegal move %s", seat, action)
            action = self.state.legal_actions()[0]
        self.apply(action)

    def _hand_over(self) -> None:
        assert self.state is not None
        state = self.state
        result = state.outcome()
        over = self.match.finish_hand(state)
        self.hands_played += 1
        summary = HandSummary(
            rules=self.rules,
            names=[seat.name for seat in self.setup.seats],
            result=result,
            piles=[
                [card for trick in state.tricks if trick.winner in side for card in trick.cards]
                for side in result.sides
            ],
            hand_number=len(self.match.results),
            standing=list(self.match.standing),
            match_over=over is not None,
            match_winners=over.winners if over is not None else (),
            record=self._record(),
            bid=state.high_bid,
            caller=state.caller,
            partner=state.partner,
            called=state.called,
            viewer=self.humans[0] if len(self.humans) == 1 and not self.demo else None,
        )
        self.summary = summary
        if not self.demo:
            self._record_stats(result, over is not None)
            if over is not None:
                autosave.clear()
            else:
                autosave.save(self.setup, self.match, None)
        sound = "draw"
        if summary.viewer is not None and result.winner is not None:
            sound = "win" if result.returns[summary.viewer] > 0 else "lose"
        elif result.winner is not None:
            sound = "win"
        self.app.audio.play(sound)
        if self.demo:
            self.steps.append(lambda: self.f(2.5) or 0.5)
            self.steps.append(self._demo_next)
            return
        from .score import ScoreScene

        self.app.push(
            ScoreScene(
                self.app,
                summary,
                on_next=None if over is not None else self.next_hand,
                on_rematch=self.rematch,
                on_menu=self.to_menu,
            )
        )

    def _record(self) -> dict[str, Any]:
        from ...engine import to_record

        assert self.state is not None
        meta = {
            "players": [
                {"name": s.name, "kind": "human" if i in self.humans else f"bot:{s.level}"}
                for i, s in enumerate(self.setup.seats)
            ],
            "app": f"briscola {self.app.version()}",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "hand_number": len(self.match.results),
        }
        return to_record(self.state, meta)

    def _record_stats(self, result: Any, match_over: bool) -> None:
        if not self.humans:
            return
        try:
            from ..stats import Stats

            stats = Stats.load()
            if getattr(stats, "notice", None):
                self.app.notify(stats.notice)
            seat = self.humans[0]
            stats.record_hand(self.setup, result, seat)
            if match_over:
                winners = self.match.winners()
                if self.rules.chiamata:
                    won: bool | None = seat in winners if winners else None
                else:
                    side = self.rules.side_of(seat)
                    won = side in winners if winners else None
                stats.record_match(self.setup, won)
            problem = stats.save()
            if problem:
                self.app.notify(problem)
        except Exception:
            log.exception("could not record statistics")

    def _demo_next(self) -> float:
        if self.match.is_over():
            self.match = Match(self.rules, first_dealer=self.n - 1)
        self._start_hand()
        return 0.0

    def next_hand(self) -> None:
        self.app.pop()
        self._start_hand()

    def rematch(self) -> None:
        self.app.pop()
        self.match = Match(self.rules, first_dealer=self.n - 1)
        autosave.clear()
        self._start_hand()

    def to_menu(self) -> None:
        from .menu import MenuScene

        self.app.reset_to(MenuScene(self.app))

    # ------------------------------------------------------------------ events to steps

    def _enqueue(self, event: Event) -> None:
        steps = self.steps
        if isinstance(event, HandStarted):
            steps.append(lambda: self._step_shuffle(event))
        elif isinstance(event, Dealt):
            steps.append(lambda: self._step_deal(event))
        elif isinstance(event, BriscolaTurned):
            steps.append(lambda: self._step_turn(event))
        elif isinstance(event, Auction):
            steps.append(lambda: self._step_auction(event))
        elif isinstance(event, Called):
            steps.append(lambda: self._step_called(event))
        elif isinstance(event, Swapped):
            steps.append(lambda: self._step_swap(event))
        elif isinstance(event, Played):
            steps.append(lambda: self._step_play(event))
        elif isinstance(event, PartnerRevealed):
            steps.append(lambda: self._step_partner(event))
        elif isinstance(event, TrickWon):
            steps.append(lambda: self._step_trick_pause(event.trick))
            steps.append(lambda: self._step_collect(event.trick))
        elif isinstance(event, Drew):
            steps.append(lambda: self._step_draw(event))
        elif isinstance(event, HandOver):
            steps.append(lambda: self.f(0.4))

    def _step_shuffle(self, event: HandStarted) -> float:
        origin = self.layout.deal_origin(self.screen_index(self.match.dealer))
        w = self.layout.stock_w
        self.deck = [CardSprite(None, origin[0], origin[1], w) for _i in range(event.deck_size)]
        self._settle(0)
        self.app.audio.play("shuffle")
        duration = self.f(0.9)
        if duration > 0 and not self.app.settings.reduce_motion:
            # A riffle: the two halves part and interleave twice.
            half = len(self.deck) // 2
            for i, sprite in enumerate(self.deck):
                side = -1 if i < half else 1
                dx = side * w * 0.7
                self.tweener(
                    sprite,
                    duration * 0.25,
                    x=sprite.x + dx,
                    angle=side * 8.0,
                    easing=ease_out_cubic,
                )
                self.tweener(
                    sprite,
                    duration * 0.25,
                    delay=duration * 0.3 + (i % 7) * 0.01,
                    x=sprite.x,
                    angle=0.0,
                    easing=ease_in_out_cubic,
                )
                self.tweener(
                    sprite,
                    duration * 0.2,
                    delay=duration * 0.6,
                    x=sprite.x + dx * 0.6,
                    easing=ease_out_cubic,
                )
                self.tweener(
                    sprite,
                    duration * 0.2,
                    delay=duration * 0.8,
                    x=sprite.x,
                    easing=ease_in_out_cubic,
                )
        return duration + self.f(0.1)

    def _step_deal(self, event: Dealt) -> float:
        if not self.deck:
            return 0.0
        sprite = self.deck.pop(0)
        sprite.card = event.card
        self.hands[event.seat].append(sprite)
        self._settle(self.f(0.32), moving=sprite)
        self.app.audio.play("deal", 0.6)
        return self.f(0.09)

    def _step_turn(self, event: BriscolaTurned) -> float:
        sprite = self.deck.pop(0) if self.deck else CardSprite()
        sprite.card = event.card
        self.briscola = sprite
        self.shown_trump = event.card.suit
        self.stock = self.deck
        self.deck = []
        self._settle(self.f(0.5), moving=sprite)
        self.app.audio.play("play", 0.7)
        suit = event.card.suit
        self.banner = (
            lambda: _("Trump: {suit}").format(suit=suit_name(suit, self.style)),
            self.t + 2.2,
        )
        return self.f(0.6)

    def _step_stock_from_deck(self) -> float:
        """After the deal without a turned briscola (Briscolone): the rest is the stock."""
        if self.deck:
            self.stock = self.deck + self.stock
            self.deck = []
            self._settle(self.f(0.4), moving=list(self.stock))
            return self.f(0.4)
        return 0.0

    def _step_auction(self, event: Auction) -> float:
        bid = event.bid
        text = (
            functools.partial(_, "Pass") if bid is None else functools.partial(self.bid_text, bid)
        )
        self.bubbles[event.seat] = (text, self.t + max(1.2, self.f(1.6)))
        self.app.audio.play("click", 0.5)
        return self.f(0.55)

    def _step_called(self, event: Called) -> float:
        name = self.setup.seats[event.seat].name
        card = event.card
        mine = self._is_player(event.seat)
        self.bubbles[event.seat] = (
            lambda: _("I call {card}").format(card=card_the(card, self.style)),
            self.t + max(1.5, self.f(2.5)),
        )
        self.banner = (
            lambda: (
                _("You call {card}: {suit} are trump")
                if mine
                else _("{name} calls {card}: {suit} are trump")
            ).format(
                name=name,
                card=card_the(card, self.style),
                suit=suit_name(card.suit, self.style),
            ),
            self.t + 3.0,
        )
        self.shown_trump = event.card.suit
        self.briscola = CardSprite(event.card, *self.layout.centre, w=self.layout.stock_w)
        self._settle(self.f(0.6), moving=self.briscola)
        self._sync_known()
        return self.f(1.0)

    def _step_swap(self, event: Swapped) -> float:
        hand = self.hands[event.seat]
        sprite = next((s for s in hand if s.card == event.gave), None)
        if sprite is None:
            sprite = hand[-1] if hand else CardSprite()
            if sprite in hand:
                hand.remove(sprite)
        else:
            hand.remove(sprite)
        sprite.card = event.gave
        old = self.briscola
        if old is not None:
            old.card = event.took
            hand.append(old)
        self.briscola = sprite
        self._settle(self.f(0.5), moving=sprite)
        self.app.audio.play("swap")
        name = self.setup.seats[event.seat].name
        gave, took = event.gave, event.took
        mine = self._is_player(event.seat)
        self.banner = (
            lambda: (
                _("You swap {gave} for {took}") if mine else _("{name} swaps {gave} for {took}")
            ).format(
                name=name,
                gave=card_the(gave, self.style),
                took=card_the(took, self.style),
            ),
            self.t + 2.5,
        )
        return self.f(0.7)

    def _is_player(self, seat: int) -> bool:
        """``seat`` is the human looking at the screen now: messages say "you" to them."""
        return seat == self.viewer and seat in self.humans and not self.demo

    def _take_from_hand(self, seat: int, card: Card) -> CardSprite:
        hand = self.hands[seat]
        sprite = next((s for s in hand if s.card == card), None)
        if sprite is None:
            unknown = [s for s in hand if s.card is None]
            pool = unknown or hand
            sprite = (
                pool[len(pool) // 2]
                if pool
                else CardSprite(None, *self.layout.spots[self.screen_index(seat)].hand)
            )
        if sprite in hand:
            hand.remove(sprite)
        sprite.card = card
        return sprite

    def _step_play(self, event: Played) -> float:
        sprite = self._take_from_hand(event.seat, event.card)
        sprite.lift = 0.0
        sprite.dim = False
        sprite.glow = None
        self.table.append((event.seat, sprite))
        self._settle(self.f(0.34), moving=sprite)
        self.app.audio.play("play")
        return self.f(0.36)

    def _step_partner(self, event: PartnerRevealed) -> float:
        self.revealed_partner = event.seat
        name = self.setup.seats[event.seat].name
        alone = event.alone
        mine = self._is_player(event.seat)
        self.banner = (
            lambda: (
                (_("You play alone!") if mine else _("{name} plays alone!"))
                if alone
                else (_("You are the partner!") if mine else _("{name} is the partner!"))
            ).format(name=name),
            self.t + 2.5,
        )
        self.bubbles[event.seat] = (
            lambda: _("Alone!") if alone else _("Partner!"),
            self.t + 2.0,
        )
        return self.f(0.5)

    def _step_trick_pause(self, trick: Trick) -> float:
        for seat, sprite in self.table:
            if seat == trick.winner:
                sprite.glow = self.app.theme.accent
        return max(self.f(0.95), 0.25 if self.f(1) > 0 else 0.0)

    def _step_collect(self, trick: Trick) -> float:
        self.tricks_played += 1
        pile = self.piles.setdefault(self._pile_key(trick.winner), [])
        for _seat, sprite in self.table:
            sprite.glow = None
            pile.append(sprite)
        moving = [sprite for _seat, sprite in self.table]
        self.table = []
        self._settle(self.f(0.45), moving=moving)
        self.app.audio.play("collect", 0.8)
        return self.f(0.45)

    def _step_draw(self, event: Drew) -> float:
        if self.stock:
            sprite = self.stock.pop(0)
        elif self.briscola is not None and self.rules.turned_briscola:
            sprite, self.briscola = self.briscola, None
        else:
            sprite = CardSprite()
        if event.card is not None:
            sprite.card = event.card
        elif sprite is not self.briscola:
            sprite.card = None if not event.face_up else sprite.card
        self.hands[event.seat].append(sprite)
        self._settle(self.f(0.32), moving=sprite)
        self.app.audio.play("deal", 0.5)
        return self.f(0.14)

    def _step_hide_hands(self) -> float:
        """Hot-seat: after a human's move, nobody's hand stays face up."""
        self._set_viewer(None)
        return 0.0

    def _sync_known(self) -> float:
        """Give identities to cards the viewer may see in partners' hands and the scoperta
        top (the view says which); hide identities it may no longer rely on."""
        if self.state is None:
            return 0.0
        seat = self.viewer
        if seat is None:
            return 0.0
        seen = view(self.state, seat)
        for other in self.rules.partners(seat):
            known = set(seen.known[other])
            hand = self.hands[other]
            have = {s.card for s in hand if s.card is not None}
            for sprite in hand:
                if sprite.card is None:
                    missing = [c for c in known if c not in have]
                    if missing:
                        sprite.card = missing[0]
                        have.add(missing[0])
        if self.stock and seen.stock_top is not None:
            self.stock[0].card = seen.stock_top
        self._settle(self.f(0.25))
        return 0.0

    # ------------------------------------------------------------------ layout of sprites

    @property
    def style(self) -> str:
        return self.app.settings.deck_style

    def _pile_key(self, seat: int) -> int:
        """Piles: one per side (teams gather on one pile), one per seat in Chiamata."""
        if self.rules.chiamata or not self.rules.teams:
            return seat
        return self.rules.side_of(seat)

    def _pile_spot(self, key: int) -> tuple[float, float]:
        if self.rules.teams and not self.rules.chiamata:
            seats = [s for s in range(self.n) if self.rules.side_of(s) == key]
            seat = min(seats, key=self.screen_index)
        else:
            seat = key
        return self.layout.spots[self.screen_index(seat)].pile

    def _face_target(self, seat: int | None, sprite: CardSprite, zone: str) -> float:
        if sprite.card is None:
            return 0.0
        if zone in ("table", "briscola"):
            return 1.0
        if zone == "stock":
            return 1.0 if self.rules.scoperta and self.stock and sprite is self.stock[0] else 0.0
        if zone == "hand" and seat is not None and self.viewer is not None:
            if seat == self.viewer:
                return 1.0
            if seat in self.rules.partners(self.viewer) and self.rules.partners_see != "never":
                return 1.0
        return 0.0

    def _targets(self) -> list[tuple[CardSprite, float, float, float, float, float]]:
        """(sprite, x, y, angle, width, flip) for every sprite."""
        lay = self.layout
        out: list[tuple[CardSprite, float, float, float, float, float]] = []
        for key, pile in self.piles.items():
            px_, py_ = self._pile_spot(key)
            for i, sprite in enumerate(pile):
                jitter = ((i * 37) % 11 - 5) * 1.2
                out.append(
                    (sprite, px_ + (i % 5) * 0.6, py_ - min(i, 30) * 0.35, jitter, lay.pile_w, 0.0)
                )
        if self.briscola is not None:
            bx, by = lay.briscola if self.rules.turned_briscola else lay.stock
            angle = 90.0 if self.rules.turned_briscola else 0.0
            out.append(
                (self.briscola, bx, by, angle, lay.stock_w, 1.0 if self.briscola.card else 0.0)
            )
        count = len(self.stock)
        for i, sprite in enumerate(self.stock):
            depth = count - 1 - i
            dx, dy = lay.stock_offset(depth)
            out.append(
                (
                    sprite,
                    lay.stock[0] + dx,
                    lay.stock[1] + dy,
                    0.0,
                    lay.stock_w,
                    self._face_target(None, sprite, "stock"),
                )
            )
        if self.deck:
            ox, oy = lay.deal_origin(self.screen_index(self.match.dealer))
            for i, sprite in enumerate(self.deck):
                depth = len(self.deck) - 1 - i
                dx, dy = lay.stock_offset(depth)
                out.append((sprite, ox + dx, oy + dy, 0.0, lay.stock_w, 0.0))
        for seat, sprite in self.table:
            spot = lay.spots[self.screen_index(seat)]
            tilt = ((seat * 53 + len(self.table)) % 9 - 4) * 1.5
            out.append((sprite, spot.trick[0], spot.trick[1], tilt, lay.trick_w, 1.0))
        for seat in sorted(range(self.n), key=lambda s: -self.screen_index(s)):
            hand = self.hands[seat]
            index = self.screen_index(seat)
            slots = lay.hand_slots(index, len(hand))
            width = lay.card_w if index == 0 else lay.small_w
            for sprite, (pos, angle) in zip(hand, slots, strict=False):
                out.append(
                    (sprite, pos[0], pos[1], angle, width, self._face_target(seat, sprite, "hand"))
                )
        return out

    def _settle(self, duration: float, moving: CardSprite | list[CardSprite] | None = None) -> None:
        """Move every sprite to where the model says it belongs."""
        movers = moving if isinstance(moving, list) else [moving] if moving else []
        # Reduce motion: cards still travel, but turn over at once instead of in the air.
        snap_flip = self.app.settings.reduce_motion
        for sprite, x, y, angle, w, flip in self._targets():
            if self.press is not None and self.dragging and sprite is self.press[0]:
                continue
            if (
                abs(sprite.x - x) < 0.5
                and abs(sprite.y - y) < 0.5
                and abs(sprite.angle - angle) < 0.5
                and abs(sprite.w - w) < 0.5
                and abs(sprite.flip - flip) < 0.01
            ):
                continue
            self.tweener.cancel(sprite)
            if snap_flip:
                sprite.flip = flip
            if duration <= 0:
                sprite.x, sprite.y, sprite.angle, sprite.w, sprite.flip = x, y, angle, w, flip
                sprite.air = False
                continue
            is_mover = sprite in movers
            if is_mover:
                sprite.air = True

                def landed(s: CardSprite = sprite) -> None:
                    s.air = False

                # Take the shortest way round for rotations.
                while angle - sprite.angle > 180:
                    angle -= 360
                while sprite.angle - angle > 180:
                    angle += 360
                self.tweener.add(
                    Tween(
                        sprite,
                        duration,
                        easing=ease_out_cubic,
                        on_done=landed,
                        x=x,
                        y=y,
                        angle=angle,
                        w=w,
                    )
                )
                if abs(sprite.flip - flip) > 0.01:
                    self.tweener.add(
                        Tween(sprite, duration * 0.8, easing=ease_in_out_cubic, flip=flip)
                    )
            else:
                self.tweener.add(
                    Tween(
                        sprite,
                        duration * 0.8,
                        easing=ease_out_cubic,
                        x=x,
                        y=y,
                        angle=angle,
                        w=w,
                        flip=flip,
                    )
                )

    def _rebuild(self) -> None:
        """Recreate every sprite from the viewer's view (resume, hot-seat handover)."""
        state = self.state
        assert state is not None
        self.tweener.finish_all()
        self.steps.clear()
        self.wait = 0.0
        seat = self.viewer if self.viewer is not None else self.anchor
        seen = view(state, seat)
        self.deck = []
        self.hands = []
        for other in range(self.n):
            if other == self.viewer:
                self.hands.append([CardSprite(card) for card in seen.hand])
                continue
            cards: list[Card | None] = []
            if self.viewer is not None and other in self.rules.partners(self.viewer):
                cards.extend(seen.known[other])
            cards += [None] * (seen.hand_sizes[other] - len(cards))
            self.hands.append([CardSprite(card) for card in cards])
        hidden = seen.stock_size - (1 if seen.briscola_in_stock else 0)
        self.stock = [CardSprite() for _i in range(hidden)]
        if self.stock and seen.stock_top is not None:
            self.stock[0].card = seen.stock_top
        self.briscola = None
        if seen.briscola is not None and (seen.briscola_in_stock or self.rules.chiamata):
            self.briscola = CardSprite(seen.briscola)
        self.shown_trump = seen.trump
        self.table = [(s, CardSprite(card)) for s, card in seen.table]
        self.piles = {}
        for trick in seen.tricks:
            self.piles.setdefault(self._pile_key(trick.winner), []).extend(
                CardSprite() for _c in trick.cards
            )
        if state.partner_revealed:
            self.revealed_partner = state.partner
        self.event_index = len(state.events)
        self._settle(0)

    def report(self) -> dict[str, Any]:
        data = super().report()
        legal = set(self.legal_cards())
        data["cards"] = [
            {"code": s.card.code, "rect": list(s.rect()), "legal": s.card in legal}
            for s in self.my_hand()
            if s.card is not None
        ]
        data["awaiting"] = self.awaiting_human
        data["privacy"] = self.privacy is not None
        data["tricks"] = len(self.state.tricks) if self.state is not None else 0
        return data

    # ------------------------------------------------------------------ input

    def current_view(self) -> PlayerView | None:
        if self.state is None or self.viewer is None:
            return None
        return view(self.state, self.viewer)

    @property
    def awaiting_human(self) -> bool:
        """The viewer (a human) must act now and nothing is animating."""
        return (
            self.state is not None
            and not self.busy
            and self.privacy is None
            and self.state.current_player is not None
            and self.state.current_player == self.viewer
            and self.viewer in self.humans
            and not self.demo
        )

    def legal_cards(self) -> list[Card]:
        if not self.awaiting_human or self.state is None:
            return []
        return [a.card for a in self.state.legal_actions() if isinstance(a, Play)]

    def my_hand(self) -> list[CardSprite]:
        return self.hands[self.viewer] if self.viewer is not None else []

    def play_card(self, card: Card) -> bool:
        """Play ``card`` for the human viewer if legal now."""
        if card in self.legal_cards():
            self.apply(Play(card))
            return True
        return False

    def swap(self) -> None:
        if not self.awaiting_human or self.state is None:
            return
        swaps = [a for a in self.state.legal_actions() if isinstance(a, Swap)]
        if swaps:
            self.apply(swaps[0])

    def pause(self) -> None:
        from .pause import PauseScene

        self.app.push(PauseScene(self.app, self))

    def toggle_last(self) -> None:
        self.show_last = not self.show_last and bool(self.state and self.state.tricks)

    def show_hint(self) -> None:
        seen = self.current_view()
        if seen is None or not self.awaiting_human:
            return
        action = hint(seen)
        if isinstance(action, Play):
            self.hint_card = action.card
            hand = self.my_hand()
            for i, sprite in enumerate(hand):
                if sprite.card == action.card:
                    self.selected = i
        elif isinstance(action, Swap):
            self.banner = (lambda: _("Hint: swap the briscola"), self.t + 2.5)

    def switch_deck(self) -> None:
        settings = self.app.settings
        settings.cycle_deck()  # the next deck ticked in Settings
        self.app.settings_changed()

    def skip(self) -> None:
        """Finish the running animations at once."""
        for _i in range(500):
            self.tweener.finish_all()
            self.wait = 0
            if not self.steps:
                break
            self.wait += self.steps.popleft()()
        self.tweener.finish_all()
        self.wait = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.privacy is not None:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                    self.pause()
                    return
                seat, self.privacy = self.privacy, None
                self._set_viewer(seat)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.show_last:
                self.show_last = False
            else:
                self.pause()
            return
        if self.show_last and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.show_last = False
            if event.type == pygame.KEYDOWN and event.key == pygame.K_l:
                return
        if event.type == pygame.KEYDOWN and self._hotkey(event):
            return
        skipping = self.busy and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)
        if skipping and not (event.type == pygame.MOUSEBUTTONDOWN and self._on_hud(event.pos)):
            self.skip()
            return
        # The HUD buttons take the mouse; the keyboard has hotkeys (Esc, L, H, D, S).
        mouse = event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if mouse and self.hud.handle_event(event):
            return
        if self.controls.widgets:
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                # The auction and call buttons lie in rows: the arrows move along them.
                self.controls.keyboard_focus = True
                self.controls.move_focus(-1 if event.key == pygame.K_LEFT else 1)
                return
            if self.controls.handle_event(event):
                return
        self._hand_input(event)

    def _on_hud(self, pos: tuple[int, int]) -> bool:
        return any(b.visible and b.rect.collidepoint(pos) for b in self.hud.widgets)

    def _hotkey(self, event: pygame.event.Event) -> bool:
        key = event.key
        if key == pygame.K_d:
            self.switch_deck()
        elif key == pygame.K_l:
            self.toggle_last()
        elif key == pygame.K_h:
            self.show_hint()
        elif key == pygame.K_s:
            self.swap()
        else:
            return False
        return True

    def _hand_input(self, event: pygame.event.Event) -> None:
        hand = self.my_hand()
        if not self.awaiting_human or self.controls.widgets:
            self.hover = None
            return
        legal = self.legal_cards()
        if event.type == pygame.KEYDOWN:
            key = event.key
            if key in (pygame.K_LEFT, pygame.K_RIGHT) and hand:
                current = min(self.selected, len(hand) - 1)
                if not self.keyboard:
                    # The first arrow shows the focus where it is (on the card under the
                    # mouse, if any); the next ones move it.
                    self.keyboard = True
                    self.selected = hand.index(self.hover) if self.hover in hand else current
                else:
                    step = -1 if key == pygame.K_LEFT else 1
                    self.selected = (current + step) % len(hand)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and hand:
                self.keyboard = True
                card = hand[min(self.selected, len(hand) - 1)].card
                if card is not None:
                    self.play_card(card)
            elif pygame.K_1 <= key <= pygame.K_9:
                index = key - pygame.K_1
                if index < len(hand) and hand[index].card is not None:
                    self.selected = index
                    self.play_card(hand[index].card)  # type: ignore[arg-type]
            return
        if event.type == pygame.MOUSEMOTION:
            self.keyboard = False
            if self.press is not None and event.buttons[0]:
                sprite, start, grab = self.press
                if not self.dragging and math.dist(start, event.pos) > DRAG_THRESHOLD:
                    self.dragging = True
                    sprite.air = True
                    self.tweener.cancel(sprite)
                if self.dragging:
                    sprite.x = event.pos[0] - grab[0]
                    sprite.y = event.pos[1] - grab[1]
                    sprite.lift = 0
                return
            self.hover = self._card_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            sprite = self._card_at(event.pos)
            if sprite is not None and sprite.card in legal:
                self.press = (sprite, event.pos, (event.pos[0] - sprite.x, event.pos[1] - sprite.y))
                self.dragging = False
                self.selected = hand.index(sprite)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.press is not None:
            sprite, start, _grab = self.press
            dragged = self.dragging
            self.press = None
            self.dragging = False
            sprite.air = False
            wanted = not dragged or self._over_table(event.pos)
            if wanted and sprite.card is not None and self.play_card(sprite.card):
                return
            self._settle(self.f(0.25))

    def _over_table(self, pos: tuple[int, int]) -> bool:
        lay = self.layout
        hand_top = lay.spots[0].hand[1] - lay.card_h * 0.55
        return pos[1] < hand_top

    def _card_at(self, pos: tuple[int, int]) -> CardSprite | None:
        for sprite in reversed(self.my_hand()):
            if sprite.rect().collidepoint(pos):
                return sprite
        return None

    # ------------------------------------------------------------------ auction controls

    def bid_text(self, bid: Bid) -> str:
        if bid.points > 61:
            return _("Two and {points}").format(points=bid.points)
        return rank_name(bid.rank, self.style)

    def _refresh_controls(self) -> None:
        """Show the auction or call controls when the human viewer must bid or call."""
        state = self.state
        wanted = ""
        if self.awaiting_human and state is not None and state.phase in ("auction", "call"):
            wanted = f"{state.phase}:{len(state.bids)}"
        if self._controls_key == wanted:
            return
        self._controls_key = wanted
        self.controls = WidgetGroup()
        if not wanted or state is None:
            return
        if state.phase == "auction":
            legal = state.legal_actions()
            ranks = [a for a in legal if isinstance(a, Bid) and a.points == 61]
            twos = [a.points for a in legal if isinstance(a, Bid) and a.rank == Rank.TWO]
            self.bid_points = max(min(twos, default=62), min(self.bid_points, 120))
            for bid in ranks:
                self.controls.add(
                    Button(
                        lambda b=bid: self.bid_text(b),
                        lambda b=bid: self.apply(b),
                        name=f"bid:{bid.rank.code}",
                    )
                )
            if twos:
                self.controls.add(Button(lambda: "−", lambda: self._bump(-1), name="minus"))
                self.controls.add(
                    Button(
                        lambda: _("Two and {points}").format(points=self.bid_points),
                        self._bid_points,
                        name="bid:points",
                    )
                )
                self.controls.add(Button(lambda: "+", lambda: self._bump(1), name="plus"))
            if PASS in legal:
                self.controls.add(Button(lambda: _("Pass"), lambda: self.apply(PASS), name="pass"))
        else:
            for action in state.legal_actions():
                if isinstance(action, Call):
                    self.controls.add(
                        Button(
                            lambda a=action: suit_name(a.card.suit, self.style).capitalize(),
                            lambda a=action: self.apply(a),
                            name=f"call:{action.card.code}",
                        )
                    )
        self.controls.keyboard_focus = True
        self._layout_controls()

    def _bump(self, step: int) -> None:
        state = self.state
        if state is None:
            return
        twos = [
            a.points for a in state.legal_actions() if isinstance(a, Bid) and a.rank == Rank.TWO
        ]
        if twos:
            self.bid_points = max(min(twos), min(max(twos), self.bid_points + step * 1))

    def _bid_points(self) -> None:
        bid = Bid(Rank.TWO, self.bid_points) if self.bid_points > 61 else Bid(Rank.TWO)
        if self.state is not None and bid in self.state.legal_actions():
            self.apply(bid)

    def _controls_panel(self) -> pygame.Rect:
        lay = self.layout
        px = self.px
        width = min(int(lay.w * 0.62), px(720))
        if self.state is not None and self.state.phase == "auction":
            height = px(190) + (px(46) if self._bid_columns(width) < 10 else 0)
        else:
            height = round(lay.card_h * 0.75) + px(120)
        rect = pygame.Rect(0, 0, width, height)
        rect.center = (round(lay.centre[0]), round(lay.centre[1]))
        return rect

    def _bid_columns(self, panel_width: int) -> int:
        """Rank buttons per row: all ten in one row when each gets a readable width, else
        two rows of five (narrow windows, large UI scale)."""
        return 10 if (panel_width - self.px(40)) / 10 >= self.px(88) else 5

    def _layout_controls(self) -> None:
        if not self.controls.widgets:
            return
        px = self.px
        panel = self._controls_panel()
        buttons = self.controls.widgets
        if self.state is not None and self.state.phase == "call":
            width = (panel.width - px(40)) // 4
            for i, button in enumerate(buttons):
                button.rect = pygame.Rect(
                    panel.x + px(20) + i * width + px(6),
                    panel.bottom - px(48),
                    width - px(12),
                    px(36),
                )
            return
        ranks = [
            b
            for b in buttons
            if isinstance(b, Button) and b.name.startswith("bid:") and b.name != "bid:points"
        ]
        others = [b for b in buttons if b not in ranks]
        columns = self._bid_columns(panel.width)
        width = (panel.width - px(40)) // columns
        y = panel.y + px(56)
        for i, button in enumerate(ranks):
            row, column = divmod(i, columns)
            button.rect = pygame.Rect(
                panel.x + px(20) + column * width, y + row * px(46), width - px(6), px(38)
            )
        rows = (len(ranks) + columns - 1) // columns
        y += px(52) + max(0, rows - 1) * px(46)
        x = panel.x + px(20)
        for button in others:
            name = getattr(button, "name", "")
            bw = (
                px(40)
                if name in ("minus", "plus")
                else px(180)
                if name == "bid:points"
                else px(120)
            )
            button.rect = pygame.Rect(x, y, bw, px(38))
            x += bw + px(8)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        interactive = self.awaiting_human and not self.controls.widgets
        legal = set(self.legal_cards()) if interactive else set()
        hand = self.my_hand()
        for i, sprite in enumerate(hand):
            hovered = interactive and (
                sprite is self.hover or (self.keyboard and i == self.selected)
            )
            target = 1.0 if hovered and sprite.card in legal and not self.dragging else 0.0
            ease = 1.0 if app.settings.reduce_motion else 0.35
            sprite.lift += (target - sprite.lift) * ease
            sprite.dim = bool(interactive and legal and sprite.card not in legal)
            sprite.glow = (
                self.app.theme.accent
                if (self.hint_card is not None and sprite.card == self.hint_card)
                else None
            )
        # Cards lying still (piles, stock, trick, other hands) are drawn with the table into a
        # cached layer; moving cards and the viewer's hand are drawn every frame.
        moving = {id(tween.target) for tween in self.tweener.tweens}
        moving.update(id(sprite) for sprite in hand)
        still: list[tuple[CardSprite, bool]] = []
        live: list[tuple[CardSprite, bool]] = []
        for sprite, casts in self._draw_order():
            (live if sprite.air or id(sprite) in moving else still).append((sprite, casts))
        self._draw_still(surface, still)
        airborne: list[CardSprite] = []
        for sprite, casts in live:
            if sprite.air:
                airborne.append(sprite)
            else:
                self.renderer.draw(surface, sprite, shadow=casts)
        for sprite in airborne:
            self.renderer.draw(surface, sprite)
        if interactive and self.keyboard and hand:
            sprite = hand[min(self.selected, len(hand) - 1)]
            draw_focus(surface, sprite.rect(), app.theme, max(4, int(sprite.w) * 14 // 250))
        self._draw_labels(surface)
        self._draw_info(surface)
        self._draw_bubbles(surface)
        self.swap_button.visible = self._can_swap()
        self.hint_button.enabled = interactive
        self.last_button.enabled = bool(self.state and self.state.tricks)
        self.hud.draw(surface, app.assets, app.theme)
        if self.controls.widgets:
            self._draw_controls(surface)
        if self.show_last:
            self._draw_last_trick(surface)
        if self.banner is not None:
            self._draw_banner(surface, self.banner[0]())
        if self.privacy is not None:
            self._draw_privacy(surface)

    def _draw_still(self, surface: pygame.Surface, still: list[tuple[CardSprite, bool]]) -> None:
        """The table, its marks and the cards lying still: from a cache while nothing in it
        changes (checked every frame), drawn directly while it does."""
        settings = self.app.settings
        key = (
            surface.get_size(),
            settings.deck_style,
            settings.back,
            settings.table,
            settings.high_contrast,
            current_language(),
            id(self.layout),
            len(self.stock),
            self.briscola.card if self.briscola is not None else None,
            self.state.called if self.state is not None else None,
            tuple(
                (
                    id(s),
                    round(s.x),
                    round(s.y),
                    round(s.angle) % 360,
                    round(s.w),
                    s.face_up,
                    s.card,
                    s.glow,
                    s.dim,
                    casts,
                )
                for s, casts in still
            ),
        )
        if key == self._still_key and self._still is not None:
            surface.blit(self._still, (0, 0))
            return
        target = surface
        if key == self._pending_key:  # unchanged for two frames: worth caching
            if self._still is None or self._still.get_size() != surface.get_size():
                self._still = pygame.Surface(surface.get_size()).convert()
            target = self._still
        self._pending_key = key
        self.app.draw_backdrop(target)
        self._draw_table_marks(target)
        for sprite, casts in still:
            self.renderer.draw(target, sprite, shadow=casts)
        if target is not surface:
            self._still, self._still_key = target, key
            surface.blit(target, (0, 0))

    def _can_swap(self) -> bool:
        return bool(
            self.awaiting_human
            and self.state is not None
            and any(isinstance(a, Swap) for a in self.state.legal_actions())
        )

    def _draw_order(self) -> list[tuple[CardSprite, bool]]:
        """Sprites bottom to top, each with whether it casts a shadow (only the bottom card
        of a stack does: stacked shadows would darken the pile)."""
        order: list[tuple[CardSprite, bool]] = []

        def stack(sprites: list[CardSprite]) -> None:
            # Cards deep in a stack lie exactly under the ones above: draw the top few.
            keep = [s for i, s in enumerate(sprites) if i >= len(sprites) - 8 or s.air]
            order.extend((sprite, i == 0) for i, sprite in enumerate(keep))

        for pile in self.piles.values():
            stack(pile)
        if self.briscola is not None:
            order.append((self.briscola, True))
        stack(list(reversed(self.stock)))
        stack(list(reversed(self.deck)))
        order.extend((s, True) for _seat, s in self.table)
        for seat in sorted(range(self.n), key=lambda s: -self.screen_index(s)):
            order.extend((s, True) for s in self.hands[seat])
        return order

    def _draw_table_marks(self, surface: pygame.Surface) -> None:
        """Soft marks on the felt: the trick area, the stock place and its count."""
        lay = self.layout
        app = self.app
        cx, cy = lay.centre
        radius = int(lay.trick_w * (1.35 if self.n <= 2 else 1.75))
        ring = _ring(radius)
        surface.blit(ring, ring.get_rect(center=(round(cx), round(cy))))
        state = self.state
        if state is None:
            return
        px = self.px
        theme = app.theme
        # Stock count, trump reminder
        if self.rules.stock_size > 0:
            count = len(self.stock) + (
                1 if self.briscola is not None and self.rules.turned_briscola else 0
            )
            if count:
                text = app.assets.text(str(count), px(18), theme.text, bold=True)
                pos = (
                    round(lay.stock[0]),
                    round(lay.stock[1] - lay.stock_w * CARD_RATIO * 0.5 - px(14)),
                )
                surface.blit(text, text.get_rect(center=pos))
        elif self.rules.chiamata and state.called is not None and self.briscola is not None:
            caption = _("Called card")
            size = fit_text(app.assets, caption, px(16), int(lay.stock_w * 1.6))
            text = app.assets.text(caption, size, theme.text, bold=True)
            top = self.briscola.y - self.briscola.w * CARD_RATIO * 0.5 - px(12)
            surface.blit(text, text.get_rect(center=(round(self.briscola.x), round(top))))

    def _seat_colour(self, seat: int) -> tuple[int, int, int]:
        if self.rules.teams:
            return TEAM_COLOURS[self.rules.side_of(seat)]
        if self.rules.chiamata and self.state is not None and self.revealed_partner is not None:
            calling = {self.state.caller, self.state.partner}
            return TEAM_COLOURS[0 if seat in calling else 1]
        if self.rules.chiamata and self.state is not None and seat == self.state.caller:
            return TEAM_COLOURS[0]
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def _draw_labels(self, surface: pygame.Surface) -> None:
        app = self.app
        lay = self.layout
        theme = app.theme
        px = self.px
        state = self.state
        for seat in range(self.n):
            spot = lay.spots[self.screen_index(seat)]
            config = self.setup.seats[seat]
            parts = [config.name]
            if state is not None and self.rules.chiamata and seat == state.caller:
                parts.append(_("caller"))
            if (
                self.rules.chiamata
                and seat == self.revealed_partner
                and state is not None
                and (seat != state.caller)
            ):
                parts.append(_("partner"))
            text = " · ".join(parts)
            size = fit_text(app.assets, text, lay.font, int(lay.w * 0.22), bold=True)
            label = app.assets.text(text, size, theme.text, bold=True)
            rect = label.get_rect(center=(round(spot.label[0]), round(spot.label[1])))
            plate = rect.inflate(px(22), px(8))
            colour = self._seat_colour(seat)
            turn = seat == self.turn_shown
            alpha = 230 if turn else 170
            surface.blit(rounded(plate.size, (12, 24, 18, alpha), plate.h // 2), plate)
            pygame.draw.rect(
                surface, colour, plate, width=max(2, px(2)), border_radius=plate.h // 2
            )
            if turn:
                still = app.settings.reduce_motion
                pulse = 1.0 if still else 0.5 + 0.5 * math.sin(self.t * 5)
                glow = tuple(int(c * (0.6 + 0.4 * pulse)) for c in theme.focus)
                pygame.draw.rect(
                    surface,
                    glow,
                    plate.inflate(px(6), px(6)),
                    width=max(2, px(2)),
                    border_radius=plate.h // 2 + px(3),
                )
            surface.blit(label, rect)
            if self.match.dealer == seat and state is not None:
                # Translators: the dealer's button beside a name: one letter.
                mark = pgettext("dealer", "D")
                d = app.assets.text(mark, max(10, int(lay.font * 0.8)), (20, 20, 20), bold=True)
                centre = (plate.right + px(14), plate.centery)
                pygame.draw.circle(surface, (240, 236, 220), centre, px(11))
                surface.blit(d, d.get_rect(center=centre))
            # Thinking cue
            if (
                self.future is not None
                and self.future_seat == seat
                and time.monotonic() - self.think_start > 0.6
            ):
                dots = "..." if app.settings.reduce_motion else "." * (1 + int(self.t * 3) % 3)
                think = app.assets.text(_("thinking") + dots, px(15), theme.dim)
                if self.screen_index(seat) == 0:  # the bottom seat's cards lie under its name
                    where = think.get_rect(midbottom=(plate.centerx, plate.top - px(4)))
                else:
                    where = think.get_rect(midtop=(plate.centerx, plate.bottom + px(4)))
                surface.blit(think, where)
        # Points by pile
        if app.settings.show_score and state is not None:
            for key, pile in self.piles.items():
                if not pile:
                    continue
                points = self._pile_points(key)
                x, y = self._pile_spot(key)
                text = app.assets.text(
                    _("{points} pts").format(points=points), px(16), theme.accent, bold=True
                )
                pos = (round(x), round(y + lay.pile_w * CARD_RATIO * 0.5 + px(12)))
                if self._over_a_hand(text.get_rect(center=pos)):  # a side seat's pile
                    pos = (round(x), round(y - lay.pile_w * CARD_RATIO * 0.5 - px(16)))
                back = text.get_rect(center=pos).inflate(px(10), px(4))
                panel = pygame.Surface(back.size, pygame.SRCALPHA)
                pygame.draw.rect(panel, (0, 0, 0, 140), panel.get_rect(), border_radius=back.h // 2)
                surface.blit(panel, back)
                surface.blit(text, text.get_rect(center=pos))

    def _cards_right_of(self, band: pygame.Rect) -> int:
        """The right edge of the cards in hands that reach into ``band`` from the right half
        of the table (0 when none do)."""
        edge = 0
        middle = self.layout.w // 2
        for hand in self.hands:
            for sprite in hand:
                rect = sprite.rect()
                if rect.colliderect(band) and rect.centerx > middle:
                    edge = max(edge, rect.right)
        return edge

    def _over_a_hand(self, rect: pygame.Rect) -> bool:
        return any(sprite.rect().colliderect(rect) for hand in self.hands for sprite in hand)

    def _pile_points(self, key: int) -> int:
        """Points of the cards shown on a pile (counted from the tricks already animated)."""
        state = self.state
        if state is None:
            return 0
        shown_tricks = sum(len(p) for p in self.piles.values()) // self.n
        total = 0
        for trick in state.tricks[:shown_tricks]:
            if self._pile_key(trick.winner) == key:
                total += trick.points
        return total

    def _draw_info(self, surface: pygame.Surface) -> None:
        """Top right: match and hand information."""
        app = self.app
        px = self.px
        theme = app.theme
        lines = [self._match_line()]
        state = self.state
        if state is not None:
            trump = self.shown_trump
            if not self.rules.trump:
                lines.append(_("No trump"))
            elif trump is not None:
                lines.append(_("Trump: {suit}").format(suit=suit_name(trump, self.style)))
            elif self.rules.chiamata:
                lines.append(_("Trump: not called yet"))
        if state is not None and not state.is_terminal():
            seat = self.turn_shown
            if seat is not None:
                if self._is_player(seat):
                    lines.append(_("Your turn"))
                else:
                    lines.append(_("{name} to play").format(name=self.setup.seats[seat].name))
            if self.rules.chiamata and state.high_bid is not None:
                lines.append(_("Bid: {bid}").format(bid=self.bid_text(state.high_bid)))
        y = px(10)
        right = surface.get_width() - px(14)
        for i, line in enumerate(lines):
            # Narrower where a seat's hand comes close to the corner (many seats, large text).
            line_h = app.assets.font(px(18), True).get_linesize()
            room = right - self._cards_right_of(pygame.Rect(0, y, right, line_h)) - px(14)
            size = max(10, fit_text(app.assets, line, px(17 if i else 18), room, bold=i == 0))
            text = app.assets.text(line, size, theme.accent if i else theme.text, bold=i == 0)
            rect = text.get_rect(topright=(right, y))
            back = rect.inflate(px(14), px(6))
            surface.blit(rounded(back.size, (0, 0, 0, 120), px(6)), back)
            surface.blit(text, rect)
            y = back.bottom + px(4)

    def _match_line(self) -> str:
        fmt = self.rules.match
        number = len(self.match.results) + (0 if self.hand_done else 1)
        if fmt.kind == "single":
            return _("Single hand")
        standing = " – ".join(str(v) for v in self.match.standing)
        if fmt.kind == "best-of":
            head = _("Hand {n} · best of {target}").format(n=number, target=fmt.target)
        elif fmt.kind == "first-to":
            head = _("Hand {n} · first to {target}").format(n=number, target=fmt.target)
        elif fmt.kind == "points":
            head = _("Hand {n} · to {target} points").format(n=number, target=fmt.target)
        else:
            head = _("Hand {n} of {target}").format(n=number, target=fmt.target)
        return f"{head} · {standing}"

    def _draw_bubbles(self, surface: pygame.Surface) -> None:
        app = self.app
        px = self.px
        for seat, (label, _until) in self.bubbles.items():
            if seat == self.viewer and self.controls.widgets:
                continue  # the auction or call panel says it, and covers that place
            text = label()
            spot = self.layout.spots[self.screen_index(seat)]
            image = app.assets.text(text, px(18), (30, 30, 30), bold=True)
            rect = image.get_rect()
            x, y = spot.label
            cx = min(max(x, rect.width / 2 + px(12)), self.layout.w - rect.width / 2 - px(12))
            cy = y - px(44) if self.screen_index(seat) == 0 else y + px(40)
            rect.center = (round(cx), round(cy))
            bubble = rect.inflate(px(20), px(12))
            pygame.draw.rect(surface, (250, 246, 232), bubble, border_radius=bubble.h // 2)
            pygame.draw.rect(surface, (40, 40, 40), bubble, width=1, border_radius=bubble.h // 2)
            surface.blit(image, rect)

    def _draw_banner(self, surface: pygame.Surface, text: str) -> None:
        app = self.app
        px = self.px
        lay = self.layout
        size = fit_text(app.assets, text, px(24), int(lay.w * 0.7), bold=True)
        image = app.assets.text(text, size, app.theme.text, bold=True)
        y = lay.centre[1] - lay.trick_w * CARD_RATIO * (0.95 if self.n <= 2 else 1.35)
        rect = image.get_rect(center=(round(lay.centre[0]), round(max(px(60), y))))
        back = rect.inflate(px(30), px(14))
        clear = self.menu_button.rect.bottom + px(8)  # below the buttons' row
        if back.top < clear:
            rect.move_ip(0, clear - back.top)
            back.move_ip(0, clear - back.top)
        draw_panel(surface, back, app.theme, radius=back.h // 2)
        surface.blit(image, rect)

    def _draw_controls(self, surface: pygame.Surface) -> None:
        app = self.app
        px = self.px
        panel = self._controls_panel()
        draw_panel(surface, panel, app.theme)
        state = self.state
        if state is None:
            return
        if state.phase == "auction":
            high = state.high_bid
            title = (
                _("Your bid (highest: {bid})").format(bid=self.bid_text(high))
                if high
                else _("Your bid: the rank you will call")
            )
        else:
            assert state.high_bid is not None
            title = _("Call a card: the {rank} of which suit?").format(
                rank=rank_name(state.high_bid.rank, self.style)
            )
            for button in self.controls.widgets:
                if isinstance(button, Button) and button.name.startswith("call:"):
                    card = Card.from_code(button.name[5:])
                    width = min(int(self.layout.card_w * 0.8), button.rect.width - px(10))
                    face = self.renderer.base(card, max(20, width))
                    rect = face.get_rect(midbottom=(button.rect.centerx, button.rect.top - px(8)))
                    surface.blit(face, rect)
        size = fit_text(app.assets, title, px(22), panel.width - px(40), bold=True)
        text = app.assets.text(title, size, app.theme.text, bold=True)
        surface.blit(text, text.get_rect(midtop=(panel.centerx, panel.y + px(14))))
        self.controls.draw(surface, app.assets, app.theme)

    def _draw_last_trick(self, surface: pygame.Surface) -> None:
        state = self.state
        if state is None or not state.tricks:
            return
        app = self.app
        px = self.px
        trick = state.tricks[-1]
        lay = self.layout
        width = lay.trick_w
        gap = px(16)
        panel = pygame.Rect(
            0, 0, len(trick.cards) * (width + gap) + gap * 2, round(width * CARD_RATIO) + px(110)
        )
        panel.center = (round(lay.centre[0]), round(lay.centre[1]))
        draw_panel(surface, panel, app.theme)
        if self._is_player(trick.winner):
            title = _("Last trick: you took {points} points").format(points=trick.points)
        else:
            title = _("Last trick: {name} took {points} points").format(
                name=self.setup.seats[trick.winner].name, points=trick.points
            )
        size = fit_text(app.assets, title, px(20), panel.width - px(20), bold=True)
        text = app.assets.text(title, size, app.theme.text, bold=True)
        surface.blit(text, text.get_rect(midtop=(panel.centerx, panel.y + px(10))))
        x = panel.x + gap * 2
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            face = self.renderer.base(card, width)
            rect = face.get_rect(topleft=(x, panel.y + px(44)))
            surface.blit(face, rect)
            if seat == trick.winner:
                pygame.draw.rect(
                    surface, app.theme.accent, rect.inflate(6, 6), width=3, border_radius=px(8)
                )
            name = self.setup.seats[seat].name
            nsize = fit_text(app.assets, name, px(16), width + gap)
            label = app.assets.text(name, nsize, app.theme.text)
            surface.blit(label, label.get_rect(midtop=(rect.centerx, rect.bottom + px(6))))
            x += width + gap

    def _draw_privacy(self, surface: pygame.Surface) -> None:
        app = self.app
        px = self.px
        assert self.privacy is not None
        surface.fill((10, 26, 18))
        app.backdrop.draw(surface, app.settings.table, True)
        name = self.setup.seats[self.privacy].name
        title = _("Pass to {name}").format(name=name)
        w, h = surface.get_size()
        size = fit_text(app.assets, title, px(44), w - px(40), bold=True)
        text = app.assets.text(title, size, app.theme.accent, bold=True)
        surface.blit(text, text.get_rect(center=(w // 2, h // 2 - px(30))))
        hint = _("Click or press a key when ready")
        size = fit_text(app.assets, hint, px(22), w - px(40))
        hint_text = app.assets.text(hint, size, app.theme.text)
        surface.blit(hint_text, hint_text.get_rect(center=(w // 2, h // 2 + px(30))))
