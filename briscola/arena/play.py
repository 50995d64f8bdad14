"""Playing the arena's games: one game per seating of a deal, external programs started
once per worker process, forfeits for programs that misbehave, deals in parallel."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from briscola.ai import Bot
from briscola.ai.protocol import BotProgramError, ProgramBot
from briscola.ai.signals import choose_signal, signals_between
from briscola.arena.spec import ArenaConfig, BotSpec, deal_order, entry_count, seatings
from briscola.engine import (
    Action,
    GameState,
    IllegalMoveError,
    PlayerView,
    Signal,
    to_record,
    view,
    view_signals,
)

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
    #: Chiamata: the match points of the auction's winner (its seat, not its entry's mean).
    caller_points: float = 0.0
    #: Chiamata: the entry of the secret partner's seat (None when the caller is alone).
    partner_entry: int | None = None


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
        # Between tricks, before the lead: the others may tell their partners first (the
        # rule MatchDriver.computer_signals_between shares at the table).
        signals_between(state, lambda other: specs[seating[other]].signals)
        seen = _seen(state, seat, specs[seating[seat]])
        if rules.signals != "off" and specs[seating[seat]].signals:
            signal = choose_signal(seen)  # partner signals (issue 25), truthful
            if signal is not None:
                state.signal(seat, signal)
                seen = _seen(state, seat, specs[seating[seat]])
        start = time.perf_counter()
        start_cpu = time.process_time()
        try:
            bot = bots[seat]
            if isinstance(bot, ProgramBot):
                action, seen = _program_move(state, seat, bot, seen)
            else:
                action = bot.choose(seen)
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


def _seen(state: GameState, seat: int, spec: BotSpec) -> PlayerView:
    """What ``seat`` is shown: its view, with its partners' whole hands for an entry that
    :attr:`~briscola.arena.spec.BotSpec.sees_partner` (an experiment)."""
    seen = view(state, seat)
    if not spec.sees_partner:
        return seen
    known = list(seen.known)
    for partner in state.rules.partners(seat):
        known[partner] = known[partner] | frozenset(state.hands[partner])
    return replace(seen, known=tuple(known))


def _program_move(
    state: GameState, seat: int, program: ProgramBot, seen: PlayerView
) -> tuple[Action, PlayerView]:
    """An external program's move, with the partner signal it may make first (offered in
    ``may_signal``, made by the engine, which judges it); returns the action and the view
    it was chosen from."""
    offered = view_signals(seen) if state.rules.signals != "off" else []
    answer = program.act(seen, offered)
    if isinstance(answer, Signal):
        try:
            state.signal(seat, answer)
        except IllegalMoveError as exc:
            raise BotProgramError(f"{program.name}: signal refused: {exc}") from None
        seen = view(state, seat)
        answer = program.act(seen, view_signals(seen))
        if isinstance(answer, Signal):  # not offered again in this trick: act refuses it
            raise BotProgramError(f"{program.name}: a second signal in one trick")
    return answer, seen


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
    caller_points = 0.0
    partner_entry: int | None = None
    if rules.chiamata and state.caller is not None:
        caller_points = float(returns[state.caller])
        if state.partner is not None and state.partner != state.caller:
            partner_entry = seating[state.partner]
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
        caller_points=caller_points,
        partner_entry=partner_entry,
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
