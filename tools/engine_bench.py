"""Engine speed benchmark: complete random games per second on one core.

    python -m tools.engine_bench [--seconds 2]

Three paths are timed for 2, 4 and 5 players:

* ``state``: the full, validated :class:`GameState` API (legal_actions + apply + events),
  what the GUI and records use;
* ``sim``: :class:`Sim` from a fresh deal, random legal card each move, the path that
  search uses on determinized states;
* ``playout2`` (2 players only): the specialised two-player playout.

The "search path" target is 15,000 two-player games per second (a published Python peer
does 6,900; the ratio is printed).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from briscola.engine.rules import Rules
from briscola.engine.sim import Sim, playout2
from briscola.engine.state import GameState

PEER_GAMES_PER_SECOND = 6900.0
TARGET = 15000.0


def _rate(run_one: Callable[[int], None], seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            run_one(count)
            count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def bench_state(rules: Rules, seconds: float) -> float:
    rng = random.Random(1)

    def one(i: int) -> None:
        state = GameState.new(rules, rng, dealer=i % rules.players)
        choice = rng.choice
        while not state.is_terminal():
            state.apply(choice(state.legal_actions()))

    return _rate(one, seconds)


def _dealt_sims(rules: Rules, count: int) -> list[Sim]:
    rng = random.Random(2)
    sims = []
    for i in range(count):
        state = GameState.new(rules, rng, dealer=i % rules.players)
        while state.phase in ("auction", "call"):
            state.apply(rng.choice(state.legal_actions()))
        sims.append(Sim.from_state(state))
    return sims


def bench_sim(rules: Rules, seconds: float) -> float:
    rng = random.Random(3)
    sims = _dealt_sims(rules, 200)

    def one(i: int) -> None:
        sims[i % 200].clone().playout(rng)

    return _rate(one, seconds)


def bench_playout2(seconds: float) -> float:
    rng = random.Random(4)
    sims = _dealt_sims(Rules.preset("classic2"), 200)

    def one(i: int) -> None:
        sim = sims[i % 200]
        playout2(list(sim.hands[0]), list(sim.hands[1]), list(sim.stock), sim.beats, sim.turn, rng)

    return _rate(one, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args(argv)
    rows: list[tuple[str, str, float]] = []
    for name in ("classic2", "teams4", "chiamata5"):
        rules = Rules.preset(name)
        rows.append((name, "state", bench_state(rules, args.seconds)))
        rows.append((name, "sim", bench_sim(rules, args.seconds)))
    rows.append(("classic2", "playout2", bench_playout2(args.seconds)))
    print(f"{'preset':<10} {'path':<9} {'games/s':>10} {'vs peer':>8} {'vs goal':>8}")
    for name, path, rate in rows:
        print(
            f"{name:<10} {path:<9} {rate:>10,.0f} {rate / PEER_GAMES_PER_SECOND:>7.2f}x"
            f" {rate / TARGET:>7.2f}x"
        )
    print(
        f"(peer: {PEER_GAMES_PER_SECOND:,.0f} two-player games/s; goal: {TARGET:,.0f} on the"
        " search path; ratios for other presets are only indicative)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
