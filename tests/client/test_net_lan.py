"""Tables announced on the local network (by a server, and by the game's own host) are found
by the browser (mDNS), inside a private network namespace so that nothing is ever announced
on a real interface."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: What both scripts begin with: ``until(check, what)`` waits for a condition.
PRELUDE = textwrap.dedent(
    """
    import asyncio, json, os, time

    def until(check, what, timeout=30):
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise SystemExit("timed out: " + what)
            time.sleep(0.05)
    """
)

SCRIPT = PRELUDE + textwrap.dedent(
    """
    from briscola.engine import Rules
    from briscola.client.connection import NetClient
    from briscola.protocol.lan import TableAnnouncer, TableBrowser
    from briscola.server import ServerConfig, ServerThread

    server = ServerThread(ServerConfig(port=0, ping_interval=None)).start()
    announcer = TableAnnouncer(server.server, "127.0.0.1", ["127.0.0.1"], interval=0.2)
    asyncio.run_coroutine_threadsafe(announcer.start(), server.loop).result(10)
    host = NetClient(server.url, "Anna").start()
    host.create(Rules.preset("classic2"))
    code = host.wait_for(lambda m: m["type"] == "joined", 10)["table"]
    browser = TableBrowser(["127.0.0.1"]).start()
    until(lambda: browser.tables(), "no table found")
    found = browser.tables()[0]
    guest = NetClient(found.url, "Bruno").start()
    guest.join(found.code)
    seat = guest.wait_for(lambda m: m["type"] == "joined", 10)["seat"]
    # A full waiting room is no longer announced.
    until(lambda: not browser.tables(), "the full table is still listed")
    print(json.dumps({"code": code, "found": found.code, "url": found.url, "host": found.host,
                      "preset": found.preset, "players": found.players, "seat": seat,
                      "compatible": found.compatible, "server": server.url}))
    browser.close()
    asyncio.run_coroutine_threadsafe(announcer.stop(), server.loop).result(10)
    host.close(); guest.close(); server.stop()
    """
)

NETNS = (
    "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && "
    '"$PYTHON" -c "$SCRIPT"'
)


def namespace_available() -> str | None:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare and ip are needed for a private network namespace"
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        return "cannot create a network namespace here (needs root or user namespaces)"
    return None


HOST_SCRIPT = PRELUDE + textwrap.dedent(
    """
    os.environ["BRISCOLA_MDNS_INTERFACES"] = "127.0.0.1"
    from briscola.engine import Rules
    from briscola.server.embedded import EmbeddedHost
    from briscola.client.connection import NetClient
    from briscola.protocol.lan import TableBrowser

    browser = TableBrowser(["127.0.0.1"]).start()
    # Closed at once, while it is still being announced: nothing stays on the network.
    EmbeddedHost(bind="127.0.0.1", port=0, interfaces=["127.0.0.1"]).start().stop()
    host = EmbeddedHost(bind="127.0.0.1", port=0, interfaces=["127.0.0.1"]).start()
    until(lambda: host.ready.is_set(), "the host never listened")
    anna = NetClient(host.url, "Anna").start()
    anna.create(Rules.preset("classic3"))
    code = anna.wait_for(lambda m: m["type"] == "joined", 10)["table"]
    until(lambda: [t.code for t in browser.tables()] == [code], "the table is not listed")
    found = browser.tables()[0]
    anna.close()
    host.stop()
    until(lambda: not browser.tables(), "the closed table is still listed")
    browser.close()
    print(json.dumps({"code": code, "found": found.code, "free": found.free}))
    """
)


def run_in_namespace(script: str, more: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``script`` in a private network namespace (``more`` in its environment); its last
    line of output, as JSON."""
    reason = namespace_available()
    if reason is not None:
        where = " (under CI: the runner lacks CAP_SYS_ADMIN)" if os.environ.get("CI") else ""
        pytest.skip(reason + where)
    env = dict(os.environ, PYTHON=sys.executable, SCRIPT=script, PYTHONPATH=str(ROOT))
    env.update(more or {})
    result = subprocess.run(
        ["unshare", "-n", "sh", "-c", NETNS],
        capture_output=True, text=True, timeout=120, env=env, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_a_table_hosted_from_the_game_is_listed_while_open_and_gone_once_closed() -> None:
    found = run_in_namespace(HOST_SCRIPT)
    assert found["found"] == found["code"] and found["free"] == 2


def test_a_waiting_room_is_found_on_the_local_network_and_joined_by_its_code() -> None:
    found = run_in_namespace(SCRIPT)
    assert found["found"] == found["code"]
    assert found["url"] == found["server"]
    assert (found["host"], found["preset"], found["players"]) == ("Anna", "classic2", 2)
    assert found["seat"] == 1 and found["compatible"] is True
