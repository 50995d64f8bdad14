"""The coach at the table: hints with a reason, and each card's expected points.

:class:`TableCoach` assesses the shown seat's cards with :func:`briscola.coach.evaluate` on a
background thread (the window never waits: the hard search takes a fraction of a second),
from the seat's :class:`PlayerView` alone, once per turn: the hint and the values overlay
share the assessment. Results are looked up by the turn's key, so a result that arrives after
the turn is over is never shown. The sentence is built when drawn
(:func:`briscola.text.coachtext.reason_text`), so a change of language shows at once.

:func:`make_note` measures a short text for a rounded box (the hint, the lesson's captions)
and :func:`place` finds it a spot clear of the cards.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import pygame

from briscola.coach import Assessment, Reason, evaluate, explain
from briscola.engine import Card, Play, PlayerView
from briscola.gui.render.assets import Assets
from briscola.gui.render.wake import wake
from briscola.gui.widgets import Theme, draw_panel, wrap_text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Advice:
    """The assessment of one turn and the reason for its best card."""

    assessment: Assessment
    reason: Reason

    @property
    def best(self) -> Card:
        return self.assessment.best


def turn_key(seen: PlayerView, hand_number: int) -> Hashable:
    """What identifies a turn: the same position gives the same key (after an undo too)."""
    return (
        hand_number,
        len(seen.tricks),
        tuple(card.code for _seat, card in seen.table),
        tuple(card.code for card in seen.hand),
        seen.briscola_in_stock,
    )


def advise(seen: PlayerView, budget: int | None = None) -> Advice:
    """The coach's advice for ``seen`` (ValueError when the seat is not to play a card).
    Seeded by the position (:func:`briscola.coach.position_seed`), so the same position
    always gets the same advice, and the review of the hand the same values."""
    found = evaluate(seen, budget=budget)
    return Advice(found, explain(seen, found))


class TableCoach:
    """Advice for the turns of the player at the screen, computed in the background."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: dict[Hashable, Future[Advice]] = {}

    def request(self, seen: PlayerView, key: Hashable) -> None:
        """Start assessing ``seen`` (nothing when it is under way or done for ``key``, or
        the seat has no card to play)."""
        if key in self._jobs or seen.phase != "play":
            return
        if not any(isinstance(a, Play) for a in seen.legal):
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")
        # Older turns are of no more use: keep only the latest few.
        for old in list(self._jobs)[:-3]:
            self._jobs.pop(old).cancel()
        job = self._pool.submit(advise, seen, self.budget)
        # The window may be asleep waiting for input: the result wakes it (issue 50: the
        # hint waited for the next mouse move when it arrived after the last frame).
        job.add_done_callback(lambda _job: wake())
        self._jobs[key] = job

    def advice(self, key: Hashable) -> Advice | None:
        """The advice for ``key`` once computed (None before, or when it failed)."""
        job = self._jobs.get(key)
        if job is None or not job.done() or job.cancelled():
            return None
        try:
            return job.result()
        except Exception:
            log.exception("the coach could not assess this position")
            return None

    def wait(self, key: Hashable, timeout: float) -> None:
        """Block until the assessment for ``key`` is done (or ``timeout`` seconds pass)."""
        job = self._jobs.get(key)
        if job is not None:
            concurrent.futures.wait([job], timeout)

    def pending(self, key: Hashable) -> bool:
        job = self._jobs.get(key)
        return job is not None and not job.done()

    def close(self) -> None:
        for job in self._jobs.values():
            job.cancel()
        self._jobs.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


@dataclass
class Note:
    """A short text measured for a rounded box: lines rendered, then placed and drawn."""

    images: list[pygame.Surface]
    pad: int
    step: int
    left_aligned: bool = False

    @property
    def size(self) -> tuple[int, int]:
        width = max((image.get_width() for image in self.images), default=0)
        return width + 2 * self.pad, self.step * len(self.images) + 2 * self.pad

    def draw(self, surface: pygame.Surface, box: pygame.Rect, theme: Theme) -> None:
        draw_panel(surface, box, theme, self.pad)
        y = box.y + self.pad
        for image in self.images:
            x = box.x + self.pad if self.left_aligned else box.centerx - image.get_width() // 2
            surface.blit(image, (x, y))
            y += self.step


def make_note(
    assets: Assets,
    size: int,
    text: str,
    theme: Theme,
    max_width: int,
    pad: int,
    title: str = "",
    left_aligned: bool = False,
) -> Note:
    """``text`` wrapped to fit ``max_width`` (the box's), ``title`` first in the accent
    colour; ``left_aligned`` for paragraphs. Lines are rendered through ``assets`` (cached:
    a note drawn every frame renders once)."""
    font = assets.font(size)
    rows: list[tuple[str, tuple[int, int, int]]] = []
    width = max_width - 2 * pad  # a word longer than that keeps a line of its own
    if title:
        rows.extend((line, theme.accent) for line in wrap_text(font, title, width, False))
    rows.extend((line, theme.text) for line in wrap_text(font, text, width, False))
    images = [assets.text(line, size, colour) for line, colour in rows]
    return Note(images, pad, font.get_linesize(), left_aligned)


def place(
    size: tuple[int, int],
    spots: list[tuple[str, tuple[int, int]]],
    obstacles: list[pygame.Rect],
    screen: pygame.Rect,
    step: int = 20,
) -> pygame.Rect:
    """A box of ``size`` at the first of ``spots`` (an anchor name of pygame.Rect, such as
    ``"bottomleft"``, and its point) where it stays on ``screen`` and covers none of
    ``obstacles``; else the free place nearest the first spot, row by row (``step`` pixels
    apart; the rows nearest the first spot's first, below it before above it at the same
    distance; in a row the first spot's column, then the edges first); else the first spot.

    >>> screen = pygame.Rect(0, 0, 400, 300)
    >>> place((100, 50), [("topleft", (10, 10))], [], screen)
    Rect(10, 10, 100, 50)
    >>> place((100, 50), [("topleft", (10, 10))], [pygame.Rect(0, 0, 400, 100)], screen)
    Rect(10, 110, 100, 50)
    >>> place((100, 50), [("bottomleft", (10, 290))], [pygame.Rect(0, 200, 400, 100)], screen)
    Rect(10, 140, 100, 50)
    """
    boxes = []
    for anchor, point in spots:
        box = pygame.Rect((0, 0), size)
        setattr(box, anchor, point)
        box = box.clamp(screen)
        if box.collidelist(obstacles) < 0:
            return box
        boxes.append(box)
    first = boxes[0] if boxes else pygame.Rect((0, 0), size).clamp(screen)
    width, height = size
    lefts = list(range(screen.left + first.left % step, screen.right - width + 1, step))
    order = sorted(lefts, key=lambda x: min(x - screen.left, screen.right - width - x))
    rows = range(screen.top + first.top % step, screen.bottom - height + 1, step)
    for y in sorted(rows, key=lambda y: (abs(y - first.top), y < first.top)):
        for x in [first.left, *order]:
            box = pygame.Rect((x, y), size)
            if box.collidelist(obstacles) < 0:
                return box
    return first
