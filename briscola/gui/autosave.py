"""Autosave of the game in progress: written atomically after every move (on a helper
thread, so frames never wait for the disk), so quitting or killing the app mid-hand loses
nothing: the whole hand is stored as an engine record (with the trick on the table), the
match standing beside it.

A save that fails (a read-only folder, a full disk, a folder where the file should be) is
reported (:func:`take_notice`, which the app shows) and removes the older autosave, so
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

from .. import __version__
from ..engine import GameState, Match, replay, to_record
from . import paths
from .i18n import _
from .setup import GameSetup
from .storage import atomic_write_json, keep_aside, read_file

log = logging.getLogger(__name__)
FORMAT = "briscola-autosave/1"


@dataclass
class Saved:
    setup: GameSetup
    match: Match
    #: The hand in progress; None when the last hand is finished and the next not dealt.
    state: GameState | None


_writer: ThreadPoolExecutor | None = None
_pending: Future[None] | None = None
_notice_lock = threading.Lock()
_notice: str | None = None


def take_notice() -> str | None:
    """The message about the last failed save, once (None when saves went well)."""
    global _notice
    with _notice_lock:
        notice, _notice = _notice, None
    return notice


def _report(notice: str) -> None:
    global _notice
    with _notice_lock:
        _notice = notice


def save(
    setup: GameSetup,
    match: Match,
    state: GameState | None,
    path: Path | None = None,
    background: bool = False,
) -> None:
    """Save the game; ``background`` writes on a helper thread (after every move, so the
    frame never waits for the disk). Writes stay in order."""
    global _writer, _pending
    data = _snapshot(setup, match, state)
    target = path or paths.autosave_file()
    if not background:
        flush()
        _write(target, data)
        return
    if _writer is None:
        _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
    _pending = _writer.submit(_write, target, data)


def flush() -> None:
    """Wait until the last background save is on disk."""
    if _pending is not None:
        _pending.result()


def _snapshot(setup: GameSetup, match: Match, state: GameState | None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "app": __version__,
        "setup": setup.to_json(),
        "match": match.to_json(),
        "hand": None if state is None or state.is_terminal() else to_record(state),
    }


_failing = False


def _write(path: Path, data: dict[str, Any]) -> None:
    """Write the autosave; a failure is reported once until a save succeeds again."""
    global _failing
    try:
        atomic_write_json(path, data)
    except (OSError, ValueError, TypeError) as exc:
        log.warning("autosave failed: %s", exc)
        _invalidate(path)
        if not _failing:
            error = getattr(exc, "strerror", None) or exc
            _report(
                _(
                    "The game could not be saved ({error}); if Briscola closes now, this game"
                    " cannot be continued."
                ).format(error=error)
            )
        _failing = True
        return
    _failing = False


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


def load(path: Path | None = None) -> tuple[Saved | None, str | None]:
    """The saved game, or None with a notice when it is damaged (kept aside as .bak)."""
    path = path or paths.autosave_file()
    found = read_file(path)
    if found.status != "ok":
        return None, found.notice
    try:
        return _restore(found.data), None
    except Exception as exc:  # whatever the file holds, Continue must not crash
        log.warning("autosave unreadable: %s", exc)
        keep_aside(path)
        clear(path)
        return None, _("The saved game could not be restored and was discarded.")


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


def clear(path: Path | None = None) -> None:
    flush()
    path = path or paths.autosave_file()
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        log.warning("could not remove autosave: %s", exc)


def exists(path: Path | None = None) -> bool:
    return (path or paths.autosave_file()).is_file()
