"""The hands' records on this computer. Every hand finished here is kept as a record in
``records/recent/`` (the newest :data:`KEPT`, the oldest dropped), so that any of them can be
replayed or reviewed without having been saved by hand. A hand saved with "Save record"
(:func:`save_record`) goes to ``records/`` and stays.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from briscola.storage import paths
from briscola.storage.files import atomic_write_json

__all__ = ["KEPT", "keep_recent", "recent_dir", "save_record"]

log = logging.getLogger(__name__)

#: Recent hands kept at most.
KEPT: Final = 50


def recent_dir() -> Path:
    return paths.records_dir() / "recent"


def save_record(record: Mapping[str, Any], hand_number: int, folder: Path | None = None) -> Path:
    """Write ``record`` into the records folder ("Save record"), under a name of its own
    (the time and the hand's number); the path written. Raises :class:`OSError`."""
    folder = folder or paths.records_dir()
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    base = f"briscola_{stamp}_hand-{hand_number}"
    path = folder / f"{base}.json"
    counter = 2
    while path.exists():
        path = folder / f"{base}_{counter}.json"
        counter += 1
    atomic_write_json(path, dict(record))
    return path


def keep_recent(
    record: Mapping[str, Any], folder: Path | None = None, kept: int = KEPT
) -> Path | None:
    """Write ``record`` among the recent hands, then drop the oldest beyond ``kept``. The
    path written, or None when it could not be (logged: the game goes on)."""
    folder = folder or recent_dir()
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H-%M-%S-%f")
    path = folder / f"hand_{stamp}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_json(path, dict(record))
        # Names sort by time: the oldest come first.
        for old in sorted(folder.glob("hand_*.json"))[:-kept]:
            old.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("could not keep the hand among the recent ones: %s", exc)
        return None
    return path
