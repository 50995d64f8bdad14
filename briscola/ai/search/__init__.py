"""Search bots: ``hard`` and the ``pimc`` baseline.

Hard is Perfect Information Monte Carlo done carefully:

1. **Samples** ("determinizations"): the cards this seat cannot see are dealt at random to
   the other hands and the face-down stock, agreeing with everything the view shows (known
   cards, the face-up briscola and scoperta top, follow-suit voids). With two players near
   the end of the stock, when at most 24 deals remain possible, each is taken once instead.
   With ``inference`` on, samples are weighted by how well each explains the opponents'
   recent plays (:func:`.sampling.likelihood`) and, in Chiamata, by who probably holds the called
   card (:func:`briscola.ai.knowledge.partner_probabilities`); ``inference="policy"`` weighs
   them instead by the likelihood of the other seats' plays of the last three tricks under
   a model of their play built on the rollout policy (:mod:`.inference`; the default with
   two players and in teams, where none must follow suit: :meth:`.HardBot.inference_for`).
2. **Evaluation** of each candidate (every legal card; with a swap available, the swap
   followed by each card) in each sample, the same samples and rollout randomness for every
   candidate so that the comparison is paired: the card is played, then the hand continues
   with a fast int version of medium's rules (:mod:`.rollout`) until the stock is empty,
   and from there it is **solved exactly** (:mod:`.solver`: minimax, alpha-beta with a
   transposition table for longer endings, every player count; with three players *max-n*,
   each playing the ending for itself, ``ending="paranoid"`` all against the searching
   seat). With two players and at most one hidden card in the stock, the search solves
   straight through the last draws; with an empty stock nothing is hidden and the position
   is solved once.
3. **Utility**: a hand is played to be won, not to score points: 1 for a win, 1/2 for a
   draw, 0 for a loss (the target is 61, the Chiamata bid, or the top score with three
   players), plus a small term (``margin`` per point) that breaks ties between moves that
   win (or lose) anyway.
4. **Decision**: medium's move is the default; hard plays another candidate only when its
   mean gain over medium's move, over the samples, exceeds ``confidence`` standard errors
   (paired differences). On a small budget, sampling noise on near-equal moves otherwise
   costs more than the search gains (measured: docs/ai.md). Exact positions (solved, or every deal
   enumerated) take the best candidate outright.

Budgets: ``budget`` is a number of *work units* (simulated card plays, and solver nodes
counted at their relative cost), not seconds, so that a seeded bot makes the same moves on
any machine. The defaults (:data:`DEFAULT_BUDGET`) were tuned to about 250 ms per move at
the 95th percentile on one core for two players and 300 ms for five (two players: 70 000
units since the search was made cheaper per unit, issue 51). ``time_limit``
(seconds) adds a clock: the search stops at whichever comes first, and is then no longer
reproducible; ``deterministic=True`` ignores the clock.

``pimc`` is the plain baseline: uniform samples, a fixed small number of them, one random
playout per card and sample, the most points on average; no inference, no solver.

The package, one job per module:

* :mod:`.core`: the card play of one sample with cards as ints (the card tables of
  :mod:`briscola.engine.sim`), and the utility of a finished hand;
* :mod:`.sampling`: what a view fixes, samples of the rest, their likelihood;
* :mod:`.inference`: policy-based inference (a softmax over the rollout policy's values);
* :mod:`.rollout`: medium's rules as a fast rollout policy (the weights of
  :mod:`briscola.ai.heuristic`), and playing a sample out;
* :mod:`.solver`: exact endgames;
* :mod:`.hard` (:class:`HardBot`, its :class:`Evaluation`, :data:`DEFAULT_BUDGET`) and
  :mod:`.pimc` (:class:`PimcBot`).
"""

from __future__ import annotations

from briscola.ai.search.hard import DEFAULT_BUDGET, Evaluation, HardBot
from briscola.ai.search.pimc import PimcBot

__all__ = ["DEFAULT_BUDGET", "Evaluation", "HardBot", "PimcBot"]
