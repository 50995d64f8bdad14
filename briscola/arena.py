"""Bot arena: play bots against each other on duplicate deals and report their strength.

    python -m briscola.arena --preset classic2 --bots hard,medium --deals 1000 --jobs 2

Duplicate deals: each deal (a deck order and a dealer) is played once per seating, the
bots rotating through the seats, so every bot holds every hand. A deal and its seatings are
one sample of the score, which blocks out most of the luck of the cards.

Seatings (``--bots`` lists bots, a single name fills every seat):

* one bot per side (2 players, 3 players, teams): the bots rotate through the sides;
* one bot per seat: the bots rotate through the seats;
* three players with two bots ``A,B``: A against two copies of B, A taking each seat;
* Chiamata with two bots ``A,B``: A sits in one seat and B in the other four, A taking each
  of the five seats in turn ("one against the field": match points are zero-sum, so A's
  average above 0 means it does better than B would in its place). Five bots: per seat.

Scores: a game won counts 1, drawn 1/2, lost 0 (three players: a tie for the top is a
draw). Chiamata reports the mean match points per hand (caller +2, partner +1, others -1,
signs flip on a loss, +/-4 alone, doubled for cappotto) and how often the bot's side won,
as caller and otherwise. Intervals are 95% (normal approximation over deals).

External programs: ``cmd:python my_bot.py`` runs a program over the bot protocol
(``docs/bot-protocol.md``). An illegal or malformed answer, a crash or a timeout forfeits
that game: the program's side loses it (Chiamata: -4 match points to the program's seat,
+1 to each other seat) and the program is restarted for the next game. A program gets
``--bot-timeout`` seconds per answer (default 30). The arena stops when a program forfeits
more than ``--max-forfeits`` games: the table, ``--json`` and ``--records`` still hold every
game played so far, and the exit status is 1.

A wrong command line (an unknown bot or bot option, rule options the rules refuse, an
output file that cannot be written, a time limit that is not positive) exits with status 2
before any game is played.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from briscola.ai import BOT_NAMES, Bot, make_bot
from briscola.ai.protocol import BotProgramError, ProgramBot
from briscola.engine import PRESET_DESCRIPTIONS, PRESETS, GameState, Rules, to_record, view

__all__ = ["ArenaConfig", "BotSpec", "main", "run_arena"]


# ---------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class BotSpec:
    """One arena entry: a registered bot with options, or an external command."""

    text: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()
    command: str | None = None

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """``medium``, ``hard:budget=200:inference=0`` or ``cmd:python bot.py``."""
        text = text.strip()
        if text.startswith("cmd:"):
            command = text[4:].strip()
            try:
                words = shlex.split(command)
            except ValueError as exc:
                raise ValueError(f"bad command line in {text!r}: {exc}") from None
            if not words or not words[0]:
                raise ValueError("cmd: needs a command line")
            return cls(text, "cmd", (), command)
        name, *parts = text.split(":")
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")
        options: list[tuple[str, Any]] = []
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key:
                raise ValueError(f"bad bot option {part!r} in {text!r}: expected key=value")
            options.append((key, _parse_value(value)))
        spec = cls(text, name, tuple(options))
        if options:
            spec._try_options()
        return spec

    def _try_options(self) -> None:
        """Build the bot and make one move with it: options the bot does not know, or
        values of the wrong kind, are refused now rather than in the middle of a game."""
        state = GameState.new(Rules.preset("classic2"), random.Random(0))
        try:
            bot = self.build(random.Random(0), None)
            bot.choose(view(state, state.current_player or 0))
        except Exception as exc:  # whatever the options break, it is the command line's fault
            raise ValueError(f"bad options in {self.text!r}: {exc}") from None

    def build(self, rng: random.Random, time_limit: float | None, timeout: float = 30.0) -> Bot:
        opts = dict(self.options)
        if time_limit is not None:
            opts.setdefault("time_limit", time_limit)
        if self.command is not None:
            return ProgramBot(
                self.command, time_limit=opts.get("time_limit"), timeout=timeout, name=self.text
            )
        return make_bot(self.name, rng, **opts)


def _parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_rules_opts(text: str) -> dict[str, Any]:
    """``swap=1,three_as_three=1,partners_see=start`` as rule options."""
    opts: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"bad rules option {part!r}: expected key=value")
        parsed = _parse_value(value)
        if key in ("swap", "three_as_three", "scoperta", "follow_suit", "teams", "trump"):
            parsed = bool(parsed)
        opts[key.strip()] = parsed
    return opts


@dataclass(frozen=True)
class ArenaConfig:
    rules: Rules
    specs: tuple[BotSpec, ...]
    deals: int
    seed: int
    jobs: int = 1
    time_limit: float | None = None
    records: bool = False
    max_forfeits: int = 20
    #: Seconds an external program may take to answer one request.
    bot_timeout: float = 30.0


# ---------------------------------------------------------------------------- seatings


def entry_count(rules: Rules, k: int) -> int:
    """How many entries a game has once a single bot is spread over every side."""
    if k != 1:
        return k
    return 2 if rules.chiamata else len(rules.sides)


def seatings(rules: Rules, k: int) -> list[tuple[int, ...]]:
    """For each seating, the entry index of every seat. ``k`` entries (k >= 2)."""
    n = rules.players
    if rules.chiamata:
        if k == 2:
            return [tuple(0 if s == r else 1 for s in range(n)) for r in range(n)]
        if k == n:
            return [tuple((s + r) % n for s in range(n)) for r in range(n)]
        raise ValueError(f"Chiamata needs 1, 2 (one against the field) or {n} bots, got {k}")
    sides = len(rules.sides)
    if k == 2 and sides > 2:  # one against the field (three players)
        return [tuple(0 if s == r else 1 for s in range(n)) for r in range(n)]
    if k == sides:
        return [tuple((rules.side_of(s) + r) % k for s in range(n)) for r in range(k)]
    if k == n:
        return [tuple((s + r) % n for s in range(n)) for r in range(n)]
    raise ValueError(
        f"{rules.name} needs 1 bot, one per side ({sides}) or one per seat ({n}), got {k}"
    )


def deal_order(rules: Rules, seed: int, deal: int) -> tuple[list[Any], int]:
    """The deck order and dealer of deal number ``deal`` (independent of --jobs)."""
    rng = random.Random(f"briscola-arena/{seed}/{deal}")
    deck = list(rules.deck)
    rng.shuffle(deck)
    return deck, rng.randrange(rules.players)


# ---------------------------------------------------------------------------- playing


@dataclass
class GameOutcome:
    """What one game tells about each entry."""

    score: list[float]  # per entry: wins + half draws (mean over its seats' sides)
    margin: list[float]
    match_points: list[float]
    seats: list[int]  # per entry: seats it held
    caller_entry: int | None
    caller_won: bool
    forfeit: int | None
    record: dict[str, Any] | None


@dataclass
class DealResult:
    deal: int
    games: list[GameOutcome]
    times: list[list[float]]  # per entry: ms per move (wall clock)
    cpu: list[list[float]]  # per entry: ms of processor time per move (this process)
    errors: list[str] = field(default_factory=list)


_WORKER: dict[str, Any] = {}


def _program_bots(config: ArenaConfig) -> dict[int, ProgramBot]:
    """The worker's external programs, one per (entry, seat), started lazily."""
    bots: dict[int, ProgramBot] = _WORKER.setdefault("programs", {})
    return bots


