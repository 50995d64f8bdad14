"""What a server process stores of a table in Redis (``meta``) is what another process
needs to go on with it exactly: here, who had asked for the next hand between hands."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from briscola.engine import Rules
from briscola.game.driver import MatchDriver
from briscola.game.driver import Seat as Player
from briscola.server.dealproof import DealSeeds
from briscola.server.replica import rebuild_table, table_meta
from briscola.server.seats import Seat
from briscola.server.store import StoredTable


def _between_hands() -> tuple[SimpleNamespace, dict[str, Any]]:
    """A best-of-three table after its first hand, its first seat asking for the next."""
    rules = Rules.preset("classic2", match="best-of-3")
    players = [Player("Anna", "human"), Player("Bruno", "human")]
    driver = MatchDriver(rules, players, random.Random(3))
    state = driver.deal()
    rng = random.Random(4)
    while not state.is_terminal():
        driver.apply(rng.choice(state.legal_actions()))
    driver.finish_hand()
    seats = [Seat(i, p, token=f"t{i}", ready=True) for i, p in enumerate(players)]
    seats[0].wants_next = True
    table = SimpleNamespace(
        code="ABCDEF", rules=rules, host=0, phase="between", owner="", seed="7",
        match_id="m", driver=driver, seats=seats, ended_tokens=set(), public=False,
    )  # fmt: skip
    table.seeds = DealSeeds(lambda: str(table.seed))
    return table, driver.record()


def _empty(seats: list[Seat]) -> SimpleNamespace:
    """What the table maker gives ``rebuild_table`` to fill."""
    table = SimpleNamespace(seats=seats, config=SimpleNamespace(bot_time=1.0), seed=None)
    table.seeds = DealSeeds(lambda: str(table.seed))
    return table


def test_a_table_rebuilt_elsewhere_reveals_the_same_seed_and_deals_with_the_values_sent() -> None:
    """Deals no one can choose (docs/fairness.md): the seeds come from the table's secret,
    the values sent for the next deal and those of the last deal are stored with it."""
    table, hand = _between_hands()
    table.seeds.dealt = [b"\x01", b""]
    assert table.seeds.contribute(2, 1, table.seeds.commitment(2), b"\x02")
    meta = table_meta(table)  # type: ignore[arg-type]

    def make(code: str, rules: Rules, kinds: list[Any], host: int, owner: str) -> Any:
        return _empty([Seat(i, Player(f"P{i}", k, lv)) for i, (k, lv) in enumerate(kinds)])

    rebuilt = rebuild_table(StoredTable(meta, [hand], None, []), make, "ABCDEF")
    assert rebuilt is not None
    assert rebuilt.seeds.reveal(1) == table.seeds.reveal(1)
    assert rebuilt.seeds.commitment(2) == table.seeds.commitment(2)
    assert rebuilt.seeds.deal(2, 2) == [b"", b"\x02"]


def test_a_seat_that_asked_for_the_next_hand_still_has_after_another_process_takes_over() -> None:
    table, hand = _between_hands()
    meta = table_meta(table)  # type: ignore[arg-type]
    assert [seat["next"] for seat in meta["seats"]] == [True, False]

    def make(code: str, rules: Rules, kinds: list[Any], host: int, owner: str) -> Any:
        players = [Player(f"P{i}", kind, level) for i, (kind, level) in enumerate(kinds)]
        seats = [Seat(i, p) for i, p in enumerate(players)]
        return _empty(seats)

    stored = StoredTable(meta=meta, hands=[hand], deal=None, moves=[])
    rebuilt = rebuild_table(stored, make, "ABCDEF")
    assert rebuilt is not None
    assert [seat.wants_next for seat in rebuilt.seats] == [True, False]
    assert rebuilt.phase == "between"


def test_a_table_stored_before_the_next_flag_was_stored_rebuilds_with_nobody_asking() -> None:
    table, hand = _between_hands()
    meta = table_meta(table)  # type: ignore[arg-type]
    for seat in meta["seats"]:
        del seat["next"]  # written by an older server

    def make(code: str, rules: Rules, kinds: list[Any], host: int, owner: str) -> Any:
        seats = [Seat(i, Player(f"P{i}", kind, level)) for i, (kind, level) in enumerate(kinds)]
        return _empty(seats)

    rebuilt = rebuild_table(StoredTable(meta, [hand], None, []), make, "ABCDEF")
    assert rebuilt is not None and not any(seat.wants_next for seat in rebuilt.seats)
