"""Players of a service of several processes (issue 47), with real processes: two
``python -m briscola.server --redis`` processes on one ``redis-server``, and the operator's
commands run as the operator would. Names unique across the processes (case and Unicode
forms too, and when both are asked at the same instant), a ban refused with its message on
every process, reports listed, and a leak audit of a whole session: no key, key hash or
seat token in either process's log (at DEBUG) or in a frame another player receives. The
quick chat limit of an address holds across processes (two servers in this process)."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redishelp import RedisServer, server_process
from serverhelp import hello, raw, replies
from websockets.sync.client import ClientConnection

from briscola.protocol.naming import key_hash
from briscola.server import ServerThread
from briscola.server.people import PeopleLimits


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    return tmp_path / "logs"


@pytest.fixture
def processes(redis_server: RedisServer, logs: Path) -> Iterator[list[str]]:
    """Two server processes on the test's Redis, logging everything (DEBUG): their URLs."""
    logs.mkdir()
    started = []
    for n in range(2):
        log = (logs / f"server-{n}.log").open("w")
        proc, url = server_process(redis_server.url, log, "3", level="DEBUG")
        started.append((proc, url, log))
    yield [url for _proc, url, _log in started]
    for proc, _url, log in started:
        proc.terminate()
        proc.wait(15)
        log.close()


def connect(url: str, opened: list[ClientConnection], source: str = "127.0.0.1") -> Any:
    ws = raw(url, source_address=(source, 0))
    opened.append(ws)
    return ws


def said_hello(url: str, opened: list[ClientConnection], source: str = "127.0.0.1") -> Any:
    ws = connect(url, opened, source)
    assert hello(ws)["type"] == "welcome"
    return ws


def ask(ws: ClientConnection, message: dict[str, Any], *want: str) -> dict[str, Any]:
    ws.send(json.dumps(message))
    return replies(ws, lambda m: m["type"] in (want or ("identity", "error")))


def identify(ws: ClientConnection, key: str, name: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "identify", "key": key}
    if name is not None:
        message["name"] = name
    return ask(ws, message)


def operator(redis: RedisServer, *words: str) -> subprocess.CompletedProcess[str]:
    """``python -m briscola.server WORDS --redis URL``, as the operator types it."""
    command = [sys.executable, "-m", "briscola.server", *words, "--redis", redis.url]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_names_that_differ_only_by_case_or_unicode_form_are_refused_on_the_other_process(
    processes: list[str], opened: list[ClientConnection]
) -> None:
    first = identify(said_hello(processes[0], opened), secrets.token_hex(32), "Zoë Rossi")
    assert first["name"] == "Zoë Rossi" and first["new"] is True
    for same in ("zoë rossi", "ZOË ROSSI", "Zoe\u0308 Rossi", "Ｚｏë Ｒｏｓｓｉ", "Zoe_Rossi"):
        answer = identify(said_hello(processes[1], opened), secrets.token_hex(32), same)
        assert answer["code"] == "name_taken", same
    # The same name asked for at the same instant on both processes: one player gets it.
    for round_ in range(5):
        pair = [said_hello(url, opened) for url in processes]
        name = f"Gemella {round_}"
        for ws in pair:
            ws.send(json.dumps({"type": "identify", "key": secrets.token_hex(32), "name": name}))
        answers = [replies(ws, lambda m: m["type"] in ("identity", "error")) for ws in pair]
        assert sorted(a["type"] for a in answers) == ["error", "identity"], answers


def test_a_ban_from_the_operator_s_command_is_told_on_every_process(
    processes: list[str], opened: list[ClientConnection], redis_server: RedisServer
) -> None:
    key = secrets.token_hex(32)
    assert identify(said_hello(processes[0], opened), key, "Furio")["name"] == "Furio"
    done = operator(redis_server, "ban", "furio", "--reason", "insults in the quick chat")
    assert done.returncode == 0, done.stderr
    assert "banned player Furio" in done.stdout and key not in done.stdout
    for url in processes:
        answer = identify(said_hello(url, opened), key)
        assert answer == {
            "type": "error",
            "code": "banned",
            "message": "insults in the quick chat",
            "ref": "identify",
        }
    # An address: refused at its hello, on every process, before anything else; one of its
    # connections open then is told and closed within the processes' look for bans (10 s).
    present = said_hello(processes[1], opened, "127.0.0.2")
    assert operator(redis_server, "ban", "127.0.0.2", "--reason", "flooding").returncode == 0
    told = json.loads(present.recv(timeout=15))
    assert told == {"type": "error", "code": "banned", "message": "flooding"}
    for url in processes:
        answer = hello(connect(url, opened, "127.0.0.2"))
        assert answer["code"] == "banned" and answer["message"] == "flooding"
    assert hello(connect(processes[1], opened, "127.0.0.3"))["type"] == "welcome"
    listed = operator(redis_server, "bans").stdout
    assert "player Furio" in listed and "address 127.0.0.2: flooding" in listed
    assert operator(redis_server, "unban", "Furio").returncode == 0
    assert identify(said_hello(processes[1], opened), key)["name"] == "Furio"
    nobody = operator(redis_server, "ban", "Nessuno", "--reason", "x")
    assert nobody.returncode == 1 and "no player of this service is called" in nobody.stderr


