"""Scenes: what the window shows, one at a time on a stack (menu, table, score...).

Lifecycle, as in ppb: ``on_enter`` when pushed, ``on_pause``/``on_resume`` when another scene
covers or uncovers it, ``on_exit`` when removed. Every frame the top scene gets the events
(``handle_event``) and ``update(dt)`` with dt in seconds; the visible scenes ``draw``. A
scene that is not ``opaque`` (an overlay such as the pause menu) is drawn over the one
beneath. Scenes never change the stack themselves: they ask the App, which applies the
change between frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame

if TYPE_CHECKING:
    from briscola.gui.audio import Audio
    from briscola.gui.options import AppOptions
    from briscola.gui.render.assets import Assets
    from briscola.gui.render.backdrop import Backdrop
    from briscola.gui.widgets.theme import Theme
    from briscola.gui.worker import BotWorker
    from briscola.storage import Storage
    from briscola.storage.settings import Settings


class Services(Protocol):
    """What a scene may use of the application (the :class:`~briscola.gui.app.App` is one):
    the services it was given (assets, audio, theme, settings, the computers' worker), the
    window's size and scale, messages to the player, and the scene stack. Scenes and the
    table's parts are typed against this, never against the App itself."""

    options: AppOptions
    settings: Settings
    assets: Assets
    audio: Audio
    backdrop: Backdrop
    bots: BotWorker
    storage: Storage
    frame: int
    time: float
    fullscreen: bool

    @property
    def theme(self) -> Theme: ...
    @property
    def size(self) -> tuple[int, int]: ...
    @property
    def ui_scale(self) -> float: ...
    @property
    def scene(self) -> Scene | None: ...
    @property
    def scenes(self) -> list[Scene]: ...
    @property
    def language_override(self) -> str | None: ...
    def px(self, value: float) -> int: ...
    def version(self) -> str: ...
    def notify(self, text: str, seconds: float = 5.0) -> None: ...
    def draw_backdrop(self, surface: pygame.Surface) -> None: ...
    def save_settings(self) -> None: ...
    def settings_changed(self) -> None: ...
    def end_language_override(self) -> None: ...
    def toggle_fullscreen(self) -> None: ...
    def set_fullscreen(self, on: bool) -> None: ...
    @property
    def scene_factories(self) -> dict[str, Callable[..., Scene | None]]: ...
    def open(self, name: str, /, mode: str = "push", **options: Any) -> Scene | None: ...
    def push(self, scene: Scene) -> None: ...
    def replace(self, scene: Scene) -> None: ...
    def pop(self, count: int = 1) -> None: ...
    def reset_to(self, scene: Scene) -> None: ...
    def quit(self) -> None: ...


class Scene:
    """Base class of every scene."""

    #: Draw the scene below first when False (overlays).
    opaque = True

    def __init__(self, app: Services) -> None:
        self.app = app

    # lifecycle
    def on_enter(self) -> None:
        """Pushed on the stack (or replaced another)."""

    def on_exit(self) -> None:
        """Removed from the stack."""

    def on_pause(self) -> None:
        """Another scene was pushed on top."""

    def on_resume(self) -> None:
        """The scene on top was popped: this one is on top again."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout."""

    def on_settings_changed(self) -> None:
        """Settings changed (deck style, language, scale...): redraw accordingly. By
        default the layout is made again, for the UI scale may have changed."""
        self.on_resize(self.app.size)

    # frame
    def handle_event(self, event: pygame.event.Event) -> None:
        """An input event for this scene (only the top scene gets them)."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def next_frame_in(self) -> float | None:
        """Seconds until the picture changes by itself: 0 while something moves, a delay
        for a timed change (a caret's blink, a message that expires), None when only input
        can change it. The App draws frames only when one is due, so a still window costs
        nearly no CPU. The default keeps drawing every frame."""
        return 0.0

    def draw(self, surface: pygame.Surface) -> None:
        """Draw onto ``surface`` (the whole window)."""

    def draw_changed(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Draw onto ``surface``, which still shows this scene's last frame, only where the
        picture changed; returns those rectangles (None: the whole window was drawn). The
        default draws the whole window."""
        self.draw(surface)
        return None

    def forget_frame(self) -> None:
        """The window no longer shows this scene's last frame: the next one is drawn whole."""

    def unchanged(self) -> bool:
        """This frame would show just what the window shows (no input came, nothing moved,
        nothing new to say): the App then leaves the window as it is. A scene that wakes
        only to look at something (the network) says so, and such a look draws nothing.
        The default: a frame always draws."""
        return False

    def report(self) -> dict[str, Any]:
        """What is on screen and where, for end-to-end tests driving a real window: the
        named, clickable widgets of the scene (``BRISCOLA_REPORT``, see App)."""
        from briscola.gui.widgets import WidgetGroup

        widgets: dict[str, list[int]] = {}
        labels: dict[str, str] = {}
        for value in vars(self).values():
            if isinstance(value, WidgetGroup):
                for widget in value.widgets:
                    name = getattr(widget, "name", "")
                    if name and widget.visible and widget.enabled:
                        widgets[name] = list(widget.rect)
                        label = getattr(widget, "label", None)
                        if callable(label):
                            labels[name] = str(label())
        return {"widgets": widgets, "labels": labels}
