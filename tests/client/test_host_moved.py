"""A host's game restarted while its old port is taken (another program holds it): the
table opens again on another port, announced on the local network, and the guest's game,
which looks there while the host's game is away, reconnects to it and plays on."""

from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path

from serverhelp import crash, player, port_taken
from test_net_lan import PRELUDE, run_in_namespace

from briscola.client.away import TableSearch
from briscola.client.connection import NetClient
from briscola.client.online import OnlineSession
from briscola.engine import Rules
from briscola.protocol.lan import LanTable
from briscola.server.embedded import EmbeddedHost
from briscola.storage.seats import HeldSeat, SeatStore

FAST = {"rate": 10_000.0, "burst": 10_000, "ping_interval": None}


@dataclass
class Found:
    """A look-out that finds what the test announces (no mDNS outside a namespace)."""

    tables: dict[str, LanTable] = field(default_factory=dict)
    started: int = 0
    closed: int = 0

    def start(self) -> Found:
        self.started += 1
        return self

    def in_play(self, code: str) -> LanTable | None:
        return self.tables.get(code)

    def close(self) -> None:
        self.closed += 1


def test_a_table_opened_again_on_another_port_is_found_and_the_guest_plays_on(
    tmp_path: Path,
) -> None:
    keep = tmp_path / "tables"
    first = EmbeddedHost(bind="127.0.0.1", port=0, announce=False, options=FAST, keep=keep)
    first.start().ready.wait(20)
    port = first.listening_port
    anna = player(first.url, "Anna", 0)
    anna.client.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    anna.run_until(lambda p: p.table is not None)
    assert anna.table is not None
    code = anna.table["table"]
    bruno = NetClient(first.url, "Bruno", backoff=0.05, max_backoff=0.2, open_timeout=1).start()
    bruno.join(code)
    bruno.ready()
    anna.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"])
    anna.client.start_game()
    joined = bruno.wait_for(lambda m: m["type"] == "joined")
    seats = SeatStore(tmp_path)
    seats.remember(HeldSeat(bruno.url, code, 1, joined["token"]))
    backlog = [joined]
    while backlog[-1]["type"] != "update":
        backlog.append(bruno.incoming.get(timeout=10))
    session = OnlineSession(bruno, seats, backlog)
    found = Found()
    session.search = TableSearch(lookout=lambda interfaces: found)
    anna.run_until(lambda p: p.view is not None)

    crash(first)
    with port_taken(port):
        again = EmbeddedHost(bind="127.0.0.1", port=port, announce=False, options=FAST, keep=keep)
        again.start().ready.wait(20)
        assert again.error is None and again.listening_port != port, "another port"
        assert again.server is not None and code in again.server.server.tables, "rebuilt"
        anna.client.url = again.url  # the host's own game takes its seat back there
        deadline = time.monotonic() + 10
        while session.news().connection != "host_away":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert bruno.url.endswith(f":{port}"), "nothing found yet: the old address"
        found.tables[code] = LanTable(
            f"Anna {code}", "127.0.0.1", again.listening_port, code, "classic2", 2, 0,
            "Anna", playing=True,
        )  # fmt: skip
        while (news := session.news()).connection != "":
            assert time.monotonic() < deadline, news
            time.sleep(0.02)
        assert bruno.url == again.url and bruno.status == "connected"
        kept = seats.saved()
        assert kept is not None and kept.url == again.url, "Back to your table goes there"
        assert found.closed == 1, "no more looking once the table is back"
        moves = anna.moves
        while anna.moves <= moves + 1:
            assert time.monotonic() < deadline + 10
            anna.pump(0.01)
            session.advance(0.0, idle=True)
            legal = session.legal_actions()
            if legal:
                session.submit(legal[0])
    session.close()
    anna.client.close()
    again.stop()


def test_nothing_is_looked_for_while_the_host_s_game_is_there() -> None:
    made: list[Found] = []

    def lookout(interfaces: list[str] | None) -> Found:
        made.append(Found())
        return made[-1]

    search = TableSearch(["127.0.0.1"], lookout=lookout)
    search.stop()
    assert made == [], "nothing started before a look"
    assert search.look("ABCDEF") is None and search.look("ABCDEF") is None
    assert len(made) == 1 and made[0].started == 1, "one look-out, started once"
    search.stop()
    assert made[0].closed == 1
    search.look("ABCDEF")
    assert len(made) == 2, "a later look starts again"


#: In a private network namespace: the host's game, killed mid-hand and started again while
#: its port is taken, announces the table in play on the new port; the guest's game finds
#: it there, and the join screen does not list it.
MOVED_SCRIPT = PRELUDE + textwrap.dedent(
    """
    import socket, sys
    sys.path.insert(0, "tests")
    from pathlib import Path
    from serverhelp import crash
    from briscola.client.away import TableSearch
    from briscola.client.connection import NetClient
    from briscola.engine import Rules
    from briscola.protocol.lan import TableBrowser
    from briscola.server.embedded import EmbeddedHost

    keep = Path(os.environ["KEEP"])
    lo = ["127.0.0.1"]
    first = EmbeddedHost(bind="127.0.0.1", port=0, interfaces=lo, keep=keep).start()
    until(first.ready.is_set, "the host never listened")
    port = first.listening_port
    anna = NetClient(first.url, "Anna").start()
    anna.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    code = anna.wait_for(lambda m: m["type"] == "joined", 10)["table"]
    anna.start_game()
    anna.wait_for(lambda m: m["type"] == "update", 10)
    crash(first)
    anna.close(timeout=1)
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    def bound():
        try:
            holder.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
    until(bound, "the old port is never free")
    holder.listen()
    again = EmbeddedHost(bind="127.0.0.1", port=port, interfaces=lo, keep=keep).start()
    until(again.ready.is_set, "the host never listened again")
    search = TableSearch(lo)
    until(lambda: search.look(code) is not None, "the table in play is not found")
    browser = TableBrowser(lo).start()
    until(lambda: browser.in_play(code) is not None, "the browser does not see it")
    print(json.dumps({"old": port, "new": again.listening_port, "url": again.url,
                      "found": search.look(code), "listed": len(browser.tables()),
                      "error": again.error, "announced": again.announcer is not None}))
    search.stop(); browser.close(); again.stop(); holder.close()
    """
)


def test_a_table_opened_again_on_another_port_is_announced_and_found(tmp_path: Path) -> None:
    found = run_in_namespace(MOVED_SCRIPT, {"KEEP": str(tmp_path / "tables")})
    assert found["error"] is None and found["announced"] is True
    assert found["new"] != found["old"] and found["found"] == found["url"]
    assert found["listed"] == 0, "a table in play is not offered to join"
