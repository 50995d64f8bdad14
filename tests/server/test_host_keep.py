"""A host's own server keeps its tables on disk (briscola.server.keep): the host's game dies
mid-hand, starts again on the same folder and port, and the table comes back for the host
and the guest, whose client kept reconnecting."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from serverhelp import chooser, crash, player

from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import Rules
from briscola.server.embedded import EmbeddedHost
from briscola.server.keep import KEEP_FILE, TableKeep, kept_tables

FAST = {"rate": 10_000.0, "burst": 10_000, "ping_interval": None}


def hosted(folder: Path, port: int = 0) -> EmbeddedHost:
    host = EmbeddedHost(
        bind="127.0.0.1", port=port, announce=False, options=FAST, keep=folder, grace=30.0
    )
    host.start().ready.wait(20)
    assert host.error is None and host.server is not None
    return host


def test_a_host_whose_game_died_mid_hand_takes_the_table_back_and_the_hand_finishes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tables"
    first = hosted(folder)
    port = first.listening_port
    anna = player(first.url, "Anna", 0)
    bruno = player(first.url, "Bruno", 1)
    code = open_table(anna, Rules.preset("classic2"))
    bruno.client.join(code)
    bruno.client.ready()
    all_ready(anna)
    anna.client.start_game()
    play_all([anna, bruno], lambda p: p.moves >= 5)
    assert kept_tables(folder) == [code]
    token, deal = anna.client.token, anna.deal
    anna.choose = None  # her game dies: it plays no more
    crash(first)
    anna.client.kill()
    anna.client.close(timeout=2)
    bruno.run_until(lambda p: p.client.status == "reconnecting", 10)
    before = bruno.moves

    second = hosted(folder, port)
    try:
        assert second.listening_port == port  # the guests' games find it where it was
        client = NetClient(second.url, "Anna", backoff=0.05)
        client.table, client.seat, client.token = code, 0, token
        back = HeadlessPlayer(client.start(), chooser(2))
        back.run_until(lambda p: p.view is not None, 10)
        assert back.deal == deal and back.moves >= before  # the same hand, where it was
        play_all([back, bruno], lambda p: p.phase in ("between", "over"), timeout=60)
        assert bruno.deal == deal and bruno.closed is None
        assert bruno.client.reconnects >= 1
        back.client.close()
        bruno.client.close()
    finally:
        second.stop()
        second.ready.wait(5)
    # The host closed the table: it is erased, nothing comes back from it.
    for _ in range(100):
        if not kept_tables(folder):
            break
        time.sleep(0.05)
    assert kept_tables(folder) == []


def test_a_kept_table_that_is_damaged_is_left_out_and_nothing_else_is_lost(
    tmp_path: Path,
) -> None:
    keep = TableKeep(tmp_path)
    keep.write("AAAAAA", [("SET", "meta", '{"phase": "lobby"}')])
    keep.write("BBBBBB", [("SET", "meta", "{not json")])
    keep.write("AAAAAA", [("RPUSH", "moves", '{"a": 1}'), ("RPUSH", "moves", '{"a": 2}')])
    keep.write("AAAAAA", [("SET", "meta", '{"phase": "playing"}')])
    tables = keep.load()
    assert list(tables) == ["AAAAAA"]
    assert tables["AAAAAA"].meta == {"phase": "playing"}
    assert [m["a"] for m in tables["AAAAAA"].moves] == [1, 2]
    keep.erase("AAAAAA")
    assert keep.load() == {}
    keep.close()
    assert kept_tables(tmp_path / "nowhere") == []
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / KEEP_FILE).write_text("not a database")
    assert kept_tables(tmp_path / "broken") == []
    with sqlite3.connect(tmp_path / KEEP_FILE) as db:
        assert db.execute("SELECT COUNT(*) FROM keys").fetchone() == (1,)  # BBBBBB's


def test_a_table_left_longer_than_its_guests_wait_is_not_offered_again(tmp_path: Path) -> None:
    now = [1_000.0]
    keep = TableKeep(tmp_path, wait=300.0, clock=lambda: now[0])
    keep.write("AAAAAA", [("SET", "meta", '{"phase": "playing"}')])
    now[0] += 200.0
    keep.write("BBBBBB", [("SET", "meta", '{"phase": "playing"}')])
    now[0] += 150.0  # AAAAAA's last change 350 s ago, BBBBBB's 150 s ago
    assert kept_tables(tmp_path, wait=300.0, clock=lambda: now[0]) == ["BBBBBB"]
    keep.write("AAAAAA", [("RPUSH", "moves", '{"a": 1}')])  # a change keeps it fresh
    assert kept_tables(tmp_path, wait=300.0, clock=lambda: now[0]) == ["AAAAAA", "BBBBBB"]
    now[0] += 301.0
    assert keep.load() == {}  # both given up, and erased
    keep.close()
    with sqlite3.connect(tmp_path / KEEP_FILE) as db:
        assert db.execute("SELECT COUNT(*) FROM keys").fetchone() == (0,)


def test_a_file_kept_by_an_older_game_counts_its_tables_as_written_when_opened(
    tmp_path: Path,
) -> None:
    with sqlite3.connect(tmp_path / KEEP_FILE) as db:
        db.execute(
            "CREATE TABLE keys (n INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL,"
            " part TEXT NOT NULL, value TEXT NOT NULL)"
        )
        db.execute("INSERT INTO keys (code, part, value) VALUES ('AAAAAA', 'meta', '{}')")
    assert kept_tables(tmp_path) == ["AAAAAA"]  # no times yet: not taken for stale
    keep = TableKeep(tmp_path)
    assert list(keep.load()) == ["AAAAAA"]
    keep.close()
    assert kept_tables(tmp_path) == ["AAAAAA"]
