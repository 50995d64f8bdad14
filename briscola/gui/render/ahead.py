"""Turns made ahead: the turned and scaled images cards on the move will need, made on a
background thread before they are needed.

A card sliding or flying is tweened from its angle to the one it will rest at, so every
angle it will pass through is known when it starts to move (and its width at each: the
width and the angle are tweened together), and where it will be next frame is known a frame
ahead. At 4K a smoothed turn of a card (``rotozoom``) takes 2 to 3 ms, a turn of its shadow
(``rotate``) about 1 ms, and the smoothing scale that shows a card growing or shrinking in
flight at its width (``smoothscale``, every frame) 1 to 2 ms; all three let go of Python's
lock while they work. :class:`TurnsAhead` makes them on one worker thread: the turns a few
angles ahead of each moving card and where it comes to rest, the scale of the next frame;
the renderer takes each finished image in at the start of a frame (never within one: the
same frame drawn again makes the same choices) as if it had made it itself. The images are
the very ones the frame loop would make (the same call on the same pixels); what was not
made in time, or not foreseen, the frame loop makes as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pygame

from briscola.gui.render.assets import CARD_RATIO

if TYPE_CHECKING:
    from briscola.engine import Card
    from briscola.gui.render.sprites import CardRenderer, CardSprite

#: Frames a finished image waits, unasked and no longer planned, before it goes.
KEEP_FRAMES = 3
#: Turns planned ahead of each moving card (its nearest angles first).
AHEAD_PER_CARD = 4

_pool: ThreadPoolExecutor | None = None


def _worker() -> ThreadPoolExecutor:
    """The one thread that turns images ahead (shared by every renderer)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(1, thread_name_prefix="briscola-turns")
    return _pool


class TurnsAhead:
    """Images made on the worker thread, by the renderer's cache keys (turned cards and
    shadows) or ``("scaled", image key, size)``, within ``budget`` bytes (finished and
    under way together)."""

    def __init__(self, budget: int = 0) -> None:
        self.budget = budget
        #: Finished and taken in at the start of this frame (see collect).
        self.ready: dict[Hashable, pygame.Surface] = {}
        self._jobs: dict[Hashable, Future[pygame.Surface]] = {}
        self._sizes: dict[Hashable, int] = {}
        self._age: dict[Hashable, int] = {}
        self._keep: dict[Hashable, int] = {}
        #: The frame clock when the last frame was planned, and the step to the next.
        self.last_t: float | None = None
        self.dt = 1 / 60
        #: Images made ahead and then used, and made ahead for nothing (the bench reads them).
        self.used = 0
        self.wasted = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self.ready or key in self._jobs

    def clear(self) -> None:
        for job in self._jobs.values():
            job.cancel()
        self.wasted += len(self.ready) + len(self._jobs)
        self.ready.clear()
        self._jobs.clear()
        self._sizes.clear()
        self._age.clear()
        self._keep.clear()

    def collect(self) -> None:
        """A new frame: finished images are taken in; those nobody asked for or planned
        for a few frames go."""
        for key, job in list(self._jobs.items()):
            if job.done():
                del self._jobs[key]
                if not job.cancelled() and job.exception() is None:
                    self.ready[key] = job.result()
                else:
                    self._forget(key)
        if not self._jobs:
            _copy.clear()  # the worker is idle: its copy goes
        for key in list(self._age):
            self._age[key] += 1
            if self._age[key] > self._keep.get(key, KEEP_FRAMES):
                stale = self._jobs.pop(key, None)
                if stale is not None:
                    stale.cancel()
                self.ready.pop(key, None)
                self._forget(key)
                self.wasted += 1

    def plan(
        self,
        key: Hashable,
        source: tuple[Hashable, Callable[[], pygame.Surface]],
        angle: int,
        turn: Callable[[pygame.Surface, int], pygame.Surface],
    ) -> None:
        """``key`` will be needed soon: the image ``source`` names (its key, and how to
        get it) turned by ``angle`` with ``turn``, on the worker thread (see
        :func:`_turn_copy`); unless it is under way or made already, or there is no room
        left."""
        if key in self._age:
            self._age[key] = 0
            return
        image = source[1]()
        size = _turned_size(image, angle)
        weight = size[0] * size[1] * image.get_bytesize()
        self._submit(key, weight, KEEP_FRAMES, _turn_copy, source[0], image, angle, turn)

    def plan_scale(
        self,
        key: Hashable,
        image: tuple[Hashable, pygame.Surface],
        size: tuple[int, int],
    ) -> None:
        """The image ``image`` names (its key, and the image) will be smoothly scaled to
        ``size`` in the next frame: scaled on the worker thread (kept for that frame
        only)."""
        if key in self._age:
            self._age[key] = 0
            return
        self._submit(key, size[0] * size[1] * 4, 1, _scale_copy, image[0], image[1], size)

    def _submit(self, key: Hashable, weight: int, keep: int, *work: Any) -> None:
        if sum(self._sizes.values()) + weight > self.budget > 0:
            return
        self._jobs[key] = _worker().submit(*work)
        self._sizes[key] = weight
        self._age[key] = 0
        self._keep[key] = keep

    def take(self, key: Hashable) -> pygame.Surface | None:
        """The image for ``key`` if it was made ahead (waiting for the rest of the work if
        the worker is on it now); None if not (a job not started yet is dropped)."""
        image = self.ready.pop(key, None)
        job = self._jobs.pop(key, None)
        if image is None and job is not None:
            if job.running() or job.done():
                try:
                    image = job.result()
                except Exception:  # made again by the frame loop
                    image = None
            else:
                job.cancel()
        if key in self._age:
            self._forget(key)
        if image is not None:
            self.used += 1
            self._sizes.pop(key, None)
        return image

    def _forget(self, key: Hashable) -> None:
        self._sizes.pop(key, None)
        self._age.pop(key, None)
        self._keep.pop(key, None)


