"""The application: window, clock, scene stack, assets, audio, settings.

Scene changes are *requested* (:meth:`App.push`, :meth:`App.replace`, :meth:`App.pop`) and
applied between frames, so a scene never disappears in the middle of its own update.
"""

from __future__ import annotations

import functools
import gc
import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from briscola import __version__
from briscola.gui.audio import Audio
from briscola.gui.options import AppOptions
from briscola.gui.render.assets import Assets
from briscola.gui.render.backdrop import Backdrop
from briscola.gui.render.display import (
    request_high_dpi,
    return_large_buffers,
    scaled_size,
    screen_bounds,
    system_scale,
)
from briscola.gui.render.wake import WAKE, wake
from briscola.gui.render.window import (
    SIZE_EVENTS,
    ClickFeeder,
    GameWindow,
    desktop_sizes,
    fit_desktop,
    open_window,
    position_from,
    quit_display,
    save_frame,
)
from briscola.gui.scene import Scene
from briscola.gui.widgets import HIGH_CONTRAST, THEME, Theme, scaled_px
from briscola.gui.widgets.notices import NoticeBoard
from briscola.gui.worker import BotWorker
from briscola.storage import Storage
from briscola.storage.files import atomic_write_json
from briscola.storage.settings import load_settings, peek_language, save_settings, usable_window_pos
from briscola.text import i18n
from briscola.text.i18n import _

log = logging.getLogger(__name__)

MIN_SIZE = (1024, 600)
#: Events after which the window must be drawn whole (uncovered, shown again, restored).
_UNCOVERED = frozenset(
    {pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED}
)
DEFAULT_SIZE = (1280, 720)
FPS = 60


