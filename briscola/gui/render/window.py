"""The game's window, drawn at the screen's real pixels wherever the system offers them.

The window is made with SDL's high-DPI flag (``pygame.Window(allow_high_dpi=True)``, which
``pygame.display.set_mode`` cannot ask for): on macOS (Retina) and on a Wayland desktop with
scaling, its drawing surface then has the screen's pixels (twice the window's size at 200 %)
instead of being drawn small and blown up by the system. Elsewhere (X11, Windows with DPI
awareness) the surface has the window's size, as before. The window's size, its position and
the mouse stay in screen coordinates: :meth:`GameWindow.to_pixels` converts every mouse
event to the surface's pixels, in one place, so that no scene knows. A change of the
drawable's size (a resize, full screen, a move to a screen with another scale) is read again
by :meth:`GameWindow.refresh`.

On a Wayland desktop (``WAYLAND_DISPLAY`` set, ``SDL_VIDEODRIVER`` not) SDL 2 would pick X11
(XWayland, blurry when scaled): ``display.prefer_native_driver`` asks for Wayland first, X11
next, and :func:`open_window` falls back on X11 when a Wayland window cannot be made.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
import weakref
from collections.abc import MutableMapping
from pathlib import Path

import pygame

from briscola.gui.render.display import WAYLAND_FIRST

log = logging.getLogger(__name__)

#: Mouse events whose ``pos`` (and ``rel``) are in screen coordinates.
MOUSE_EVENTS = frozenset({pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP})
#: Window events after which the drawable's size may have changed.
SIZE_EVENTS = frozenset(
    {
        pygame.VIDEORESIZE,
        pygame.WINDOWRESIZED,
        pygame.WINDOWSIZECHANGED,
        pygame.WINDOWDISPLAYCHANGED,
        pygame.WINDOWMAXIMIZED,
        pygame.WINDOWRESTORED,
    }
)


#: The game's open window (see :func:`window_surface`).
_current: GameWindow | None = None
#: Every window still open, closed before the display stops (see :func:`close_windows`).
_open: weakref.WeakSet[GameWindow] = weakref.WeakSet()


def close_windows() -> None:
    """Close every window still open. SDL frees its windows when the display stops, but a
    ``pygame.Window`` left open keeps the freed pointer and destroys it when collected, which,
    once the display has started again, may be another window's (pygame-ce issue 3601: a
    crash in the garbage collector). Run by :func:`quit_display` and by ``pygame.quit()``."""
    for window in list(_open):
        window.close()


def quit_display() -> None:
    """Stop the display, its windows closed first (see :func:`close_windows`)."""
    close_windows()
    pygame.display.quit()


pygame.register_quit(close_windows)


def window_surface() -> pygame.Surface | None:
    """The drawing surface of the game's open window (whose pixel format images are
    converted to), as ``pygame.display.get_surface()`` for a ``set_mode`` window; None
    before a window is open."""
    if _current is not None:
        return _current.surface
    return pygame.display.get_surface()


class GameWindow:
    """One resizable window (full screen on request) and its drawing surface.

    ``size`` and ``position`` are in screen coordinates, ``surface`` in the screen's pixels;
    ``minimum`` is the smallest size the player may make the window (screen coordinates)."""

    def __init__(
        self,
        title: str,
        size: tuple[int, int],
        *,
        fullscreen: bool = False,
        position: tuple[int, int] | None = None,
        minimum: tuple[int, int] | None = None,
    ) -> None:
        where = position if position is not None else pygame.WINDOWPOS_UNDEFINED
        self.window = pygame.Window(
            title, size, where, resizable=True, allow_high_dpi=True, fullscreen_desktop=fullscreen
        )
        if minimum is not None:
            self.window.minimum_size = minimum
        self.surface = self.window.get_surface()
        #: The surface's size when last read (pygame may resize the surface object itself).
        self._pixels = self.surface.get_size()
        self._update_rects = _RectUpdater.find(self.window.id)
        global _current
        _current = self
        _open.add(self)

    @property
    def size(self) -> tuple[int, int]:
        """The window's size in screen coordinates (what the mouse and the system count)."""
        width, height = self.window.size
        return int(width), int(height)

    @property
    def pixel_ratio(self) -> tuple[float, float]:
        """Pixels of the surface per screen coordinate, across and down (2.0 on a Retina
        screen or a Wayland desktop at 200 %, 1.0 elsewhere)."""
        width, height = self.size
        pixels_w, pixels_h = self.surface.get_size()
        return (pixels_w / width if width else 1.0, pixels_h / height if height else 1.0)

    def refresh(self) -> bool:
        """Read the drawing surface again (after a resize, full screen, a move to a screen
        with another scale). True when its size changed."""
        before = self._pixels
        self.surface = self.window.get_surface()
        self._pixels = self.surface.get_size()
        return self._pixels != before

    def to_pixels(self, event: pygame.event.Event) -> pygame.event.Event:
        """``event`` with its mouse position (and motion) in the surface's pixels; other
        events, and every event where a pixel is a screen coordinate, unchanged."""
        if event.type not in MOUSE_EVENTS:
            return event
        ratio_x, ratio_y = self.pixel_ratio
        if (ratio_x, ratio_y) == (1.0, 1.0) or not hasattr(event, "pos"):
            return event
        data = dict(event.dict)
        x, y = event.pos
        data["pos"] = (int(x * ratio_x), int(y * ratio_y))
        if "rel" in data:
            dx, dy = data["rel"]
            data["rel"] = (round(dx * ratio_x), round(dy * ratio_y))
        return pygame.event.Event(event.type, data)

    def set_fullscreen(
        self,
        on: bool,
        windowed_size: tuple[int, int],
        screen: tuple[int, int, int, int] | None = None,
    ) -> None:
        """Full screen at the desktop's size, or back to a window of ``windowed_size``.
        ``screen`` (x, y, width, height): the screen to cover. The window is put over it
        first: without a window manager (a bare X server) SDL leaves a full-screen window
        where and as large as it was, and no longer moves it once full screen."""
        if on:
            if screen is not None:
                self.move(screen[:2])
                self.window.size = screen[2:]
                pygame.event.pump()
            self.window.set_fullscreen(desktop=True)
        else:
            self.window.set_windowed()
            self.window.size = windowed_size
        self.refresh()

    def resize(self, size: tuple[int, int]) -> None:
        """Make the window ``size`` (screen coordinates)."""
        self.window.size = size
        self.refresh()

    def move(self, position: tuple[int, int]) -> None:
        """Put the window at ``position`` (screen coordinates), where the system lets it."""
        try:
            self.window.position = position
        except (pygame.error, TypeError, ValueError):
            log.debug("the window could not be moved to %s", position)

    @property
    def position(self) -> tuple[int, int] | None:
        try:
            x, y = self.window.position
        except (pygame.error, TypeError, ValueError):
            return None
        return int(x), int(y)

    def set_title(self, title: str) -> None:
        self.window.title = title

    @property
    def title(self) -> str:
        return str(self.window.title)

    def set_icon(self, icon: pygame.Surface) -> None:
        self.window.set_icon(icon)

    def present(self, rects: list[pygame.Rect] | None) -> None:
        """Show the frame: the whole surface (``rects`` None), or only ``rects``."""
        if rects == []:
            return  # nothing changed
        shown = rects is not None and self._update_rects is not None and self._update_rects(rects)
        if not shown:
            self.window.flip()

    @property
    def closed(self) -> bool:
        return self not in _open

    def close(self) -> None:
        """Destroy the window (once; closing it again does nothing)."""
        global _current
        if _current is self:
            _current = None
        if not self.closed:
            _open.discard(self)
            self.window.destroy()


