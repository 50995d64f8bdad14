"""``python -m tools.kill_run``: kill -9 the process that owns a table at the moment a move
is sent, again and again, and see every hand finish (issue 46).

It starts ``redis-server``, three server processes sharing their tables through it (a short
``--lease``) and, when the ``haproxy`` binary exists, HAProxy in front of them
(``tools/haproxy.py``; ``--no-proxy``: the clients know the three addresses), all on
127.0.0.1. Many tables play at once, two-player and four-player, every person's seat played
by :class:`tools.outside_client.OutsideClient` (written from docs/network-protocol.md
alone), the other seats computers. Then, ``--kills`` times: the next time a client is about
to send a move, the process that holds its table's lease is found in Redis, the move is sent
and that process is killed (``SIGKILL``) at once, before any answer; a new process starts on
its port (three stay up), and once every seat of the tables it drove has seen its table go
on, a second or so later, the next kill is armed. At the end every client finishes the hand
under way and leaves.

It prints the kills, the hands started and finished (each record's points add up to 120),
the longest a seat of a killed process's tables waited for its table to move on after each
kill (p50, p95, max over the kills; it includes the seat's think time when the move is its
own), every hand that stalled and every error frame. Figures, not assertions: the machine
and what else runs on it change them. Exit status 1 when a hand stalled or did not finish.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import redis.asyncio as aioredis

from tools.haproxy import code_start, haproxy_config
from tools.outside_client import Hooks, OutsideClient

__all__ = ["Report", "Settings", "main", "run"]

#: The tables played, in turn: preset, people (outside clients), seats in all.
MIX: Final = (("classic2", 2, 2), ("teams4", 1, 4), ("classic2", 1, 2), ("teams4", 2, 4))
#: A seat whose table has not moved on this long after a kill has stalled (the turn clock,
#: 300 s, would move for it at last).
STALL: Final = 60.0


@dataclass
class Settings:
    kills: int = 100
    tables: int = 16
    think: float = 0.3
    lease: float = 1.0
    proxy: bool = True
    seed: int = 46
    folder: Path | None = None
    #: Print a line per kill.
    verbose: bool = False


@dataclass
class Kill:
    at: float
    slot: int
    tables: int
    #: Each waiting seat (its client) and its table's position at the kill.
    waiting: dict[int, tuple[int, int]]
    pauses: dict[int, float] = field(default_factory=dict)

    @property
    def worst(self) -> float:
        return max(self.pauses.values(), default=0.0)


@dataclass
class Report:
    kills: list[Kill] = field(default_factory=list)
    started: int = 0
    finished: int = 0
    #: Finished hands whose points do not add up to 120.
    bad_points: int = 0
    stalled: list[str] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    refused: list[str] = field(default_factory=list)
    notices: Counter[str] = field(default_factory=Counter)
    resets: int = 0
    reconnections: int = 0
    sent_again: int = 0
    moves: int = 0
    longest_gap: float = 0.0
    seconds: float = 0.0
    proxy: bool = False

    def lines(self) -> list[str]:
        worst = sorted(kill.worst for kill in self.kills)
        touched = sum(kill.tables for kill in self.kills)
        return [
            f"kills: {len(self.kills)} (kill -9 of the table's owner as a move was sent;"
            f" {touched} tables were on the killed processes), in {self.seconds:.0f} s,"
            + (" behind HAProxy" if self.proxy else " clients connected to the processes"),
            f"hands: {self.started} started, {self.finished} finished,"
            f" {self.bad_points} whose points do not add up to 120",
            f"longest pause of a seat after each kill: p50 {_pct(worst, 0.5):.2f} s,"
            f" p95 {_pct(worst, 0.95):.2f} s, max {max(worst, default=0.0):.2f} s;"
            f" longest gap between two messages of any seat {self.longest_gap:.2f} s",
            f"moves: {self.moves}, sent again after a reset: {self.sent_again};"
            f" resets: {self.resets}; reconnections: {self.reconnections}",
            f"error frames: {sum(self.errors.values())} {dict(sorted(self.errors.items()))};"
            f" notices: {dict(self.notices)}",
            *(f"  {each}" for each in self.refused[:20]),
            f"stalled: {len(self.stalled)}" + "".join(f"\n  {each}" for each in self.stalled),
        ]


def _pct(values: Sequence[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_port(port: int, proc: subprocess.Popen[Any], what: str) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{what} did not listen on port {port}")


def _binary(name: str) -> str | None:
    return shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.exists()), None
    )


class Cluster:
    """redis-server, three server processes on fixed loopback ports (a process killed is
    started again on its port, with its code letters) and HAProxy, or none."""

    def __init__(self, folder: Path, lease: float, proxy: bool, tables: int) -> None:
        self.folder = folder
        self.lease = lease
        binary = _binary("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed (tools/system-packages.sh test)")
        self.redis_port = _free_port()
        self.redis = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.redis_port), "--dir",
             str(folder), "--save", "", "--appendonly", "yes", "--appendfsync", "always",
             "--daemonize", "no",
             "--logfile", str(folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.redis_port, self.redis, "redis-server")
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.ports = [_free_port() for _ in range(3)]
        self.procs: list[subprocess.Popen[str]] = []
        #: Each process's id in the leases (``briscola:p:ID``, its channel), by slot.
        self.ids: list[str] = []
        self.limit = str(max(100, 8 * tables))
        self.proxy: subprocess.Popen[bytes] | None = None
        self.urls = [f"ws://127.0.0.1:{port}" for port in self.ports]
        for slot in range(3):
            self.procs.append(self._spawn(slot))
        haproxy = _binary("haproxy") if proxy else None
        if haproxy is not None:
            port = _free_port()
            config = folder / "haproxy.cfg"
            config.write_text(
                haproxy_config(port, self.ports, str(folder / "haproxy.pid"),
                               per_address=1000, rate=5000),
                encoding="utf-8",
            )  # fmt: skip
            quiet = subprocess.DEVNULL
            self.proxy = subprocess.Popen(
                [haproxy, "-db", "-f", str(config)], stdout=quiet, stderr=quiet
            )
            _wait_port(port, self.proxy, "haproxy")
            self.urls = [f"ws://127.0.0.1:{port}"]

    def _spawn(self, slot: int) -> subprocess.Popen[str]:
        log = (self.folder / f"server-{slot}.log").open("a")
        command = [
            sys.executable, "-m", "briscola.server", "--port", str(self.ports[slot]),
            "--redis", self.redis_url, "--lease", str(self.lease), "--grace", "60",
            "--max-tables", self.limit, "--max-connections", self.limit,
            "--max-per-address", self.limit, "--max-tables-per-address", self.limit,
            "--max-rooms-per-address", self.limit, "--rate", "1000", "--burst", "1000",
            "--log-level", "INFO", "--trusted-proxy", "127.0.0.1",
            "--code-start", code_start(slot, 3),
        ]  # fmt: skip
        known = set(self.ids)
        before = set(self._channels())
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        log.close()
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("listening on "):
            proc.kill()
            raise SystemExit(f"server {slot} did not start: {line!r}")
        deadline = time.monotonic() + 15
        while not (new := set(self._channels()) - before - known):
            if time.monotonic() > deadline:
                raise SystemExit(f"server {slot} never listened on its Redis channel")
            time.sleep(0.02)
        ident = new.pop()
        if slot < len(self.ids):
            self.ids[slot] = ident
        else:
            self.ids.append(ident)
        return proc

    def _channels(self) -> list[str]:
        out = subprocess.run(
            [_binary("redis-cli") or "redis-cli", "-p", str(self.redis_port),
             "PUBSUB", "CHANNELS", "briscola:p:*"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return [line.split(":")[-1] for line in out.stdout.split()]

    def kill(self, slot: int) -> None:
        os.kill(self.procs[slot].pid, signal.SIGKILL)

    def restart(self, slot: int) -> None:
        self.procs[slot].wait(10)
        self.ids[slot] = ""
        self.procs[slot] = self._spawn(slot)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(10)
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.redis.terminate()
        self.redis.wait(10)


class Run(Hooks):
    """Plays the tables and kills (the hooks of every client)."""

    def __init__(self, settings: Settings, cluster: Cluster) -> None:
        self.settings = settings
        self.cluster = cluster
        self.redis = aioredis.Redis.from_url(cluster.redis_url, decode_responses=True)
        self.rng = random.Random(settings.seed)
        self.tables: dict[str, list[OutsideClient]] = {}
        self.report = Report(proxy=cluster.proxy is not None)
        self.armed = False
        self.claimed = 0.0
        self.open: list[Kill] = []
        self.idle = asyncio.Event()
        self.chores: list[asyncio.Future[None]] = []

    async def before_move(self, client: OutsideClient) -> Callable[[bool], None] | None:
        if not self.armed or client.code is None:
            return None
        self.armed, self.claimed = False, time.monotonic()
        codes = list(self.tables)
        try:
            leases = await self.redis.mget([f"briscola:t:{code}:lease" for code in codes])
        except (OSError, aioredis.RedisError):
            leases = []
        holders = {c: str(v).split(":", 1)[1] for c, v in zip(codes, leases, strict=False) if v}
        owner = holders.get(client.code)
        if owner not in self.cluster.ids:  # a takeover under way: the next move
            self.armed = True
            return None
        slot = self.cluster.ids.index(owner)
        mine = [code for code, holder in holders.items() if holder == owner]
        waiting = {
            id(each): each.position
            for code in mine
            for each in self.tables[code]
            if each.position is not None and not each.done
        }

        def after(sent: bool) -> None:
            if not sent:
                self.armed = True
                return
            self.cluster.kill(slot)
            kill = Kill(time.monotonic(), slot, len(mine), waiting)
            self.report.kills.append(kill)
            self.open.append(kill)
            self.chores.append(asyncio.ensure_future(self._after(kill)))

        return after

    def heard(self, client: OutsideClient, message: Mapping[str, Any]) -> None:
        if message["type"] != "update" or not self.open:
            return
        now, key = time.monotonic(), id(client)
        position = (message["deal"], message["moves"])
        for kill in self.open:
            if key in kill.waiting and key not in kill.pauses and position > kill.waiting[key]:
                kill.pauses[key] = now - kill.at

    async def _after(self, kill: Kill) -> None:
        """Start a process on the killed one's port; wait for the tables to move on."""
        await asyncio.to_thread(self.cluster.restart, kill.slot)
        deadline = kill.at + STALL
        while time.monotonic() < deadline:
            left = [k for k in kill.waiting if k not in kill.pauses and not self._done(k)]
            if not left:
                break
            await asyncio.sleep(0.1)
        else:
            self.report.stalled.append(
                f"kill {len(self.report.kills)}: {len(kill.waiting) - len(kill.pauses)} seats"
                f" waited over {STALL:.0f} s"
            )
        self.open.remove(kill)
        if self.settings.verbose:
            print(f"kill {len(self.report.kills)}: process {kill.slot}, {kill.tables} tables,"
                  f" longest pause {kill.worst:.2f} s", flush=True)  # fmt: skip
        await asyncio.sleep(self.rng.uniform(0.5, 1.5))
        if len(self.report.kills) < self.settings.kills:
            self.armed = True
        else:
            self.idle.set()

    def _done(self, key: int) -> bool:
        return any(id(c) == key and c.done for cs in self.tables.values() for c in cs)

    async def _table(self, index: int) -> list[OutsideClient]:
        preset, people, seats = MIX[index % len(MIX)]
        urls = self.cluster.urls
        clients = [
            OutsideClient(
                urls[(index + i) % len(urls) :] + urls[: (index + i) % len(urls)],
                f"Player {index}-{i}",
                hands=0,
                think=self.settings.think,
                rng=random.Random(self.rng.random()),
                hooks=self,
            )
            for i in range(people)
        ]
        layout = [{"kind": "human"}] * people
        layout += [{"kind": "bot", "level": "random"}] * (seats - people)
        code = await clients[0].create({"preset": preset, "match": "first-to-99"}, layout, people)
        for guest in clients[1:]:
            await guest.join(code)
        self.tables[code] = clients
        return clients

    async def play(self) -> Report:
        begin = time.monotonic()
        seated = [await self._table(index) for index in range(self.settings.tables)]
        tasks = [asyncio.ensure_future(c.play()) for cs in seated for c in cs]
        await asyncio.sleep(2)
        self.armed = self.settings.kills > 0
        if not self.armed:
            self.idle.set()
        while not self.idle.is_set():
            await asyncio.sleep(0.5)
            if not self.armed and not self.open and time.monotonic() - self.claimed > 5:
                self.armed = len(self.report.kills) < self.settings.kills  # a lost claim
            if all(task.done() for task in tasks):
                break
        for cs in seated:
            for client in cs:
                client.stopping = True
        _, waiting = await asyncio.wait(tasks, timeout=STALL)
        for task in waiting:
            task.cancel()
        self.report.seconds = time.monotonic() - begin
        self._tally(seated)
        await self.redis.aclose()
        return self.report

    def _tally(self, seated: list[list[OutsideClient]]) -> None:
        report = self.report
        started: set[tuple[str, int]] = set()
        finished: dict[tuple[str, int], dict[str, Any]] = {}
        for clients in seated:
            for client in clients:
                tally = client.tally
                code = client.code or "?"
                started |= {(code, deal) for deal in tally.deals}
                finished |= {(code, deal): rec for deal, rec in tally.records.items()}
                report.errors.update(tally.errors)
                report.refused += [f"{code} {client.name}: {each}" for each in tally.refused]
                report.notices.update(tally.notices)
                report.resets += tally.resets
                report.reconnections += tally.reconnections
                report.sent_again += tally.sent_again
                report.moves += tally.moves
                report.longest_gap = max(report.longest_gap, tally.longest_gap)
                if not client.done:
                    report.stalled.append(f"{code} {client.name}: did not finish its hand")
                elif tally.gave_up or tally.closed:
                    report.stalled.append(f"{code} {client.name}: {tally.gave_up or tally.closed}")
        report.started, report.finished = len(started), len(finished)
        report.bad_points = sum(sum(rec["result"]["points"]) != 120 for rec in finished.values())
        for hand in sorted(started - set(finished)):
            report.stalled.append(f"{hand[0]} hand {hand[1]}: started, never finished")


