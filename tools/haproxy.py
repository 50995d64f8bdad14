"""The HAProxy configuration of docs/server.md ("Several processes behind one address"):
``python -m tools.haproxy 8801 8802 8803`` prints it for server processes on those loopback
ports (started with ``--code-start`` :func:`code_start` in that order); the tests and the
load tool (``--proxy``) write it with :func:`haproxy_config`.

What it does: WebSocket connections kept open (``timeout tunnel``), the client's address
passed on (``option forwardfor``, for the servers' ``--trusted-proxy``), a connection that
names its table (``?table=CODE``) sent to the process whose codes start with that letter
while it is up, else to the one the code hashes to (the same for every player of the
table), and no one address able to fill the proxy: a stick-table counts each source's
connections, refusing one beyond ``per_address`` open at once or ``rate`` opened in ten
seconds, and a connection that has not sent its whole request within 5 s is closed
(``timeout http-request``: idle sockets and slowloris).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Final

from briscola.protocol.wire import CODE_ALPHABET

__all__ = ["MAXCONN", "PER_ADDRESS", "RATE", "code_start", "haproxy_config", "main"]

#: Connections the proxy holds in all.
MAXCONN: Final = 8000
#: Connections one address may hold at once (the servers' own ``--max-per-address``).
PER_ADDRESS: Final = 64
#: Connections one address may open in 10 s (a client reconnects with backoff).
RATE: Final = 200

HAPROXY_CONFIG: Final = """\
global
    maxconn {maxconn}
    pidfile {pid}

defaults
    mode http
    timeout connect 2s
    timeout http-request 5s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    option redispatch
    option forwardfor
    retries 3

frontend briscola
    bind {bind}
    maxconn {maxconn}
    stick-table type ipv6 size 200k expire 60s store conn_cur,conn_rate(10s)
    tcp-request connection track-sc0 src
    tcp-request connection reject if {{ sc0_conn_cur gt {per_address} }}
    tcp-request connection reject if {{ sc0_conn_rate gt {rate} }}
    default_backend servers

backend servers
{servers}
"""


def code_start(index: int, count: int) -> str:
    """The letters new table codes of process ``index`` of ``count`` start with: the code
    alphabet cut into ``count`` runs, one per process.

    >>> [code_start(i, 3) for i in range(3)]
    ['ABCDEFGHJKM', 'NPQRSTUVWX', 'YZ23456789']
    """
    size, extra = divmod(len(CODE_ALPHABET), count)
    begin = index * size + min(index, extra)
    return CODE_ALPHABET[begin : begin + size + (index < extra)]


def haproxy_config(
    port: int,
    backends: Sequence[int],
    pid: str,
    route: bool = True,
    *,
    bind: str = "",
    maxconn: int = MAXCONN,
    per_address: int = PER_ADDRESS,
    rate: int = RATE,
) -> str:
    """The configuration for servers on ``backends`` (loopback ports), started with
    ``--code-start`` :func:`code_start` in that order; ``route`` False: round robin only.
    ``bind``: what the proxy listens on (default ``127.0.0.1:port``)."""
    lines = ["    balance roundrobin"]
    if route and len(backends) > 1:
        # A table whose process is down: its players all reach the one its code hashes to.
        lines = ["    balance url_param table", "    hash-type consistent"]
        for i in range(len(backends)):
            letters = " ".join(code_start(i, len(backends)))
            lines.append(f"    use-server s{i} if {{ urlp(table) -m beg -i {letters} }}")
    lines += [
        f"    server s{i} 127.0.0.1:{backend} check inter 500ms fall 1 rise 1"
        for i, backend in enumerate(backends)
    ]
    return HAPROXY_CONFIG.format(
        bind=bind or f"127.0.0.1:{port}",
        servers="\n".join(lines),
        pid=pid,
        maxconn=maxconn,
        per_address=per_address,
        rate=rate,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.haproxy", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("ports", nargs="+", type=int, help="the server processes' ports")
    parser.add_argument("--bind", default=":443 ssl crt /etc/haproxy/briscola.pem")
    parser.add_argument("--pid", default="/run/haproxy.pid")
    parser.add_argument("--per-address", type=int, default=PER_ADDRESS)
    parser.add_argument("--rate", type=int, default=RATE, help="connections per 10 s")
    parser.add_argument("--maxconn", type=int, default=MAXCONN)
    args = parser.parse_args(argv)
    limits = {"maxconn": args.maxconn, "per_address": args.per_address, "rate": args.rate}
    print(haproxy_config(0, args.ports, args.pid, bind=args.bind, **limits), end="")


if __name__ == "__main__":
    main()
