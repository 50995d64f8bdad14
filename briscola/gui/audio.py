"""Sound effects. No audio device means silent play, never a crash."""

from __future__ import annotations

import logging

import pygame

from briscola.gui.render.assets import SOUND_NAMES
from briscola.resources import asset_path

log = logging.getLogger(__name__)


class Audio:
    """Plays the game's short sound effects at the chosen volume."""

    def __init__(self, enabled: bool = True, volume: float = 0.7) -> None:
        self.enabled = enabled
        self.volume = volume
        self.available = False
        self.problem: str | None = None
        self._sounds: dict[str, pygame.mixer.Sound | None] = {}
        try:
            pygame.mixer.init(44100, -16, 2, 512)
            self.available = pygame.mixer.get_init() is not None
        except pygame.error as exc:
            self.problem = f"no sound: {exc}"
            log.info(self.problem)

    def _sound(self, name: str) -> pygame.mixer.Sound | None:
        if name not in self._sounds:
            path = asset_path("sounds", f"{name}.wav")
            try:
                self._sounds[name] = pygame.mixer.Sound(path)
            except (pygame.error, FileNotFoundError, OSError) as exc:
                log.warning("could not load sound %s: %s", path, exc)
                self._sounds[name] = None
        return self._sounds[name]

    def preload(self) -> None:
        if self.available:
            for name in SOUND_NAMES:
                self._sound(name)

    def play(self, name: str, volume: float = 1.0) -> None:
        if not (self.available and self.enabled and self.volume > 0):
            return
        sound = self._sound(name)
        if sound is not None:
            sound.set_volume(max(0.0, min(1.0, self.volume * volume)))
            sound.play()

    def configure(self, enabled: bool, volume: float) -> None:
        self.enabled = enabled
        self.volume = volume

    def close(self) -> None:
        if self.available:
            # Silence every channel first (pygame lets the audio thread run meanwhile).
            # pygame-ce's mixer.quit() keeps Python's lock while it waits for the audio
            # thread, and that thread, ending a sound at that moment, waits for Python's lock:
            # the game hung at exit once that way (seen in a test run). With nothing playing
            # no sound can end.
            pygame.mixer.stop()
            pygame.mixer.quit()
            self.available = False
