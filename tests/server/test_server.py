"""The network server end to end on 127.0.0.1: whole games by scripted clients, the waiting
room, reconnection, bot takeover, records, limits and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverhelp import hello, raw, replies
from websockets.exceptions import ConnectionClosed

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import PlayerView, Rules, read_records, replay
from briscola.game.driver import hand_actions
from briscola.protocol.wire import PROTOCOL
from briscola.server import ServerThread

DEADLINE = 60.0


@pytest.fixture
def server(make_server: Callable[..., ServerThread]) -> ServerThread:
    """A server with the default settings, stopped after the test."""
    return make_server()


def chooser(seed: int) -> Callable[[PlayerView], Any]:
    return make_bot("random", random.Random(seed)).choose


def player(url: str, name: str, seed: int, **options: Any) -> HeadlessPlayer:
    return HeadlessPlayer(NetClient(url, name, backoff=0.05, **options).start(), chooser(seed))


def seat_table(
    url: str, rules: Rules, people: int, seats: list[dict[str, Any]] | None = None
) -> list[HeadlessPlayer]:
    """A host and ``people - 1`` guests seated and ready; the host starts the game."""
    host = player(url, "Host", 0)
    open_table(host, rules, seats)
    code = host.table["table"]
    guests = []
    for i in range(1, people):
        guest = player(url, f"Guest {i}", i)
        guest.client.join(code)
        guest.client.ready()
        guests.append(guest)
    all_ready(host)
    host.client.start_game()
    return [host, *guests]


def play_out(players: list[HeadlessPlayer], done: Callable[[HeadlessPlayer], bool]) -> None:
    play_all(players, done, DEADLINE)


def in_background(p: HeadlessPlayer, done: Callable[[HeadlessPlayer], bool]) -> threading.Thread:
    """Run ``p`` until ``done`` in a thread (join it, then check ``p``)."""
    thread = threading.Thread(target=p.run_until, args=(done, DEADLINE), daemon=True)
    thread.start()
    return thread


def close_all(players: list[HeadlessPlayer]) -> None:
    for p in players:
        p.client.close()


def movers(doc: dict[str, Any]) -> dict[int, set[str]]:
    """Who made each seat's moves in a record (``meta.played_by``, in the order of play)."""
    out: dict[int, set[str]] = {}
    actions = hand_actions(replay(doc))
    assert len(actions) == len(doc["meta"]["played_by"])
    for (seat, _action), who in zip(actions, doc["meta"]["played_by"], strict=True):
        out.setdefault(seat, set()).add(who)
    return out


def records(server: ServerThread) -> list[dict[str, Any]]:
    folder = server.server.config.records
    assert folder is not None
    docs: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        docs.extend(read_records(path))
    return docs


# ---------------------------------------------------------------------------- whole games


def test_two_clients_play_a_whole_classic_match_and_the_server_keeps_every_hand_as_a_record(
    server: ServerThread,
) -> None:
    players = seat_table(server.url, Rules.preset("classic2", match="best-of-3"), 2)
    try:
        play_out(players, lambda p: p.match_over)
        for p in players:
            assert not p.errors, p.errors
        hands = max(players[0].hands_seen)
        assert hands >= 2  # best of three; a drawn hand counts for nobody
        assert max(players[0].last("update")["standing"]) == 2
        docs = records(server)
        assert len(docs) == hands
        for doc in docs:
            state = replay(doc)
            assert state.is_terminal()
            assert [p["name"] for p in doc["meta"]["players"]] == ["Host", "Guest 1"]
        assert players[0].last("update")["standing"] == players[1].last("update")["standing"]
    finally:
        close_all(players)


def test_five_clients_play_a_whole_chiamata_hand_with_auction_call_and_secret_partner(
    server: ServerThread,
) -> None:
    players = seat_table(server.url, Rules.preset("chiamata5"), 5)
    try:
        play_out(players, lambda p: p.match_over)
        final = [p.last("update") for p in players]
        assert all(update is not None and update["phase"] == "over" for update in final)
        for p in players:
            assert not p.errors, p.errors
            kinds = [e["event"] for m in p.frames if m["type"] == "update" for e in m["events"]]
            assert "called" in kinds and "hand_over" in kinds and "match_over" in kinds
        (doc,) = records(server)
        assert replay(doc).is_terminal() and doc["call"]["card"]
    finally:
        close_all(players)


