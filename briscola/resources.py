"""Where the bundled resources are: ``assets/`` in the source tree or the PyInstaller bundle.

Assets are found from the package's own location (or the bundle root), never the working
directory. Standard library only: every layer may ask.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

#: Where ``pip install .`` puts the assets, under the environment's prefix.
INSTALLED: Final = ("share", "briscola")


def resource_root() -> Path:
    """The folder holding ``assets/``: the bundle when frozen, the source checkout when run
    from one, else the installed data (``pip install .``: ``PREFIX/share/briscola``)."""
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle)
    source = Path(__file__).resolve().parents[1]
    if (source / "assets").is_dir():
        return source
    installed = Path(sys.prefix).joinpath(*INSTALLED)
    return installed if (installed / "assets").is_dir() else source


def asset_path(*parts: str) -> Path:
    return resource_root().joinpath("assets", *parts)
