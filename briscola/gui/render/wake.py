"""Waking the frame loop from another thread.

A still window sleeps until input arrives (see :meth:`briscola.gui.app.App.loop`). Work that
finishes in the background (the coach's assessment, a computer's move from the worker) calls
:func:`wake`, which puts a :data:`WAKE` event in pygame's queue: the loop draws the result
at once instead of at the player's next mouse move.
"""

from __future__ import annotations

import contextlib

import pygame

#: The event :func:`wake` posts (the App drops it: it only ends the loop's rest).
WAKE = pygame.event.custom_type()


def wake() -> None:
    """Have the frame loop draw a frame now; safe to call from any thread (SDL's event
    queue is), and a no-op once the window is gone."""
    with contextlib.suppress(pygame.error):
        pygame.event.post(pygame.event.Event(WAKE))
