"""The client library: the background-thread client with its reconnection, and
RemoteSession playing a whole match through the table's session interface."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverhelp import session_at_the_deal

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, open_table
from briscola.client.session import RemoteSession
from briscola.engine import Event, GameState, HandOver, Played, Rules, view
from briscola.game.session import TableSession
from briscola.game.summary import HandSummary
from briscola.server import ServerConfig, ServerThread

DEADLINE = 60.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(
        port=0, records=tmp_path, rate=10_000.0, burst=10_000, ping_interval=None, grace=30.0
    )
    running = ServerThread(config).start()
    yield running
    running.stop()


def test_a_client_reports_its_connection_and_retries_until_the_server_is_back(
    tmp_path: Path,
) -> None:
    first = ServerThread(ServerConfig(port=0, ping_interval=None)).start()
    port = first.server.port
    client = NetClient(first.url, "Anna", backoff=0.05, max_backoff=0.2).start()
    try:
        client.wait_for(lambda m: m.get("status") == "connected", 10)
        first.stop()
        client.wait_for(lambda m: m.get("status") == "reconnecting", 10)
        second = ServerThread(ServerConfig(port=port, ping_interval=None)).start()
        try:
            client.wait_for(lambda m: m.get("status") == "connected", 20)
            assert client.reconnects >= 1
        finally:
            second.stop()
    finally:
        client.close()
    assert client.status == "closed"


def test_messages_submitted_before_the_connection_opens_are_sent_once_it_does(
    server: ServerThread,
) -> None:
    client = NetClient(server.url, "Anna")
    client.create(Rules.preset("classic2"))  # before start(): queued
    client.start()
    try:
        joined = client.wait_for(lambda m: m["type"] == "joined", 10)
        assert joined["seat"] == 0 and client.token == joined["token"]
    finally:
        client.close()


def test_a_wrong_address_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="ws://"):
        NetClient("http://127.0.0.1:1", "Anna")


def test_a_remote_session_plays_a_whole_match_through_the_table_interface(
    server: ServerThread,
) -> None:
    host = NetClient(server.url, "Anna").start()
    guest = HeadlessPlayer(
        NetClient(server.url, "Bruno").start(), make_bot("random", random.Random(2)).choose
    )
    try:
        host.create(Rules.preset("classic2", match="best-of-3"))
        joined = host.wait_for(lambda m: m["type"] == "joined", 10)
        guest.client.join(joined["table"])
        guest.client.ready()
        host.wait_for(lambda m: m["type"] == "table" and m["seats"][1]["ready"], 10)
        host.start_game()
        session = session_at_the_deal(host)
        table: TableSession = session  # the table cannot tell it from a local session
        table.start()
        assert table.shown_seat == 0 and table.plays_here(0) and not table.plays_here(1)
        assert [seat.kind for seat in table.seats] == ["human", "remote"]
        rng = random.Random(1)
        events: list[Event] = []
        summaries: list[HandSummary] = []
        deadline = time.monotonic() + DEADLINE
        while not summaries or not summaries[-1].match_over:
            assert time.monotonic() < deadline, "the match did not end"
            guest.pump()
            table.advance(0.016, idle=True)
            events.extend(table.new_events())
            seen = table.view()
            assert seen.seat == 0 and len(seen.hand) == seen.hand_sizes[0]
            if table.hand_over:
                summary = table.finish_hand()
                if summary is not None:
                    assert summary.record["format"] == "briscola-record/1"
                    summaries.append(summary)
                    if not summary.match_over:
                        table.next_hand()
                continue
            legal = table.legal_actions()
            if legal:
                assert table.to_play == 0 and table.thinking() is None
                assert table.submit(rng.choice(legal))
                assert not table.submit(legal[0]), "one move per turn"
                continue
            if not session.wait(0.05):
                guest.pump(0.05)
        # Best of three: two hands won (a drawn hand counts for nobody, so there may be more).
        assert len(summaries) >= 2 and max(summaries[-1].standing) == 2
        assert sum(isinstance(event, HandOver) for event in events) == len(summaries)
        assert session.banner() is None and session.take_errors() == []
        assert [s["connected"] for s in session.seat_states()] == [True, True]
    finally:
        host.close()
        guest.client.close()


def test_the_remote_session_shows_a_banner_while_reconnecting_and_plays_on_after(
    server: ServerThread,
) -> None:
    host = NetClient(server.url, "Anna", backoff=0.6).start()  # retries after 0.3-0.6 s
    try:
        host.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
        host.wait_for(lambda m: m["type"] == "joined", 10)
        host.start_game()
        session = session_at_the_deal(host)
        session.start()
        assert session.banner() is None
        host.kill()
        deadline = time.monotonic() + DEADLINE
        banners = set()
        events: list[Event] = []
        rng = random.Random(3)
        while session.finish_hand() is None:
            assert time.monotonic() < deadline, "the hand did not end"
            banner = session.banner()
            if banner is not None:
                banners.add(banner[0])
            session.advance(0.016, idle=True)
            events.extend(session.new_events())
            legal = session.legal_actions()
            if legal:
                session.submit(rng.choice(legal))
            else:
                session.wait(0.05)
        assert "reconnecting" in banners and session.banner() is None
        # The hand replayed on reconnection is not animated twice: each card once.
        played = [event.card for event in events if isinstance(event, Played)]
        assert len(played) == len(set(played)) == 40
        assert host.reconnects >= 1
    finally:
        host.close()


def test_a_leave_sent_just_before_closing_reaches_the_server(server: ServerThread) -> None:
    host = NetClient(server.url, "Anna").start()
    guest = NetClient(server.url, "Bruno").start()
    try:
        host.create(Rules.preset("classic3"))
        code = host.wait_for(lambda m: m["type"] == "joined", 10)["table"]
        guest.join(code)
        guest.wait_for(lambda m: m["type"] == "joined", 10)
        guest.leave()
        guest.close()
        seats = host.wait_for(lambda m: m["type"] == "table" and not m["seats"][1]["claimed"], 10)[
            "seats"
        ]
        assert seats[1]["name"] == "" and not seats[1]["away"]  # left, not dropped
    finally:
        host.close()


def test_the_server_and_the_client_library_never_import_pygame() -> None:
    import subprocess
    import sys

    code = (
        "import sys, briscola.server, tools.load, briscola.client.connection, "
        "briscola.client.session, briscola.protocol.lan, briscola.client.headless; "
        "print('pygame' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_client_that_cannot_reach_the_server_says_so() -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = NetClient(f"ws://127.0.0.1:{port}", "Anna", reconnect=False).start()
    try:
        failed = client.wait_for(lambda m: m.get("status") == "failed", 20)
        assert "cannot reach the server" in failed["detail"]
    finally:
        client.close()


def test_a_person_away_at_their_turn_is_not_shown_thinking_but_their_stand_in_is() -> None:
    client = NetClient("ws://127.0.0.1:9", "Anna", reconnect=False)  # never started
    client.table, client.seat = "ABCDEF", 0
    state = GameState.new(Rules.preset("classic2"), random.Random(4))
    if state.current_player == 0:
        state.apply(state.legal_actions()[0])  # Bruno (seat 1) to play
    update = {
        "type": "update", "view": view(state, 0).to_json(), "deal": 1, "hand": 1,
        "moves": len(state.tricks), "events": [], "standing": [0, 0], "phase": "playing",
    }  # fmt: skip

    def seats(connected: bool, replaced: bool) -> dict[str, Any]:
        return {
            "type": "table",
            "seats": [
                {"seat": 0, "name": "Anna", "kind": "human", "connected": True},
                {"seat": 1, "name": "Bruno", "kind": "human", "connected": connected,
                 "replaced": replaced},
            ],
        }  # fmt: skip

    session = RemoteSession(client, [seats(True, False), update])
    assert session.to_play == 1 and session.thinking() is not None
    session.table = seats(False, False)  # Bruno lost the connection: the table waits
    assert session.thinking() is None
    session.table = seats(False, True)  # a computer plays for him meanwhile
    assert session.thinking() is not None


def _play_until(session: RemoteSession, host: HeadlessPlayer, done: Any, what: str) -> None:
    """Play the session's seat at random (the host plays its own) until ``done()``."""
    rng = random.Random(5)
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, what
        host.pump()
        session.advance(0.016, idle=True)
        session.new_events()
        legal = session.legal_actions()
        if legal:
            session.submit(rng.choice(legal))
        elif not session.wait(0.05):
            host.pump(0.05)


