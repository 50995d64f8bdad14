"""The operator's commands on a service's players (``docs/server.md``, "Players, reports and
bans"), run beside the servers on the Redis they share::

    python -m briscola.server reports --redis URL [--last N] [--json]
    python -m briscola.server ban TARGET --reason TEXT --redis URL
    python -m briscola.server unban TARGET --redis URL
    python -m briscola.server bans --redis URL

``TARGET`` is a player's name (as registered, any case), a player id (the start of one,
8 hexadecimal digits at least, as ``reports`` lists it) or an IP address. A ban holds from
the banned player's next ``hello`` or ``identify`` on every process, and closes a connection
of it open then within 10 seconds; it is told the reason.
Nothing here prints a key: a server never had one (it keeps their SHA-256, the player id).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections.abc import Sequence
from typing import Any, Final

from briscola.protocol.errors import ProtocolError
from briscola.protocol.naming import name_key
from briscola.protocol.wire import check_name
from briscola.server.people import is_address
from briscola.server.registry import Ban, Registry, address_target, key_target

__all__ = ["COMMANDS", "main", "resolve"]

COMMANDS: Final = ("reports", "ban", "unban", "bans")
#: How much of a player id the commands show (any unique start of it names the player).
SHOWN: Final = 16
_ID: Final = re.compile(r"[0-9a-f]{8,64}")


class Refused(Exception):
    """What the operator typed names nobody, or several."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m briscola.server",
        description="The players of a service of server processes on Redis: reports, bans.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    reports = commands.add_parser("reports", help="the latest reports, newest first")
    reports.add_argument("--last", type=int, default=20, help="how many (20)")
    reports.add_argument("--json", action="store_true", help="one JSON report a line, whole")
    ban = commands.add_parser("ban", help="ban a player (name or id) or an IP address")
    ban.add_argument("target", help="a player's name, a player id (8+ digits) or an address")
    ban.add_argument("--reason", required=True, help="what the banned player is told")
    unban = commands.add_parser("unban", help="lift a ban")
    unban.add_argument("target", help="as for ban")
    commands.add_parser("bans", help="the bans in force")
    for each in (reports, ban, unban, commands.choices["bans"]):
        each.add_argument("--redis", required=True, metavar="URL", help="the service's Redis")
    return parser


async def resolve(registry: Registry, target: str) -> tuple[str, str]:
    """The ban target ``target`` names (``key:ID`` or ``address:ADDRESS``) and the player's
    name ("" for an address); raises :class:`Refused` saying why it names nobody."""
    target = target.strip()
    if is_address(target):
        return address_target(target), ""
    if _ID.fullmatch(target):
        found = await registry.find(target)
        if len(found) > 1:
            raise Refused(f"{len(found)} players have an id starting {target}: give more of it")
        if found:
            return key_target(found[0].id), found[0].name
    try:
        key = name_key(check_name(target))
    except ProtocolError:
        raise Refused(f"{target!r} is neither a name, a player id nor an address") from None
    player = await registry.by_name(key)
    if player is None:
        raise Refused(f"no player of this service is called {target!r}")
    return key_target(player.id), player.name


def _who(entry: Any) -> str:
    if not isinstance(entry, dict):
        return "?"
    player = entry.get("player")
    shown = f" [{player[:SHOWN]}]" if isinstance(player, str) else " [not identified]"
    address = f" {entry['address']}" if entry.get("address") else ""
    return f"{entry.get('name', '?')}{shown}{address}"


def _when(at: Any) -> str:
    if not isinstance(at, int | float):
        return "?"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def _target(ban: Ban) -> str:
    kind, _, value = ban.target.partition(":")
    return f"player {ban.name} [{value[:SHOWN]}]" if kind == "key" else f"address {value}"


async def run(registry: Registry, args: argparse.Namespace) -> int:
    """One command against ``registry``; prints what it did. The exit status."""
    if args.command == "reports":
        for report in await registry.reports(max(1, args.last)):
            if args.json:
                print(json.dumps(report, ensure_ascii=False))
                continue
            hand = report.get("hand")
            kept = "the hand's record kept" if isinstance(hand, dict) else "no hand dealt"
            print(
                f"{_when(report.get('at'))}  {_who(report.get('player'))}"
                f"  reported by {_who(report.get('by'))}  for {report.get('reason')}"
                f"  at table {report.get('table')}, hand {report.get('deal')}"
                f" ({kept}; records: {report.get('records') or 'not written'})"
            )
        return 0
    if args.command == "bans":
        for ban in await registry.bans():
            print(f"{_when(ban.at)}  {_target(ban)}: {ban.reason}")
        return 0
    try:
        target, name = await resolve(registry, args.target)
    except Refused as exc:
        print(f"briscola.server {args.command}: {exc}", file=sys.stderr)
        return 1
    if args.command == "ban":
        ban = Ban(target, args.reason.strip(), time.time(), name)
        await registry.ban(ban)
        print(f"banned {_target(ban)}: {ban.reason}")
        return 0
    if await registry.unban(target):
        print(f"ban lifted: {args.target}")
        return 0
    print(f"briscola.server unban: {args.target} is not banned", file=sys.stderr)
    return 1


async def _main(args: argparse.Namespace) -> int:
    import redis.asyncio as aioredis

    from briscola.server.registry import RedisRegistry

    client = aioredis.Redis.from_url(args.redis, decode_responses=True)
    try:
        return await run(RedisRegistry(client), args)
    finally:
        await client.aclose()


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "ban" and not args.reason.strip():
        parser.error("--reason: say why, in words the banned player reads")
    try:
        from briscola.server.store import check_url
    except ImportError:
        parser.error("these commands need redis-py: pip install 'briscola[server]'")
    try:
        check_url(args.redis)
    except ValueError as exc:
        parser.error(f"--redis needs a URL such as redis://127.0.0.1:6379/0: {exc}")
    try:
        return asyncio.run(_main(args))
    except (OSError, ConnectionError) as exc:
        print(f"briscola.server: cannot reach Redis at {args.redis}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # redis.exceptions.RedisError
        if not type(exc).__module__.startswith("redis"):
            raise
        print(f"briscola.server: cannot reach Redis at {args.redis}: {exc}", file=sys.stderr)
        return 1
