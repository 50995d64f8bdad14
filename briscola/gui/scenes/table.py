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

from briscola.engine import Action, Card, Play, Swap, TrickWon
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
from briscola.gui.table.director import Captions, Director
from briscola.gui.table.flow import HandFlow
from briscola.gui.table.frame import TableFrame
from briscola.gui.table.hand_input import HandInput
from briscola.gui.table.hud import TableHud
from briscola.gui.table.keys import TableKeys
from briscola.gui.table.local import local_session, saved_session
from briscola.gui.table.painter import TablePainter
from briscola.gui.table.signals import SignalBar
from briscola.text.i18n import _

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
        session: TableSession | None = None,
    ) -> None:
        super().__init__(app)
        if session is None:
            assert setup is not None, "a setup or a session"
            session = local_session(app, setup, demo)
        self.session = session
        self.rules = session.rules
        self.n = self.rules.players
        self.tweener = Tweener()
        self.renderer = CardRenderer(app.assets)
        self.board = Board(
            self.rules, self._new_layout(), self.tweener, lambda: app.settings.reduce_motion
        )
        self.captions = Captions()
        self.director = Director(app, session, self.board, self.captions)
        self.painter = TablePainter(app, session, self.board, self.captions, self.renderer)
        self.px = self.painter.px
        self.hand = HandInput(self.board, self.play_card, self.settle_hand)
        self.auction = AuctionPanel(app, self.px, self.renderer, self.submit)
        self.show_last = False
        #: Nothing has been shown of the session's events yet (see :meth:`_pull`).
        self._first_news = True
        self.hud_bottom = 0  # the bottom of the buttons at the top left (see on_resize)
        #: The input routed to the parts, and what the keys do that no part owns.
        self.keys = TableKeys(app, self)
        keys = self.keys
        self.hud = TableHud(
            self.pause, self.toggle_last, keys.show_hint, keys.switch_deck, self.swap
        )
        self.assist = Assist(app, session, self.board, self.hand, self.px, self._after_undo)
        #: What the table says beyond its cards (a lost connection, the table's end).
        self.banner = TableBanner(app, session, self.px)
        self.flow = HandFlow(session, self.director, self.hand, self.rebuild, self._fresh)
        self.signals = SignalBar(app, session, self.board, self.captions, self.px, self._pull)
        parts = (self.painter, self.hud, self.hand, self.assist, self.auction)
        self.frame = TableFrame(
            app, session, self, parts, (self.signals, self.banner, self.tweener)
        )
        #: A spectator's table (online, at no seat): Menu and Esc leave it.
        self.watching = session.news().watching
        if self.watching:
            self.hud.menu.label = lambda: _("Leave")
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
        self.rebuild()
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

    def rebuild(self) -> None:
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
                self.rebuild()
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
            self.rebuild()
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
        self.keys.refused(card, legal)
        return False

    def swap(self) -> None:
        swaps = [a for a in self.session.legal_actions() if isinstance(a, Swap)]
        if swaps and self.awaiting_human:
            self.submit(swaps[0])

    def pause(self) -> None:
        """The table's menu; a spectator leaves (unwatches: see on_exit) and goes back."""
        if self.watching:
            self.app.pop()
            return
        self.app.open("pause", table=self)

    def toggle_last(self) -> None:
        self.show_last = not self.show_last and self.has_last_trick()

    def has_last_trick(self) -> bool:
        """A trick of the hand shown has been taken (not of a hand gone on from)."""
        return bool(self.session.view().tricks) and not moved_on(self.session)

    def _fresh(self) -> None:
        """A new hand: nothing of the last one stays up."""
        self.show_last = False

    def _after_undo(self) -> None:
        """The player took a move back (the hand's hint went with it): the table as it is now."""
        self.show_last = False
        self.captions.banner = None  # what it said (a swap, a hint) was taken back too
        self.rebuild()

    def on_settings_changed(self) -> None:
        self.keys.forget_deck()
        super().on_settings_changed()

    def skip(self) -> None:
        """Finish the running animations at once."""
        self.director.skip()

    def settle_hand(self) -> None:
        self.board.settle(self.director.f("settle"))

    # ------------------------------------------------------------------ input

    def handle_event(self, event: pygame.event.Event) -> None:
        self.keys.handle_event(event)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> None:
        self.frame.draw(surface, partial=False)

    def draw_changed(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        return self.frame.draw(surface, partial=True)

    def forget_frame(self) -> None:
        self.painter.composer.forget()

    def banner_avoids(self) -> list[pygame.Rect]:
        """What the online notes keep clear of: the other seats' cards and name plates."""
        return self.frame.banner_avoids()
