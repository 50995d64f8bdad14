"""How far each bot's card falls short of the best one, by the values of a long search.

    python -m tools.learn.regret --positions 200 --seed 5 --gold /tmp/gold-classic2.json \
        medium:learned=0 medium hard:prior=medium:inference=tricks hard

Positions: one card play from each of ``--positions`` hands of ``--preset`` between two
learned mediums (hand ``g`` dealt from ``--seed`` and ``g`` alone), taken at random among
the seat's plays while the stock lasts (in Chiamata, which has none, while the hands hold
three cards or more) with two or more cards to choose from and no swap (with an empty
stock two-player hands are solved exactly: every level would score 0).
Their **gold values**: the hard search at ``--gold-budget`` work units (400 000 by default,
about 14 times hard's budget with two players), without inference, valuing every card:
mean utility, win 1, draw 1/2, plus 0.002 a point of margin. They are kept in ``--gold``
(JSON) and read back by later runs with the same settings, so that several runs compare
bots on the same values.

Each bot, an arena spec (``hard:prior=learned``), then chooses in every position
``--repeats`` times (its rng seeded 0, 1, ...). ``coach`` stands for the coach's best card
(:func:`briscola.coach.evaluate`, seeded by the position salted with the repeat;
``coach:budget=N`` at another budget, ``coach:by=points`` the card of the most expected
points instead of the card it names). Its **regret** is the gold value of the
best card minus that of its card, averaged over positions and repeats (0.01: one hand in
a hundred); also printed: how often it chose the gold best card, and its mean processor
time per choice. The gold search samples the hidden cards uniformly, so it cannot judge
inference (weighing the samples by the other player's plays): the arena does.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from briscola.ai.learned import learned_action
from briscola.ai.search import HardBot
from briscola.arena.spec import BotSpec
from briscola.coach import evaluate, position_seed
from briscola.engine import Card, Play, PlayerView, Rules, view
from tools.learn.generate import card_choice, new_hand

FORMAT = "briscola-regret-gold/1"


@functools.cache
def position(preset: str, seed: int, game: int) -> PlayerView | None:
    """Hand ``game``'s chosen card play (None: it had none to choose from); made once a
    process, since every bot spec chooses in the same positions."""
    state, rng = new_hand(Rules.preset(preset), seed, game)
    found: list[PlayerView] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        # (Chiamata deals every card: there, while each hand holds three or more.)
        left = seen.stock_size > 0 or (state.rules.stock_size == 0 and len(seen.hand) > 2)
        if left and card_choice(seen):
            found.append(seen)
        state.apply(learned_action(seen))
    return rng.choice(found) if found else None


def gold_values(args: tuple[str, int, int, int]) -> dict[str, Any] | None:
    """The long search's value of every card of hand ``game``'s position."""
    preset, seed, game, budget = args
    seen = position(preset, seed, game)
    if seen is None:
        return None
    hard = HardBot(random.Random(seed + game), budget=budget, confidence=0, inference=False)
    found = hard.evaluate(seen)
    values = {
        Card.from_index(line[1]).code: found.utility(i)
        for i, line in enumerate(found.lines)
        if line[0] is None
    }
    return {"game": game, "values": {k: round(v, 6) for k, v in values.items()}}


Chooser = Callable[[PlayerView, int], Card]


def chooser(text: str) -> Chooser:
    """What ``text`` names: an arena bot spec, or the coach (``coach[:budget=N][:by=points]``),
    as a function of a position and the repeat's number (ValueError: a bad spec)."""
    name, _, rest = text.partition(":")
    if name != "coach":
        spec = BotSpec.parse(text)

        def bot_card(seen: PlayerView, repeat: int) -> Card:
            action = spec.build(random.Random(repeat), None).choose(seen)
            assert isinstance(action, Play)
            return action.card

        return bot_card
    budget: int | None = None
    by_points = False
    for option in filter(None, rest.split(":")):
        key, _, value = option.partition("=")
        if key == "budget" and value.isdigit() and int(value) > 0:
            budget = int(value)
        elif key == "by" and value in ("points", "best"):
            by_points = value == "points"
        else:
            raise ValueError(f"coach: unknown option {option!r} (budget=N, by=points)")

    def coach_card(seen: PlayerView, repeat: int) -> Card:
        found = evaluate(seen, seed=position_seed(seen, repeat), budget=budget)
        if by_points:
            return max(found.values, key=lambda item: item[1])[0]
        return found.best

    return coach_card


