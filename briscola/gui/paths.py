"""Where things are: bundled assets (source tree or PyInstaller bundle) and per-user files.

Assets are found from the package's own location (or the PyInstaller bundle root), never the
working directory. Settings, statistics, autosaves and logs live in the per-user
directories of platformdirs; ``BRISCOLA_HOME`` overrides both (tests, portable installs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "briscola"


def resource_root() -> Path:
    """The folder holding ``assets/``: the bundle when frozen, else the source checkout."""
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle)
    return Path(__file__).resolve().parents[2]


def asset_path(*parts: str) -> Path:
    return resource_root().joinpath("assets", *parts)


def _home_override() -> Path | None:
    home = os.environ.get("BRISCOLA_HOME")
    return Path(home) if home else None


def config_dir() -> Path:
    """Per-user configuration folder (settings)."""
    home = _home_override()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """Per-user data folder (statistics, autosave, saved records, logs)."""
    home = _home_override()
    if home is not None:
        return home
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def settings_file() -> Path:
    return config_dir() / "settings.json"


def autosave_file() -> Path:
    return data_dir() / "autosave.json"


def stats_file() -> Path:
    return data_dir() / "stats.json"


def records_dir() -> Path:
    return data_dir() / "records"


def log_file() -> Path:
    return data_dir() / "briscola.log"
