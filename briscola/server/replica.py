"""A table as Redis keeps it (:mod:`briscola.server.store`): what to write at each change,
and the table rebuilt from what was written, by replaying its records through the match
driver (the engine checks every move again)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from briscola.engine import (
    Action,
    GameState,
    MatchOver,
    Rules,
    Signal,
    Signalled,
    action_from_json,
    signal_from_json,
    to_record,
)
from briscola.engine import replay as replay_record
from briscola.game.driver import HUMAN, MatchDriver
from briscola.server.config import ServerConfig
from briscola.server.fair import FairPool
from briscola.server.seats import SeatKind
from briscola.server.tables import FrameTap, Rater, Table

__all__ = [
    "StoredTable",
    "TableHome",
    "TableMaker",
    "hand_so_far",
    "rebuild_table",
    "table_maker",
    "table_meta",
    "table_ops",
]


@dataclass
class StoredTable:
    """What a store (Redis, or a host's file: :mod:`briscola.server.keep`) holds of a table."""

    meta: dict[str, Any]
    hands: list[dict[str, Any]]
    deal: dict[str, Any] | None
    moves: list[dict[str, Any]]


#: Makes an empty table: (code, rules, seat kinds, host seat, owner address).
TableMaker = Callable[[str, Rules, list[tuple[SeatKind, str]], int, str], Table]


class TableHome(Protocol):
    """What a rebuilt table needs of the server it is rebuilt on."""

    config: ServerConfig
    pool: FairPool
    tap: FrameTap | None

    @property
    def rated(self) -> Rater: ...

    def table_closed(self, table: Table) -> None: ...


def table_maker(server: TableHome) -> TableMaker:
    """Makes the empty tables of ``server`` that :func:`rebuild_table` fills."""

    def make(
        code: str, rules: Rules, kinds: list[tuple[SeatKind, str]], host: int, owner: str
    ) -> Table:
        table = Table(
            code, rules, kinds, host, server.config.table_config(), server.pool,
            server.table_closed, lambda: server.tap, owner=owner,
        )  # fmt: skip
        table.rater = server.rated
        return table

    return make


def table_meta(table: Table) -> dict[str, Any]:
    """The table as stored in ``meta``: the seats with their tokens, whether their person
    left the match (a computer plays for them until they resume) and whether they asked
    for the next hand, and the tokens of seats given up when their match ended."""
    driver = table.driver
    return {
        "code": table.code,
        "rules": table.rules.to_dict(),
        "host": table.host,
        "phase": table.phase,
        "owner": table.owner,
        "public": table.public,
        "seed": table.seed,
        "match_id": table.match_id,
        "deals": driver.deals if driver is not None else 0,
        "app": driver.app if driver is not None else "",
        "seats": [
            {
                "kind": seat.kind,
                "level": seat.level,
                "name": seat.name,
                "token": seat.token,
                "player": seat.player_id,  # (server-only: the rated tables' player ids)
                "ready": seat.ready,
                "stand_in": seat.player.stand_in,
                "left": seat.left,
                # Asked for the next hand (or, the match over, for a rematch).
                "next": seat.wants_next,
            }
            for seat in table.seats
        ],
        # The tokens of seats given up once their match ended: a resume with one is told
        # ``match_over`` (sorted: the same table stores the same bytes).
        "ended": sorted(table.ended_tokens),
        # The values of the next deal and of the last (docs/fairness.md): the same reveal.
        "fair": table.seeds.to_json(),
    }


def table_ops(table: Table, kind: str, data: Any) -> list[tuple[str, str, str]]:
    """What to store for a change of ``kind`` at ``table`` (``seats``, ``deal``, ``move``
    with its action, ``signal`` with the signal made (a ``Signalled``), ``hand``, ``closed``):
    ``(OP, key part, value)`` for
    :meth:`~briscola.server.store.Store.write`."""
    ops: list[tuple[str, str, str]] = []
    if kind not in ("move", "signal"):  # these change no seat, phase or deal count
        ops.append(("SET", "meta", json.dumps(table_meta(table), separators=(",", ":"))))
    driver, state = table.driver, table.state
    if kind == "deal" and driver is not None and state is not None:
        dealt = GameState(state.rules, state.deck, state.dealer)
        if not driver.match.results:  # a new match: the last one's hands go
            ops.append(("DEL", "hands", ""))
        ops.append(("SET", "deal", json.dumps(to_record(dealt))))
        ops.append(("DEL", "moves", ""))
    elif kind == "move" and driver is not None and isinstance(data, Action):
        move = {"a": data.to_json(), "by": driver.played_by[-1]}
        ops.append(("RPUSH", "moves", json.dumps(move, separators=(",", ":"))))
    elif kind == "signal" and driver is not None and state is not None:  # not a move
        made: Signalled = data
        index = state.signals.index(made)
        by = driver.signalled_by[index] if index < len(driver.signalled_by) else HUMAN
        signalled = {"s": Signal(made.kind).to_json(), "seat": made.seat, "by": by}
        ops.append(("RPUSH", "moves", json.dumps(signalled, separators=(",", ":"))))
    elif kind == "hand" and driver is not None:
        doc = driver.record()
        ops.append(("RPUSH", "hands", json.dumps(doc, separators=(",", ":"))))
        ops.append(("DEL", "deal", ""))
        ops.append(("DEL", "moves", ""))
    return ops


def hand_so_far(deal: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of the hand under way: its deal, then the stored moves in order (a move
    ``{"a": ACTION, "by": WHO}``, or a partner signal ``{"s": {"signal": KIND}, "seat": S,
    "by": WHO}``; a signal stored by an older server has no ``by``: a person's)."""
    state = replay_record(deal)
    for move in moves:
        if "s" in move:
            state.signal(int(move["seat"]), signal_from_json(move["s"]))
        else:
            state.apply(action_from_json(move["a"]))
    meta: dict[str, Any] = {"played_by": [m["by"] for m in moves if "s" not in m]}
    if state.signals:
        meta["signalled_by"] = [str(m.get("by", HUMAN)) for m in moves if "s" in m]
    return to_record(state, meta)


def rebuild_table(stored: StoredTable, make: TableMaker, code: str) -> Table | None:
    """The table ``stored`` describes (None for a closed one). Raises
    :class:`~briscola.engine.ReplayError`, ``KeyError`` or ``ValueError`` for a stored state
    that does not replay."""
    meta = stored.meta
    if meta.get("phase") == "closed":
        return None
    rules = Rules.from_dict(meta["rules"])
    kinds = [(seat["kind"], seat["level"]) for seat in meta["seats"]]
    table = make(code, rules, kinds, int(meta["host"]), str(meta.get("owner", "")))
    for seat, saved in zip(table.seats, meta["seats"], strict=True):
        seat.name = saved["name"]
        seat.token = saved["token"]
        seat.player_id = saved.get("player")
        seat.ready = bool(saved["ready"])
        seat.player.stand_in = bool(saved["stand_in"])
        seat.left = bool(saved.get("left", False))
        seat.wants_next = bool(saved.get("next", False))
    table.ended_tokens = {str(token) for token in meta.get("ended", ())}
    table.public = bool(meta.get("public", False))
    table.seed = str(meta["seed"])
    table.seeds.load(meta.get("fair"))
    table.match_id = str(meta.get("match_id", ""))
    table.phase = meta["phase"]
    if table.phase == "lobby":
        return table
    records = list(stored.hands)
    if stored.deal is not None:
        records.append(hand_so_far(stored.deal, stored.moves))
    driver = MatchDriver.rebuild(
        rules,
        [seat.player for seat in table.seats],
        random.Random(),
        records,
        time_limit=lambda level: table.config.bot_time,
        app=str(meta.get("app", "")),
        seed=table.seed,
    )
    driver.deals = int(meta["deals"])
    if driver.state is None and stored.hands and table.phase in ("between", "over"):
        # The finished hand stays on the table until the next is dealt.
        driver.state = replay_record(stored.hands[-1])
        driver.played_by = list(stored.hands[-1].get("meta", {}).get("played_by", []))
    table.driver = driver
    match = driver.match
    if table.phase == "over" and match.is_over():
        table.match_over = MatchOver(match.winners(), tuple(match.standing))
    return table
