"""The rating experiment (docs/ratings.md) and the fit of the luck values it uses.

    .venv/bin/python -m tools.rating_experiment fit --games 6000 --seed 1
    .venv/bin/python -m tools.rating_experiment run --players 200 --games 800 --seed 1
    .venv/bin/python -m tools.rating_experiment compare --games 300 --playouts 8,32

``fit``: for each configuration with draws from a stock, ``--games`` hands of rule players
(:mod:`briscola.ai.rulebot`) that play a random legal card with a chance drawn anew for
each seat and hand, uniformly from 0 to 1 (players of every strength; deals, dealers and
chances from ``--seed``); the worth of each card category
(:mod:`briscola.ratings.luck`) is the least-squares fit of each side's points (less the
sides' mean) on its luck features (less the sides' mean); written to
``assets/ai/luck-values.json`` with the command and the spread of the points before and
after on the last fifth of the hands (held out of the fit).

``run``: ``--players`` simulated players of known strength: player ``i`` is the rule player
(:mod:`briscola.ai.rulebot`) that plays a uniformly random legal card with chance
``eps_i = i / (players - 1)`` (the first never, the last always): its true strength is
``1 - eps_i``. Each round pairs every player with a random other (a random perfect
matching) for one two-player hand (``classic2``, random seats and dealer; ``--preset
teams4``: tables of four drawn at random, each player in one hand a round); every hand is
rated by every method at once, so they see the same hands. After every ``--every`` rounds
each method's ordering (the conservative ordinal) is compared with the true one (Kendall's
tau) and its ratings predict ``--held-out`` hands between random pairs, played once at the
start and never rated (log loss and Brier score of the chance of a win; a draw counts a
half). The table printed (and written to docs/ratings.md by hand) gives, per method, the
games per player until tau first reaches 0.6, 0.7, 0.8 and 0.9, and the prediction errors
at a few budgets.

``compare``: the card values against the search's rollout value
(:mod:`briscola.ratings.rollout`) on the same hands of the rule player's self-play.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola.ai import Bot
from briscola.ai.sparring import make_arena_bot
from briscola.engine import PRESETS, Action, GameState, PlayerView, Rules, view
from briscola.ratings.luck import FORMAT, LUCK_FILE, luck_features, luck_of, relative
from briscola.resources import asset_path

#: The configurations whose luck values ``fit`` writes: those with draws from a stock.
FIT_PRESETS = tuple(name for name, rules in PRESETS.items() if not rules.chiamata)


class Mixed:
    """A player that makes a uniformly random legal move with chance ``eps``, otherwise
    ``base``'s move."""

    def __init__(self, base: Bot, eps: float, rng: random.Random) -> None:
        self.name = f"{base.name}~{eps:.3f}"
        self.base = base
        self.eps = eps
        self.rng = rng

    def choose(self, seen: PlayerView) -> Action:
        if self.eps > 0 and self.rng.random() < self.eps:
            legal = seen.legal
            return legal[int(self.rng.random() * len(legal))]
        return self.base.choose(seen)


def play_hand(rules: Rules, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """One hand of ``rules`` with ``bots[seat]`` at each seat, the deal and dealer from
    ``rng``; the finished state (with its deck)."""
    state = GameState.new(rules, rng, dealer=rng.randrange(rules.players))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(view(state, seat)))
    return state


# ---------------------------------------------------------------------------- fit


