"""Small, safe file storage: atomic writes and forgiving JSON reads.

A write goes to a temporary file in the same folder, is flushed to disk, then replaces the
old file in one step: killing the app mid-write leaves the old file whole. A file that
cannot be read as JSON is moved aside to ``<name>.bak`` and reported, never raised.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .i18n import _


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (create folders as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def read_json(path: Path) -> tuple[Any | None, str | None]:
    """``(data, None)``; ``(None, None)`` when the file does not exist; ``(None, notice)``
    when it is unreadable or corrupt (the file is then kept aside as ``.bak``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, _("Could not read {name}: {error}").format(
            name=path.name, error=exc.strerror or exc
        )
    try:
        return json.loads(text), None
    except (json.JSONDecodeError, UnicodeDecodeError):
        backup = path.with_name(path.name + ".bak")
        with contextlib.suppress(OSError):
            os.replace(path, backup)
        return None, _(
            "{name} was damaged and has been reset; a copy was kept as {backup}."
        ).format(name=path.name, backup=backup.name)
