"""Positions for the learned evaluation, labelled by the hard search.

    nice -n 10 python -m tools.learn.generate --games 1647 --seed 1 --budget 5000 \
        --jobs 2 --out /tmp/learn-data.jsonl

(the data of the bundled weights, ``assets/ai/medium-net.json``: docs/ai.md)

Game ``g`` (from ``--seed`` and ``g`` alone, so the file is the same for any ``--jobs``) is
a ``classic2`` hand between two medium players (``--player learned``: two learned mediums,
the bundled network's choice, for a second round on its own play) that each make a random
legal move with ``--explore``'s chance (for positions medium alone would not reach).
Before every card play of either seat with two or more cards to choose from (and no swap,
which medium always makes), the hard search (``hard:budget=B``, seeded from the game)
values every legal card from that seat's :class:`~briscola.engine.PlayerView`: its mean
utility (win 1, draw 1/2, plus 0.002 a point of margin) is the label. The inputs are the
learned evaluation's features of each card (:func:`briscola.ai.learned.play_rows`: the
same code as the bot's).

One JSON line per position: ``game``, ``seat``, ``rows`` (features per legal card),
``utility`` and ``points`` (the search's mean utility and final points per card),
``exact`` (no sampling noise), ``medium`` (the index of medium's card), ``outcome`` (the
seat's final result of the hand: 1, 1/2, 0). The first line is a header with the command's
settings. ``--minutes`` stops after the block of games running at that time: the file
then holds the first games of the same sequence (``--games`` set to the header's ``games`` gives the
same file). Positions go to ``OUT.part`` as they are made; the header and they are put
together in ``OUT`` at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from briscola.ai.learned import FEATURES, learned_action, play_rows
from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot
from briscola.engine import GameState, Play, PlayerView, Rules, view

FORMAT = "briscola-learn-data/1"


def new_hand(rules: Rules, seed: int, game: int) -> tuple[GameState, random.Random]:
    """Hand ``game`` of the sequence ``seed`` dealt, and the rng that goes on with it."""
    rng = random.Random(seed * 1_000_003 + game)
    return GameState.new(rules, rng, dealer=game % rules.players), rng


def card_choice(seen: PlayerView) -> bool:
    """Whether ``seen`` is a card play with two or more cards to choose from and no swap."""
    plays = sum(isinstance(a, Play) for a in seen.legal)
    return seen.phase == "play" and plays >= 2 and plays == len(seen.legal)


def game_positions(
    preset: str, seed: int, game: int, budget: int, explore: float, player: str = "medium"
) -> list[dict[str, Any]]:
    """The labelled positions of game ``game`` (deterministic from its arguments; ``player``:
    ``medium``, the hand-written rules, or ``learned``, the bundled network's choice)."""
    rules = Rules.preset(preset)
    play = learned_action if player == "learned" else medium_action
    state, rng = new_hand(rules, seed, game)
    out: list[dict[str, Any]] = []
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        if card_choice(seen):
            found = HardBot(random.Random(rng.random()), budget=budget).evaluate(seen)
            cards, rows = play_rows(seen)
            index = {line[1]: i for i, line in enumerate(found.lines) if line[0] is None}
            order = [index[a.card.index] for a in cards]
            chosen = medium_action(seen)
            out.append(
                {
                    "game": game,
                    "seat": seat,
                    "cards": [a.card.code for a in cards],
                    "rows": [[round(v, 6) for v in row] for row in rows],
                    "utility": [round(found.utility(i), 6) for i in order],
                    "points": [round(found.points(i), 4) for i in order],
                    "exact": found.exact,
                    "medium": cards.index(chosen) if chosen in cards else -1,
                }
            )
        action = play(seen)
        if rng.random() < explore and seen.phase == "play":
            action = rng.choice(seen.legal)
        state.apply(action)
    returns = state.outcome().returns
    for pos in out:
        pos["outcome"] = (returns[pos["seat"]] + 1) / 2
    return out


def _work(args: tuple[str, int, int, int, float, str]) -> list[dict[str, Any]]:
    return game_positions(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic2")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=4000, help="hard's work units a label")
    parser.add_argument("--explore", type=float, default=0.1, help="random move chance")
    parser.add_argument(
        "--player",
        choices=("medium", "learned"),
        default="medium",
        help="who plays the games: medium's rules, or the learned medium (a second round)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (at most 2)")
    parser.add_argument("--minutes", type=float, default=25.0, help="stop after this long")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 2:
        parser.error("--jobs must be 1 or 2 (the build machine is shared)")
    if args.games < 1 or args.budget < 100 or not 0 <= args.explore <= 1:
        parser.error("--games >= 1, --budget >= 100, 0 <= --explore <= 1")
    try:
        Rules.preset(args.preset)
    except ValueError as exc:
        parser.error(str(exc))
    header = {
        "format": FORMAT,
        "preset": args.preset,
        "seed": args.seed,
        "budget": args.budget,
        "explore": args.explore,
        "player": args.player,
        "features": list(FEATURES),
        "command": " ".join(
            ["python -m tools.learn.generate", *(sys.argv[1:] if argv is None else argv)]
        ),
    }
    deadline = time.monotonic() + 60 * args.minutes
    body = args.out.with_name(args.out.name + ".part")
    games = positions = 0
    with contextlib.ExitStack() as stack:
        fh = stack.enter_context(body.open("w", encoding="utf-8"))
        pool = stack.enter_context(multiprocessing.Pool(args.jobs)) if args.jobs > 1 else None
        # Blocks of games, so that the clock is looked at between them (imap would queue
        # every game at once); the positions are written as they come, in game order.
        block = 8 * args.jobs
        while games < args.games and time.monotonic() < deadline:
            tasks = [
                (args.preset, args.seed, g, args.budget, args.explore, args.player)
                for g in range(games, min(args.games, games + block))
            ]
            results = pool.imap(_work, tasks) if pool is not None else map(_work, tasks)
            for found in results:
                games += 1
                positions += len(found)
                fh.writelines(json.dumps(p, separators=(",", ":")) + "\n" for p in found)
                if games % 50 == 0:
                    print(f"{games} games, {positions} positions", file=sys.stderr, flush=True)
    header["games"] = games
    header["positions"] = positions
    with args.out.open("w", encoding="utf-8") as out, body.open(encoding="utf-8") as part:
        out.write(json.dumps(header) + "\n")
        shutil.copyfileobj(part, out)
    body.unlink()
    print(f"wrote {positions} positions of {games} games to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
