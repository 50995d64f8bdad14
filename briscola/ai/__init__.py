"""Computer opponents: ``random``, ``easy``, ``medium``, ``hard`` and ``pimc``.

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("classic2"), random.Random(1))
>>> bot = make_bot("medium", random.Random(1))
>>> bot.choose(view(state, state.current_player)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any, Final

from briscola.ai.base import Bot, RandomBot
from briscola.ai.medium import EasyBot, MediumBot, medium_action
from briscola.engine import Action, PlayerView

__all__ = ["BOT_NAMES", "Bot", "hint", "make_bot"]

#: The registered bot names, weakest first.
BOT_NAMES: Final = ("random", "easy", "medium", "pimc", "hard")
#: Whether ``medium`` plays with the learned evaluation (:mod:`briscola.ai.learned`) unless
#: told otherwise (``medium:learned=0``).
LEARNED_MEDIUM: Final = True


def make_bot(name: str, rng: random.Random | None = None, **opts: Any) -> Bot:
    """A bot by name. ``opts``: ``time_limit`` (seconds, all bots accept it); for medium,
    ``learned`` (the learned evaluation on or off) and ``weights`` (a weights file); for the
    search bots, ``budget`` (samples per move: deterministic) and other tuning options."""
    rng = rng if rng is not None else random.Random()
    if name == "random":
        return RandomBot(rng, **opts)
    if name == "easy":
        return EasyBot(rng, **opts)
    if name == "medium":
        # ``learned=0``: the hand-written rules alone (the baseline); ``weights``: another
        # file of the learned evaluation (tools/learn/train.py).
        if opts.pop("learned", LEARNED_MEDIUM):
            from briscola.ai.learned import LearnedMediumBot

            return LearnedMediumBot(rng, **opts)
        if "weights" in opts:
            raise ValueError("weights needs learned=1")
        return MediumBot(rng, **opts)
    if name in ("hard", "pimc"):
        from briscola.ai.search import HardBot, PimcBot

        return HardBot(rng, **opts) if name == "hard" else PimcBot(rng, **opts)
    raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOT_NAMES)}")


def hint(view: PlayerView) -> Action:
    """The move medium would make: a suggestion for a human player (must be its turn)."""
    if LEARNED_MEDIUM:
        from briscola.ai.learned import learned_action

        return learned_action(view)
    return medium_action(view)
