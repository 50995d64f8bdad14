"""Where the per-user files are (bundled assets: :mod:`briscola.resources`).

Settings, statistics, autosaves and logs live in the per-user
directories of platformdirs; ``BRISCOLA_HOME`` overrides both (tests, portable installs).
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "briscola"


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
