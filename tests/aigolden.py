"""Seeded decisions of the search bots, frozen in ``golden/ai-decisions.json``.

A refactoring of :mod:`briscola.ai.search` must not change a single decision (nor the
values hard computed for each line). Regenerate only for a deliberate change of strength:
``python tests/aigolden.py`` (from the repository root).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from enginehelp import CONFIGS

from briscola.ai.medium import medium_action
from briscola.ai.search import HardBot, PimcBot
from briscola.engine import GameState, view

GOLDEN = Path(__file__).parent / "golden" / "ai-decisions.json"

#: Positions, and a small budget so that computing them all takes seconds.
POSITIONS = 200
HARD = {"budget": 5000, "min_samples": 4}
PIMC = {"budget": 6}


def decisions() -> list[dict[str, Any]]:
    """One entry per seeded position: configuration, seat, the choices of hard and pimc
    and hard's value of each line (rounded to 9 places)."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < POSITIONS:
        seed += 1
        rules = CONFIGS[seed % len(CONFIGS)]
        rng = random.Random(seed)
        state = GameState.new(rules, rng, dealer=seed % rules.players)
        moves = rng.randrange(rules.players * rules.hand_size * 3)
        for _ in range(moves):
            if state.is_terminal():
                break
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if rng.random() < 0.3:
                state.apply(rng.choice(legal))
            else:
                state.apply(medium_action(view(state, seat)))
        if state.is_terminal() or state.phase != "play":
            continue
        seat = state.current_player
        assert seat is not None
        seen = view(state, seat)
        if len(seen.legal) < 2:
            continue
        hard = HardBot(random.Random(seed), **HARD)
        hard_choice = hard.choose(seen)
        pimc_choice = PimcBot(random.Random(seed), **PIMC).choose(seen)
        out.append(
            {
                "seed": seed,
                "rules": rules.name,
                "seat": seat,
                "hard": str(hard_choice),
                "hard_values": {k: round(v, 9) for k, v in sorted(hard.last_values.items())},
                "pimc": str(pimc_choice),
            }
        )
    return out


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(decisions(), indent=1) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)
