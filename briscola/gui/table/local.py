"""A :class:`LocalSession` set up for the App: computers on its worker, its pace, its
keeper (the autosave and the statistics in the data folder), its version for records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from briscola.game.local import LocalSession
from briscola.game.setup import GameSetup
from briscola.gui.table.director import TIMINGS, scaled

if TYPE_CHECKING:
    from briscola.gui.scene import Services


def session_options(app: Services) -> dict[str, Any]:
    """What a local session takes from the App: turbo runs, the computers' pace (the
    animation speed setting), the keeper, the version for records."""
    return {
        "turbo": app.options.turbo,
        "pace": lambda: scaled(app.settings, TIMINGS["after move"]),
        "keeper": app.storage.keeper(app.notify),
        "version": app.version(),
    }


def local_session(app: Services, setup: GameSetup, demo: bool = False) -> LocalSession:
    """A new match of ``setup`` on this computer."""
    options = session_options(app)
    _ready_computers(app, setup, demo)
    return LocalSession(setup, app.bots, demo=demo, **options)


def saved_session(app: Services) -> LocalSession | None:
    """The autosaved game, if there is one."""
    options = session_options(app)
    saved = options["keeper"].load()
    if saved is None:
        return None
    _ready_computers(app, saved.setup)
    return LocalSession.resume(saved, app.bots, **options)


def _ready_computers(app: Services, setup: GameSetup, demo: bool = False) -> None:
    """A table with computers has their worker ready before the deal, not started by the
    first computer move in the middle of the deal's animation."""
    if demo or len(setup.humans) < len(setup.seats):
        app.bots.start()
