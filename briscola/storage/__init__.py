"""The player's files (no pygame): where they are (:mod:`~briscola.storage.paths`), how
they are written and read back safely (:mod:`~briscola.storage.files`: atomic writes,
damaged files kept aside), and the stores over them: the settings, the statistics, the
autosave, the online seat held, the player's keys on servers, the servers added.
:class:`Storage` gathers the stores of one set of folders; the App makes one and passes it
to whoever needs it. No store lives in a module global.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from briscola.storage import paths
from briscola.storage.autosave import Autosave
from briscola.storage.keeper import GameKeeper
from briscola.storage.keys import KeyStore
from briscola.storage.seats import SeatStore
from briscola.storage.servers import ServerList

__all__ = ["Storage"]


class Storage:
    """The stores in ``config`` (settings) and ``data`` (everything else) folders: the
    per-user folders (or ``BRISCOLA_HOME``) by default."""

    def __init__(self, config: Path | None = None, data: Path | None = None) -> None:
        self.config_dir = config or paths.config_dir()
        self.data_dir = data or paths.data_dir()
        self.autosave = Autosave(self.data_dir / "autosave.json")
        self.seats = SeatStore(self.data_dir)
        #: The player's key on each server's public side.
        self.keys = KeyStore(self.data_dir)
        #: The servers the player added to Play online.
        self.servers = ServerList(self.data_dir)

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def stats_file(self) -> Path:
        return self.data_dir / "stats.json"

    @property
    def records_dir(self) -> Path:
        """Where saved hand records go (the score screen's Save record, the replay's list)."""
        return self.data_dir / "records"

    @property
    def tables_dir(self) -> Path:
        """Where the table this computer hosts is kept while it is played, so that it comes
        back when the game dies (the host's server keeps it: ``briscola.server.keep``)."""
        return self.data_dir / "tables"

    def keeper(self, notify: Callable[[str], None]) -> GameKeeper:
        """What a match on this computer keeps: the autosave and the statistics."""
        return GameKeeper(self.autosave, self.stats_file, notify)

    def close(self) -> None:
        """Finish what is being written."""
        self.autosave.close()
