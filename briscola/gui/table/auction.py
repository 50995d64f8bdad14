"""The auction panel (Chiamata): bid and call buttons over the table.

:class:`AuctionPanel` shows, when the shown seat must bid or call, a panel of buttons: the
ranks, "Two and N" with its − and + (bids in points), Pass; or the four suits of the card to
call, each with its face. The chosen action goes to the ``on_action`` callback; the panel
never touches the game. Left and Right move along the buttons, Enter chooses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from briscola.engine import PASS, Action, Bid, Call, Card, PlayerView, Rank
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.sprites import CardRenderer
from briscola.gui.table.plates import plate_reach
from briscola.gui.widgets import Button, WidgetGroup, draw_solid_panel, fit_text
from briscola.text.i18n import _
from briscola.text.labels import bid_label
from briscola.text.names import rank_name, suit_name

if TYPE_CHECKING:
    from briscola.gui.scene import Services


class AuctionPanel:
    """Bid and call controls; ``px`` scales design sizes, ``on_action`` gets the choice."""

    def __init__(
        self,
        app: Services,
        px: Callable[[float], int],
        renderer: CardRenderer,
        on_action: Callable[[Action], object],
    ) -> None:
        self.app = app
        self.px = px
        self.renderer = renderer
        self.on_action = on_action
        self.controls = WidgetGroup()
        self.bid_points = 62
        self.phase = ""
        self._key = ""  # which auction or call turn the buttons were made for
        self._legal: list[Action] = []
        self._held = 8  # the cards in the player's hand (the panel keeps clear of them)
        self.layout: TableLayout | None = None

    @property
    def active(self) -> bool:
        return bool(self.controls.widgets)

    @property
    def style(self) -> str:
        return self.app.settings.deck_style

    def refresh(self, seen: PlayerView | None, legal: list[Action]) -> None:
        """Show the buttons when ``seen``'s seat must bid or call now (``legal`` its
        actions, empty when it may not act), hide them otherwise."""
        wanted = ""
        if seen is not None and legal and seen.phase in ("auction", "call"):
            wanted = f"{seen.phase}:{len(seen.bids)}"
        if self._key == wanted:
            return
        self._key = wanted
        self.controls = WidgetGroup()
        self._legal = list(legal)
        if not wanted or seen is None:
            self.phase = ""
            return
        self.phase = seen.phase
        self._held = len(seen.hand)
        if seen.phase == "auction":
            self._bid_buttons(legal)
            self._focus_first_bid()
        else:
            for action in legal:
                if isinstance(action, Call):
                    self.controls.add(
                        Button(
                            functools.partial(self._suit_label, action.card),
                            functools.partial(self._choose, action),
                            name=f"call:{action.card.code}",
                        )
                    )
        self.controls.keyboard_focus = True
        self.lay_out()

    def _bid_buttons(self, legal: list[Action]) -> None:
        ranks = [a for a in legal if isinstance(a, Bid) and a.points == 61]
        twos = [a.points for a in legal if isinstance(a, Bid) and a.rank == Rank.TWO]
        self.bid_points = max(min(twos, default=62), min(self.bid_points, 120))
        for bid in ranks:
            self.controls.add(
                Button(
                    functools.partial(self._bid_label, bid),
                    functools.partial(self._choose, bid),
                    name=f"bid:{bid.rank.code}",
                )
            )
        if twos:
            self.controls.add(Button(lambda: "−", lambda: self._bump(-1), name="minus"))
            self.controls.add(
                Button(
                    lambda: self._bid_label(Bid(Rank.TWO, self.bid_points)),
                    self._bid_points,
                    name="bid:points",
                )
            )
            self.controls.add(Button(lambda: "+", lambda: self._bump(1), name="plus"))
        if PASS in legal:
            self.controls.add(
                Button(lambda: _("Pass"), functools.partial(self._choose, PASS), name="pass")
            )

    def _focus_first_bid(self) -> None:
        """The keyboard starts on the first rank, or on the bid in points once only points
        are left (never on − or +)."""
        names = [getattr(button, "name", "") for button in self.controls.widgets]
        for name in names:
            if name.startswith("bid:"):
                self.controls.focus = names.index(name)
                return

    def suggest(self, action: Action) -> None:
        """The coach's choice: its button takes the keyboard focus (Enter makes it), and a
        bid in points shows its number."""
        if isinstance(action, Bid):
            name = "bid:points" if action.points > 61 else f"bid:{action.rank.code}"
            if action.points > 61:
                self.bid_points = action.points
        elif isinstance(action, Call):
            name = f"call:{action.card.code}"
        else:
            name = "pass"
        for button in self.controls.widgets:
            if getattr(button, "name", "") == name:
                self.controls.focus_widget(button)
                self.controls.keyboard_focus = True
                return

    def help_lines(self) -> list[str]:
        """What the bids mean, for a newcomer: one line on ranks, one on points."""
        names = [getattr(button, "name", "") for button in self.controls.widgets]
        lines = []
        if any(n.startswith("bid:") and n != "bid:points" for n in names):
            lines.append(
                _("Bid a rank below the last (Ace highest); the winner calls a card of that rank.")
            )
        if "bid:points" in names:
            lines.append(
                _("“Two and N”: the Two, and a promise of N points or more; − and + change N.")
            )
        return lines

    def _choose(self, action: Action) -> None:
        self.on_action(action)

    def _bid_label(self, bid: Bid) -> str:
        return bid_label(bid, self.style)

    def _suit_label(self, card: Card) -> str:
        return suit_name(card.suit, self.style).capitalize()

    def _twos(self) -> list[int]:
        return [a.points for a in self._legal if isinstance(a, Bid) and a.rank == Rank.TWO]

    def _bump(self, step: int) -> None:
        twos = self._twos()
        if twos:
            self.bid_points = max(min(twos), min(max(twos), self.bid_points + step))

    def _bid_points(self) -> None:
        bid = Bid(Rank.TWO, self.bid_points) if self.bid_points > 61 else Bid(Rank.TWO)
        if bid in self._legal:
            self._choose(bid)

    # ------------------------------------------------------------------ layout

    def panel(self) -> pygame.Rect:
        lay = self.layout
        assert lay is not None
        px = self.px
        width = min(int(lay.w * 0.62), px(720))
        if self.phase == "auction":
            rows = -(-len(self._rank_buttons()) // self._columns(width))
            # Title, the rows of ranks, the row of points and Pass, the help lines.
            height = px(56) + rows * px(46) + px(54) + px(20) * len(self.help_lines()) + px(8)
        else:
            height = round(lay.card_h * 0.75) + px(120)
        rect = pygame.Rect(0, 0, width, height)
        rect.center = (round(lay.centre[0]), round(lay.centre[1]))
        # Below the name plates of the seats across the table (it is solid: they would be
        # cut), over the player's own plate if it must, and clear of the player's hand.
        upper = [s.label[1] for s in lay.spots[1:] if s.label[1] < lay.centre[1]]
        if upper:
            reach = plate_reach(self.app.assets, lay.font, px)
            hand_top = round(lay.hand_rect(0, self._held)[1]) - px(4)
            below_plates = round(max(upper)) + reach + px(4)
            rect.top = max(rect.top, min(below_plates, hand_top - rect.height))
            # The player's own plate whole under it, or whole outside: no glowing sliver.
            own = round(lay.spots[0].label[1])
            own_bottom = own + reach + px(2)
            if rect.top <= own - reach < rect.bottom < own_bottom <= hand_top:
                rect.height = own_bottom - rect.top
        return rect

    def _columns(self, panel_width: int) -> int:
        """Rank buttons per row: all ten in one row when each gets a readable width, else
        two rows of five (narrow windows, large UI scale)."""
        return 10 if (panel_width - self.px(40)) / 10 >= self.px(88) else 5

    def _rank_buttons(self) -> list[Button]:
        return [
            b
            for b in self.controls.widgets
            if isinstance(b, Button) and b.name.startswith("bid:") and b.name != "bid:points"
        ]

    def lay_out(self, layout: TableLayout | None = None) -> None:
        if layout is not None:
            self.layout = layout
        if not self.controls.widgets or self.layout is None:
            return
        px = self.px
        panel = self.panel()
        buttons = self.controls.widgets
        if self.phase == "call":
            width = (panel.width - px(40)) // 4
            for i, button in enumerate(buttons):
                button.rect = pygame.Rect(
                    panel.x + px(20) + i * width + px(6),
                    panel.bottom - px(48),
                    width - px(12),
                    px(36),
                )
            return
        ranks = self._rank_buttons()
        others = [b for b in buttons if b not in ranks]
        columns = self._columns(panel.width)
        width = (panel.width - px(40)) // columns
        y = panel.y + px(56)
        for i, button in enumerate(ranks):
            row, column = divmod(i, columns)
            button.rect = pygame.Rect(
                panel.x + px(20) + column * width, y + row * px(46), width - px(6), px(38)
            )
        rows = (len(ranks) + columns - 1) // columns
        y += rows * px(46) + px(6) if rows else 0
        x = panel.x + px(20)
        sizes = {"minus": px(40), "plus": px(40), "bid:points": px(180)}
        for button in others:
            bw = sizes.get(getattr(button, "name", ""), px(120))
            button.rect = pygame.Rect(x, y, bw, px(38))
            x += bw + px(8)

    # ------------------------------------------------------------------ input and drawing

    def report(self, data: dict[str, Any]) -> None:
        """Add the buttons shown to a scene's report (see Scene.report)."""
        for button in self.controls.widgets:
            if isinstance(button, Button) and button.name and button.visible and button.enabled:
                data["widgets"][button.name] = list(button.rect)
                data["labels"][button.name] = str(button.label())

    def handle_event(self, event: pygame.event.Event) -> bool:
        """True when the panel took the event."""
        if not self.controls.widgets:
            return False
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            # The buttons lie in rows: the arrows move along them.
            self.controls.keyboard_focus = True
            self.controls.move_focus(-1 if event.key == pygame.K_LEFT else 1)
            return True
        return self.controls.handle_event(event)

    def draw(self, surface: pygame.Surface, seen: PlayerView) -> None:
        app = self.app
        px = self.px
        panel = self.panel()
        # Solid: the player's own name plate, under the panel where the table is short,
        # does not show through the help lines.
        draw_solid_panel(surface, panel, app.draw_backdrop, app.theme, max(1, px(2)))
        if self.phase == "auction":
            high = seen.high_bid
            title = (
                _("Your bid (highest: {bid})").format(bid=bid_label(high, self.style))
                if high
                else _("Your bid: the rank you will call")
            )
        else:
            assert seen.high_bid is not None
            title = _("Call a card: the {rank} of which suit?").format(
                rank=rank_name(seen.high_bid.rank, self.style)
            )
            self._draw_faces(surface)
        size = fit_text(app.assets, title, px(22), panel.width - px(40), bold=True)
        text = app.assets.text(title, size, app.theme.text, bold=True)
        surface.blit(text, text.get_rect(midtop=(panel.centerx, panel.y + px(14))))
        if self.phase == "auction":
            self._draw_help(surface, panel)
        self.controls.draw(surface, app.assets, app.theme)

    def _draw_help(self, surface: pygame.Surface, panel: pygame.Rect) -> None:
        """The help lines under the buttons."""
        app = self.app
        px = self.px
        lines = self.help_lines()
        y = panel.bottom - px(8) - px(20) * len(lines)
        for line in lines:
            size = fit_text(app.assets, line, px(15), panel.width - px(30))
            text = app.assets.text(line, size, app.theme.dim)
            surface.blit(text, text.get_rect(midtop=(panel.centerx, y)))
            y += px(20)

    def _draw_faces(self, surface: pygame.Surface) -> None:
        """Above each suit's button, the face of the card it calls."""
        assert self.layout is not None
        px = self.px
        for button in self.controls.widgets:
            if isinstance(button, Button) and button.name.startswith("call:"):
                card = Card.from_code(button.name[5:])
                width = min(int(self.layout.card_w * 0.8), button.rect.width - px(10))
                face = self.renderer.base(card, max(20, width))
                rect = face.get_rect(midbottom=(button.rect.centerx, button.rect.top - px(8)))
                surface.blit(face, rect)
