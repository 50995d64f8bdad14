"""A :class:`LocalSession` set up for the App: computers on its worker, its pace, its
notices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import GameState, Match
from ..setup import GameSetup
from .director import TIMINGS, scaled
from .session import LocalSession

if TYPE_CHECKING:
    from ..app import App


def session_options(app: App) -> dict[str, Any]:
    """What a local session takes from the App: turbo runs, the computers' pace (the
    animation speed setting), where notices go, the version for records."""
    return {
        "turbo": app.options.turbo,
        "pace": lambda: scaled(app.settings, TIMINGS["after move"]),
        "notify": app.notify,
        "version": app.version(),
    }


def local_session(
    app: App,
    setup: GameSetup,
    demo: bool = False,
    match: Match | None = None,
    state: GameState | None = None,
) -> LocalSession:
    """A match of ``setup`` on this computer."""
    options = session_options(app)
    return LocalSession(setup, app.bots, demo=demo, match=match, state=state, **options)


def saved_session(app: App) -> LocalSession | None:
    """The autosaved game, if there is one."""
    return LocalSession.from_autosave(app.bots, **session_options(app))
