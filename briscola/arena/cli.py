"""The arena's command line: ``python -m briscola.arena --help``. A wrong command line exits
with status 2 before any game is played."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from briscola.ai import BOT_NAMES
from briscola.ai.protocol import MAX_TIME_LIMIT_MS
from briscola.ai.sparring import ARENA_BOTS, POOL
from briscola.arena.figures import format_table, summarize
from briscola.arena.play import DealResult, iter_deals
from briscola.arena.pool import format_pool, run_pool
from briscola.arena.spec import ArenaConfig, BotSpec, entry_count, parse_rules_opts, seatings
from briscola.cliargs import positive_number, whole_number
from briscola.engine import PRESET_DESCRIPTIONS, PRESETS, Rules

# ---------------------------------------------------------------------------- command line


def run_arena(config: ArenaConfig, progress: bool = False) -> tuple[dict[str, Any], list[Any]]:
    """Play every deal; returns the summary and the records (when asked for)."""
    results: list[DealResult] = []
    records: list[dict[str, Any]] = []
    forfeits = 0
    started = time.perf_counter()
    for i, result in enumerate(iter_deals(config), 1):
        results.append(result)
        for message in result.errors:
            print(f"arena: {message}", file=sys.stderr)
        forfeits += sum(g.forfeit is not None for g in result.games)
        if config.records:
            records.extend(g.record for g in result.games if g.record is not None)
        if forfeits > config.max_forfeits:
            summary = summarize(config, results)
            summary["stopped"] = f"more than {config.max_forfeits} forfeits after {i} deals"
            return summary, records
        if progress and (i % max(1, config.deals // 20) == 0 or i == config.deals):
            elapsed = time.perf_counter() - started
            print(f"  {i}/{config.deals} deals, {elapsed:.0f} s", file=sys.stderr, flush=True)
    return summarize(config, results), records


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m briscola.arena",
        description=(
            "Play bots against each other on duplicate deals and report scores with 95%"
            " intervals, point margins and time per move."
        ),
        epilog=(
            "Bots: "
            + ", ".join((*BOT_NAMES, *ARENA_BOTS))
            + "; options as name:key=value:key=value (for"
            " example hard:budget=200); cmd:COMMAND runs an external program over the bot"
            " protocol (docs/bot-protocol.md). Rule options: --rules-opts swap=1,"
            "three_as_three=1,partners_see=start or the flags below."
        ),
    )
    parser.add_argument("--preset", default="classic2", help="rules preset (default classic2)")
    parser.add_argument("--list-presets", action="store_true", help="list the presets and exit")
    parser.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots: one per side or per seat; one name fills every seat"
        " (default medium,random)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=None,
        metavar="SPEC",
        help="add one bot (repeatable; use for cmd: lines that contain commas)",
    )
    parser.add_argument(
        "--pool",
        nargs="?",
        const=",".join(POOL),
        metavar="BOTS",
        help="play the one bot of --bots (default hard) against each player of the sparring"
        " pool (" + ", ".join(POOL) + "; or the comma-separated BOTS) and report each score"
        " and the worst",
    )
    parser.add_argument("--deals", type=whole_number(1), default=100, help="deals (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--jobs", type=whole_number(1), default=1, help="worker processes (default 1)"
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--records", metavar="FILE.jsonl", help="write one record per game")
    parser.add_argument(
        "--time-limit",
        type=_time_limit,
        metavar="MS",
        help="time limit per move in ms given to every bot (search bots then stop on time"
        " instead of their fixed budget: results are no longer reproducible)",
    )
    parser.add_argument("--rules-opts", default="", help="rule options: key=value,...")
    parser.add_argument("--swap", action="store_true", help="allow swapping the briscola")
    parser.add_argument("--three-as-three", action="store_true", help="rank the Three as three")
    parser.add_argument(
        "--partners-see", choices=("never", "start", "stock-empty"), help="team games"
    )
    parser.add_argument(
        "--max-forfeits",
        type=whole_number(0),
        default=20,
        help="stop after more forfeits (default 20)",
    )
    parser.add_argument(
        "--bot-timeout",
        type=positive_number("seconds"),
        default=30.0,
        metavar="SECONDS",
        help="cmd: bots: seconds to answer one request before the game is forfeit (default 30)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_presets:
        for name in PRESETS:
            print(f"{name:12} {PRESET_DESCRIPTIONS.get(name, '')}")
        return 0
    try:
        opts = parse_rules_opts(args.rules_opts)
        if args.swap:
            opts["swap"] = True
        if args.three_as_three:
            opts["three_as_three"] = True
        if args.partners_see:
            opts["partners_see"] = args.partners_see
        rules = Rules.preset(args.preset, **opts)
        texts = [t for t in (args.bots or "").split(",") if t.strip()]
        texts += args.bot or []
        if not texts:
            texts = ["hard"] if args.pool else ["medium", "random"]
        specs = tuple(BotSpec.parse(t) for t in texts)
        if not specs:
            raise ValueError("no bots given")
        pool: tuple[BotSpec, ...] = ()
        if args.pool is not None:
            if len(specs) != 1:
                raise ValueError("--pool plays one bot (--bots NAME) against the pool")
            if args.records:
                raise ValueError("--pool writes no records")
            pool = tuple(BotSpec.parse(t) for t in args.pool.split(",") if t.strip())
            if not pool:
                raise ValueError("--pool: no bots given")
            specs = (specs[0], pool[0])
        k = entry_count(rules, len(specs))
        seatings(rules, k)
    except ValueError as exc:
        parser.error(str(exc))
    for option, target in (("--json", args.json), ("--records", args.records)):
        problem = _unwritable(target)
        if problem:
            parser.error(f"{option} {target}: {problem}")
    config = ArenaConfig(
        rules=rules,
        specs=specs,
        deals=args.deals,
        seed=args.seed,
        jobs=max(1, args.jobs),
        time_limit=None if args.time_limit is None else args.time_limit / 1000.0,
        records=bool(args.records),
        max_forfeits=args.max_forfeits,
        bot_timeout=args.bot_timeout,
    )
    command = "python -m briscola.arena " + " ".join(sys.argv[1:] if argv is None else argv)
    if pool:
        result = run_pool(
            dataclasses.replace(config, specs=specs[:1]), pool, run_arena, not args.quiet
        )
        result["command"] = command
        print(format_pool(result))
        return _finish(result, args.json, None, [])
    summary, records = run_arena(config, progress=not args.quiet)
    summary["command"] = command
    print(format_table(summary))
    return _finish(summary, args.json, args.records, records)


def _finish(
    summary: dict[str, Any], json_path: str | None, records_path: str | None, records: list[Any]
) -> int:
    """Write the figures (and records) asked for; 1 when that failed or the arena stopped."""
    try:
        if json_path:
            with open(json_path, "w", encoding="utf-8") as out:
                json.dump(summary, out, indent=2)
                out.write("\n")
        if records_path:
            from briscola.engine import write_records

            write_records(records_path, records)
    except OSError as exc:
        print(f"arena: could not write the results: {exc}", file=sys.stderr)
        return 1
    if summary.get("stopped"):
        print(f"arena: stopped: {summary['stopped']}", file=sys.stderr)
        return 1
    return 0


def _time_limit(text: str) -> float:
    value = positive_number("milliseconds")(text)
    if value > MAX_TIME_LIMIT_MS:
        raise argparse.ArgumentTypeError(
            f"expected at most {MAX_TIME_LIMIT_MS} ms (the bot protocol's limit), got {text}"
        )
    return value


def _unwritable(target: str | None) -> str | None:
    """Why the output file ``target`` cannot be written (None when it can, or is not asked
    for). Checked before any game is played, so no result is lost at the end."""
    if not target:
        return None
    path = os.path.abspath(target)
    if os.path.isdir(path):
        return "is a folder"
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if not existed:
        os.unlink(path)
    return None
