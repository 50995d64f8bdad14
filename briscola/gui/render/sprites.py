"""Card sprites and their drawing.

A :class:`CardSprite` is a card on the table: position (centre), angle, width, and a flip
state from 0 (back up) to 1 (face up). Its ``card`` is None when the viewer may not know
it: a hidden card is never even known to the sprite, so it cannot be drawn face up by
mistake. Drawing goes through :class:`CardRenderer`, which caches faces at the exact widths
the layout uses (rasterised from SVG), and rotated copies.
"""

from __future__ import annotations

import math
import time
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
ROTATED_CARDS = 40


class CardSprite:
    __slots__ = ("air", "angle", "card", "dim", "flip", "glow", "lift", "w", "x", "y")

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


class CardRenderer:
    """Draws card sprites with shadows, cached faces and rotations."""

    def __init__(self, assets: Assets) -> None:
        self.assets = assets
        self.style = "italian"
        self.back = "classic"
        self.exact: set[int] = set()
        self.faces: set[int] = set()
        self._scaled: LRU[pygame.Surface] = LRU(80)
        #: Turned cards and shadows, up to about ROTATED_CARDS cards' worth (see configure).
        self._rotated: LRU[pygame.Surface] = LRU(120, surface_bytes)
        #: Cards whose faces are still to rasterise in advance (see warm_some).
        self.cold: list[Card] = []

    def configure(
        self,
        style: str,
        back: str,
        exact_widths: set[int],
        face_widths: set[int] | None = None,
    ) -> None:
        """``exact_widths``: the widths the layout uses (backs are rasterised at each);
        ``face_widths``: those at which faces are rasterised (and warmed in advance); faces
        at other widths are scaled down from the nearest, never rasterised mid-animation.
        Card images at sizes the layout no longer uses leave the caches."""
        faces = face_widths or exact_widths
        if (style, back, exact_widths, faces) != (self.style, self.back, self.exact, self.faces):
            self._scaled.clear()
            self._rotated.clear()
        self.style, self.back, self.exact, self.faces = style, back, exact_widths, faces
        widest = max(exact_widths | faces, default=80)
        self._rotated.budget = ROTATED_CARDS * widest * round(widest * CARD_RATIO) * 4
        self.assets.keep_card_widths(exact_widths | faces)
        self.cold = [Card.from_index(i) for i in range(40)]

    def warm_some(self, seconds: float = 0.004) -> None:
        """Rasterise card faces for about ``seconds`` (a few per frame), so that the first
        deal never stutters; the backs and shadows at every width in use come last."""
        deadline = time.perf_counter() + seconds
        while self.cold and time.perf_counter() < deadline:
            card = self.cold.pop()
            for width in self.faces:
                self.base(card, width)
            if not self.cold:
                for width in self.exact:
                    self.base(None, width)
                    for alpha in SHADOW_ALPHAS:  # resting and lifted (see draw)
                        self.assets.shadow(width, alpha)

    def base(self, card: Card | None, width: int) -> pygame.Surface:
        """The face (or the back when ``card`` is None) at ``width`` pixels."""
        sources = self.exact if card is None else self.faces
        if width in sources or not sources:
            return self._raster(card, width)
        bigger = [w for w in sources if w >= width]
        source_w = min(bigger) if bigger else max(sources)

        def scaled() -> pygame.Surface:
            source = self._raster(card, source_w)
            return pygame.transform.smoothscale(source, (width, round(width * CARD_RATIO)))

        if width not in self.exact:  # a card growing or shrinking in flight: never again
            return scaled()
        key = (card.code if card else "back", width, self.style, self.back)
        return self._scaled.get_or_make(key, scaled)

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
        image_w = max(1, round(width * squeeze)) if squeeze < 0.999 else width
        angle = round(sprite.angle) % 360
        cx = sprite.x
        cy = sprite.y - sprite.lift_px()
        rect = _rotated_box(image_w, height, angle, cx, cy)
        if sprite.glow is not None:
            rect = rect.inflate(8, 8)
        lifted = sprite.air or sprite.lift > 0.05
        if (shadow or lifted) and squeeze > 0.3:
            shadow_w = min(self.exact, key=lambda e: abs(e - width)) if self.exact else width
            shadow_w = max(6, round(shadow_w / 6) * 6)
            pad = max(4, shadow_w // 10)
            offset = width * (0.07 if lifted else 0.03)
            w, h = shadow_w + 2 * pad, round(shadow_w * CARD_RATIO) + 2 * pad
            rect = rect.union(_rotated_box(w, h, angle, cx + offset, cy + offset * 1.4))
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
        image = self.base(sprite.card if show_face else None, width)
        squeeze = abs(math.cos(math.pi * sprite.flip))
        if squeeze < 0.999:
            image = pygame.transform.smoothscale(
                image, (max(1, round(image.get_width() * squeeze)), image.get_height())
            )
        angle = round(sprite.angle) % 360
        if angle and squeeze >= 0.999 and width in self.exact:  # at rest: kept
            code = sprite.card.code if show_face and sprite.card is not None else "back"
            key = (code, width, angle, self.style, self.back)
            rotated_from = image
            image = self._rotated.get_or_make(
                key, lambda: pygame.transform.rotozoom(rotated_from, angle, 1.0)
            )
        elif angle:
            image = pygame.transform.rotozoom(image, angle, 1.0)
        cx = sprite.x
        cy = sprite.y - sprite.lift_px()
        lifted = sprite.air or sprite.lift > 0.05
        shadow_on = shadow or lifted
        # Shadows are soft: the one of the nearest width in use serves a card in flight.
        shadow_w = min(self.exact, key=lambda e: abs(e - width)) if self.exact else width
        dark = self.assets.shadow(shadow_w, SHADOW_ALPHAS[lifted])
        if angle:
            base_shadow = dark
            dark = self._rotated.get_or_make(
                ("shadow", shadow_w, lifted, angle),
                lambda: pygame.transform.rotozoom(base_shadow, angle, 1.0),
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


def _rotated_box(w: float, h: float, angle: int, cx: float, cy: float) -> pygame.Rect:
    """The box around a ``w`` x ``h`` image turned by ``angle`` degrees and centred on
    (``cx``, ``cy``), two pixels to spare on each side (rotozoom's rounding)."""
    if angle:
        turn = math.radians(angle)
        cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
        w, h = w * cos + h * sin, w * sin + h * cos
    box = pygame.Rect(0, 0, math.ceil(w) + 4, math.ceil(h) + 4)
    box.center = (round(cx), round(cy))
    return box
