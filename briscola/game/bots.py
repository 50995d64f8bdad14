"""Computer players through a port: the driver never knows where a bot thinks.

A bot thinks wherever the caller's :class:`BotPort` sends it (the game's worker process, the
server's pool, the calling thread in a test). The bot travels with the view and comes back
with its random state advanced, so a seeded match plays the same every time.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from typing import Protocol

from briscola.ai.base import Bot
from briscola.engine import Action, PlayerView

__all__ = ["BotPort", "ExecutorPort", "fallback", "think"]

log = logging.getLogger("briscola.game")


def think(bot: Bot, seen: PlayerView) -> tuple[Action, Bot]:
    """A computer player's move and the bot as it is after it (it may learn as it plays).
    Runs wherever the port sends it (another process included): both travel back."""
    return bot.choose(seen), bot


class BotPort(Protocol):
    """Where computer players think: ``submit`` returns at once with a future."""

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]: ...


class ExecutorPort:
    """A :class:`BotPort` over any :class:`concurrent.futures.Executor` (a thread or
    process pool)."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        return self.executor.submit(think, bot, seen)


def fallback(chosen: Action | None, legal: Sequence[Action], who: str) -> Action:
    """The move a computer player makes: ``chosen`` when it is legal, else (the bot failed,
    ``chosen`` is None, or it chose an illegal move) the first legal move, so a misbehaving
    bot can never stop a match."""
    if not legal:
        raise ValueError("no legal move: it is nobody's turn")
    if chosen is None:
        return legal[0]
    if chosen not in legal:
        log.error("%s chose an illegal move %s; playing %s", who, chosen, legal[0])
        return legal[0]
    return chosen