def fit(games: int, seed: int, out: Path, log: Callable[[str], None]) -> dict[str, Any]:
    import numpy as np

    worth: dict[str, list[float]] = {}
    figures: dict[str, dict[str, float]] = {}
    for name in FIT_PRESETS:
        rules = PRESETS[name]
        rng = random.Random(f"{seed}:{name}")
        bots = [
            Mixed(make_arena_bot("rules", random.Random(f"{seed}:{name}:{s}")), 0.0,
                  random.Random(f"{seed}:{name}:mix:{s}"))
            for s in range(rules.players)
        ]  # fmt: skip
        rows: list[list[float]] = []
        targets: list[float] = []
        hands: list[int] = []
        started = time.perf_counter()
        for g in range(games):
            for bot in bots:
                bot.eps = rng.random()
            state = play_hand(rules, bots, rng)
            points = state.outcome().side_points
            share = sum(points) / len(points)
            for side, row in enumerate(relative(luck_features(state))):
                rows.append(row)
                targets.append(points[side] - share)
                hands.append(g)
        x = np.array(rows)
        y = np.array(targets)
        train = np.array(hands) < games * 4 // 5
        coef, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
        test = ~train
        before = float(y[test].var())
        after = float((y[test] - x[test] @ coef).var())
        worth[name] = [round(float(c), 4) for c in coef]
        figures[name] = {
            "sd_before": round(math.sqrt(before), 2),
            "sd_after": round(math.sqrt(after), 2),
            "variance_kept": round(after / before, 3),
        }
        log(
            f"{name}: points' sd {math.sqrt(before):.1f} -> {math.sqrt(after):.1f} on held-out"
            f" hands ({after / before:.0%} of the variance),"
            f" {time.perf_counter() - started:.0f} s"
        )
    doc = {
        "format": FORMAT,
        "categories": "trick-taking strength 1..10, then the same as trumps",
        "worth": worth,
        "provenance": {
            "command": f"python -m tools.rating_experiment fit --games {games} --seed {seed}",
            "players": "rule players (briscola.ai.rulebot) that play a random legal card with"
            " a chance drawn for each seat and hand uniformly from 0 to 1",
            "held_out": "the last fifth of the hands",
            "figures": figures,
        },
    }
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return doc


# ---------------------------------------------------------------------------- compare


def compare(
    games: int, playouts: Sequence[int], seed: int, log: Callable[[str], None]
) -> dict[str, Any]:
    """The two values of the luck on the same ``classic2`` hands of the rule player's
    self-play: the spread of the points difference raw, less the luck by the card values,
    and less the luck by the rollout value at each of ``playouts``, with the time each
    took per hand."""
    from briscola.ratings.rollout import luck_of as rollout_luck_of

    rules = PRESETS["classic2"]
    rng = random.Random(f"{seed}:compare")
    bots = [make_arena_bot("rules", random.Random(f"{seed}:compare:{s}")) for s in range(2)]
    states = [play_hand(rules, bots, rng) for _ in range(games)]
    raw = [float(s.points[0] - s.points[1]) for s in states]
    out: dict[str, Any] = {"hands": games, "raw_sd": round(statistics.pstdev(raw), 2)}
    started = time.perf_counter()
    cards = [luck_of(s) for s in states]
    out["card values"] = {
        "sd": round(statistics.pstdev([h.adjusted[0] - h.adjusted[1] for h in cards]), 2),
        "ms_per_hand": round(1000 * (time.perf_counter() - started) / games, 2),
    }
    for count in playouts:
        started = time.perf_counter()
        hands = [rollout_luck_of(s, playouts=count, seed=k) for k, s in enumerate(states)]
        out[f"rollout, {count} playouts"] = {
            "sd": round(statistics.pstdev([h.adjusted[0] - h.adjusted[1] for h in hands]), 2),
            "ms_per_hand": round(1000 * (time.perf_counter() - started) / games, 2),
        }
    for key, value in out.items():
        log(f"{key}: {value}")
    return out


# ---------------------------------------------------------------------------- run

#: The methods compared: the score each side is ranked by (its points, or its points less
#: its luck) and the band within which two scores tie (:func:`briscola.ratings.service.ranks_of`).
METHODS: dict[str, tuple[str, float]] = {
    "outcome": ("points", 0.0),
    "luck-adjusted": ("adjusted", 0.0),
    "outcome, ties within 20": ("points", 20.0),
    "luck-adjusted, ties within 20": ("adjusted", 20.0),
}
#: Kendall's tau to reach (the goal is 0.9), and the budgets (games per player) at which
#: the prediction errors are shown.
TAU_GOALS = (0.6, 0.7, 0.75, 0.8, 0.9)
BUDGETS = (40, 200, 800)


