"""The player's keys, one per server (``keys.json`` in the data folder): the secret that is
the player on a server's public side, and the name it is registered with there
(``docs/network-protocol.md``, "Players"). Nothing else keeps the key: losing this file loses
the players it held, unless their keys were exported (``briscola.client.identity``).

The file is written atomically; a damaged one is kept aside and reported (then holds no
key), an unreadable one is reported and never written over.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from briscola.storage.files import atomic_write_json, clean_text, read_file

__all__ = ["KEYS_FILE", "KeyStore", "ServerKey"]

log = logging.getLogger(__name__)

#: The file in the data folder that holds the keys.
KEYS_FILE: Final = "keys.json"
_KEY: Final = re.compile(r"[0-9a-f]{64}")
#: Servers kept, at most (a file of a thousand servers is someone else's).
MAX_SERVERS: Final = 200


@dataclass(frozen=True)
class ServerKey:
    """A player on one server: its key (64 hexadecimal digits) and its name there."""

    key: str
    name: str


class KeyStore:
    """The keys in ``folder`` (the data folder), by server (as the client names it:
    ``ws://HOST:PORT`` or ``wss://HOST:PORT``). ``notice`` says what went wrong with the
    file when it was last read (damaged, unreadable), None when nothing did."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / KEYS_FILE
        self.notice: str | None = None
        self._unreadable = False

    def all(self) -> dict[str, ServerKey]:
        """Every server's key kept (a damaged entry is left out)."""
        result = read_file(self.path)
        self.notice = result.notice
        self._unreadable = result.status == "unreadable"
        data = result.data if result.status == "ok" else None
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, dict):
            return {}
        kept: dict[str, ServerKey] = {}
        for server, entry in list(servers.items())[:MAX_SERVERS]:
            if not isinstance(entry, dict) or not str(server).startswith(("ws://", "wss://")):
                continue
            key, name = entry.get("key"), entry.get("name")
            if isinstance(key, str) and _KEY.fullmatch(key) and isinstance(name, str):
                kept[str(server)] = ServerKey(key, clean_text(name, 40))
        return kept

    def get(self, server: str) -> ServerKey | None:
        return self.all().get(server)

    def put(self, server: str, entry: ServerKey) -> bool:
        """Keep ``entry`` for ``server``; False (logged, ``notice`` says why) when the file
        cannot be written, or is unreadable (it is then left as it is)."""
        kept = self.all()
        if self._unreadable:
            return False
        kept[server] = entry
        return self._write(kept)

    def forget(self, server: str) -> bool:
        kept = self.all()
        if self._unreadable or server not in kept:
            return False
        del kept[server]
        return self._write(kept)

    def _write(self, kept: dict[str, ServerKey]) -> bool:
        data = {
            "version": 1,
            "servers": {server: {"key": e.key, "name": e.name} for server, e in kept.items()},
        }
        try:
            atomic_write_json(self.path, data)
        except OSError as exc:
            log.warning("could not keep the player's keys: %s", exc.strerror or exc)
            self.notice = str(exc.strerror or exc)
            return False
        return True
