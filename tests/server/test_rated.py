"""Rated tables on one server: a public table of identified people is rated at each hand's
end and each player told what changed (``rated``), the ratings beside the names; a table
with a computer player, or a private one, is not rated; a hand abandoned (the grace period
ran out) is that player's loss, once; the leaderboard and a player's history."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from serverhelp import hello, raw, replies
from websockets.sync.client import ClientConnection

from briscola.ratings import SqliteStore
from briscola.server import ServerThread


def send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def replies_soon(ws: ClientConnection, want: Callable[[dict[str, Any]], bool]) -> None:
    """Raises ``TimeoutError`` unless ``want`` matches a message within half a second."""
    while True:
        if want(json.loads(ws.recv(timeout=0.5))):
            return


def kind(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == name


def person(server: ServerThread, opened: list[ClientConnection], name: str) -> ClientConnection:
    """A connection of a new identified player called ``name``."""
    ws = raw(server.url)
    opened.append(ws)
    assert hello(ws, name)["type"] == "welcome"
    send(ws, type="identify", key=secrets.token_hex(32), name=name)
    assert replies(ws, kind("identity"))["name"] == name
    return ws


def table_of(
    host: ClientConnection, guests: Sequence[ClientConnection], public: bool, bots: int = 0
) -> str:
    """A classic table (two seats, or three with a computer), started."""
    seats = [{"kind": "human"}] * (1 + len(guests)) + [{"kind": "bot", "level": "easy"}] * bots
    preset = "classic2" if len(seats) == 2 else "classic3"
    send(host, type="create", rules={"preset": preset}, public=public, seats=seats)
    code = str(replies(host, kind("joined"))["table"])
    for guest in guests:
        send(guest, type="join", code=code)
        replies(guest, kind("joined"))
        send(guest, type="ready")
    time.sleep(0.2)
    send(host, type="start")
    return code


def play_hand(players: Sequence[ClientConnection]) -> dict[int, list[dict[str, Any]]]:
    """Play the first legal card at each turn until the hand is over; every message each
    connection got (by its index), read for a second more after the hand's end."""
    after: dict[int, list[dict[str, Any]]] = {i: [] for i in range(len(players))}
    over: set[int] = set()
    deadline = time.monotonic() + 60
    quiet_until = None
    while time.monotonic() < deadline:
        if quiet_until is not None and time.monotonic() > quiet_until:
            return after
        for i, ws in enumerate(players):
            try:
                message = json.loads(ws.recv(timeout=0.02))
            except TimeoutError:
                continue
            after[i].append(message)
            if i in over:
                continue
            if message["type"] != "update":
                continue
            if message["phase"] != "playing":
                over.add(i)
                if len(over) == len(players):
                    quiet_until = time.monotonic() + 1.5
                continue
            view = message["view"]
            if view["legal"] and view["current_player"] == view["seat"]:
                send(ws, type="act", action=view["legal"][0], moves=message["moves"])
    raise TimeoutError("the hand did not end")


def test_a_rated_hand_changes_both_ratings_and_each_player_is_told_its_change(
    make_server: Callable[..., ServerThread], opened: list[ClientConnection]
) -> None:
    server = make_server()
    anna, bruno = person(server, opened, "Anna"), person(server, opened, "Bruno")
    code = table_of(anna, [bruno], public=True)
    after = play_hand([anna, bruno])
    told = [next(m for m in after[i] if m["type"] == "rated") for i in (0, 1)]
    # The table rebuilt (another process taking it over) rates its last hand again: the
    # store says it was rated, and nobody is told anything twice.
    server.call(lambda: server.server.rated.rebuilt(server.server.tables[code]))
    time.sleep(0.5)
    for ws in (anna, bruno):
        with pytest.raises(TimeoutError):
            replies_soon(ws, kind("rated"))
    assert all(t["family"] == "two" and not t["abandoned"] for t in told)
    # Both changed (the ordinal rises with what a game tells, so even a tie moves it).
    assert all(t["change"] != 0 and t["sigma"] < 25 / 3 for t in told)
    for t in told:
        assert t["before"] == 0.0 and t["change"] == round(t["after"] - t["before"], 1)
        assert 0 <= t["points"] <= 120
    tables = [m for m in after[0] if m["type"] == "table"]
    assert all("rating" not in s for s in tables[0]["seats"])  # new players: none shown yet
    seats = tables[-1]["seats"]
    shown = sorted(s["rating"] for s in seats)
    assert shown == sorted(round(t["after"]) for t in told)
    # The leaderboard: both, the winner first; each its own place; the history.
    send(anna, type="leaderboard", family="two", count=5)
    board = replies(anna, kind("leaderboard"))
    assert [e["rank"] for e in board["top"]] == [1, 2]
    assert {e["name"] for e in board["top"]} == {"Anna", "Bruno"}
    assert board["you"]["name"] == "Anna" and board["top"][0]["games"] == 1
    send(bruno, type="rating_history", family="two")
    history = replies(bruno, kind("rating_history"))["points"]
    assert [p["rating"] for p in history] == [told[1]["after"]]
    send(bruno, type="leaderboard", family="poker")
    assert replies(bruno, kind("error"))["code"] == "bad_family"


