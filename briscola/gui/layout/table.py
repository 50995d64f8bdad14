"""Where everything sits on the table, computed from the window size and the seat count.

Screen positions are *relative to the viewer*: the viewer's seat is at the bottom and play
goes counterclockwise on screen (the next seat is to the right of the viewer), as at a real
Briscola table. Nothing here draws; the table scene asks for points and sizes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from briscola.gui.render.assets import CARD_RATIO

Point = tuple[float, float]


@dataclass(frozen=True)
class SeatSpot:
    """Geometry of one seat on screen."""

    angle: float  #: degrees, math convention: -90 is the bottom, 0 the right, 90 the top
    hand: Point  #: centre of the hand
    label: Point  #: centre of the name plate
    trick: Point  #: where this seat's card lies in the trick
    pile: Point  #: where this seat's (or team's) pile lies
    card_w: int  #: hand card width
    vertical_fan: bool  #: side seats fan their hand downwards


class TableLayout:
    """Geometry for ``players`` seats in a ``size`` window; ``scale`` is the UI scale."""

    def __init__(
        self, size: tuple[int, int], players: int, scale: float = 1.0, stock: bool = True
    ) -> None:
        self.size = size
        self.players = players
        w, h = size
        self.w, self.h = w, h
        s = scale
        # The viewer's hand and the trick: the biggest cards.
        max_by_h = h * (0.25 if players <= 3 else 0.2) / CARD_RATIO
        max_by_w = w * (0.095 if players <= 3 else 0.08)
        # The UI scale enlarges cards by a quarter at most, and by a tenth where the height is
        # the limit (wide windows): taller cards would run into the names and the trick.
        grow = max(0.85, s)
        base = min(max_by_h * min(1.1, grow), max_by_w * min(1.25, grow))
        self.card_w = max(48, int(base))
        self.card_h = round(self.card_w * CARD_RATIO)
        self.trick_w = int(self.card_w * (0.92 if players <= 4 else 0.8))
        self.small_w = max(36, int(self.card_w * (0.62 if players <= 3 else 0.52)))
        self.pile_w = max(36, int(self.card_w * 0.55))
        self.stock_w = max(40, int(self.card_w * 0.8))
        self.margin = max(8, int(min(w, h) * 0.018))
        self.label_h = max(22, int(h * 0.04 * min(1.3, s)))
        self.font = max(13, int(h * 0.024 * min(1.4, s)))
        self.centre: Point = (w * 0.5, h * 0.47)
        self.has_stock = stock
        if players <= 4:
            self.centre = (w * 0.5, h * 0.47 - self._trick_lift())
        stock_h = self.stock_w * CARD_RATIO
        if players <= 2:  # the classic place: left of the trick
            self.stock: Point = (self.margin + self.stock_w * 0.75 + w * 0.04, h * 0.47)
        else:  # other seats need the left edge: the bottom-left corner is free
            self.stock = (self.margin + self.stock_w * 0.9, h - self.margin - stock_h * 0.6)
        # The turned briscola lies across under the stock, about half of it showing; small
        # cards (a 1024x600 window, four players) show up to two thirds of it more, or only
        # a strip with its index would show (issue 50).
        small = min(1.0, max(0.0, (85 - self.stock_w) / 8))
        lengthen = small * 0.17 * stock_h
        self.briscola: Point = (self.stock[0] + self.stock_w * 0.55 + lengthen, self.stock[1])
        self.spots = [self._spot(i) for i in range(players)]

    # ------------------------------------------------------------------ seats

    def screen_angle(self, screen_index: int) -> float:
        return -90.0 + 360.0 * screen_index / self.players

    def _spot(self, index: int) -> SeatSpot:
        w, h = self.w, self.h
        angle = self.screen_angle(index)
        rad = math.radians(angle)
        cos, sin = math.cos(rad), math.sin(rad)
        if index == 0:
            hand = (w * 0.5, h - self.margin - self.card_h * 0.5)
            top = hand[1] - self.card_h * 0.5
            # Clear of a raised card, where the trick leaves room.
            trick = self._trick(cos, sin)[1] + self.trick_w * CARD_RATIO * 0.5
            clear = self._plate_clear_of_raised_card()
            label = (
                w * 0.5,
                max(clear, min(trick + self.label_h * 0.55, top - self.label_h * 0.9)),
            )
            pile = (w - self.margin - self.pile_w * 1.4, h - self.margin - self.card_h * 0.45)
            return SeatSpot(angle, hand, label, self._trick(cos, sin), pile, self.card_w, False)
        small_h = self.small_w * CARD_RATIO
        # Other seats on an ellipse inside the window, clear of the viewer's hand.
        rx = w * 0.5 - self.margin - self.small_w * 1.6
        ry_top = h * 0.47 - self.margin - small_h * 0.5
        ry_bottom = h * 0.53 - self.card_h - self.margin * 2 - small_h * 0.5
        ry = ry_top if sin > 0 else max(small_h * 0.2, ry_bottom)
        x = w * 0.5 + rx * cos
        y = h * 0.47 - ry * sin
        side = abs(cos) > 0.6
        hand = (x, y)
        label = (x, y + small_h * 0.5 + self.label_h * 0.8)
        if side:  # beside the hand, towards the middle: above it lie other seats or buttons
            pile = (x + self.small_w * 2.4 * (1 if cos < 0 else -1), y)
        else:
            pile = (x + self.small_w * 2.4 * (1 if cos <= 0.1 else -1), y)
        return SeatSpot(angle, hand, label, self._trick(cos, sin), pile, self.small_w, side)

    def _trick_lift(self) -> float:
        """How far the trick goes up (as far as the seats above it allow) so that the
        viewer's name plate fits between the viewer's card on the trick and a raised card of
        the hand: with three seats, and with large cards (a large UI scale)."""
        trick_h = self.trick_w * CARD_RATIO
        cards = [self._trick(*self._unit(i)) for i in range(self.players)]
        bottom = cards[0][1] + trick_h * 0.5  # the viewer's card
        wanted = bottom + self.label_h * 0.55 - self._plate_clear_of_raised_card()
        if wanted <= 0:
            return 0.0
        left = min(x for x, _ in cards) - self.trick_w * 0.5
        right = max(x for x, _ in cards) + self.trick_w * 0.5
        ceiling = self.label_h * 2.0  # the row of buttons
        for index in range(1, self.players):
            spot = self._spot(index)
            if abs(spot.hand[0] - (left + right) / 2) < (right - left) / 2 + self.small_w * 1.5:
                ceiling = max(ceiling, spot.label[1] + self.label_h * 0.5)
        room = min(y for _, y in cards) - trick_h * 0.5 - ceiling - self.margin
        return max(0.0, min(wanted, room))

    def _unit(self, screen_index: int) -> tuple[float, float]:
        """(cos, sin) of a seat's direction from the centre."""
        rad = math.radians(self.screen_angle(screen_index))
        return math.cos(rad), math.sin(rad)

    def _plate_clear_of_raised_card(self) -> float:
        """The lowest centre of the viewer's name plate that a raised card of the hand
        (CardSprite.lift_px, on the arc of hand_slots) and its focus ring leave free."""
        top = self.h - self.margin - self.card_h
        middle = ((3 if self.has_stock else 40 // self.players) - 1) / 2  # hand_slots arc
        arc = middle**2 * self.card_w * 0.012
        return top - arc - self.card_w * 0.18 - self.label_h * 0.8 - 6  # 6: the focus ring

    def _trick(self, cos: float, sin: float) -> Point:
        cx, cy = self.centre
        card_h = self.trick_w * CARD_RATIO
        if self.players == 2:
            # Side by side, each a little towards its player: both faces stay readable.
            return (cx - sin * self.trick_w * 0.6, cy - sin * card_h * 0.1)
        if self.players >= 5:
            return self._trick_rows(cos, sin)
        radius_x = self.trick_w * 0.95
        radius_y = card_h * 0.55
        # Three seats: the group centred on the centre (two cards above it, one below).
        middle = radius_y * 0.25 if self.players == 3 else 0.0
        return (cx + radius_x * cos, cy - radius_y * sin - middle)

    def _trick_rows(self, cos: float, sin: float) -> Point:
        """Five or six seats: the trick in two rows (the seats across the table above, the
        viewer's side below), each card in its row on its player's side, none over another."""
        cx, cy = self.centre
        card_h = self.trick_w * CARD_RATIO
        angles = [math.radians(self.screen_angle(i)) for i in range(self.players)]
        top = sin > 1e-6
        row = sorted(math.cos(a) for a in angles if (math.sin(a) > 1e-6) == top)
        place = min(range(len(row)), key=lambda i: abs(row[i] - cos))
        x = cx + (place - (len(row) - 1) / 2) * self.trick_w * 1.12
        y = cy + (-0.56 if top else 0.56) * card_h
        return (x, y)

    # ------------------------------------------------------------------ hands

    def hand_slots(self, index: int, count: int, lift: int = -1) -> list[tuple[Point, float]]:
        """Centre and angle of each card of a hand of ``count`` cards at screen seat
        ``index``."""
        spot = self.spots[index]
        if count <= 0:
            return []
        if index == 0:
            max_span = self.w * 0.56
            step = min(self.card_w * 1.08, max_span / max(1, count))
            start = spot.hand[0] - step * (count - 1) / 2
            slots = []
            middle = (count - 1) / 2
            lowest = middle**2 * self.card_w * 0.012
            for i in range(count):
                tilt = (i - middle) * (2.0 if count > 3 else 3.0)
                arc = (i - middle) ** 2 * self.card_w * 0.012
                slots.append(((start + step * i, spot.hand[1] + arc - lowest), -tilt))
            return slots
        step = self.small_w * (0.42 if count > 4 else 0.55)
        start = spot.hand[0] - step * (count - 1) / 2
        return [((start + step * i, spot.hand[1]), 0.0) for i in range(count)]

    def hand_rect(self, index: int, count: int) -> tuple[float, float, float, float]:
        """Bounding box (x, y, w, h) of a hand, for hit tests and overlap checks."""
        slots = self.hand_slots(index, count)
        width = self.card_w if index == 0 else self.small_w
        height = width * CARD_RATIO
        if not slots:
            x, y = self.spots[index].hand
            return (x, y, 0.0, 0.0)
        xs = [p[0] for p, _ in slots]
        ys = [p[1] for p, _ in slots]
        return (
            min(xs) - width / 2,
            min(ys) - height / 2,
            max(xs) - min(xs) + width,
            max(ys) - min(ys) + height,
        )

    def stock_offset(self, i: int) -> Point:
        """Offset of the i-th card from the top of the stock (a visible thickness)."""
        step = max(0.5, self.stock_w / 110)
        depth = min(i, 12)
        return (depth * step * 0.5, depth * step * 0.6)

    def deal_origin(self, dealer_index: int) -> Point:
        """Where the deck is held while the dealer deals (near the dealer, towards the centre,
        clear of the dealer's name)."""
        spot = self.spots[dealer_index]
        x, y = spot.hand
        cx, cy = self.centre
        hx, hy = x + (cx - x) * 0.6, y + (cy - y) * 0.6
        lx, ly = spot.label
        if abs(lx - hx) < self.stock_w * 1.5:  # the name lies above or below the deck
            room = self.label_h * 0.6 + self.stock_w * CARD_RATIO * 0.5 + self.margin
            hy = max(hy, ly + room) if ly < hy else min(hy, ly - room)
        return (hx, hy)
