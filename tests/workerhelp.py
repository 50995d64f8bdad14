"""A computer player for the bot worker's tests: in a worker process it thinks for ever
(until the test kills the process); on a thread it plays the first legal action."""

from __future__ import annotations

import multiprocessing
import time

from briscola.engine import Action, PlayerView


class StuckInProcessBot:
    name = "stuck"

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, view: PlayerView) -> Action:
        deadline = time.monotonic() + 60  # (never for ever, should a test fail)
        while multiprocessing.parent_process() is not None and time.monotonic() < deadline:
            time.sleep(0.05)  # a worker process: until it is killed
        self.moves += 1
        return view.legal[-1]