def kendall_tau(values: Sequence[float], truth: Sequence[float]) -> float:
    """Kendall's tau between ``values`` and ``truth`` (no ties in ``truth``; a tie in
    ``values`` counts as neither agreeing nor disagreeing)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    y = np.asarray(truth, dtype=float)
    agree = np.sign(x[:, None] - x[None, :]) * np.sign(y[:, None] - y[None, :])
    n = len(x)
    return float(agree.sum() / (n * (n - 1)))


@dataclass
class Player:
    eps: float
    bot: Bot


def make_players(count: int, seed: int) -> list[Player]:
    """Player ``i``: the rule player with a random legal move at chance ``i / (count - 1)``."""
    players = []
    for i in range(count):
        eps = i / (count - 1)
        base = make_arena_bot("rules", random.Random(f"{seed}:base:{i}"))
        players.append(Player(eps, Mixed(base, eps, random.Random(f"{seed}:mix:{i}"))))
    return players


def play_table(
    rules: Rules, players: Sequence[Player], group: Sequence[int], rng: random.Random
) -> tuple[list[list[int]], list[float], list[float]]:
    """One hand of ``group`` (player numbers, in random seats): its sides as player
    numbers, their points and their points less their luck."""
    seats = list(group)
    rng.shuffle(seats)
    state = play_hand(rules, [players[p].bot for p in seats], rng)
    hand = luck_of(state)
    sides = [[seats[s] for s in side] for side in state.outcome().sides]
    return sides, [float(p) for p in hand.points], list(hand.adjusted)


def run(
    count: int,
    games: int,
    every: int,
    held_out: int,
    seed: int,
    log: Callable[[str], None],
    tau: float | None = None,
    preset: str = "classic2",
    model: str = "plackett-luce",
) -> dict[str, Any]:
    """The experiment (see the module docstring); the curves and the summary."""
    from briscola.ratings import MemoryStore, RatingService, family_of

    rules = PRESETS[preset]
    family = family_of(rules)
    size = rules.players
    if rules.chiamata or len(rules.sides) != 2 or count % size:
        raise ValueError(f"{preset}: the experiment needs two sides and {size} | players")
    players = make_players(count, seed)
    ids = [f"p{i}" for i in range(count)]
    truth = [1.0 - p.eps for p in players]
    rng = random.Random(f"{seed}:games")
    started = time.perf_counter()
    tests = []
    for _ in range(held_out):
        sides, points, _adjusted = play_table(rules, players, rng.sample(range(count), size), rng)
        outcome = 1.0 if points[0] > points[1] else 0.5 if points[0] == points[1] else 0.0
        tests.append((sides[0], sides[1], outcome))
    services = {
        m: RatingService(
            MemoryStore(), model=model, clock=lambda: 0.0, bands={family: band}, tau=tau
        )
        for m, (_, band) in METHODS.items()
    }
    curves: dict[str, list[dict[str, float]]] = {m: [] for m in METHODS}
    luck_sd: list[float] = []
    raw_sd: list[float] = []
    order = list(range(count))
    for round_ in range(1, games + 1):
        rng.shuffle(order)
        for k in range(0, count, size):
            sides, points, adjusted = play_table(rules, players, order[k : k + size], rng)
            raw_sd.append(points[0] - points[1])
            luck_sd.append(adjusted[0] - adjusted[1])
            hand = f"{round_}:{k}"
            teams = [[ids[p] for p in side] for side in sides]
            for method, service in services.items():
                scores = points if METHODS[method][0] == "points" else adjusted
                service.rate_hand(family, teams, list(scores), hand)
        if round_ % every == 0 or round_ == games:
            for method, service in services.items():
                curves[method].append(measure(service, family, ids, truth, tests, round_))
            log(
                f"{round_} games per player, {time.perf_counter() - started:.0f} s: "
                + ", ".join(f"{m}: {curves[m][-1]['tau']:.3f}" for m in METHODS)
            )
    summary = {}
    for method in METHODS:
        reached = {
            str(goal): next((c["games"] for c in curves[method] if c["tau"] >= goal), None)
            for goal in TAU_GOALS
        }
        summary[method] = {
            "games_to_tau": reached,
            "at": {str(c["games"]): c for c in curves[method] if c["games"] in BUDGETS},
        }
    return {
        "command": f"python -m tools.rating_experiment run --preset {preset} --players {count}"
        f" --games {games}"
        f" --every {every} --held-out {held_out} --seed {seed}"
        + (f" --tau {tau}" if tau is not None else "")
        + (f" --model {model}" if model != "plackett-luce" else ""),
        "seconds": round(time.perf_counter() - started),
        "sd_points_difference": {
            "outcome": round(statistics.pstdev(raw_sd), 2),
            "luck-adjusted": round(statistics.pstdev(luck_sd), 2),
        },
        "summary": summary,
        "curves": curves,
    }


def measure(
    service: Any,
    family: str,
    ids: Sequence[str],
    truth: Sequence[float],
    tests: Sequence[tuple[list[int], list[int], float]],
    games: int,
) -> dict[str, float]:
    """Kendall's tau of the ordinals against ``truth``, and the log loss and Brier score of
    the held-out hands' predictions."""
    model = service.model
    ratings = [service.rating(family, p) for p in ids]
    tau = kendall_tau([r.ordinal for r in ratings], truth)
    loss = brier = 0.0
    for one, other, outcome in tests:
        teams = [
            [model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) for p in side]
            for side in (one, other)
        ]
        p = min(max(model.predict_win(teams)[0], 1e-9), 1 - 1e-9)
        loss -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
        brier += (p - outcome) ** 2
    n = len(tests)
    return {
        "games": games,
        "tau": round(tau, 4),
        "log_loss": round(loss / n, 4),
        "brier": round(brier / n, 4),
    }


