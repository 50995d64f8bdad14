"""``python -m tools.load_lobby``: a load test of the public side (issue 47) over real sockets.

Simulated people connect to the server processes (``--processes``, sharing ``--redis``),
each in turn: ``queue`` for one or two quick-match configurations, wait to be seated, play
the hand with random legal moves after a think time, ``leave``, and queue again. Lobby
watchers (``--watchers``) watch the whole lobby, on every process; a prober opens a public
table on the first process every second and each watcher notes when it sees it.

It prints the time to a table (``queue`` sent to ``joined`` received) p50/p99, the lobby's
update latency (``create`` sent to the watcher's ``lobby_change``) p50/p99, the changes a
watcher received per second, the servers' and Redis's CPU per person, Redis commands per
second, and every error. Figures depend on the machine: print them, do not assert them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from briscola.engine import Rules
from briscola.protocol import lobby
from briscola.protocol import messages as msg
from tools.load import _cpu_seconds, _percentile, spawn_server, stop_servers

__all__ = ["main"]

#: The configurations people queue for, and how often (two players the most).
CHOICES = (["classic2"], ["classic2", "classic3"], ["teams4"], ["classic3"], ["teams4", "classic2"])


@dataclass
class Figures:
    to_table: list[float] = field(default_factory=list)
    #: The slowest waits: seconds and the configurations waited for.
    slowest: list[tuple[float, str]] = field(default_factory=list)
    lobby: list[float] = field(default_factory=list)
    changes: int = 0
    hands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False


async def _open(url: str, name: str) -> ClientConnection:
    ws = await connect(url, open_timeout=30, max_size=None, compression=None, proxy=None)
    await ws.send(msg.encode(msg.hello(name)))
    await ws.recv()  # welcome
    return ws


async def _person(url: str, name: str, think: float, seed: int, figures: Figures,
                  stop: asyncio.Event) -> None:  # fmt: skip
    rng = random.Random(seed)
    ws = await _open(url, name)
    try:
        while not stop.is_set():
            presets = rng.choice(CHOICES)
            sent = time.monotonic()
            await ws.send(msg.encode(lobby.queue(presets)))
            over = False
            async for text in ws:
                message = json.loads(text)
                kind = message["type"]
                if kind == "joined" and figures.measuring:
                    figures.to_table.append(time.monotonic() - sent)
                    figures.slowest.append((figures.to_table[-1], "+".join(presets)))
                elif kind == "error" and message["code"] != "stale":
                    figures.errors[message["code"]] += 1
                elif kind == "update":
                    view = message["view"]
                    if message["phase"] != "playing":
                        over = True
                        break
                    if view["legal"] and view["current_player"] == view["seat"]:
                        await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
                        action = rng.choice(view["legal"])
                        await ws.send(msg.encode(msg.act(action, message["moves"])))
                if stop.is_set():
                    break
            if over:
                figures.hands += figures.measuring
                await ws.send(msg.encode(msg.leave()))
                while json.loads(await ws.recv())["type"] != "left":
                    pass  # (queue once the seat is given up: at a table it is refused)
    except ConnectionClosed as exc:
        if not stop.is_set():
            figures.errors[f"closed {exc.rcvd.code if exc.rcvd else '?'}"] += 1
    finally:
        await ws.close()


async def _watcher(url: str, name: str, figures: Figures, probes: dict[str, float],
                   stop: asyncio.Event) -> None:  # fmt: skip
    ws = await _open(url, name)
    await ws.send(msg.encode(lobby.lobby_watch()))
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                if message["type"] != "lobby_change":
                    continue
                now = time.monotonic()
                figures.changes += figures.measuring
                for entry in message["added"]:
                    sent = probes.get(entry["table"])
                    if sent is not None and figures.measuring:
                        figures.lobby.append(now - sent)
    finally:
        await ws.close()


async def _prober(url: str, probes: dict[str, float], stop: asyncio.Event) -> None:
    """Every second: open a public table (its code noted with the time the ``create`` was
    sent), then leave it."""
    ws = await _open(url, "Prober")
    rules = Rules.preset("classic3").to_dict()
    try:
        while not stop.is_set():
            create = msg.create(rules, None, 0)
            create["public"] = True
            sent = time.monotonic()
            await ws.send(msg.encode(create))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "joined":
                    probes[message["table"]] = sent
                    break
            await asyncio.sleep(1.0)
            await ws.send(msg.encode(msg.leave()))
    finally:
        await ws.close()


def _redis_info(url: str) -> tuple[int, float]:
    """Commands processed and CPU seconds used by Redis so far."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        stats, cpu = client.info("stats"), client.info("cpu")
        return int(stats["total_commands_processed"]), float(
            cpu["used_cpu_sys"] + cpu["used_cpu_user"]
        )
    finally:
        client.close()


