"""Helpers for engine tests: stacked decks that deal known hands; bot programs for the
arena and its figures."""

from __future__ import annotations

import json
import random
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from briscola.ai.medium import medium_action
from briscola.ai.search.core import Game, mask_of
from briscola.arena import main as arena_main
from briscola.engine import (
    PRESETS,
    Action,
    Card,
    GameState,
    Play,
    PlayerView,
    Rules,
    cards_from_codes,
    to_record,
    view,
)

#: Every preset, then option combinations on top of presets: the configurations that the
#: random-playout, leak and bot tests run over.
CONFIGS = [Rules.preset(name) for name in PRESETS] + [
    Rules.preset("classic2", swap=True, three_as_three=True),
    Rules.preset("scoperta2", swap=True),
    Rules.preset("teams4", partners_see="start", swap=True),
    Rules.preset("teams6", partners_see="stock-empty", three_as_three=True),
    Rules.preset("classic3", swap=True),
    Rules.preset("chiamata5", three_as_three=True),
    Rules.preset("briscolone2", three_as_three=True),
]
IDS = [f"{r.name}{'-opts' if i >= len(PRESETS) else ''}{i}" for i, r in enumerate(CONFIGS)]


def stacked_deck(
    rules: Rules,
    hands: Mapping[int, str],
    dealer: int = 0,
    briscola: str | None = None,
    stock: str = "",
) -> list[Card]:
    """A deck order (top first) that deals ``hands`` (seat -> codes, in dealing order),
    turns ``briscola`` and puts ``stock`` (top first) on top of the rest of the stock.

    Seats not given get the lowest remaining cards; the rest of the stock follows in
    index order.
    """
    n = rules.players
    wanted = {seat: cards_from_codes(codes) for seat, codes in hands.items()}
    used = {card for cards in wanted.values() for card in cards}
    top = cards_from_codes(stock)
    turned = [Card.from_code(briscola)] if briscola else []
    used.update(top)
    used.update(turned)
    spare = [card for card in rules.deck if card not in used]
    for seat in range(n):
        if seat not in wanted:
            wanted[seat] = [spare.pop(0) for _ in range(rules.hand_size)]
        assert len(wanted[seat]) == rules.hand_size, f"seat {seat} needs {rules.hand_size} cards"
    deck: list[Card] = []
    first = (dealer + 1) % n
    for round_ in range(rules.hand_size):
        for i in range(n):
            deck.append(wanted[(first + i) % n][round_])
    deck.extend(turned)
    deck.extend(top)
    deck.extend(spare)
    assert sorted(deck) == sorted(rules.deck)
    return deck


def stacked(
    rules: Rules,
    hands: Mapping[int, str],
    dealer: int = 0,
    briscola: str | None = None,
    stock: str = "",
) -> GameState:
    return GameState(rules, stacked_deck(rules, hands, dealer, briscola, stock), dealer)


def after_random_moves(
    rules: Rules, seed: int, most: int, moves_seed: int | None = None
) -> GameState:
    """A deal shuffled with ``seed`` after fewer than ``most`` random moves, drawn with
    ``moves_seed`` (``seed`` unless given)."""
    state = GameState.new(rules, random.Random(seed))
    moves = random.Random(seed if moves_seed is None else moves_seed)
    for _ in range(moves.randrange(0, most)):
        state.apply(moves.choice(state.legal_actions()))
    return state


def finished_hand(rules: Rules, seed: int) -> GameState:
    """A hand of ``rules`` played to its end by random players (the ai's ``random``: it
    bids sensibly in Chiamata), the deal, dealer and moves from ``seed``."""
    from briscola.ai.base import RandomBot

    state = GameState.new(rules, random.Random(seed), dealer=seed % rules.players)
    bot = RandomBot(random.Random(seed + 1))
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(bot.choose(view(state, seat)))
    return state


def positions(
    rules: Rules, seed: int, player: Callable[[PlayerView], Action] | None = None
) -> Iterator[GameState]:
    """Each position of a game dealt with ``seed`` and played at random (with ``seed``), or
    by ``player`` from the view of the seat to move (``medium_action``: a hand played by
    medium): the state before each move (the move is made when the next position is asked
    for)."""
    state = GameState.new(rules, random.Random(seed))
    moves = random.Random(seed)
    while not state.is_terminal():
        yield state
        if player is None:
            state.apply(moves.choice(state.legal_actions()))
        else:
            state.apply(player(to_move(state)))


def search_game(state: GameState) -> Game:
    """``state`` as the search plays it (:class:`briscola.ai.search.core.Game`, cards as
    ints), the seat to move to play: every hand and the stock seen, points per side, the
    cards played. Not for Chiamata, whose sides the deal does not fix."""
    rules = state.rules
    seat = state.current_player
    assert seat is not None
    side = tuple(rules.side_of(s) for s in range(rules.players))
    points = [0.0] * (max(side) + 1)
    for s in range(rules.players):
        points[side[s]] += state.points[s]
    played = [c.index for trick in state.tricks for c in trick.cards]
    return Game(
        [[c.index for c in hand] for hand in state.hands],
        [c.index for c in reversed(state.stock)],
        [c.index for c in state.trick],
        seat,
        side,
        points,
        mask_of(played + [c.index for c in state.trick]),
    )


def to_move(state: GameState) -> PlayerView:
    """The view of the seat to move."""
    seat = state.current_player
    assert seat is not None
    return view(state, seat)


def play(state: GameState, codes: str | Sequence[str]) -> None:
    """Play cards in turn order (each by whoever is to move)."""
    from briscola.engine import Play

    for card in cards_from_codes(codes):
        state.apply(Play(card))


#: How a bot program starts: a JSON request a line on standard input, until "quit".
REQUEST_LOOP = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("cmd") == "quit":
        break
"""


def bot_program(folder: Path, body: str, name: str = "bot.py") -> str:
    """The arena's ``cmd:`` spec of the Python program ``body`` (dedented), written to
    ``folder / name``."""
    path = folder / name
    path.write_text(textwrap.dedent(body))
    return f"cmd:{sys.executable} {path}"


def answering_program(folder: Path, on_request: str, name: str = "bot.py") -> str:
    """A bot program that reads requests until "quit" and runs ``on_request`` (dedented code
    that sees the request as ``msg``) for each of the others."""
    body = REQUEST_LOOP + textwrap.indent(textwrap.dedent(on_request), "    ")
    return bot_program(folder, body, name)


def arena_figures(folder: Path, *args: str) -> dict[str, Any]:
    """Run the arena quietly with ``args`` and its figures written as JSON into ``folder``:
    it exits with 0; the figures."""
    out = folder / "figures.json"
    assert arena_main([*args, "--json", str(out), "--quiet"]) == 0
    figures: dict[str, Any] = json.loads(out.read_text())
    return figures


def medium_to_the_end(state: GameState) -> None:
    """Medium plays every seat until the hand is over."""
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(medium_action(view(state, seat)))


def ace_on_a_trumped_trick() -> dict[str, Any]:
    """Seat 1 leads the Seven of trump (swords); seat 0, with no trump, throws its Ace of
    coins though the Four of cups and the Five of batons were playable; medium plays on."""
    rules = Rules.preset("classic2")
    state = stacked(rules, {0: "AD 4C 5B", 1: "7S 2D 6C"}, dealer=0, briscola="KS")
    state.apply(Play(Card.from_code("7S")))  # seat 1 leads: dealer 0, seat 1 first
    state.apply(Play(Card.from_code("AD")))
    medium_to_the_end(state)
    return to_record(state)