@pytest.mark.parametrize("processes", [0, 1], ids=["bot-threads", "bot-processes"])
def test_a_table_with_bot_seats_plays_to_the_end_with_one_person(
    make_server: Callable[..., ServerThread], processes: int
) -> None:
    server = make_server(bot_threads=2, bot_processes=processes, bot_time=0.05)
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "easy", "name": " Bruno "},
        {"kind": "bot", "level": "hard"},
        {"kind": "bot"},
    ]
    (host,) = seat_table(server.url, Rules.preset("teams4"), 1, seats)
    try:
        host.run_until(lambda p: p.match_over, DEADLINE)
        assert host.table is not None
        assert [s["kind"] for s in host.table["seats"]] == ["human", "bot", "bot", "bot"]
        assert [s["name"] for s in host.table["seats"]][1:] == ["Bruno", "Hard 3", "Medium 4"]
        assert not host.errors
    finally:
        close_all([host])


# ---------------------------------------------------------------------------- waiting room


def test_the_waiting_room_shows_seats_names_and_ready_flags_and_only_the_host_starts(
    server: ServerThread,
) -> None:
    host = player(server.url, "Anna", 0)
    guest = player(server.url, "Bruno", 1)
    try:
        open_table(host, Rules.preset("classic3"), [{"kind": "human"}] * 3)
        code = host.table["table"]
        joined = host.last("joined")
        assert joined is not None and joined["host"] is True and len(joined["token"]) >= 24
        guest.client.join(code.lower())  # codes are read in any case
        guest.run_until(lambda p: p.last("joined") is not None, 10)
        guest.client.start_game()
        guest.run_until(lambda p: bool(p.errors), 10)
        assert guest.errors[-1]["code"] == "not_host"
        host.client.start_game()  # seat 2 still free, and Bruno is not ready
        host.run_until(lambda p: bool(p.errors), 10)
        assert host.errors[-1]["code"] == "not_ready"
        guest.client.ready()
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
        assert host.table is not None
        names = [s["name"] for s in host.table["seats"]]
        assert names == ["Anna", "Bruno", ""]
        assert "token" not in json.dumps(host.table)
        host.client.start_game(fill_bots=True)
        play_out([host, guest], lambda p: p.match_over)
        assert host.table["seats"][2]["kind"] == "bot"
    finally:
        close_all([host, guest])


def test_a_computer_with_the_name_a_person_sits_down_with_takes_another_name(
    server: ServerThread,
) -> None:
    host = player(server.url, "Anna", 0)
    guest = player(server.url, "bruno", 1)
    try:
        seats = [
            {"kind": "human"},
            {"kind": "bot", "level": "easy", "name": "Bruno"},
            {"kind": "human"},
            {"kind": "bot", "level": "easy", "name": "Carla"},
        ]
        open_table(host, Rules.preset("teams4"), seats)
        guest.client.join(host.table["table"])
        host.run_until(lambda p: p.table is not None and p.table["seats"][2]["claimed"], 10)
        assert host.table is not None
        names = [s["name"] for s in host.table["seats"]]
        assert names == ["Anna", "Dario", "bruno", "Carla"], "no two players of one name"
    finally:
        close_all([host, guest])


def test_joining_a_full_table_or_an_unknown_code_gets_a_clear_error(
    server: ServerThread,
) -> None:
    host = player(server.url, "Anna", 0)
    try:
        open_table(host, Rules.preset("classic2"))
        with raw(server.url) as one, raw(server.url) as two:
            hello(one)
            hello(two)
            one.send(json.dumps({"type": "join", "code": host.table["table"]}))
            assert replies(one, lambda m: m["type"] == "joined")["seat"] == 1
            two.send(json.dumps({"type": "join", "code": host.table["table"]}))
            assert replies(two, lambda m: m["type"] == "error")["code"] == "table_full"
            two.send(json.dumps({"type": "join", "code": "ZZZZZZ"}))
            error = replies(two, lambda m: m["type"] == "error")
            assert error["code"] == "no_table" and "ZZZZZZ" in error["message"]
    finally:
        close_all([host])


