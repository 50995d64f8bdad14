"""The arena's sparring pool: players written or trained here, each with its own way of
going wrong, that the game's levels are measured against (``python -m briscola.arena
--pool``; ``python -m briscola.bot --level NAME`` offers them too).

* ``rules``: an independent rule player (:mod:`briscola.ai.rulebot`);
* ``greedy``: the most points on the table now (:mod:`briscola.ai.greedy`);
* ``ismcts``: information-set Monte Carlo tree search (:mod:`briscola.ai.ismcts`);
* ``ppo``: a policy network trained by self-play reinforcement learning
  (:mod:`briscola.ai.policy`);
* and ``hard`` as it was before its learned default move and before its search was made
  cheaper (``hard:prior=medium:inference=tricks:former_budget=1``: the budgets of then),
  a game level with options (:data:`POOL`).
"""

from __future__ import annotations

import random
from typing import Any, Final

from briscola.ai import Bot, make_bot
from briscola.ai.rulebot import AuctionSwap, RuleBot

__all__ = ["ARENA_BOTS", "POOL", "make_arena_bot"]

#: Bots the arena (and ``python -m briscola.bot``) offer beyond the game's levels.
ARENA_BOTS: Final = ("rules", "greedy", "ismcts", "ppo")
#: The sparring pool, as arena entries: ``python -m briscola.arena --pool`` plays its bot
#: against each.
POOL: Final = (
    "rules",
    "hard:prior=medium:inference=tricks:former_budget=1",
    "ppo",
    "ismcts",
    "greedy",
)


def make_arena_bot(name: str, rng: random.Random | None = None, **opts: Any) -> Bot:
    """A game level (``briscola.ai.make_bot``) or one of :data:`ARENA_BOTS`; the option
    ``bidder`` (rules or medium) gives any of them that auction instead of its own."""
    bidder = opts.pop("bidder", None)
    bot: Bot
    if name == "rules":
        bot = RuleBot(rng, **opts)
    elif name == "greedy":
        from briscola.ai.greedy import GreedyBot

        bot = GreedyBot(rng, **opts)
    elif name == "ismcts":
        from briscola.ai.ismcts import IsmctsBot

        bot = IsmctsBot(rng, **opts)
    elif name == "ppo":
        from briscola.ai.policy import PolicyBot

        bot = PolicyBot(rng, **opts)
    else:
        bot = make_bot(name, rng, **opts)
    if bidder is not None:
        return AuctionSwap(bot, str(bidder))
    return bot
