"""The servers added to Play online: kept in order, once each, atomically; a damaged file is
reported and kept aside."""

from __future__ import annotations

import json
from pathlib import Path

from briscola.storage.servers import MAX_SERVERS, SERVERS_FILE, ServerList


def test_added_servers_are_kept_in_order_once_each(tmp_path: Path) -> None:
    servers = ServerList(tmp_path)
    assert servers.all() == []
    assert servers.add(" tables.example.org ")
    assert servers.add("192.168.1.5:9000")
    assert not servers.add("tables.example.org")
    assert ServerList(tmp_path).all() == ["tables.example.org", "192.168.1.5:9000"]
    assert servers.remove("tables.example.org")
    assert not servers.remove("tables.example.org")
    assert ServerList(tmp_path).all() == ["192.168.1.5:9000"]
    assert servers.notice is None


def test_no_more_than_the_limit(tmp_path: Path) -> None:
    servers = ServerList(tmp_path)
    for n in range(MAX_SERVERS):
        assert servers.add(f"host{n}")
    assert not servers.add("one.too.many")
    assert len(servers.all()) == MAX_SERVERS


def test_a_damaged_file_is_reported_and_kept_aside(tmp_path: Path) -> None:
    (tmp_path / SERVERS_FILE).write_text("{not json", encoding="utf-8")
    servers = ServerList(tmp_path)
    assert servers.all() == []
    assert servers.notice is not None and "damaged" in servers.notice
    aside = [p for p in tmp_path.iterdir() if p.name != SERVERS_FILE]
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    assert servers.add("tables.example.org")
    assert ServerList(tmp_path).all() == ["tables.example.org"]


def test_entries_that_are_not_addresses_are_left_out(tmp_path: Path) -> None:
    data = {"version": 1, "servers": ["a.example", 7, None, "", "a.example", "b.example"]}
    (tmp_path / SERVERS_FILE).write_text(json.dumps(data), encoding="utf-8")
    assert ServerList(tmp_path).all() == ["a.example", "b.example"]
