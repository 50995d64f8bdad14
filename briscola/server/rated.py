"""Rated tables (``docs/ratings.md``, "Rated tables"): a public table whose seats are all
open to people, each held by an identified player, is rated. At each hand's end the
server rates it (:meth:`RatingService.rate_state`, luck taken out), then tells each player
what changed (``rated``); a person whose grace period ran out mid-hand (or who left it)
loses that hand, once (:meth:`RatingService.abandon` with the same hand id). A hand's id
names it for good (the table's code, its match id and the deal's number), so a table
rebuilt by another process (:mod:`.replica`) rates nothing twice: it rates its last
finished hand again, which the store answers "already rated" when it was.

The service's calls block (Redis, SQLite): they run in a thread (``asyncio.to_thread``).
A player is told a change only once the store has written it (nothing told is lost).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from briscola.engine import GameState
from briscola.protocol import people as talk
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.wire import encode
from briscola.ratings import (
    FAMILIES,
    Family,
    RatedHand,
    Rating,
    RatingService,
    Standing,
    family_of,
    luck_of,
)
from briscola.server.people import require_identity
from briscola.server.registry import Registry

if TYPE_CHECKING:
    from briscola.server.conn import Conn
    from briscola.server.seats import Seat
    from briscola.server.tables import Table

__all__ = ["Rated", "hand_id", "is_rated", "shown"]

log = logging.getLogger("briscola.server")


def is_rated(table: Table) -> bool:
    """A public table of people only, each identified (a private table, or one with a
    computer seat, is not rated)."""
    return table.public and all(s.kind == "human" and s.player_id for s in table.seats)


def hand_id(table: Table) -> str:
    """The id of the hand dealt last at ``table``: unique for good (codes are reused)."""
    return f"{table.code}/{table.match_id}/{table.deals}"


def shown(rating: Rating) -> int:
    """The rating shown beside a name: the conservative ordinal, rounded."""
    return round(rating.ordinal)


class Rated:
    """The ratings of one server process over ``service``; names from ``registry``."""

    def __init__(self, service: RatingService, registry: Registry) -> None:
        self.service = service
        self.registry = registry
        self._tasks: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------------ the tables' hooks

    def seated(self, table: Table, seat: Seat) -> None:
        """A person sat down: their rating beside their name (public tables)."""
        if table.public and seat.player_id is not None and seat.kind == "human":
            self._spawn(self._show(table, seat, seat.player_id))

    def hand_over(self, table: Table) -> None:
        """The hand just finished at ``table``: rated (once), then its players told."""
        state = table.state
        if not is_rated(table) or state is None or not state.is_terminal():
            return
        if any(s.bot_plays for s in table.seats):
            return  # a computer played for someone: that hand was counted as abandoned
        ids = [str(s.player_id) for s in table.seats]
        self._spawn(self._rate(table, ids, state, hand_id(table)))

    def abandoned(self, table: Table, seat: Seat) -> None:
        """``seat``'s person gave up the hand under way: their loss (once)."""
        state = table.state
        if not is_rated(table) or state is None or seat.bot_plays:
            return
        ids = [str(s.player_id) for s in table.seats]
        rules = state.rules
        sides = [[ids[i] for i in side] for side in rules.sides] or [[p] for p in ids]
        self._spawn(self._abandon(table, sides, ids[seat.index], hand_id(table)))

    def rebuilt(self, table: Table) -> None:
        """``table`` was rebuilt here: its last finished hand is rated if the process that
        drove it died before (the store says "already" otherwise)."""
        for seat in table.seats:
            self.seated(table, seat)
        if table.phase in ("between", "over"):
            self.hand_over(table)

    # ------------------------------------------------------------------ requests

    async def handle(self, conn: Conn, message: Any) -> None:
        """Answer ``leaderboard`` and ``rating_history`` (a refusal with its ``error``)."""
        kind = message["type"]
        try:
            player = require_identity(conn)
            family = check_family_field(message.get("family"), kind)
            if kind == "leaderboard":
                count = message.get("count", 20)
                if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                    raise ProtocolError(ErrorCode.BAD_VALUE, "count must be a number from 1")
                conn.post(encode(await self._board(family, player, min(count, talk.MAX_BOARD))))
            else:
                entries = await asyncio.to_thread(self.service.history, family, player)
                points: list[talk.HistoryPoint] = [
                    {
                        "at": round(e.at, 1),
                        "rating": round(e.ordinal, 1),
                        "sigma": round(e.sigma, 2),
                    }
                    for e in entries
                ]
                conn.post(encode({"type": "rating_history", "family": family, "points": points}))
        except ProtocolError as exc:
            conn.error(exc.code, str(exc), kind)
        except Exception as exc:
            log.warning("%s: ratings unreachable: %s", conn.address, exc)
            conn.error(ErrorCode.UNAVAILABLE, "the ratings cannot be read now: try again")

    async def _board(self, family: Family, player: str, count: int) -> talk.LeaderboardOut:
        top = await asyncio.to_thread(self.service.leaderboard, family, count)
        you = await asyncio.to_thread(self.service.standing, family, player)
        return {
            "type": "leaderboard",
            "family": family,
            "top": [await self._standing(s) for s in top],
            "you": await self._standing(you) if you is not None else None,
        }

    async def _standing(self, standing: Standing) -> talk.Standing:
        found = await self.registry.player(standing.player)
        rating = standing.rating
        return {
            "rank": standing.rank,
            "name": found.name if found is not None else "?",
            "rating": shown(rating),
            "sigma": round(rating.sigma, 2),
            "games": rating.games,
        }

    # ------------------------------------------------------------------ the work

    async def _show(self, table: Table, seat: Seat, player: str) -> None:
        rating = await asyncio.to_thread(self.service.rating, family_of(table.rules), player)
        # A player with no rated hand in the family has no rating to show yet: "(0)" beside
        # a new name read as a score.
        if seat.player_id == player and rating.games > 0:
            seat.rating = shown(rating)
            table.broadcast_info()

    async def _rate(self, table: Table, ids: list[str], state: GameState, hand: str) -> None:
        family = family_of(state.rules)
        rated = await asyncio.to_thread(self.service.rate_state, family, ids, state, hand)
        points: dict[int, tuple[int, float]] = {}
        if not state.rules.chiamata:
            luck = luck_of(state)
            for seat in range(state.rules.players):
                side = state.rules.side_of(seat)
                points[seat] = (luck.points[side], luck.luck[side])
        else:
            result = state.outcome()
            for index, seats in enumerate(result.sides):
                for at in seats:
                    points[at] = (result.side_points[index], 0.0)
        self._tell(table, ids, rated, points, abandoned=False)

    async def _abandon(self, table: Table, sides: list[list[str]], quitter: str, hand: str) -> None:
        family = family_of(table.rules)
        rated = await asyncio.to_thread(self.service.abandon, family, sides, quitter, hand)
        ids = [str(s.player_id) for s in table.seats]
        self._tell(table, ids, rated, {}, abandoned=True)

    def _tell(
        self,
        table: Table,
        ids: Sequence[str],
        rated: RatedHand,
        points: dict[int, tuple[int, float]],
        abandoned: bool,
    ) -> None:
        if rated.fresh:
            log.info("table %s: hand %s rated (%s)", table.code, rated.hand_id, rated.family)
        for change in rated.changes:
            seat = next(s for s in table.seats if ids[s.index] == change.player)
            if seat.player_id == change.player:
                seat.rating = shown(change.after)
            got, luck = points.get(seat.index, (0, 0.0))
            message: talk.Rated = {
                "type": "rated",
                "family": rated.family,
                "before": round(change.before.ordinal, 1),
                "after": round(change.after.ordinal, 1),
                "change": round(change.after.ordinal - change.before.ordinal, 1),
                "sigma": round(change.after.sigma, 2),
                "points": got,
                "luck": round(luck, 1),
                "abandoned": abandoned,
            }
            if seat.peer is not None and seat.player_id == change.player:
                seat.peer.post(encode(message))
        if rated.changes:
            table.broadcast_info()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("ratings: %s", task.exception(), exc_info=task.exception())

    async def idle(self) -> None:
        """Wait for the ratings under way (tests, and a server closing)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


def check_family_field(value: object, kind: str) -> Family:
    for family in FAMILIES:
        if value == family:
            return family
    raise ProtocolError(
        ErrorCode.BAD_FAMILY, f"{kind}: family must be one of {', '.join(FAMILIES)}"
    )
