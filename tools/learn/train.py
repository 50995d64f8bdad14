"""Train the learned evaluation (numpy; the game itself never needs numpy).

    python -m tools.learn.train /tmp/learn-data.jsonl --seed 1 --out assets/ai/medium-net.json

Reads the positions of ``tools/learn/generate.py`` and fits a small MLP (tanh hidden layers,
``--hidden``, e.g. ``32,32``; empty for a linear model) to the hard search's utility of each
legal card **relative to the position's average legal card** (so the network ranks the
cards of a position; the value of the position itself is not its job). The loss is the mean
squared error of the centred prediction against the centred label (labels ×10), full-batch
Adam with a little L2, the weights kept from the epoch with the lowest validation loss.
Validation: every tenth game (``game % 10 == 0``), never trained on.

Besides the loss it reports what matters for play, on the validation positions: how often
the network's first card is the search's first card, and the mean **regret** (the search's
utility of its best card minus that of the card chosen) of the network and of medium.

The weights (``briscola-net/1``: ``features``, ``mean``/``scale`` of the inputs, ``layers``
as rows of weights per unit and biases, ``covers``) are written with their provenance: the
command, the data's header (its command, seed, budget, games and positions), the training
seed and settings, the date, the git revision, the losses and the figures above.
:func:`forward` is the forward pass the plain-Python inference
(:meth:`briscola.ai.learned.Network.value`) must equal; a test checks it.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from briscola.ai.learned import FEATURES, FORMAT, configuration
from briscola.engine import Rules

Array = NDArray[np.float64]
#: Labels are utilities (a win is 1): scaled so that the network's outputs are near 1.
LABEL_SCALE = 10.0


class Data:
    """The positions of a data file as flat arrays: one row per legal card."""

    def __init__(self, path: Path) -> None:
        with path.open(encoding="utf-8") as fh:
            header = json.loads(fh.readline())
            if header.get("format") != "briscola-learn-data/1":
                raise ValueError(f"{path}: not a data file of tools/learn/generate.py")
            if tuple(header.get("features", ())) != FEATURES:
                raise ValueError(f"{path}: made with other features; generate it again")
            rows: list[list[float]] = []
            labels: list[float] = []
            group: list[int] = []
            games: list[int] = []
            medium: list[int] = []
            for k, line in enumerate(fh):
                pos = json.loads(line)
                rows.extend(pos["rows"])
                labels.extend(pos["utility"])
                group.extend([k] * len(pos["rows"]))
                games.append(pos["game"])
                medium.append(pos["medium"])
        self.header: dict[str, Any] = header
        self.x: Array = np.asarray(rows, dtype=np.float64)
        self.u: Array = np.asarray(labels, dtype=np.float64)
        self.group = np.asarray(group, dtype=np.int64)
        self.games = np.asarray(games, dtype=np.int64)
        self.medium = np.asarray(medium, dtype=np.int64)
        self.positions = len(games)


class Split:
    """The rows of some positions, with their group structure (a position's rows are
    contiguous: ``start[g]``, ``count[g]``)."""

    def __init__(self, x: Array, u: Array, group: NDArray[np.int64], medium: NDArray[np.int64]):
        self.x = x
        self.u = u
        self.group = group
        self.groups = int(group.max()) + 1 if len(group) else 0
        self.count: Array = np.bincount(group, minlength=self.groups).astype(np.float64)
        counts = self.count.astype(np.int64)
        self.start: NDArray[np.int64] = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
        self.t: Array = LABEL_SCALE * (u - self.center(u))
        self.medium = medium

    @classmethod
    def of(cls, data: Data, positions: NDArray[np.int64]) -> Split:
        keep = np.isin(data.group, positions)
        _, group = np.unique(data.group[keep], return_inverse=True)
        return cls(data.x[keep], data.u[keep], group.astype(np.int64), data.medium[positions])

    def take(self, groups: NDArray[np.int64]) -> Split:
        """The positions ``groups`` (in that order) as a split of their own."""
        counts = self.count[groups].astype(np.int64)
        offsets = np.cumsum(counts) - counts
        rows = np.repeat(self.start[groups] - offsets, counts) + np.arange(int(counts.sum()))
        group = np.repeat(np.arange(len(groups), dtype=np.int64), counts)
        return Split(self.x[rows], self.u[rows], group, self.medium[groups])

    def center(self, v: Array) -> Array:
        """Per entry of ``v``, the mean of its position's entries."""
        sums = np.bincount(self.group, weights=v, minlength=self.groups)
        out: Array = sums[self.group] / self.count[self.group]
        return out


