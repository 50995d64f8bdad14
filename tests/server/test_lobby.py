"""The public side on one server (and a LAN host's, which has no Redis): the lobby lists
public tables only and sends changes after its snapshot, a free seat is joined from it,
quick match seats people and offers computer players after a wait, and spectators get only
what every seat knows (the leak audit checks every frame against the table's state as it
is sent)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from redishelp import RedisServer
from serverhelp import hello, raw, replies
from websockets.sync.client import ClientConnection

from briscola.protocol.lobby import QUICK_PRESETS
from briscola.server import ServerThread
from briscola.server.watch import Audience, leaks


def send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


_open: list[ClientConnection] = []


@pytest.fixture(autouse=True)
def _close_connections(make_server: Callable[..., ServerThread]) -> Iterator[None]:
    """Every connection a test opened is closed before its server stops (after it, in
    teardown order: this fixture is set up after ``make_server``)."""
    yield
    while _open:
        _open.pop().close()


def person(url: str, name: str) -> ClientConnection:
    ws = raw(url)
    _open.append(ws)
    assert hello(ws, name)["type"] == "welcome"
    return ws


def kind(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == name


def test_the_lobby_lists_public_tables_only_and_then_sends_what_changed(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    watcher = person(server.url, "Walter")
    send(watcher, type="lobby_watch")
    assert replies(watcher, kind("lobby"))["tables"] == []
    private = person(server.url, "Pia")
    send(private, type="create", rules={"preset": "classic2"})
    replies(private, kind("joined"))
    host = person(server.url, "Anna")
    send(host, type="create", rules={"preset": "teams4"}, public=True, seats=[
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"},
        {"kind": "human"}])  # fmt: skip
    code = replies(host, kind("joined"))["table"]
    change = replies(watcher, kind("lobby_change"))
    assert [e["table"] for e in change["added"]] == [code]  # the private table is not listed
    entry = change["added"][0]
    assert entry["free"] == 2 and entry["preset"] == "teams4" and not entry["rated"]
    assert entry["rules"] == {"preset": "teams4"}  # what differs from the preset: nothing
    assert [s["kind"] for s in entry["seats"]] == ["human", "human", "bot", "human"]
    guest = person(server.url, "Bruno")
    send(guest, type="join", code=code, seat=3)
    assert replies(guest, kind("joined"))["seat"] == 3
    change = replies(watcher, kind("lobby_change"))
    assert change["added"] == [] and change["changed"][0]["free"] == 1
    assert change["changed"][0]["seats"][3]["name"] == "Bruno"
    # A filter: a new snapshot with that configuration's tables only (four a second).
    time.sleep(0.3)
    send(watcher, type="lobby_watch", presets=["classic2"])
    assert replies(watcher, kind("lobby"))["tables"] == []
    send(watcher, type="lobby_watch", presets=["teams4"])
    assert replies(watcher, kind("error"))["code"] == "rate_limited"
    time.sleep(0.3)
    send(watcher, type="lobby_watch", presets=["teams4"])
    assert [e["table"] for e in replies(watcher, kind("lobby"))["tables"]] == [code]
    send(host, type="leave")
    assert replies(watcher, kind("lobby_change"))["removed"] == [code]
    send(watcher, type="lobby_watch", presets=["poker"])
    assert replies(watcher, kind("error"))["code"] == "bad_queue"


def test_quick_match_seats_two_refuses_what_does_not_fit_and_lets_a_player_go(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(bots_after=60.0)
    anna, bruno, carla = (person(server.url, n) for n in ("Anna", "Bruno", "Carla"))
    send(anna, type="queue", presets=["nonsense"])
    assert replies(anna, kind("error"))["code"] == "bad_queue"
    send(anna, type="queue", presets=["classic3", "classic2"])
    wait = replies(anna, kind("queued"))
    assert wait["presets"] == ["classic3", "classic2"] and not wait["bots"]
    send(anna, type="create", rules={"preset": "classic2"})
    assert replies(anna, kind("error"))["code"] == "queued"
    send(anna, type="queue_bots", preset="classic2")
    assert replies(anna, kind("error"))["code"] == "bad_queue"  # not yet offered
    send(carla, type="queue", presets=["teams6"])
    replies(carla, kind("queued"))
    send(carla, type="unqueue")
    assert replies(carla, kind("queued"))["presets"] == []
    send(anna, type="queue", presets=["classic2"])  # again: these instead
    assert replies(anna, kind("queued"))["presets"] == ["classic2"]
    send(bruno, type="queue", presets=["classic2"])
    seated = [replies(ws, kind("joined")) for ws in (anna, bruno)]
    assert seated[0]["table"] == seated[1]["table"]
    assert {s["seat"] for s in seated} == {0, 1}
    table = replies(anna, kind("table"))
    assert table["phase"] == "playing" and {s["name"] for s in table["seats"]} == {
        "Anna",
        "Bruno",
    }
    assert replies(anna, kind("update"))["view"]["hand"]
    send(anna, type="queue", presets=["classic2"])
    assert replies(anna, kind("error"))["code"] == "at_table"


def test_after_the_wait_computer_players_fill_the_seats_of_a_table_not_rated(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(bots_after=0.3)
    anna = person(server.url, "Anna")
    send(anna, type="queue", presets=["teams4"])
    assert replies(anna, lambda m: m["type"] == "queued" and m["bots"])["waited"] >= 0.3
    watcher = person(server.url, "Walter")
    send(watcher, type="lobby_watch")
    replies(watcher, kind("lobby"))
    send(anna, type="queue_bots", preset="teams4")
    assert replies(anna, kind("joined"))["seat"] == 0
    seats = replies(anna, kind("table"))["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
    entry = replies(watcher, kind("lobby_change"))["added"][0]
    assert entry["rated"] is False and entry["phase"] == "playing" and entry["free"] == 0


def test_a_spectator_sees_no_hidden_card_and_the_players_see_it_watch(
    make_server: Callable[..., ServerThread],
) -> None:
    """Every frame to a spectator and to a lobby watcher, audited against the table's state
    at the moment it is sent: no card in a hand that some seat may not see, no token, no
    key. Teams with partners seeing hands and partner signals: the most there is to hide."""
    server = make_server(bots_after=0.0, bot_delay=0.0)
    problems: list[str] = []
    audited: list[int] = []
    inner = server.server

    def audit(table: Any, text: str) -> None:
        audited.append(1)
        problems.extend(leaks(text, table.state))

    inner.public.tap = lambda text: problems.extend(leaks(text, None))
    watcher = person(server.url, "Walter")
    send(watcher, type="lobby_watch")
    replies(watcher, kind("lobby"))
    host = person(server.url, "Anna")
    rules = {"preset": "teams4", "partners_see": "start", "signals": "partner"}
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3
    send(host, type="create", rules=rules, seats=seats, public=True)
    code = replies(host, kind("joined"))["table"]
    audience = server.call(lambda: inner.public.rooms[code])
    assert isinstance(audience, Audience)
    audience.tap = audit
    spectator = person(server.url, "Vera")
    send(spectator, type="watch", code=code)
    assert replies(spectator, kind("watching"))["table"] == code
    send(host, type="start")
    assert replies(host, lambda m: m["type"] == "table" and m.get("watchers") == 1)
    play_to_the_end(host)
    replies(spectator, lambda m: m["type"] == "update" and m["phase"] != "playing")
    assert len(audited) > 20 and problems == []
    send(spectator, type="unwatch")
    assert replies(spectator, kind("unwatched"))["table"] == code
    private = person(server.url, "Pia")
    send(private, type="create", rules={"preset": "classic2"})
    hidden = replies(private, kind("joined"))["table"]
    send(spectator, type="watch", code=hidden)
    assert replies(spectator, kind("error"))["code"] == "no_table"


def play_to_the_end(ws: ClientConnection) -> None:
    """Play the first legal card whenever it is this seat's turn, until the hand is over."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if message["type"] != "update":
            continue
        if message["phase"] != "playing":
            return
        view = message["view"]
        if view["legal"] and view["current_player"] == view["seat"]:
            send(ws, type="act", action=view["legal"][0], moves=message["moves"])
    raise TimeoutError("the hand did not end")


