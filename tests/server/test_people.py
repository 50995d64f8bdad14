"""Players on a server's public side, in one server process (players kept in memory):
identify and register, names, renames, quick chat, reports, bans; and that no key or token
reaches the log or another player (issue 47)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from serverhelp import hello, raw, replies
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from briscola.protocol.naming import key_hash
from briscola.server import ServerThread
from briscola.server.people import PeopleLimits
from briscola.server.registry import Ban, MemoryRegistry, address_target, key_target


@pytest.fixture
def server(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server()


def connect(server: ServerThread, opened: list[ClientConnection], name: str = "Raw") -> Any:
    ws = raw(server.url)
    opened.append(ws)
    assert hello(ws, name)["type"] == "welcome"
    return ws


def ask(ws: ClientConnection, message: dict[str, Any], *want: str) -> dict[str, Any]:
    ws.send(json.dumps(message))
    kinds = want or ("identity", "error")
    return replies(ws, lambda m: m["type"] in kinds)


def identify(ws: ClientConnection, key: str, name: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "identify", "key": key}
    if name is not None:
        message["name"] = name
    return ask(ws, message)


def new_key() -> str:
    return secrets.token_hex(32)


def test_a_new_key_registers_with_its_name_and_comes_back_with_it(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    key = new_key()
    first = identify(connect(server, opened), key, " Zoë ")
    assert first == {"type": "identity", "name": "Zoë", "new": True, "rename_in": 0}
    again = identify(connect(server, opened, "Other"), key)
    assert again == {"type": "identity", "name": "Zoë", "new": False, "rename_in": 0}
    kept = server.server.people.registry
    assert isinstance(kept, MemoryRegistry)
    assert key not in repr(kept.players) and key_hash(key) in kept.players


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "identify", "key": "12ab"}, "bad_key"),
        ({"type": "identify", "key": "AB" * 32, "name": "Anna Maria"}, "bad_key"),
        ({"type": "identify", "key": "ab" * 32}, "unknown_key"),
        ({"type": "identify", "key": "ab" * 32, "name": "Admin"}, "name_refused"),
        ({"type": "identify", "key": "ab" * 32, "name": "the m0d"}, "name_refused"),
        ({"type": "identify", "key": "ab" * 32, "name": "Robot"}, "name_refused"),
        ({"type": "identify", "key": "ab" * 32, "name": "Server Staff"}, "name_refused"),
        ({"type": "identify", "key": "ab" * 32, "name": "\u0410nna"}, "name_refused"),
        ({"type": "identify", "key": "ab" * 32, "name": "a\u202eb"}, "bad_name"),
        ({"type": "identify", "key": "ab" * 32, "name": "   "}, "bad_name"),
        ({"type": "identify", "key": "ab" * 32, "name": "x" * 25}, "bad_name"),
        ({"type": "identify", "key": "ab" * 32, "name": "a\x07b"}, "bad_name"),
        ({"type": "rename", "name": "Nina"}, "identify_first"),
    ],
)
def test_each_refusal_has_its_code_and_a_sentence(
    server: ServerThread, opened: list[ClientConnection], message: dict[str, Any], code: str
) -> None:
    answer = ask(connect(server, opened), message)
    assert answer["type"] == "error" and answer["code"] == code and answer["message"]


def test_names_that_differ_by_case_accents_width_or_separators_are_one_name(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    assert identify(connect(server, opened), new_key(), "Zoë Rossi")["type"] == "identity"
    for same in ("zoë rossi", "ZOE_ROSSI", "Zoe\u0308 Rossi", "Ｚｏë Rossi", "Zoe.Rossi"):
        answer = identify(connect(server, opened), new_key(), same)
        assert answer["code"] == "name_taken", same


def test_a_rename_frees_the_old_name_and_waits_a_day_before_the_next(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    ws = connect(server, opened)
    identify(ws, new_key(), "Livia")
    renamed = ask(ws, {"type": "rename", "name": "Livia Blu"})
    assert renamed["name"] == "Livia Blu" and renamed["rename_in"] == pytest.approx(86400, 1)
    again = ask(ws, {"type": "rename", "name": "Livia Verde"})
    assert again["code"] == "rename_wait" and "wait 24.0 hours" in again["message"]
    taken = identify(connect(server, opened), new_key(), "livia blu")
    assert taken["code"] == "name_taken"
    assert identify(connect(server, opened), new_key(), "Livia")["name"] == "Livia"


def seated(server: ServerThread, opened: list[ClientConnection]) -> list[ClientConnection]:
    """Two identified players at one two-player table."""
    host, guest = connect(server, opened), connect(server, opened)
    identify(host, new_key(), "Ada")
    identify(guest, new_key(), "Bea")
    code = ask(host, {"type": "create", "rules": {"preset": "classic2"}}, "joined")["table"]
    assert ask(guest, {"type": "join", "code": code}, "joined", "error")["type"] == "joined"
    return [host, guest]


def start(host: ClientConnection, guest: ClientConnection) -> None:
    guest.send(json.dumps({"type": "ready"}))
    replies(host, lambda m: m["type"] == "table" and m["seats"][1]["ready"])
    host.send(json.dumps({"type": "start"}))


def test_quick_chat_reaches_every_seat_as_a_code_and_refuses_text(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    host, guest = seated(server, opened)
    said = ask(guest, {"type": "chat", "say": "hello"}, "said")
    assert said == {"type": "said", "seat": 1, "name": "Bea", "say": "hello"}
    assert replies(host, lambda m: m["type"] == "said") == said
    for wrong in ("hi there", "HELLO", 3, None):
        answer = ask(host, {"type": "chat", "say": wrong}, "error")
        assert answer["code"] == "bad_chat"
    alone = connect(server, opened)
    assert ask(alone, {"type": "chat", "say": "bye"}, "error")["code"] == "no_table"


def test_quick_chat_is_rate_limited_per_connection(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    _host, guest = seated(server, opened)
    answers = [ask(guest, {"type": "chat", "say": "thanks"}, "said", "error") for _ in range(7)]
    assert [a["type"] for a in answers] == ["said"] * 5 + ["error"] * 2
    assert answers[-1]["code"] == "chat_limited"


def test_a_report_keeps_who_whom_why_and_the_hand(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    host, guest = seated(server, opened)
    start(host, guest)
    replies(host, lambda m: m["type"] == "update")
    assert ask(host, {"type": "report", "seat": 1, "reason": "chat"}, "reported") == {
        "type": "reported",
        "seat": 1,
    }
    for wrong in ({"seat": 0}, {"seat": 5}, {"seat": "1"}, {"seat": 1, "reason": "ugly"}):
        answer = ask(host, {"type": "report", **wrong}, "error")
        assert answer["code"] == "bad_report", wrong
    registry = server.server.people.registry
    assert isinstance(registry, MemoryRegistry)
    [report] = registry.report_list
    assert report["player"]["name"] == "Bea" and report["by"]["name"] == "Ada"
    assert report["reason"] == "chat" and report["deal"] == 1
    assert report["hand"]["meta"]["unfinished"] == "reported"
    assert report["records"].endswith(".jsonl")


def ban(server: ServerThread, target: str, reason: str) -> None:
    registry = server.server.people.registry
    server.call(lambda: asyncio.ensure_future(registry.ban(Ban(target, reason, 0.0))))


def test_a_banned_address_is_told_why_at_its_hello_and_closed(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    ban(server, address_target("127.0.0.1"), "insults at table K7MX2Q")
    ws = raw(server.url)
    opened.append(ws)
    answer = hello(ws)
    assert answer["code"] == "banned" and answer["message"] == "insults at table K7MX2Q"
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_a_banned_key_is_told_why_when_it_identifies(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    key = new_key()
    identify(connect(server, opened), key, "Carlotta")
    ban(server, key_target(key_hash(key)), "cheating with a friend")
    answer = identify(connect(server, opened), key)
    assert answer["code"] == "banned" and answer["message"] == "cheating with a friend"


def test_no_key_or_token_reaches_the_log_or_another_player(
    server: ServerThread, opened: list[ClientConnection], caplog: pytest.LogCaptureFixture
) -> None:
    """A session of two players, every step logged at DEBUG: the log holds neither key nor
    its hash nor a seat token; no frame one player receives holds the other's."""
    caplog.set_level(logging.DEBUG)
    keys = [new_key(), new_key()]
    host, guest = connect(server, opened), connect(server, opened)
    identify(host, keys[0], "Dora")
    identify(guest, keys[1], "Ettore")
    created = ask(host, {"type": "create", "rules": {"preset": "classic2"}}, "joined")
    joined = ask(guest, {"type": "join", "code": created["table"]}, "joined")
    start(host, guest)
    ask(guest, {"type": "chat", "say": "good_luck"}, "said")
    ask(host, {"type": "report", "seat": 1}, "reported")
    ask(guest, {"type": "rename", "name": "Ettore B"}, "error")  # (at a table: refused)
    frames = {"host": [], "guest": []}  # type: dict[str, list[str]]
    for who, ws in (("host", host), ("guest", guest)):
        ws.send(json.dumps({"type": "chat", "say": "bye"}))
        while True:
            text = str(ws.recv(timeout=10))
            frames[who].append(text)
            if (
                '"said"' in text
                and '"bye"' in text
                and f'"seat":{1 if who == "guest" else 0}' in text
            ):
                break
    secrets_of = {
        "host": [keys[0], key_hash(keys[0]), created["token"]],
        "guest": [keys[1], key_hash(keys[1]), joined["token"]],
    }
    for who, other in (("host", "guest"), ("guest", "host")):
        for secret in secrets_of[other]:
            assert not any(secret in frame for frame in frames[who]), (who, secret)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "Dora" in logged  # (the log did record the session)
    for secret in (*secrets_of["host"], *secrets_of["guest"]):
        assert secret not in logged


