"""Review one seat's card plays in a recorded hand from the command line.

    python -m briscola.review RECORD.json --seat 0 [--json] [--budget UNITS] [--seed N]
        [--hand K] [--deck-style italian|french]

``RECORD.json`` is a record (docs/record-format.md) or a JSON-lines file of them, such as
the arena writes (``python -m briscola.arena --records FILE.jsonl``; ``--hand`` picks one,
counting from 1). The review is the coach's (:func:`briscola.coach.review`): for every card
the seat played, the expected points of each card it could have played, as the hard search
sees them from what the seat knew then, the loss of the card played against the best and a
sentence on it; then points lost to mistakes and accuracy. ``--json`` prints the review as
kept in a record's ``"review"`` field. A record that cannot be read or replayed exits with
status 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from briscola.coach import Review, review
from briscola.engine import read_records
from briscola.text.coachtext import move_text, summary_text

__all__ = ["format_review", "main"]


def format_review(result: Review, style: str = "italian") -> str:
    """The human-readable table: one line per card played, then the summary."""
    lines = [f"Review of seat {result.seat} (budget {result.budget}, seed {result.seed})"]
    lines.append(f"{'trick':>5}  {'played':6}  {'best':4}  {'loss':>5}  choices (expected points)")
    for move in result.moves:
        choices = "  ".join(f"{card.code} {points:.1f}" for card, points in move.values)
        best = move.marked_best.code  # the card the verdict's "Best" speaks of
        lines.append(
            f"{move.trick + 1:>5}  {move.played.code:6}  {best:4}  {move.loss:5.1f}  "
            f"{choices or '-'}"
        )
        lines.append(f"{'':>5}  {move_text(move, style)}")
    lines.append(summary_text(result))
    worst = result.costliest()
    if worst is not None:
        lines.append(f"Costliest: trick {worst.trick + 1}, {worst.played.code} ({worst.loss:.1f})")
    return "\n".join(lines)


def _load(path: str, hand: int) -> dict[str, Any]:
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"{path}: no such file")
    try:
        records = list(read_records(file))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: not a record file ({exc})") from None
    if not records:
        raise ValueError(f"{path}: no record in the file")
    if not 1 <= hand <= len(records):
        raise ValueError(f"{path}: --hand {hand}, but the file holds {len(records)} record(s)")
    return records[hand - 1]


def _progress(done: int, total: int) -> None:
    print(f"\rreviewing {done}/{total}", end="" if done < total else "\n", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m briscola.review",
        description="Review one seat's card plays in a recorded hand with the hard search.",
    )
    parser.add_argument("record", help="a record (JSON) or a JSON-lines file of records")
    parser.add_argument("--seat", type=int, required=True, help="the seat to review")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--budget", type=int, help="search work units per decision (default: a hard move's)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    parser.add_argument("--hand", type=int, default=1, help="which record of the file (from 1)")
    parser.add_argument(
        "--deck-style", default="italian", help="card names: italian (default) or french"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.budget is not None and args.budget < 1:
        parser.error("--budget must be at least 1")
    try:
        record = _load(args.record, args.hand)
        result = review(
            record,
            args.seat,
            budget=args.budget,
            seed=args.seed,
            progress=None if args.quiet else _progress,
        )
    except ValueError as exc:  # ReplayError is a ValueError
        print(f"python -m briscola.review: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print(format_review(result, args.deck_style))
    return 0


if __name__ == "__main__":
    sys.exit(main())