def run(settings: Settings) -> Report:
    """Start the cluster, play and kill, stop everything; the figures."""
    folder = settings.folder
    temporary = None
    if folder is None:
        temporary = tempfile.TemporaryDirectory(prefix="briscola-kill-")
        folder = Path(temporary.name)
    cluster = Cluster(folder, settings.lease, settings.proxy, settings.tables)
    try:
        return asyncio.run(Run(settings, cluster).play())
    finally:
        cluster.stop()
        if temporary is not None:
            temporary.cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.kill_run", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--kills", type=int, default=100, help="processes killed (100)")
    parser.add_argument("--tables", type=int, default=16, help="tables played at once (16)")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds a move (0.3)")
    parser.add_argument("--lease", type=float, default=1.0, help="the servers' --lease (1)")
    parser.add_argument("--no-proxy", action="store_true", help="no HAProxy even if installed")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--folder", type=Path, help="keep the logs here (default: thrown away)")
    parser.add_argument("--verbose", action="store_true", help="a line per kill")
    args = parser.parse_args(argv)
    if not 0 <= args.kills <= 10_000 or not 1 <= args.tables <= 500:
        parser.error("--kills must be 0 to 10000 and --tables 1 to 500")
    if args.think < 0 or not 0.2 <= args.lease <= 30:
        parser.error("--think must not be negative and --lease 0.2 to 30")
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        args.kills, args.tables, args.think, args.lease, not args.no_proxy, args.seed,
        args.folder, args.verbose,
    )  # fmt: skip
    report = run(settings)
    print("\n".join(report.lines()))
    return 1 if report.stalled or report.started != report.finished else 0


if __name__ == "__main__":
    sys.exit(main())
