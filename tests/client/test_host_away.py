"""A guest at a table hosted in a player's game: while that game is out of reach the guest
is told whose game is away and until when the table waits; past that the table has ended
for the guest, with words, rather than a reconnection that never ends."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from serverhelp import crash, player

from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer
from briscola.client.kept import ended_text
from briscola.client.online import OnlineSession
from briscola.client.sentences import code_text
from briscola.engine import PlayerView, Rules, replay
from briscola.gui.scenes.replay import load_entries
from briscola.gui.table.banner import host_away_text
from briscola.server import ServerConfig, ServerThread
from briscola.server.embedded import EmbeddedHost
from briscola.storage.seats import HeldSeat, SeatStore
from briscola.storage.stats import Stats

FAST = {"rate": 10_000.0, "burst": 10_000, "ping_interval": None}


def _guest_at_a_hosted_table(tmp_path: Path) -> tuple[EmbeddedHost, HeadlessPlayer, OnlineSession]:
    """Anna hosts a two-player table from her game and plays at random; Bruno's game is
    seated (an online session), the match started."""
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
    joined = bruno.wait_for(lambda m: m["type"] == "joined")
    seats = SeatStore(tmp_path)
    seats.remember(HeldSeat(bruno.url, joined["table"], 1, joined["token"]))
    backlog = [joined]
    while backlog[-1]["type"] != "update":
        backlog.append(bruno.incoming.get(timeout=10))
    return host, anna, OnlineSession(bruno, seats, backlog)


def test_a_guest_is_told_the_host_s_game_is_away_then_that_the_table_has_ended(
    tmp_path: Path,
) -> None:
    host, anna, session = _guest_at_a_hosted_table(tmp_path)
    bruno, seats = session.client, session.held
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


def _play_tricks(anna: HeadlessPlayer, session: OnlineSession, tricks: int) -> None:
    """Both play until ``tricks`` tricks are done and Bruno is to play (nothing else can
    happen meanwhile)."""
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, session.view()
        anna.pump(0.01)
        session.advance(0.0, idle=True)
        legal = session.legal_actions()
        if legal and len(session.view().tricks) >= tricks:
            return
        if legal:
            session.submit(legal[0])


def _recent(home: Path) -> list[Path]:
    return sorted((home / "records" / "recent").glob("hand_*.json"))


def _crashed_mid_hand(home: Path, tricks: int) -> tuple[OnlineSession, PlayerView]:
    """Bruno's session once Anna's game died with ``tricks`` tricks played (its records in
    ``home``), and his view then."""
    host, anna, session = _guest_at_a_hosted_table(home)
    _play_tricks(anna, session, tricks)
    crash(host)
    anna.client.close(timeout=1)
    return session, session.view()


def test_a_guest_whose_host_never_comes_back_keeps_the_hand_and_counts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    session, played = _crashed_mid_hand(tmp_path, 3)
    session.host_away.wait = 0.5
    deadline = time.monotonic() + 10
    while (news := session.news()).ended is None:
        assert time.monotonic() < deadline, news
        time.sleep(0.02)
    assert news.ended == "host_gone" and session.hand_kept is not None
    assert _recent(tmp_path) == [session.hand_kept], "kept once, among the recent hands"
    doc = json.loads(session.hand_kept.read_text())
    again = replay(doc)
    assert [t.cards for t in again.tricks] == [t.cards for t in played.tricks]
    assert again.trick == [card for _, card in played.table]
    assert again.hands[1] == list(played.hand)
    meta = doc["meta"]
    assert meta["unfinished"] == "host_gone" and meta["seen_by"] == 1
    assert [p["name"] for p in meta["players"]] == ["Anna", "Bruno"]
    assert [entry.title for entry in load_entries(tmp_path / "records")] != []
    said = ended_text(news, session.hand_kept)
    assert said == (
        "The host's game (Anna) did not come back: the table has ended."
        " The hand so far is kept among your recent hands (Replay a game)."
    )
    assert not (tmp_path / "stats.json").exists(), "no hand is counted won or lost"
    assert Stats.load().empty
    session.close()
    assert _recent(tmp_path) == [session.hand_kept], "not kept twice"


def test_a_guest_who_gives_up_waiting_keeps_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path))
    session, _ = _crashed_mid_hand(tmp_path, 1)
    deadline = time.monotonic() + 10
    while session.news().connection != "host_away":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    question = session.leave_question()
    assert question.startswith("Leave the table? Anna's game is away: the hand so far is kept")
    session.close()
    assert session.hand_kept is not None and _recent(tmp_path) == [session.hand_kept]
    doc = json.loads(session.hand_kept.read_text())
    assert doc["meta"]["unfinished"] == "left" and len(replay(doc).tricks) >= 1
    assert session.held.saved() is not None, "the seat is still offered back meanwhile"
