"""The assets install beside the environment (PREFIX/share/briscola/assets, found there by
briscola.resources): every file under assets/, folder by folder as found at build time, so
a new deck (a folder in assets/cards/) is installed with nothing to list. The rest of the
build is in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def asset_data_files(root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """``data_files`` for every file under ``root/assets``: (install folder, its files)."""
    folders: dict[str, list[str]] = {}
    for path in sorted((root / "assets").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            relative = path.relative_to(root)
            target = (Path("share/briscola") / relative.parent).as_posix()
            folders.setdefault(target, []).append(relative.as_posix())
    return sorted(folders.items())


if __name__ == "__main__":
    setup(data_files=asset_data_files())
