"""How much hard's inference learns about the hidden hands, against each kind of player
(issue 51: inference against the pool, not against medium alone).

    python -m tools.inference_check [--preset classic2] [--games 40] [--samples 300]
        [--opponents rules,greedy,ppo,medium] [--models policy,tricks,...] [--seed 1]

Hands of ``--preset`` are played by the hand-written medium on one side and an opponent
on the other (each side in turn). At each of medium's decisions while the stock still hides
cards, the same ``--samples`` deals of the unseen cards (as hard draws them, from the view
alone) are weighed by each inference model, and each unseen card gets the weighed share of
samples that put it where it truly lies (a hand, or the stock). The log loss of those
chances, in bits, against the unweighed samples' is the **information** a model gains, in
bits per position (positive: it learned something true about the hidden cards; negative:
its model of the other players misled it). Paired on the same samples, so the models'
differences are measured with little noise. Every table but Chiamata (whose sides are
hidden).

A model is named ``none`` (every sample weighs 1), ``tricks`` (the trick factors of
:func:`briscola.ai.search.sampling.likelihood`) or ``policy[:T=4][:N=0.25][:G=0.05][:H=3]``
(:class:`briscola.ai.search.inference.Model`: softmax temperature, uniform share, greedy
share; ``H`` the tricks scored; the values shown are hard's, the default; hard before
2026-12-05 used ``policy:T=12:G=0:H=2``). Two players only (the opponent's hand is one seat's).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Sequence

from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.ai.search.core import SearchRules
from briscola.ai.search.inference import GREEDY, HISTORY, NOISE, TEMPERATURE, History, Model
from briscola.ai.search.sampling import deal_of, likelihood, sample_hands, sides_of
from briscola.arena.spec import BotSpec
from briscola.engine import GameState, PlayerView, Rules, view

__all__ = ["Weigher", "information", "main", "parse_model", "run", "search_rules"]

#: A model: the weight of one sample's hands for one view.
Weigher = Callable[[list[list[int]]], float]
#: Builds a model's weigher for a view.
Maker = Callable[[PlayerView, SearchRules, random.Random], Weigher]


def search_rules(seen: PlayerView) -> SearchRules:
    """The search's rules for a view, as hard builds them."""
    return HardBot().search_rules(seen)


def parse_model(name: str) -> Maker:
    """A model by its name (module docstring)."""
    if name == "none":
        return lambda seen, rules, rng: lambda hands: 1.0
    if name == "tricks":
        return lambda seen, rules, rng: lambda hands: likelihood(seen, hands, rules)
    head, *opts = name.split(":")
    if head != "policy":
        raise ValueError(f"unknown model {name!r}")
    values = {"T": TEMPERATURE, "N": NOISE, "G": GREEDY, "H": float(HISTORY)}
    for opt in opts:
        key, _, value = opt.partition("=")
        if key not in values:
            raise ValueError(f"unknown option {key!r} in {name!r}")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"{key} must be a number in {name!r}, not {value!r}") from None
    if values["T"] <= 0 or not 0 <= values["N"] <= 1 or not 0 <= values["G"] <= 1:
        raise ValueError(f"{name!r}: T must be above 0, N and G between 0 and 1")
    if values["H"] < 1:
        raise ValueError(f"{name!r}: H must be 1 or more")
    model = Model(temperature=values["T"], noise=values["N"], greedy=values["G"])
    depth = int(values["H"])

    def make(seen: PlayerView, rules: SearchRules, rng: random.Random) -> Weigher:
        history = History(seen, rules, depth, model)
        side = sides_of(seen, -1)
        return lambda hands: history.likelihood(hands, side, rng)

    return make


