"""The table's input, routed: :class:`TableKeys` hands each event to the part it is for (the
hot-seat screen, Esc and the last trick, the buttons' hotkeys, the signal bar, skipping an
animation, the buttons, the auction panel, the hand), and does what the keys and buttons do
that no single part owns (the hint, the next deck, sorting the hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from briscola.ai import hint
from briscola.engine import Card, Swap
from briscola.game.session import TableSession
from briscola.gui.table.assist import Assist
from briscola.gui.table.auction import AuctionPanel
from briscola.gui.table.board import Board
from briscola.gui.table.director import TIMINGS, Captions
from briscola.gui.table.hand_input import HandInput
from briscola.gui.table.hud import TableHud
from briscola.gui.table.signals import SignalBar
from briscola.text.coachtext import swap_hint_text
from briscola.text.decks import deck_info
from briscola.text.i18n import _, current_language
from briscola.text.labels import must_follow_text

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class KeyedTable(Protocol):
    """What the input reads and asks of the table scene."""

    session: TableSession
    board: Board
    captions: Captions
    hud: TableHud
    hand: HandInput
    assist: Assist
    auction: AuctionPanel
    signals: SignalBar
    show_last: bool

    @property
    def busy(self) -> bool: ...

    @property
    def awaiting_human(self) -> bool: ...

    def legal_cards(self) -> list[Card]: ...

    def pause(self) -> None: ...

    def skip(self) -> None: ...

    def rebuild(self) -> None: ...

    def settle_hand(self) -> None: ...


class TableKeys:
    """The input of ``table``."""

    def __init__(self, app: Services, table: KeyedTable) -> None:
        self.app = app
        self.table = table
        #: The banner naming the deck (D), while it may show.
        self.deck_banner: object = None

    def handle_event(self, event: pygame.event.Event) -> None:
        table = self.table
        session = table.session
        if session.waiting_for is not None:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                    table.pause()
                    return
                session.reveal()
                table.rebuild()
            return
        key = event.key if event.type == pygame.KEYDOWN else None
        if key == pygame.K_ESCAPE:
            if table.show_last:
                table.show_last = False
            else:
                table.pause()
            return
        if table.show_last and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            table.show_last = False
            if key == pygame.K_l:
                return
        undo = key == pygame.K_u or (key == pygame.K_z and event.mod & pygame.KMOD_CTRL)
        if undo and session.news().watching:
            self.watching_only()
            return
        if key is not None and (table.hud.hotkey(key) or table.assist.hotkey(event)):
            return
        if table.signals.handle_event(event):  # partner signals: the bar and F1-F8
            return
        if key == pygame.K_o:
            self.sort_hand()
            return
        skipping = table.busy and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)
        if skipping and not (event.type == pygame.MOUSEBUTTONDOWN and table.hud.covers(event.pos)):
            table.skip()
            return
        # The HUD buttons take the mouse; the keyboard has hotkeys (Esc, L, H, D, S).
        mouse = event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if mouse and (table.hud.handle_event(event) or table.assist.handle_event(event)):
            return
        if table.auction.handle_event(event):
            return
        playing = table.awaiting_human and not table.auction.active
        table.hand.handle(event, table.legal_cards() if playing else None)

    def show_hint(self) -> None:
        """H: the coach's card (or bid, or call) and why; a swap says so in the banner."""
        table = self.table
        if not table.awaiting_human:
            if table.session.news().watching:
                self.watching_only()
            return
        seen = table.session.view()
        if seen.phase in ("auction", "call"):
            # Chiamata: the coach's bid or call, focused on the panel, and why.
            table.auction.suggest(table.assist.ask_bid_hint(seen).action)
            return
        action = hint(seen)
        if not isinstance(action, Swap):
            table.assist.ask_hint(seen)  # the coach's card and why, in the background
        else:
            style = self.app.settings
            table.captions.announce(
                lambda: swap_hint_text(seen, action, style.deck_style), TIMINGS["hint banner"]
            )

    def watching_only(self) -> None:
        """A spectator asked for a hint or an undo: why there is none."""
        self.table.captions.announce(
            lambda: _("You are watching: no hints, no moves, nothing to undo."),
            TIMINGS["hint banner"],
        )

    def refused(self, card: Card, legal: list[Card]) -> None:
        """A card the rules refuse was chosen: when the suit led must be followed, say so."""
        seen = self.table.session.view()
        if legal and seen.rules.follow_suit and seen.table and card in seen.hand:
            suit, style = seen.table[0][1].suit, self.app.settings
            self.table.captions.announce(
                lambda: must_follow_text(suit, style.deck_style), TIMINGS["hint banner"]
            )

    def switch_deck(self) -> None:
        """D: the next deck ticked in Settings, and its name said briefly."""
        settings = self.app.settings
        deck = settings.cycle_deck()
        self.app.settings_changed()
        info = deck_info(deck)
        if info is not None:
            self.table.captions.announce(
                lambda: _("Deck: {name}").format(name=info.title(current_language())),
                TIMINGS["deck banner"],
            )
            self.deck_banner = self.table.captions.banner

    def forget_deck(self) -> None:
        """Another deck was chosen in Settings: the banner naming the one before goes."""
        captions = self.table.captions
        if captions.banner is not None and captions.banner is self.deck_banner:
            captions.banner = None

    def sort_hand(self) -> None:
        """O: the player's hand in order by suit and rank, and kept so from now on."""
        table = self.table
        table.board.keep_sorted = True
        if table.board.sort_hand():
            table.hand.reset()
            table.settle_hand()