# ---------------------------------------------------------------------------- bad moves


def test_out_of_turn_and_illegal_moves_are_refused_and_change_nothing(
    server: ServerThread,
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    host = HeadlessPlayer(NetClient(server.url, "Anna").start())
    try:
        open_table(host, Rules.preset("classic2"), seats)
        with raw(server.url) as guest:
            hello(guest, "Bruno")
            guest.send(json.dumps({"type": "join", "code": host.table["table"]}))
            guest.send(json.dumps({"type": "ready"}))
            host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
            host.client.start_game()
            host.run_until(lambda p: p.view is not None, 10)
            seen = host.view
            assert seen is not None
            update = replies(guest, lambda m: m["type"] == "update")
            mover = seen.current_player
            # Whoever is not to move tries to; then the mover plays a card not in hand.
            if mover == 0:
                guest.send(json.dumps({"type": "act", "action": {"play": "AD"}}))
                assert replies(guest, lambda m: m["type"] == "error")["code"] == "not_your_turn"
                hand = {c.code for c in seen.hand}
                foreign = next(c for c in ("AD", "3D", "KS", "7B", "2C") if c not in hand)
                host.client.submit({"type": "act", "action": {"play": foreign}})
                host.run_until(lambda p: bool(p.errors), 10)
                assert host.errors[-1]["code"] == "illegal"
            else:
                host.client.submit({"type": "act", "action": {"play": "AD"}})
                host.run_until(lambda p: bool(p.errors), 10)
                assert host.errors[-1]["code"] == "not_your_turn"
                hand = set(update["view"]["hand"])
                foreign = next(c for c in ("AD", "3D", "KS", "7B", "2C") if c not in hand)
                guest.send(json.dumps({"type": "act", "action": {"play": foreign}}))
                assert replies(guest, lambda m: m["type"] == "error")["code"] == "illegal"
            for bad in ({"play": 3}, {"fly": "AD"}, "AD", None, {"bid": "X"}):
                host.client.submit({"type": "act", "action": bad})
            host.run_until(lambda p: len(p.errors) >= 6, 10)
            table = server.call(lambda: next(iter(server.server.tables.values())))
            assert table.moves == 0
            assert server.call(lambda: table.state.events[:]) == table.state.events
    finally:
        close_all([host])


# ---------------------------------------------------------------------------- dropped connections


def test_a_client_killed_mid_hand_reconnects_with_its_token_and_finishes_the_game(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(grace=30.0)
    players = seat_table(server.url, Rules.preset("classic2"), 2)
    host, guest = players
    try:
        other = in_background(host, lambda p: p.match_over)
        guest.run_until(lambda p: p.moves >= 7, DEADLINE)
        token = guest.client.token
        guest.client.kill()
        guest.run_until(lambda p: p.match_over, DEADLINE)
        other.join(DEADLINE)
        assert host.match_over and guest.client.reconnects >= 1
        assert guest.client.token == token
        resets = [m for m in guest.frames if m["type"] == "update" and m["reset"]]
        assert resets, "the returning client is sent the whole hand again"
        kinds = [s["replaced"] for s in host.table["seats"]] if host.table else []
        assert kinds == [False, False]
        (doc,) = records(server)
        assert movers(doc) == {0: {"human"}, 1: {"human"}}
    finally:
        close_all(players)


def test_a_client_that_never_returns_is_replaced_by_a_bot_and_the_game_ends(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(grace=0.3, takeover_level="random")
    players = seat_table(server.url, Rules.preset("classic2"), 2)
    host, guest = players
    try:
        other = in_background(host, lambda p: p.match_over)
        guest.run_until(lambda p: p.moves >= 4, DEADLINE)
        guest.client.reconnect = False
        guest.client.kill()
        guest.client.close()
        other.join(DEADLINE)
        assert host.match_over
        assert host.table is not None
        seat = host.table["seats"][1]
        assert seat["replaced"] is True and seat["connected"] is False
        (doc,) = records(server)
        assert replay(doc).is_terminal()
        assert movers(doc)[1] == {"human", "bot:random"}, "a computer took over seat 1"
    finally:
        close_all(players)


def test_the_replaced_player_gets_the_seat_back_with_the_token(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(grace=0.2, takeover_level="random", bot_delay=0.05)
    host = player(server.url, "Anna", 0)
    try:
        open_table(host, Rules.preset("classic2", match="first-to-3"))
        code = host.table["table"]
        with raw(server.url) as guest:
            hello(guest, "Bruno")
            guest.send(json.dumps({"type": "join", "code": code}))
            token = replies(guest, lambda m: m["type"] == "joined")["token"]
            guest.send(json.dumps({"type": "ready"}))
            host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
        host.client.start_game()
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["replaced"], DEADLINE)
        back = player(server.url, "Bruno", 5)
        back.client.submit({"type": "resume", "code": code, "token": token})
        back.run_until(lambda p: p.view is not None, 10)
        host.run_until(
            lambda p: p.table is not None and not p.table["seats"][1]["replaced"], DEADLINE
        )
        play_out([host, back], lambda p: p.match_over)
        assert back.acted > 0
    finally:
        close_all([host])


def test_an_embedded_host_quitting_tells_the_others_and_keeps_the_hand_as_a_record(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(embedded=True)
    host = HeadlessPlayer(NetClient(server.url, "Anna").start())  # never moves
    guest = player(server.url, "Bruno", 1)
    try:
        open_table(host, Rules.preset("classic2"))
        guest.client.join(host.table["table"])
        guest.client.ready()
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
        host.client.start_game()
        host.run_until(lambda p: p.view is not None, 10)
        host.client.leave()
        guest.run_until(lambda p: p.closed is not None, 10)
        assert guest.closed is not None and guest.closed["reason"] == "host_left"
        (doc,) = records(server)
        assert doc["meta"]["unfinished"] == "host_left" and doc["result"] is None
        replay(doc)
    finally:
        close_all([host, guest])


# ---------------------------------------------------------------------------- limits


def test_a_client_of_another_protocol_version_gets_a_clear_message(
    server: ServerThread,
) -> None:
    with raw(server.url) as ws:
        ws.send(json.dumps({"type": "hello", "protocol": "briscola-net/0", "name": "Old"}))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and reply["code"] == "version"
        assert PROTOCOL in reply["message"] and "briscola-net/0" in reply["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    with raw(server.url) as ws:
        assert hello(ws)["type"] == "welcome"


def test_bad_names_are_refused(server: ServerThread) -> None:
    for name in ("", "x" * 25, "a\nb", "<script>", "\u202eevil", 7):
        with raw(server.url) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "name": name}))
            reply = json.loads(ws.recv(timeout=10))
            assert reply["code"] == "bad_name", name
    with raw(server.url) as ws:
        assert hello(ws)["type"] == "welcome"
        for name in ("", "<script>", 7):
            seats = [{"kind": "human"}, {"kind": "bot", "name": name}]
            ws.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}, "seats": seats}))
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "error" and reply["code"] == "bad_name", name


