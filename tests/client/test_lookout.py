"""The background look for tables on the local network (:mod:`briscola.client.lookout`),
with a stand-in for zeroconf's browser: what it lists, a page gone before it has started,
and a network it cannot look on."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import ClassVar

import pytest

from briscola.client import lookout
from briscola.client.lookout import LanLookout
from briscola.protocol.lan import LanTable

TABLE = LanTable("a", "127.0.0.1", 9000, "ABCDEF", "classic2", 2, 1, "Dario")


class _Browser:
    started: ClassVar[threading.Event] = threading.Event()
    release: ClassVar[threading.Event] = threading.Event()
    fail: ClassVar[bool] = False
    made: ClassVar[list[_Browser]] = []

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self.interfaces = interfaces
        self.closed = threading.Event()
        _Browser.made.append(self)

    def start(self) -> _Browser:
        _Browser.started.set()
        _Browser.release.wait(10)
        if _Browser.fail:
            raise OSError("no multicast here")
        return self

    def tables(self) -> list[LanTable]:
        return [TABLE]

    def close(self) -> None:
        self.closed.set()


@pytest.fixture(autouse=True)
def fake_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    _Browser.started = threading.Event()
    _Browser.release = threading.Event()
    _Browser.fail = False
    _Browser.made = []
    monkeypatch.setattr(lookout, "TableBrowser", _Browser)


def _wait(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("never happened")


def test_nothing_is_listed_until_the_browser_runs_then_its_tables_are() -> None:
    seen = LanLookout(["127.0.0.1"]).start()
    assert _Browser.started.wait(5)
    assert seen.tables() == []
    _Browser.release.set()
    _wait(lambda: seen.tables() == [TABLE])
    assert _Browser.made[0].interfaces == ["127.0.0.1"]
    seen.close()
    assert _Browser.made[0].closed.wait(5)
    assert seen.tables() == []


def test_a_page_gone_before_the_browser_started_still_closes_it() -> None:
    seen = LanLookout(None).start()
    assert _Browser.started.wait(5)
    seen.close()
    _Browser.release.set()
    assert _Browser.made[0].closed.wait(5)
    assert seen.tables() == []


def test_a_network_it_cannot_look_on_lists_nothing_and_raises_nothing() -> None:
    _Browser.fail = True
    _Browser.release.set()
    seen = LanLookout(None).start()
    _wait(lambda: not any(t.name == "briscola-browse" for t in threading.enumerate()))
    assert seen.tables() == []
    seen.close()
    assert not _Browser.made[0].closed.is_set()  # it never ran: nothing to close
