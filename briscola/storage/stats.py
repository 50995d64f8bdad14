"""Statistics of the human player, per configuration and opponent strength.

One :class:`Entry` per ``(preset, strength)``: the preset is the rules' name (``classic2``,
``teams4``...), the strength the strongest computer at the table (``easy``, ``medium``,
``hard``) or ``hot-seat`` when only humans play. Hands are counted from the point of view of
a human seat (its side's points), matches as won, drawn or lost. :meth:`Stats.by_strength`
and :meth:`Stats.by_preset` add them up per opponent level and per configuration, and
:class:`Streaks` keeps the hands and matches won in a row against the computer (the run now
and the best one).

Format 2 added the streaks; a format 1 file loads as it is (its streaks start at 0) and is
written as format 2 at the next save.

The file is written atomically (see :mod:`.storage`): a write that fails half-way leaves the
previous file whole, so the counts on disk never go backwards. Nothing good is lost:

* a bad count or a bad entry is left out, the rest kept, and the whole file copied aside
  (``stats.json.bak``; older copies keep dated names, so a second incident destroys none);
* a file that is not statistics at all is moved aside and counting starts afresh;
* a file that exists but cannot be read (permission denied) is never overwritten: the
  counts of this session go to ``stats.json.pending`` beside it, and are added to the file
  by the first load that can read it again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola.engine import HandResult
from briscola.game.setup import LEVELS, GameSetup
from briscola.storage import paths
from briscola.storage.files import atomic_write_json, clean_text, keep_aside, read_file
from briscola.text.i18n import _

log = logging.getLogger(__name__)

FORMAT = 2
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
    #: Hands in which the player took a move back (undo); files written before this count
    #: was kept read as 0.
    hands_with_undo: int = 0

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

    @classmethod
    def salvage(cls, data: Any) -> tuple[Entry, list[str]]:
        """An entry from saved data, bad counts left out (0); also the names left out."""
        entry = cls()
        bad: list[str] = []
        if not isinstance(data, dict):
            return entry, ["entry"]
        for name in _COUNTS:
            value = data.get(name, 0)
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
                setattr(entry, name, value)
            else:
                bad.append(name)
        return entry, bad


@dataclass
class Streaks:
    """Hands and matches won in a row against the computer (hot seat is not counted): the
    run going on now and the longest one. A draw or a loss ends a run."""

    hands: int = 0
    best_hands: int = 0
    matches: int = 0
    best_matches: int = 0

    def count_hand(self, won: bool) -> None:
        self.hands = self.hands + 1 if won else 0
        self.best_hands = max(self.best_hands, self.hands)

    def count_match(self, won: bool) -> None:
        self.matches = self.matches + 1 if won else 0
        self.best_matches = max(self.best_matches, self.matches)

    def then(self, later: Streaks) -> Streaks:
        """These streaks followed by ``later`` (counted after them): the runs going on are
        the later ones, the best the longest of both."""
        return Streaks(
            later.hands,
            max(self.best_hands, later.best_hands),
            later.matches,
            max(self.best_matches, later.best_matches),
        )

    def to_json(self) -> dict[str, int]:
        return dataclasses.asdict(self)

    @classmethod
    def salvage(cls, data: Any) -> tuple[Streaks, list[str]]:
        """Streaks from saved data (none saved: all 0); bad values are left out (0), and
        named in the list returned."""
        streaks = cls()
        if data is None:
            return streaks, []
        if not isinstance(data, dict):
            return streaks, ["streaks"]
        bad: list[str] = []
        for name in _STREAKS:
            value = data.get(name, 0)
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
                setattr(streaks, name, value)
            else:
                bad.append(f"streaks {name}")
        streaks.best_hands = max(streaks.best_hands, streaks.hands)
        streaks.best_matches = max(streaks.best_matches, streaks.matches)
        return streaks, bad


_COUNTS = tuple(f.name for f in dataclasses.fields(Entry))
_STREAKS = tuple(f.name for f in dataclasses.fields(Streaks))
#: No count is ever this large (a hand a second for thirty years is about 10**9).
MAX_COUNT = 10**12


class Stats:
    """All the statistics, loaded from and saved to ``paths.stats_file()``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.stats_file()
        self.entries: dict[tuple[str, str], Entry] = {}
        self.streaks = Streaks()
        #: A message for the player about the last load or save (None when all went well).
        self.notice: str | None = None
        #: The file exists but could not be read: it must not be overwritten.
        self._blocked = False
        #: Counts from the pending file were added: remove it once the file is written.
        self._pending_loaded = False

    # ------------------------------------------------------------------ loading and saving

    @property
    def pending_path(self) -> Path:
        """Where counts wait while the statistics file cannot be read."""
        return self.path.with_name(self.path.name + ".pending")

    @classmethod
    def load(cls, path: Path | None = None) -> Stats:
        """The saved statistics; empty when there are none; never raises."""
        stats = cls(path)
        found = read_file(stats.path)
        waiting, waiting_streaks = stats._load_pending()
        if found.status == "unreadable":
            # Keep off the file: only what could not be written waits in memory.
            stats._blocked = True
            stats.entries = waiting
            stats.streaks = waiting_streaks
            stats.notice = _(
                "Could not read the statistics: {problem}. They will not be overwritten;"
                " new results are kept beside them until the file can be read."
            ).format(problem=found.error)
            return stats
        if found.status == "damaged":
            stats.notice = _(
                "The statistics file was damaged. A copy was kept as {name} and the"
                " statistics start afresh."
            ).format(name=found.backup.name if found.backup else stats.path.name)
        elif found.status == "ok":
            entries, problems, usable = _parse(found.data)
            stats.entries = entries
            if usable:
                stats.streaks, bad = Streaks.salvage(found.data.get("streaks"))
                problems += bad
            if not usable:
                stats._keep_aside()
            elif problems:
                backup = keep_aside(stats.path, copy=True)
                log.warning("statistics: left out %s", ", ".join(problems))
                stats.notice = _(
                    "Some statistics could not be read and were left out; the rest are kept."
                    " A copy of the file was kept as {name}."
                ).format(name=backup.name if backup else stats.path.name)
        if waiting:
            for key, entry in waiting.items():
                stats.entry(*key).add(entry)
            stats.streaks = stats.streaks.then(waiting_streaks)
            stats._pending_loaded = True
        return stats

    def _load_pending(self) -> tuple[dict[tuple[str, str], Entry], Streaks]:
        found = read_file(self.pending_path)
        if found.status != "ok":
            return {}, Streaks()
        entries, _problems, usable = _parse(found.data)
        streaks = Streaks.salvage(found.data.get("streaks"))[0] if usable else Streaks()
        return entries, streaks

    def _keep_aside(self) -> None:
        """Readable JSON that is not statistics: move it aside like a damaged file."""
        backup = keep_aside(self.path)
        self.entries = {}
        self.streaks = Streaks()
        self.notice = _(
            "The statistics file was damaged. A copy was kept as {name} and the"
            " statistics start afresh."
        ).format(name=backup.name if backup else self.path.name)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "entries": [
                {"preset": preset, "strength": strength, **entry.to_json()}
                for (preset, strength), entry in self.rows()
            ],
            "streaks": self.streaks.to_json(),
        }

    def save(self, merge: bool = True) -> str | None:
        """Write the file atomically. Returns a notice when the disk refused (never raises).

        Counts already on disk are never lowered (``merge``): each count keeps the larger of
        the file's and ours, in case the file could not be read when loading. A file that
        could not be read is not overwritten while it still cannot be read (see the module).
        """
        if self._blocked and not self._unblock():
            return self._save_pending()
        if merge:
            self._merge_disk()
        failed = self._write(self.path)
        if failed is not None:
            return failed
        if self._pending_loaded:
            with contextlib.suppress(OSError):
                self.pending_path.unlink()
            self._pending_loaded = False
        return None

    def _unblock(self) -> bool:
        """The file could not be read when loading: if it can be now, add our counts (which
        are not in it) to its counts and carry on as usual."""
        found = read_file(self.path)
        if found.status == "unreadable":
            return False
        saved, _problems, usable = _parse(found.data) if found.status == "ok" else ({}, [], False)
        for key, entry in self.entries.items():
            saved.setdefault(key, Entry()).add(entry)
        self.entries = saved
        if usable:
            self.streaks = Streaks.salvage(found.data.get("streaks"))[0].then(self.streaks)
        self._blocked = False
        self._pending_loaded = True
        return True

    def _write(self, path: Path) -> str | None:
        """Write the counts to ``path``; the notice when the disk refused, else None."""
        try:
            atomic_write_json(path, self.to_json())
        except (OSError, ValueError, TypeError) as exc:
            error = getattr(exc, "strerror", None) or exc
            self.notice = _("Could not save the statistics: {error}").format(error=error)
            return self.notice
        return None

    def _save_pending(self) -> str | None:
        failed = self._write(self.pending_path)
        if failed is not None:
            return failed
        self.notice = _(
            "The statistics file could not be read, so it was not overwritten; the new"
            " results were saved as {name}."
        ).format(name=self.pending_path.name)
        return self.notice

    def _merge_disk(self) -> None:
        found = read_file(self.path)
        if found.status != "ok":
            return
        saved, _problems, usable = _parse(found.data)
        if not usable:
            return
        for key, old in saved.items():
            entry = self.entry(*key)
            for name in _COUNTS:
                setattr(entry, name, max(getattr(entry, name), getattr(old, name)))
        # The runs going on are ours (a loss ends one); the best runs never go down.
        disk = Streaks.salvage(found.data.get("streaks"))[0]
        self.streaks.best_hands = max(self.streaks.best_hands, disk.best_hands)
        self.streaks.best_matches = max(self.streaks.best_matches, disk.best_matches)

    # ------------------------------------------------------------------ counting

    def entry(self, preset: str, strength: str) -> Entry:
        """The entry for a configuration and strength (created empty when new)."""
        return self.entries.setdefault((preset, strength), Entry())

    def record_hand(
        self, setup: GameSetup, result: HandResult, seat: int, undone: bool = False
    ) -> None:
        """Count a finished hand from the point of view of ``seat`` (a human's seat);
        ``undone``: the player took a move back in it (counted in ``hands_with_undo``)."""
        side = next((i for i, members in enumerate(result.sides) if seat in members), None)
        if side is None:
            raise ValueError(f"seat {seat} is not in this hand")
        entry = self.entry(setup.rules.name, opponent_strength(setup))
        points = result.side_points[side]
        entry.hands += 1
        entry.points += points
        entry.best = max(entry.best, points)
        if undone:
            entry.hands_with_undo += 1
        if result.winner == side:
            entry.hands_won += 1
        elif result.winner is None and (not result.tied or side in result.tied):
            entry.hands_drawn += 1
        else:
            entry.hands_lost += 1
        if opponent_strength(setup) != HOT_SEAT:
            self.streaks.count_hand(result.winner == side)

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
        if opponent_strength(setup) != HOT_SEAT:
            self.streaks.count_match(won is True)

    def reset(self) -> str | None:
        """Forget everything and save; returns a notice if the file could not be written."""
        self.entries = {}
        self.streaks = Streaks()
        return self.save(merge=False)

    # ------------------------------------------------------------------ reading

    @property
    def empty(self) -> bool:
        return not any(entry.hands or entry.matches for entry in self.entries.values())

    def rows(self) -> list[tuple[tuple[str, str], Entry]]:
        """Entries in a stable order: known configurations first, weakest opponents first."""
        from briscola.engine import PRESETS

        order = {name: i for i, name in enumerate(PRESETS)}

        def key(item: tuple[tuple[str, str], Entry]) -> tuple[int, str, int, str]:
            (preset, strength), _entry = item
            rank = STRENGTHS.index(strength) if strength in STRENGTHS else len(STRENGTHS)
            return (order.get(preset, len(order)), preset, rank, strength)

        return sorted(self.entries.items(), key=key)

    def by_strength(self) -> list[tuple[str, Entry]]:
        """Every configuration added together, per opponent strength (weakest first)."""
        out: dict[str, Entry] = {}
        for (_preset, strength), entry in self.rows():
            out.setdefault(strength, Entry()).add(entry)
        rank = {name: i for i, name in enumerate(STRENGTHS)}
        return sorted(out.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))

    def by_preset(self) -> list[tuple[str, Entry]]:
        """Every opponent strength added together, per configuration (in the rows' order)."""
        out: dict[str, Entry] = {}
        for (preset, _strength), entry in self.rows():
            out.setdefault(preset, Entry()).add(entry)
        return list(out.items())

    def total(self) -> Entry:
        """Every entry added together."""
        total = Entry()
        for entry in self.entries.values():
            total.add(entry)
        return total


def _parse(data: Any) -> tuple[dict[tuple[str, str], Entry], list[str], bool]:
    """``(entries, what was left out, usable)``: bad entries and bad counts are left out;
    ``usable`` is False when the data is not a statistics file at all."""
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        return {}, ["the whole file"], False
    entries: dict[tuple[str, str], Entry] = {}
    problems: list[str] = []
    for number, item in enumerate(data["entries"], 1):
        if not isinstance(item, dict):
            problems.append(f"entry {number}")
            continue
        preset, strength = item.get("preset"), item.get("strength")
        if not isinstance(preset, str) or not isinstance(strength, str):
            problems.append(f"entry {number}")
            continue
        key = (clean_text(preset, 32), clean_text(strength, 16))
        if not key[0] or not key[1]:
            problems.append(f"entry {number}")
            continue
        entry, bad = Entry.salvage(item)
        problems.extend(f"entry {number} {name}" for name in bad)
        if key in entries:
            entries[key].add(entry)
        else:
            entries[key] = entry
    return entries, problems, True