def test_a_guest_who_asks_for_the_next_hand_or_a_rematch_is_told_whom_the_table_waits_for(
    server: ServerThread,
) -> None:
    host = HeadlessPlayer(
        NetClient(server.url, "Anna").start(),
        make_bot("random", random.Random(2)).choose,
        auto_next=False,
    )
    guest = NetClient(server.url, "Bruno").start()
    try:
        code = open_table(host, Rules.preset("classic2", match="best-of-3"))
        guest.join(code)
        guest.ready()
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"])
        host.client.start_game()
        session = session_at_the_deal(guest)
        session.start()
        assert session.news().waiting == ()
        _play_until(session, host, lambda: session.finish_hand() is not None, "no hand end")
        assert session.news().waiting == ()  # nothing asked yet: the score screen shows
        session.next_hand()
        _play_until(session, host, lambda: session.news().waiting == ("Anna",), "not told")
        # The host sees who asked for the next hand.
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["next"] is True)
        assert host.table is not None and host.table["seats"][0]["next"] is False
        host.client.next_hand()
        _play_until(session, host, lambda: session.phase == "playing", "no second hand")
        assert session.news().waiting == ()
        while True:  # hand after hand until the match is over
            _play_until(session, host, lambda: session.finish_hand() is not None, "no end")
            summary = session.finish_hand()
            assert summary is not None
            if summary.match_over:
                break
            session.next_hand()
            host.client.next_hand()
            _play_until(session, host, lambda: session.phase == "playing", "no next hand")
        session.rematch()  # a guest asks; the host starts it
        _play_until(session, host, lambda: session.news().waiting_host == "Anna", "not told")
        assert not session.hand_over
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["next"] is True)
        host.client.start_game()
        _play_until(session, host, lambda: session.phase == "playing", "no rematch")
        assert session.news().waiting_host == "" and session.hand_number == 1
        assert session.take_errors() == []
    finally:
        host.client.close()
        guest.close()