def play_game(
    config: ArenaConfig,
    deal: int,
    rotation: int,
    seating: tuple[int, ...],
    times: list[list[float]],
    cpu: list[list[float]],
) -> tuple[GameOutcome, str | None]:
    rules = config.rules
    n = rules.players
    k = entry_count(rules, len(config.specs))
    specs = list(config.specs) * (k if len(config.specs) == 1 else 1)
    deck, dealer = deal_order(rules, config.seed, deal)
    state = GameState(rules, deck, dealer)
    programs = _program_bots(config)
    bots: list[Bot] = []
    error: str | None = None
    forfeit_seat: int | None = None
    for seat in range(n):
        spec = specs[seating[seat]]
        rng = random.Random(f"briscola-arena/{config.seed}/{deal}/{rotation}/{seat}")
        if spec.command is not None:
            key = seat * 1000 + seating[seat]
            program = programs.get(key)
            if program is None:
                built = spec.build(rng, config.time_limit, config.bot_timeout)
                assert isinstance(built, ProgramBot)
                program = programs[key] = built
            try:
                program.new_game(rules, seat, deal)
            except BotProgramError as exc:
                error, forfeit_seat = str(exc), seat
            bots.append(program)
        else:
            bots.append(spec.build(rng, config.time_limit))
    while forfeit_seat is None and not state.is_terminal():
        mover = state.current_player
        assert mover is not None
        seat = mover
        seen = view(state, seat)
        start = time.perf_counter()
        start_cpu = time.process_time()
        try:
            action = bots[seat].choose(seen)
        except BotProgramError as exc:
            error, forfeit_seat = str(exc), seat
            break
        times[seating[seat]].append((time.perf_counter() - start) * 1000.0)
        cpu[seating[seat]].append((time.process_time() - start_cpu) * 1000.0)
        if action not in seen.legal:
            error = f"{specs[seating[seat]].text} played an illegal action {action}"
            forfeit_seat = seat
            break
        state.apply(action)
    if forfeit_seat is None:
        result = state.outcome()
        for bot in bots:
            if isinstance(bot, ProgramBot):
                try:
                    bot.game_over(result.to_json())
                except BotProgramError as exc:
                    error = str(exc)
    outcome = _outcome(config, state, seating, k, forfeit_seat)
    if config.records:
        meta = {
            "bots": [specs[seating[s]].text for s in range(n)],
            "deal": deal,
            "rotation": rotation,
            "seed": config.seed,
        }
        if forfeit_seat is not None:
            meta["forfeit"] = {"seat": forfeit_seat, "reason": error}
        outcome.record = to_record(state, meta)
    return outcome, error


