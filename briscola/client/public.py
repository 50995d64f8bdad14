"""A server's public side, without a window: the lobby as the server describes it, the
quick-match wait, and a spectator (``docs/network-protocol.md``, "The lobby").

:class:`PublicSide` wraps a :class:`~briscola.client.connection.NetClient` and is fed its
messages (:meth:`PublicSide.take`); it keeps :attr:`~PublicSide.lobby` (the public tables by
code, kept up to date by ``lobby_change``), :attr:`~PublicSide.wait` (the last ``queued``)
and, while watching, :attr:`~PublicSide.watched` (the table) and :attr:`~PublicSide.view`
(the spectator's view: JSON, seat ``-1``, no hand). Its :attr:`~PublicSide.stage` says where
the player is::

    idle ─ watch_lobby ─▶ lobby ─ queue ─▶ queued ─▶ seated (joined: a table's flow goes on)
    lobby ─ watch ─▶ watching ─ unwatch / the table ends ─▶ lobby
    queued ─ unqueue ─▶ lobby

A window draws these and feeds the player's clicks to the methods, and calls
:meth:`~PublicSide.poll` each frame (it never waits); once seated, :meth:`~PublicSide.session`
gives the table's session, as :class:`~briscola.client.flow.OnlineFlow` does for a table
joined by code. A script drives it the same way.

>>> side = PublicSide(None)
>>> side.take({"type": "lobby", "presets": [], "tables": [_ENTRY]})
True
>>> side.stage, list(side.lobby)
('lobby', ['K7MX2Q'])
>>> side.take({"type": "lobby_change", "added": [], "changed": [], "removed": ["K7MX2Q"]})
True
>>> side.lobby
{}
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from briscola.protocol import lobby

if TYPE_CHECKING:
    from briscola.client.connection import Incoming, NetClient
    from briscola.client.online import OnlineSession
    from briscola.engine import Rules
    from briscola.storage.seats import SeatStore

__all__ = ["PublicSide", "PublicStage"]

PublicStage = Literal["idle", "lobby", "queued", "seated", "watching"]


class PublicSide:
    """The lobby, the quick-match wait and a spectator's table for one connection."""

    def __init__(self, client: NetClient | None) -> None:
        self.client = client
        self.stage: PublicStage = "idle"
        #: The lobby's public tables by code (``waited``: as of :attr:`received`).
        self.lobby: dict[str, lobby.LobbyEntry] = {}
        self.received: dict[str, float] = {}
        #: The last ``queued``: configurations waited for, people waiting for each.
        self.wait: lobby.Queued | None = None
        self.watched: str | None = None
        #: While watching: the table (``table`` message) and the spectator's view.
        self.table: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        #: The table a quick match seated this player at.
        self.seated: str | None = None
        self.refused: list[dict[str, Any]] = []
        #: Once seated: the table's messages from ``joined`` on, for its session.
        self.backlog: list[Incoming] = []
        #: The lobby's filter while it is watched (asked again after a reconnection, as
        #: the queue and the table watched are: the server forgets them with the connection).
        self.filter: tuple[str, ...] | None = None
        self._connected = False

    # ------------------------------------------------------------------ the player's choices

    def watch_lobby(self, presets: Sequence[str] = ()) -> None:
        self.filter = tuple(presets)
        self._send(lobby.lobby_watch(presets))

    def stop_lobby(self) -> None:
        self.filter = None
        self._send(lobby.lobby_stop())
        self.lobby.clear()

    def create_public(self, rules: Rules, seat: int = 0) -> None:
        """Open a public table (listed in the lobby), this player at ``seat``."""
        from briscola.protocol import messages as msg

        message = msg.create(rules.to_dict(), None, seat)
        message["public"] = True
        self._send(message)

    def join(self, code: str, seat: int | None = None) -> None:
        """Sit at a free seat of a public table (as a private table's ``join``)."""
        assert self.client is not None
        self.client.join(code, seat)

    def queue(self, presets: Sequence[str]) -> None:
        self._send(lobby.queue(presets))

    def accept_bots(self, preset: str) -> None:
        """Computer players for the empty seats (once ``wait["bots"]`` says so)."""
        self._send(lobby.queue_bots(preset))

    def unqueue(self) -> None:
        self._send(lobby.unqueue())

    def watch(self, code: str) -> None:
        self._send(lobby.watch(code))

    def unwatch(self) -> None:
        self._send(lobby.unwatch())

    def _send(self, message: Any) -> None:
        assert self.client is not None
        self.client.submit(message)

    # ------------------------------------------------------------------ what the server says

    def tables(self, preset: str | None = None, open_only: bool = False) -> list[lobby.LobbyEntry]:
        """The lobby's tables (of ``preset``; with free seats only), those waiting longest
        first, ``waited`` counted to now."""
        now = time.monotonic()
        shown = []
        for code, entry in self.lobby.items():
            if preset is not None and entry["preset"] != preset:
                continue
            if open_only and not entry["free"]:
                continue
            fresh = entry.copy()
            fresh["waited"] = entry["waited"] + now - self.received.get(code, now)
            shown.append(fresh)
        return sorted(shown, key=lambda e: -e["waited"])

    def poll(self, other: Callable[[Incoming], object] | None = None) -> PublicStage:
        """Take in what the server has said (never waits); the stage it leaves. ``other``
        is given each message that is not the public side's (``identity``, a refused
        name, the connection's ``status``...)."""
        if self.client is None:
            return self.stage
        for message in self.client.drain():
            if self.stage == "seated" or message["type"] == "joined":
                self.backlog.append(message)
            if not self.take(message) and other is not None:
                other(message)
        return self.stage

    @property
    def playing(self) -> bool:
        """Seated, and the first ``update`` has come: :meth:`session` may be made."""
        return self.stage == "seated" and any(m["type"] == "update" for m in self.backlog)

    def session(self, seats: SeatStore) -> OnlineSession:
        """Once :attr:`playing`: the table's session of this seat (a quick match's table
        has begun), which takes the connection over. Once only."""
        from briscola.client.online import OnlineSession

        client, self.client = self.client, None
        if not self.playing or client is None:
            raise RuntimeError("no game has begun at a table for this player")
        first = next(i for i, m in enumerate(self.backlog) if m["type"] == "update")
        table = [m for m in self.backlog[:first] if m["type"] == "table"]
        backlog, self.backlog = table + self.backlog[first:], []
        return OnlineSession(client, seats, backlog)

    def take(self, message: Incoming | dict[str, Any]) -> bool:
        """Take in one message; True when it was the public side's."""
        kind = message["type"]
        data: dict[str, Any] = dict(message)
        now = time.monotonic()
        if kind == "status":
            if data["status"] == "connected":
                if self._connected:
                    self._again()
                self._connected = True
            return False
        if kind == "lobby":
            self.lobby = {entry["table"]: entry for entry in data["tables"]}
            self.received = dict.fromkeys(self.lobby, now)
            if self.stage == "idle":
                self.stage = "lobby"
        elif kind == "lobby_change":
            for entry in [*data["added"], *data["changed"]]:
                self.lobby[entry["table"]] = entry
                self.received[entry["table"]] = now
            for code in data["removed"]:
                self.lobby.pop(code, None)
                self.received.pop(code, None)
        elif kind == "queued":
            self.wait = message  # type: ignore[assignment]
            self.stage = "queued" if data["presets"] else "lobby"
        elif kind == "joined":
            if self.stage == "queued":
                self.seated = data["table"]
            self.stage = "seated"
            return False
        elif kind == "watching":
            self.stage, self.watched = "watching", data["table"]
            self.events = []
        elif kind == "unwatched" or (kind == "closed" and self.stage == "watching"):
            self.stage, self.watched, self.table, self.view = "lobby", None, None, None
        elif kind == "table" and self.stage == "watching":
            self.table = data
        elif kind == "update" and self.stage == "watching":
            self.view = data["view"]
            self.events = data["events"] if data["reset"] else [*self.events, *data["events"]]
        elif kind == "error" and data.get("ref") in lobby.CLIENT_TYPES:
            self.refused.append(data)
        else:
            return False
        return True

    def _again(self) -> None:
        """Connected again: ask for what the server forgot with the old connection."""
        if self.filter is not None:
            self._send(lobby.lobby_watch(self.filter))
        if self.stage == "queued" and self.wait is not None:
            self._send(lobby.queue(self.wait["presets"]))
        elif self.stage == "watching" and self.watched is not None:
            self._send(lobby.watch(self.watched))


_ENTRY: Any = {"table": "K7MX2Q", "preset": "classic2", "free": 1, "waited": 3.0}
