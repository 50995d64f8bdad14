"""The servers the player has added to Play online (``servers.json`` in the data folder):
their addresses as typed (``host``, ``host:port``, ``ws://...``), in the order added.
The servers found on the local network are not kept: they are looked for each time.

The file is written atomically; a damaged one is kept aside and reported (then holds no
server), an unreadable one is reported and never written over.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Final

from briscola.storage.files import atomic_write_json, clean_text, read_file

__all__ = ["MAX_SERVERS", "SERVERS_FILE", "ServerList"]

log = logging.getLogger(__name__)

#: The file in the data folder that holds the servers added.
SERVERS_FILE: Final = "servers.json"
#: Servers kept, at most.
MAX_SERVERS: Final = 50
#: The longest address kept.
MAX_ADDRESS: Final = 200


class ServerList:
    """The servers added, in ``folder`` (the data folder). ``notice`` says what went wrong
    with the file when it was last read (damaged, unreadable), None when nothing did."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / SERVERS_FILE
        self.notice: str | None = None
        self._unreadable = False

    def all(self) -> list[str]:
        """The addresses added, oldest first (a damaged entry is left out)."""
        result = read_file(self.path)
        self.notice = result.notice
        self._unreadable = result.status == "unreadable"
        data = result.data if result.status == "ok" else None
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, list):
            return []
        kept: list[str] = []
        for entry in servers[:MAX_SERVERS]:
            address = clean_text(entry, MAX_ADDRESS).strip() if isinstance(entry, str) else ""
            if address and address not in kept:
                kept.append(address)
        return kept

    def add(self, address: str) -> bool:
        """Keep ``address`` (last); False when it is kept already, there are
        :data:`MAX_SERVERS` already, or the file cannot be written (``notice`` says why)."""
        address = address.strip()
        kept = self.all()
        if self._unreadable or not address or address in kept or len(kept) >= MAX_SERVERS:
            return False
        return self._write([*kept, address[:MAX_ADDRESS]])

    def remove(self, address: str) -> bool:
        kept = self.all()
        if self._unreadable or address not in kept:
            return False
        kept.remove(address)
        return self._write(kept)

    def _write(self, kept: list[str]) -> bool:
        try:
            atomic_write_json(self.path, {"version": 1, "servers": kept})
        except OSError as exc:
            log.warning("could not keep the servers added: %s", exc.strerror or exc)
            self.notice = str(exc.strerror or exc)
            return False
        return True