def _outcome(
    config: ArenaConfig,
    state: GameState,
    seating: tuple[int, ...],
    k: int,
    forfeit_seat: int | None,
) -> GameOutcome:
    rules = state.rules
    n = rules.players
    seats_of: list[list[int]] = [[] for _ in range(k)]
    for seat in range(n):
        seats_of[seating[seat]].append(seat)
    score = [0.0] * k
    margin = [0.0] * k
    match_points = [0.0] * k
    caller_entry: int | None = None
    caller_won = False
    forfeit_entry = None if forfeit_seat is None else seating[forfeit_seat]
    points = state.points
    if rules.chiamata and state.caller is not None and state.partner is not None:
        calling = {state.caller, state.partner}
        side_of = [0 if s in calling else 1 for s in range(n)]
        caller_entry = seating[state.caller]
    elif rules.chiamata:
        side_of = list(range(n))
    else:
        side_of = [rules.side_of(s) for s in range(n)]
    side_points: dict[int, int] = {}
    for seat in range(n):
        side_points[side_of[seat]] = side_points.get(side_of[seat], 0) + points[seat]
    if forfeit_seat is None:
        result = state.outcome()
        returns = result.returns
        if rules.chiamata:
            caller_won = result.winner == 0
    else:
        bad = side_of[forfeit_seat]
        if rules.chiamata:
            returns = tuple(-4 if s == forfeit_seat else 1 for s in range(n))
        else:
            returns = tuple(-1 if side_of[s] == bad else 1 for s in range(n))
    for entry in range(k):
        seats = seats_of[entry]
        if not seats:
            continue
        s_score = 0.0
        s_margin = 0.0
        s_mp = 0.0
        for seat in seats:
            ret = returns[seat]
            if rules.chiamata:
                s_score += 1.0 if ret > 0 else 0.0
                s_mp += ret
            else:
                s_score += 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0
                s_mp += ret
            mine = side_points[side_of[seat]]
            others = [p for side, p in side_points.items() if side != side_of[seat]]
            s_margin += mine - (max(others) if others else 0)
        score[entry] = s_score / len(seats)
        margin[entry] = s_margin / len(seats)
        match_points[entry] = s_mp / len(seats)
    return GameOutcome(
        score=score,
        margin=margin,
        match_points=match_points,
        seats=[len(s) for s in seats_of],
        caller_entry=caller_entry,
        caller_won=caller_won,
        forfeit=forfeit_entry,
        record=None,
    )


