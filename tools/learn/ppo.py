"""Train the ``ppo`` sparring partner: a policy network by self-play reinforcement learning
(numpy; the game itself never needs numpy).

    python -m tools.learn.ppo --preset classic2 --seed 1 --minutes 20 --jobs 1 \
        --out assets/ai/policy-ppo.json

Proximal policy optimisation from random weights: both seats of every game play the current
policy (a softmax over the network's score of each legal card, the inputs of
:func:`briscola.ai.policy.rows`), the reward is the hand's result for the seat's side (+1 a
win, 0 a draw, -1 a loss, plus 0.004 a card point of margin), the advantage that reward
minus a value network's estimate (its input: the mean of the legal cards' inputs). Each
iteration plays ``--games`` hands on ``--jobs`` processes (the card play on
:class:`~briscola.engine.Sim`), then takes ``--epochs`` passes of clipped-ratio updates (Adam)
over its decisions. Forced moves are not learned from.

Every ``--eval-every`` iterations the greedy policy (the card scored highest, as the bot plays)
meets the rule player (:class:`~briscola.ai.rulebot.RuleBot`) on ``--eval-games`` deals, both
seats; the weights are written then (and at the end) with their provenance: the command,
seeds, settings, iterations, games, the learning curve, the date and the git revision.
Deterministic for a seed and ``--jobs`` with ``--iterations`` (``--minutes`` stops on the
clock).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from briscola.ai.learned import configuration
from briscola.ai.policy import FEATURES, FORMAT, rows, view_rows
from briscola.ai.rulebot import RuleBot
from briscola.engine import GameState, Rules, Sim, view
from briscola.engine.sim import BEATS, taker
from tools.learn.train import _git_revision

Array = NDArray[np.float64]
Params = list[tuple[Array, Array]]
WIDTH = len(FEATURES)
#: Most legal cards in a decision (three-card hands).
K = 3


def init(sizes: list[int], rng: np.random.Generator, last_scale: float = 1.0) -> Params:
    params = [
        (rng.normal(0.0, 1.0 / np.sqrt(a), (b, a)), np.zeros(b))
        for a, b in itertools.pairwise(sizes)
    ]
    params[-1] = (params[-1][0] * last_scale, params[-1][1])
    return params


def forward(params: Params, x: Array) -> tuple[Array, list[Array]]:
    """The network's output per row of ``x`` and each layer's activations (for backprop)."""
    acts = [x]
    for i, (w, b) in enumerate(params):
        z = acts[-1] @ w.T + b
        acts.append(z if i == len(params) - 1 else np.tanh(z))
    return acts[-1][:, 0], acts


def backward(params: Params, acts: list[Array], dout: Array) -> Params:
    """The gradients of the weights for ``dout``, the loss's gradient per output."""
    grads: Params = []
    d = dout[:, None]
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        grads.append((d.T @ acts[i], d.sum(axis=0)))
        if i:
            d = (d @ w) * (1.0 - acts[i] ** 2)
    return grads[::-1]


def _softmax(z: Array, mask: Array) -> Array:
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z) * mask
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


def _result(points: list[int], side: int) -> float:
    mine = points[side]
    top = max(p for s, p in enumerate(points) if s != side)
    return (1.0 if mine > top else 0.0 if mine == top else -1.0) + 0.004 * (mine - top) / 2


def play_games(task: tuple[Params, str, int, int]) -> tuple[Array, Array, Array, Array, Array]:
    """Self-play of ``games`` hands: per decision the padded inputs, the mask of legal
    cards, the card chosen, its probability's log and the hand's reward for that seat."""
    params, preset, seed, games = task
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    xs: list[Array] = []
    masks: list[Array] = []
    acts: list[int] = []
    logps: list[float] = []
    rets: list[float] = []
    for _ in range(games):
        sim = Sim.from_state(GameState.new(rules, rng))
        n = sim.n
        beats = BEATS[(False, sim.trump)]
        gone = 0
        mark: list[tuple[int, int]] = []  # (decision index, seat)
        while not sim.is_over():
            seat = sim.turn
            legal = sim.legal()
            if len(legal) > 1:
                side = sim.side[seat]
                mine = False
                if sim.trick:
                    winner = (sim.leader + taker(sim.trick, beats)) % n
                    mine = sim.side[winner] == side
                pts = sim.points
                feats = rows(
                    legal,
                    sim.hands[seat],
                    sim.trick,
                    mine,
                    n - 1 - len(sim.trick),
                    gone,
                    sim.trump,
                    sim.stock[0] if sim.stock else -1,
                    len(sim.stock),
                    n,
                    (pts[side], max(p for s, p in enumerate(pts) if s != side)),
                )
                x = np.zeros((K, WIDTH))
                x[: len(feats)] = feats
                mask = np.zeros(K, dtype=bool)
                mask[: len(feats)] = True
                z, _ = forward(params, x)
                p = _softmax(z, mask)
                a = int(nrng.choice(K, p=p))
                mark.append((len(acts), seat))
                xs.append(x)
                masks.append(mask)
                acts.append(a)
                logps.append(float(np.log(p[a])))
                rets.append(0.0)
                card = legal[a]
            else:
                card = legal[0]
            gone |= 1 << card
            sim.play(card)
        for i, seat in mark:
            rets[i] = _result(sim.points, sim.side[seat])
    return (
        np.array(xs).reshape(-1, K, WIDTH),
        np.array(masks).reshape(-1, K),
        np.array(acts, dtype=np.int64),
        np.array(logps),
        np.array(rets),
    )


