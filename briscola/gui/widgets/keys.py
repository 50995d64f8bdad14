"""Which input events press a widget (for the click sound)."""

from __future__ import annotations

import pygame

PRESS_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_LEFT, pygame.K_RIGHT)


def is_press(event: pygame.event.Event) -> bool:
    """A click, or a key that activates or changes the focused widget (for the click sound)."""
    if event.type == pygame.MOUSEBUTTONDOWN:
        return bool(event.button == 1)
    return event.type == pygame.KEYDOWN and event.key in PRESS_KEYS
