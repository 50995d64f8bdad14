"""What a match on this computer keeps: the autosave (so Continue resumes it) and the
player's statistics, behind the :class:`~briscola.game.local.Keeper` port of the session."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from briscola.engine import GameState, HandResult, Match
from briscola.game.setup import GameSetup
from briscola.storage.autosave import Autosave, Saved
from briscola.storage.stats import Stats

__all__ = ["GameKeeper"]

log = logging.getLogger(__name__)


class GameKeeper:
    """Keeps a local match in ``autosave`` and counts it in the statistics at ``stats_path``;
    ``notify`` shows the player what went wrong with a file."""

    def __init__(
        self,
        autosave: Autosave,
        stats_path: Path,
        notify: Callable[[str], None] = log.info,
    ) -> None:
        self.autosave = autosave
        self.stats_path = stats_path
        self.notify = notify

    def save(
        self, setup: GameSetup, match: Match, state: GameState | None, background: bool = False
    ) -> None:
        self.autosave.save(setup, match, state, background=background)

    def clear(self) -> None:
        self.autosave.clear()

    def flush(self) -> None:
        self.autosave.flush()

    def load(self) -> Saved | None:
        """The saved game, if there is one (a notice says why one could not be read)."""
        saved, notice = self.autosave.load()
        if notice:
            self.notify(notice)
        return saved

    def hand_finished(
        self,
        setup: GameSetup,
        result: HandResult,
        seat: int,
        undone: bool,
        match_won: bool | None,
        match_over: bool,
    ) -> None:
        stats = Stats.load(self.stats_path)
        if stats.notice:
            self.notify(stats.notice)
        stats.record_hand(setup, result, seat, undone=undone)
        if match_over:
            stats.record_match(setup, match_won)
        problem = stats.save()
        if problem:
            self.notify(problem)
