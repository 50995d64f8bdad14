"""The player's ratings on a server, for the Statistics screen: each family's leaderboard
(top players and the player's own place) and the player's history, asked of the server
with the key kept for it (:class:`~briscola.client.identity.Identities`). Blocking (a
connection of its own, closed after): a front end calls it off its drawing loop. No
pygame.

A server that cannot be reached, or refuses, gives a sentence for the player instead
(:class:`RatingsProblem`)."""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field
from typing import Any, cast

from briscola.client.connection import NetClient
from briscola.client.identity import Identities, sign_in
from briscola.client.sentences import code_text
from briscola.protocol.people import HistoryPoint, Standing
from briscola.ratings.families import FAMILIES
from briscola.text.i18n import _

__all__ = ["Board", "PlayerRatings", "RatingsProblem", "fetch_ratings"]


@dataclass
class Board:
    """One family's leaderboard and the player's history there."""

    family: str
    top: list[Standing]
    you: Standing | None
    history: list[HistoryPoint] = field(default_factory=list)


@dataclass
class PlayerRatings:
    """The player's name on the server and a :class:`Board` per family, in order."""

    name: str
    boards: list[Board]


@dataclass
class RatingsProblem:
    """Why the ratings are not shown (a sentence for the player)."""

    text: str


def fetch_ratings(
    url: str,
    identities: Identities,
    families: tuple[str, ...] = FAMILIES,
    count: int = 10,
    timeout: float = 8.0,
) -> PlayerRatings | RatingsProblem:
    """Ask the server at ``url`` for ``families``' leaderboards (top ``count``) and the
    player's history, as the player whose key is kept for it."""
    kept = identities.get(url)
    if kept is None:
        return RatingsProblem(_("You have no key for this server yet: play there first."))
    client = NetClient(url, kept.name or "Player", reconnect=False, open_timeout=timeout)
    client.start()
    try:
        sign_in(client, identities)
        return _collect(client, families, count, time.monotonic() + timeout)
    finally:
        client.close(timeout=2.0)


def _collect(
    client: NetClient, families: tuple[str, ...], count: int, deadline: float
) -> PlayerRatings | RatingsProblem:
    boards = {f: Board(f, [], None) for f in families}
    name = ""
    waiting: set[tuple[str, str]] = set()
    while time.monotonic() < deadline:
        try:
            got = client.incoming.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        message = cast(dict[str, Any], got)
        kind = message["type"]
        if kind == "status" and message["status"] in ("failed", "closed"):
            return RatingsProblem(_("The server cannot be reached: no ratings to show."))
        if kind == "error":
            return RatingsProblem(code_text(message["code"], message["message"]))
        if kind == "identity":
            name = message["name"]
            for family in families:
                client.leaderboard(family, count)
                client.rating_history(family)
                waiting |= {("leaderboard", family), ("rating_history", family)}
        elif kind == "leaderboard" and message["family"] in boards:
            board = boards[message["family"]]
            board.top, board.you = list(message["top"]), message["you"]
            waiting.discard((kind, message["family"]))
        elif kind == "rating_history" and message["family"] in boards:
            boards[message["family"]].history = list(message["points"])
            waiting.discard((kind, message["family"]))
        if name and not waiting:
            return PlayerRatings(name, [boards[f] for f in families])
    return RatingsProblem(_("The server did not answer in time: no ratings to show."))
