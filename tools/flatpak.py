"""The Flatpak manifest: check it, and write the files of a Flathub submission.

``packaging/flatpak/org.briscola.Briscola.json`` builds the game from this checkout
(``flatpak-builder`` with the ``dir`` source, packaging/flatpak/README.md). A Flathub
submission builds it from a tagged commit instead, and its AppStream file needs the project's
addresses, screenshots and releases; the release workflow writes both files with::

    python tools/flatpak.py submission --repo-url https://github.com/OWNER/REPO \\
        --tag v0.1.0 --commit 0123abc... --out release/flathub

which replaces the ``dir`` source by that ``git`` tag and commit, and adds to the metainfo the
homepage and issue tracker, the screenshots of ``docs/screenshots/`` at that tag, and one
``<release>`` per CHANGELOG.md release. ``python tools/flatpak.py check`` compares the
manifest's Python modules with requirements.txt.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a script: python tools/flatpak.py
    sys.path.insert(0, str(REPO_ROOT))

from tools.changelog import releases  # noqa: E402

APP_ID = "org.briscola.Briscola"
FLATPAK_DIR = REPO_ROOT / "packaging" / "flatpak"
MANIFEST = FLATPAK_DIR / f"{APP_ID}.json"
METAINFO = FLATPAK_DIR / f"{APP_ID}.metainfo.xml"
#: The module that is the game itself (its source is this checkout, or the tag).
GAME_MODULE = "briscola"
#: The screenshots the submission lists, first the default one, with their captions.
SCREENSHOTS = (
    ("table-italian.jpg", "A two-player game with the Italian cards"),
    ("teams4-1080.jpg", "Four players in teams"),
    ("chiamata-auction.jpg", "The auction of Briscola Chiamata"),
    ("table-french.jpg", "The French cards, with the briscola swap"),
    ("score.jpg", "The score of a hand"),
)

# A file name of PyPI: name-version(-tags).whl or name-version.tar.gz.
_DIST = re.compile(r"^(?P<name>[A-Za-z0-9_.]+?)-(?P<version>[0-9][^-]*?)(?:-.+\.whl|\.tar\.gz)$")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def load_manifest(path: Path = MANIFEST) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")
    return data


def module(manifest: dict[str, Any], name: str) -> dict[str, Any]:
    for entry in manifest["modules"]:
        if isinstance(entry, dict) and entry.get("name") == name:
            return entry
    raise KeyError(f"no module {name!r} in the manifest")


def python_sources(manifest: dict[str, Any]) -> dict[str, str]:
    """``{canonical name: version}`` of every PyPI file the manifest downloads."""
    found: dict[str, str] = {}
    for entry in manifest["modules"]:
        if not isinstance(entry, dict):
            continue
        for source in entry.get("sources", []):
            url = source.get("url", "")
            if not url.startswith("https://files.pythonhosted.org/"):
                continue
            match = _DIST.match(url.rsplit("/", 1)[1])
            if match is None:
                raise ValueError(f"not a PyPI file name: {url}")
            found[_canonical(match["name"])] = match["version"]
    return found


def requirement_pins(path: Path = REPO_ROOT / "requirements.txt") -> dict[str, str]:
    """``{canonical name: version}`` of the ``name==version`` lines of a requirements file."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = (part.strip() for part in line.split("==", 1))
            pins[_canonical(name)] = version
    return pins


def pin_problems(manifest: dict[str, Any], pins: dict[str, str]) -> list[str]:
    """Each requirement the manifest lacks or downloads in another version."""
    sources = python_sources(manifest)
    problems = []
    for name, version in sorted(pins.items()):
        if name not in sources:
            problems.append(f"{name}=={version} is not in the manifest")
        elif sources[name] != version:
            problems.append(f"the manifest has {name} {sources[name]}, requirements {version}")
    return problems


def submission_manifest(
    manifest: dict[str, Any], *, repo_url: str, tag: str, commit: str
) -> dict[str, Any]:
    """The manifest with the game built from ``tag`` (at ``commit``) of ``repo_url``, and the
    submission's metainfo file laid over the tag's."""
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise ValueError(f"not a full commit hash: {commit!r}")
    result = copy.deepcopy(manifest)
    game = module(result, GAME_MODULE)
    game["sources"] = [
        {"type": "git", "url": repo_url.removesuffix("/") + ".git", "tag": tag, "commit": commit},
        {"type": "file", "path": METAINFO.name, "dest": "packaging/flatpak"},
    ]
    return result


def _raw_url(repo_url: str, tag: str, path: str) -> str:
    match = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)/?", repo_url)
    if match is None:
        raise ValueError(f"not a GitHub repository address: {repo_url}")
    return f"https://raw.githubusercontent.com/{match[1]}/{match[2]}/{tag}/{path}"


def submission_metainfo(metainfo: str, changelog: str, *, repo_url: str, tag: str) -> str:
    """The metainfo with the addresses, screenshots and releases added."""
    root = ET.fromstring(metainfo)
    if root.findtext("id") != APP_ID:
        raise ValueError(f"the metainfo's id is not {APP_ID}")
    for kind, url in (("homepage", repo_url), ("bugtracker", repo_url + "/issues")):
        element = ET.SubElement(root, "url", type=kind)
        element.text = url
    shots = ET.SubElement(root, "screenshots")
    for number, (name, caption) in enumerate(SCREENSHOTS):
        shot = ET.SubElement(shots, "screenshot", type="default" if number == 0 else "extra")
        ET.SubElement(shot, "caption").text = caption
        image = ET.SubElement(shot, "image", type="source")
        image.text = _raw_url(repo_url, tag, f"docs/screenshots/{name}")
    found = releases(changelog)
    if not found:
        raise ValueError("CHANGELOG.md has no release")
    listed = ET.SubElement(root, "releases")
    for section in found:
        assert section.date is not None  # a release section always has one
        ET.SubElement(listed, "release", version=section.name, date=section.date.isoformat())
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def write_submission(
    out: Path, *, repo_url: str, tag: str, commit: str, root: Path = REPO_ROOT
) -> list[Path]:
    """Write the submission's manifest and metainfo into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = submission_manifest(
        load_manifest(root / MANIFEST.relative_to(REPO_ROOT)),
        repo_url=repo_url,
        tag=tag,
        commit=commit,
    )
    metainfo = submission_metainfo(
        (root / METAINFO.relative_to(REPO_ROOT)).read_text(encoding="utf-8"),
        (root / "CHANGELOG.md").read_text(encoding="utf-8"),
        repo_url=repo_url,
        tag=tag,
    )
    paths = [out / MANIFEST.name, out / METAINFO.name]
    paths[0].write_text(json.dumps(manifest, indent=4) + "\n", encoding="utf-8")
    paths[1].write_text(metainfo, encoding="utf-8")
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check the Flatpak manifest, or write the files of a Flathub submission."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="the manifest's Python modules against requirements.txt")
    sub = commands.add_parser("submission", help="write the Flathub manifest and metainfo")
    sub.add_argument("--repo-url", required=True, help="https://github.com/OWNER/REPO")
    sub.add_argument("--tag", required=True, help="the release tag, e.g. v0.1.0")
    sub.add_argument("--commit", required=True, help="the tag's commit (40 hex digits)")
    sub.add_argument("--out", type=Path, required=True, help="the folder to write into")
    args = parser.parse_args(argv)
    if args.command == "check":
        problems = pin_problems(load_manifest(), requirement_pins())
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    try:
        written = write_submission(
            args.out, repo_url=args.repo_url, tag=args.tag, commit=args.commit
        )
    except ValueError as exc:
        print(f"flatpak submission: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