def open_window(
    title: str,
    size: tuple[int, int],
    *,
    fullscreen: bool = False,
    position: tuple[int, int] | None = None,
    minimum: tuple[int, int] | None = None,
    environ: MutableMapping[str, str] = os.environ,
) -> GameWindow:
    """The game's window. Where the game itself asked for Wayland first
    (``display.prefer_native_driver``) and that window cannot be made, the display starts again
    on X11 (XWayland) so that the player still gets a window."""
    try:
        return GameWindow(title, size, fullscreen=fullscreen, position=position, minimum=minimum)
    except pygame.error as exc:
        if environ.get("SDL_VIDEODRIVER") != WAYLAND_FIRST or pygame.display.get_driver() != (
            "wayland"
        ):
            raise
        log.warning("no Wayland window (%s): trying X11", exc)
    quit_display()
    environ["SDL_VIDEODRIVER"] = "x11"
    pygame.display.init()
    return GameWindow(title, size, fullscreen=fullscreen, position=position, minimum=minimum)


def desktop_sizes() -> list[tuple[int, int]]:
    """The sizes of the screens, in screen coordinates ([] when they cannot be read)."""
    try:
        return [(int(w), int(h)) for w, h in pygame.display.get_desktop_sizes()]
    except (pygame.error, TypeError, ValueError):
        return []


def fit_desktop(size: tuple[int, int], least: tuple[int, int]) -> tuple[int, int]:
    """``size`` made no larger than the first screen; kept where there is no screen as large
    as ``least`` (tiny virtual desktops, such as the dummy driver's)."""
    desktops = desktop_sizes()
    if not desktops:
        return size
    desk_w, desk_h = desktops[0]
    if desk_w < least[0] or desk_h < least[1]:
        return size
    return min(size[0], desk_w), min(size[1], desk_h)


