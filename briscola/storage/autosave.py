"""Autosave of the game in progress: written atomically after every move (on a helper
thread, so frames never wait for the disk), so quitting or killing the app mid-hand loses
nothing: the whole hand is stored as an engine record (with the trick on the table), the
match standing beside it.

A save that fails (a read-only folder, a full disk, a folder where the file should be) is
reported (:meth:`Autosave.take_notice`, which the app shows) and removes the older autosave, so
Continue never resumes a game older than the one on the table. Loading checks every field;
whatever is wrong with the file, the player gets a notice and a fresh start, never a crash.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola import __version__
from briscola.engine import GameState, Match, replay, to_record
from briscola.game.setup import GameSetup
from briscola.storage import paths
from briscola.storage.files import atomic_write_json, keep_aside, read_file
from briscola.text.i18n import _

log = logging.getLogger(__name__)
FORMAT = "briscola-autosave/1"


@dataclass
class Saved:
    setup: GameSetup
    match: Match
    #: The hand in progress; None when the last hand is finished and the next not dealt.
    state: GameState | None


class Autosave:
    """The autosave file at ``path`` (the data folder's ``autosave.json`` by default) and the
    helper thread that writes it in the background; one for the whole app."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.autosave_file()
        self._writer: ThreadPoolExecutor | None = None
        self._pending: Future[None] | None = None
        self._notice_lock = threading.Lock()
        self._notice: str | None = None
        self._failing = False

    def take_notice(self) -> str | None:
        """The message about the last failed save, once (None when saves went well)."""
        with self._notice_lock:
            notice, self._notice = self._notice, None
        return notice

    def save(
        self, setup: GameSetup, match: Match, state: GameState | None, background: bool = False
    ) -> None:
        """Save the game; ``background`` writes on the helper thread (after every move, so
        the frame never waits for the disk). Writes stay in order."""
        data = _snapshot(setup, match, state)
        if not background:
            self.flush()
            self._write(data)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
        self._pending = self._writer.submit(self._write, data)

    def flush(self) -> None:
        """Wait until the last background save is on disk."""
        if self._pending is not None:
            self._pending.result()

    def close(self) -> None:
        """Finish writing and stop the helper thread."""
        self.flush()
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    def _write(self, data: dict[str, Any]) -> None:
        """Write the autosave; a failure is reported once until a save succeeds again."""
        try:
            atomic_write_json(self.path, data)
        except (OSError, ValueError, TypeError) as exc:
            log.warning("autosave failed: %s", exc)
            _invalidate(self.path)
            if not self._failing:
                error = getattr(exc, "strerror", None) or exc
                with self._notice_lock:
                    self._notice = _(
                        "The game could not be saved ({error}); if Briscola closes now, this"
                        " game cannot be continued."
                    ).format(error=error)
            self._failing = True
            return
        self._failing = False

    def load(self) -> tuple[Saved | None, str | None]:
        """The saved game, or None with a notice when it is damaged (kept aside as .bak)."""
        found = read_file(self.path)
        if found.status != "ok":
            return None, found.notice
        try:
            return _restore(found.data), None
        except Exception as exc:  # whatever the file holds, Continue must not crash
            log.warning("autosave unreadable: %s", exc)
            keep_aside(self.path)
            self.clear()
            return None, _("The saved game could not be restored and was discarded.")

    def clear(self) -> None:
        self.flush()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("could not remove autosave: %s", exc)

    def exists(self) -> bool:
        return self.path.is_file()


def _snapshot(setup: GameSetup, match: Match, state: GameState | None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "app": __version__,
        "setup": setup.to_json(),
        "match": match.to_json(),
        "hand": None if state is None or state.is_terminal() else to_record(state),
    }


def _invalidate(path: Path) -> None:
    """Make sure an older autosave is not resumed in place of the game that failed to save:
    remove it, or (in a folder that refuses removal) empty it."""
    if not path.is_file():
        return
    try:
        path.unlink()
        return
    except OSError:
        pass
    with contextlib.suppress(OSError), open(path, "w", encoding="utf-8"):
        pass


def _restore(data: Any) -> Saved:
    if not isinstance(data, dict):
        raise ValueError("an autosave must be a JSON object")
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown autosave format {data.get('format')!r:.40}")
    setup = GameSetup.from_json(data["setup"])
    match = Match.from_json(data["match"])
    if match.rules != setup.rules:
        raise ValueError("the saved match and the saved setup have different rules")
    hand = data.get("hand")
    state = replay(hand) if hand is not None else None
    if state is not None:
        if state.rules != match.rules:
            raise ValueError("the saved hand has other rules than the saved match")
        if state.dealer != match.dealer:
            raise ValueError("the saved hand does not belong to the saved match")
    return Saved(setup, match, state)