def test_a_flood_of_messages_is_rate_limited_and_the_connection_then_recovers(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(rate=20.0, burst=5)
    with raw(server.url) as ws:
        hello(ws)
        for _ in range(30):
            ws.send(json.dumps({"type": "ready"}))
        codes = []
        deadline = time.monotonic() + 10
        while "rate_limited" not in codes and time.monotonic() < deadline:
            codes.append(json.loads(ws.recv(timeout=10))["code"])
        assert "rate_limited" in codes and "no_table" in codes
        # Once the bucket refills, messages are answered again.
        while True:
            assert time.monotonic() < deadline, "never answered again"
            ws.send(json.dumps({"type": "start"}))
            try:
                message = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if message.get("code") == "no_table" and "start" in message["message"]:
                break


def test_a_frame_over_the_size_cap_closes_that_connection_only(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(max_message=1024)
    with raw(server.url) as other:
        hello(other, "Other")
        with raw(server.url) as ws:
            hello(ws)
            ws.send(json.dumps({"type": "join", "code": "A" * 2000}))
            with pytest.raises(ConnectionClosed) as info:
                ws.recv(timeout=10)
            assert info.value.rcvd is not None and info.value.rcvd.code == 1009
        other.send(json.dumps({"type": "ready"}))
        assert json.loads(other.recv(timeout=10))["code"] == "no_table"


def test_failed_joins_are_limited_per_address(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(failed_joins=3, failed_join_window=600.0)
    host = player(server.url, "Anna", 0)
    try:
        open_table(host, Rules.preset("classic2"))
        code = host.table["table"]
        with raw(server.url) as ws:
            hello(ws)
            for wrong in ("AAAAAA", "BBBBBB", "CCCCCC"):
                ws.send(json.dumps({"type": "join", "code": wrong}))
                assert json.loads(ws.recv(timeout=10))["code"] == "no_table"
            ws.send(json.dumps({"type": "join", "code": code}))
            reply = json.loads(ws.recv(timeout=10))
            assert reply["code"] == "too_many_failed_joins" and "try again" in reply["message"]
            ws.send(json.dumps({"type": "resume", "code": code, "token": "guess"}))
            assert json.loads(ws.recv(timeout=10))["code"] == "too_many_failed_joins"
    finally:
        close_all([host])


def test_connections_beyond_the_limit_are_refused_before_the_handshake(
    make_server: Callable[..., ServerThread],
) -> None:
    from websockets.exceptions import InvalidStatus

    server = make_server(max_per_address=2)
    with raw(server.url) as one, raw(server.url) as two:
        hello(one)
        hello(two)
        with pytest.raises(InvalidStatus) as info:
            raw(server.url)
        assert info.value.response.status_code == 429


def test_tables_are_limited(make_server: Callable[..., ServerThread]) -> None:
    server = make_server(max_tables=1)
    with raw(server.url) as one, raw(server.url) as two:
        hello(one)
        hello(two)
        one.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}}))
        assert replies(one, lambda m: m["type"] == "joined")
        two.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}}))
        assert replies(two, lambda m: m["type"] == "error")["code"] == "server_full"


