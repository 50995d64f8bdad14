"""Hard's time per move on a fixed set of positions (issue 51).

    python -m tools.hard_bench [--preset classic2] [--positions 120] [--budget N]
        [--seed 1] [--profile FILE]

The positions are seeded: hands of ``--preset`` played by the hand-written medium (one card
in five at random), and every decision of the seat to play taken while the hand lasts,
skipping forced moves, until ``--positions``. Hard (its default options, ``--budget`` if
given; no clock, so the same seed gives the same moves) chooses in each, and the tool
prints the processor time per move (mean, 95th percentile, max), the samples per move and
a digest of the choices and of hard's value of every line: a pure speed-up keeps the digest
(same decisions for the same seed and budget) and lowers the times. ``--profile`` writes a
cProfile of the whole run. Figures depend on the machine and its load: print them, do not
assert them; on a shared machine run the before and after alternately.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import random
import statistics
import time
from collections.abc import Sequence

from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.engine import GameState, PlayerView, Rules, view

__all__ = ["Result", "main", "measure", "positions"]


def positions(rules: Rules, count: int, seed: int) -> list[PlayerView]:
    """``count`` views of a seat to play a card with a choice, from seeded hands."""
    rng = random.Random(seed)
    out: list[PlayerView] = []
    deal = 0
    while len(out) < count:
        state = GameState.new(rules, rng, dealer=deal % rules.players)
        deal += 1
        while not state.is_terminal() and len(out) < count:
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            if state.phase == "play" and len(seen.legal) > 1:
                out.append(seen)
            if rng.random() < 0.2:
                state.apply(rng.choice(seen.legal))
            else:
                state.apply(medium_action(seen))
    return out


class Result:
    """Times (processor seconds per move), samples per move and the digest of the run."""

    def __init__(self, times: list[float], samples: list[int], digest: str) -> None:
        self.times = times
        self.samples = samples
        self.digest = digest

    def p95(self) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    def line(self) -> str:
        mean = statistics.fmean(self.times)
        return (
            f"{len(self.times)} moves: mean {1000 * mean:.1f} ms, p95 {1000 * self.p95():.1f} ms,"
            f" max {1000 * max(self.times):.1f} ms (processor time);"
            f" samples mean {statistics.fmean(self.samples):.1f}; digest {self.digest}"
        )


def measure(views: Sequence[PlayerView], budget: int | None, seed: int) -> Result:
    """Hard's choice in each view (a bot seeded by ``seed`` and the view's number)."""
    digest = hashlib.sha256()
    times: list[float] = []
    samples: list[int] = []
    for i, seen in enumerate(views):
        bot = HardBot(random.Random(seed * 100003 + i), budget=budget)
        start = time.process_time()
        action = bot.choose(seen)
        times.append(time.process_time() - start)
        samples.append(bot.last_samples)
        digest.update(str(action).encode())
        for label, value in sorted(bot.last_values.items()):
            digest.update(f"{label}={value:.12f};".encode())
    return Result(times, samples, digest.hexdigest()[:16])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.hard_bench", description=__doc__)
    parser.add_argument("--preset", default="classic2")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, help="write a cProfile of the run here")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    views = positions(rules, args.positions, args.seed)
    if args.profile:
        profiler = cProfile.Profile()
        result = profiler.runcall(measure, views, args.budget, args.seed)
        profiler.dump_stats(args.profile)
    else:
        result = measure(views, args.budget, args.seed)
    print(f"{args.preset} budget {args.budget or 'default'}: {result.line()}")


if __name__ == "__main__":
    main()
