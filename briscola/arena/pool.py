"""The sparring pool (``python -m briscola.arena --pool``): one bot against each player of
:data:`briscola.ai.sparring.POOL` in turn, on the same duplicate deals, each score with its
interval, and the worst of them: a bot is judged by its worst result in the pool."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import Any

from briscola.arena.figures import format_table
from briscola.arena.spec import ArenaConfig, BotSpec

__all__ = ["format_pool", "run_pool"]


def _primary(summary: dict[str, Any]) -> tuple[float, list[float]]:
    """The tested bot's score and interval (Chiamata: match points a hand)."""
    first = summary["bots"][0]
    if summary["rules"]["chiamata"]:
        return first["match_points"], first["match_points_ci95"]
    return first["score"], first["ci95"]


def run_pool(
    config: ArenaConfig,
    pool: Sequence[BotSpec],
    run: Callable[[ArenaConfig, bool], tuple[dict[str, Any], list[Any]]],
    progress: bool = False,
) -> dict[str, Any]:
    """``config.specs[0]`` against every entry of ``pool`` (``run`` plays one pairing: the
    arena's :func:`~briscola.arena.cli.run_arena`). The pairings' summaries, and the worst."""
    bot = config.specs[0]
    pairings: list[dict[str, Any]] = []
    for entry in pool:
        if progress:
            print(f"pool: {bot.text} against {entry.text}", file=sys.stderr, flush=True)
        summary, _ = run(dataclasses.replace(config, specs=(bot, entry)), progress)
        score, ci = _primary(summary)
        pairings.append({"opponent": entry.text, "score": score, "ci95": ci, "summary": summary})
    worst = min(pairings, key=lambda p: p["score"])
    return {
        "bot": bot.text,
        "preset": config.rules.name,
        "deals": config.deals,
        "seed": config.seed,
        "pairings": pairings,
        "worst": {k: worst[k] for k in ("opponent", "score", "ci95")},
        "stopped": next(
            (p["summary"]["stopped"] for p in pairings if "stopped" in p["summary"]), None
        ),
    }


def format_pool(result: dict[str, Any]) -> str:
    """Each pairing's table, then one line per opponent and the worst."""
    lines = [format_table(p["summary"]) + "\n" for p in result["pairings"]]
    chiamata = result["pairings"][0]["summary"]["rules"]["chiamata"]
    fmt = "{:+.3f}" if chiamata else "{:.3f}"
    rows = [["against", "match pts/hand" if chiamata else "score", "95% CI", "margin", "cpu p95"]]
    for p in result["pairings"]:
        lo, hi = p["ci95"]
        first = p["summary"]["bots"][0]
        rows.append(
            [
                p["opponent"],
                fmt.format(p["score"]),
                f"[{fmt.format(lo)}, {fmt.format(hi)}]",
                f"{first['margin']:+.1f}",
                "-" if first["cpu_ms_p95"] is None else f"{first['cpu_ms_p95']:.1f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines.append(
        f"pool: {result['bot']} in {result['preset']},"
        f" {result['deals']} deals, seed {result['seed']}"
    )
    for row in rows:
        cells = [c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    w = result["worst"]
    lo, hi = w["ci95"]
    lines.append(
        f"worst: {fmt.format(w['score'])} [{fmt.format(lo)}, {fmt.format(hi)}]"
        f" against {w['opponent']}"
    )
    return "\n".join(lines)