def play_deal(config: ArenaConfig, deal: int) -> DealResult:
    """Every seating of one deal."""
    k = entry_count(config.rules, len(config.specs))
    times: list[list[float]] = [[] for _ in range(k)]
    cpu: list[list[float]] = [[] for _ in range(k)]
    games = []
    errors = []
    for rotation, seating in enumerate(seatings(config.rules, k)):
        outcome, error = play_game(config, deal, rotation, seating, times, cpu)
        games.append(outcome)
        if error:
            errors.append(f"deal {deal} seating {rotation}: {error}")
    return DealResult(deal, games, times, cpu, errors)


def _init_worker(config: ArenaConfig) -> None:
    _WORKER["config"] = config


def _worker_deal(deal: int) -> DealResult:
    config: ArenaConfig = _WORKER["config"]
    return play_deal(config, deal)


def _close_programs() -> None:
    for program in _WORKER.get("programs", {}).values():
        program.close()
    _WORKER.pop("programs", None)


def iter_deals(config: ArenaConfig) -> Iterator[DealResult]:
    """Deal results in deal order (in parallel with ``jobs`` > 1)."""
    deals = range(config.deals)
    if config.jobs <= 1:
        _init_worker(config)
        try:
            for deal in deals:
                yield play_deal(config, deal)
        finally:
            _close_programs()
        return
    with multiprocessing.Pool(config.jobs, initializer=_init_worker, initargs=(config,)) as pool:
        yield from pool.imap(_worker_deal, deals, chunksize=1)
        pool.close()
        pool.join()


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
        other_hands = other_wins = 0
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
                    else:
                        other_hands += 1
                        other_wins += g.score[entry] > 0
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
            info["other_hands"] = other_hands
            info["other_win_rate"] = round(other_wins / other_hands, 4) if other_hands else None
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
            "Bots: " + ", ".join(BOT_NAMES) + "; options as name:key=value:key=value (for"
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
    parser.add_argument("--deals", type=_count(1), default=100, help="deals (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--jobs", type=_count(1), default=1, help="worker processes (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--records", metavar="FILE.jsonl", help="write one record per game")
    parser.add_argument(
        "--time-limit",
        type=_positive_number,
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
        "--max-forfeits", type=_count(0), default=20, help="stop after more forfeits (default 20)"
    )
    parser.add_argument(
        "--bot-timeout",
        type=_positive_number,
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
            texts = ["medium", "random"]
        specs = tuple(BotSpec.parse(t) for t in texts)
        if not specs:
            raise ValueError("no bots given")
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
    summary, records = run_arena(config, progress=not args.quiet)
    summary["command"] = "python -m briscola.arena " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    print(format_table(summary))
    try:
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(summary, out, indent=2)
                out.write("\n")
        if args.records:
            from briscola.engine import write_records

            write_records(args.records, records)
    except OSError as exc:
        print(f"arena: could not write the results: {exc}", file=sys.stderr)
        return 1
    if "stopped" in summary:
        print(f"arena: stopped: {summary['stopped']}", file=sys.stderr)
        return 1
    return 0


def _count(least: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least}, got {value}")
        return value

    return parse


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
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


if __name__ == "__main__":
    raise SystemExit(main())