class App:
    """Owns the window, the clock and the scene stack, and the services the scenes are given
    (:class:`~briscola.gui.scene.Services`). ``bots`` and ``storage`` may be passed in (a
    test's own folders, a thread instead of a process); the assets and the audio are made
    once the window is open."""

    def __init__(
        self,
        options: AppOptions | None = None,
        *,
        bots: BotWorker | None = None,
        storage: Storage | None = None,
    ) -> None:
        self.options = options or AppOptions()
        self.settings_path = self.options.settings_path
        # The language first: messages about the settings file are already in it.
        i18n.set_language(self.options.lang or peek_language(self.settings_path))
        self.settings, notice = load_settings(self.settings_path)
        #: --lang holds until the player picks a language in Settings.
        self._lang_override = self.options.lang
        self._language_setting = self.settings.language
        i18n.set_language(self.options.lang or self.settings.language)
        self.notices = NoticeBoard()
        if notice:
            self.notify(notice)
        if self.options.deck:
            self.settings.deck = self.options.deck
        self._stack: list[Scene] = []
        self._requests: list[Callable[[], None]] = []
        #: The stack changed after the last frame was drawn: draw once more before resting.
        self._changed = False
        #: What the last frame showed (the scenes, the window's size, notices): a partial
        #: frame needs the window to hold the same picture.
        self._last_shown: object = None
        #: Draw only what changed when a scene can say (False: every frame whole, as the
        #: frame bench's baseline does).
        self.partial = True
        self.running = False
        self.frame = 0
        self.time = 0.0  # seconds of game time since start
        self.fullscreen = (
            self.options.fullscreen
            if self.options.fullscreen is not None
            else self.settings.fullscreen
        )
        return_large_buffers()  # memory that caches let go goes back to the system
        request_high_dpi()  # the screen's real pixels, where the system offers them
        pygame.display.init()
        #: The desktop's scale factor (2.0 at 200 %): a new window opens that much larger.
        self.system_scale = system_scale()
        self._windowed_size = self._initial_size()
        #: Where the window stood before full screen (put back on leaving it).
        self._windowed_pos: list[int] | None = None
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        self._set_window_position()
        #: The window; ``screen`` is its drawing surface, in the screen's real pixels.
        self.window = self._open_window()
        self.screen = self.window.surface
        self.assets = Assets()
        self.assets.deck_for_back = lambda: self.settings.deck  # the back named "deck"
        self.assets.on_missing = lambda message: self.notify(
            _("Some game files are missing; the game may look wrong (see the log).")
        )
        icon = self.assets.icon()
        if icon is not None:
            self.window.set_icon(icon)
        self.backdrop = Backdrop(self.assets)
        self.audio = Audio(self.settings.sound, self.settings.volume)
        self.clock = pygame.time.Clock()
        #: End-to-end tests: where to write what is on screen (see Scene.report).
        self._report_path = self.options.report
        self._frame_saved = -1  # the frame last saved for a test (``options.frame``)
        clicks = self.options.clicks
        self._clicks = ClickFeeder(clicks).start() if clicks is not None else None
        #: Computer players think in a worker process (see worker.py).
        self.bots = bots or BotWorker(use_processes=self.options.bot_processes)
        self.bots.on_done = wake  # a move that arrives while the window rests shows at once
        #: The player's files (autosave, statistics, the online seat held).
        self.storage = storage or Storage()

    # ------------------------------------------------------------------ window

    def _initial_size(self) -> tuple[int, int]:
        """An explicit ``--size``, else the size the window had (in real pixels), else the
        default size in the desktop's logical pixels (larger on a high-DPI screen)."""
        if self.options.size:
            return self.options.size
        if self.settings.window_size:
            w, h = self.settings.window_size
            return max(MIN_SIZE[0], w), max(MIN_SIZE[1], h)
        return scaled_size(DEFAULT_SIZE, self.system_scale)

    def _set_window_position(self) -> None:
        pos = usable_window_pos(self.settings.window_pos, desktop_sizes())
        self.settings.window_pos = pos  # a position off every screen is forgotten
        #: Where the window opens: SDL_VIDEO_WINDOW_POS, else where it was last time.
        self._position = position_from(os.environ.get("SDL_VIDEO_WINDOW_POS"))
        if self._position is None and pos and not self.options.size:
            self._position = (pos[0], pos[1])

    def _open_window(self) -> GameWindow:
        size = self._windowed_size
        if not self.options.size:  # an explicit --size is honoured as asked
            size = fit_desktop(size, MIN_SIZE)
        window = open_window(
            _("Briscola"),
            size,
            fullscreen=self.fullscreen,
            position=self._position,
            minimum=(min(MIN_SIZE[0], size[0]), min(MIN_SIZE[1], size[1])),
        )
        self._windowed_size = size
        return window

    @property
    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        if on == self.fullscreen:
            return
        if not self.fullscreen:
            self._windowed_size = self.window.size
            self._windowed_pos = self._window_position()
        self.fullscreen = on
        self.settings.fullscreen = on
        screen = screen_bounds(self._windowed_pos, desktop_sizes())
        self.window.set_fullscreen(on, self._windowed_size, screen)
        self.screen = self.window.surface
        if not on:
            self._move_window(self._windowed_pos)  # back where it was
        self._resized()
        self.save_settings()

    def _move_window(self, position: tuple[int, int] | list[int] | None) -> None:
        if position is not None:
            self.window.move((int(position[0]), int(position[1])))

    def draw_backdrop(self, surface: pygame.Surface) -> None:
        """The table texture (or a flat high-contrast table) over the whole window."""
        self.backdrop.draw(surface, self.settings.table, self.settings.high_contrast)

    def _resized(self) -> None:
        size = self.screen.get_size()
        for scene in self._stack:
            scene.on_resize(size)

    def _window_position(self) -> list[int] | None:
        position = self.window.position
        return list(position) if position is not None else None

    # ------------------------------------------------------------------ settings

    @property
    def theme(self) -> Theme:
        return HIGH_CONTRAST if self.settings.high_contrast else THEME

    @property
    def ui_scale(self) -> float:
        """Text and control scale: the window height relative to 720 px, times the setting."""
        return self.screen.get_height() / 720 * self.settings.ui_scale

    def px(self, value: float) -> int:
        """A design size in pixels at 720 px window height, scaled."""
        return scaled_px(value, self.ui_scale)

    def save_settings(self) -> None:
        problem = save_settings(self.settings, self.settings_path)
        if problem:
            self.notify(problem)

    @property
    def language_override(self) -> str | None:
        """The language ``--lang`` asked for, while the player has not picked one in Settings."""
        return self._lang_override

    def end_language_override(self) -> None:
        """The player picked a language: the command line's no longer holds."""
        self._lang_override = None

    def settings_changed(self) -> None:
        """Apply live, persist, and tell every scene."""
        if self.settings.language != self._language_setting:
            self._language_setting = self.settings.language
            self._lang_override = None  # the player chose: the command line no longer holds
        i18n.set_language(self._lang_override or self.settings.language)
        self.window.set_title(_("Briscola"))
        self.audio.configure(self.settings.sound, self.settings.volume)
        if self.settings.fullscreen != self.fullscreen:
            self.set_fullscreen(self.settings.fullscreen)
        self.save_settings()
        for scene in self._stack:
            scene.on_settings_changed()

    # ------------------------------------------------------------------ notices

    def notify(self, text: str, seconds: float = 5.0) -> None:
        """A short message shown at the top of the window; a click on it puts it away."""
        log.info("notice: %s", text)
        self.notices.add(text, seconds)

    def _draw_notices(self, surface: pygame.Surface) -> None:
        self.notices.draw(surface, self.assets, self.theme, self.px)

    # ------------------------------------------------------------------ scene stack

    @property
    def scene(self) -> Scene | None:
        """The scene on top of the stack."""
        return self._stack[-1] if self._stack else None

    @property
    def scenes(self) -> list[Scene]:
        return list(self._stack)

    @functools.cached_property
    def scene_factories(self) -> dict[str, Callable[..., Scene | None]]:
        """The scenes by name (registered in ``scenes/__init__.py``; a test may put its own)."""
        from briscola.gui.scenes import FACTORIES

        return dict(FACTORIES)

    def open(self, name: str, /, mode: str = "push", **options: Any) -> Scene | None:
        """Request the scene registered as ``name``, made with ``options``: put on top
        (``mode="push"``), instead of the top one (``"replace"``) or alone (``"reset"``).
        Scenes navigate only this way, never importing one another (``name`` is
        positional: a scene may take an option called ``name``). Returns the scene
        (None when there is none to show, as when no saved game can be resumed)."""
        scene = self.scene_factories[name](self, **options)
        if scene is not None:
            {"push": self.push, "replace": self.replace, "reset": self.reset_to}[mode](scene)
        return scene

    def push(self, scene: Scene) -> None:
        """Request: put ``scene`` on top (applied after this frame)."""

        def apply() -> None:
            if self._stack:
                self._stack[-1].on_pause()
            self._stack.append(scene)
            scene.on_enter()
            scene.on_resize(self.size)

        self._requests.append(apply)

    def replace(self, scene: Scene) -> None:
        """Request: swap the top scene for ``scene``."""

        def apply() -> None:
            if self._stack:
                self._stack.pop().on_exit()
            self._stack.append(scene)
            scene.on_enter()
            scene.on_resize(self.size)

        self._requests.append(apply)

    def pop(self, count: int = 1) -> None:
        """Request: remove the top ``count`` scenes."""

        def apply() -> None:
            for _index in range(count):
                if self._stack:
                    self._stack.pop().on_exit()
            if self._stack:
                self._stack[-1].on_resume()

        self._requests.append(apply)

    def reset_to(self, scene: Scene) -> None:
        """Request: clear the stack and show ``scene``."""

        def apply() -> None:
            while self._stack:
                self._stack.pop().on_exit()
            self._stack.append(scene)
            scene.on_enter()
            scene.on_resize(self.size)

        self._requests.append(apply)

    def quit(self) -> None:
        """Request: stop after this frame."""
        self._requests.append(self._stop)

    def _stop(self) -> None:
        self.running = False

    def apply_requests(self) -> None:
        self._changed = self._changed or bool(self._requests)
        while self._requests:
            self._requests.pop(0)()

    # ------------------------------------------------------------------ loop

    def _handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.quit()
            return
        if event.type == WAKE:  # background work finished: this frame shows it
            return
        if event.type in SIZE_EVENTS:
            self._window_changed(resized=event.type == pygame.VIDEORESIZE)
            return
        if event.type in _UNCOVERED:
            self._last_shown = None  # the system lost what the window showed: all again
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        event = self.window.to_pixels(event)
        if self.notices.clicked(event):
            return
        scene = self.scene
        if scene is not None:
            scene.handle_event(event)

    def _window_changed(self, resized: bool) -> None:
        """The window was resized, made full screen or moved to a screen with another scale:
        its surface is read again (a window the player made smaller than the least is made
        larger)."""
        if resized and not self.fullscreen:
            width, height = self.window.size
            least = (max(MIN_SIZE[0], width), max(MIN_SIZE[1], height))
            if least != (width, height):
                self.window.resize(least)
            self._windowed_size = least
        if self.window.refresh() or self.screen is not self.window.surface:
            self.screen = self.window.surface
            self._resized()

    def _drawn(self) -> list[Scene]:
        """The scenes a frame shows: the top one and those it lets show through."""
        start = len(self._stack) - 1
        while start > 0 and not self._stack[start].opaque:
            start -= 1
        return self._stack[max(0, start) :]

    def draw(self) -> None:
        """The whole window."""
        surface = self.screen
        if not self._stack:
            surface.fill((0, 0, 0))
        for scene in self._drawn():
            scene.draw(surface)
        self._draw_notices(surface)

    def draw_changed(self) -> list[pygame.Rect] | None:
        """The window drawn only where it changed since the last frame, when one scene
        alone shows and the window still holds its last frame; returns the rectangles
        drawn (None: the whole window). Notices, a resize or another scene on top bring a
        whole frame."""
        drawn = self._drawn()
        screen = (id(self.screen), self.screen.get_size())
        shown = (tuple(id(scene) for scene in drawn), screen, bool(self.notices))
        same = shown == self._last_shown
        if self.partial and same and not self.notices and drawn and drawn[-1].unchanged():
            return []  # the top scene woke to look, and nothing changed (scenes under it rest)
        if self.partial and len(drawn) == 1 and not self.notices and same:
            return drawn[0].draw_changed(self.screen)
        for scene in self._stack:
            if scene not in drawn or not same:
                scene.forget_frame()
        self._last_shown = shown
        self.draw()
        return None

    def present(self, rects: list[pygame.Rect] | None) -> None:
        """Show the frame: the whole window (``rects`` None), or only ``rects``."""
        self.window.present(rects)

    def step(self, dt: float) -> None:
        """One frame: events, update, draw, apply scene requests."""
        closing = False
        for event in pygame.event.get():
            self._handle(event)
            closing = closing or event.type == pygame.QUIT
        if closing:  # the window was closed: nothing more to draw (a 4K frame is not free)
            self.apply_requests()
            return
        self.time += dt
        problem = self.storage.autosave.take_notice()  # a failed background autosave
        if problem:
            self.notify(problem)
        scene = self.scene
        if scene is not None:
            scene.update(dt)
        self.present(self.draw_changed())
        self.frame += 1
        self.apply_requests()
        if self._report_path is not None and self.frame % 5 == 0:
            self._write_report()

    def _write_report(self) -> None:
        scene = self.scene
        data: dict[str, object] = {
            "frame": self.frame,
            "size": list(self.size),
            # The window in screen coordinates (what the mouse counts): smaller than
            # ``size`` where the surface has the screen's real pixels (Retina, Wayland).
            "window": list(self.window.size),
            "scene": type(scene).__name__ if scene is not None else None,
            "language": i18n.current_language(),
            # Nothing moves by itself: animations are over, the scene waits for input.
            "still": scene is not None and scene.next_frame_in() is None,
        }
        if scene is not None:
            data.update(scene.report())
        assert self._report_path is not None
        if data["still"] and self.options.frame is not None and self._frame_saved != self.frame:
            self._frame_saved = self.frame
            save_frame(self.screen, self.options.frame)
        try:
            atomic_write_json(self._report_path, data)
        except OSError:
            self._report_path = None

    def run(self, first: Scene, then: tuple[str, dict[str, Any]] | None = None) -> int:
        """Show ``first`` (and over it the scene ``then`` names, with its options) and run
        until quit (or ``--frames``). Returns the exit status."""
        self.reset_to(first)
        self.apply_requests()
        if then is not None:
            self.open(then[0], **then[1])
            self.apply_requests()
        self.loop()
        self.close()
        return 0

    def loop(self) -> None:
        """Frames until quit (or ``--frames``): 60 a second while something moves; when
        nothing does, the loop sleeps until input or the next timed change arrives (see
        :meth:`Scene.next_frame_in`). A fixed ``--frames`` run never sleeps that way."""
        self.running = True
        limit = self.options.frames
        turbo = self.options.turbo
        self.clock.tick()
        while self.running:
            if turbo:
                self.clock.tick()
                dt = 1 / FPS
            else:
                dt = min(0.1, self.clock.tick(FPS) / 1000)
            changed = bool(self._requests)
            self.step(dt)
            if limit is not None and self.frame >= limit:
                self.running = False
            elif self.running and not changed and limit is None:
                self._rest()

    def _next_frame_in(self) -> float | None:
        """Seconds until a frame is due without input (None: only input)."""
        if self._requests or self._changed:
            self._changed = False  # the new scene is drawn by the next frame
            return 0.0
        scene = self.scene
        due = scene.next_frame_in() if scene is not None else None
        expiry = self.notices.next_expiry()
        if expiry is not None:
            due = expiry if due is None else min(due, expiry)
        return due

    def _rest(self) -> None:
        """Sleep while no frame is due, until input arrives or a timed change is due.

        The queue is looked at once a frame's time: pygame's own ``event.wait`` polls every
        millisecond, which costs more than a glance 60 times a second. Work that finishes
        in the background (the coach, a computer's move) puts an event there to end the
        rest (:mod:`briscola.gui.render.wake`)."""
        due = self._next_frame_in()
        if due is not None and due <= 1 / FPS:
            return
        if self._report_path is not None:
            self._write_report()  # what is on screen while the window rests
        deadline = None if due is None else time.monotonic() + due - 1 / FPS
        while self.running and not pygame.event.peek():
            if deadline is not None and time.monotonic() >= deadline:
                break
            time.sleep(1 / FPS)
        # The time asleep is not game time: the next frame advances by one frame only.
        self.clock.tick()

    def close(self) -> None:
        while self._stack:
            self._stack.pop().on_exit()
        if not self.fullscreen and not self.window.closed:
            self.settings.window_size = list(self.window.size)
            position = usable_window_pos(self._window_position(), desktop_sizes())
            if position is not None:
                self.settings.window_pos = position
        self.save_settings()
        if self._clicks is not None:
            self._clicks.stop()
        self.bots.close()
        self.storage.close()
        self.audio.close()
        self.assets.close()
        # Every window, and the surfaces no longer reachable, go while SDL's video still
        # runs: a pygame.Window freed after display.quit() destroys a window SDL has already
        # freed (pygame-ce issue 3601), a crash at some later garbage collection.
        gc.collect()
        quit_display()

    @staticmethod
    def version() -> str:
        return __version__


if TYPE_CHECKING:
    from briscola.gui.scene import Services

    # mypy --strict checks here that the App gives a scene every service it may ask for.
    _CONFORMS: type[Services] = App
