"""One greedy address cannot lock the others out (issue 46, finding 1), through the HAProxy
configuration docs/server.md shows (``tools.haproxy``) and against a server alone.

Through the proxy: thousands of idle sockets opened from 127.0.0.2 (more than its
``maxconn`` once did fill) leave it at most its per-address share open at once, a player on
127.0.0.3 connects and plays within a second meanwhile, and the share still open is closed
by ``timeout http-request``, as are slowloris sockets trickling a request's headers from
127.0.0.4. A server alone accepts every socket and closes one that has not finished its
WebSocket handshake within its hello deadline (``open_timeout``): the player is served the
same, and idle and slowloris sockets are closed by that deadline. Loopback addresses only;
every loop is bounded in count and in time."""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from redishelp import HAProxy
from serverhelp import hello, raw, replies

from briscola.server import ServerThread
from tools.haproxy import PER_ADDRESS, haproxy_config

#: Idle sockets opened through the proxy: more than its maxconn (8000), as in the finding.
THROUGH_PROXY = 8300
#: Against the server alone (its end of each socket is in this test's process too).
ALONE = 2000
#: The proxy's ``timeout http-request``, and the hello deadline the server alone is given.
REQUEST_TIMEOUT = 5.0
SLOWLORIS = 60


@pytest.fixture(autouse=True)
def descriptors() -> Iterator[int]:
    """As many file descriptors as this process may have (the idle sockets need them)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    yield wanted
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def open_idle(port: int, source: str, count: int, seconds: float) -> list[socket.socket]:
    """Up to ``count`` TCP connections from ``source`` that send nothing (``seconds`` at most)."""
    opened: list[socket.socket] = []
    deadline = time.monotonic() + seconds
    while len(opened) < count and time.monotonic() < deadline:
        sock = socket.socket()
        sock.settimeout(1.0)
        try:
            sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        opened.append(sock)
    return opened


def still_open(sock: socket.socket) -> bool:
    """The peer has not closed it (what it sent before closing, a 408, is read and dropped)."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def open_after(socks: list[socket.socket], most: int, seconds: float) -> int:
    """How many of ``socks`` are still open once at most ``most`` are (or ``seconds`` on)."""
    deadline = time.monotonic() + seconds
    while True:
        count = sum(still_open(sock) for sock in socks)
        if count <= most or time.monotonic() > deadline:
            return count
        time.sleep(0.2)


def slowloris(port: int, seconds: float) -> tuple[int, float]:
    """Sockets from 127.0.0.4 that send a request's headers one line a second: how many are
    open after ``seconds``, and how long it took until none was."""
    socks = open_idle(port, "127.0.0.4", SLOWLORIS, 10)
    assert len(socks) == SLOWLORIS
    began = time.monotonic()
    try:
        for sock in socks:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: briscola\r\n")
        line = 0
        while time.monotonic() - began < seconds:
            if not any(still_open(sock) for sock in socks):
                return 0, time.monotonic() - began
            line += 1
            for sock in socks:
                with contextlib.suppress(OSError):
                    sock.setblocking(True)
                    sock.sendall(f"X-Slow-{line}: {'a' * 20}\r\n".encode())
            time.sleep(1.0)  # the attacker's pace, not a wait for the code under test
        return sum(still_open(sock) for sock in socks), time.monotonic() - began
    finally:
        for sock in socks:
            sock.close()


def plays_within(url: str, seconds: float) -> float:
    """A player on 127.0.0.3 connects, opens a table against a computer and moves: the time."""
    began = time.monotonic()
    with raw(url, source_address=("127.0.0.3", 0)) as ws:
        assert hello(ws, "Neighbour")["type"] == "welcome"
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        ws.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}, "seats": seats}))
        replies(ws, lambda m: m["type"] == "joined")
        ws.send(json.dumps({"type": "start"}))
        update = replies(ws, lambda m: m["type"] == "update" and m["view"]["legal"])
        ws.send(
            json.dumps(
                {"type": "act", "action": update["view"]["legal"][0], "moves": update["moves"]}
            )
        )
        replies(ws, lambda m: m["type"] == "update" and m["moves"] > update["moves"])
    return time.monotonic() - began


def test_thousands_of_idle_sockets_from_one_address_do_not_lock_out_a_neighbour_behind_haproxy(
    make_server: Callable[..., ServerThread], tmp_path: Path, descriptors: int
) -> None:
    server = make_server(trusted_proxies=("127.0.0.1",))
    proxy = HAProxy(tmp_path, [server.server.port]).start()
    count = min(THROUGH_PROXY, descriptors - 2000)
    idle = open_idle(proxy.port, "127.0.0.2", count, 30)
    try:
        assert len(idle) >= min(count, 3000), f"only {len(idle)} sockets opened"
        took = plays_within(proxy.url, 1.0)
        assert took < 1.0, f"the neighbour played after {took:.2f} s"
        # The proxy holds no more than the address's share of them ...
        held = open_after(idle, PER_ADDRESS, 3.0)
        assert held <= PER_ADDRESS, f"{held} idle sockets of one address held"
        # ... and closes those once the request's time is up.
        assert open_after(idle, 0, REQUEST_TIMEOUT + 5.0) == 0
        left, after = slowloris(proxy.port, REQUEST_TIMEOUT + 6.0)
        assert left == 0 and after < REQUEST_TIMEOUT + 3.0, (left, after)
        print(f"{len(idle)} idle sockets, neighbour played in {took * 1000:.0f} ms,"
              f" {held} held, slowloris closed in {after:.1f} s")  # fmt: skip
    finally:
        for sock in idle:
            sock.close()
        proxy.stop()


def test_a_server_alone_closes_idle_and_slowloris_sockets_and_serves_a_neighbour_meanwhile(
    make_server: Callable[..., ServerThread], descriptors: int
) -> None:
    server = make_server(hello_timeout=REQUEST_TIMEOUT)
    count = min(ALONE, (descriptors - 2000) // 2)
    idle = open_idle(server.server.port, "127.0.0.2", count, 30)
    try:
        assert len(idle) == count
        took = plays_within(server.url, 1.0)
        assert took < 1.0, f"the neighbour played after {took:.2f} s"
        assert open_after(idle, 0, REQUEST_TIMEOUT + 5.0) == 0
        left, after = slowloris(server.server.port, REQUEST_TIMEOUT + 6.0)
        assert left == 0 and after < REQUEST_TIMEOUT + 3.0, (left, after)
        print(f"{len(idle)} idle sockets, neighbour played in {took * 1000:.0f} ms,"
              f" slowloris closed in {after:.1f} s")  # fmt: skip
    finally:
        for sock in idle:
            sock.close()


def test_docs_server_md_shows_the_configuration_the_generator_writes() -> None:
    text = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    shown = text.split("(a test holds this page to it):\n\n```\n", 1)[1].split("```\n", 1)[0]
    bind = ":443 ssl crt /etc/haproxy/briscola.pem"
    assert shown == haproxy_config(0, [8801, 8802, 8803], "/run/haproxy.pid", bind=bind)
