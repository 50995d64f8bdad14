"""``python -m briscola.server``: run a dedicated server (see ``docs/server.md``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import ssl
import sys
from collections.abc import Sequence
from pathlib import Path

from briscola.cliargs import port, positive_number, whole_number
from briscola.protocol.wire import DEFAULT_PORT
from briscola.server.app import Server, ServerConfig
from briscola.server.config import code_starts, trusted_networks
from briscola.server.moderate import COMMANDS
from briscola.server.moderate import main as moderate

__all__ = ["main", "parse_args"]


def program_name(argv0: str | None = None) -> str:
    """What the server was started as: ``briscola-server`` (the installed command), or
    ``python -m briscola.server``."""
    name = os.path.basename(sys.argv[0] if argv0 is None else argv0)
    if name in ("", "-c", "__main__.py") or name.startswith("python"):
        return "python -m briscola.server"
    return name


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog or program_name(),
        description="Briscola network server: tables of friends and computer players.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=port, default=DEFAULT_PORT, help="port (0: any free port)")
    parser.add_argument("--cert", type=Path, help="TLS certificate chain (PEM): serve wss://")
    parser.add_argument("--key", type=Path, help="TLS private key (PEM), with --cert")
    parser.add_argument("--records", type=Path, help="folder for game records")
    parser.add_argument(
        "--grace",
        type=positive_number("seconds"),
        default=60.0,
        help="seconds a dropped seat waits (60)",
    )
    parser.add_argument(
        "--turn-timeout",
        type=positive_number("seconds"),
        default=300.0,
        help="seconds a player may take over one move before a computer plays it (300)",
    )
    parser.add_argument("--max-tables", type=whole_number(1), default=1000)
    parser.add_argument("--max-connections", type=whole_number(1), default=2000)
    parser.add_argument("--max-per-address", type=whole_number(1), default=64)
    parser.add_argument(
        "--max-tables-per-address",
        type=whole_number(1),
        default=32,
        help="open tables one address may hold (32)",
    )
    parser.add_argument(
        "--max-rooms-per-address",
        type=whole_number(1),
        default=8,
        help="waiting rooms one address may hold open (8)",
    )
    parser.add_argument(
        "--bot-threads", type=whole_number(1), default=2, help="threads for bots (2)"
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=0,
        help="think in this many processes instead of threads (0: threads)",
    )
    parser.add_argument(
        "--bot-time",
        type=positive_number("seconds"),
        default=1.0,
        help="seconds a bot may think (1.0)",
    )
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds before a bot moves")
    parser.add_argument(
        "--rate", type=positive_number(), default=10.0, help="messages/s per connection"
    )
    parser.add_argument(
        "--burst", type=whole_number(1), default=30, help="burst of messages allowed"
    )
    parser.add_argument(
        "--announce",
        metavar="ADDRESS",
        help="announce waiting rooms on the local network (mDNS), reachable at ADDRESS",
    )
    parser.add_argument(
        "--mdns-interface",
        action="append",
        metavar="ADDRESS",
        help="speak mDNS only on this interface address (repeatable; default: all)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="keep tables in Redis (redis://HOST:PORT/N), shared with every process that"
        " names the same URL: several processes behind one address (docs/server.md)",
    )
    parser.add_argument(
        "--lease",
        type=positive_number("seconds"),
        default=3.0,
        help="with --redis: seconds a killed process's tables wait before another takes them (3)",
    )
    parser.add_argument(
        "--bots-after",
        type=positive_number("seconds"),
        default=30.0,
        help="quick match: seconds of waiting before computer players are offered (30)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a proxy (address or network, repeatable) whose X-Forwarded-For header names the"
        " client: the per-address limits then count the client; nobody else's header counts",
    )
    parser.add_argument(
        "--code-start",
        default="",
        metavar="LETTERS",
        help="new table codes start with one of these letters: with a proxy that routes a"
        " client naming ?table=CODE by it, a table's players reach the process holding it"
        " (docs/server.md)",
    )
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING"])
    return parser


def parse_args(argv: Sequence[str] | None = None) -> tuple[ServerConfig, argparse.Namespace]:
    """The configuration the command line asks for; exits with status 2 on a bad flag."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together")
    context: ssl.SSLContext | None = None
    if args.cert is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as exc:
            parser.error(f"cannot load the certificate and key: {exc}")
    if not 0 <= args.bot_processes <= 64:
        parser.error("--bot-processes must be 0 to 64")
    if args.bot_delay < 0 or args.bot_delay > 10:
        parser.error("--bot-delay must be 0 to 10 seconds")
    if args.redis is not None:
        try:  # (redis-py is the "server" extra: imported only when asked for)
            from briscola.server.store import check_url
        except ImportError:
            parser.error("--redis needs redis-py: pip install 'briscola[server]'")
        try:
            check_url(args.redis)  # (connects to nothing)
        except ValueError as exc:
            parser.error(f"--redis needs a URL such as redis://127.0.0.1:6379/0: {exc}")
    try:
        trusted_networks(args.trusted_proxy)
    except ValueError as exc:
        parser.error(f"--trusted-proxy: {exc}")
    try:
        code_starts(args.code_start)
    except ValueError as exc:
        parser.error(f"--code-start: {exc}")
    if args.announce is not None:
        import ipaddress

        try:
            ipaddress.ip_address(args.announce)
        except ValueError:
            parser.error(f"--announce needs an IP address, got {args.announce!r}")
    return ServerConfig(
        host=args.host,
        port=args.port,
        ssl=context,
        records=args.records,
        grace=args.grace,
        turn_timeout=args.turn_timeout,
        max_tables=args.max_tables,
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        max_tables_per_address=args.max_tables_per_address,
        max_rooms_per_address=args.max_rooms_per_address,
        bot_threads=args.bot_threads,
        bot_processes=args.bot_processes,
        bot_time=args.bot_time,
        bot_delay=args.bot_delay,
        rate=args.rate,
        burst=args.burst,
        redis=args.redis,
        lease_ms=max(100, int(args.lease * 1000)),
        trusted_proxies=tuple(args.trusted_proxy),
        code_start=args.code_start,
        bots_after=args.bots_after,
    ), args


async def _serve(config: ServerConfig, args: argparse.Namespace) -> None:
    server = Server(config)
    try:
        await server.start()
    except OSError as exc:
        print(
            f"briscola.server: cannot listen on {config.host}:{config.port}: {exc}", file=sys.stderr
        )
        raise SystemExit(1) from None
    except Exception as exc:  # redis.exceptions.RedisError: the store cannot be reached
        if config.redis is None:
            raise
        print(f"briscola.server: cannot reach Redis at {config.redis}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    # Fewer, cheaper full collections: what was loaded at start-up is never scanned again,
    # and the young generations are collected less often (full-collection pauses otherwise
    # reach tens of milliseconds with a thousand connections; see docs/server.md).
    gc.collect()
    gc.freeze()
    gc.set_threshold(2000, 20, 200)
    print(f"listening on {server.url}", flush=True)
    announcer = None
    if args.announce:
        from briscola.protocol.lan import TableAnnouncer

        announcer = TableAnnouncer(server, args.announce, args.mdns_interface)
        await announcer.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    if announcer is not None:
        await announcer.stop()
    await server.close()


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if words and words[0] in COMMANDS:  # the operator's commands on players (moderate.py)
        return moderate(words)
    config, args = parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(message)s")
    asyncio.run(_serve(config, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