#: The worker's copies of the images it turned or scaled last, by their keys (dropped when
#: no job is left: see ``TurnsAhead.collect``).
COPIES = 3
_copy: list[tuple[Hashable, pygame.Surface]] = []


def _turn_copy(
    key: Hashable,
    image: pygame.Surface,
    angle: int,
    turn: Callable[[pygame.Surface, int], pygame.Surface],
) -> pygame.Surface:
    """``image`` turned, on the worker thread, from a copy of its own: a turn lets go of
    Python's lock with its image locked, and a blit of a locked image fails (the frame loop
    blits the cards' images); a copy is made holding the lock, so nothing is drawn from the
    image meanwhile."""
    return turn(_own_copy(key, image), angle)


def _scale_copy(key: Hashable, image: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """``image`` smoothly scaled to ``size``, from a copy of its own (see
    :func:`_turn_copy`)."""
    return pygame.transform.smoothscale(_own_copy(key, image), size)


def _own_copy(key: Hashable, image: pygame.Surface) -> pygame.Surface:
    """The worker's copy of ``image`` (the last few are kept: the next jobs are mostly of
    the same images, and a copy holds Python's lock)."""
    for held in list(_copy):
        if held[0] == key:
            return held[1]
    copy = image.copy()
    _copy[:] = [*_copy[-(COPIES - 1) :], (key, copy)]
    return copy


def _moves(tweens: Iterable[Any]) -> list[tuple[CardSprite, dict[str, float], float]]:
    """Each card sprite turned by ``tweens``: the sprite, where its turn ends (angle and
    width) and the flip it ends at."""
    from briscola.gui.render.sprites import CardSprite

    ends: dict[int, tuple[CardSprite, dict[str, float]]] = {}
    flips: dict[int, float] = {}
    for tween in tweens:
        target = tween.target
        if not isinstance(target, CardSprite) or tween.done:
            continue
        if "flip" in tween.end:
            flips[id(target)] = tween.end["flip"]
        if "angle" in tween.end:
            ends[id(target)] = (target, tween.end)
    return [(s, end, flips.get(key, s.flip)) for key, (s, end) in ends.items()]


def plan_turns(renderer: CardRenderer, tweens: Iterable[Any], t: float | None = None) -> None:
    """Start turning, ahead, the images the cards that ``tweens`` move will be drawn
    with: at their angle and the next few between it and the one they go to (at the width
    they will have there; turning over, a few with the face they show now and the last few
    with the other), and at rest where they end, with its shadow."""
    from briscola.gui.render.sprites import FLIP_TURNED

    if renderer.ahead.budget <= 0:
        return
    tweens = list(tweens)
    ahead = renderer.ahead
    if t is not None:  # first what the next frame needs
        if ahead.last_t is not None and t > ahead.last_t:
            ahead.dt = t - ahead.last_t
        ahead.last_t = t
        for sprite, values in _next_frame(tweens, ahead.dt).items():
            _plan_scale(renderer, sprite, values)
    for sprite, end, flip in _moves(tweens):
        a0, w0 = sprite.angle, sprite.w
        a1, w1 = end["angle"], end.get("w", w0)
        lifted = sprite.air or sprite.lift > 0.05
        r0, r1 = round(a0), round(a1)
        step = 1 if r1 > r0 else -1
        path = list(range(r0, r1 + step, step))

        face = sprite.card if sprite.card is not None and flip >= 0.5 else None
        if abs(flip - sprite.flip) > 0.01:  # turning over: a few each side of the change
            now = (
                path[: AHEAD_PER_CARD // 2]
                if abs(math.cos(math.pi * sprite.flip)) >= FLIP_TURNED
                else []
            )
            shown = [(sprite.card if sprite.face_up else None, a) for a in now]
            shown += [(face, a) for a in path[-1 - AHEAD_PER_CARD // 2 : -1]]
        else:
            shown = [(sprite.card if sprite.face_up else None, a) for a in path[:AHEAD_PER_CARD]]
        # Where it comes to rest first: there it is drawn at its own angle, the frame loop
        # turning it if need be; on the way a near angle may stand in for a frame.
        _plan(renderer, face, max(8, round(w1)), r1 % 360, False)
        low, high = min(a0, a1), max(a0, a1)
        for card, angle in shown:
            # The width and the angle are tweened together: the widths it has while shown
            # at that angle (from half a degree below to half above), in proportion.
            for edge in (max(low, angle - 0.5), min(high, angle + 0.5)):
                w = w1 if a1 == a0 else w0 + (w1 - w0) * (edge - a0) / (a1 - a0)
                # (its shadow, soft, is shown at a near angle on the way: see SHADOW_LAG)
                _plan(renderer, card, max(8, round(w)), angle % 360, lifted, shadow=False)


def _next_frame(tweens: list[Any], dt: float) -> dict[Any, dict[str, float]]:
    """Where the sprites ``tweens`` move will be in ``dt`` seconds (their width, angle and
    flip), if they are still moving then."""
    from briscola.gui.render.sprites import CardSprite

    ahead: dict[Any, dict[str, float]] = {}
    ending: set[int] = set()
    for tween in tweens:
        target = tween.target
        if not isinstance(target, CardSprite) or tween.done or tween.start is None:
            continue
        done = tween.duration <= 0 or tween.elapsed + dt >= tween.duration
        if done and ("w" in tween.end or "angle" in tween.end):
            ending.add(id(target))  # it lands: drawn at rest, nothing scaled
            continue
        k = 1.0 if done else tween.easing((tween.elapsed + dt) / tween.duration)
        values = ahead.setdefault(target, {})
        for name in ("w", "angle", "flip"):
            if name in tween.end:
                start = tween.start[name]
                values[name] = start + (tween.end[name] - start) * k
    return {s: v for s, v in ahead.items() if id(s) not in ending}


def _plan_scale(renderer: CardRenderer, sprite: CardSprite, values: dict[str, float]) -> None:
    """The smoothing scale :meth:`CardRenderer.draw` will make of ``sprite`` next frame,
    where it will be (``values``), made ahead: a card growing or shrinking in flight is
    drawn from an image at a width in use, scaled every frame to its own."""
    from briscola.gui.render.sprites import FLIP_TURNED

    width = max(8, round(values.get("w", sprite.w)))
    flip = values.get("flip", sprite.flip)
    card = sprite.card if sprite.card is not None and flip >= 0.5 else None
    squeeze = abs(math.cos(math.pi * flip))
    angle = round(values.get("angle", sprite.angle)) % 360
    if squeeze < FLIP_TURNED or (squeeze < 0.999 and not angle) or not renderer._backs_warm:
        return  # narrowed and turned afresh
    source_w = renderer._turn_width(card, width)
    code = card.code if card is not None else "back"
    if not angle:
        sources = renderer.exact if card is None else renderer.faces
        if width in sources or width in renderer.exact:
            return
        source_w = renderer._source_width(card, width)
        if card is not None and not renderer.assets.face_ready(card, renderer.style, source_w):
            return
        image_key: Hashable = ("face", code, source_w, renderer.style, renderer.back)
        size = (width, round(width * CARD_RATIO))
        renderer.ahead.plan_scale(
            ("scaled", image_key, size), (image_key, renderer.base(card, source_w)), size
        )
        return
    if source_w == width and squeeze >= 0.999:
        return  # turned at its own width: nothing scaled
    turned_key = (code, source_w, angle, renderer.style, renderer.back)
    turned = renderer.turned_image(turned_key)
    if turned is None:
        return
    tw, th = turned.get_size()
    k = width / source_w
    if squeeze < 0.999:
        size = (max(1, round(tw * k * squeeze)), max(1, round(th * k)))
    else:
        size = (max(1, round(tw * k)), max(1, round(th * k)))
    renderer.ahead.plan_scale(("scaled", turned_key, size), (turned_key, turned), size)


def _plan(
    renderer: CardRenderer,
    card: Card | None,
    width: int,
    angle: int,
    lifted: bool,
    shadow: bool = True,
) -> None:
    """``card`` (None: the back) shown ``width`` wide at ``angle``, and its ``shadow``:
    turned ahead where the frame loop has not turned them yet and their sources are at
    hand."""
    if not angle or not renderer._backs_warm:
        return
    ahead = renderer.ahead
    source_w = renderer._turn_width(card, width)
    code = card.code if card is not None else "back"
    key = (code, source_w, angle, renderer.style, renderer.back)
    ready = source_w in renderer.exact if card is None else source_w in renderer.faces
    if card is not None:
        ready = ready and renderer.assets.face_ready(card, renderer.style, source_w)
    if ready and (key in ahead or not renderer._is_turned(code, source_w, angle)):
        face = (
            ("face", code, source_w, renderer.style, renderer.back),
            lambda: renderer.base(card, source_w),
        )
        ahead.plan(key, face, angle, _smoothed)
    shadow_w = renderer._shadow_width(width)
    shadow_key = ("shadow", shadow_w, lifted, angle)
    if (
        shadow
        and shadow_w in renderer.exact
        and (shadow_key in ahead or (shadow_w, lifted, angle) not in renderer._shadows)
    ):
        from briscola.gui.render.sprites import SHADOW_ALPHAS

        alpha = SHADOW_ALPHAS[lifted]
        flat = (("shadow", shadow_w, alpha), lambda: renderer.assets.shadow(shadow_w, alpha))
        ahead.plan(shadow_key, flat, angle, pygame.transform.rotate)


def _smoothed(image: pygame.Surface, angle: int) -> pygame.Surface:
    """What :func:`briscola.gui.render.sprites._turn` makes (the same call)."""
    return pygame.transform.rotozoom(image, angle, 1.0)


def _turned_size(image: pygame.Surface, angle: int) -> tuple[int, int]:
    """About the size of ``image`` turned by ``angle`` degrees."""
    turn = math.radians(angle)
    cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
    w, h = image.get_size()
    return math.ceil(w * cos + h * sin), math.ceil(w * sin + h * cos)