def information(
    seen: PlayerView,
    truth: dict[int, int],
    makers: Sequence[Maker],
    samples: int,
    rng: random.Random,
) -> list[tuple[float, float]] | None:
    """Each model's information about where the unseen cards of ``seen`` lie (``truth``:
    card to seat, -1 the stock), and the share of the samples its weights leave effective
    (Kish's effective sample size over the samples); None: nothing to learn, or no
    sample."""
    rules = search_rules(seen)
    deal = deal_of(seen)
    unseen = deal.unseen
    hidden = set(unseen)
    if not unseen or not any(deal.needs):
        return None
    weighers = [make(seen, rules, random.Random(rng.random())) for make in makers]
    totals = [0.0] * len(makers)
    squares = [0.0] * len(makers)
    # Per model, the weight of the samples that put each card where it truly is.
    right = [dict.fromkeys(unseen, 0.0) for _ in makers]
    base_total = 0
    base_right = dict.fromkeys(unseen, 0)
    for _ in range(samples):
        sampled = sample_hands(deal, rng)
        if sampled is None:
            continue
        hands = sampled[0]
        placed = [c for s, hand in enumerate(hands) for c in hand if c in hidden and truth[c] == s]
        placed += [c for c in sampled[1] if c in hidden and truth[c] == -1]
        base_total += 1
        for c in placed:
            base_right[c] += 1
        for i, weigh in enumerate(weighers):
            w = weigh(hands)  # (neither model changes the hands)
            totals[i] += w
            squares[i] += w * w
            for c in placed:
                right[i][c] += w
    if not base_total:
        return None

    def loss(count: dict[int, float], total: float) -> float:
        """The log loss, in bits, of the chances ``count[c] / total`` of the truth."""
        return -sum(
            math.log2(min(max(count[c] / total if total > 0 else 0.0, 1e-4), 1.0)) for c in unseen
        )

    base = loss({c: float(k) for c, k in base_right.items()}, base_total)
    return [
        (
            base - loss(right[i], totals[i]),
            totals[i] ** 2 / (base_total * squares[i]) if squares[i] > 0 else 0.0,
        )
        for i in range(len(makers))
    ]


def run(
    preset: str, opponent: BotSpec, makers: Sequence[Maker], games: int, samples: int, seed: int
) -> list[list[tuple[float, float]]]:
    """Per position, each model's information and effective share (:func:`information`):
    ``games`` hands, the opponent's side played by ``opponent``."""
    rules = Rules.preset(preset)
    if rules.chiamata:
        raise ValueError(f"{preset}: the sides of Chiamata are not known to all")
    rng = random.Random(seed)
    rows: list[list[tuple[float, float]]] = []
    for g in range(games):
        state = GameState.new(rules, random.Random(seed * 1000 + g), dealer=g % rules.players)
        ours = rules.side_of(g % rules.players)
        bot = opponent.build(random.Random(seed * 7 + g), None)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            seen = view(state, seat)
            if rules.side_of(seat) != ours:
                state.apply(bot.choose(seen))
                continue
            if state.phase == "play" and seen.stock_size > 0:
                truth = {c.index: s for s, hand in enumerate(state.hands) for c in hand}
                truth.update((c.index, -1) for c in state.stock)
                row = information(seen, truth, makers, samples, rng)
                if row is not None:
                    rows.append(row)
            state.apply(medium_action(seen))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.inference_check", description=__doc__)
    parser.add_argument("--preset", default="classic2")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="rules,greedy,ppo,medium")
    parser.add_argument("--models", default="tricks,policy,policy:N=0.5,policy:T=24,policy:G=0.3")
    args = parser.parse_args(argv)
    names = [m for m in args.models.split(",") if m]
    try:
        makers = [parse_model(m) for m in names]
        opponents = [BotSpec.parse(o) for o in args.opponents.split(",") if o]
        if Rules.preset(args.preset).chiamata:
            raise ValueError(f"{args.preset}: the sides of Chiamata are not known to all")
    except (KeyError, ValueError) as exc:
        parser.error(str(exc))
    width = max(len(m) for m in names)
    worst = dict.fromkeys(names, math.inf)
    for opponent in opponents:
        rows = run(args.preset, opponent, makers, args.games, args.samples, args.seed)
        print(f"against {opponent.text}: {len(rows)} positions of {args.games} hands")
        for i, name in enumerate(names):
            bits = [r[i][0] for r in rows]
            mean = statistics.fmean(bits)
            err = statistics.stdev(bits) / math.sqrt(len(bits)) if len(bits) > 1 else 0.0
            share = statistics.fmean(r[i][1] for r in rows)
            worst[name] = min(worst[name], mean)
            print(
                f"  {name:<{width}}  {mean:+.4f} bits ± {err:.4f}"
                f"  effective samples {100 * share:.0f}%"
            )
    print("worst over the opponents:")
    for name in names:
        print(f"  {name:<{width}}  {worst[name]:+.4f} bits")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
