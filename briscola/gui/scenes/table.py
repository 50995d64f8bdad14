"""The table: the game itself, animated.

:class:`TableScene` is lifecycle and wiring; the parts live in :mod:`briscola.gui.table`.
Data flows one way::

    input (HandInput, AuctionPanel, HUD) -> session.submit(action)
    session.new_events() -> Director (animation steps) -> Board (sprites), Captions
    Board, Captions, session.view() -> TablePainter -> screen

The session (:class:`~briscola.game.session.TableSession`) is the game: a local match
(:class:`~briscola.game.session.LocalSession`) or, through the same protocol, a table on
another machine. The scene only shows what the shown seat may know, and asks the session to
move the computers once the animations have caught up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from briscola.ai import hint
from briscola.engine import Action, Card, GameState, Match, Play, Swap, TrickWon
from briscola.game.session import TableSession, moved_on
from briscola.game.setup import GameSetup
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.sprites import CardRenderer, CardSprite
from briscola.gui.render.tween import Tweener
from briscola.gui.scene import Scene
from briscola.gui.table.assist import Assist
from briscola.gui.table.auction import AuctionPanel
from briscola.gui.table.banner import TableBanner
from briscola.gui.table.board import Board
from briscola.gui.table.director import TIMINGS, Captions, Director
from briscola.gui.table.flow import HandFlow
from briscola.gui.table.hand_input import HandInput
from briscola.gui.table.hud import TableHud, hand_boxes, plate_boxes
from briscola.gui.table.local import local_session, saved_session
from briscola.gui.table.painter import TablePainter
from briscola.gui.table.plates import info_pieces, label_pieces
from briscola.gui.table.signals import SignalBar
from briscola.text.coachtext import swap_hint_text
from briscola.text.decks import deck_info
from briscola.text.i18n import _, current_language
from briscola.text.labels import must_follow_text

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class TableScene(Scene):
    """Shows ``session`` (by default a local match of ``setup``: any configuration, any mix
    of humans and computers)."""

    def __init__(
        self,
        app: Services,
        setup: GameSetup | None = None,
        demo: bool = False,
        match: Match | None = None,
        state: GameState | None = None,
        session: TableSession | None = None,
    ) -> None:
        super().__init__(app)
        if session is None:
            assert setup is not None, "a setup or a session"
            session = local_session(app, setup, demo, match, state)
        self.session = session
        self.rules = session.rules
        self.n = self.rules.players
        self.tweener = Tweener()
        self.renderer = CardRenderer(app.assets)
        self.board = Board(
            self.rules, self._new_layout(), self.tweener, lambda: app.settings.reduce_motion
        )
        self.captions = Captions()
        #: The banner naming the deck (D), while it may show.
        self._deck_banner: object = None
        self.director = Director(app, session, self.board, self.captions)
        self.painter = TablePainter(app, session, self.board, self.captions, self.renderer)
        self.px = self.painter.px
        self.hand = HandInput(self.board, self.play_card, self._settle_hand)
        self.auction = AuctionPanel(app, self.px, self.renderer, self.submit)
        self.show_last = False
        #: Nothing has been shown of the session's events yet (see :meth:`_pull`).
        self._first_news = True
        self.hud_bottom = 0  # the bottom of the buttons at the top left (see on_resize)
        self.hud = TableHud(
            self.pause, self.toggle_last, self.show_hint, self.switch_deck, self.swap
        )
        self.assist = Assist(app, session, self.board, self.hand, self.px, self._after_undo)
        #: What the table says beyond its cards (a lost connection, the table's end).
        self.banner = TableBanner(app, session, self.px)
        self.flow = HandFlow(session, self.director, self.hand, self._rebuild, self._fresh)
        self.signals = SignalBar(app, session, self.board, self.captions, self.px, self._pull)
        self._configure_renderer()

    @classmethod
    def from_autosave(cls, app: Services) -> TableScene | None:
        session = saved_session(app)
        return cls(app, session=session) if session is not None else None

    # ------------------------------------------------------------------ state shown

    @property
    def busy(self) -> bool:
        """Animations are running or queued: no new move yet."""
        return self.director.busy

    @property
    def tricks_played(self) -> int:
        return self.director.tricks_played

    @property
    def hands_played(self) -> int:
        return self.flow.hands_played

    @property
    def privacy(self) -> int | None:
        """Hot seat: the screen is covered until this seat's player is ready."""
        return self.session.waiting_for

    @property
    def turn_shown(self) -> int | None:
        """The seat shown as the one to play: once the animations have caught up with the
        game (during the deal nobody is to play yet)."""
        if self.busy or self.session.waiting_for is not None:
            return None
        return self.session.to_play

    @property
    def awaiting_human(self) -> bool:
        """The player at the screen must act now and nothing is animating."""
        session = self.session
        seat = self.turn_shown
        return (
            seat is not None
            and seat == session.shown_seat == self.board.viewer
            and session.plays_here(seat)
            and not session.demo
        )

    def legal_cards(self) -> list[Card]:
        if not self.awaiting_human:
            return []
        return [a.card for a in self.session.legal_actions() if isinstance(a, Play)]

    def my_hand(self) -> list[CardSprite]:
        return self.board.my_hand()

    def next_frame_in(self) -> float | None:
        """Frames while cards move, a computer (or a remote player) is to play or the turn
        marker pulses; then only at the next timed change (a caption that goes), or on
        input."""
        session = self.session
        if self.renderer.cold or self.busy:
            return 0.0
        if session.hand_over and not self.flow.done:
            return 0.0
        if self.turn_shown is not None and self.painter.pulsing(self.turn_shown):
            return 0.0
        ends = self.captions.ends()
        wait = max(0.0, min(ends) - self.captions.t) if ends else None
        wakes = [t for t in (wait, self.assist.next_frame_in(), session.wake_in()) if t is not None]
        return min(wakes) if wakes else None

    def report(self) -> dict[str, Any]:
        data = super().report()
        self.auction.report(data)
        legal = set(self.legal_cards())
        data["cards"] = [
            {"code": s.card.code, "rect": list(s.rect()), "legal": s.card in legal}
            for s in self.my_hand()
            if s.card is not None
        ]
        data["awaiting"] = self.awaiting_human
        data["privacy"] = self.privacy is not None
        data["tricks"] = len(self.session.view().tricks)
        return data

    # ------------------------------------------------------------------ lifecycle

    def _new_layout(self) -> TableLayout:
        app = self.app
        return TableLayout(app.size, self.n, app.settings.ui_scale, self.rules.stock_size > 0)

    def _configure_renderer(self) -> None:
        lay = self.board.layout
        widths = {lay.card_w, lay.trick_w, lay.small_w, lay.pile_w, lay.stock_w}
        faces = {lay.card_w, lay.trick_w, lay.stock_w}
        # The hand's and the briscola's widths: only the cards shown there (see painter).
        demand = {lay.card_w, lay.stock_w} - {lay.trick_w}
        settings = self.app.settings
        self.renderer.configure(settings.deck_style, settings.back, widths, faces, demand)

    def on_enter(self) -> None:
        self.session.start()
        self._rebuild()
        self._pull()

    def on_exit(self) -> None:
        self.assist.close()
        self.session.close()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.board.layout = self._new_layout()
        self._configure_renderer()
        self.hud.lay_out(self.app.assets, self.px, self.board.layout)
        self.auction.lay_out(self.board.layout)
        self.assist.lay_out(self.hud.deck.rect)
        more = [b.rect for b in self.assist.buttons.widgets]
        self.hud_bottom = self.hud.clear_of_hands(more, self.px, self.board.layout)
        self.tweener.finish_all()
        self.board.settle(0)

    def on_resume(self) -> None:
        self.on_resize(self.app.size)

    # ------------------------------------------------------------------ flow

    def _rebuild(self) -> None:
        """Every sprite again from the session's view (resume, hot-seat handover)."""
        self.director.clear()
        seen = self.session.view()
        self.board.rebuild(seen, self.session.shown_seat)
        self.captions.bids = list(seen.bids) if seen.phase in ("auction", "call") else []

    def _pull(self) -> None:
        """Animate what happened since the last look. The table's first news spanning a
        whole trick is history (a seat taken back mid-hand, online): the table is shown as
        it is now instead of the hand played again."""
        events = self.session.new_events()
        if events and self._first_news:
            self._first_news = False
            if any(isinstance(event, TrickWon) for event in events):
                self._rebuild()
                return
        if events:
            self.director.show(events)
            self.hand.hint_card = None
            self.hand.reset()

    def update(self, dt: float) -> None:
        self.captions.tick(dt)
        self.renderer.warm_some()
        self.director.update(dt)
        idle = not self.busy
        session = self.session
        if idle and session.shown_seat != self.board.viewer and session.waiting_for is None:
            self._rebuild()
        session.advance(dt, idle)
        self.banner.update()
        self._pull()
        self.signals.update(not self.busy)
        self.assist.update(self.awaiting_human, not self.busy)
        if self.busy:
            self.auction.refresh(None, [])  # the choice is made: the panel goes at once
            return
        if session.hand_over:
            if not self.flow.done:
                self.flow.finish()
            return
        legal = session.legal_actions() if self.awaiting_human else []
        self.auction.refresh(session.view(), legal)

    def next_hand(self) -> None:
        self.flow.next_hand()

    # ------------------------------------------------------------------ actions

    def submit(self, action: Action) -> bool:
        """Play ``action`` for the player at the screen (False when not legal now)."""
        if not self.session.submit(action):
            return False
        self._pull()
        return True

    def play_card(self, card: Card) -> bool:
        """Play ``card`` for the human viewer if legal now; a card the rules refuse (the
        suit led must be followed) says why."""
        legal = self.legal_cards()
        if card in legal:
            return self.submit(Play(card))
        seen = self.session.view()
        if legal and seen.rules.follow_suit and seen.table and card in seen.hand:
            suit, style = seen.table[0][1].suit, self.app.settings
            self.captions.announce(
                lambda: must_follow_text(suit, style.deck_style), TIMINGS["hint banner"]
            )
        return False

    def swap(self) -> None:
        swaps = [a for a in self.session.legal_actions() if isinstance(a, Swap)]
        if swaps and self.awaiting_human:
            self.submit(swaps[0])

    def pause(self) -> None:
        self.app.open("pause", table=self)

    def toggle_last(self) -> None:
        self.show_last = not self.show_last and self.has_last_trick()

    def has_last_trick(self) -> bool:
        """A trick of the hand shown has been taken (not of a hand gone on from)."""
        return bool(self.session.view().tricks) and not moved_on(self.session)

    def show_hint(self) -> None:
        if not self.awaiting_human:
            return
        seen = self.session.view()
        if seen.phase in ("auction", "call"):
            # Chiamata: the coach's bid or call, focused on the panel, and why.
            self.auction.suggest(self.assist.ask_bid_hint(seen).action)
            return
        action = hint(seen)
        if not isinstance(action, Swap):
            self.assist.ask_hint(seen)  # the coach's card and why, in the background
        else:
            style = self.app.settings
            self.captions.announce(
                lambda: swap_hint_text(seen, action, style.deck_style), TIMINGS["hint banner"]
            )

    def _fresh(self) -> None:
        """A new hand: nothing of the last one stays up."""
        self.show_last = False

    def _after_undo(self) -> None:
        """The player took a move back: the table as it is now."""
        self.hand.hint_card = None
        self.hand.reset()
        self.show_last = False
        self.captions.banner = None  # what it said (a swap, a hint) was taken back too
        self._rebuild()

    def switch_deck(self) -> None:
        settings = self.app.settings
        deck = settings.cycle_deck()  # the next deck ticked in Settings
        self.app.settings_changed()
        info = deck_info(deck)
        if info is not None:  # say which deck it is now, briefly
            self.captions.announce(
                lambda: _("Deck: {name}").format(name=info.title(current_language())),
                TIMINGS["deck banner"],
            )
            self._deck_banner = self.captions.banner

    def on_settings_changed(self) -> None:
        """A deck chosen in Settings: the banner naming the deck before goes."""
        if self.captions.banner is not None and self.captions.banner is self._deck_banner:
            self.captions.banner = None
        super().on_settings_changed()

    def sort_hand(self) -> None:
        """O: the player's hand in order by suit and rank, and kept so from now on."""
        board = self.board
        board.keep_sorted = True
        if board.sort_hand():
            self.hand.reset()
            self._settle_hand()

    def skip(self) -> None:
        """Finish the running animations at once."""
        self.director.skip()

    def _settle_hand(self) -> None:
        self.board.settle(self.director.f("settle"))

    # ------------------------------------------------------------------ input

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.session.waiting_for is not None:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                    self.pause()
                    return
                self.session.reveal()
                self._rebuild()
            return
        key = event.key if event.type == pygame.KEYDOWN else None
        if key == pygame.K_ESCAPE:
            if self.show_last:
                self.show_last = False
            else:
                self.pause()
            return
        if self.show_last and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.show_last = False
            if key == pygame.K_l:
                return
        if key is not None and (self.hud.hotkey(key) or self.assist.hotkey(event)):
            return
        if self.signals.handle_event(event):  # partner signals: the bar and F1-F8
            return
        if key == pygame.K_o:
            self.sort_hand()
            return
        skipping = self.busy and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)
        if skipping and not (event.type == pygame.MOUSEBUTTONDOWN and self.hud.covers(event.pos)):
            self.skip()
            return
        # The HUD buttons take the mouse; the keyboard has hotkeys (Esc, L, H, D, S).
        mouse = event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if mouse and (self.hud.handle_event(event) or self.assist.handle_event(event)):
            return
        if self.auction.handle_event(event):
            return
        playing = self.awaiting_human and not self.auction.active
        self.hand.handle(event, self.legal_cards() if playing else None)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> None:
        self._draw(surface, partial=False)

    def draw_changed(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return self._draw(surface, partial=True)

    def forget_frame(self) -> None:
        self.painter.composer.forget()

    def _draw(self, surface: pygame.Surface, partial: bool) -> list[pygame.Rect] | None:
        app = self.app
        interactive = self.awaiting_human and not self.auction.active
        legal = set(self.legal_cards()) if interactive else set()
        # The hint's outline in another colour than the focus ring's (and a tag says it).
        self.hand.mark(interactive, legal, app.theme.text, app.settings.reduce_motion)
        # Cards lying still (piles, stock, trick, other hands) are drawn with the table into a
        # cached layer; moving cards and the viewer's hand are drawn over it.
        moving = {id(tween.target) for tween in self.tweener.tweens}
        moving.update(id(sprite) for sprite in self.my_hand())
        focused = self.hand.focused() if interactive else None
        hinted = self.hand.hinted() if interactive else None
        painter = self.painter
        turn = self.turn_shown
        hud = self.hud
        hud.swap.visible = self.awaiting_human and any(
            isinstance(a, Swap) for a in self.session.legal_actions()
        )
        hud.hint.enabled = self.awaiting_human  # the auction's bids and call too
        hud.last.enabled = self.has_last_trick()
        pieces = [
            *label_pieces(painter, turn, turn is not None and painter.pulsing(turn)),
            *info_pieces(painter, turn),
            ("overlays", None, painter.marked(self._overlays)),
            *hud.pieces(app.assets, app.theme, "hud"),
        ]
        return painter.draw_frame(surface, moving, focused, hinted, self._chrome, partial, pieces)

    def _overlays(self, surface: pygame.Surface) -> None:
        """Speech bubbles, partner signals and the auction's bids."""
        painter = self.painter
        panel = self.auction.panel() if self.auction.active else None
        painter.draw_bubbles(surface, self.auction.active, panel)
        self.signals.draw(surface, painter)
        painter.draw_bids(surface, self.hud_bottom + self.px(10))

    def banner_avoids(self) -> list[pygame.Rect]:
        """What the online notes keep clear of: the other seats' cards and name plates."""
        lay = self.board.layout
        return hand_boxes(lay) + plate_boxes(lay, self.px(170), self.px(6))[1:]

    def _chrome(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Everything over the cards after the name plates, the information panel, the
        bubbles and the buttons; returns where it drew beyond the painter's own (None
        when it cannot say: such frames are drawn whole)."""
        painter = self.painter
        self.assist.draw(surface, (self.auction.panel(),) if self.auction.active else ())
        if self.auction.active:
            self.auction.draw(surface, self.session.view())
        if self.show_last:
            painter.draw_last_trick(surface)
        avoid = self.banner_avoids()
        caption = painter.draw_banner(surface, self.hud_bottom + self.px(8), avoid)
        avoid += [caption] if caption is not None else []
        self.banner.draw(surface, self.px(10), avoid)
        if self.session.waiting_for is not None:
            painter.draw_privacy(surface, self.session.waiting_for)
        followed = not (
            self.auction.active
            or self.show_last
            or self.session.waiting_for is not None
            or self.banner.banner
            or self.banner.notes
            or self.assist.boxes
            or self.assist.values()
        )
        if not followed:
            return None
        return [b.bounds() for b in self.assist.buttons.widgets if b.visible]
