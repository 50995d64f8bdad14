"""Autosave of the game in progress: written atomically after every move (on a helper
thread, so frames never wait for the disk), so quitting or killing the app mid-hand loses
nothing: the whole hand is stored as an engine record (with the trick on the table), the
match standing beside it."""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine import GameState, Match, replay, to_record
from . import paths
from .i18n import _
from .setup import GameSetup
from .storage import atomic_write_json, read_json

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


def _write(path: Path, data: dict[str, Any]) -> None:
    try:
        atomic_write_json(path, data)
    except OSError as exc:
        log.warning("autosave failed: %s", exc)


def load(path: Path | None = None) -> tuple[Saved | None, str | None]:
    """The saved game, or None with a notice when it is damaged (kept aside as .bak)."""
    path = path or paths.autosave_file()
    data, notice = read_json(path)
    if data is None:
        return None, notice
    try:
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown autosave format {data.get('format')!r}")
        setup = GameSetup.from_json(data["setup"])
        match = Match.from_json(data["match"])
        hand = data.get("hand")
        state = replay(hand) if hand else None
        if state is not None and state.dealer != match.dealer:
            raise ValueError("the saved hand does not belong to the saved match")
        return Saved(setup, match, state), None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("autosave unreadable: %s", exc)
        clear(path)
        return None, _("The saved game could not be restored and was discarded.")


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