def test_the_host_who_starts_a_rematch_is_not_told_to_wait_for_themselves() -> None:
    client = NetClient("ws://127.0.0.1:9", "Anna", reconnect=False)  # never started
    client.table, client.seat = "ABCDEF", 0
    state = GameState.new(Rules.preset("classic2"), random.Random(4))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    update = {
        "type": "update", "view": view(state, 0).to_json(), "deal": 1, "hand": 1,
        "moves": 40, "events": [], "standing": [0, 0], "phase": "over",
    }  # fmt: skip
    for host, told in ((0, ""), (1, "Bruno")):
        table = {
            "type": "table", "host": host,
            "seats": [{"seat": 0, "name": "Anna", "kind": "human", "connected": True},
                      {"seat": 1, "name": "Bruno", "kind": "human", "connected": True}],
        }  # fmt: skip
        session = RemoteSession(client, [table, update])
        session.rematch()
        assert session.news().waiting_host == told
        assert not session.hand_over


def test_after_a_reset_at_the_position_it_answered_the_session_sends_its_move_again() -> None:
    """docs/network-protocol.md, "After a reset": the move's process died with it, so the
    session sends it again (the player sees nothing); the ``stale`` answer to a move sent
    again that did arrive is not shown; a reset at a later position sends nothing."""
    client = NetClient("ws://127.0.0.1:9", "Anna", reconnect=False)  # never started
    client.table, client.seat = "ABCDEF", 0
    sent: list[tuple[Any, int | None]] = []
    client.act = lambda action, moves=None: sent.append((action, moves))  # type: ignore[method-assign]
    state = GameState.new(Rules.preset("classic2"), random.Random(4))
    moves = 0
    if state.current_player != 0:
        state.apply(state.legal_actions()[0])  # Anna (seat 0) to play
        moves = 1

    def update(reset: bool, at: GameState, count: int) -> dict[str, Any]:
        return {
            "type": "update", "view": view(at, 0).to_json(), "deal": 1, "hand": 1,
            "moves": count, "events": [], "standing": [0, 0], "phase": "playing",
            "reset": reset,
        }  # fmt: skip

    session = RemoteSession(client, [update(False, state, moves)])
    action = session.legal_actions()[1]
    assert session.submit(action) and sent == [(action, moves)]
    client.incoming.put(update(True, state, moves))  # the new owner: the same position
    session.advance(0.016, idle=True)
    assert sent == [(action, moves), (action, moves)]
    assert session.legal_actions() == []  # the move is on its way again
    client.incoming.put({"type": "error", "code": "stale", "message": "old", "ref": "act"})
    session.advance(0.016, idle=True)
    assert session.take_errors() == []  # the first one did arrive: not the player's concern
    state.apply(action)
    client.incoming.put(update(True, state, moves + 1))  # played: a later position
    session.advance(0.016, idle=True)
    assert len(sent) == 2


def test_after_a_reset_between_hands_the_session_asks_for_the_next_hand_again() -> None:
    """docs/network-protocol.md, "After a reset": the table may have moved before it heard
    this player's ``next``, so the session sends it again; the ``wrong_phase`` that answers
    it when the others' ``next`` dealt the hand first is not shown to the player."""
    client = NetClient("ws://127.0.0.1:9", "Anna", reconnect=False)  # never started
    client.table, client.seat = "ABCDEF", 0
    asked: list[str] = []
    client.next_hand = lambda: asked.append("next")  # type: ignore[method-assign]
    state = GameState.new(Rules.preset("classic2", match="best-of-3"), random.Random(4))
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])

    def update(reset: bool) -> dict[str, Any]:
        return {
            "type": "update", "view": view(state, 0).to_json(), "deal": 1, "hand": 1,
            "moves": 40, "events": [], "standing": [1, 0], "phase": "between", "reset": reset,
        }  # fmt: skip

    session = RemoteSession(client, [update(False)])
    client.incoming.put(update(True))  # a reset before the player asked: nothing to repeat
    session.advance(0.016, idle=True)
    assert asked == []
    session.next_hand()
    assert asked == ["next"]
    client.incoming.put(update(True))  # the table moved: maybe it never heard it
    session.advance(0.016, idle=True)
    assert asked == ["next", "next"]
    client.incoming.put({"type": "error", "code": "wrong_phase", "message": "dealt", "ref": "next"})
    session.advance(0.016, idle=True)
    assert session.take_errors() == []  # the first one was heard: the hand was dealt
    client.incoming.put({"type": "error", "code": "wrong_phase", "message": "again", "ref": "next"})
    session.advance(0.016, idle=True)
    assert [e["message"] for e in session.take_errors()] == ["again"]  # any other is shown
