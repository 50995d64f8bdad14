"""The asset cache: fonts, rendered text, card faces rasterised from SVG at the size in use,
card backs, table textures. Created by the App after the display exists.

Cards are re-rasterised from their SVG sources at every card width the layout asks for
(cached per width), so they are never blurred by scaling a small bitmap up. Faces can be
rasterised ahead of need on a background thread (:meth:`Assets.prepare_face`: SDL_image
lets go of Python's lock while it rasterises, so the frame loop goes on meanwhile); a face
asked for while it is being prepared waits only for the rest of that work. A missing or
broken asset is drawn as a clear placeholder and reported once, never raised.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pygame

from briscola.engine import Card
from briscola.gui.render.window import window_surface
from briscola.resources import asset_path
from briscola.text.decks import FALLBACK, catalogue, deck_info

log = logging.getLogger(__name__)

#: Height / width of every card (250 x 400 SVG units).
CARD_RATIO = 1.6
#: Every folder of faces whose manifest is good (variants such as ``french4`` included).
DECK_STYLES = tuple(catalogue().decks)
BACK_NAMES = ("classic", "blue", "felt")
SOUND_NAMES = ("shuffle", "deal", "play", "collect", "swap", "win", "lose", "draw", "click")

T = TypeVar("T")


class LRU(OrderedDict[Hashable, T]):
    """A small least-recently-used cache: at most ``limit`` entries and, with ``weigh``,
    at most ``budget`` in all (e.g. bytes).

    With ``per_frame``, what was asked for since the last :meth:`next_frame` is never
    pushed out: a frame that needs more than the budget (many cards turning at once) goes
    over it until the next frame, rather than making the same images again and again (a
    cache smaller than what each frame asks for, in the same order every frame, would
    miss every time)."""

    def __init__(
        self,
        limit: int,
        weigh: Callable[[T], int] | None = None,
        budget: int = 0,
        per_frame: bool = False,
    ) -> None:
        super().__init__()
        self.limit = limit
        self.weigh = weigh
        self.budget = budget
        self.weight = 0
        self.per_frame = per_frame
        self._this_frame: set[Hashable] = set()

    def next_frame(self) -> None:
        """A new frame: what the last one asked for may go again (see the class)."""
        self._this_frame.clear()
        self._trim()

    def get_or_make(self, key: Hashable, make: Callable[[], T]) -> T:
        if self.per_frame:
            self._this_frame.add(key)
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = make()
        self[key] = value
        if self.weigh is not None:
            self.weight += self.weigh(value)
        self._trim()
        return value

    def _trim(self) -> None:
        while len(self) > self.limit or (self.weigh and self.weight > self.budget > 0):
            oldest = next(iter(self))
            if len(self) == 1 or oldest in self._this_frame:
                break  # the one just made stays, whatever it weighs, and this frame's
            _key, old = self.popitem(last=False)
            if self.weigh is not None:
                self.weight -= self.weigh(old)

    def __delitem__(self, key: Hashable) -> None:
        if self.weigh is not None:
            self.weight -= self.weigh(self[key])
        super().__delitem__(key)

    def clear(self) -> None:
        super().clear()
        self.weight = 0
        self._this_frame.clear()


def surface_bytes(surface: pygame.Surface) -> int:
    """The memory a surface's pixels take."""
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * CARD_RATIO)


