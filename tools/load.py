"""``python -m tools.load``: a load test of the server over real sockets.

Computer players connect as clients (two per table, classic two-player matches), play with
a think time per move, and measure the latency from sending an action to receiving the next
view. Without ``--url`` the tool starts a server in a subprocess (and can then read its
memory); with ``--url`` it plays against a running one. It prints the tables, moves per
second, latency p50/p99, the server's memory per table and CPU, and every error. Figures
depend on the machine and on what else runs on it: print them, do not assert them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from briscola.engine import ReplayError, replay
from briscola.protocol import messages as msg
from briscola.protocol.errors import ErrorCode
from briscola.protocol.wire import table_url
from tools.haproxy import code_start, haproxy_config

__all__ = ["main"]


#: Frames sent again and again, made once.
_NEXT: Final = msg.encode(msg.next_hand())
_START: Final = msg.encode(msg.start())


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    hands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    seated: int = 0
    measuring: bool = False
    #: ``--hands``: tables whose players saw their last hand end, and the reconnections.
    finished: int = 0
    reconnects: int = 0
    #: Hands whose final record does not replay to exactly the cards a player saw played.
    mismatches: int = 0


class Player:
    """One seat of one table, playing random legal moves after a think time. A dropped
    connection is opened again and the seat resumed with its token (a server process
    killed or restarted behind one address)."""

    def __init__(
        self, url: str, name: str, think: float, figures: Figures, seed: int, hands: int = 0
    ) -> None:
        self.url = url
        self.name = name
        self.think = think
        self.figures = figures
        self.rng = random.Random(seed)
        self.sent_at: float | None = None
        self.ws: ClientConnection | None = None
        self.host = False
        #: Hands to play before stopping (0: until the measurement ends).
        self.hands = hands
        self.code: str | None = None
        self.token: str | None = None
        self.done = False
        self.deal: int | None = None
        self.seen: list[str] = []
        #: Name the table in the address (``?table=CODE``) once its code is known, as the
        #: game's client does, for a proxy that routes by it.
        self.route = True

    async def open(self) -> ClientConnection:
        url = table_url(self.url, self.code if self.route else None)
        ws = await connect(url, open_timeout=60, compression=None, proxy=None, max_size=None)
        self.ws = ws
        await ws.send(msg.encode(msg.hello(self.name)))
        welcome = msg.decode_server(await ws.recv())
        if welcome is None or welcome["type"] != "welcome":
            raise RuntimeError(f"refused: {welcome}")
        return ws

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set() and not self.done:
            lost = await self._session(stop)
            if not lost or stop.is_set() or self.done:
                return
            if self.token is None or not await self._reconnect(stop):
                self.figures.errors["connection lost"] += 1
                return

    async def _reconnect(self, stop: asyncio.Event) -> bool:
        """Open a new connection (retrying for half a minute) and take the seat back."""
        self.figures.reconnects += 1
        delay = 0.05
        deadline = time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(delay * self.rng.uniform(0.5, 1.5))
            delay = min(1.0, delay * 2)
            try:
                ws = await self.open()
                assert self.code is not None and self.token is not None
                await ws.send(msg.encode(msg.resume(self.code, self.token)))
                return True
            except (OSError, ConnectionClosed, RuntimeError, TimeoutError):
                continue
        return False

    async def _session(self, stop: asyncio.Event) -> bool:
        """Play on one connection; True when it was lost."""
        ws = self.ws
        assert ws is not None
        pending: asyncio.Task[None] | None = None
        told = False  # the table closed: the seat is gone
        try:
            async for text in ws:
                if stop.is_set():
                    break
                message = msg.decode_server(text)
                if message is None:
                    continue
                if message["type"] == "error":
                    if message["code"] != ErrorCode.STALE:  # a move across a reconnection
                        self.figures.errors[message["code"]] += 1
                elif message["type"] == "joined":
                    self.code, self.token = message["table"], message["token"]
                elif message["type"] == "closed":
                    self.figures.errors["closed:" + message["reason"]] += 1
                    told = True
                    break
                elif message["type"] == "update":
                    pending = self._update(message, ws) or pending
                    if self.done:
                        break
        except ConnectionClosed:
            return not stop.is_set() and not self.done
        finally:
            if pending is not None:
                pending.cancel()
        # A normal close (1000, 1001: "going away") also ends the loop: a server process
        # that stops sends its players to reconnect.
        return not (told or stop.is_set() or self.done)

    def _watch(self, message: msg.Update) -> None:
        """Keep the cards seen played this hand; at its end, check them against the record."""
        if message["reset"] or message["deal"] != self.deal:
            self.seen, self.deal = [], message["deal"]
        self.seen.extend(e["card"] for e in message["events"] if e["event"] == "played")
        record = message.get("record")
        if record is not None and self.hands:
            try:
                played = [card.code for trick in replay(record).tricks for card in trick.cards]
            except ReplayError:
                played = []
            if played != self.seen:
                self.figures.mismatches += 1

    def _update(self, message: msg.Update, ws: ClientConnection) -> asyncio.Task[None] | None:
        now = time.perf_counter()
        self._watch(message)
        if self.sent_at is not None:
            if self.figures.measuring:
                self.figures.latencies.append(now - self.sent_at)
                self.figures.moves += 1
            self.sent_at = None
        view = message["view"]
        phase = message["phase"]
        last = self.hands and message["deal"] >= self.hands
        if last and phase in ("between", "over") and message.get("record") is not None:
            self.done = True
            if self.host:
                self.figures.finished += 1
            return None
        if phase == "between":
            if self.host and self.figures.measuring:
                self.figures.hands += 1
            return asyncio.ensure_future(ws.send(_NEXT))
        if phase == "over" and self.host:
            return asyncio.ensure_future(ws.send(_START))
        if phase != "playing" or view["current_player"] != view["seat"] or not view["legal"]:
            return None
        action = self.rng.choice(view["legal"])
        reply = msg.encode(msg.act(action, message["moves"]))
        return asyncio.ensure_future(self._act(ws, reply))

    async def _act(self, ws: ClientConnection, reply: str) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        self.sent_at = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):
            await ws.send(reply)


async def _table(
    urls: Sequence[str], index: int, args: argparse.Namespace, figures: Figures, stop: asyncio.Event
) -> None:
    # With several processes sharing Redis, the host and the guest reach different ones;
    # in memory each process is a server of its own, and a table's players reach one.
    host_url = urls[index % len(urls)]
    guest_url = urls[(index + 1) % len(urls)] if args.redis else host_url
    think, hands = args.think, args.hands
    host = Player(host_url, f"Host {index}", think, figures, index * 2, hands)
    guest = Player(guest_url, f"Guest {index}", think, figures, index * 2 + 1, hands)
    host.host = True
    host.route = guest.route = not args.no_route
    try:
        ws = await host.open()
        await ws.send(
            msg.encode(msg.create({"preset": "classic2", "match": "first-to-99"}, None, 0))
        )
        while host.code is None:
            message = msg.decode_server(await ws.recv())
            if message is None:
                continue
            if message["type"] == "joined":
                host.code, host.token = message["table"], message["token"]
            elif message["type"] == "error":
                raise RuntimeError(message["message"])
        guest.code = host.code
        gws = await guest.open()
        await gws.send(msg.encode(msg.join(host.code)))
        await gws.send(msg.encode(msg.ready()))
        while True:
            message = msg.decode_server(await ws.recv())
            if message is None or message["type"] != "table":
                continue
            if all(s.get("ready") for s in message["seats"]):
                break
        await ws.send(_START)
        figures.seated += 1
    except Exception as exc:
        figures.errors[f"setup: {type(exc).__name__}: {exc}"[:80]] += 1
        return
    await asyncio.gather(host.play(stop), guest.play(stop))
    for player in (host, guest):
        if player.ws is not None:
            with contextlib.suppress(Exception):
                await player.ws.close()


def _rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _percentile(values: Sequence[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _redis_commands(url: str | None) -> int | None:
    """Commands Redis has processed so far (``INFO stats``), or None without Redis."""
    if url is None:
        return None
    import redis  # only for a benchmark of --redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


async def _run(args: argparse.Namespace, urls: Sequence[str], pids: Sequence[int]) -> Figures:
    figures = Figures()
    stop = asyncio.Event()
    pid = pids[0] if len(pids) == 1 else None
    base_rss = _rss_kib(pid) if pid else None
    tasks = []
    started = time.monotonic()
    for index in range(args.tables):
        work = _table(urls, index, args, figures, stop)
        tasks.append(asyncio.create_task(work))
        if index % 20 == 19:
            await asyncio.sleep(0.05)  # ramp up instead of one burst of handshakes
    while figures.seated + sum(n for k, n in figures.errors.items() if k.startswith("setup")) < (
        args.tables
    ):
        if time.monotonic() - started > 120:
            break
        await asyncio.sleep(0.1)
    ramp = time.monotonic() - started
    print(f"seated: {figures.seated} tables", flush=True)
    if not args.hands:
        await asyncio.sleep(min(2.0, args.duration / 4))  # settle
    figures.measuring = True
    cpu_before = [_cpu_seconds(each) for each in pids]
    proxy_before = _cpu_seconds(args.proxy_pid) if getattr(args, "proxy_pid", None) else None
    commands_before = _redis_commands(args.redis)
    own_before = time.process_time()
    begin = time.monotonic()
    if args.hands:  # until every table has played its hands (--duration: at most)
        while figures.finished < figures.seated and time.monotonic() - begin < args.duration:
            await asyncio.sleep(0.05)
    else:
        await asyncio.sleep(args.duration)
    elapsed = time.monotonic() - begin
    figures.measuring = False
    cpu_after = [_cpu_seconds(each) for each in pids]
    proxy_after = _cpu_seconds(args.proxy_pid) if getattr(args, "proxy_pid", None) else None
    commands_after = _redis_commands(args.redis)
    own_cpu = 100 * (time.process_time() - own_before) / elapsed
    peak_rss = _rss_kib(pid) if pid else None
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies_ms = [value * 1000 for value in figures.latencies]
    where = ""
    if len(pids) > 1:
        where = f", {len(pids)} server processes" + (
            " sharing Redis" if args.redis else " in memory, each with its own tables"
        )
    proxy_pid = getattr(args, "proxy_pid", None)
    if proxy_pid:
        where += " behind HAProxy" + (", round robin" if args.no_route else ", routed by table")
    print(f"tables: {figures.seated} of {args.tables} seated (ramp-up {ramp:.1f} s){where}")
    print(f"measured: {elapsed:.1f} s, think time {args.think:.2f} s per move (x0.5-1.5)")
    print(f"moves: {figures.moves} ({figures.moves / elapsed:.0f} moves/s), hands: {figures.hands}")
    p50, p99 = _percentile(latencies_ms, 0.5), _percentile(latencies_ms, 0.99)
    worst = max(latencies_ms, default=float("nan"))
    print(f"latency action -> next view: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms")
    if base_rss is not None and peak_rss is not None and figures.seated:
        per_table = (peak_rss - base_rss) / figures.seated
        print(
            f"server memory: {base_rss / 1024:.1f} MiB idle, {peak_rss / 1024:.1f} MiB loaded,"
            f" {per_table:.1f} KiB per table"
        )
    spent = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)
             if before is not None and after is not None]  # fmt: skip
    if pids and len(spent) == len(pids):
        used = sum(spent)
        per_move = 1000 * used / figures.moves if figures.moves else float("nan")
        print(f"server CPU: {100 * used / elapsed:.0f}% of one core, {per_move:.2f} ms per move")
    if proxy_before is not None and proxy_after is not None:
        print(f"proxy CPU: {100 * (proxy_after - proxy_before) / elapsed:.0f}% of one core")
    if commands_before is not None and commands_after is not None and figures.moves:
        per_move_ops = (commands_after - commands_before) / figures.moves
        print(f"Redis: {per_move_ops:.1f} operations per move")
    if args.hands:
        print(
            f"finished: {figures.finished} of {figures.seated} tables, {args.hands} hand(s) each;"
            f" reconnections: {figures.reconnects}; records unlike what was seen:"
            f" {figures.mismatches}"
        )
    print(f"load client CPU: {own_cpu:.0f}% of one core (the clients run in one process)")
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    total = sum(figures.errors.values())
    print(f"errors: {total}" + ("" if not total else " " + json.dumps(dict(figures.errors))))
    return figures


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_proxy(
    urls: Sequence[str], folder: str, route: bool, clients: int
) -> tuple[subprocess.Popen[bytes], str]:
    """HAProxy in front of the servers (``--proxy``): its process and its URL. Every
    client of the load comes from one address: its per-address limits let ``clients``
    connect, and each reconnect once in ten seconds."""
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(binary):
        raise SystemExit("--proxy needs haproxy (tools/system-packages.sh test installs it)")
    port = _free_port()
    config = os.path.join(folder, "haproxy.cfg")
    backends = [int(url.rsplit(":", 1)[1]) for url in urls]
    with open(config, "w", encoding="utf-8") as out:
        pid = os.path.join(folder, "haproxy.pid")
        out.write(haproxy_config(port, backends, pid, route, per_address=clients, rate=2 * clients))
    proc = subprocess.Popen([binary, "-db", "-f", config], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"haproxy exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"ws://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("haproxy did not listen")


def _start_server(args: argparse.Namespace, index: int) -> tuple[subprocess.Popen[str], str]:
    connections = str(max(2 * args.tables + 10, 100))
    command = [
        sys.executable, "-m", "briscola.server", "--port", "0",
        "--max-tables", str(args.tables + 10), "--max-connections", connections,
        "--max-per-address", connections, "--max-tables-per-address", connections,
        "--max-rooms-per-address", connections, "--rate", "1000", "--burst", "1000",
        "--log-level", "WARNING",
    ]  # fmt: skip
    if args.redis:
        command += ["--redis", args.redis]
    if args.proxy:
        command += ["--trusted-proxy", "127.0.0.1"]
        if not args.no_route:
            command += ["--code-start", code_start(index, args.processes)]
    return spawn_server(command)


def stop_servers(procs: Sequence[subprocess.Popen[str]]) -> None:
    """SIGTERM every server (they drain or close cleanly), then kill any still there."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def spawn_server(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    """Start a server with ``command``: its process and the URL it listens on."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split()[-1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.load", description=__doc__)
    parser.add_argument("--tables", type=int, default=100, help="two-player tables (100)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured (20)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds before each move (1.0; 0: none)"
    )
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument(
        "--redis", metavar="URL", help="the servers keep their tables in this Redis (--redis)"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes to start (1): with --redis, sharing the tables (a table's two"
        " players reach two of them); without, each a server of its own (tables dealt among"
        " them, both players on one: the in-memory baseline for as many processes)",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=0,
        help="play this many hands per table, then stop (--duration: at most); check each"
        " final record against the cards the players saw",
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="put HAProxy (as docs/server.md shows) in front of the servers: a player naming"
        " its table reaches the process holding it, the others any of them",
    )
    parser.add_argument(
        "--no-route",
        action="store_true",
        help="the players never name their table in the address: with --proxy, every"
        " connection reaches any process (round robin), as a client that does not do it would",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 5000:
        parser.error("--tables must be 1 to 5000")
    if not 0 < args.duration <= 3600 or args.think < 0:
        parser.error("--duration must be 0 to 3600 seconds and --think not negative")
    if not 1 <= args.processes <= 16:
        parser.error("--processes must be 1 to 16")
    if args.proxy and args.processes > 1 and not args.redis:
        parser.error("--proxy in front of several processes needs --redis")
    if not 0 <= args.hands <= 100:
        parser.error("--hands must be 0 to 100")
    if args.proxy and args.url:
        parser.error("--proxy starts the servers: it does not go with --url")
    procs: list[subprocess.Popen[str]] = []
    proxy: subprocess.Popen[bytes] | None = None
    urls = [args.url] if args.url else []
    folder = tempfile.TemporaryDirectory(prefix="briscola-load-")
    try:
        if not urls:
            for index in range(args.processes):
                proc, url = _start_server(args, index)
                procs.append(proc)
                urls.append(url)
        if args.proxy:
            proxy, url = _start_proxy(urls, folder.name, not args.no_route, 2 * args.tables + 10)
            urls = [url]
            args.proxy_pid = proxy.pid
        # The clients' own full garbage collections would be measured as server latency.
        gc.collect()
        gc.freeze()
        gc.set_threshold(2000, 20, 200)
        figures = asyncio.run(_run(args, urls, [proc.pid for proc in procs]))
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        folder.cleanup()
        stop_servers(procs)
    bad = sum(figures.errors.values()) + figures.mismatches
    if args.hands:
        bad += figures.seated - figures.finished
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
