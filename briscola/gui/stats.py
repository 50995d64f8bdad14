"""Statistics of the human player, per configuration and opponent strength.

One :class:`Entry` per ``(preset, strength)``: the preset is the rules' name (``classic2``,
``teams4``...), the strength the strongest computer at the table (``easy``, ``medium``,
``hard``) or ``hot-seat`` when only humans play. Hands are counted from the point of view of
a human seat (its side's points), matches as won, drawn or lost.

The file is written atomically (see :mod:`.storage`): a write that fails half-way leaves the
previous file whole, so the counts on disk never go backwards. A damaged file is moved aside
as ``stats.json.bak`` with a notice, and counting starts afresh; it never stops the game.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import HandResult
from . import paths
from .i18n import _
from .setup import LEVELS, GameSetup
from .storage import atomic_write_json, read_json

FORMAT = 1
HOT_SEAT = "hot-seat"
#: Opponent strengths, weakest first.
STRENGTHS = (*LEVELS, HOT_SEAT)


def opponent_strength(setup: GameSetup) -> str:
    """The strongest computer level at the table, or ``hot-seat`` without computers."""
    levels = [seat.level for seat in setup.seats if not seat.human and seat.level in LEVELS]
    if not levels:
        return HOT_SEAT
    return max(levels, key=LEVELS.index)


@dataclass
class Entry:
    """The counts of one configuration against one opponent strength."""

    hands: int = 0
    hands_won: int = 0
    hands_drawn: int = 0
    hands_lost: int = 0
    #: Sum of the points taken in every hand (for the average).
    points: int = 0
    #: The most points taken in one hand.
    best: int = 0
    matches: int = 0
    matches_won: int = 0
    matches_drawn: int = 0
    matches_lost: int = 0

    @property
    def average(self) -> float | None:
        """Average points per hand (None before the first hand)."""
        return self.points / self.hands if self.hands else None

    def add(self, other: Entry) -> None:
        for name in _COUNTS:
            if name == "best":
                self.best = max(self.best, other.best)
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_json(self) -> dict[str, int]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        """An entry from saved data; raises ``ValueError`` when a count is not usable."""
        if not isinstance(data, dict):
            raise ValueError("an entry must be an object")
        entry = cls()
        for name in _COUNTS:
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"bad count {name}: {value!r}")
            setattr(entry, name, value)
        return entry


_COUNTS = tuple(f.name for f in dataclasses.fields(Entry))


class Stats:
    """All the statistics, loaded from and saved to ``paths.stats_file()``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.stats_file()
        self.entries: dict[tuple[str, str], Entry] = {}
        #: A message for the player about the last load or save (None when all went well).
        self.notice: str | None = None

    # ------------------------------------------------------------------ loading and saving

    @classmethod
    def load(cls, path: Path | None = None) -> Stats:
        """The saved statistics; empty when there are none; never raises."""
        stats = cls(path)
        data, problem = read_json(stats.path)
        if problem is not None:
            backup = stats.path.with_name(stats.path.name + ".bak")
            if not stats.path.exists() and backup.exists():
                stats.notice = _(
                    "The statistics file was damaged. A copy was kept as {name} and the"
                    " statistics start afresh."
                ).format(name=backup.name)
            else:
                stats.notice = _("Could not read the statistics: {problem}").format(problem=problem)
            return stats
        if data is None:
            return stats
        try:
            stats.entries = _parse(data)
        except ValueError:
            stats._keep_aside()
        return stats

    def _keep_aside(self) -> None:
        """Readable JSON that is not statistics: move it aside like a damaged file."""
        backup = self.path.with_name(self.path.name + ".bak")
        with contextlib.suppress(OSError):
            self.path.replace(backup)
        self.entries = {}
        self.notice = _(
            "The statistics file was damaged. A copy was kept as {name} and the"
            " statistics start afresh."
        ).format(name=backup.name)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "entries": [
                {"preset": preset, "strength": strength, **entry.to_json()}
                for (preset, strength), entry in self.rows()
            ],
        }

    def save(self, merge: bool = True) -> str | None:
        """Write the file atomically. Returns a notice when the disk refused (never raises).

        Counts already on disk are never lowered (``merge``): each count keeps the larger of
        the file's and ours, in case the file could not be read when loading.
        """
        if merge:
            self._merge_disk()
        try:
            atomic_write_json(self.path, self.to_json())
        except (OSError, ValueError, TypeError) as exc:
            error = getattr(exc, "strerror", None) or exc
            self.notice = _("Could not save the statistics: {error}").format(error=error)
            return self.notice
        return None

    def _merge_disk(self) -> None:
        data, problem = read_json(self.path) if self.path.exists() else (None, None)
        if data is None or problem is not None:
            return
        try:
            saved = _parse(data)
        except ValueError:
            return
        for key, old in saved.items():
            entry = self.entry(*key)
            for name in _COUNTS:
                setattr(entry, name, max(getattr(entry, name), getattr(old, name)))

    # ------------------------------------------------------------------ counting

    def entry(self, preset: str, strength: str) -> Entry:
        """The entry for a configuration and strength (created empty when new)."""
        return self.entries.setdefault((preset, strength), Entry())

    def record_hand(self, setup: GameSetup, result: HandResult, seat: int) -> None:
        """Count a finished hand from the point of view of ``seat`` (a human's seat)."""
        side = next((i for i, members in enumerate(result.sides) if seat in members), None)
        if side is None:
            raise ValueError(f"seat {seat} is not in this hand")
        entry = self.entry(setup.rules.name, opponent_strength(setup))
        points = result.side_points[side]
        entry.hands += 1
        entry.points += points
        entry.best = max(entry.best, points)
        if result.winner == side:
            entry.hands_won += 1
        elif result.winner is None and (not result.tied or side in result.tied):
            entry.hands_drawn += 1
        else:
            entry.hands_lost += 1

    def record_match(self, setup: GameSetup, won: bool | None) -> None:
        """Count a finished match: won, lost, or drawn (None)."""
        entry = self.entry(setup.rules.name, opponent_strength(setup))
        entry.matches += 1
        if won is None:
            entry.matches_drawn += 1
        elif won:
            entry.matches_won += 1
        else:
            entry.matches_lost += 1

    def reset(self) -> str | None:
        """Forget everything and save; returns a notice if the file could not be written."""
        self.entries = {}
        return self.save(merge=False)

    # ------------------------------------------------------------------ reading

    @property
    def empty(self) -> bool:
        return not any(entry.hands or entry.matches for entry in self.entries.values())

    def rows(self) -> list[tuple[tuple[str, str], Entry]]:
        """Entries in a stable order: known configurations first, weakest opponents first."""
        from ..engine import PRESETS

        order = {name: i for i, name in enumerate(PRESETS)}

        def key(item: tuple[tuple[str, str], Entry]) -> tuple[int, str, int, str]:
            (preset, strength), _entry = item
            rank = STRENGTHS.index(strength) if strength in STRENGTHS else len(STRENGTHS)
            return (order.get(preset, len(order)), preset, rank, strength)

        return sorted(self.entries.items(), key=key)

    def total(self) -> Entry:
        """Every entry added together."""
        total = Entry()
        for entry in self.entries.values():
            total.add(entry)
        return total


def _parse(data: Any) -> dict[tuple[str, str], Entry]:
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise ValueError("not a statistics file")
    entries: dict[tuple[str, str], Entry] = {}
    for item in data["entries"]:
        if not isinstance(item, dict):
            raise ValueError("an entry must be an object")
        preset, strength = item.get("preset"), item.get("strength")
        if not isinstance(preset, str) or not isinstance(strength, str):
            raise ValueError("an entry needs a preset and a strength")
        entry = Entry.from_json(item)
        key = (preset[:32], strength[:16])
        if key in entries:
            entries[key].add(entry)
        else:
            entries[key] = entry
    return entries