def forward(params: list[tuple[Array, Array]], mean: Array, scale: Array, x: Array) -> Array:
    """The network's output per row of ``x`` (tanh hidden layers, linear output)."""
    h = (x - mean) / scale
    for i, (w, b) in enumerate(params):
        h = h @ w.T + b
        if i < len(params) - 1:
            h = np.tanh(h)
    out: Array = h[:, 0]
    return out


def _grads(
    params: list[tuple[Array, Array]], z: Array, split: Split, l2: float
) -> tuple[float, list[tuple[Array, Array]]]:
    acts = [z]
    h = z
    for i, (w, b) in enumerate(params):
        h = h @ w.T + b
        if i < len(params) - 1:
            h = np.tanh(h)
        acts.append(h)
    pred = acts[-1][:, 0]
    r = pred - split.center(pred) - split.t
    n = len(r)
    loss = float(np.mean(r * r))
    # The centring is a projection and r is already centred: d loss / d pred = 2 r / n.
    delta = (2.0 / n) * r[:, None]
    grads: list[tuple[Array, Array]] = []
    for i in range(len(params) - 1, -1, -1):
        w, _ = params[i]
        prev = acts[i]
        gw = delta.T @ prev + l2 * w
        gb = delta.sum(axis=0)
        grads.append((gw, gb))
        if i:
            delta = (delta @ w) * (1.0 - prev * prev)
    grads.reverse()
    return loss, grads


def _loss(params: list[tuple[Array, Array]], mean: Array, scale: Array, split: Split) -> float:
    pred = forward(params, mean, scale, split.x)
    r = pred - split.center(pred) - split.t
    return float(np.mean(r * r))


def choices(scores: Array, split: Split) -> NDArray[np.int64]:
    """Per position, the index within the position of its highest score (the first on a
    tie, as the bot)."""
    out = np.zeros(split.groups, dtype=np.int64)
    for g in range(split.groups):
        first = int(split.start[g])
        out[g] = int(np.argmax(scores[first : first + int(split.count[g])]))
    return out


def regret(chosen: NDArray[np.int64], split: Split) -> tuple[float, float]:
    """Mean regret (the search's best utility minus the chosen card's) and the share of
    positions where the chosen card is the search's best."""
    best = np.full(split.groups, -np.inf)
    np.maximum.at(best, split.group, split.u)
    got = split.u[split.start + chosen]
    return float(np.mean(best - got)), float(np.mean(got >= best - 1e-12))


