"""Player settings: persisted as JSON in the per-user config folder, written atomically.

A missing file means defaults; a corrupt file means defaults, a one-line notice, and the
damaged file kept aside as ``settings.json.bak``. A single bad value falls back to its
default without losing the others.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from .i18n import _
from .storage import atomic_write_json, read_json

DECKS = ("italian", "french")
BACKS = ("classic", "blue", "felt")
SPEEDS = ("slow", "normal", "fast", "off")
TABLES = ("felt", "wood")

#: Seconds multiplier per animation speed ("off" jumps to the end).
SPEED_FACTOR = {"slow": 1.6, "normal": 1.0, "fast": 0.5, "off": 0.0}


@dataclass
class Settings:
    deck: str = "italian"
    four_colour: bool = False
    back: str = "classic"
    speed: str = "normal"
    sound: bool = True
    volume: float = 0.7
    fullscreen: bool = False
    show_score: bool = True
    language: str = ""  # "" follows the system
    table: str = "felt"
    ui_scale: float = 1.0
    high_contrast: bool = False
    reduce_motion: bool = False
    window_size: list[int] | None = None
    window_pos: list[int] | None = None
    #: The last choices made on the New game screen.
    new_game: dict[str, Any] = field(default_factory=dict)

    @property
    def deck_style(self) -> str:
        """Folder of card faces in use: ``italian``, ``french`` or ``french4``."""
        if self.deck == "french" and self.four_colour:
            return "french4"
        return self.deck

    @property
    def speed_factor(self) -> float:
        return SPEED_FACTOR.get(self.speed, 1.0)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> tuple[Settings, list[str]]:
        """Settings from JSON data; bad fields fall back to defaults and are listed."""
        settings = cls()
        bad: list[str] = []
        if not isinstance(data, dict):
            return settings, ["settings"]
        for name, value in data.items():
            if not hasattr(settings, name):
                continue  # an option of another version: ignore
            if _valid(name, value):
                setattr(settings, name, _normalise(name, value))
            else:
                bad.append(name)
        return settings, bad


def _valid(name: str, value: Any) -> bool:
    default = getattr(Settings(), name)
    if name == "deck":
        return value in DECKS
    if name == "back":
        return value in BACKS
    if name == "speed":
        return value in SPEEDS
    if name == "table":
        return value in TABLES
    if name == "volume":
        return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1
    if name == "ui_scale":
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and 0.8 <= value <= 1.6
        )
    if name in ("window_size", "window_pos"):
        return value is None or (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and (name == "window_pos" or all(200 <= v <= 16384 for v in value))
        )
    if name == "language":
        return isinstance(value, str) and len(value) <= 8
    if name == "new_game":
        return isinstance(value, dict)
    return type(value) is type(default)


def _normalise(name: str, value: Any) -> Any:
    if name in ("volume", "ui_scale"):
        return float(value)
    return value


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """``(settings, notice)``: notice is a one-line message for the player, or None."""
    path = path or paths.settings_file()
    data, notice = read_json(path)
    if data is None:
        return Settings(), notice
    settings, bad = Settings.from_json(data)
    if bad and notice is None:
        notice = _("Some settings were invalid and were reset: {names}").format(
            names=", ".join(sorted(bad))
        )
    return settings, notice


def peek_language(path: Path | None = None) -> str:
    """The saved language ("" for none, or the system's), read without side effects: the
    messages about the settings file itself must already be in that language."""
    try:
        data = json.loads((path or paths.settings_file()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    value = data.get("language") if isinstance(data, dict) else None
    return value if isinstance(value, str) and _valid("language", value) else ""


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Save atomically; returns a notice instead of raising when the disk refuses."""
    path = path or paths.settings_file()
    try:
        atomic_write_json(path, settings.to_json())
    except OSError as exc:
        return _("Could not save the settings: {error}").format(error=exc.strerror or exc)
    return None
