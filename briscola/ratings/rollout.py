"""The luck of a hand valued by playouts: the AIVAT control variate of
:mod:`briscola.ratings.luck` with the search's rollout value instead of the fitted card values.

The value of a position is the points each side ends with when the hand is played out from
there by the search's rollout policy (medium's rules of thumb with cards as ints,
:mod:`briscola.ai.search.rollout`), the cards not yet revealed shuffled, averaged over
``playouts``. Each chance event's luck is the mean, over coupled pairs of playouts, of the
points after it less the points before it: "after" shuffles the cards still hidden, its
"before" puts the event's cards back among them by the first steps of a Fisher-Yates
shuffle (uniform over the deals "before" allows), and both play with the same random
numbers. Measured against the card values in ``docs/ratings.md`` (noisier for the same
time, and far dearer): kept for that comparison, not used by the service.

>>> import random
>>> from briscola.engine import GameState, Rules
>>> state = GameState.new(Rules.preset("classic2"), random.Random(3))
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> hand = luck_of(state, playouts=2, seed=1)
>>> hand.points == state.side_points(), len(hand.luck), len(hand.adjusted)
(True, 2, 2)
>>> round(sum(hand.luck), 6)  # the points of a hand add up to 120: so does its luck to 0
0.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from briscola.ai.search.core import Game, SearchRules, mask_of
from briscola.ai.search.rollout import finish
from briscola.engine import Drew, GameState, Rules
from briscola.ratings.luck import HandLuck, actions_of

__all__ = ["PLAYOUTS", "luck_of"]

#: Playouts averaged for the value of each position (before and after each chance event).
PLAYOUTS: Final = 8
#: Cards left at which a playout's ending is solved exactly (two players; 0: never).
SOLVE_AT: Final = 0


def luck_of(
    state: GameState, playouts: int = PLAYOUTS, seed: int | str = 0, solve_at: int = SOLVE_AT
) -> HandLuck:
    """The luck of the finished hand ``state`` (built from its deck: a record's
    :func:`~briscola.engine.replay` or the server's own state). ``seed`` makes the playouts
    repeatable (the hand's id is a good one): the same hand always gets the same luck."""
    if not state.is_terminal():
        raise ValueError("the luck of a hand is measured once it is over")
    if not state.deck:
        raise ValueError("the luck of a hand needs its deck (a determinized state has none)")
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    result = state.outcome()
    points = tuple(result.side_points)
    sides = len(points)
    if state.rules.chiamata:
        return HandLuck(points, (0.0,) * sides, tuple(float(p) for p in points))
    rng = random.Random(f"luck:{seed}")
    valuer = _Valuer(state.rules, playouts, solve_at)
    luck = [0.0] * sides
    replay = GameState(state.rules, state.deck, state.dealer)
    # The deal: the turned briscola (it names the trump) is taken as given; the hands are
    # the chance event.
    fixed = {replay.briscola.index} if replay.briscola is not None else set()
    revealed = _revealed_at_deal(replay)
    _add(luck, valuer.luck(replay, fixed, revealed, rng.random()))
    for action in actions_of(state):
        start = len(replay.events)
        replay.apply(action)
        drawn = [e for e in replay.events[start:] if isinstance(e, Drew)]
        if not drawn:
            continue
        before = set(revealed)
        for event in drawn:
            assert event.card is not None
            revealed.add(event.card.index)
        if replay.rules.scoperta and replay.stock:
            revealed.add(replay.stock[0].index)
        _add(luck, valuer.luck(replay, before, revealed, rng.random()))
    adjusted = tuple(p - k for p, k in zip(points, luck, strict=True))
    return HandLuck(points, tuple(luck), adjusted)


def _add(luck: list[float], event: Sequence[float]) -> None:
    for side in range(len(luck)):
        luck[side] += event[side]


def _revealed_at_deal(state: GameState) -> set[int]:
    revealed = {card.index for hand in state.hands for card in hand}
    if state.briscola is not None and state.rules.turned_briscola:
        revealed.add(state.briscola.index)
    if state.rules.scoperta and state.stock:
        revealed.add(state.stock[0].index)
    return revealed


class _Valuer:
    """The value of a position: the points per side after playouts by the rollout policy."""

    def __init__(self, rules: Rules, playouts: int, solve_at: int) -> None:
        self.rules = rules
        self.playouts = playouts
        self.solve_at = solve_at
        self.side = tuple(rules.side_of(seat) for seat in range(rules.players))
        self.sides = len(rules.sides)

    def luck(self, state: GameState, before: set[int], after: set[int], seed: float) -> list[float]:
        """The luck per side of the chance event that revealed the cards of ``after`` not
        in ``before``, ``state`` being the position just after it: the mean over playouts
        of the points after less the points before. Each pair of playouts is coupled: the
        "after" deal shuffles the cards still hidden; its "before" deal puts the event's
        cards back among them by the first steps of a Fisher-Yates shuffle (uniform over
        the deals "before" allows), and both play with the same random numbers."""
        rules = self.rules
        flat = [card.index for hand in state.hands for card in hand]
        flat += [card.index for card in state.stock]  # top first here
        sizes = [len(hand) for hand in state.hands]
        event = [i for i, c in enumerate(flat) if c in after and c not in before]
        hidden = [i for i, c in enumerate(flat) if c not in after]
        trick = [card.index for card in state.trick]
        search = SearchRules.make(
            n=rules.players,
            follow=rules.follow_suit,
            trump=int(state.trump) if state.trump is not None else -1,
            solve_at=self.solve_at,
            epsilon=0.0,
            three_as_three=rules.three_as_three,
            turned=rules.turned_briscola,
            alternating=rules.players == 2 or rules.teams,
            scoperta=rules.scoperta,
            maxn=len(rules.sides) > 2,
        )
        points = [0.0] * self.sides
        for seat, taken in enumerate(state.points):
            points[self.side[seat]] += taken
        gone = mask_of(c.index for c in rules.deck) & ~mask_of(flat) & ~mask_of(trick)
        turn = state.current_player if state.current_player is not None else 0
        rng = random.Random(seed)
        totals = [0.0] * self.sides
        for _ in range(self.playouts):
            now = list(flat)
            cards = [now[i] for i in hidden]
            rng.shuffle(cards)
            for i, card in zip(hidden, cards, strict=True):
                now[i] = card
            then = list(now)
            for k, e in enumerate(event):
                places = event[k:] + hidden
                j = places[int(rng.random() * len(places))]
                then[e], then[j] = then[j], then[e]
            play_seed = rng.random()
            for sign, deal in ((1.0, now), (-1.0, then)):
                hands, position = [], 0
                for size in sizes:
                    hands.append(deal[position : position + size])
                    position += size
                game = Game(hands, deal[position:][::-1], list(trick), turn, self.side,
                            list(points), gone)  # fmt: skip
                finish(game, search, random.Random(play_seed), 0)
                for s in range(self.sides):
                    totals[s] += sign * game.points[s]
        return [total / self.playouts for total in totals]