def greedy_against_rules(task: tuple[Params, str, int, int]) -> list[float]:
    """The greedy policy against the rule player: per deal, its mean result over both
    seatings (1 a win, 1/2 a draw)."""
    params, preset, seed, deals = task
    rules = Rules.preset(preset)
    out = []
    for d in range(deals):
        score = 0.0
        for r in range(2):
            rng = random.Random(f"ppo-eval/{seed}/{d}")
            state = GameState.new(rules, rng)
            other = RuleBot(random.Random(d))
            while state.phase != "over":
                seat = state.current_player
                assert seat is not None
                seen = view(state, seat)
                if rules.side_of(seat) == r:
                    plays, feats = view_rows(seen)
                    if len(plays) == 1 or len(plays) != len(seen.legal):
                        action = seen.legal[0] if len(seen.legal) == 1 else other.choose(seen)
                    else:
                        z, _ = forward(params, np.array(feats))
                        action = plays[int(np.argmax(z))]
                else:
                    action = other.choose(seen)
                state.apply(action)
            sides = [0, 0]
            for seat, pts in enumerate(state.points):
                sides[rules.side_of(seat)] += pts
            score += 1.0 if sides[r] > 60 else 0.5 if sides[r] == 60 else 0.0
        out.append(score / 2)
    return out


