"""Player settings: persisted as JSON in the per-user config folder, written atomically.

A missing file means defaults; a corrupt file means defaults, a one-line notice, and the
damaged file kept aside as ``settings.json.bak`` (see :mod:`.storage`). A single bad value
falls back to its default without losing the others. A saved window position is used only
where it lies on the desktops the system reports (:func:`usable_window_pos`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola.storage import paths
from briscola.storage.files import atomic_write_json, peek_json, read_json
from briscola.text.decks import deck_ids, face_folder, next_deck
from briscola.text.i18n import _

DECKS = ("italian", "french")
BACKS = ("classic", "blue", "felt", "deck")  # deck: the deck's own back, if it has one
SPEEDS = ("slow", "normal", "fast", "off")
TABLES = ("felt", "wood")

#: The largest window coordinate or size kept in the file (pixels).
MAX_POS = 16384
#: How much of a window must lie on the desktop for its saved position to be used.
ON_SCREEN = 100

#: Seconds multiplier per animation speed ("off" jumps to the end).
SPEED_FACTOR = {"slow": 1.6, "normal": 1.0, "fast": 0.5, "off": 0.0}


@dataclass
class Settings:
    deck: str = "italian"
    #: The decks D cycles through during a game (ticked in Settings).
    deck_cycle: list[str] = field(default_factory=lambda: ["italian", "french"])
    four_colour: bool = False
    #: "deck": each deck its own traditional back (the classic one for decks without).
    back: str = "deck"
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
    #: The coach shows each card's expected points on the hand during the player's turn.
    coach_values: bool = False
    #: The memory aid (cards played by suit, points taken) may be opened at the table (M).
    memory_aid: bool = False
    #: The tip about partner signals was shown (the first table with signals on).
    signals_tip_seen: bool = False
    window_size: list[int] | None = None
    window_pos: list[int] | None = None
    #: The last choices made on the New game screen.
    new_game: dict[str, Any] = field(default_factory=dict)
    #: The address last typed on Join a table that reached a table (filled in next time).
    join_address: str = ""

    @property
    def player_name(self) -> str:
        """The name the player gave last (the New game screen's first seat), or empty: online
        play greets the player by it too."""
        seats = self.new_game.get("seats")
        if isinstance(seats, list) and seats and isinstance(seats[0], dict):
            name = seats[0].get("name")
            if isinstance(name, str):
                return name
        return ""

    @player_name.setter
    def player_name(self, name: str) -> None:
        data = dict(self.new_game)
        seats = list(data.get("seats") or [])
        if not seats or not isinstance(seats[0], dict):
            seats[:1] = [{"name": name, "kind": "human"}]
        else:
            seats[0] = {**seats[0], "name": name, "kind": "human"}
        data["seats"] = seats
        self.new_game = data

    @property
    def deck_style(self) -> str:
        """Folder of card faces in use, e.g. ``italian``, ``spanish`` or ``french4`` (the French
        deck's four-colour variant): see :func:`briscola.text.decks.face_folder`."""
        return face_folder(self.deck, self.four_colour)

    def cycle_deck(self) -> str:
        """Switch to the next of the decks ticked for D (all decks when none is) and return it."""
        self.deck = next_deck(self.deck, self.deck_cycle)
        return self.deck

    def toggle_cycle(self, deck: str) -> None:
        """Tick or untick *deck* for D, keeping the ticked decks in display order."""
        ticked = set(self.deck_cycle) ^ {deck}
        self.deck_cycle = [d for d in deck_ids() if d in ticked]

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
        names = {f.name for f in dataclasses.fields(cls)}
        for name, value in data.items():
            if name not in names:
                continue  # an option of another version: ignore
            if _valid(name, value):
                setattr(settings, name, _normalise(name, value))
            else:
                bad.append(name)
        return settings, bad


def _valid(name: str, value: Any) -> bool:
    default = getattr(Settings(), name)
    if name == "deck":
        return isinstance(value, str) and value in deck_ids()
    if name == "deck_cycle":
        return isinstance(value, list) and all(isinstance(v, str) and len(v) <= 32 for v in value)
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
            and all((200 if name == "window_size" else -MAX_POS) <= v <= MAX_POS for v in value)
        )
    if name == "language":
        return isinstance(value, str) and len(value) <= 8
    if name == "join_address":
        return isinstance(value, str) and len(value) <= 200
    if name == "new_game":
        return isinstance(value, dict) and len(value) <= 64
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
    data = peek_json(path or paths.settings_file())
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


def usable_window_pos(
    pos: Sequence[int] | None, desktops: Sequence[tuple[int, int]]
) -> list[int] | None:
    """``pos`` when a window placed there shows at least :data:`ON_SCREEN` pixels of its
    top-left corner on the desktops (placed side by side, as the system numbers them);
    None for a position off every screen, or when the desktop sizes are unknown.

    >>> usable_window_pos([100, 80], [(1920, 1080)])
    [100, 80]
    >>> usable_window_pos([30000, 30000], [(1920, 1080)]) is None
    True
    >>> usable_window_pos([2000, 40], [(1920, 1080), (1280, 1024)])
    [2000, 40]
    """
    if pos is None or len(pos) != 2 or not desktops:
        return None
    width = sum(w for w, _h in desktops)
    height = max(h for _w, h in desktops)
    x, y = pos
    if -width < x <= width - ON_SCREEN and -height < y <= height - ON_SCREEN:
        return [int(x), int(y)]
    return None
