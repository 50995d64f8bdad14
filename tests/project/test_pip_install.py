"""``pip install .`` in a fresh virtual environment gives the two commands, and the game it
installs finds its cards, sounds and fonts away from the source checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from briscola import __version__

ROOT = Path(__file__).resolve().parents[2]


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

    assert run("briscola", "--version").strip() == f"briscola {__version__}"
    assert "--port" in run("briscola-server", "--help")
    check = run("briscola", "--self-check")
    assert "result: OK" in check and str(venv) in check, check
