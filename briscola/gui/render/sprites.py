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
from briscola.gui.render.assets import CARD_RATIO, LRU
from briscola.gui.widgets import rounded

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


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
        self._rotated: LRU[pygame.Surface] = LRU(120)
        #: Cards whose faces are still to rasterise in advance (see warm_some).
        self.cold: list[Card] = []

    def configure(
        self, style: str, back: str, exact_widths: set[int], face_widths: set[int] | None = None
    ) -> None:
        """``exact_widths``: the widths the layout uses (backs are rasterised at each);
        ``face_widths``: those at which faces are rasterised (and warmed in advance); faces
        at other widths are scaled down from the nearest, never rasterised mid-animation."""
        faces = face_widths or exact_widths
        if (style, back, exact_widths, faces) != (self.style, self.back, self.exact, self.faces):
            self._scaled.clear()
            self._rotated.clear()
        self.style, self.back, self.exact, self.faces = style, back, exact_widths, faces
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
                    self.assets.shadow(width)

    def base(self, card: Card | None, width: int) -> pygame.Surface:
        """The face (or the back when ``card`` is None) at ``width`` pixels."""
        sources = self.exact if card is None else self.faces
        if width in sources or not sources:
            return self._raster(card, width)
        bigger = [w for w in sources if w >= width]
        source_w = min(bigger) if bigger else max(sources)
        key = (card.code if card else "back", width, self.style, self.back)
        return self._scaled.get_or_make(
            key,
            lambda: pygame.transform.smoothscale(
                self._raster(card, source_w), (width, round(width * CARD_RATIO))
            ),
        )

    def _raster(self, card: Card | None, width: int) -> pygame.Surface:
        if card is None:
            return self.assets.card_back(self.back, width)
        return self.assets.card_face(card, self.style, width)

    def draw(
        self,
        surface: pygame.Surface,
        sprite: CardSprite,
        glow_width: int = 3,
        shadow: bool = True,
    ) -> None:
        """Draw ``sprite``; ``shadow`` False for cards lying on other cards (stacks)."""
        width = max(8, round(sprite.w))
        show_face = sprite.face_up
        image = self.base(sprite.card if show_face else None, width)
        squeeze = abs(math.cos(math.pi * sprite.flip))
        if squeeze < 0.999:
            image = pygame.transform.smoothscale(
                image, (max(1, round(image.get_width() * squeeze)), image.get_height())
            )
        angle = round(sprite.angle) % 360
        if angle and squeeze >= 0.999:
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
        dark = self.assets.shadow(shadow_w, 110 if lifted else 80)
        if angle:
            base_shadow = dark
            dark = self._rotated.get_or_make(
                ("shadow", shadow_w, lifted, angle),
                lambda: pygame.transform.rotozoom(base_shadow, angle, 1.0),
            )
        offset = width * (0.07 if lifted else 0.03)
        if shadow_on and squeeze > 0.3:
            surface.blit(dark, dark.get_rect(center=(cx + offset, cy + offset * 1.4)))
        rect = image.get_rect(center=(round(cx), round(cy)))
        surface.blit(image, rect)
        if sprite.dim and show_face:
            radius = max(2, width * 14 // 250)
            surface.blit(rounded(rect.size, (10, 20, 15, 120), radius), rect)
        if sprite.glow is not None:
            radius = max(3, width * 14 // 250) + 3
            pygame.draw.rect(
                surface, sprite.glow, rect.inflate(6, 6), width=glow_width, border_radius=radius
            )
