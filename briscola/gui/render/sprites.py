"""Card sprites and their drawing.

A :class:`CardSprite` is a card on the table: position (centre), angle, width, and a flip
state from 0 (back up) to 1 (face up). Its ``card`` is None when the viewer may not know
it: a hidden card is never even known to the sprite, so it cannot be drawn face up by
mistake. Drawing goes through :class:`CardRenderer`, which caches faces at the exact widths
the layout uses (rasterised from SVG), and rotated copies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import pygame

from briscola.engine import Card
from briscola.gui.render.assets import CARD_RATIO, LRU, surface_bytes
from briscola.gui.widgets import rounded

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


#: The shadows' opacity: a card lying down, a card lifted or in flight.
SHADOW_ALPHAS = (80, 110)
#: The turned images kept (the fanned hands, the piles), in cards of the largest size.
ROTATED_CARDS = 32
#: The turned shadows kept (on the move and at rest alike), in cards' worth.
SHADOWS = 16
#: The turned images of cards on the move kept, in cards' worth.
FLYING_CARDS = 8
#: New smoothed turns of cards on the move made in one frame (a hand spreading again turns
#: all its cards by a degree in the same frame): a card on the move whose angle is not
#: turned yet is shown meanwhile at the nearest one turned, at most TURN_LAG degrees off,
#: and turned in a later frame. Cards at rest are always shown at their own angle.
TURNS_PER_FRAME = 1
TURN_LAG = 2
#: A shadow on the move is shown at the nearest angle turned within this many degrees of
#: its card's (it is soft: the same to the eye), so that a flight turns a few, not one per
#: degree.
SHADOW_LAG = 2
#: A turned card turning over, at least this wide (of its width): its turned image, kept,
#: narrowed across the screen; narrower, it is narrowed and then turned for that frame (a
#: narrow image turns quickly, and narrowing a turned one would slant its ends visibly).
FLIP_TURNED = 0.7


class CardSprite:
    __slots__ = ("air", "angle", "card", "dim", "flip", "glow", "lift", "moving", "w", "x", "y")

    def __init__(
        self,
        card: Card | None = None,
        x: float = 0.0,
        y: float = 0.0,
        w: float = 80.0,
        angle: float = 0.0,
        flip: float = 0.0,
    ) -> None:
        self.card = card
        self.x = x
        self.y = y
        self.w = w
        self.angle = angle
        self.flip = flip
        self.lift = 0.0  #: hover lift, 0..1
        self.air = False  #: moving: drawn above the rest, with a larger shadow
        #: Sliding to another place this frame (the painter says): turned images are
        #: fleeting, kept apart from those of cards at rest.
        self.moving = False
        self.glow: tuple[int, int, int] | None = None
        self.dim = False

    @property
    def face_up(self) -> bool:
        """Shows its face now (what a player can see on screen)."""
        return self.card is not None and self.flip >= 0.5

    def rect(self) -> pygame.Rect:
        """The unrotated bounding box (for hit tests)."""
        h = self.w * CARD_RATIO
        return pygame.Rect(
            round(self.x - self.w / 2),
            round(self.y - h / 2 - self.lift_px()),
            round(self.w),
            round(h),
        )

    def lift_px(self) -> float:
        return self.lift * self.w * 0.18

    def __repr__(self) -> str:
        code = self.card.code if self.card else "??"
        return f"<CardSprite {code} ({self.x:.0f},{self.y:.0f}) flip={self.flip:.2f}>"


def _nearest(angle: int, lag: int, at_hand: Callable[[int], bool]) -> int:
    """The angle nearest ``angle`` within ``lag`` degrees (one degree above first) whose
    image is ``at_hand``; ``angle`` itself when none is."""
    for step in range(1, lag + 1):
        for near in ((angle + step) % 360, (angle - step) % 360):
            if at_hand(near):
                return near
    return angle


class CardRenderer:
    """Draws card sprites with shadows, cached faces and rotations."""

    def __init__(self, assets: Assets) -> None:
        self.assets = assets
        self.style = "italian"
        self.back = "classic"
        self.exact: set[int] = set()
        self.faces: set[int] = set()
        #: Face widths rasterised only for the cards the table asks for (see want).
        self.on_demand: set[int] = set()
        self._wanted: tuple[frozenset[tuple[Card, int]], frozenset[Card]] | None = None
        self._scaled: LRU[pygame.Surface] = LRU(80)
        #: Turned cards and shadows, up to about ROTATED_CARDS cards' worth (see configure).
        self._rotated: LRU[pygame.Surface] = LRU(120, surface_bytes, per_frame=True)
        #: The turned cards on the move, up to FLYING_CARDS cards' worth.
        self._flying: LRU[pygame.Surface] = LRU(24, surface_bytes, per_frame=True)
        #: The turned shadows (a few angles serve every card, on the move and at rest: a
        #: card that lands finds its shadow made), kept apart so that the turned cards
        #: streaming through never push them out.
        self._shadows: LRU[pygame.Surface] = LRU(48, surface_bytes, per_frame=True)
        #: This frame (see next_frame), its new turns still allowed, the angles chosen
        #: for the cards on the move, and the sprites shown at an angle near their own.
        self._frame: Hashable = None
        self._turns_left = TURNS_PER_FRAME
        self._chosen: dict[tuple[Hashable, ...], int] = {}
        self.lagging: set[int] = set()
        #: Cards whose faces are still to rasterise in advance (see warm_some).
        self.cold: list[Card] = []
        self._backs_warm = False

    def configure(
        self,
        style: str,
        back: str,
        exact_widths: set[int],
        face_widths: set[int] | None = None,
        on_demand: set[int] | None = None,
    ) -> None:
        """``exact_widths``: the widths the layout uses (backs are rasterised at each);
        ``face_widths``: those at which faces are rasterised, the whole deck in advance on
        a background thread, except at the ``on_demand`` widths, where only the cards
        :meth:`want` names are (the player's hand, the briscola: memory follows what the
        table shows). Faces at other widths are scaled down from the nearest, never
        rasterised mid-animation. Card images at sizes the layout no longer uses leave the
        caches."""
        faces = face_widths or exact_widths
        demand = (on_demand or set()) & faces
        same = (style, back, exact_widths, faces, demand)
        if same != (self.style, self.back, self.exact, self.faces, self.on_demand):
            self._scaled.clear()
            self._rotated.clear()
            self._flying.clear()
            self._shadows.clear()
            self._wanted = None
        self.style, self.back, self.exact, self.faces = style, back, exact_widths, faces
        self.on_demand = demand
        widest = max(exact_widths | faces, default=80)
        card_bytes = widest * round(widest * CARD_RATIO) * 4
        self._rotated.budget = ROTATED_CARDS * card_bytes
        self._flying.budget = FLYING_CARDS * card_bytes
        self._shadows.budget = SHADOWS * card_bytes
        self.assets.keep_card_widths(exact_widths | faces)
        self.cold = [Card.from_index(i) for i in range(40)]
        self._backs_warm = False

    @property
    def warmed(self) -> set[int]:
        """The face widths at which the whole deck is rasterised in advance."""
        return self.faces - self.on_demand

    def warm_some(self) -> None:
        """Keep the deck's faces coming, so that the first deal never stutters: they are
        rasterised on a background thread and taken in here as they are done (a quick
        conversion each); the backs and shadows at every width in use come last."""
        assets, style = self.assets, self.style
        assets.collect()
        for card in list(self.cold):
            missing = [w for w in self.warmed if not assets.face_ready(card, style, w)]
            if not missing:
                self.cold.remove(card)
            for width in missing:  # started once: asking again costs nothing
                assets.prepare_face(card, style, width)
        if not self.cold and not self._backs_warm:
            self._backs_warm = True
            for width in self.exact:
                self.base(None, width)
                for alpha in SHADOW_ALPHAS:  # resting and lifted (see draw)
                    self.assets.shadow(width, alpha)

    def next_frame(self, frame: Hashable = None) -> None:
        """Frame ``frame`` begins (None: a new one, whatever the last was): the turned
        images the last one used may leave the caches again (within one frame they stay,
        however many there are: see ``LRU``), and new turns of cards on the move are
        allowed again. The same frame drawn again (whole, after it was drawn in part) makes
        the same choices."""
        if frame is not None and frame == self._frame:
            return
        self._frame = frame
        self._turns_left = TURNS_PER_FRAME
        self._chosen.clear()
        self.lagging.clear()
        for cache in (self._rotated, self._flying, self._shadows):
            cache.next_frame()

    def _angle(self, sprite: CardSprite, card: Card | None, width: int, angle: int) -> int:
        """The angle ``sprite`` is drawn at (turned at ``width``, showing ``card``): its
        own, except on the move when this frame's new turns are spent and a turned image
        within ``TURN_LAG`` degrees is at hand (see ``TURNS_PER_FRAME``). A card turning
        over and narrower than ``FLIP_TURNED`` is turned afresh anyway: its own."""
        if not angle or not (sprite.air or sprite.moving):
            return angle
        if abs(math.cos(math.pi * sprite.flip)) < FLIP_TURNED:
            return angle
        code = card.code if card is not None else "back"
        memo = (id(sprite), code, width, angle)
        chosen = self._chosen.get(memo)
        if chosen is not None:
            return chosen
        chosen = angle
        if not self._is_turned(code, width, angle):
            if self._turns_left > 0:
                self._turns_left -= 1
            else:
                chosen = _nearest(
                    angle, TURN_LAG, lambda a: a == 0 or self._is_turned(code, width, a)
                )
        if chosen != angle:
            self.lagging.add(id(sprite))
        self._chosen[memo] = chosen
        return chosen

    def _shadow_angle(self, sprite: CardSprite, width: int, lifted: bool, angle: int) -> int:
        """The angle of the shadow of ``sprite`` (drawn at ``angle``, its shadow
        ``width`` wide): that angle, or on the move the nearest one already turned within
        ``SHADOW_LAG`` degrees (one more image that the next frame draws again)."""
        if not angle or not (sprite.air or sprite.moving):
            return angle
        memo = (id(sprite), "shadow", width, lifted, angle)
        chosen = self._chosen.get(memo)
        if chosen is None:
            chosen = angle
            if (width, lifted, angle) not in self._shadows:
                chosen = _nearest(angle, SHADOW_LAG, lambda a: (width, lifted, a) in self._shadows)
            self._chosen[memo] = chosen
        if chosen != angle:
            self.lagging.add(id(sprite))
        return chosen

    def _shadow_width(self, width: int) -> int:
        """Shadows are soft: the one of the nearest width in use serves a card in flight."""
        return min(self.exact, key=lambda e: abs(e - width)) if self.exact else width

    def _is_turned(self, code: str, width: int, angle: int) -> bool:
        key = (code, width, angle, self.style, self.back)
        return key in self._rotated or key in self._flying

    def want(self, faces: set[tuple[Card, int]], keep: set[Card]) -> None:
        """The faces the table shows or soon will at the ``on_demand`` widths (card and
        width: the player's hand, the briscola), started in the background; ``keep``:
        cards whose faces there stay too (in flight). The others at those widths go."""
        wanted = (frozenset(faces), frozenset(keep))
        if wanted == self._wanted or not self.on_demand:
            return
        self._wanted = wanted
        for card, width in faces:
            if width in self.on_demand:
                self.assets.prepare_face(card, self.style, width)
        for width in self.on_demand:
            held = keep | {card for card, w in faces if w == width}
            self.assets.forget_faces(self.style, width, held)
        self._scaled.clear()  # scaled from faces that may have gone

    def base(self, card: Card | None, width: int) -> pygame.Surface:
        """The face (or the back when ``card`` is None) at ``width`` pixels."""
        sources = self.exact if card is None else self.faces
        if width in sources or not sources:
            return self._raster(card, width)
        source_w = self._source_width(card, width)

        def scaled() -> pygame.Surface:
            source = self._raster(card, source_w)
            return pygame.transform.smoothscale(source, (width, round(width * CARD_RATIO)))

        if width not in self.exact:  # a card growing or shrinking in flight: never again
            return scaled()
        key = (card.code if card else "back", width, self.style, self.back)
        return self._scaled.get_or_make(key, scaled)

    def _source_width(self, card: Card | None, width: int) -> int:
        """The width rasterised that an image at ``width`` is scaled from: the nearest
        larger of those at hand (faces at the widths on demand only where present)."""
        sources = self.exact if card is None else self.faces
        if width in sources or not sources:
            return width
        if card is not None:  # the widths where this card's face is at hand
            style = self.style
            at_hand = {w for w in self.on_demand if self.assets.face_ready(card, style, w)}
            warmed = self.warmed
            if warmed and width > max(warmed | at_hand):
                # Larger than any face at hand (the called cards over the auction's
                # buttons): scaled up this frame, sharp once made in the background.
                larger = [w for w in self.on_demand if w >= width]
                if larger:
                    self.assets.prepare_face(card, style, min(larger))
            sources = (warmed | at_hand) or sources
        bigger = [w for w in sources if w >= width]
        return min(bigger) if bigger else max(sources)

    def _turned(self, card: Card | None, width: int, angle: int, moving: bool) -> pygame.Surface:
        """``card`` (None: the back) at ``width`` turned by ``angle``, kept: with the cards
        at rest, or, ``moving``, with the fleeting images (a card that comes to rest at
        an angle it passed through takes its image along)."""
        code = card.code if card is not None else "back"
        key = (code, width, angle, self.style, self.back)
        if key in self._rotated:
            return self._rotated.get_or_make(key, _never)
        if key in self._flying:
            if moving:
                return self._flying.get_or_make(key, _never)
            image = self._flying[key]
            del self._flying[key]
            return self._rotated.get_or_make(key, lambda: image)
        source = self.base(card, width)
        cache = self._flying if moving else self._rotated
        return cache.get_or_make(key, lambda: _turn(source, angle))

    def _turn_width(self, card: Card | None, width: int) -> int:
        """The width at which a card shown ``width`` wide is turned (then scaled): a
        width in use."""
        return width if width in self.exact else self._source_width(card, width)

    def _squeezed(self, card: Card | None, width: int, squeeze: float) -> pygame.Surface:
        """``card`` (None: the back) at ``width`` narrowed to ``squeeze`` of it (a card
        turning over): one smoothing scale from the image rasterised nearest, not a scale
        to ``width`` and then another (a card growing as it turns in flight)."""
        sources = self.exact if card is None else self.faces
        height = round(width * CARD_RATIO)
        if width in sources or not sources or width in self.exact:
            source = self.base(card, width)
        else:
            source = self._raster(card, self._source_width(card, width))
        return pygame.transform.smoothscale(source, (max(1, round(width * squeeze)), height))

    def _raster(self, card: Card | None, width: int) -> pygame.Surface:
        if card is None:
            return self.assets.card_back(self.back, width)
        return self.assets.card_face(card, self.style, width)

    def bounds(self, sprite: CardSprite, shadow: bool = True) -> pygame.Rect:
        """Where :meth:`draw` will paint ``sprite`` (card, shadow and glow), worked out
        without drawing and a little generous: what a partial redraw must restore first."""
        width = max(8, round(sprite.w))
        height = round(width * CARD_RATIO)
        squeeze = abs(math.cos(math.pi * sprite.flip))
        card = sprite.card if sprite.face_up else None
        angle = self._angle(sprite, card, self._turn_width(card, width), round(sprite.angle) % 360)
        cx = sprite.x
        cy = sprite.y - sprite.lift_px()
        if FLIP_TURNED <= squeeze < 0.999:  # turned, then narrowed (see draw)
            rect = _rotated_box(width, height, angle, cx, cy, squeeze)
        else:
            image_w = max(1, round(width * squeeze)) if squeeze < 0.999 else width
            rect = _rotated_box(image_w, height, angle, cx, cy)
        if sprite.glow is not None:
            rect = rect.inflate(8, 8)
        lifted = sprite.air or sprite.lift > 0.05
        if (shadow or lifted) and squeeze > 0.3:
            shadow_w = self._shadow_width(width)
            turn = self._shadow_angle(sprite, shadow_w, lifted, angle)
            shadow_w = max(6, round(shadow_w / 6) * 6)
            pad = max(4, shadow_w // 10)
            offset = width * (0.07 if lifted else 0.03)
            w, h = shadow_w + 2 * pad, round(shadow_w * CARD_RATIO) + 2 * pad
            rect = rect.union(_rotated_box(w, h, turn, cx + offset, cy + offset * 1.4))
        return rect

    def draw(
        self,
        surface: pygame.Surface,
        sprite: CardSprite,
        glow_width: int = 3,
        shadow: bool = True,
    ) -> pygame.Rect:
        """Draw ``sprite``; ``shadow`` False for cards lying on other cards (stacks).
        Returns the rectangle painted (within :meth:`bounds`)."""
        width = max(8, round(sprite.w))
        show_face = sprite.face_up
        card = sprite.card if show_face else None
        squeeze = abs(math.cos(math.pi * sprite.flip))
        moving = sprite.air or sprite.moving
        source_w = self._turn_width(card, width)
        angle = self._angle(sprite, card, source_w, round(sprite.angle) % 360)
        if FLIP_TURNED <= squeeze < 0.999 and angle:
            # Turning over while turned, still wide: the turned image (kept, as for a card
            # moving without turning over) narrowed across the screen, one smoothing scale
            # a frame, rather than narrowed and then turned afresh every frame.
            turned = self._turned(card, source_w, angle, moving)
            k = width / source_w
            size = (
                max(1, round(turned.get_width() * k * squeeze)),
                max(1, round(turned.get_height() * k)),
            )
            image = pygame.transform.smoothscale(turned, size)
        elif squeeze < 0.999:  # turning over: narrowed, then turned, for this frame only
            image = self._squeezed(card, width, squeeze)
            if angle:
                image = _turn(image, angle)
        elif angle:
            # Turned at a width in use (kept), then scaled when the card grows or shrinks
            # in flight: one smoothing turn per angle rather than one per frame.
            image = self._turned(card, source_w, angle, moving)
            if source_w != width:
                k = width / source_w
                size = (max(1, round(image.get_width() * k)), max(1, round(image.get_height() * k)))
                image = pygame.transform.smoothscale(image, size)
        else:
            image = self.base(card, width)
        cx = sprite.x
        cy = sprite.y - sprite.lift_px()
        lifted = sprite.air or sprite.lift > 0.05
        shadow_on = shadow or lifted
        shadow_w = self._shadow_width(width)
        dark = self.assets.shadow(shadow_w, SHADOW_ALPHAS[lifted])
        if angle and shadow_on and squeeze > 0.3:
            # A shadow is soft: turned without smoothing (a fifth of the cost at 4K, within
            # 2 to 6 levels of 255 of a smoothed turn, the same to the eye), one image per
            # angle for every card, moving or still.
            flat = dark
            turn = self._shadow_angle(sprite, shadow_w, lifted, angle)
            dark = self._shadows.get_or_make(
                (shadow_w, lifted, turn), lambda: pygame.transform.rotate(flat, turn)
            )
        offset = width * (0.07 if lifted else 0.03)
        rect = image.get_rect(center=(round(cx), round(cy)))
        painted = rect.copy()
        if shadow_on and squeeze > 0.3:
            shade = dark.get_rect(center=(cx + offset, cy + offset * 1.4))
            surface.blit(dark, shade)
            painted.union_ip(shade)
        surface.blit(image, rect)
        if sprite.dim and show_face:
            radius = max(2, width * 14 // 250)
            surface.blit(rounded(rect.size, (10, 20, 15, 120), radius), rect)
        if sprite.glow is not None:
            radius = max(3, width * 14 // 250) + 3
            ring = rect.inflate(6, 6)
            pygame.draw.rect(surface, sprite.glow, ring, width=glow_width, border_radius=radius)
            painted.union_ip(ring)
        return painted


def _turn(image: pygame.Surface, angle: int) -> pygame.Surface:
    """``image`` turned by ``angle`` degrees, smoothed (cards: turning them without
    smoothing, tried for speed at 4K, leaves stepped edges that show even in flight)."""
    return pygame.transform.rotozoom(image, angle, 1.0)


def _never() -> pygame.Surface:
    raise AssertionError("a cached image was made again")


def _rotated_box(
    w: float, h: float, angle: int, cx: float, cy: float, squeeze: float = 1.0
) -> pygame.Rect:
    """The box around a ``w`` x ``h`` image turned by ``angle`` degrees, then narrowed to
    ``squeeze`` of its width (a card turning over: see :meth:`CardRenderer.draw`), and
    centred on (``cx``, ``cy``), two pixels to spare on each side (rotozoom's rounding)."""
    if angle:
        turn = math.radians(angle)
        cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
        w, h = w * cos + h * sin, w * sin + h * cos
    w = max(1.0, w * squeeze)
    box = pygame.Rect(0, 0, math.ceil(w) + 4, math.ceil(h) + 4)
    box.center = (round(cx), round(cy))
    return box
