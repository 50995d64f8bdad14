"""The game's version: written once, as ``[project] version`` in ``pyproject.toml``.

Everything else reads it from there: ``briscola.__version__`` (and so ``--version`` and the
menu), ``build.spec`` (the Windows version resource, the macOS ``Info.plist`` and the
``VERSION`` file it puts into the frozen bundle, where ``pyproject.toml`` is not), the ``.deb``
control file, the Inno Setup installer, the release notes (CHANGELOG.md) and the release tag.

::

    python tools/version.py                  # print it
    python tools/version.py --check-tag v0.1.0   # exit 1 unless the tag is v + the version
    python tools/version.py --debian         # the version as Debian writes it (0.1.0~rc1)

Nothing here imports the game.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
#: Where build.spec puts the version in the bundle: next to the frozen ``briscola`` package,
#: where ``briscola/__init__.py`` looks for it first.
BUNDLE_VERSION_FILE = Path("briscola") / "VERSION"

#: A public, normalised PEP 440 version without epoch: 1.2.3, 1.2.3rc1, 1.2.3.post1, 1.2.3.dev4.
_PEP440 = re.compile(
    r"(?P<release>\d+(?:\.\d+)*)"
    r"(?:(?P<pre>a|b|rc)(?P<pre_n>\d+))?"
    r"(?:\.post(?P<post>\d+))?"
    r"(?:\.dev(?P<dev>\d+))?"
)


def read_version(root: Path = REPO_ROOT) -> str:
    """``[project] version`` of ``root/pyproject.toml``; ValueError if it is missing, dynamic or
    not a normalised PEP 440 version."""
    path = root / "pyproject.toml"
    project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
    version = project.get("version")
    if not isinstance(version, str):
        raise ValueError(f"no [project] version = '...' in {path}")
    if not is_release_version(version):
        raise ValueError(f"{path}: version {version!r} is not a normalised PEP 440 version")
    return version


def is_release_version(version: str) -> bool:
    """True for a normalised public PEP 440 version without epoch or local part.

    >>> [is_release_version(v) for v in ("0.1.0", "1.2rc1", "1.0.post2.dev3", "v1.0", "1.0-1")]
    [True, True, True, False, False]
    """
    return _PEP440.fullmatch(version) is not None


def tag_for(version: str) -> str:
    """The git tag of a release: ``v`` and the version."""
    return f"v{version}"


def debian_version(version: str) -> str:
    """The version as a Debian package writes it, sorting like PEP 440 does: pre-releases and
    development releases before the release (``~``), post-releases after it (``+``).

    >>> [debian_version(v) for v in ("0.1.0", "1.2.0rc1", "1.2.0.dev3", "1.2.0.post1")]
    ['0.1.0', '1.2.0~rc1', '1.2.0~dev3', '1.2.0+post1']
    >>> debian_version("1.2.0rc1.dev2")
    '1.2.0~rc1~dev2'
    """
    match = _PEP440.fullmatch(version)
    if match is None:
        raise ValueError(f"not a normalised PEP 440 version: {version!r}")
    text = match["release"]
    if match["pre"]:
        text += f"~{match['pre']}{match['pre_n']}"
    if match["post"]:
        text += f"+post{match['post']}"
    if match["dev"]:
        text += f"~dev{match['dev']}"
    return text


def write_bundle_version(work: Path, version: str) -> Path:
    """Write the version into ``work/VERSION``, the file build.spec bundles as
    :data:`BUNDLE_VERSION_FILE`."""
    work.mkdir(parents=True, exist_ok=True)
    out = work / "VERSION"
    out.write_text(version + "\n", encoding="utf-8")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print or check the game's version.")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the repository")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check-tag", metavar="TAG", help="fail unless TAG is v<version>")
    what.add_argument("--debian", action="store_true", help="print the Debian form")
    args = parser.parse_args(argv)
    version = read_version(args.root)
    if args.check_tag is not None:
        tag = args.check_tag.removeprefix("refs/tags/")
        if tag != tag_for(version):
            print(
                f"tag {tag} does not match pyproject.toml's version {version} "
                f"(expected {tag_for(version)})",
                file=sys.stderr,
            )
            return 1
        print(f"tag {tag} matches version {version}")
        return 0
    print(debian_version(version) if args.debian else version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