def choices(args: tuple[str, int, str, int, list[int]]) -> list[tuple[int, str, float]]:
    """For each game: (game, the bot's card, processor seconds), ``repeats`` times."""
    preset, seed, spec_text, repeats, games = args
    choose = chooser(spec_text)
    out: list[tuple[int, str, float]] = []
    for game in games:
        seen = position(preset, seed, game)
        assert seen is not None
        for r in range(repeats):
            start = time.process_time()
            card = choose(seen, r)
            out.append((game, card.code, time.process_time() - start))
    return out


def load_gold(path: Path, settings: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The gold values kept in ``path`` for these settings (None: none, or other ones)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise SystemExit(f"regret: cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("settings") != settings:
        return None
    items = data.get("items")
    return items if isinstance(items, list) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs="+", help="arena bot specs, e.g. hard:prior=learned")
    parser.add_argument("--preset", default="classic2")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--gold-budget", type=int, default=400_000)
    parser.add_argument("--gold", type=Path, help="where the gold values are kept")
    parser.add_argument("--repeats", type=int, default=2, help="choices per bot and position")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (at most 2)")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 2:
        parser.error("--jobs must be 1 or 2 (the build machine is shared)")
    if args.positions < 1 or args.repeats < 1 or args.gold_budget < 1000:
        parser.error("--positions >= 1, --repeats >= 1, --gold-budget >= 1000")
    try:
        Rules.preset(args.preset)
        for text in args.bots:
            chooser(text)
    except ValueError as exc:
        parser.error(str(exc))
    settings = {
        "preset": args.preset,
        "seed": args.seed,
        "positions": args.positions,
        "gold_budget": args.gold_budget,
    }
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        mapper = pool.imap if pool is not None else map
        items = load_gold(args.gold, settings) if args.gold else None
        if items is None:
            start = time.monotonic()
            tasks = [(args.preset, args.seed, g, args.gold_budget) for g in range(args.positions)]
            items = [item for item in mapper(gold_values, tasks) if item is not None]
            print(
                f"gold values of {len(items)} positions in {time.monotonic() - start:.0f} s",
                file=sys.stderr,
            )
            if args.gold and items:
                payload = {"format": FORMAT, "settings": settings, "items": items}
                args.gold.write_text(json.dumps(payload) + "\n", encoding="utf-8")
        if not items:
            print(f"regret: no position to choose in among {args.positions} hands", file=sys.stderr)
            return 1
        gold = {item["game"]: item["values"] for item in items}
        games = sorted(gold)
        halves = [games[i :: args.jobs] for i in range(args.jobs)]
        print(f"{'bot':<44} {'regret':>8} {'best':>6} {'ms':>7}")
        for text in args.bots:
            tasks2 = [(args.preset, args.seed, text, args.repeats, part) for part in halves]
            made = [c for part in mapper(choices, tasks2) for c in part]
            top = {g: max(values.values()) for g, values in gold.items()}
            regret = [top[g] - gold[g][card] for g, card, _ in made]
            best = [gold[g][card] >= top[g] for g, card, _ in made]
            ms = 1000 * sum(t for _, _, t in made) / len(made)
            print(
                f"{text:<44} {sum(regret) / len(regret):>8.4f} "
                f"{100 * sum(best) / len(best):>5.1f}% {ms:>7.1f}",
                flush=True,
            )
    finally:
        if pool is not None:
            pool.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