def test_a_connection_that_never_says_hello_is_closed(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(hello_timeout=0.3)
    with raw(server.url) as ws, pytest.raises(ConnectionClosed) as info:
        ws.recv(timeout=10)
    assert info.value.rcvd is not None and info.value.rcvd.reason == "no hello in time"


def test_secure_websockets_with_a_certificate(
    make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    import shutil
    import ssl

    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = make_server(ssl=context)
    assert server.url.startswith("wss://")
    client = NetClient(server.url, "Anna", cafile=str(cert)).start()
    try:
        client.wait_for(lambda m: m.get("status") == "connected", 10)
        client.create(Rules.preset("classic2"))
        assert client.wait_for(lambda m: m["type"] == "joined", 10)["seat"] == 0
    finally:
        client.close()


# ---------------------------------------------------------------------------- command line


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "briscola.server", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--port", "http"], "not a port number"),
        (["--port", "70000"], "a port is 0 to 65535"),
        (["--grace", "-1"], "positive number of seconds"),
        (["--cert", "c.pem"], "--cert and --key go together"),
        (["--cert", "missing.pem", "--key", "missing.key"], "cannot load"),
        (["--max-tables", "0"], "at least 1"),
        (["--announce", "here"], "needs an IP address"),
        (["--frobnicate"], "unrecognized arguments"),
    ],
)
def test_bad_command_line_flags_exit_2_with_a_message(args: list[str], says: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr


def test_the_command_line_server_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "briscola.server", "--port", "0", "--records", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("listening on ws://127.0.0.1:")
        url = line.split()[-1]
        with raw(url) as ws:
            assert hello(ws)["type"] == "welcome"
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_closing_an_embedded_server_tells_every_player_and_saves_the_hand(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(embedded=True)
    host = HeadlessPlayer(NetClient(server.url, "Anna", reconnect=False).start())
    guest = HeadlessPlayer(NetClient(server.url, "Bruno", reconnect=False).start())
    try:
        open_table(host, Rules.preset("teams4"), [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 2)
        guest.client.join(host.table["table"])
        guest.client.ready()
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
        host.client.start_game()
        guest.run_until(lambda p: p.view is not None, 10)
        server.stop("host_left", "the host closed the table")
        guest.run_until(lambda p: p.closed is not None, 10)
        assert guest.closed is not None and guest.closed["reason"] == "host_left"
        (doc,) = records(server)
        assert doc["meta"]["unfinished"] == "host_left"
    finally:
        close_all([host, guest])


def test_a_player_dropping_between_hands_keeps_the_table_for_the_grace_period(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(grace=30.0)
    players = seat_table(server.url, Rules.preset("classic2", match="best-of-3"), 2)
    for p in players:
        p.auto_next = False
    try:
        play_out(players, lambda p: p.phase == "between")
        for p in players:
            p.client.kill()
        play_out(players, lambda p: p.client.reconnects >= 1 and p.last("update") is not None)
        for p in players:
            p.auto_next = True
            p.client.next_hand()
        play_out(players, lambda p: p.match_over)
        assert all(not p.closed for p in players)
    finally:
        close_all(players)


def test_on_a_dedicated_server_a_player_who_leaves_is_replaced_at_once_and_the_game_ends(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(takeover_level="random")
    players = seat_table(server.url, Rules.preset("classic3"), 3)
    host, guest, third = players
    try:
        other = [in_background(p, lambda q: q.match_over) for p in (guest, third)]
        host.run_until(lambda p: p.moves >= 3, DEADLINE)
        host.client.leave()
        host.run_until(lambda p: p.last("left") is not None, 10)
        for thread in other:
            thread.join(DEADLINE)
        assert guest.match_over and third.match_over
        assert guest.table is not None and guest.table["seats"][0]["replaced"] is True
        (doc,) = records(server)
        assert "bot:random" in movers(doc)[0] and replay(doc).is_terminal()
    finally:
        close_all(players)


def test_a_player_who_lets_the_turn_clock_run_out_has_a_computer_move_for_them(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(turn_timeout=0.05, takeover_level="random")
    idle = HeadlessPlayer(NetClient(server.url, "Anna").start())  # never moves
    try:
        open_table(idle, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
        idle.client.start_game()
        idle.run_until(lambda p: p.match_over, DEADLINE)
        notices = [m for m in idle.frames if m["type"] == "notice"]
        assert len(notices) == 20 and notices[0]["code"] == "timed_out"
        assert idle.table is not None and idle.table["seats"][0]["replaced"] is False
        (doc,) = records(server)
        assert [p["kind"] for p in doc["meta"]["players"]] == ["human", "bot:medium"]
        assert movers(doc) == {0: {"bot:random"}, 1: {"bot:medium"}}, "a computer made each move"
    finally:
        close_all([idle])


def test_a_stopping_server_tells_connections_at_no_table_too(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    with raw(server.url) as lobby:
        hello(lobby, "Lia")
        server.stop()
        told = replies(lobby, lambda m: m["type"] == "closed")
        assert told["reason"] == "shutdown"


def test_a_seated_client_told_that_the_server_stops_gives_up_and_a_seatless_one_retries(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    seated = NetClient(server.url, "Mia", backoff=0.05, max_backoff=0.2).start()
    seatless = NetClient(server.url, "Lia", backoff=0.05, max_backoff=0.2).start()
    try:
        seated.create(Rules.preset("classic2"))
        seated.wait_for(lambda m: m["type"] == "joined", 10)
        seatless.wait_for(lambda m: m.get("status") == "connected", 10)
        server.stop()
        told = seated.wait_for(lambda m: m["type"] == "closed", 10)
        assert told["reason"] == "shutdown"
        seated.wait_for(lambda m: m.get("status") == "closed", 10)  # no reconnecting
        seatless.wait_for(lambda m: m["type"] == "closed", 10)
        seatless.wait_for(lambda m: m.get("status") == "reconnecting", 10)
    finally:
        seated.close()
        seatless.close()
