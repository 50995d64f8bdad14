"""The board: where every card sprite is and where it should be.

The board holds the sprites by zone (the deck being dealt, the hands, the stock, the
briscola, the trick, the piles) as far as the animations have shown them, from the point of
view of ``viewer`` (the seat at the bottom of the screen; None while the hands are hidden).
:meth:`Board.targets` says where each sprite belongs; :meth:`Board.settle` moves them there
with tweens. The director changes the zones; the painter reads them; nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from briscola.engine import Card, PlayerView, Rules, Suit
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.sprites import CardSprite
from briscola.gui.render.tween import Tween, Tweener, ease_in_out_cubic, ease_out_cubic

#: (sprite, x, y, angle, width, flip): where a sprite belongs.
Target = tuple[CardSprite, float, float, float, float, float]


class Board:
    """The sprites of a table of ``rules``, laid out by ``layout``."""

    def __init__(
        self,
        rules: Rules,
        layout: TableLayout,
        tweener: Tweener,
        reduce_motion: Callable[[], bool] = lambda: False,
    ) -> None:
        self.rules = rules
        self.n = rules.players
        self.layout = layout
        self.tweener = tweener
        self.reduce_motion = reduce_motion
        self.viewer: int | None = None
        self.anchor = 0
        self.dealer = self.n - 1
        #: The sprite being dragged by the player: left where the mouse holds it.
        self.held: CardSprite | None = None
        #: Every hand face up (a replay shows them all).
        self.open_hands = False
        #: The viewer's hand is kept in order by suit and rank: from the start where the
        #: whole hand is dealt at once (no stock: Chiamata), else once the player asks (O).
        self.keep_sorted = rules.stock_size == 0
        self.clear()

    def clear(self) -> None:
        """An empty table (a new hand is about to be dealt)."""
        self.deck: list[CardSprite] = []
        self.hands: list[list[CardSprite]] = [[] for _s in range(self.n)]
        self.stock: list[CardSprite] = []  # top first
        self.briscola: CardSprite | None = None
        #: The trump suit as far as the animations have shown it.
        self.shown_trump: Suit | None = None
        self.table: list[tuple[int, CardSprite]] = []
        self.piles: dict[int, list[CardSprite]] = {}
        self.revealed_partner: int | None = None

    def set_viewer(self, seat: int | None) -> None:
        self.viewer = seat
        if seat is not None:
            self.anchor = seat

    # ------------------------------------------------------------------ places

    def screen_index(self, seat: int) -> int:
        """0 for the seat at the bottom, then counterclockwise."""
        return (seat - self.anchor) % self.n

    def seats_far_first(self) -> list[int]:
        """Seats in drawing order: the bottom seat's hand last (on top)."""
        return sorted(range(self.n), key=lambda s: -self.screen_index(s))

    def pile_key(self, seat: int) -> int:
        """Piles: one per side (teams gather on one pile), one per seat in Chiamata."""
        if self.rules.chiamata or not self.rules.teams:
            return seat
        return self.rules.side_of(seat)

    def pile_spot(self, key: int) -> tuple[float, float]:
        if self.rules.teams and not self.rules.chiamata:
            seats = [s for s in range(self.n) if self.rules.side_of(s) == key]
            seat = min(seats, key=self.screen_index)
        else:
            seat = key
        return self.layout.spots[self.screen_index(seat)].pile

    def my_hand(self) -> list[CardSprite]:
        return self.hands[self.viewer] if self.viewer is not None else []

    def card_at(self, pos: tuple[int, int]) -> CardSprite | None:
        """The viewer's card under ``pos`` (the topmost)."""
        for sprite in reversed(self.my_hand()):
            if sprite.rect().collidepoint(pos):
                return sprite
        return None

    def over_table(self, pos: tuple[int, int]) -> bool:
        """``pos`` is above the viewer's hand (a card dropped there is played)."""
        lay = self.layout
        hand_top = lay.spots[0].hand[1] - lay.card_h * 0.55
        return pos[1] < hand_top

    def cards_right_of(self, band: pygame.Rect) -> int:
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

    def over_a_hand(self, rect: pygame.Rect) -> bool:
        return any(sprite.rect().colliderect(rect) for hand in self.hands for sprite in hand)

    def shown_tricks(self) -> int:
        """How many tricks the piles show (collected by the animations so far)."""
        return sum(len(p) for p in self.piles.values()) // self.n

    def sort_hand(self) -> bool:
        """Put the viewer's hand in order: by suit (the trump, once known, at the right),
        strongest first within a suit. True when the order changed; nothing while a card
        of it is still face down."""
        hand = self.my_hand()
        cards = [sprite.card for sprite in hand]
        if not hand or any(card is None for card in cards):
            return False
        strength = self.rules.strength
        suits = list(Suit)
        trump = self.shown_trump

        def order(sprite: CardSprite) -> tuple[bool, int, int]:
            card = sprite.card
            assert card is not None
            return (card.suit is trump, suits.index(card.suit), -strength[card.rank])

        ordered = sorted(hand, key=order)
        if ordered == hand:
            return False
        hand[:] = ordered
        return True

    def add_to_hand(self, seat: int, sprite: CardSprite) -> None:
        """A card dealt or drawn into ``seat``'s hand (in its place when the hand is kept
        in order)."""
        self.hands[seat].append(sprite)
        if self.keep_sorted and seat == self.viewer:
            self.sort_hand()

    # ------------------------------------------------------------------ changes

    def take_from_hand(self, seat: int, card: Card) -> CardSprite:
        """The sprite of ``card`` out of ``seat``'s hand (a hidden one when it was unknown)."""
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

    def learn(self, seen: PlayerView) -> None:
        """Give identities to cards ``seen`` may know in partners' hands and the scoperta
        top of the stock."""
        for other in self.rules.partners(seen.seat):
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

    def rebuild(self, seen: PlayerView, viewer: int | None) -> None:
        """Recreate every sprite from a view (resume, hot-seat handover); ``viewer`` None
        shows every hand face down."""
        self.tweener.finish_all()
        self.set_viewer(viewer)
        self.dealer = seen.dealer
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
            self.piles.setdefault(self.pile_key(trick.winner), []).extend(
                CardSprite() for _c in trick.cards
            )
        if seen.partner_revealed:
            self.revealed_partner = seen.partner
        if self.keep_sorted:
            self.sort_hand()
        self.settle(0)

    # ------------------------------------------------------------------ targets and moves

    def _face_target(self, seat: int | None, sprite: CardSprite, zone: str) -> float:
        if sprite.card is None:
            return 0.0
        if zone in ("table", "briscola"):
            return 1.0
        if zone == "stock":
            return 1.0 if self.rules.scoperta and self.stock and sprite is self.stock[0] else 0.0
        if zone == "hand" and self.open_hands:
            return 1.0
        if zone == "hand" and seat is not None and self.viewer is not None:
            if seat == self.viewer:
                return 1.0
            if seat in self.rules.partners(self.viewer) and self.rules.partners_see != "never":
                return 1.0
        return 0.0

    def targets(self) -> list[Target]:
        """Where every sprite belongs."""
        lay = self.layout
        out: list[Target] = []
        for key, pile in self.piles.items():
            px_, py_ = self.pile_spot(key)
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
            dx, dy = lay.stock_offset(count - 1 - i)
            flip = self._face_target(None, sprite, "stock")
            out.append((sprite, lay.stock[0] + dx, lay.stock[1] + dy, 0.0, lay.stock_w, flip))
        if self.deck:
            ox, oy = lay.deal_origin(self.screen_index(self.dealer))
            for i, sprite in enumerate(self.deck):
                dx, dy = lay.stock_offset(len(self.deck) - 1 - i)
                out.append((sprite, ox + dx, oy + dy, 0.0, lay.stock_w, 0.0))
        for seat, sprite in self.table:
            spot = lay.spots[self.screen_index(seat)]
            tilt = ((seat * 53 + len(self.table)) % 9 - 4) * 1.5
            out.append((sprite, spot.trick[0], spot.trick[1], tilt, lay.trick_w, 1.0))
        for seat in self.seats_far_first():
            hand = self.hands[seat]
            index = self.screen_index(seat)
            slots = lay.hand_slots(index, len(hand))
            width = lay.card_w if index == 0 else lay.small_w
            for sprite, (pos, angle) in zip(hand, slots, strict=False):
                flip = self._face_target(seat, sprite, "hand")
                out.append((sprite, pos[0], pos[1], angle, width, flip))
        return out

    def settle(self, duration: float, moving: CardSprite | list[CardSprite] | None = None) -> None:
        """Move every sprite to where it belongs: ``moving`` ones fly (drawn above the
        rest), the others slide; at once when ``duration`` is 0."""
        movers = moving if isinstance(moving, list) else [moving] if moving else []
        # Reduce motion: cards still travel, but turn over at once instead of in the air.
        snap_flip = self.reduce_motion()
        for sprite, x, y, angle, w, flip in self.targets():
            if sprite is self.held:
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
            if sprite in movers or sprite.air:  # a card in the air lands where it now belongs
                self._fly(sprite, duration, x, y, angle, w, flip)
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

    def _fly(
        self,
        sprite: CardSprite,
        duration: float,
        x: float,
        y: float,
        angle: float,
        w: float,
        flip: float,
    ) -> None:
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
                sprite, duration, easing=ease_out_cubic, on_done=landed, x=x, y=y, angle=angle, w=w
            )
        )
        if abs(sprite.flip - flip) > 0.01:
            self.tweener.add(Tween(sprite, duration * 0.8, easing=ease_in_out_cubic, flip=flip))

    def draw_order(self) -> list[tuple[CardSprite, bool]]:
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
        for seat in self.seats_far_first():
            order.extend((s, True) for s in self.hands[seat])
        return order