def at_one_table(
    urls: list[str], opened: list[ClientConnection], names: list[str], source: str = "127.0.0.1"
) -> tuple[list[ClientConnection], list[str], list[dict[str, Any]]]:
    """Two identified players at one two-player table, the host on ``urls[0]``, the guest
    on ``urls[1]``: their sockets, keys and ``joined`` messages."""
    keys = [secrets.token_hex(32) for _ in names]
    sockets = [said_hello(url, opened, source) for url in urls]
    for ws, key, name in zip(sockets, keys, names, strict=True):
        assert identify(ws, key, name)["name"] == name
    created = ask(sockets[0], {"type": "create", "rules": {"preset": "classic2"}}, "joined")
    joined = ask(sockets[1], {"type": "join", "code": created["table"]}, "joined", "error")
    assert joined["type"] == "joined", joined
    return sockets, keys, [created, joined]


def test_a_session_across_processes_leaks_no_key_or_token_to_the_logs_or_the_other_player(
    processes: list[str], opened: list[ClientConnection], redis_server: RedisServer, logs: Path
) -> None:
    (host, guest), keys, joined = at_one_table(processes, opened, ["Dora", "Ettore"])
    frames: dict[str, list[str]] = {"host": [], "guest": []}

    def until(who: str, ws: ClientConnection, want: Callable[[dict[str, Any]], bool]) -> None:
        while True:
            text = str(ws.recv(timeout=10))
            frames[who].append(text)
            if want(json.loads(text)):
                return

    guest.send(json.dumps({"type": "ready"}))
    until("host", host, lambda m: m["type"] == "table" and m["seats"][1]["ready"])
    host.send(json.dumps({"type": "start"}))
    until("host", host, lambda m: m["type"] == "update")
    guest.send(json.dumps({"type": "chat", "say": "good_luck"}))  # (its table is on the host's)
    for who, ws in (("host", host), ("guest", guest)):
        until(who, ws, lambda m: m["type"] == "said" and m["name"] == "Ettore")
    guest.send(json.dumps({"type": "report", "seat": 0, "reason": "play"}))
    until("guest", guest, lambda m: m["type"] == "reported")
    host.send(json.dumps({"type": "chat", "say": "smile"}))
    for who, ws in (("host", host), ("guest", guest)):
        until(who, ws, lambda m: m["type"] == "said" and m["say"] == "smile")
    secret = {
        "host": [keys[0], key_hash(keys[0]), joined[0]["token"]],
        "guest": [keys[1], key_hash(keys[1]), joined[1]["token"]],
    }
    for who, other in (("host", "guest"), ("guest", "host")):
        for each in secret[other]:
            assert not any(each in frame for frame in frames[who]), (who, each)
    listed = operator(redis_server, "reports")
    assert "Dora [" in listed.stdout and "reported by Ettore [" in listed.stdout, listed
    assert "for play" in listed.stdout and "the hand's record kept" in listed.stdout
    logged = "".join(path.read_text() for path in sorted(logs.iterdir()))
    assert "Dora" in logged and "DEBUG" in logged  # (they did log the session)
    for each in (*secret["host"], *secret["guest"]):
        assert each not in logged and each not in listed.stdout


def test_the_quick_chat_of_one_address_is_counted_for_the_whole_service(
    make_server: Callable[..., ServerThread],
    redis_server: RedisServer,
    opened: list[ClientConnection],
) -> None:
    servers = [make_server(redis=redis_server.url, lease_ms=600) for _ in range(2)]
    for server in servers:
        server.server.people.limits = PeopleLimits(chat_burst=100, address_chats=6)
    urls = [server.url for server in servers]
    # Two tables, one on each process, all four players on 127.0.0.2.
    first, _keys, _joined = at_one_table(urls[:1] * 2, opened, ["Gina", "Ugo"], "127.0.0.2")
    second, _keys, _joined = at_one_table(urls[1:] * 2, opened, ["Ivo", "Olga"], "127.0.0.2")
    answers = []
    for n in range(8):
        ws = (first, second)[n % 2][0]
        answers.append(ask(ws, {"type": "chat", "say": "hello"}, "said", "error"))
    assert [a["type"] for a in answers] == ["said"] * 6 + ["error"] * 2
    assert answers[-1]["code"] == "chat_limited" and "your address" in answers[-1]["message"]
    # Another address chats on.
    other, _keys, _joined = at_one_table(urls, opened, ["Pia", "Rino"], "127.0.0.3")
    assert ask(other[1], {"type": "chat", "say": "bye"}, "said", "error")["type"] == "said"
