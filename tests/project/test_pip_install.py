"""``pip install .`` in a fresh virtual environment gives the two commands, and the game it
installs finds its cards, sounds and fonts away from the source checkout; every deck folder
of ``assets/cards/`` is installed, file for file (setup.py lists them as found)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from briscola import __version__

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "assets" / "cards"
#: Where the assets install, under the environment's prefix.
SHARE = "share/briscola/assets"


def deck_files(names: list[str]) -> dict[str, list[str]]:
    """Each deck folder's files, from paths relative to the assets folder (``cards/...``)."""
    decks: dict[str, list[str]] = {}
    for name in names:
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "cards":
            decks.setdefault(parts[1], []).append(parts[2])
    return {deck: sorted(files) for deck, files in sorted(decks.items())}


def source_decks() -> dict[str, list[str]]:
    """The deck folders of the checkout and their files."""
    files = [p.relative_to(CARDS.parent).as_posix() for p in CARDS.rglob("*") if p.is_file()]
    return deck_files(files)


def test_the_wheel_holds_every_deck_folder_file_for_file(tmp_path: Path) -> None:
    # Built from a copy, so that the checkout gets no build folders.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.mo")
    for folder in ("briscola", "assets"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    done = subprocess.run(
        [*pip, "-w", str(tmp_path / "wheel"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (tmp_path / "wheel").glob("briscola-*.whl")
    marker = f"/data/{SHARE}/"
    with zipfile.ZipFile(wheel) as archive:
        installed = [n.split(marker, 1)[1] for n in archive.namelist() if marker in n]
    assert deck_files(installed) == source_decks()
    assert len(source_decks()) >= 7  # backs and six decks today


@pytest.mark.slow
def test_pip_install_gives_the_briscola_and_briscola_server_commands(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "BRISCOLA_HOME": str(tmp_path / "home"),
    }
    env.pop("PYTHONPATH", None)

    def run(*args: str) -> str:
        done = subprocess.run(
            [str(venv / "bin" / args[0]), *args[1:]],
            cwd=tmp_path,  # away from the checkout: only the installed package is found
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    shared = venv / SHARE
    installed = [p.relative_to(shared).as_posix() for p in shared.rglob("*") if p.is_file()]
    assert deck_files(installed) == source_decks()
    assert run("briscola", "--version").strip() == f"briscola {__version__}"
    assert "--port" in run("briscola-server", "--help")
    check = run("briscola", "--self-check")
    assert "result: OK" in check and str(venv) in check, check