def test_the_audit_finds_a_hand_a_token_and_a_hidden_card() -> None:
    import random

    from briscola.engine import GameState, Rules

    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    card = state.hands[1][0].code
    assert leaks('{"token": "x"}', None) == ["a key 'token'"]
    assert leaks('{"view": {"hand": ["AD"]}}', None) == ["a hand"]
    assert leaks(json.dumps({"events": [{"card": card}]}), state) == [f"the hidden card {card}"]
    assert leaks(json.dumps({"hand": 3, "briscola": state.briscola.code}), state) == []


def test_a_lan_host_s_own_server_has_the_same_lobby(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(embedded=True)
    host = person(server.url, "Anna")
    send(host, type="create", rules={"preset": "classic3"}, public=True)
    code = replies(host, kind("joined"))["table"]
    watcher = person(server.url, "Walter")
    started = time.monotonic()
    send(watcher, type="lobby_watch", presets=["classic3"])
    tables = replies(watcher, kind("lobby"))["tables"]
    assert [t["table"] for t in tables] == [code] and tables[0]["waited"] >= 0
    assert time.monotonic() - started < 1


def test_an_entry_whose_table_went_with_its_process_leaves_the_lobby(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> None:
    import redis

    stale = {"table": "ZZZZZZ", "preset": "classic2", "rules": {}, "match": "single",
             "phase": "lobby", "seats": [], "free": 1, "waited": time.time(), "watchers": 0,
             "rated": True}  # fmt: skip
    store = redis.Redis.from_url(redis_server.url)
    store.hset("briscola:lobby", "ZZZZZZ", json.dumps({"from": "gone", "entry": stale}))
    store.close()
    server = make_server(redis=redis_server.url)
    watcher = person(server.url, "Walter")
    send(watcher, type="lobby_watch")
    assert [t["table"] for t in replies(watcher, kind("lobby"))["tables"]] == ["ZZZZZZ"]
    deadline = time.monotonic() + 15
    while True:
        message = json.loads(watcher.recv(timeout=deadline - time.monotonic()))
        if message["type"] == "lobby_change":
            assert message["removed"] == ["ZZZZZZ"]
            break


@pytest.mark.parametrize("preset", QUICK_PRESETS)
def test_every_quick_match_configuration_seats_a_table_that_plays(
    make_server: Callable[..., ServerThread], preset: str
) -> None:
    server = make_server(bots_after=0.0)
    anna = person(server.url, "Anna")
    send(anna, type="queue", presets=[preset])
    replies(anna, kind("queued"))
    send(anna, type="queue_bots", preset=preset)
    seat = replies(anna, kind("joined"))["seat"]
    table = replies(anna, kind("table"))
    assert table["rules"]["preset"] == preset and table["phase"] == "playing"
    assert [s["kind"] == "human" for s in table["seats"]].count(True) == 1
    assert table["seats"][seat]["name"] == "Anna"
    assert replies(anna, kind("update"))["view"]["hand"]


def test_a_person_matched_on_a_process_that_is_gone_is_played_by_a_computer_at_once(
    make_server: Callable[..., ServerThread], redis_server: RedisServer
) -> None:
    import redis

    store = redis.Redis.from_url(redis_server.url)
    since = time.time() - 1
    ghost = f"gone:1:{int(since * 1e6)}"
    store.hset(f"briscola:qt:{ghost}", mapping={
        "process": "gone", "serial": 1, "name": "Ghost", "presets": "classic2",
        "since": repr(since)})  # fmt: skip
    store.pexpire(f"briscola:qt:{ghost}", 15_000)
    store.zadd("briscola:q:classic2", {ghost: since})
    store.close()
    server = make_server(redis=redis_server.url)
    anna = person(server.url, "Anna")
    send(anna, type="queue", presets=["classic2"])
    replies(anna, kind("joined"))
    table = replies(anna, lambda m: m["type"] == "table" and any(s["replaced"] for s in m["seats"]))
    assert {s["name"] for s in table["seats"]} == {"Anna", "Ghost"}
