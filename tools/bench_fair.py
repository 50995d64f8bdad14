"""``python -m tools.bench_fair``: how long a person waits for their computer opponent's
reply while thirty tables of the same address (one NAT: a family, an office) play their
computers flat out (issue 46, finding 5).

It starts a server (a subprocess, defaults but the per-address caps), seats a neighbour on
127.0.0.2 at a two-player table against a computer (``--level``) and has it move every
``--think`` seconds; it measures each reply (from its move to the update where it is its
turn again). Then the same with ``--crowd`` tables of 127.0.0.2 whose people move the
instant it is their turn. It prints p50 and p90 of both. Figures depend on the machine:
print them, do not assert them (``tests/server/test_server_hostile.py`` checks the
ordering that gives them).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from websockets.asyncio.client import connect

from briscola.protocol import messages as msg

__all__ = ["main"]


async def _play(
    url: str, level: str, think: float, until: float, replies: list[float] | None, seed: int
) -> None:
    """One person at a table against a computer until ``until``; ``replies`` gets the time
    from each of its moves to its next turn (None: not measured)."""
    rng = random.Random(seed)
    async with connect(url, local_addr=("127.0.0.2", 0), max_size=None) as ws:
        await ws.send(msg.encode(msg.hello("Neighbour" if replies is not None else "Crowd")))
        seats = [{"kind": "human"}, {"kind": "bot", "level": level}]
        await ws.send(msg.encode(msg.create({"preset": "classic2"}, seats, 0)))
        await ws.send(msg.encode(msg.start()))
        sent = 0.0
        while time.monotonic() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), until - time.monotonic())
            except TimeoutError:
                return
            message = msg.decode_server(text)
            if message is None or message["type"] != "update":
                continue
            if message["phase"] != "playing":
                if message["phase"] == "over":
                    await ws.send(msg.encode(msg.start()))
                else:
                    await ws.send(msg.encode(msg.next_hand()))
                continue
            view = message["view"]
            if view["current_player"] != 0 or not view["legal"]:
                continue
            if sent and replies is not None:
                replies.append(time.monotonic() - sent)
            await asyncio.sleep(think)
            sent = time.monotonic()
            await ws.send(msg.encode(msg.act(rng.choice(view["legal"]), message["moves"])))


async def _round(url: str, args: argparse.Namespace, crowd: int) -> list[float]:
    until = time.monotonic() + args.seconds
    replies: list[float] = []
    players = [_play(url, args.level, 0.0, until, None, n) for n in range(crowd)]
    players.append(_play(url, args.level, args.think, until, replies, 999))
    await asyncio.gather(*players)
    return replies


def _figures(replies: list[float]) -> str:
    if len(replies) < 2:
        return f"{len(replies)} replies"
    tenths = statistics.quantiles(replies, n=10)
    return f"p50 {statistics.median(replies):.2f} s, p90 {tenths[-1]:.2f} s ({len(replies)})"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_fair", description=__doc__)
    parser.add_argument("--crowd", type=int, default=30, help="tables of the same address")
    parser.add_argument("--level", default="hard", help="the computers' level")
    parser.add_argument("--think", type=float, default=0.3, help="the neighbour's think time")
    parser.add_argument("--seconds", type=float, default=20.0, help="each round's length")
    args = parser.parse_args(argv)
    server = subprocess.Popen(
        [sys.executable, "-m", "briscola.server", "--port", "0", "--log-level", "WARNING",
         "--max-tables-per-address", "200", "--max-rooms-per-address", "200",
         "--max-per-address", "200"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[-1]
        alone = asyncio.run(_round(url, args, 0))
        crowded = asyncio.run(_round(url, args, args.crowd))
    finally:
        server.terminate()
        server.wait(15)
    print(f"neighbour's computer replies, alone: {_figures(alone)}")
    print(f"with {args.crowd} tables of its address playing flat out: {_figures(crowded)}")


if __name__ == "__main__":
    main()
