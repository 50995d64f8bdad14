"""The online flow without a window: host, join, the waiting room, take a seat back, leave,
each failure as its code; the sentences a player reads for every code."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverhelp import crash

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.flow import OnlineFlow, Stage
from briscola.client.headless import JoinFailed, join_table
from briscola.client.online import HostedSession, OnlineSession
from briscola.client.sentences import SENTENCES, code_text, connection_text
from briscola.engine import Rules
from briscola.protocol.errors import CloseReason, ErrorCode, NoticeCode
from briscola.server import ServerConfig, ServerThread
from briscola.server.embedded import EmbeddedHost
from briscola.storage.seats import HeldSeat, SeatStore

FAST = {"rate": 10_000.0, "burst": 10_000, "ping_interval": None}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    running = ServerThread(ServerConfig(host="127.0.0.1", port=0, **FAST)).start()  # type: ignore[arg-type]
    yield running
    running.stop()


def settle(flow: OnlineFlow, until: tuple[Stage, ...], seconds: float = 15.0) -> Stage:
    """Poll ``flow`` as a window would, once a frame, until it reaches a stage of ``until``."""
    deadline = time.monotonic() + seconds
    while (stage := flow.poll()) not in until:
        assert time.monotonic() < deadline, f"stuck in {stage} (problem {flow.problem})"
        time.sleep(0.01)
    return stage


def dario_s_table(url: str, rules: Rules | None = None) -> tuple[NetClient, str]:
    """Dario's client and the code of the table he opened on the server at ``url``, every
    seat open to a person (``rules``: one classic hand for two unless given)."""
    rules = rules or Rules.preset("classic2")
    host = NetClient(url, "Dario").start()
    host.create(rules, [{"kind": "human"}] * rules.players)
    return host, str(host.wait_for(lambda m: m["type"] == "joined")["table"])


def test_a_table_is_hosted_joined_readied_started_and_played_through_the_flow(
    tmp_path: Path,
) -> None:
    host = EmbeddedHost(bind="127.0.0.1", port=0, announce=False, records=tmp_path, options=FAST)
    anna = OnlineFlow("Anna", SeatStore(tmp_path / "anna"))
    anna.host(host, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    assert anna.stage == "opening" and anna.busy
    settle(anna, ("room",))
    assert anna.hosting and anna.is_host and len(anna.code) == 6
    bruno_seats = SeatStore(tmp_path / "bruno")
    bruno = OnlineFlow("Bruno", bruno_seats)
    bruno.join(host.url, anna.code)
    settle(bruno, ("room",))
    held = bruno_seats.saved()
    assert held is not None and held.code == anna.code and held.seat == 1, "a guest's seat is kept"
    assert SeatStore(tmp_path / "anna").saved() is None, "the host's table closes with the game"
    assert not bruno.is_host and not bruno.ready
    bruno.set_ready(True)
    deadline = time.monotonic() + 10
    while not (anna.table and anna.table["seats"][1].get("ready")):
        anna.poll()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    anna.start()
    settle(anna, ("playing",))
    settle(bruno, ("playing",))
    mine = anna.session(SeatStore(tmp_path / "anna"))
    theirs = bruno.session(bruno_seats)
    assert isinstance(mine, HostedSession) and type(theirs) is OnlineSession
    assert anna.stage == bruno.stage == "handed"
    assert mine.view().seat == 0 and theirs.view().seat == 1
    assert theirs.can_come_back and not mine.can_come_back
    theirs.close()  # a computer plays for Bruno; the seat stays his until the match ends
    assert bruno_seats.saved() is not None
    mine.close()  # the host leaves: the table and its server close
    assert host.ready.is_set() and host.server is None


def test_a_wrong_address_code_or_table_is_refused_with_its_code(
    server: ServerThread, tmp_path: Path
) -> None:
    flow = OnlineFlow("Anna")
    assert not flow.join_typed("", "K7MX2Q")
    assert flow.problem is not None and flow.problem.code is ErrorCode.BAD_ADDRESS
    assert not flow.join_typed("127.0.0.1:9", "12345")
    assert flow.problem is not None and flow.problem.code is ErrorCode.BAD_CODE
    assert flow.stage == "idle" and flow.client is None
    address = server.url.removeprefix("ws://")
    assert flow.join_typed(f" {address} ", "abc-234") and flow.typed_address == address
    assert settle(flow, ("failed",)) == "failed"
    assert flow.problem is not None and flow.problem.code is ErrorCode.NO_TABLE
    assert flow.client is None and flow.typed_address is None
    assert "no table with that code" in code_text(flow.problem.code, flow.problem.detail)
    nameless = OnlineFlow("  ")
    nameless.join(server.url, "ABCDEF")
    assert nameless.problem is not None and nameless.problem.code is ErrorCode.BAD_NAME
    held = HeldSeat(server.url, "ABCDEF", 1, "x" * 32)
    seats = SeatStore(tmp_path)
    seats.remember(held)
    OnlineFlow("  ", seats).take_back(held)
    assert seats.saved() == held, "a seat is not forgotten for a name the server refuses"
    # A failed join may be tried again: nobody answers at this address.
    flow.join("ws://127.0.0.1:9", "ABCDEF")
    settle(flow, ("failed",))
    assert flow.problem is not None and flow.problem.code is ErrorCode.UNREACHABLE


def test_a_seat_that_is_gone_is_forgotten_and_a_held_one_taken_back(
    server: ServerThread, tmp_path: Path
) -> None:
    seats = SeatStore(tmp_path)
    gone = HeldSeat(server.url, "ABCDEF", 1, "x" * 32)
    seats.remember(gone)
    flow = OnlineFlow("Anna", seats)
    flow.take_back(gone)
    settle(flow, ("failed",))
    assert flow.problem is not None and flow.problem.code is ErrorCode.NO_TABLE
    assert seats.saved() is None, "nothing to take back: the seat is forgotten"
    # A seat held at a game under way is taken back, and the game goes on at once.
    host, code = dario_s_table(server.url)
    first = OnlineFlow("Anna", seats)
    first.join(server.url, code)
    settle(first, ("room",))
    first.set_ready(True)
    host.wait_for(lambda m: m["type"] == "table" and bool(m["seats"][1].get("ready")))
    host.start_game()
    settle(first, ("playing",))
    session = first.session(seats)
    session.client.reconnect = False
    session.client.kill()  # the game dies: nothing leaves the table
    held = seats.saved()
    assert held is not None
    again = OnlineFlow("Anna", seats)
    again.take_back(held)
    settle(again, ("playing",))
    assert again.session(seats).view().seat == 1
    host.close()


def test_a_waiting_room_that_closes_leaves_no_seat_and_says_why(tmp_path: Path) -> None:
    running = ServerThread(ServerConfig(host="127.0.0.1", port=0, **FAST)).start()  # type: ignore[arg-type]
    seats = SeatStore(tmp_path)
    try:
        host, code = dario_s_table(running.url)
        flow = OnlineFlow("Anna", seats)
        flow.join(running.url, code)
        settle(flow, ("room",))
        assert seats.saved() is not None
        running.stop()
        settle(flow, ("closed",))
        assert flow.problem is not None and flow.problem.code is CloseReason.SHUTDOWN
        assert seats.saved() is None and flow.client is None
        host.close()
    finally:
        running.stop()


def test_a_host_whose_server_cannot_start_is_told_so() -> None:
    class Broken:
        ready = threading.Event()
        error: str | None = "address already in use"
        url = "ws://127.0.0.1:9"
        stopped = False

        def start(self) -> Broken:
            self.ready.set()
            return self

        def stop(self) -> None:
            self.stopped = True

    broken = Broken()
    flow = OnlineFlow("Anna")
    flow.host(broken, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
    assert flow.poll() == "failed" and broken.stopped
    assert flow.problem is not None and flow.problem.code is ErrorCode.HOST_FAILED
    assert "address already in use" in code_text(flow.problem.code, flow.problem.detail)


def test_leaving_the_waiting_room_gives_the_seat_up(server: ServerThread, tmp_path: Path) -> None:
    host, code = dario_s_table(server.url, Rules.preset("classic3"))
    seats = SeatStore(tmp_path)
    flow = OnlineFlow("Anna", seats)
    flow.join(server.url, code)
    settle(flow, ("room",))
    flow.leave()
    assert flow.stage == "left" and not flow.busy and seats.saved() is None
    host.wait_for(lambda m: m["type"] == "table" and not m["seats"][1].get("claimed"))
    host.close()


def test_a_script_is_seated_by_the_same_flow_and_plays_on(server: ServerThread) -> None:
    with pytest.raises(JoinFailed) as refused:
        join_table(server.url, "Bot", "ABCDEF")
    assert refused.value.problem.code is ErrorCode.NO_TABLE
    host, code = dario_s_table(server.url)
    bot = join_table(server.url, "Bot", code, make_bot("random", random.Random(1)).choose)
    assert bot.client.seat == 1 and bot.last("joined") is not None
    bot.client.ready()
    host.wait_for(lambda m: m["type"] == "table" and bool(m["seats"][1].get("ready")))
    host.start_game()
    bot.run_until(lambda p: p.view is not None, 10)
    bot.client.close()
    host.close()


def test_every_code_has_a_sentence_for_the_player() -> None:
    codes = {*ErrorCode, *CloseReason, *NoticeCode}
    assert set(SENTENCES) == codes
    for code in codes:
        text = code_text(code, "the server's words")
        assert text and text[0].isupper() and text.endswith((".", "words")), code
    assert code_text("newer_code", "what the server said") == (
        "The server refused: what the server said"
    )
    assert connection_text("connected") == ""
    assert connection_text("failed") == code_text(ErrorCode.UNREACHABLE)


def test_a_host_whose_game_died_opens_the_table_again_and_takes_the_seat_back(
    tmp_path: Path,
) -> None:
    tables, anna_seats = tmp_path / "tables", SeatStore(tmp_path / "anna")
    first = EmbeddedHost(bind="127.0.0.1", port=0, announce=False, options=FAST, keep=tables)
    anna = OnlineFlow("Anna", anna_seats)
    anna.host(first, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
    settle(anna, ("room",))
    held = anna_seats.saved()
    assert held is not None and held.hosted and held.code == anna.code, "the host's seat is kept"
    anna.start()
    settle(anna, ("playing",))
    port = first.listening_port
    crash(first)  # the game is killed mid-hand: no goodbye, the table not closed
    assert anna_seats.saved() == held

    again = OnlineFlow("Anna", anna_seats)
    second = EmbeddedHost(bind="127.0.0.1", port=port, announce=False, options=FAST, keep=tables)
    again.take_back(held, second)
    assert again.stage == "opening" and again.hosting
    settle(again, ("playing",))
    assert second.listening_port == port and again.code == held.code and again.seat == 0
    session = again.session(anna_seats)
    assert isinstance(session, HostedSession) and session.view().seat == 0
    session.close()  # the host leaves: the table closes, nothing is kept to come back
    assert anna_seats.saved() is None


def test_a_host_s_table_that_is_gone_is_not_taken_back_and_its_server_stops(
    tmp_path: Path,
) -> None:
    seats = SeatStore(tmp_path / "anna")
    held = HeldSeat("ws://127.0.0.1:9", "K7MX2Q", 0, "x" * 32, hosted=True)
    seats.remember(held)
    host = EmbeddedHost(bind="127.0.0.1", port=0, announce=False, options=FAST, keep=tmp_path)
    flow = OnlineFlow("Anna", seats)
    flow.take_back(held, host)
    assert settle(flow, ("failed",)) == "failed"
    assert flow.problem is not None and flow.problem.code is ErrorCode.NO_TABLE
    assert seats.saved() is None and not flow.hosting


def test_a_seat_whose_host_s_game_stayed_away_too_long_is_not_taken_back(tmp_path: Path) -> None:
    seats = SeatStore(tmp_path)
    held = HeldSeat("ws://127.0.0.1:9", "K7MX2Q", 1, "x" * 32, until=time.time() - 1)
    seats.remember(held)
    assert seats.saved() == held
    flow = OnlineFlow("Bruno", seats)
    flow.take_back(held)
    assert flow.stage == "failed" and flow.client is None
    assert flow.problem is not None and flow.problem.code is ErrorCode.HOST_GONE
    assert seats.saved() is None
