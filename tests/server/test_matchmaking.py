"""Quick match's choices (issue 47): the group (oldest first, nearest in rating within a
window that widens with waiting), the seats (teams balanced), and the claim in Redis that
lets one process only seat a person."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
from redishelp import RedisServer

from briscola.engine import Rules
from briscola.server import matchmaking
from briscola.server.matchmaking import WIDEN, WINDOW, RedisTickets, Ticket, arrange, pick_group
from briscola.server.store import Store


def tickets(n: int, preset: str = "classic2", process: str = "p") -> list[Ticket]:
    return [Ticket(process, i, f"P{i}", (preset,), 100.0 + i) for i in range(n)]


def test_the_oldest_go_first_and_too_few_make_no_group() -> None:
    waiting = tickets(5)
    assert [t.serial for t in pick_group(waiting[::-1], 3, 110.0) or []] == [0, 1, 2]
    assert pick_group(waiting[:2], 3, 110.0) is None


def test_the_rating_window_widens_with_the_oldest_one_s_wait() -> None:
    waiting = tickets(3)
    ratings = {0: 15.0, 1: 15.0 + WINDOW + 5 * WIDEN, 2: 15.0 + WINDOW + 2 * WIDEN}

    def rating(ticket: Ticket) -> float:
        return ratings[ticket.serial]

    assert pick_group(waiting[:2], 2, 100.0, rating) is None  # nobody near enough yet
    group = pick_group(waiting, 2, 102.0, rating)  # 2 s: the nearer one is in the window
    assert group is not None and [t.serial for t in group] == [0, 2]
    group = pick_group(waiting, 3, 105.0, rating)
    assert group is not None and len(group) == 3


def test_the_oldest_far_from_everyone_does_not_hold_back_two_near_each_other() -> None:
    waiting = tickets(3)
    ratings = {0: 30.0, 1: 0.0, 2: 1.0}

    def rating(ticket: Ticket) -> float:
        return ratings[ticket.serial]

    group = pick_group(waiting, 2, 101.0, rating)
    assert group is not None and [t.serial for t in group] == [1, 2]
    group = pick_group(waiting[:1] + waiting[2:], 2, 160.0, rating)  # 60 s: near enough
    assert group is not None and [t.serial for t in group] == [0, 2]
    ticket = Ticket("p", 1, "Anna", ("teams4",), 0.0, (("teams4", 12.5), ("two", 3.0)))
    assert matchmaking.rating_of(ticket, "teams4") == 12.5
    assert matchmaking.rating_of(ticket, "classic2") == 3.0
    assert matchmaking.rating_of(ticket, "classic3") == 0.0  # not read: a new player's


def test_teams_are_drafted_so_the_strongest_are_not_together() -> None:
    people = tickets(6, "teams6")
    ratings = {i: 2000.0 - 100 * i for i in range(6)}
    seats = arrange(people, Rules.preset("teams6"), lambda t: ratings[t.serial])
    sides = [[seats[s] for s in range(side, 6, 2)] for side in (0, 1)]
    totals = [sum(ratings[t.serial] for t in side if t is not None) for side in sides]
    assert abs(totals[0] - totals[1]) <= 100
    assert seats[0] is not None and seats[0].serial == 0  # the strongest
    assert seats[1] is not None and seats[1].serial == 1  # the next, on the other side
    two = arrange(people[:2], Rules.preset("teams6"))
    assert [t is not None for t in two] == [True, True, False, False, False, False]
    three = arrange(tickets(3, "classic3"), Rules.preset("classic3"))
    assert [t.serial for t in three if t is not None] == [0, 1, 2]


def test_two_processes_claiming_groups_that_share_a_person_seat_that_person_once(
    redis_server: RedisServer,
) -> None:
    async def run() -> tuple[list[bool], list[Ticket], dict[str, int]]:
        stores = [Store(redis_server.url), Store(redis_server.url)]
        queues = [RedisTickets(store) for store in stores]
        people = tickets(3, process="a")
        for ticket in people:
            await queues[0].add(ticket)
        waiting = await queues[1].waiting("classic2")
        won = list(
            await asyncio.gather(
                queues[0].claim([people[0], people[1]]), queues[1].claim([people[1], people[2]])
            )
        )
        left = await queues[0].waiting("classic2")
        counts = await queues[1].counts()
        for store in stores:
            await store.close()
        assert [t.id for t in waiting] == [t.id for t in people]
        return won, left, counts

    won, left, counts = asyncio.run(run())
    assert sorted(won) == [False, True]
    assert len(left) == 1 and counts["classic2"] == 1


def test_a_waiting_person_is_told_the_numbers_once_a_second_and_the_offer_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr(matchmaking.time, "time", lambda: now[0])
    sent: list[dict[str, Any]] = []
    conn = SimpleNamespace(serial=7, post=lambda text: sent.append(json.loads(text)))
    server = SimpleNamespace(config=SimpleNamespace(bots_after=30.0), shared=None)
    queue = matchmaking.Matchmaker(server)  # type: ignore[arg-type]
    ticket = Ticket("local", 7, "Anna", ("teams4",), 1000.0)
    for waiting, later in ((1, 0.0), (2, 0.3), (3, 0.6), (3, 1.1), (4, 1.2), (4, 30.0)):
        now[0] = 1000.0 + later
        queue._tell(conn, ticket, {"teams4": waiting})  # type: ignore[arg-type]
    assert [(m["waiting"]["teams4"], m["bots"]) for m in sent] == [
        (1, False),  # at once
        (3, False),  # a second later: the numbers then (2 was never sent)
        (4, True),  # the offer of computer players: at once
    ]


def test_a_person_who_accepts_several_configurations_fills_the_largest_table_first() -> None:
    sent: list[str] = []
    server = SimpleNamespace(config=SimpleNamespace(bots_after=30.0), shared=None)
    queue = matchmaking.Matchmaker(server)  # type: ignore[arg-type]
    seated: list[tuple[str, list[str]]] = []
    queue._seat = lambda preset, group: seated.append(  # type: ignore[method-assign]
        (preset, sorted(t.name for t in group))
    )
    wants = {"A": ("teams4",), "B": ("teams4",), "C": ("classic2", "teams4"),
             "D": ("teams4", "classic2"), "E": ("classic2",)}  # fmt: skip
    for serial, (name, presets) in enumerate(wants.items()):
        queue.tickets[serial] = Ticket("local", serial, name, presets, 100.0 + serial)
        queue.conns[serial] = SimpleNamespace(serial=serial, post=sent.append)  # type: ignore[assignment]
    asyncio.run(queue._tick())
    assert seated == [("teams4", ["A", "B", "C", "D"])]
    assert [t.name for t in queue.tickets.values()] == ["E"]  # waits for another
    assert len(sent) == 1
