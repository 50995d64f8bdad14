"""The scenes of the game: menu, new game, table, score, settings, rules, statistics.

Navigation goes through the App by name (``app.open("score", summary=...)``): the factories
are registered here, in one place, and import their scene module only when first used. So
no scene module imports another (``tests/gui/test_gui_scenes.py`` checks it), and a test can
put its own factory in ``app.scene_factories`` to see where a scene goes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from briscola.gui.scene import Scene, Services


class Lazy:
    """Makes the scene class ``name`` of ``briscola.gui.scenes.<module>``, importing the
    module when first called."""

    def __init__(self, module: str, name: str) -> None:
        self.module = f"{__name__}.{module}"
        self.name = name

    def scene_class(self) -> type[Scene]:
        scene_class: type[Scene] = getattr(importlib.import_module(self.module), self.name)
        return scene_class

    def __call__(self, app: Services, **options: Any) -> Scene:
        return self.scene_class()(app, **options)


def _lazy(module: str, name: str) -> Lazy:
    return Lazy(module, name)


def _resume(app: Services, **options: Any) -> Scene | None:
    """The saved game, or None when there is none (a notice says why)."""
    table = importlib.import_module(f"{__name__}.table")
    return table.TableScene.from_autosave(app)  # type: ignore[no-any-return]


def _lesson(app: Services, **options: Any) -> Scene:
    """The first lesson: a guided hand at the table."""
    from briscola.game.lesson import LessonSession
    from briscola.gui.table.local import session_options
    from briscola.text.lesson import LESSON_WORDS

    table = importlib.import_module(f"{__name__}.table")
    session = LessonSession(app.bots, LESSON_WORDS, **session_options(app))
    return table.TableScene(app, session=session)  # type: ignore[no-any-return]


#: Every scene by name.
FACTORIES: dict[str, Callable[..., Scene | None]] = {
    "menu": _lazy("menu", "MenuScene"),
    "newgame": _lazy("newgame", "NewGameScene"),
    "table": _lazy("table", "TableScene"),
    "resume": _resume,
    "pause": _lazy("pause", "PauseScene"),
    "quick_chat": _lazy("quick_chat", "QuickChatScene"),
    "score": _lazy("score", "ScoreScene"),
    "settings": _lazy("settings", "SettingsScene"),
    "rules": _lazy("rules", "RulesScene"),
    "stats": _lazy("stats", "StatsScene"),
    "replays": _lazy("replay", "ReplayPickerScene"),
    "replay": _lazy("replay", "ReplayScene"),
    "review": _lazy("review", "ReviewScene"),
    "lesson": _lesson,
    "online": _lazy("online", "OnlineScene"),
    "online_host": _lazy("online_host", "HostScene"),
    "online_join": _lazy("online_join", "JoinScene"),
    "waiting_room": _lazy("waiting_room", "WaitingRoomScene"),
    "watch": _lazy("watch", "WatchScene"),
    "servers": _lazy("servers", "ServersScene"),
    "public": _lazy("public", "PublicScene"),
    "public_key": _lazy("public_key", "PublicKeyScene"),
    "quick_match": _lazy("quick_match", "QuickMatchScene"),
}
