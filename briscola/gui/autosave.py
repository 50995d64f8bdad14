"""Autosave of the game in progress: written atomically after every trick, so quitting or
killing the app mid-hand loses at most the trick on the table (which is replayed too: the
whole hand is stored as an engine record, the match standing beside it)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine import GameState, Match, replay, to_record
from . import paths
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


def save(setup: GameSetup, match: Match, state: GameState | None, path: Path | None = None) -> None:
    data: dict[str, Any] = {
        "format": FORMAT,
        "app": __version__,
        "setup": setup.to_json(),
        "match": match.to_json(),
        "hand": None if state is None or state.is_terminal() else to_record(state),
    }
    try:
        atomic_write_json(path or paths.autosave_file(), data)
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
        return None, "The saved game could not be restored and was discarded."


def clear(path: Path | None = None) -> None:
    path = path or paths.autosave_file()
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        log.warning("could not remove autosave: %s", exc)


def exists(path: Path | None = None) -> bool:
    return (path or paths.autosave_file()).is_file()
