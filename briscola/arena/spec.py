"""The arena's entries and rules: bot specifications (``medium``, ``hard:budget=200``,
``cmd:python bot.py``), rule options, the configuration of a run, the seatings that rotate
the entries through the seats, and the deals (the same for any number of worker processes).
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass
from typing import Any

from briscola.ai import BOT_NAMES, Bot
from briscola.ai.protocol import ProgramBot
from briscola.ai.sparring import ARENA_BOTS, make_arena_bot
from briscola.engine import GameState, Rules, view

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
        if name not in BOT_NAMES and name not in ARENA_BOTS:
            known = ", ".join((*BOT_NAMES, *ARENA_BOTS))
            raise ValueError(f"unknown bot {name!r}: expected one of {known}")
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

    @property
    def signals(self) -> bool:
        """The entry makes partner signals when the rules allow them (``signals=0``: never;
        the arena makes them for it, :mod:`briscola.ai.signals`)."""
        return self.command is None and bool(dict(self.options).get("signals", True))

    @property
    def sees_partner(self) -> bool:
        """An experiment, not a rule of the game (``sees_partner=1``): the entry's seats are
        shown their partners' whole hands, the most that partner signals could tell."""
        return self.command is None and bool(dict(self.options).get("sees_partner", False))

    def build(self, rng: random.Random, time_limit: float | None, timeout: float = 30.0) -> Bot:
        opts = dict(self.options)
        opts.pop("signals", None)  # the arena's, not the bot's (see signals)
        opts.pop("sees_partner", None)  # the arena's too (see sees_partner)
        if time_limit is not None:
            opts.setdefault("time_limit", time_limit)
        if self.command is not None:
            return ProgramBot(
                self.command, time_limit=opts.get("time_limit"), timeout=timeout, name=self.text
            )
        return make_arena_bot(self.name, rng, **opts)


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
