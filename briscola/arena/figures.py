"""The arena's figures: scores with 95% intervals over deals, margins, time per move, and
the table printed at the end."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from briscola.arena.play import DealResult
from briscola.arena.spec import ArenaConfig, entry_count, seatings

# ---------------------------------------------------------------------------- statistics


def mean_ci(samples: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation)."""
    n = len(samples)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(samples) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def summarize(config: ArenaConfig, results: Sequence[DealResult]) -> dict[str, Any]:
    rules = config.rules
    k = entry_count(rules, len(config.specs))
    specs = list(config.specs) * (k if len(config.specs) == 1 else 1)
    labels = _labels([s.text for s in specs])
    games = sum(len(r.games) for r in results)
    bots = []
    for entry in range(k):
        score_blocks, margin_blocks, mp_blocks = [], [], []
        times: list[float] = []
        cpu: list[float] = []
        forfeits = 0
        caller_hands = caller_wins = 0
        caller_mp: list[float] = []
        other_hands = other_wins = 0
        partner_hands = partner_wins = 0
        for r in results:
            played = [g for g in r.games if g.seats[entry]]
            if not played:
                continue
            score_blocks.append(sum(g.score[entry] for g in played) / len(played))
            margin_blocks.append(sum(g.margin[entry] for g in played) / len(played))
            mp_blocks.append(sum(g.match_points[entry] for g in played) / len(played))
            times.extend(r.times[entry])
            cpu.extend(r.cpu[entry])
            for g in played:
                forfeits += g.forfeit == entry
                if rules.chiamata:
                    if g.caller_entry == entry:
                        caller_hands += 1
                        caller_wins += g.caller_won
                        caller_mp.append(g.caller_points)
                    else:
                        other_hands += 1
                        other_wins += g.score[entry] > 0
                    if g.partner_entry == entry and g.seats[entry] == 1:
                        partner_hands += 1  # one seat of its own: that seat was the partner
                        partner_wins += g.caller_won
        score, lo, hi = mean_ci(score_blocks)
        margin = mean_ci(margin_blocks)[0]
        info: dict[str, Any] = {
            "label": labels[entry],
            "spec": specs[entry].text,
            "score": round(score, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "margin": round(margin, 2),
            "moves": len(times),
            "ms_mean": round(sum(times) / len(times), 2) if times else None,
            "ms_p95": round(percentile(times, 0.95), 2) if times else None,
            "ms_max": round(max(times), 2) if times else None,
            "cpu_ms_mean": round(sum(cpu) / len(cpu), 2) if cpu else None,
            "cpu_ms_p95": round(percentile(cpu, 0.95), 2) if cpu else None,
            "forfeits": forfeits,
        }
        if rules.chiamata:
            mp, mp_lo, mp_hi = mean_ci(mp_blocks)
            info["match_points"] = round(mp, 4)
            info["match_points_ci95"] = [round(mp_lo, 4), round(mp_hi, 4)]
            info["caller_hands"] = caller_hands
            info["caller_win_rate"] = round(caller_wins / caller_hands, 4) if caller_hands else None
            # What an auction won is worth: the caller's match points in the hands it called.
            c_mp, c_lo, c_hi = mean_ci(caller_mp)
            info["caller_match_points"] = round(c_mp, 4) if caller_mp else None
            info["caller_match_points_ci95"] = (
                [round(c_lo, 4), round(c_hi, 4)] if caller_mp else None
            )
            info["other_hands"] = other_hands
            info["other_win_rate"] = round(other_wins / other_hands, 4) if other_hands else None
            info["partner_hands"] = partner_hands
            info["partner_win_rate"] = (
                round(partner_wins / partner_hands, 4) if partner_hands else None
            )
        bots.append(info)
    return {
        "preset": rules.name,
        "rules": rules.to_dict(),
        "bots": bots,
        "deals": len(results),
        "seatings": len(seatings(rules, k)),
        "games": games,
        "seed": config.seed,
        "jobs": config.jobs,
        "time_limit": config.time_limit,
    }


def _labels(texts: list[str]) -> list[str]:
    out = []
    for i, text in enumerate(texts):
        if texts.count(text) > 1:
            out.append(f"{text}#{texts[:i].count(text) + 1}")
        else:
            out.append(text)
    return out


def format_table(summary: dict[str, Any]) -> str:
    chiamata = summary["rules"]["chiamata"]
    head = (
        f"{summary['preset']}: {summary['deals']} deals x {summary['seatings']} seatings"
        f" = {summary['games']} games, seed {summary['seed']}"
    )
    rows = []
    if chiamata:
        header = [
            "bot",
            "match pts/hand",
            "95% CI",
            "side won",
            "as caller",
            "caller won",
            "pts/call",
            "margin",
            "ms/move",
            "p95 ms",
            "cpu p95",
            "forfeits",
        ]
    else:
        header = ["bot", "score", "95% CI", "margin", "ms/move", "p95 ms", "cpu p95", "forfeits"]
    rows.append(header)
    for b in summary["bots"]:
        ms = "-" if b["ms_mean"] is None else f"{b['ms_mean']:.1f}"
        p95 = "-" if b["ms_p95"] is None else f"{b['ms_p95']:.1f}"
        cpu95 = "-" if b["cpu_ms_p95"] is None else f"{b['cpu_ms_p95']:.1f}"
        if chiamata:
            lo, hi = b["match_points_ci95"]
            rate = b["caller_win_rate"]
            rows.append(
                [
                    b["label"],
                    f"{b['match_points']:+.3f}",
                    f"[{lo:+.3f}, {hi:+.3f}]",
                    f"{b['score']:.3f}",
                    str(b["caller_hands"]),
                    "-" if rate is None else f"{rate:.3f}",
                    "-" if b["caller_match_points"] is None else f"{b['caller_match_points']:+.2f}",
                    f"{b['margin']:+.1f}",
                    ms,
                    p95,
                    cpu95,
                    str(b["forfeits"]),
                ]
            )
        else:
            lo, hi = b["ci95"]
            rows.append(
                [
                    b["label"],
                    f"{b['score']:.3f}",
                    f"[{lo:.3f}, {hi:.3f}]",
                    f"{b['margin']:+.1f}",
                    ms,
                    p95,
                    cpu95,
                    str(b["forfeits"]),
                ]
            )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [head]
    for j, row in enumerate(rows):
        cells = [
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
