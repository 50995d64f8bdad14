"""How a table frame is put together, whole or in part.

A frame is three layers, drawn in this order: the **still layer** (the felt, its marks and
every card lying still; cached, and updated in place where a card lands or leaves), the
**live cards** (moving cards and the viewer's hand) and the **chrome** (name plates, the
information panel, bubbles, buttons...). A whole frame blits the still layer over the window
and draws the rest. A partial frame finds what changed since the last one (the still
layer's changes, the live cards that moved or changed, last frame's chrome), restores the
still layer only there, draws again only the live cards that touch it, then the chrome, and
hands back the rectangles for ``pygame.display.update``. Both give the same pixels: where a
partial frame cannot be sure (chrome it cannot follow, something drawn outside what it
restored), it draws the frame whole.

Chrome that stays the same from frame to frame (a name plate, a line of the information
panel) comes as pieces (:data:`~briscola.gui.render.damage.Piece`), each with a key of
everything its drawing depends on: a piece whose key is unchanged and that nothing changed
touches is left as the last frame drew it (neither restored nor drawn again).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

import pygame

from briscola.gui.render.damage import Chrome, Piece, Region
from briscola.gui.render.sprites import CardRenderer, CardSprite
from briscola.gui.render.window import window_surface

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Draws the felt's marks (trick ring, stock count) and returns where those that change with
#: the marks' key lie (the count; not the ring, the same at every count).
Marks = Callable[[pygame.Surface], list[pygame.Rect]]
Placed = tuple[CardSprite, bool]  # a sprite and whether it casts a shadow


def sprite_state(sprite: CardSprite, casts: bool) -> tuple[Hashable, ...]:
    """Everything the drawing of ``sprite`` depends on (with the renderer's deck and sizes)."""
    return (
        id(sprite),
        sprite.card,
        sprite.x,
        sprite.y,
        sprite.w,
        sprite.angle,
        sprite.flip,
        sprite.lift,
        sprite.air,
        sprite.moving,
        sprite.glow,
        sprite.dim,
        casts,
    )


class StillLayer:
    """The cached still layer: rebuilt whole when the window, deck, table or language
    changes, otherwise redrawn only where a still card or a mark changed."""

    def __init__(self, app: Services, renderer: CardRenderer, marks: Marks) -> None:
        self.app = app
        self.renderer = renderer
        self.marks = marks
        self.surface: pygame.Surface | None = None
        self._base: object = None
        self._marks_key: object = None
        self._marks_drawn: list[pygame.Rect] = []
        self._states: list[tuple[Hashable, ...]] = []
        self._painted: dict[tuple[Hashable, ...], pygame.Rect] = {}
        #: Whole rebuilds and partial updates so far (the tests and the bench read them).
        self.rebuilds = 0
        self.updates = 0

    def update(
        self, size: tuple[int, int], base: object, marks_key: object, still: list[Placed]
    ) -> list[pygame.Rect] | None:
        """Bring the layer up to date; returns the rectangles that changed (None: all)."""
        states = [sprite_state(sprite, casts) for sprite, casts in still]
        if self.surface is None or self.surface.get_size() != size or base != self._base:
            return self._rebuild(size, base, marks_key, still, states)
        marks_changed = marks_key != self._marks_key
        if states == self._states and not marks_changed:
            return []
        before, after = set(self._states), set(states)
        common = [s for s in states if s in before]
        if common != [s for s in self._states if s in after]:  # the same cards, reordered
            return self._rebuild(size, base, marks_key, still, states)
        region = Region(size, (self._painted[s] for s in self._states if s not in after))
        added = [p for p, s in zip(still, states, strict=True) if s not in before]
        region.extend(self.renderer.bounds(sprite, casts) for sprite, casts in added)
        if marks_changed:  # a count of another width: room on both sides
            region.extend(r.inflate(r.height * 2, 4) for r in self._marks_drawn)
        if region.too_big or not region:
            return self._rebuild(size, base, marks_key, still, states)
        layer = self.surface
        marks: list[pygame.Rect] = []
        painted: dict[tuple[Hashable, ...], pygame.Rect] = {}
        for rect in region.rects:
            layer.set_clip(rect)
            marks = self._draw(layer, still, states, painted, rect)
        layer.set_clip(None)
        fresh = [painted[s] for s in states if s not in before]
        if not all(region.covers(r) for r in fresh + (marks if marks_changed else [])):
            return self._rebuild(size, base, marks_key, still, states)
        if marks_changed:
            self._marks_drawn = marks
        self._marks_key, self._states, self._painted = marks_key, states, painted
        self.updates += 1
        return region.rects

    def _rebuild(
        self,
        size: tuple[int, int],
        base: object,
        marks_key: object,
        still: list[Placed],
        states: list[tuple[Hashable, ...]],
    ) -> list[pygame.Rect] | None:
        """The whole layer drawn again: it changed everywhere (None)."""
        if self.surface is None or self.surface.get_size() != size:
            self.surface = None  # the old one goes before the new one is made
            self.surface = _display_surface(size)
        painted: dict[tuple[Hashable, ...], pygame.Rect] = {}
        self._marks_drawn = self._draw(self.surface, still, states, painted)
        self._base, self._marks_key, self._states, self._painted = base, marks_key, states, painted
        self.rebuilds += 1
        return None

    def _draw(
        self,
        layer: pygame.Surface,
        still: list[Placed],
        states: list[tuple[Hashable, ...]],
        painted: dict[tuple[Hashable, ...], pygame.Rect],
        clip: pygame.Rect | None = None,
    ) -> list[pygame.Rect]:
        """Draw the layer (only inside ``clip``, the layer's clip, when given: cards
        known to lie elsewhere are left out)."""
        self.app.draw_backdrop(layer)
        marks = self.marks(layer)
        for (sprite, casts), state in zip(still, states, strict=True):
            known = self._painted.get(state) if clip is not None else None
            if known is not None and clip is not None and not known.colliderect(clip):
                painted[state] = known
                continue
            painted[state] = self.renderer.draw(layer, sprite, shadow=casts)
        return marks


class Composer:
    """Draws table frames over a :class:`StillLayer`, whole or in part (see the module)."""

    def __init__(self, renderer: CardRenderer, still: StillLayer) -> None:
        self.renderer = renderer
        self.still = still
        self._live: dict[int, tuple[tuple[Hashable, ...], pygame.Rect]] = {}
        #: What the last frame's chrome drew: per piece, its key and where (None: the
        #: window no longer shows it).
        self._chrome: dict[Hashable, tuple[Hashable | None, list[pygame.Rect]]] | None = None
        #: Pieces of the chrome left as they were by the last partial frame (the bench).
        self.kept_pieces = 0
        #: Frames drawn whole and in part (the tests and the bench read them).
        self.whole_frames = 0
        self.partial_frames = 0
        #: Why the last partial frame was drawn whole after all (for the tests and the bench).
        self.why = ""
        #: Partial frames drawn twice because the chrome drew outside the region (the bench).
        self.retries = 0

    def forget(self) -> None:
        """The window no longer shows the last frame (another scene drew over it)."""
        self._chrome = None

    def frame(
        self,
        surface: pygame.Surface,
        changed: list[pygame.Rect] | None,
        live: list[Placed],
        chrome: Chrome,
        partial: bool,
        pieces: Sequence[Piece] = (),
    ) -> list[pygame.Rect] | None:
        """Draw a frame whose still layer changed in ``changed`` (None: everywhere), with
        ``live`` over it (bottom to top), then ``pieces`` and ``chrome`` on top. Returns
        the rectangles drawn, or None when the frame was drawn whole."""
        every = [*pieces, (_REST, None, chrome)]
        if partial and changed is not None and self._chrome is not None:
            rects = self._partial(surface, changed, live, every)
            if rects is not None:
                self.partial_frames += 1
                return rects
        self._whole(surface, live, every)
        return None

    def _whole(self, surface: pygame.Surface, live: list[Placed], pieces: list[Piece]) -> None:
        assert self.still.surface is not None
        surface.blit(self.still.surface, (0, 0))
        self._live = {}
        for sprite, casts in live:
            rect = self.renderer.draw(surface, sprite, shadow=casts)
            self._live[id(sprite)] = (self._drawn_state(sprite, casts), rect)
        drawn: dict[Hashable, tuple[Hashable | None, list[pygame.Rect]]] | None = {}
        for name, key, draw in pieces:
            rects = draw(surface)
            if rects is None:
                drawn = None
            elif drawn is not None:
                drawn[name] = (key, rects)
        self._chrome = drawn
        self.whole_frames += 1

    def _drawn_state(
        self, sprite: CardSprite, casts: bool, state: tuple[Hashable, ...] | None = None
    ) -> tuple[Hashable, ...]:
        """What the frame drew of ``sprite``: its state, or, when the renderer showed it at
        an angle near its own (a turn put off to a later frame), a state no sprite has,
        so that the next frame draws it again."""
        if id(sprite) in self.renderer.lagging:
            return ("lagging", id(sprite))
        return sprite_state(sprite, casts) if state is None else state

    def _partial(
        self,
        surface: pygame.Surface,
        changed: list[pygame.Rect],
        live: list[Placed],
        pieces: list[Piece],
    ) -> list[pygame.Rect] | None:
        assert self.still.surface is not None and self._chrome is not None
        last = self._chrome
        region = Region(surface.get_size(), changed)
        names = {name for name, _key, _draw in pieces}
        for name, (_key, rects) in last.items():
            if name not in names:
                region.extend(rects)  # gone: where it was
        # Pieces drawn again whatever else happens: new, changed or changing every frame
        # (where each was goes back to the still layer).
        again = []
        for name, key, _draw in pieces:
            before = last.get(name)
            again.append(key is None or before is None or before[0] != key)
            if again[-1] and before is not None:
                region.extend(before[1])
        states = [sprite_state(sprite, casts) for sprite, casts in live]
        now = {id(sprite): state for (sprite, _casts), state in zip(live, states, strict=True)}
        for key, (state, rect) in self._live.items():
            if now.get(key) != state:
                region.add(rect)  # moved, changed or gone: where it was
        # Where each live card will be: the last frame's rectangle if it did not change.
        where: list[pygame.Rect] = []
        #: Cards not drawn as they are now by the last frame: always drawn (even one whose
        #: bounds are empty and so touch nothing).
        fresh: list[bool] = []
        for (sprite, casts), state in zip(live, states, strict=True):
            last_drawn = self._live.get(id(sprite))
            fresh.append(last_drawn is None or last_drawn[0] != state)
            if not fresh[-1] and last_drawn is not None:
                where.append(last_drawn[1])
            else:
                where.append(self.renderer.bounds(sprite, casts))
                region.add(where[-1])
        redraw = list(fresh)
        grown = True
        while grown:  # a card or piece drawn again takes every card and piece it overlaps
            grown = False
            for index, rect in enumerate(where):
                if not redraw[index] and region.touches(rect):
                    redraw[index] = grown = True
                    region.add(rect)
            for index, (name, _key, _draw) in enumerate(pieces):
                kept = last[name][1] if not again[index] else []
                if kept and any(region.touches(rect) for rect in kept):
                    again[index] = grown = True
                    region.extend(kept)
        if region.too_big:
            self.why = "large"
            return None
        for rect in region.rects:
            surface.blit(self.still.surface, rect, rect)
        drawn: dict[int, tuple[tuple[Hashable, ...], pygame.Rect]] = {}
        for index, ((sprite, casts), state) in enumerate(zip(live, states, strict=True)):
            if redraw[index]:
                rect = self.renderer.draw(surface, sprite, shadow=casts)
                if not region.covers(rect):
                    self.why = "cards"  # drawn outside what was restored
                    return None
                drawn[id(sprite)] = (self._drawn_state(sprite, casts, state), rect)
            else:
                drawn[id(sprite)] = self._live[id(sprite)]
        chrome: dict[Hashable, tuple[Hashable | None, list[pygame.Rect]]] = {}
        outside: list[pygame.Rect] = []
        for index, (name, key, draw) in enumerate(pieces):
            if not again[index]:
                chrome[name] = last[name]
                self.kept_pieces += 1
                continue
            footprint = draw(surface)
            if footprint is None:
                self.why = "untracked"
                return None
            chrome[name] = (key, footprint)
            outside.extend(r for r in footprint if not region.covers(r))
        if outside and not self._patch(surface, region, outside, live, drawn, pieces, chrome):
            return None
        self._live, self._chrome = drawn, chrome
        return region.rects

    def _patch(
        self,
        surface: pygame.Surface,
        region: Region,
        outside: list[pygame.Rect],
        live: list[Placed],
        drawn: dict[int, tuple[tuple[Hashable, ...], pygame.Rect]],
        pieces: list[Piece],
        chrome: dict[Hashable, tuple[Hashable | None, list[pygame.Rect]]],
    ) -> bool:
        """The chrome drew ``outside`` the region (a line grew, a tag appeared) over what
        the last frame left there: those rectangles alone are drawn again from the still
        layer, clipped to each (the cards, then the pieces of the chrome that lie there:
        ``chrome`` says where each piece is), and join the region. False when the frame
        must be drawn whole after all."""
        assert self.still.surface is not None
        self.retries += 1
        patch = Region(surface.get_size(), outside)
        for rect in patch.rects:
            surface.set_clip(rect)
            surface.blit(self.still.surface, rect, rect)
            for sprite, casts in live:
                if drawn[id(sprite)][1].colliderect(rect):
                    self.renderer.draw(surface, sprite, shadow=casts)
            for name, _key, draw in pieces:
                if rect.collidelist(chrome[name][1]) >= 0 and draw(surface) is None:
                    surface.set_clip(None)
                    self.why = "untracked"
                    return False
            surface.set_clip(None)
        region.extend(patch.rects)
        if region.too_big or not all(region.covers(r) for r in outside):
            self.why = "chrome"
            return False
        return True


#: The name of the chrome drawn last, over the pieces (see ``Composer.frame``).
_REST = "chrome"


def _display_surface(size: tuple[int, int]) -> pygame.Surface:
    """A surface in the window's pixel format (no converted copy made)."""
    screen = window_surface()
    return pygame.Surface(size, 0, screen) if screen is not None else pygame.Surface(size)
