"""A guest at a table hosted in a player's game: while that game is out of reach the guest
is told whose game is away and until when the table waits; past that the table has ended
for the guest, with words, rather than a reconnection that never ends."""

from __future__ import annotations

import time
from pathlib import Path

from serverhelp import crash, player

from briscola.client.connection import NetClient
from briscola.client.online import OnlineSession
from briscola.client.sentences import code_text
from briscola.engine import Rules
from briscola.gui.table.banner import host_away_text
from briscola.server import ServerConfig, ServerThread
from briscola.server.embedded import EmbeddedHost
from briscola.storage.seats import HeldSeat, SeatStore

FAST = {"rate": 10_000.0, "burst": 10_000, "ping_interval": None}


def test_a_guest_is_told_the_host_s_game_is_away_then_that_the_table_has_ended(
    tmp_path: Path,
) -> None:
    host = EmbeddedHost(bind="127.0.0.1", port=0, announce=False, options=FAST)
    host.start().ready.wait(20)
    anna = player(host.url, "Anna", 0)
    anna.client.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    anna.run_until(lambda p: p.table is not None)
    assert anna.table is not None
    bruno = NetClient(host.url, "Bruno", backoff=0.05, max_backoff=0.2).start()
    bruno.join(anna.table["table"])
    bruno.ready()
    anna.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"])
    anna.client.start_game()
    seats = SeatStore(tmp_path)
    joined = bruno.wait_for(lambda m: m["type"] == "joined")
    seats.remember(HeldSeat(bruno.url, joined["table"], 1, joined["token"]))
    backlog = [joined]
    while backlog[-1]["type"] != "update":
        backlog.append(bruno.incoming.get(timeout=10))
    session = OnlineSession(bruno, seats, backlog)
    assert bruno.hosted, "the host's server says it runs in a player's game"
    assert session.news().connection == ""
    session.host_away.wait = 1.0
    crash(host)
    anna.client.close(timeout=1)
    deadline = time.monotonic() + 10
    while (news := session.news()).connection != "host_away":
        assert time.monotonic() < deadline, news
        time.sleep(0.02)
    assert news.detail == "Anna" and news.back_by is not None
    assert abs(news.back_by - (time.time() + 1.0)) < 1.0
    kept = seats.saved()
    assert kept is not None and kept.until == news.back_by, "kept until the table may be back"
    assert not kept.gone(time.time()) and kept.gone(news.back_by + 1)
    text = host_away_text(news.detail, news.back_by)
    assert "Anna" in text and time.strftime("%H:%M", time.localtime(news.back_by)) in text
    while (news := session.news()).ended is None:
        assert time.monotonic() < deadline, news
        time.sleep(0.02)
    assert news.ended == "host_gone"
    said = code_text(news.ended, news.ended_message)
    assert said == "The host's game (Anna) did not come back: the table has ended."
    assert not session.can_come_back
    session.close()
    assert seats.saved() is None, "a table given up is not offered back"
    bruno.close(timeout=2)
    assert bruno.status == "closed"


def test_a_dedicated_server_is_not_a_host_s_game_and_is_waited_for() -> None:
    running = ServerThread(ServerConfig(host="127.0.0.1", port=0, **FAST)).start()  # type: ignore[arg-type]
    client = NetClient(running.url, "Anna").start()
    try:
        client.wait_for(lambda m: m.get("status") == "connected")
        assert not client.hosted
    finally:
        client.close()
        running.stop()
