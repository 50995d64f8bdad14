"""A headless player: a :class:`NetClient` that plays its seat by a chooser (a bot, or a
script of moves), for tests, scripted games and smoke checks of a server.

It keeps every frame it received (:attr:`HeadlessPlayer.frames`) and the latest view, and
answers the server as a person would: it moves when the view says it is its turn and asks
for the next hand once one is over. :func:`join_table` seats one by the same online flow as
the game's join page (:class:`~briscola.client.flow.OnlineFlow`).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from briscola.client.connection import Incoming, NetClient
from briscola.client.flow import OnlineFlow, Problem
from briscola.engine import Action, PlayerView, Rules
from briscola.engine.view import view_from_json
from briscola.protocol import messages as msg

__all__ = ["HeadlessPlayer", "JoinFailed", "all_ready", "join_table", "open_table", "play_all"]

Chooser = Callable[[PlayerView], Action]


class HeadlessPlayer:
    """Plays one seat through ``client``; ``choose`` picks each move (None: never moves)."""

    def __init__(
        self, client: NetClient, choose: Chooser | None = None, auto_next: bool = True
    ) -> None:
        self.client = client
        self.choose = choose
        self.auto_next = auto_next
        self.frames: list[Incoming] = []
        self.view: PlayerView | None = None
        self.moves = -1
        self.hand = 0
        self.deal = 0
        self.phase = ""
        self.table: msg.TableInfo | None = None
        self.errors: list[msg.Error] = []
        self.closed: msg.Closed | None = None
        self.match_over = False
        self.hands_seen: set[int] = set()
        self.acted = 0
        self._asked_next = -1
        self._acted_at: tuple[int, int] = (-1, -1)

    def handle(self, message: Incoming) -> None:
        """Take in one message; move if it is this seat's turn."""
        self.frames.append(message)
        if message["type"] == "table":
            self.table = message
        elif message["type"] == "error":
            self.errors.append(message)
        elif message["type"] == "closed":
            self.closed = message
        elif message["type"] == "update":
            self._update(message)

    def _update(self, message: msg.Update) -> None:
        self.view = view_from_json(message["view"])
        self.moves = message["moves"]
        self.hand = message["hand"]
        self.deal = message["deal"]
        self.phase = message["phase"]
        self.hands_seen.add(self.hand)
        if message["reset"]:
            self._acted_at = (-1, -1)  # a move sent before the connection dropped may be lost
        if any(event.get("event") == "match_over" for event in message["events"]):
            self.match_over = True
        self.move_if_due()
        if self.auto_next and self.phase == "between" and self._asked_next != self.deal:
            self._asked_next = self.deal
            self.client.next_hand()

    def move_if_due(self) -> None:
        """Move now if the latest view says it is this seat's turn (once per view)."""
        seen = self.view
        if (
            seen is not None
            and self.choose is not None
            and self.phase == "playing"
            and seen.is_my_turn
            and seen.legal
            and self._acted_at != (self.deal, self.moves)
        ):
            self._acted_at = (self.deal, self.moves)
            self.client.act(self.choose(seen), self.moves)
            self.acted += 1

    def pump(self, timeout: float = 0.0) -> Incoming | None:
        """Handle one message (waiting up to ``timeout`` seconds); None when none came."""
        try:
            message = (
                self.client.incoming.get(timeout=timeout)
                if timeout > 0
                else (self.client.incoming.get_nowait())
            )
        except queue.Empty:
            return None
        self.handle(message)
        return message

    def run_until(self, done: Callable[[HeadlessPlayer], bool], timeout: float = 30.0) -> None:
        """Handle messages until ``done(self)``; raises ``TimeoutError`` at the deadline."""
        deadline = time.monotonic() + timeout
        while not done(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(
                    f"{self.client.name}: condition not met in {timeout:.0f} s"
                    f" (phase {self.phase!r}, status {self.client.status})"
                )
            self.pump(min(left, 0.5))

    def last(self, kind: str) -> Incoming | None:
        """The latest frame of ``kind``."""
        return next((frame for frame in reversed(self.frames) if frame["type"] == kind), None)


class JoinFailed(RuntimeError):
    """The online flow did not seat the player; ``problem`` says why (its code)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.code}: {problem.detail}")
        self.problem = problem


def join_table(
    url: str,
    name: str,
    code: str,
    choose: Chooser | None = None,
    timeout: float = 10.0,
    client: Callable[..., NetClient] = NetClient,
) -> HeadlessPlayer:
    """A player seated at the table ``code`` of the server at ``url`` by the same online
    flow as the game's join page (:class:`~briscola.client.flow.OnlineFlow`); raises
    :class:`JoinFailed` with the flow's problem, or ``TimeoutError``."""
    flow = OnlineFlow(name, client=client)
    flow.join(url, code)
    deadline = time.monotonic() + timeout
    while flow.poll() == "joining":
        if time.monotonic() > deadline:
            flow.leave()
            raise TimeoutError(f"{name}: not seated at {code} in {timeout:.0f} s")
        time.sleep(0.02)
    if flow.problem is not None and flow.stage in ("failed", "closed"):
        raise JoinFailed(flow.problem)
    seated, taken = flow.hand_over()
    player = HeadlessPlayer(seated, choose)
    for message in taken:
        player.handle(message)
    return player


def open_table(
    host: HeadlessPlayer,
    rules: Rules,
    seats: list[dict[str, Any]] | None = None,
    timeout: float = 10.0,
) -> str:
    """Create a table with ``host`` as its host; returns the table code."""
    host.client.create(rules, seats)
    host.run_until(lambda p: p.table is not None, timeout)
    assert host.table is not None
    return host.table["table"]


def all_ready(host: HeadlessPlayer, timeout: float = 10.0) -> None:
    """Wait until the host sees every seat taken and ready."""
    host.run_until(
        lambda p: p.table is not None and all(s.get("ready") for s in p.table["seats"]),
        timeout,
    )


def play_all(
    players: Sequence[HeadlessPlayer],
    done: Callable[[HeadlessPlayer], bool],
    timeout: float = 60.0,
) -> None:
    """Run every player in a thread of its own until ``done``; re-raises the first failure
    (a ``TimeoutError`` when one did not get there in time)."""
    failures: list[BaseException] = []

    def run(player: HeadlessPlayer) -> None:
        try:
            player.run_until(done, timeout)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 5)
    if failures:
        raise failures[0]
