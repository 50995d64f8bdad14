"""What a spectator may know: only what every seat of the table knows.

:func:`spectator_view` is built from the per-seat views (:func:`~briscola.engine.view.view`)
and keeps of each field what all of them agree on, so a card that any one seat may not see
cannot reach a spectator: no hand, no partner's shown cards, no signal meant for partners, no
secret partner before it is revealed. Its ``seat`` is ``-1``; its ``legal`` is empty.

>>> import random
>>> from .rules import Rules
>>> from .state import GameState
>>> state = GameState.new(Rules.preset("teams4"), random.Random(3))
>>> seen = spectator_view(state)
>>> seen.seat, seen.hand, seen.hand_sizes, seen.briscola == state.briscola
(-1, (), (3, 3, 3, 3), True)
"""

from __future__ import annotations

import dataclasses
from functools import reduce
from typing import Any

from briscola.engine.state import GameState
from briscola.engine.view import SPECTATOR, PlayerView, view, view_to_json

__all__ = ["SPECTATOR", "spectator_json", "spectator_view"]


def spectator_view(state: GameState) -> PlayerView:
    """The part of ``state`` that every seat may know (see the module docstring)."""
    views = [view(state, seat) for seat in range(state.rules.players)]
    first = views[0]
    n = state.rules.players
    # Of another seat's hand, a spectator knows what every other seat knows of it.
    known = tuple(
        reduce(frozenset.intersection, (v.known[other] for v in views if v.seat != other))
        for other in range(n)
    )
    partners = {v.partner for v in views}
    signals = [made for made in first.signals if all(made in v.signals for v in views)]
    return dataclasses.replace(
        first,
        seat=SPECTATOR,
        hand=(),
        known=known,
        partner=first.partner if len(partners) == 1 else None,
        legal=(),
        signals=tuple(signals),
    )


def spectator_json(state: GameState) -> dict[str, Any]:
    """The spectator's view in the ``update`` message's form (``view_to_json``)."""
    return view_to_json(spectator_view(state))
