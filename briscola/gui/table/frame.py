"""A frame of the table put together: :class:`TableFrame` hands the painter the pieces it
composes over the cached still layer (name plates, the information panel, the overlays, the
buttons) and draws the chrome over the cards (the assist, the auction panel, the last trick,
the banners, the hot-seat screen). It reads the table's parts and, through :class:`Turn`,
what the scene knows of the turn; it changes nothing but the buttons' visibility."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from briscola.engine import Card, Swap
from briscola.game.session import SessionView
from briscola.gui.render.sprites import CardSprite
from briscola.gui.render.tween import Tweener
from briscola.gui.table.assist import Assist
from briscola.gui.table.auction import AuctionPanel
from briscola.gui.table.banner import TableBanner
from briscola.gui.table.hand_input import HandInput
from briscola.gui.table.hud import TableHud, hand_boxes, plate_boxes
from briscola.gui.table.painter import TablePainter
from briscola.gui.table.plates import info_pieces, label_pieces
from briscola.gui.table.signals import SignalBar

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class Turn(Protocol):
    """What the frame reads of the table scene: whose turn it shows, what may be played."""

    @property
    def awaiting_human(self) -> bool: ...

    @property
    def turn_shown(self) -> int | None: ...

    @property
    def show_last(self) -> bool: ...

    @property
    def hud_bottom(self) -> int: ...

    def legal_cards(self) -> list[Card]: ...

    def my_hand(self) -> list[CardSprite]: ...

    def has_last_trick(self) -> bool: ...


class TableFrame:
    """Draws the table of ``turn`` with its parts."""

    def __init__(
        self,
        app: Services,
        session: SessionView,
        turn: Turn,
        parts: tuple[TablePainter, TableHud, HandInput, Assist, AuctionPanel],
        more: tuple[SignalBar, TableBanner, Tweener],
    ) -> None:
        self.app = app
        self.session = session
        self.turn = turn
        self.painter, self.hud, self.hand, self.assist, self.auction = parts
        self.signals, self.banner, self.tweener = more
        self.px = self.painter.px

    def draw(self, surface: pygame.Surface, partial: bool) -> list[pygame.Rect] | None:
        """The frame; with ``partial``, only what changed, and where (None: drawn whole)."""
        app, turn = self.app, self.turn
        interactive = turn.awaiting_human and not self.auction.active
        legal = set(turn.legal_cards()) if interactive else set()
        # The hint's outline in another colour than the focus ring's (and a tag says it).
        self.hand.mark(interactive, legal, app.theme.text, app.settings.reduce_motion)
        # Cards lying still (piles, stock, trick, other hands) are drawn with the table into a
        # cached layer; moving cards and the viewer's hand are drawn over it.
        moving = {id(tween.target) for tween in self.tweener.tweens}
        moving.update(id(sprite) for sprite in turn.my_hand())
        focused = self.hand.focused() if interactive else None
        hinted = self.hand.hinted() if interactive else None
        painter = self.painter
        shown = turn.turn_shown
        hud = self.hud
        hud.swap.visible = turn.awaiting_human and any(
            isinstance(a, Swap) for a in self.session.legal_actions()
        )
        hud.hint.enabled = turn.awaiting_human  # the auction's bids and call too
        hud.last.enabled = turn.has_last_trick()
        pieces = [
            *label_pieces(painter, shown, shown is not None and painter.pulsing(shown)),
            *info_pieces(painter, shown),
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
        painter.draw_bids(surface, self.turn.hud_bottom + self.px(10))

    def banner_avoids(self) -> list[pygame.Rect]:
        """What the online notes keep clear of: the other seats' cards and name plates."""
        lay = self.painter.board.layout
        return hand_boxes(lay) + plate_boxes(lay, self.px(170), self.px(6))[1:]

    def _chrome(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Everything over the cards after the name plates, the information panel, the
        bubbles and the buttons; returns where it drew beyond the painter's own (None
        when it cannot say: such frames are drawn whole)."""
        painter, session, turn = self.painter, self.session, self.turn
        self.assist.draw(surface, (self.auction.panel(),) if self.auction.active else ())
        if self.auction.active:
            self.auction.draw(surface, session.view())
        if turn.show_last:
            painter.draw_last_trick(surface)
        avoid = self.banner_avoids()
        caption = painter.draw_banner(surface, turn.hud_bottom + self.px(8), avoid)
        avoid += [caption] if caption is not None else []
        self.banner.draw(surface, self.px(10), avoid)
        if session.waiting_for is not None:
            painter.draw_privacy(surface, session.waiting_for)
        followed = not (
            self.auction.active
            or turn.show_last
            or session.waiting_for is not None
            or self.banner.banner
            or self.banner.notes
            or self.assist.boxes
            or self.assist.values()
        )
        if not followed:
            return None
        return [b.bounds() for b in self.assist.buttons.widgets if b.visible]
