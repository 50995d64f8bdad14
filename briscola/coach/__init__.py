"""The coach: the hard search's knowledge put in a player's hands, without pygame.

* :func:`evaluate`: the expected points of every card a seat may play, from its
  :class:`~briscola.engine.PlayerView` alone (:mod:`.assess`);
* :func:`explain`: why a card is the best, or what another gave up, as a message id and
  facts of the position (:mod:`.reasons`; the GUI words it in the player's language:
  :mod:`briscola.text.coachtext`);
* :func:`advise_bid`: the bid or call to make in the Chiamata auction, and the facts why
  (:mod:`.bidding`);
* :func:`review`: every card a seat played in a recorded hand, graded from what the seat
  knew then, with a summary (:mod:`.review`; ``python -m briscola.review``).

>>> import random
>>> from briscola.engine import GameState, Rules, view
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> seen = view(state, state.current_player)
>>> found = evaluate(seen, seed=1, budget=400)
>>> explain(seen, found).card == found.best
True
"""

from __future__ import annotations

from briscola.coach.assess import CLOSE, Assessment, default_budget, evaluate, position_seed
from briscola.coach.bidding import BID_REASONS, BidAdvice, advise_bid
from briscola.coach.reasons import REASONS, Reason, explain
from briscola.coach.review import VERDICTS, MoveReview, Review, decisions, review, verdict

__all__ = [
    "BID_REASONS",
    "CLOSE",
    "REASONS",
    "VERDICTS",
    "Assessment",
    "BidAdvice",
    "MoveReview",
    "Reason",
    "Review",
    "advise_bid",
    "decisions",
    "default_budget",
    "evaluate",
    "explain",
    "position_seed",
    "review",
    "verdict",
]
