"""A bot program over the bot protocol (``docs/bot-protocol.md``):

    python -m briscola.bot --level hard      # a level, or rules, greedy, ismcts, ppo

It reads one JSON request per line on stdin and answers each with one JSON line on stdout
(``act`` requests with an action such as ``{"play": "3S"}``), until ``{"cmd": "quit"}`` or
the end of input. When an ``act`` offers partner signals (``may_signal``), the program may
answer with one first, ``{"signal": "king"}``: always a true one, by the convention of the
game's computer players (:mod:`briscola.ai.signals`); ``--no-signals`` never signals.
Malformed or illegal requests get ``{"error": "..."}``; the program keeps
going. A wrong command line exits with status 2, a host that closes the pipes ends it
quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import sys
from collections.abc import Sequence

from briscola.ai import BOT_NAMES, Bot
from briscola.ai.protocol import serve
from briscola.ai.signals import choose_signal
from briscola.ai.sparring import ARENA_BOTS, make_arena_bot
from briscola.cliargs import whole_number

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m briscola.bot",
        description="Play Briscola over the JSON-lines bot protocol on stdin/stdout.",
    )
    parser.add_argument(
        "--level",
        default="medium",
        choices=(*BOT_NAMES, *ARENA_BOTS),
        help="which bot (rules, greedy, ismcts, ppo: the arena's sparring pool)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed (default: random)")
    parser.add_argument(
        "--budget",
        type=whole_number(1),
        default=None,
        help="search bots: samples per move (deterministic)",
    )
    parser.add_argument(
        "--no-signals",
        action="store_true",
        help="never make partner signals, even when the host offers them",
    )
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    level: str = args.level

    def make(time_limit: float | None) -> Bot:
        opts: dict[str, object] = {}
        if args.budget is not None and level in ("hard", "pimc", "ismcts"):
            opts["budget"] = args.budget
        return make_arena_bot(level, rng, time_limit=time_limit, **opts)

    # Bytes that are not UTF-8 get an error reply, never a crash.
    stdin = sys.stdin
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    signaller = None if args.no_signals else choose_signal
    status = serve(make, stdin, sys.stdout, name=f"briscola {level}", signaller=signaller)
    _quiet_stdout()
    return status


def _quiet_stdout() -> None:
    """After a host closed its end, the interpreter's last flush must not print an error."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    raise SystemExit(main())
