"""CHANGELOG.md (Keep a Changelog): read its sections, print a release's notes.

::

    python tools/changelog.py                    # the notes of the newest release (the top one)
    python tools/changelog.py --version 0.2.0    # the notes of 0.2.0
    python tools/changelog.py --top-version      # the newest release's version

Sections are ``## [VERSION] - YYYY-MM-DD`` (newest first), optionally after an
``## [Unreleased]`` section, which is never a release. The notes are the section's text
without its heading. The release workflow passes them to the draft release, after checking
that the top release is the version in pyproject.toml.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = REPO_ROOT / "CHANGELOG.md"

_HEADING = re.compile(r"^## \[(?P<name>[^\]]+)\](?P<rest>.*)$")
_DATED = re.compile(r"^ - (?P<date>\d{4}-\d{2}-\d{2})$")


class ChangelogError(ValueError):
    """CHANGELOG.md does not have what a release needs."""


@dataclass(frozen=True)
class Section:
    """One ``## [...]`` section."""

    name: str  #: the version, or "Unreleased"
    date: datetime.date | None
    body: str  #: the text under the heading, stripped
    line: int  #: the heading's line number (1-based)

    @property
    def released(self) -> bool:
        return self.name.lower() != "unreleased"


def sections(text: str) -> list[Section]:
    """Every ``## [...]`` section in order. A released section needs a date; link reference
    definitions (``[0.1.0]: https://...``) at the end belong to no section."""
    found: list[Section] = []
    heading: tuple[str, datetime.date | None, int] | None = None
    lines: list[str] = []

    def close() -> None:
        if heading is not None:
            body = "\n".join(line for line in lines if not _is_link_definition(line)).strip()
            found.append(Section(heading[0], heading[1], body, heading[2]))

    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADING.match(line.rstrip())
        if match is None:
            lines.append(line)
            continue
        close()
        name, rest = match["name"].strip(), match["rest"]
        date = None
        if name.lower() != "unreleased":
            dated = _DATED.match(rest)
            if dated is None:
                raise ChangelogError(
                    f"line {number}: a release heading is '## [{name}] - YYYY-MM-DD', "
                    f"not {line.strip()!r}"
                )
            try:
                date = datetime.date.fromisoformat(dated["date"])
            except ValueError as exc:
                raise ChangelogError(f"line {number}: {exc}") from None
        heading, lines = (name, date, number), []
    close()
    names = [section.name for section in found]
    doubles = sorted({name for name in names if names.count(name) > 1})
    if doubles:
        raise ChangelogError(f"sections given twice: {', '.join(doubles)}")
    return found


def _is_link_definition(line: str) -> bool:
    return re.match(r"^\[[^\]]+\]: \S+", line) is not None


def releases(text: str) -> list[Section]:
    return [section for section in sections(text) if section.released]


def top_release(text: str) -> Section:
    """The newest release: the first section that is not Unreleased."""
    found = releases(text)
    if not found:
        raise ChangelogError("no release section ('## [VERSION] - YYYY-MM-DD')")
    return found[0]


def release_notes(text: str, version: str | None = None) -> str:
    """The text of ``version``'s section (the top release's by default); an error when it is
    missing or empty."""
    if version is None:
        section = top_release(text)
    else:
        matching = [s for s in releases(text) if s.name == version]
        if not matching:
            raise ChangelogError(f"no section for version {version}")
        section = matching[0]
    if not section.body:
        raise ChangelogError(f"the section of {section.name} is empty")
    return section.body + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print a release's notes from CHANGELOG.md.")
    parser.add_argument("--file", type=Path, default=CHANGELOG, help="default: CHANGELOG.md")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--version", help="the release (default: the top one)")
    what.add_argument("--top-version", action="store_true", help="print the top release")
    parser.add_argument("--out", type=Path, help="write the notes here instead of stdout")
    args = parser.parse_args(argv)
    text = args.file.read_text(encoding="utf-8")
    try:
        output = top_release(text).name + "\n" if args.top_version else None
        if output is None:
            output = release_notes(text, args.version)
    except ChangelogError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    if args.out is not None:
        args.out.write_text(output, encoding="utf-8")
    else:
        sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
