"""Behind a proxy every client has the proxy's address: a proxy named by
``--trusted-proxy`` tells the server the client's address (``X-Forwarded-For``), so the
per-address limits count clients, not the proxy. Nobody else's header is believed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redishelp import HAProxy
from serverhelp import hello, raw
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection

from briscola.server import ServerThread
from briscola.server.config import trusted_networks
from briscola.server.conn import address_of


def connect(url: str, forwarded: str | None = None, **options: Any) -> ClientConnection:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else None
    # (legacy=True: websockets' documented way to hold a connection outside a `with`)
    ws = raw(url, additional_headers=headers, legacy=True, **options)
    assert hello(ws)["type"] == "welcome"
    return ws


def refused(url: str, forwarded: str | None = None, **options: Any) -> int:
    """The HTTP status the server refuses the connection with."""
    with pytest.raises(InvalidStatus) as caught:
        connect(url, forwarded, **options).close()
    return caught.value.response.status_code


def addresses(server: ServerThread) -> list[str]:
    return sorted(server.call(lambda: dict(server.server.per_address)))


def test_a_trusted_proxy_names_the_client_and_each_client_has_its_own_limit(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(trusted_proxies=("127.0.0.1",), max_per_address=1)
    one = connect(server.url, "203.0.113.7")
    two = connect(server.url, "198.51.100.1, 203.0.113.8")  # the rightmost hop counts
    try:
        assert addresses(server) == ["203.0.113.7", "203.0.113.8"]
        assert refused(server.url, "203.0.113.7") == 429  # that client's own limit
    finally:
        one.close()
        two.close()


def test_the_header_of_a_peer_that_is_not_a_trusted_proxy_is_ignored(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(trusted_proxies=("10.9.9.9", "192.168.0.0/16"), max_per_address=1)
    one = connect(server.url, "203.0.113.7")
    try:
        assert addresses(server) == ["127.0.0.1"]
        assert refused(server.url, "203.0.113.8") == 429  # still the one address it is
    finally:
        one.close()


def test_without_trusted_proxies_a_forwarded_header_changes_nothing(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(max_per_address=1)
    one = connect(server.url, "203.0.113.7")
    try:
        assert addresses(server) == ["127.0.0.1"]
        assert refused(server.url, "203.0.113.9") == 429
    finally:
        one.close()


def test_haproxy_passes_the_client_address_and_a_forged_header_does_not_help(
    make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    server = make_server(trusted_proxies=("127.0.0.1",), max_per_address=1)
    proxy = HAProxy(tmp_path, [server.server.port]).start()
    opened: list[ClientConnection] = []
    try:
        # Two clients on two loopback addresses, through the one proxy.
        opened.append(connect(proxy.url, source_address=("127.0.0.2", 0)))
        opened.append(connect(proxy.url, "127.0.0.9", source_address=("127.0.0.3", 0)))
        assert addresses(server) == ["127.0.0.2", "127.0.0.3"]  # not 127.0.0.9: forged
        # The first client's second connection is over its own limit, forged header or not.
        with pytest.raises(InvalidStatus):
            connect(proxy.url, "127.0.0.77", source_address=("127.0.0.2", 0)).close()
        ws = opened[0]
        ws.send(json.dumps({"type": "create", "rules": {"preset": "classic2"}}))
        assert json.loads(ws.recv(timeout=10))["type"] == "joined"
        owner = server.call(lambda: [t.owner for t in server.server.tables.values()])
        assert owner == ["127.0.0.2"]  # the tables per address count the client too
    finally:
        for ws in opened:
            ws.close()
        proxy.stop()


def test_a_bad_trusted_proxy_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match=r"not an IP address or network: 'proxy\.example'"):
        trusted_networks(["10.0.0.1", "proxy.example"])


FORGED = st.lists(
    st.one_of(
        st.ip_addresses().map(str),
        st.sampled_from(["unknown", "", "_hidden", "10.0.0.1", "10.0.0.2:8080", "[::1]:80"]),
    ),
    max_size=5,
)
CLIENTS = st.ip_addresses(v=4).map(str).filter(lambda ip: not ip.startswith("10.0.0."))


def peer(address: str) -> Any:
    return cast(Any, SimpleNamespace(remote_address=(address, 40000)))


@settings(max_examples=60, deadline=None)
@given(forged=FORGED, client=CLIENTS, proxies=st.integers(0, 2))
def test_what_a_client_forges_never_changes_the_address_a_trusted_proxy_wrote(
    forged: list[str], client: str, proxies: int
) -> None:
    trusted = trusted_networks(["10.0.0.0/24"])
    # The client's own header, then what the proxy saw, then the hops of trusted proxies.
    hops = [*forged, client, *(f"10.0.0.{9 + n}" for n in range(proxies))]
    headers = Headers([("X-Forwarded-For", ", ".join(hops))])
    assert address_of(peer("10.0.0.1"), headers, trusted) == client


@settings(max_examples=30, deadline=None)
@given(forged=FORGED)
def test_an_untrusted_peer_is_its_own_address_whatever_it_sends(forged: list[str]) -> None:
    trusted = trusted_networks(["10.0.0.0/24"])
    headers = Headers([("X-Forwarded-For", ", ".join(forged))])
    assert address_of(peer("203.0.113.5"), headers, trusted) == "203.0.113.5"
    assert address_of(peer("203.0.113.5"), headers, ()) == "203.0.113.5"
