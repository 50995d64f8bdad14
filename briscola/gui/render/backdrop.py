"""The table surface behind every scene: a tiled texture with a soft vignette, cached per
window size (one blit a frame)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from briscola.gui.render.window import window_surface

if TYPE_CHECKING:
    from briscola.gui.render.assets import Assets


class Backdrop:
    def __init__(self, assets: Assets) -> None:
        self.assets = assets
        self._cache: dict[tuple[tuple[int, int], str, bool], pygame.Surface] = {}

    def surface(
        self, size: tuple[int, int], kind: str = "felt", plain: bool = False
    ) -> pygame.Surface:
        key = (size, kind, plain)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        self._cache.clear()  # one size at a time is enough
        screen = window_surface()
        # In the window's pixel format from the start: no converted copy at 4K.
        surface = pygame.Surface(size, 0, screen) if screen is not None else pygame.Surface(size)
        if plain:  # high contrast: a flat, dark table
            surface.fill((8, 40, 22))
        else:
            tile = self.assets.texture(kind)
            tw, th = tile.get_size()
            for y in range(0, size[1], th):
                for x in range(0, size[0], tw):
                    surface.blit(tile, (x, y))
            vignette = pygame.transform.smoothscale(self.assets.texture("vignette"), size)
            surface.blit(vignette, (0, 0))
            del vignette
        self._cache[key] = surface
        return surface

    def draw(self, target: pygame.Surface, kind: str = "felt", plain: bool = False) -> None:
        target.blit(self.surface(target.get_size(), kind, plain), (0, 0))