def test_an_address_registers_a_few_players_an_hour(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    server.server.people.limits = PeopleLimits(registrations=2)
    keys = [new_key() for _ in range(3)]
    names = ["Uno", "Due", "Tre"]
    answers = [identify(connect(server, opened), k, n) for k, n in zip(keys, names, strict=True)]
    assert [a["type"] for a in answers] == ["identity", "identity", "error"]
    assert answers[2]["code"] == "too_many_names"
    assert identify(connect(server, opened), keys[0])["name"] == "Uno"  # (known: no count)
    taken = identify(connect(server, opened), new_key(), "UNO")
    assert taken["code"] == "name_taken"  # (a name taken is told so, and counts nothing)


def test_a_player_banned_while_connected_is_told_why_and_cut_off(
    server: ServerThread, opened: list[ClientConnection]
) -> None:
    server.server.people.limits = PeopleLimits(ban_check=0.2)
    key = new_key()
    host, guest = connect(server, opened), connect(server, opened)
    identify(host, key, "Gaia")
    code = ask(host, {"type": "create", "rules": {"preset": "classic2"}}, "joined")["table"]
    ask(guest, {"type": "join", "code": code}, "joined")
    bystander = connect(server, opened)
    ban(server, key_target(key_hash(key)), "insults")
    told = replies(host, lambda m: m["type"] == "error")
    assert told == {"type": "error", "code": "banned", "message": "insults"}
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            host.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    away = replies(guest, lambda m: m["type"] == "table" and m["seats"][0]["away"])
    assert away["seats"][0]["name"] == "Gaia"  # (the seat waits, as for any dropped player)
    bystander.send(json.dumps({"type": "chat", "say": "hello"}))
    assert replies(bystander, lambda m: m["type"] == "error")["code"] == "no_table"
