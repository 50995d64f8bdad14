"""What the game's ``--self-check`` asks of the computer players: every bundled learned
network loads, and each level chooses a legal move in a few fixed positions of every table
size; the digest of those choices tells whether two builds play alike (a frozen build
against its source: ``tools/frozen_check.py`` compares them).

>>> problems, digest = players_check(positions=1)
>>> problems, len(digest)
([], 12)
"""

from __future__ import annotations

import hashlib
import random
from typing import Final

from briscola.ai import make_bot
from briscola.ai.learned import NETWORKS, load_network
from briscola.engine import VARIANTS, GameState, Rules, view
from briscola.resources import asset_path

__all__ = ["checked_presets", "players_check"]

#: The levels and their options: ``hard`` on a fixed budget (no clock: the same moves on a
#: slow machine as on a fast one).
_LEVELS: Final[tuple[tuple[str, dict[str, object]], ...]] = (
    ("easy", {}),
    ("medium", {}),
    ("hard", {"budget": 400, "deterministic": True}),
)


def _position(rules: Rules, number: int) -> GameState:
    """A fixed position: a seeded deal, any auction played through, then a few cards."""
    state = GameState.new(rules, random.Random(f"check:{rules.name}:{number}"))
    rng = random.Random(number)
    while state.phase in ("auction", "call"):
        state.apply(rng.choice(state.legal_actions()))
    for _move in range(2 * number + 1):
        state.apply(rng.choice(state.legal_actions()))
    return state


def checked_presets() -> tuple[str, ...]:
    """The presets checked, in the registry's order: those it marks
    (:attr:`briscola.engine.Variant.self_check`), a table of every size the learned
    evaluation covers."""
    return tuple(variant.name for variant in VARIANTS if variant.self_check)


def players_check(positions: int = 3) -> tuple[list[str], str]:
    """What is wrong (a network that does not load, a move that is not legal) and the
    digest (12 hex digits) of every level's choice in ``positions`` positions a preset."""
    problems = [
        f"learned network did not load: {name}"
        for name in NETWORKS
        if load_network(asset_path("ai", name)) is None
    ]
    digest = hashlib.sha256()
    for preset in checked_presets():
        for number in range(positions):
            state = _position(Rules.preset(preset), number)
            seat = state.current_player
            assert seat is not None  # (a few cards into a hand: someone is to play)
            seen = view(state, seat)
            for level, options in _LEVELS:
                action = make_bot(level, random.Random(number), **options).choose(seen)
                if action not in seen.legal:
                    problems.append(f"{level} chose {action} in {preset}, not a legal move")
                digest.update(f"{preset}:{number}:{level}:{action}\n".encode())
    return problems, digest.hexdigest()[:12]
