"""A public table's audience: its spectators, and the lobby told of every change.

A :class:`Table` that is public holds an :class:`Audience`. Each time the table tells its
seats something (:meth:`Table.broadcast_info`, the updates after a move, its end), the
audience tells its spectators too, with the spectator's view
(:func:`~briscola.engine.spectate.spectator_view`: what every seat may know, nothing more)
and the events as a seatless viewer sees them (:meth:`GameState.events_for` seat ``-1``: no
card dealt or drawn face down), and the lobby learns the table's new entry.

:func:`lobby_entry` is a table as the lobby lists it: configuration, rules, match, who sits
where, free seats, watchers. Neither carries a hand, a seat token or a key; the leak audit
(:func:`leaks`) checks a frame against the table's state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from briscola.engine.rules import PRESETS
from briscola.engine.spectate import SPECTATOR, spectator_json
from briscola.protocol import lobby
from briscola.protocol import messages as msg
from briscola.protocol.wire import encode

if TYPE_CHECKING:
    from briscola.engine import GameState, Rules
    from briscola.server.conn import Conn
    from briscola.server.tables import Table

__all__ = ["MAX_SPECTATORS", "Audience", "leaks", "lobby_entry", "player_name"]

#: Spectators one table takes (each costs the owner one frame a move).
MAX_SPECTATORS: Final = 64
#: Keys no frame to a spectator or a lobby watcher may hold.
SECRET_KEYS: Final = frozenset({"token", "key", "secret", "hand_cards"})


def short_rules(rules: Rules) -> dict[str, Any]:
    """``rules`` as the preset and what differs from it (``Rules.from_dict`` reads it back).

    >>> from briscola.engine import Rules
    >>> short_rules(Rules.preset("teams4", match="best-of-3"))
    {'preset': 'teams4', 'match': 'best-of-3'}
    """
    full = rules.to_dict()
    if rules.name not in PRESETS:
        return full
    base = PRESETS[rules.name].to_dict()
    return {"preset": rules.name} | {k: v for k, v in full.items() if base.get(k) != v}


def player_name(conn: Conn) -> str:
    """The name a player shows on the public side (the lobby, quick match): the ``hello``'s
    today; the identified name (per server, with its key) once identities exist."""
    return conn.name


def lobby_entry(table: Table, opened: float) -> lobby.LobbyEntry:
    """``table`` as the lobby lists it (``opened``: wall-clock time it was opened; the
    entry's ``waited`` is counted when it is sent)."""
    seats: list[lobby.LobbySeat] = []
    for seat in table.seats:
        entry: lobby.LobbySeat = {
            "seat": seat.index,
            "kind": seat.kind,
            "name": seat.name,
            "free": seat.kind == "human" and not seat.claimed,
        }
        if seat.rating is not None:
            entry["rating"] = seat.rating
        seats.append(entry)
    return {
        "table": table.code,
        "preset": table.rules.name,
        "rules": short_rules(table.rules),
        "match": str(table.rules.match),
        "phase": table.phase,
        "seats": seats,
        "free": sum(1 for seat in seats if seat["free"]),
        "waited": opened,
        "watchers": table.audience.count if table.audience is not None else 0,
        "rated": all(seat.kind == "human" for seat in table.seats),
    }


@dataclass
class Spectator:
    conn: Conn
    #: Events of the hand already sent.
    sent: int = 0


class Audience:
    """The spectators of one public table, and the lobby's hook (``changed``: called with
    the table whenever what the lobby shows of it may have changed; ``gone`` at its end)."""

    def __init__(self, changed: Callable[[Table], None], gone: Callable[[Table], None]) -> None:
        self.changed = changed
        self.gone = gone
        self.spectators: dict[int, Spectator] = {}  # by connection serial
        self.opened = time.time()
        #: Test hook: called with (table, frame) for every frame sent to a spectator.
        self.tap: Callable[[Table, str], None] | None = None

    @property
    def count(self) -> int:
        return len(self.spectators)

    def __iter__(self) -> Iterator[Spectator]:
        return iter(list(self.spectators.values()))

    def add(self, table: Table, conn: Conn) -> None:
        """``conn`` watches: it is told so, then the table and the hand so far."""
        self.spectators[conn.serial] = Spectator(conn)
        conn.watching = table
        self._post(table, conn, encode(lobby.watching(table.code)))
        table.broadcast_info()  # the players see one more watcher; the spectator the table
        self._update(table, self.spectators[conn.serial], reset=True)

    def remove(self, table: Table, conn: Conn, tell: bool = True) -> None:
        if self.spectators.pop(conn.serial, None) is None:
            return
        conn.watching = None
        if tell:
            conn.post(encode(lobby.unwatched(table.code)))
        if table.phase != "closed":
            table.broadcast_info()

    # ------------------------------------------------------------------ the table's hooks

    def info(self, table: Table, message: msg.TableInfo) -> None:
        if self.spectators:
            text = encode(message)
            for each in self:
                self._post(table, each.conn, text)
        self.changed(table)

    def said(self, table: Table, text: str) -> None:
        """A player's quick chat (``said``, encoded): the spectators read it too."""
        for each in self:
            self._post(table, each.conn, text)

    def updates(self, table: Table) -> None:
        for each in self:
            self._update(table, each)

    def closed(self, table: Table, message: msg.Closed) -> None:
        text = encode(message)
        for each in self:
            self._post(table, each.conn, text)
            each.conn.watching = None
        self.spectators.clear()
        self.gone(table)

    def _update(self, table: Table, spectator: Spectator, reset: bool = False) -> None:
        state, match = table.state, table.match
        if state is None or match is None:
            return
        start = 0 if reset else spectator.sent
        message = table.update_for(SPECTATOR, start, spectator_json(state), reset)
        spectator.sent = len(state.events)
        self._post(table, spectator.conn, encode(message))

    def _post(self, table: Table, conn: Conn, text: str) -> None:
        if self.tap is not None:
            self.tap(table, text)
        conn.post(text)


def leaks(text: str, state: GameState | None) -> list[str]:
    """What ``text`` (a frame for a spectator or a lobby watcher) holds that it must not: a
    key named like a secret, or a card that lies in a hand unseen (neither the briscola nor
    known to every seat), by ``state``. Empty: nothing leaks."""
    found: list[str] = []
    hidden: set[str] = set()
    if state is not None:
        public = {state.briscola} if state.briscola is not None else set()
        for seat, hand in enumerate(state.hands):
            hidden |= {card.code for card in hand if card not in public | state.known[seat]}

    def walk(data: Any) -> None:
        if isinstance(data, dict):
            for key, value in data.items():
                if key in SECRET_KEYS:
                    found.append(f"a key {key!r}")
                if key == "hand" and isinstance(value, list) and value:
                    found.append("a hand")
                walk(value)
        elif isinstance(data, list):
            for item in data:
                walk(item)
        elif isinstance(data, str) and data in hidden:
            found.append(f"the hidden card {data}")

    walk(json.loads(text))
    return found