def table(result: dict[str, Any]) -> str:
    """The summary as a Markdown table."""
    lines = [
        f"`{result['command']}` ({result['seconds']} s)",
        "",
        "| method | "
        + " | ".join(f"games to tau {goal}" for goal in TAU_GOALS)
        + " | "
        + " | ".join(f"tau / log loss / Brier at {b}" for b in BUDGETS)
        + " |",
        "|---|" + "---|" * (len(TAU_GOALS) + len(BUDGETS)),
    ]
    for method, summary in result["summary"].items():
        reached = [summary["games_to_tau"][str(goal)] for goal in TAU_GOALS]
        cells = [str(r) if r is not None else "-" for r in reached]
        for budget in BUDGETS:
            c = summary["at"].get(str(budget))
            cells.append(
                "-" if c is None else f"{c['tau']:.3f} / {c['log_loss']:.4f} / {c['brier']:.4f}"
            )
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    sd = result["sd_points_difference"]
    lines.append("")
    lines.append(
        f"Standard deviation of the points difference: {sd['outcome']} raw,"
        f" {sd['luck-adjusted']} less the luck."
    )
    return "\n".join(lines)


# ---------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.rating_experiment",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    fitting = sub.add_parser("fit", help="fit the luck values (assets/ai/luck-values.json)")
    fitting.add_argument("--games", type=int, default=6000)
    fitting.add_argument("--seed", type=int, default=1)
    fitting.add_argument("--out", type=Path, default=asset_path(*LUCK_FILE))
    comparing = sub.add_parser("compare", help="the card values against the rollout value")
    comparing.add_argument("--games", type=int, default=300)
    comparing.add_argument("--playouts", default="8,32")
    comparing.add_argument("--seed", type=int, default=1)
    running = sub.add_parser("run", help="the rating experiment")
    running.add_argument("--players", type=int, default=200)
    running.add_argument(
        "--preset", default="classic2", help="a table of two sides (classic2, teams4, teams6)"
    )
    running.add_argument("--games", type=int, default=400, help="games per player")
    running.add_argument("--every", type=int, default=10, help="rounds between measures")
    running.add_argument("--held-out", type=int, default=2000)
    running.add_argument("--seed", type=int, default=1)
    running.add_argument("--json", type=Path, help="also write the curves here")
    running.add_argument("--model", default="plackett-luce", help="OpenSkill's model")
    running.add_argument(
        "--tau", type=float, help="OpenSkill's dynamics (default: the model's, 25/300)"
    )
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.command == "fit":
        fit(args.games, args.seed, args.out, log)
        return 0
    if args.command == "compare":
        counts = [int(c) for c in args.playouts.split(",") if c.strip()]
        print(json.dumps(compare(args.games, counts, args.seed, log), indent=1))
        return 0
    result = run(
        args.players,
        args.games,
        args.every,
        args.held_out,
        args.seed,
        log,
        args.tau,
        args.preset,
        args.model,
    )
    print(table(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