async def _run(args: argparse.Namespace, urls: Sequence[str], pids: Sequence[int]) -> Figures:
    figures = Figures()
    stop = asyncio.Event()
    probes: dict[str, float] = {}
    tasks = [
        asyncio.create_task(_watcher(urls[i % len(urls)], f"Watcher {i}", figures, probes, stop))
        for i in range(args.watchers)
    ]
    for i in range(args.players):
        url = urls[i % len(urls)]
        tasks.append(asyncio.create_task(_person(url, f"P{i}", args.think, i, figures, stop)))
        if i % 50 == 49:
            await asyncio.sleep(0.2)  # (connections a few at a time)
    tasks.append(asyncio.create_task(_prober(urls[0], probes, stop)))
    await asyncio.sleep(args.warmup)
    cpu0 = [_cpu_seconds(pid) or 0.0 for pid in pids]
    commands0, redis_cpu0 = _redis_info(args.redis)
    figures.measuring = True
    started, mine = time.monotonic(), time.process_time()
    await asyncio.sleep(args.duration)
    figures.measuring = False
    elapsed = time.monotonic() - started
    client = (time.process_time() - mine) / elapsed
    cpu = sum((_cpu_seconds(pid) or 0.0) - before for pid, before in zip(pids, cpu0, strict=True))
    commands, redis_cpu = _redis_info(args.redis)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    people = args.players
    print(f"processes {len(urls)}, people {people}, lobby watchers {args.watchers},"
          f" think {args.think} s, measured {elapsed:.0f} s")  # fmt: skip
    print(
        f"time to a table: {len(figures.to_table)} seatings,"
        f" p50 {1000 * _percentile(figures.to_table, 0.5):.0f} ms,"
        f" p99 {1000 * _percentile(figures.to_table, 0.99):.0f} ms;"
        f" hands played {figures.hands}"
    )
    slowest = sorted(figures.slowest, reverse=True)[:3]
    print("slowest waits: " + ", ".join(f"{wait:.1f} s ({what})" for wait, what in slowest))
    print(
        f"lobby update latency: {len(figures.lobby)} samples,"
        f" p50 {1000 * _percentile(figures.lobby, 0.5):.1f} ms,"
        f" p99 {1000 * _percentile(figures.lobby, 0.99):.1f} ms;"
        f" lobby_change per watcher per second"
        f" {figures.changes / max(1, args.watchers) / elapsed:.1f}"
    )
    print(
        f"servers' CPU {100 * cpu / elapsed:.0f}% of a core"
        f" ({1e6 * cpu / elapsed / people:.0f} us per person per second);"
        f" Redis CPU {100 * (redis_cpu - redis_cpu0) / elapsed:.0f}% of a core,"
        f" {(commands - commands0) / elapsed:.0f} commands/s"
        f" ({(commands - commands0) / elapsed / people:.1f} per person)"
    )
    print(f"the load tool's own CPU {100 * client:.0f}% of a core (near 100%: it is the limit)")
    print(f"errors: {dict(figures.errors) or 'none'}")
    return figures


def _start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[str], str]:
    many = str(args.players + args.watchers + 50)
    command = [
        sys.executable, "-m", "briscola.server", "--port", "0", "--redis", args.redis,
        "--max-tables", many, "--max-connections", many, "--max-per-address", many,
        "--max-tables-per-address", many, "--max-rooms-per-address", many,
        "--rate", "1000", "--burst", "1000", "--bots-after", "3600", "--log-level", "WARNING",
    ]  # fmt: skip
    return spawn_server(command)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.load_lobby", description=__doc__)
    parser.add_argument("--redis", required=True, metavar="URL", help="a running Redis")
    parser.add_argument("--processes", type=int, default=3, help="server processes (3)")
    parser.add_argument("--players", type=int, default=300, help="people queueing (300)")
    parser.add_argument("--watchers", type=int, default=50, help="lobby watchers (50)")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds a move (0.5)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before (5)")
    args = parser.parse_args(argv)
    if not 1 <= args.processes <= 16 or not 2 <= args.players <= 5000:
        parser.error("--processes must be 1 to 16 and --players 2 to 5000")
    procs: list[subprocess.Popen[str]] = []
    try:
        urls = []
        for _ in range(args.processes):
            proc, url = _start_server(args)
            procs.append(proc)
            urls.append(url)
        figures = asyncio.run(_run(args, urls, [proc.pid for proc in procs]))
    finally:
        stop_servers(procs)
    return 1 if figures.errors else 0


if __name__ == "__main__":
    sys.exit(main())