def test_tables_with_a_computer_private_tables_and_strangers_are_not_rated(
    make_server: Callable[..., ServerThread], opened: list[ClientConnection]
) -> None:
    server = make_server()
    anna, bruno = person(server, opened, "Anna"), person(server, opened, "Bruno")
    table_of(anna, [bruno], public=True, bots=1)
    after = play_hand([anna, bruno])
    assert not any(m["type"] == "rated" for i in (0, 1) for m in after[i])
    send(anna, type="leave")
    send(bruno, type="leave")
    time.sleep(0.2)
    table_of(anna, [bruno], public=False)
    after = play_hand([anna, bruno])
    assert not any(m["type"] == "rated" for i in (0, 1) for m in after[i])
    send(anna, type="leaderboard", family="two")
    assert replies(anna, kind("leaderboard"))["top"] == []
    stranger = raw(server.url)
    opened.append(stranger)
    hello(stranger, "Carla")
    send(stranger, type="leaderboard", family="two")
    assert replies(stranger, kind("error"))["code"] == "identify_first"


def test_a_hand_abandoned_past_the_grace_period_is_that_player_s_loss_once(
    make_server: Callable[..., ServerThread], opened: list[ClientConnection]
) -> None:
    server = make_server(grace=0.5)
    anna, bruno = person(server, opened, "Anna"), person(server, opened, "Bruno")
    table_of(anna, [bruno], public=True)
    bruno.close()  # gone: after half a second a computer plays for Bruno
    after = play_hand([anna])  # the computer finishes the hand: not rated again
    told = [m for m in after[0] if m["type"] == "rated"]
    assert len(told) == 1 and told[0]["abandoned"] and told[0]["change"] > 0
    send(anna, type="leaderboard", family="two")
    board = replies(anna, kind("leaderboard"))
    assert [(e["name"], e["games"]) for e in board["top"]] == [("Anna", 1), ("Bruno", 1)]


def test_quick_match_seats_the_nearest_in_rating_first(
    make_server: Callable[..., ServerThread], opened: list[ClientConnection]
) -> None:
    server = make_server(bots_after=60.0)
    strong, new, fresh = (person(server, opened, n) for n in ("Stella", "Nino", "Fred"))
    ids = server.call(lambda: [c.player_id for c in server.server.conns if c.player_id])
    names = server.call(lambda: {c.player_id: c.name for c in server.server.conns})
    stella = next(p for p in ids if names[p] == "Stella")
    service = server.server.rated.service
    for hand in range(12):  # Stella beats strangers: her rating rises far above 0
        service.rate_hand("two", [[stella], [f"x{hand}"]], [100.0, 0.0], f"h{hand}")
    assert service.rating("two", stella).ordinal > 10
    send(strong, type="queue", presets=["classic2"])
    replies(strong, kind("queued"))
    time.sleep(0.5)  # her ticket has her rating; the others come later
    send(new, type="queue", presets=["classic2"])
    send(fresh, type="queue", presets=["classic2"])
    # Stella waits longest, but nobody is near her yet: the two new players meet.
    assert replies(new, kind("joined"))["table"] == replies(fresh, kind("joined"))["table"]
    waiting = server.call(lambda: list(server.server.public.queue.tickets.values()))
    assert [t.name for t in waiting] == ["Stella"]
    assert waiting[0].ratings[0][0] == "two" and waiting[0].ratings[0][1] > 10


def test_a_lan_host_keeps_its_ratings_in_its_keep_folder(
    make_server: Callable[..., ServerThread], opened: list[ClientConnection], tmp_path: Path
) -> None:
    keep = tmp_path / "keep"
    server = make_server(keep=keep)
    anna, bruno = person(server, opened, "Anna"), person(server, opened, "Bruno")
    table_of(anna, [bruno], public=True)
    after = play_hand([anna, bruno])
    assert any(m["type"] == "rated" for m in after[0])
    ids = server.call(lambda: sorted(c.player_id for c in server.server.conns if c.player_id))
    server.stop()
    store = SqliteStore(keep)  # the host's file: the ratings are there after it stopped
    try:
        assert [r.games for r in store.get("two", ids).values()] == [1, 1]
    finally:
        store.close()
