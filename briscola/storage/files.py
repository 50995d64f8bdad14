"""Small, safe file storage: atomic writes, and the one reader of every JSON file the game owns.

A write goes to a temporary file (``.<name>.XXXXXXXX.tmp``) in the same folder, is flushed
to disk, then replaces the old file in one step: killing the app mid-write leaves the old
file whole. Temporary files such a kill leaves behind are removed by the next read of that
file once they are a few minutes old (never a file of another name pattern).

:func:`read_file` reads a JSON file whatever it holds: a file too large, bytes that are not
UTF-8, nesting too deep for the parser, or text that is not JSON make it *damaged*: it is
moved aside to ``<name>.bak`` (an older ``.bak`` is kept under a dated name, the last
:data:`KEEP_BACKUPS` are kept) and reported, never raised. A file that exists but cannot be
read (permission denied, a folder in its place) is *unreadable*: it is left alone, and
callers must not overwrite it. Checking the schema field by field is the caller's job (see
:mod:`.settings`, :mod:`.stats`, :mod:`.autosave`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from briscola.engine.codec import CodecError, parse_json
from briscola.text.i18n import _

#: Larger than anything the game writes into its own files.
MAX_BYTES: Final = 2_000_000
#: Damaged copies kept per file (the newest as ``<name>.bak``, older ones dated).
KEEP_BACKUPS: Final = 5
#: Seconds after which a leftover temporary file cannot belong to a write in progress.
STALE_TMP_SECONDS: Final = 120.0

Status = Literal["ok", "missing", "unreadable", "damaged"]


@dataclass(frozen=True)
class ReadResult:
    """What :func:`read_file` found: ``data`` when ``status`` is ``ok``, else a notice."""

    status: Status
    data: Any = None
    notice: str | None = None
    #: Where a damaged file was moved (None when it could not be moved).
    backup: Path | None = None
    #: Why an unreadable file could not be read (the system's words).
    error: str | None = None


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


def _read_bytes(path: Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (enough to tell that it is too large)."""
    with open(path, "rb") as source:
        return source.read(limit + 1)


def read_file(path: Path, max_bytes: int = MAX_BYTES) -> ReadResult:
    """Read the JSON file ``path``; never raises (see the module's description)."""
    clean_temporary_files(path)
    try:
        raw = _read_bytes(path, max_bytes)
    except FileNotFoundError:
        return ReadResult("missing")
    except OSError as exc:
        error = str(exc.strerror or exc)
        notice = _("Could not read {name}: {error}").format(name=path.name, error=error)
        return ReadResult("unreadable", notice=notice, error=error)
    try:
        if len(raw) > max_bytes:
            raise CodecError(f"larger than {max_bytes} bytes")
        data = parse_json(raw, max_chars=max_bytes)
    except CodecError:
        backup = keep_aside(path)
        shown = backup.name if backup is not None else path.name
        notice = _("{name} was damaged and has been reset; a copy was kept as {backup}.").format(
            name=path.name, backup=shown
        )
        return ReadResult("damaged", notice=notice, backup=backup)
    return ReadResult("ok", data=data)


def read_json(path: Path) -> tuple[Any | None, str | None]:
    """``(data, None)``; ``(None, None)`` when the file does not exist; ``(None, notice)``
    when it is unreadable or damaged (a damaged file is then kept aside as ``.bak``)."""
    result = read_file(path)
    return result.data, result.notice


def peek_json(path: Path, max_bytes: int = MAX_BYTES) -> Any | None:
    """The JSON in ``path``, or None for any problem; no side effects (nothing moved)."""
    try:
        return parse_json(_read_bytes(path, max_bytes), max_chars=max_bytes)
    except (OSError, CodecError):
        return None


def clean_text(value: Any, limit: int) -> str:
    r"""``value`` as text a font can draw: printable characters only (no NUL, control
    characters or lone surrogates from a file), trimmed to ``limit`` characters.

    >>> clean_text("Ada\x00 Lovelace\udc80", 8)
    'Ada Love'
    """
    return "".join(ch for ch in str(value) if ch.isprintable()).strip()[:limit]


# ---------------------------------------------------------------------------- backups


def backup_path(path: Path) -> Path:
    """Where the newest damaged copy of ``path`` is kept."""
    return path.with_name(path.name + ".bak")


def backups(path: Path) -> list[Path]:
    """Kept copies of ``path``, newest first."""
    newest = backup_path(path)
    dated = sorted(path.parent.glob(f"{glob_escape(path.name)}.*.bak"), reverse=True)
    return ([newest] if newest.exists() else []) + [p for p in dated if p != newest]


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def _stamp() -> str:
    """The time now, sortable as text (to the microsecond: names never collide)."""
    now = time.time()
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f"-{int(now % 1 * 1e6):06d}"


def keep_aside(path: Path, copy: bool = False) -> Path | None:
    """Move (or ``copy``) ``path`` to ``<name>.bak``; an older ``.bak`` keeps a dated name
    (``<name>.20260131-174501-038215.bak``) so a second incident destroys nothing; only the newest
    :data:`KEEP_BACKUPS` copies are kept. Returns the backup, or None when that failed."""
    newest = backup_path(path)
    try:
        if newest.exists():
            dated = path.with_name(f"{path.name}.{_stamp()}.bak")
            while dated.exists():
                time.sleep(0.001)
                dated = path.with_name(f"{path.name}.{_stamp()}.bak")
            os.replace(newest, dated)
        if copy:
            shutil.copyfile(path, newest)
        else:
            os.replace(path, newest)
    except OSError:
        return None
    for old in backups(path)[KEEP_BACKUPS:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return newest


# ---------------------------------------------------------------------------- leftovers


def clean_temporary_files(path: Path, older_than: float = STALE_TMP_SECONDS) -> int:
    """Remove the temporary files an interrupted :func:`atomic_write_text` of ``path`` left
    (``.<name>.XXXXXXXX.tmp``, older than ``older_than`` seconds). Returns how many."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    removed = 0
    now = time.time()
    try:
        candidates = list(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))
    except OSError:
        return 0
    for leftover in candidates:
        if not pattern.fullmatch(leftover.name):
            continue
        try:
            if not leftover.is_file() or now - leftover.stat().st_mtime < older_than:
                continue
            leftover.unlink()
            removed += 1
        except OSError:
            continue
    return removed


def clean_folder(folder: Path, older_than: float = STALE_TMP_SECONDS) -> int:
    """:func:`clean_temporary_files` for every JSON file of ``folder`` (the saved records)."""
    pattern = re.compile(r"\.(.+\.json)\.[A-Za-z0-9_]{8}\.tmp")
    names = set()
    try:
        for leftover in folder.glob(".*.json.*.tmp"):
            match = pattern.fullmatch(leftover.name)
            if match:
                names.add(match.group(1))
    except OSError:
        return 0
    return sum(clean_temporary_files(folder / name, older_than) for name in sorted(names))