class Adam:
    """Adam over every array of ``params`` (weights and biases alike), in place."""

    def __init__(self, params: Params, lr: float) -> None:
        self.lr = lr
        arrays = [a for layer in params for a in layer]
        self.m = [np.zeros_like(a) for a in arrays]
        self.v = [np.zeros_like(a) for a in arrays]
        self.step = 0

    def apply(self, params: Params, grads: Params) -> None:
        self.step += 1
        c1 = 1 - 0.9**self.step
        c2 = 1 - 0.999**self.step
        arrays = [a for layer in params for a in layer]
        slopes = [g for layer in grads for g in layer]
        for p, g, m, v in zip(arrays, slopes, self.m, self.v, strict=True):
            m[...] = 0.9 * m + 0.1 * g
            v[...] = 0.999 * v + 0.001 * g * g
            p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def update(
    policy: Params,
    value: Params,
    opt: tuple[Adam, Adam],
    batch: tuple[Array, Array, Array, Array, Array],
    rng: np.random.Generator,
    epochs: int,
    clip: float,
    entropy: float,
) -> dict[str, float]:
    x, mask, act, old, ret = batch
    n = len(act)
    vin = (x * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    base, _ = forward(value, vin)
    adv = ret - base
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    stats = {"entropy": 0.0, "value_loss": float(np.mean((ret - base) ** 2)), "clipped": 0.0}
    size = 2048
    for _ in range(epochs):
        order = rng.permutation(n)
        for first in range(0, n, size):
            idx = order[first : first + size]
            b = len(idx)
            xb, mb = x[idx].reshape(-1, WIDTH), mask[idx]
            z, acts = forward(policy, xb)
            p = _softmax(z.reshape(b, K), mb)
            logp_all = np.log(np.where(mb, p, 1.0))
            logp = logp_all[np.arange(b), act[idx]]
            ratio = np.exp(logp - old[idx])
            a = adv[idx]
            active = ~(((a > 0) & (ratio > 1 + clip)) | ((a < 0) & (ratio < 1 - clip)))
            onehot = np.zeros((b, K))
            onehot[np.arange(b), act[idx]] = 1.0
            dz = -(a * ratio * active)[:, None] * (onehot - p) / b
            ent = -(p * logp_all).sum(axis=1)
            dz += entropy * p * (logp_all + ent[:, None]) / b  # minus the entropy's gradient
            dz = np.where(mb, dz, 0.0)
            opt[0].apply(policy, backward(policy, acts, dz.reshape(-1)))
            v, vacts = forward(value, vin[idx])
            opt[1].apply(value, backward(value, vacts, 2 * (v - ret[idx]) / b))
            stats["entropy"] += float(ent.mean()) / max(1, epochs * ((n + size - 1) // size))
            stats["clipped"] += float(1 - active.mean()) / max(1, epochs * ((n + size - 1) // size))
    return stats


def write(path: Path, policy: Params, preset: str, provenance: dict[str, Any]) -> None:
    out = {
        "format": FORMAT,
        "features": list(FEATURES),
        "covers": [configuration(Rules.preset(preset))],
        "mean": [0.0] * WIDTH,
        "scale": [1.0] * WIDTH,
        "layers": [{"w": w.tolist(), "b": b.tolist()} for w, b in policy],
        "provenance": provenance,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic2")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hidden", default="32,32")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", type=int, default=256, help="games per iteration")
    parser.add_argument("--iterations", type=int, default=10**6)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--eval-games", type=int, default=100)
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset)
    if rules.chiamata or rules.follow_suit or len(rules.sides) != 2:
        parser.error("ppo trains two-sided tables without follow-suit (classic2, teams4, ...)")
    try:
        hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    except ValueError:
        parser.error(f"--hidden: expected sizes such as 32,32, not {args.hidden!r}")
    counts = (args.jobs, args.games, args.iterations, args.epochs, args.eval_every, args.eval_games)
    if not hidden or min(hidden) < 1 or min(counts) < 1:
        parser.error(
            "hidden sizes, --jobs, --games, --iterations, --epochs and --eval-* must be positive"
        )
    rng = np.random.default_rng(args.seed)
    policy = init([WIDTH, *hidden, 1], rng, last_scale=0.01)
    value = init([WIDTH, *hidden, 1], rng)
    opt = (Adam(policy, args.lr), Adam(value, args.lr))
    start = time.monotonic()
    curve: list[dict[str, Any]] = []
    games = 0
    command = " ".join(["python -m tools.learn.ppo", *(sys.argv[1:] if argv is None else argv)])
    settings = {k: getattr(args, k) for k in ("preset", "seed", "jobs", "games", "epochs")}
    settings |= {"lr": args.lr, "clip": args.clip, "entropy": args.entropy, "hidden": hidden}
    with multiprocessing.Pool(args.jobs) as pool:
        it = 0
        while it < args.iterations:
            if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                break
            it += 1
            per = -(-args.games // args.jobs)
            tasks = [
                (policy, args.preset, args.seed * 10**7 + it * 1000 + j, per)
                for j in range(args.jobs)
            ]
            parts = pool.map(play_games, tasks)
            x, mask, act, logp, ret = (np.concatenate([p[i] for p in parts]) for i in range(5))
            games += per * args.jobs
            batch = (x, mask, act, logp, ret)
            stats = update(policy, value, opt, batch, rng, args.epochs, args.clip, args.entropy)
            if it % args.eval_every == 0:
                per_eval = -(-args.eval_games // args.jobs)
                scores = [
                    s
                    for part in pool.map(
                        greedy_against_rules,
                        [(policy, args.preset, 99 * 1000 + j, per_eval) for j in range(args.jobs)],
                    )
                    for s in part
                ]
                point = {
                    "iteration": it,
                    "games": games,
                    "minutes": round((time.monotonic() - start) / 60, 2),
                    "vs_rules": round(float(np.mean(scores)), 4),
                    **{k: round(v, 4) for k, v in stats.items()},
                }
                curve.append(point)
                print(json.dumps(point), file=sys.stderr, flush=True)
                write(
                    args.out, policy, args.preset, _provenance(command, settings, it, games, curve)
                )
    write(args.out, policy, args.preset, _provenance(command, settings, it, games, curve))
    print(f"wrote {args.out}: {it} iterations, {games} games", file=sys.stderr)
    return 0


def _provenance(
    command: str, settings: dict[str, Any], it: int, games: int, curve: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "command": command,
        **settings,
        "iterations": it,
        "self_play_games": games,
        "curve": curve,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "git_revision": _git_revision(),
        "numpy": np.__version__,
    }


if __name__ == "__main__":
    raise SystemExit(main())