def train(
    data: Data, hidden: list[int], seed: int, epochs: int, lr: float, l2: float, batch: int
) -> tuple[list[tuple[Array, Array]], Array, Array, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    positions = np.arange(data.positions, dtype=np.int64)
    valid_mask = data.games % 10 == 0
    tr = Split.of(data, positions[~valid_mask])
    va = Split.of(data, positions[valid_mask])
    mean = tr.x.mean(axis=0)
    scale = tr.x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    tr.x = (tr.x - mean) / scale
    sizes = [len(FEATURES), *hidden, 1]
    params = [
        (rng.normal(0.0, 1.0 / np.sqrt(a), (b, a)), np.zeros(b))
        for a, b in itertools.pairwise(sizes)
    ]
    m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in params]
    v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in params]
    best_val = float("inf")
    best_params = [(w.copy(), b.copy()) for w, b in params]
    best_epoch = 0
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(tr.groups)
        for first in range(0, tr.groups, batch):
            part = tr.take(order[first : first + batch])
            _, grads = _grads(params, part.x, part, l2)
            step += 1
            c1 = 1 - beta1**step
            c2 = 1 - beta2**step
            for k, ((w, b), (gw, gb)) in enumerate(zip(params, grads, strict=True)):
                mw, mb = m[k]
                vw, vb = v[k]
                mw[:] = beta1 * mw + (1 - beta1) * gw
                mb[:] = beta1 * mb + (1 - beta1) * gb
                vw[:] = beta2 * vw + (1 - beta2) * gw * gw
                vb[:] = beta2 * vb + (1 - beta2) * gb * gb
                w -= lr * (mw / c1) / (np.sqrt(vw / c2) + eps)
                b -= lr * (mb / c1) / (np.sqrt(vb / c2) + eps)
        val = _loss(params, mean, scale, va)
        if val < best_val:
            best_val, best_epoch = val, epoch
            best_params = [(w.copy(), b.copy()) for w, b in params]
        if epoch % 5 == 0:
            print(f"epoch {epoch}: valid {val:.5f}", file=sys.stderr)
    tr.x = tr.x * scale + mean
    scores = forward(best_params, mean, scale, va.x)
    net_choice = choices(scores, va)
    net_regret, net_agree = regret(net_choice, va)
    # Leaving medium's card only for a predicted gain of at least ``delta`` (network units).
    gain = scores[va.start + net_choice] - scores[va.start + va.medium]
    vetoed = {
        str(delta): round(regret(np.where(gain > delta, net_choice, va.medium), va)[0], 6)
        for delta in (0.05, 0.1, 0.2, 0.4)
    }
    med_regret, med_agree = regret(va.medium, va)
    zero = [(np.zeros_like(w), np.zeros_like(b)) for w, b in best_params]
    figures = {
        "train_positions": tr.groups,
        "valid_positions": va.groups,
        "valid_loss": round(best_val, 6),
        "valid_loss_of_zero": round(_loss(zero, mean, scale, va), 6),
        "train_loss": round(_loss(best_params, mean, scale, tr), 6),
        "best_epoch": best_epoch,
        "valid_regret_net": round(net_regret, 6),
        "valid_regret_medium": round(med_regret, 6),
        "valid_regret_net_leaving_medium_for_a_gain_over": vetoed,
        "valid_agree_net": round(net_agree, 4),
        "valid_agree_medium": round(med_agree, 4),
    }
    return best_params, mean, scale, figures


def _git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="a file of tools/learn/generate.py")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hidden", default="32,32", help="hidden layer sizes, e.g. 32,32")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch", type=int, default=1024, help="positions per step")
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--l2", type=float, default=1e-4)
    args = parser.parse_args(argv)
    try:
        hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    except ValueError:
        parser.error(f"--hidden: expected sizes such as 32,32, not {args.hidden!r}")
    if any(h < 1 for h in hidden) or args.epochs < 1 or args.batch < 1:
        parser.error("hidden sizes, --epochs and --batch must be positive")
    try:
        data = Data(args.data)
    except (OSError, ValueError, KeyError) as exc:
        parser.error(f"cannot read {args.data}: {exc}")
    params, mean, scale, figures = train(
        data, hidden, args.seed, args.epochs, args.lr, args.l2, args.batch
    )
    head = data.header
    out = {
        "format": FORMAT,
        "features": list(FEATURES),
        "covers": [configuration(Rules.preset(str(head.get("preset", "classic2"))))],
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "layers": [{"w": w.tolist(), "b": b.tolist()} for w, b in params],
        "provenance": {
            "command": " ".join(
                ["python -m tools.learn.train", *(sys.argv[1:] if argv is None else argv)]
            ),
            "data": {k: head.get(k) for k in ("command", "preset", "seed", "budget", "explore")}
            | {"games": head.get("games"), "positions": data.positions},
            "hidden": hidden,
            "seed": args.seed,
            "epochs": args.epochs,
            "batch": args.batch,
            "lr": args.lr,
            "l2": args.l2,
            "label_scale": LABEL_SCALE,
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "git_revision": _git_revision(),
            "numpy": np.__version__,
            **figures,
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=1))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
