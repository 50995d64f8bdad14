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

from briscola.arena.cli import build_parser, main, run_arena
from briscola.arena.figures import format_table, mean_ci, percentile, summarize
from briscola.arena.play import DealResult, GameOutcome, iter_deals, play_deal, play_game
from briscola.arena.spec import (
    ArenaConfig,
    BotSpec,
    deal_order,
    entry_count,
    parse_rules_opts,
    seatings,
)

__all__ = [
    "ArenaConfig",
    "BotSpec",
    "DealResult",
    "GameOutcome",
    "build_parser",
    "deal_order",
    "entry_count",
    "format_table",
    "iter_deals",
    "main",
    "mean_ci",
    "parse_rules_opts",
    "percentile",
    "play_deal",
    "play_game",
    "run_arena",
    "seatings",
    "summarize",
]