class Assets:
    """Everything drawn from files, cached. Needs an initialised display (for convert)."""

    def __init__(self) -> None:
        self.missing: list[str] = []
        #: Called once per missing asset (the App shows a notice to the player).
        self.on_missing: Callable[[str], None] | None = None
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: LRU[pygame.Surface] = LRU(600)
        self._fits: LRU[int] = LRU(2000)
        self._cards: LRU[pygame.Surface] = LRU(180)
        self._shadows: LRU[pygame.Surface] = LRU(64)
        self._textures: dict[str, pygame.Surface] = {}
        #: The deck in use, for the back named ``deck`` (the deck's own back); the App sets it.
        self.deck_for_back: Callable[[], str] | None = None
        #: Faces being rasterised on the background thread, by cache key.
        self._jobs: dict[Hashable, Future[pygame.Surface | None]] = {}
        self._pool: ThreadPoolExecutor | None = None

    def close(self) -> None:
        """Stop the background rasteriser (what it has not started is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._jobs.clear()

    # ------------------------------------------------------------------ reporting

    def _missing(self, what: str, path: Path) -> None:
        message = f"missing or unreadable asset: {what} ({path})"
        if message not in self.missing:
            self.missing.append(message)
            log.warning(message)
            if self.on_missing is not None:
                self.on_missing(message)

    # ------------------------------------------------------------------ fonts and text

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        size = max(6, int(size))
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            path = asset_path("fonts", "Lato-Bold.ttf" if bold else "Lato-Regular.ttf")
            try:
                font = pygame.font.Font(path, size)
            except (OSError, pygame.error, FileNotFoundError):
                self._missing("font", path)
                font = pygame.font.Font(None, size)
            self._fonts[key] = font
        return font

    def text(
        self,
        text: str,
        size: int,
        colour: tuple[int, int, int] | tuple[int, int, int, int] = (240, 240, 230),
        bold: bool = False,
    ) -> pygame.Surface:
        """Rendered text, cached (text rendering is the slowest thing a frame can do)."""
        key = (text, int(size), tuple(colour), bold)
        return self._text.get_or_make(key, lambda: self.font(size, bold).render(text, True, colour))

    def fit(self, text: str, size: int, width: int, bold: bool = False) -> int:
        """The largest font size <= ``size`` (and >= 8) at which ``text`` fits ``width``
        pixels; cached, since layouts ask every frame."""
        key = ("fit", text, int(size), int(width), bold)

        def measure() -> int:
            low, high = 8, max(8, int(size))
            if self.font(high, bold).size(text)[0] <= width:
                return high
            while low < high:  # binary search: widths grow with the size
                middle = (low + high + 1) // 2
                if self.font(middle, bold).size(text)[0] <= width:
                    low = middle
                else:
                    high = middle - 1
            return low

        return self._fits.get_or_make(key, measure)

    # ------------------------------------------------------------------ cards

    def _svg(
        self, path: Path, size: tuple[int, int], job: Future[pygame.Surface | None] | None = None
    ) -> pygame.Surface:
        """The image at ``path`` rasterised at ``size`` (by ``job`` when one was started),
        in the window's format."""
        done = job is not None and not job.cancelled()
        surface = job.result() if job is not None and done else _rasterise(path, size)
        if surface is None:
            self._missing("card image", path)
            return _placeholder(size, path.stem)
        if window_surface() is not None:
            surface = surface.convert_alpha()
        return surface

    def card_face(self, card: Card, style: str, width: int) -> pygame.Surface:
        """The face of ``card`` in deck ``style`` rasterised at ``width`` pixels."""
        size = card_size(width)
        key = ("face", style, card.code, size)
        if key in self._cards:
            return self._cards.get_or_make(key, _never)
        path = asset_path("cards", style, f"{card.code}.svg")
        job = self._jobs.pop(key, None)
        return self._cards.get_or_make(key, lambda: self._svg(path, size, job))

    def has_face(self, card: Card, style: str, width: int) -> bool:
        """The face is rasterised (or being rasterised) at ``width``."""
        key = ("face", style, card.code, card_size(width))
        return key in self._cards or key in self._jobs

    def prepare_face(self, card: Card, style: str, width: int) -> None:
        """Start rasterising a face on the background thread, unless it is at hand."""
        size = card_size(width)
        key = ("face", style, card.code, size)
        if key in self._cards or key in self._jobs:
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="briscola-cards")
        path = asset_path("cards", style, f"{card.code}.svg")
        self._jobs[key] = self._pool.submit(_rasterise, path, size)

    def face_ready(self, card: Card, style: str, width: int) -> bool:
        """The face is rasterised and taken in (drawing it costs no wait)."""
        return ("face", style, card.code, card_size(width)) in self._cards

    @property
    def preparing(self) -> int:
        """Faces still being rasterised in the background."""
        return len(self._jobs)

    def collect(self) -> None:
        """Take in the faces the background thread has finished (a quick conversion each)."""
        for key, job in list(self._jobs.items()):
            if job.done() and isinstance(key, tuple):
                style, code, size = str(key[1]), str(key[2]), key[3]
                self.card_face(Card.from_code(code), style, int(size[0]))

    def forget_faces(self, style: str, width: int, keep: Iterable[Card]) -> None:
        """Drop the faces at ``width`` of every card but ``keep`` (and their jobs)."""
        size = card_size(width)
        kept = {card.code for card in keep}
        for key in [*self._cards, *self._jobs]:
            if (
                isinstance(key, tuple)
                and key[0] == "face"
                and key[1] == style
                and key[3] == size
                and key[2] not in kept
            ):
                self._drop(key)

    def _drop(self, key: Hashable) -> None:
        if key in self._cards:
            del self._cards[key]
        job = self._jobs.pop(key, None)
        if job is not None:
            job.cancel()

    def card_back(self, name: str, width: int) -> pygame.Surface:
        """A back by name (``classic``, ``blue``, ``felt``), or ``deck``: the back of the deck
        in use when it has one of its own, else the classic back."""
        if name == "deck":
            deck = self.deck_for_back() if self.deck_for_back is not None else FALLBACK
            return self.deck_back(deck, "classic", width)
        size = card_size(width)
        key = ("back", name, size)
        return self._cards.get_or_make(
            key, lambda: self._svg(asset_path("cards", "backs", f"{name}.svg"), size)
        )

    def deck_back(self, deck: str, back: str, width: int) -> pygame.Surface:
        """The deck's own back (``back.svg`` in its folder) when it has one, else *back*
        (``deck`` there means this deck's own, the classic back: never another deck's,
        as the Settings previews once showed the chosen deck's back on every deck)."""
        info = deck_info(deck)
        path = info.back_path if info is not None else None
        if path is None:
            return self.card_back("classic" if back == "deck" else back, width)
        size = card_size(width)
        return self._cards.get_or_make(("deck back", deck, size), lambda: self._svg(path, size))

    def keep_card_widths(self, widths: set[int]) -> None:
        """Forget the card images at widths other than ``widths`` (the layout's): memory
        follows what the window shows, not every size it ever showed."""
        for key in [*self._cards, *self._jobs]:
            if isinstance(key, tuple) and key[-1][0] not in widths:  # keys end with the size
                self._drop(key)

    def shadow(self, width: int, alpha: int = 90) -> pygame.Surface:
        """A soft shadow for a card of ``width`` (a blurred rounded rectangle). Widths are
        rounded to 6 px: cards growing or shrinking in flight reuse a few shadows."""
        width = max(6, round(width / 6) * 6)
        key = (width, alpha)

        def make() -> pygame.Surface:
            w, h = card_size(width)
            pad = max(4, width // 10)
            surface = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
            radius = max(2, width * 14 // 250)
            pygame.draw.rect(surface, (0, 0, 0, alpha), (pad, pad, w, h), border_radius=radius)
            return pygame.transform.gaussian_blur(surface, max(1, pad // 2))

        return self._shadows.get_or_make(key, make)

    def warm(self, style: str, width: int, back: str) -> None:
        """Rasterise a whole deck at ``width`` (about 5 ms a card)."""
        for card in _ALL_CARDS:
            self.card_face(card, style, width)
        self.card_back(back, width)

    # ------------------------------------------------------------------ textures and images

    def texture(self, name: str) -> pygame.Surface:
        """A table texture (``felt``, ``wood``) or ``vignette``."""
        surface = self._textures.get(name)
        if surface is None:
            path = asset_path("table", f"{name}.png")
            try:
                surface = pygame.image.load(path)
                if window_surface() is not None:
                    surface = surface.convert_alpha()
            except (pygame.error, FileNotFoundError, OSError):
                self._missing("texture", path)
                surface = pygame.Surface((64, 64), pygame.SRCALPHA)
                surface.fill((20, 90, 50, 255) if name != "vignette" else (0, 0, 0, 0))
            self._textures[name] = surface
        return surface

    def icon(self) -> pygame.Surface | None:
        path = asset_path("icon", "icon-64.png")
        try:
            return pygame.image.load(path)
        except (pygame.error, FileNotFoundError, OSError):
            self._missing("icon", path)
            return None

    def check_all(self) -> list[str]:
        """Load every asset the game uses (both decks, backs, fonts, textures); return the
        problems found (empty when all is well)."""
        before = len(self.missing)
        for problem in catalogue().problems:  # a bad manifest: that deck is left out
            if problem not in self.missing:
                self.missing.append(problem)
        for style in DECK_STYLES:
            for card in _ALL_CARDS:
                self.card_face(card, style, 60)
        for name in BACK_NAMES:
            self.card_back(name, 60)
        for info in catalogue().decks.values():
            if info.back_path is not None:
                self.deck_back(info.id, "classic", 60)
        self.font(16)
        self.font(16, bold=True)
        for name in ("felt", "wood", "vignette"):
            self.texture(name)
        self.icon()
        for name in SOUND_NAMES:
            path = asset_path("sounds", f"{name}.wav")
            if not path.is_file():
                self._missing("sound", path)
        return self.missing[before:]


def _rasterise(path: Path, size: tuple[int, int]) -> pygame.Surface | None:
    """An SVG rasterised at ``size`` (None when it cannot be read). Touches no shared
    state: it runs on the background thread too."""
    try:
        surface = pygame.image.load_sized_svg(path, size)
    except (pygame.error, FileNotFoundError, OSError):
        return None
    if surface.get_size() != size:
        surface = pygame.transform.smoothscale(surface, size)
    return surface


def _never() -> pygame.Surface:
    raise AssertionError("a cached image was made again")


def _placeholder(size: tuple[int, int], label: str) -> pygame.Surface:
    surface = pygame.Surface(size, pygame.SRCALPHA)
    surface.fill((0, 0, 0, 0))
    rect = surface.get_rect()
    pygame.draw.rect(surface, (250, 250, 250), rect, border_radius=max(2, size[0] // 18))
    pygame.draw.rect(surface, (200, 30, 30), rect, width=2, border_radius=max(2, size[0] // 18))
    font = pygame.font.Font(None, max(10, size[0] // 3))
    text = font.render(label, True, (200, 30, 30))
    surface.blit(text, text.get_rect(center=rect.center))
    return surface


_ALL_CARDS = [Card.from_index(i) for i in range(40)]
