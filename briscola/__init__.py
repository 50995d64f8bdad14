"""Briscola: the Italian trick-taking card game, as a desktop game.

The package is in layers, each importing only those below it (README, "How it is built"):
:mod:`briscola.engine` (the rules, standard library only), :mod:`briscola.ai` and
:mod:`briscola.coach` (computer players and the coach, seeing only a seat's view),
:mod:`briscola.game` (the one match driver), :mod:`briscola.text` and
:mod:`briscola.storage` (sentences and files), :mod:`briscola.protocol` (the wire format),
:mod:`briscola.server` and :mod:`briscola.client`, and :mod:`briscola.gui` (the pygame-ce
application, the only package that imports pygame).

The version is written once, in ``pyproject.toml``; :data:`__version__` is read from the first
of: the ``VERSION`` file next to this module (written into a frozen build by ``build.spec``),
the ``pyproject.toml`` of the source checkout this package sits in, the installed package's
metadata. ``0+unknown`` when none is there.
"""

from __future__ import annotations

from pathlib import Path

#: The version a build that found none reports (never a real release).
UNKNOWN_VERSION = "0+unknown"


def _read_version(package: Path) -> str:
    bundled = package / "VERSION"
    if bundled.is_file():
        return bundled.read_text(encoding="utf-8").strip()
    pyproject = package.parent / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "briscola" and isinstance(project.get("version"), str):
            return str(project["version"])
    from importlib import metadata

    try:
        return metadata.version("briscola")
    except metadata.PackageNotFoundError:
        return UNKNOWN_VERSION


__version__ = _read_version(Path(__file__).resolve().parent)