def position_from(text: str | None) -> tuple[int, int] | None:
    """A window position written ``x,y`` (``SDL_VIDEO_WINDOW_POS``), None if not one.

    >>> position_from("10,-20"), position_from("centered"), position_from(None)
    ((10, -20), None, None)
    """
    try:
        x, y = (int(part) for part in (text or "").split(","))
    except ValueError:
        return None
    return x, y


def save_frame(surface: pygame.Surface, path: Path) -> None:
    """``surface`` as PNG at ``path``, written whole then renamed (a test never reads half a
    file); a failure is logged (end-to-end tests: ``BRISCOLA_FRAME``)."""
    part = path.with_name(f".{path.name}.part.png")
    try:
        pygame.image.save(surface, str(part))
        os.replace(part, path)
    except (OSError, pygame.error):
        log.warning("could not save the frame to %s", path)


class _Rect(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int),
        ("y", ctypes.c_int),
        ("w", ctypes.c_int),
        ("h", ctypes.c_int),
    ]


class _RectUpdater:
    """Shows only some rectangles of a window's surface (SDL's
    ``SDL_UpdateWindowSurfaceRects``, which ``pygame.Window`` does not offer, reached in the
    SDL library pygame loaded), as ``pygame.display.update(rects)`` does for its window: a
    partial frame then sends the system a few cards rather than the whole window."""

    def __init__(self, sdl: ctypes.CDLL, window: int) -> None:
        self._update = sdl.SDL_UpdateWindowSurfaceRects
        self._update.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Rect), ctypes.c_int]
        self._update.restype = ctypes.c_int
        self._window = window

    def __call__(self, rects: list[pygame.Rect]) -> bool:
        array = (_Rect * len(rects))(*(_Rect(r.x, r.y, r.w, r.h) for r in rects))
        return bool(self._update(self._window, array, len(rects)) == 0)

    @classmethod
    def find(cls, window_id: int) -> _RectUpdater | None:
        """The updater for the window ``window_id``; None where pygame's SDL library is not
        found (the whole window is then shown each time)."""
        for path in _sdl_candidates():
            try:
                sdl = ctypes.CDLL(str(path))
                sdl.SDL_GetWindowFromID.argtypes = [ctypes.c_uint32]
                sdl.SDL_GetWindowFromID.restype = ctypes.c_void_p
                window = sdl.SDL_GetWindowFromID(window_id)
            except (OSError, AttributeError):
                continue
            if window:  # another copy of SDL than pygame's knows no window
                return cls(sdl, window)
        return None


def _sdl_candidates() -> list[Path]:
    """The SDL 2 libraries pygame may have loaded: its wheel's own (beside the package, or
    in it on Windows and macOS), else the system's."""
    package = Path(pygame.__file__).parent
    found: list[Path] = []
    for folder in (package, package.parent / "pygame_ce.libs", package / ".dylibs"):
        if folder.is_dir():
            found += sorted(
                p
                for p in folder.iterdir()
                if p.name.startswith(("libSDL2-", "SDL2.", "libSDL2.")) or p.name == "SDL2.dll"
            )
    if sys.platform.startswith("linux"):
        found.append(Path("libSDL2-2.0.so.0"))
    return found


class ClickFeeder:
    """End-to-end tests where nothing can move the pointer (a headless Wayland desktop): the
    clicks a test writes to ``path``, one ``x y`` a line in the window's screen coordinates
    (as the system gives a real click), are posted to the game as mouse events, which go the
    way every mouse event goes (:meth:`GameWindow.to_pixels`). The file is read and removed
    a few times a second, by a thread of its own (posting an event wakes a resting loop)."""

    def __init__(self, path: Path, interval: float = 0.05) -> None:
        self.path = path
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="click-feeder", daemon=True)

    def start(self) -> ClickFeeder:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            for pos in self.take():
                for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                    data: dict[str, object] = {"pos": pos, "touch": False}
                    if kind == pygame.MOUSEMOTION:
                        data.update(rel=(0, 0), buttons=(0, 0, 0))
                    else:
                        data["button"] = 1
                    pygame.event.post(pygame.event.Event(kind, data))

    def take(self) -> list[tuple[int, int]]:
        """The clicks written since the last look (the file removed); lines that are not
        two whole numbers are left out. A file still being written (empty, or its last line
        not ended) is left for the next look: a writer that does not rename a whole file
        into place must not lose its click."""
        try:
            text = self.path.read_text(encoding="utf-8")
            if not text.endswith("\n"):
                return []
            self.path.unlink()
        except OSError:
            return []
        clicks = []
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and all(part.lstrip("-").isdigit() for part in parts):
                clicks.append((int(parts[0]), int(parts[1])))
        return clicks
