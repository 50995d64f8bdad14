"""The table's buttons: Menu, Last trick, Hint, Deck in a row at the top left, and Swap beside
the briscola (shown only when the player may swap)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from briscola.gui.layout.table import TableLayout
from briscola.gui.render.assets import CARD_RATIO
from briscola.gui.widgets import Button, WidgetGroup
from briscola.text.i18n import _

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets

Action = Callable[[], None]


class TableHud(WidgetGroup):
    """The buttons, each calling its action."""

    def __init__(
        self, menu: Action, last: Action, hint: Action, deck: Action, swap: Action
    ) -> None:
        self.menu = Button(lambda: _("Menu"), menu, name="menu")
        self.last = Button(lambda: _("Last trick"), last, name="last")
        self.hint = Button(lambda: _("Hint"), hint, name="hint")
        self.deck = Button(lambda: _("Deck"), deck, name="deck")
        self.swap = Button(lambda: _("Swap"), swap, name="swap")
        super().__init__([self.menu, self.last, self.hint, self.deck, self.swap])

    def lay_out(self, assets: Assets, px: Callable[[float], int], layout: TableLayout) -> None:
        x, y = px(10), px(10)
        h = px(32)
        font = assets.font(int(h * 0.45), True)
        for button in (self.menu, self.last, self.hint, self.deck, self.swap):
            width = max(px(70), font.size(button.label())[0] + px(24))
            button.rect = pygame.Rect(x, y, width, h)
            x += width + px(8)
        # Swap: beside the turned briscola, on the side away from the stock (above or below
        # it, the button would lie over the stock's cards or leave the window).
        bx, by = layout.briscola
        rect = pygame.Rect(0, 0, max(px(90), font.size(self.swap.label())[0] + px(24)), h)
        rect.midleft = (round(bx + layout.stock_w * CARD_RATIO * 0.5 + px(12)), round(by))
        self.swap.rect = rect

    def clear_of_hands(
        self, more: list[pygame.Rect], px: Callable[[float], int], layout: TableLayout
    ) -> int:
        """Where the row of buttons (Menu to Deck, then ``more``: other buttons after them)
        would run into another seat's hand (large UI scale, narrow windows), the buttons that
        do go on a row below. The bottom of the buttons."""
        hands = hand_boxes(layout)
        rects = [b.rect for b in (self.menu, self.last, self.hint, self.deck)] + more
        x0, y = rects[0].topleft
        x = x0
        for rect in rects:
            rect.topleft = (x, y)
            if x > x0 and any(rect.colliderect(hand) for hand in hands):
                x, y = x0, rect.bottom + px(8)
                rect.topleft = (x, y)
            x = rect.right + px(8)
        return max(rect.bottom for rect in rects)

    def hotkey(self, key: int) -> bool:
        """The keyboard's way to the buttons: D, L, H, S (Esc is the menu's). True when
        ``key`` is one of them."""
        button = {
            pygame.K_d: self.deck,
            pygame.K_l: self.last,
            pygame.K_h: self.hint,
            pygame.K_s: self.swap,
        }.get(key)
        if button is None:
            return False
        button.on_click()
        return True

    def covers(self, pos: tuple[int, int]) -> bool:
        """A shown button lies under ``pos``."""
        return any(b.visible and b.rect.collidepoint(pos) for b in self.widgets)


def plate_boxes(layout: TableLayout, width: int, pad: int) -> list[pygame.Rect]:
    """Room for every seat's name plate: ``width`` wide, ``pad`` taller than a plate."""
    boxes = []
    for spot in layout.spots:
        box = pygame.Rect(0, 0, width, layout.label_h + pad)
        box.center = (round(spot.label[0]), round(spot.label[1]))
        boxes.append(box)
    return boxes


def hand_boxes(layout: TableLayout) -> list[pygame.Rect]:
    """Where the other seats' hands lie at their largest (upright cards; side seats' turned)."""
    count = 3 if layout.has_stock else 40 // layout.players
    boxes = []
    for index in range(1, layout.players):
        spot = layout.spots[index]
        w, h = layout.small_w, round(layout.small_w * CARD_RATIO)
        if spot.vertical_fan:
            w, h = h, w
        for (x, y), _angle in layout.hand_slots(index, count):
            box = pygame.Rect(0, 0, w, h)
            box.center = (round(x), round(y))
            boxes.append(box)
    return boxes
