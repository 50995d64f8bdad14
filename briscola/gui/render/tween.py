"""Tweens: properties of objects moving over time with easing.

>>> class Box:
...     x = 0.0
>>> box = Box()
>>> tween = Tween(box, 1.0, x=10.0, easing=linear)
>>> tween.update(0.5)
False
>>> box.x
5.0
>>> tween.update(0.6), box.x
(True, 10.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Easing = Callable[[float], float]


def linear(t: float) -> float:
    return t


def ease_in_cubic(t: float) -> float:
    return t * t * t


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in_out_cubic(t: float) -> float:
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    c1 = 1.4
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def ease_out_sine(t: float) -> float:
    return math.sin(t * math.pi / 2)


class Tween:
    """Move numeric attributes of ``target`` to new values over ``duration`` seconds,
    after ``delay``. Start values are read when the tween starts (after the delay)."""

    def __init__(
        self,
        target: Any,
        duration: float,
        easing: Easing = ease_out_cubic,
        delay: float = 0.0,
        on_start: Callable[[], None] | None = None,
        on_done: Callable[[], None] | None = None,
        **values: float,
    ) -> None:
        self.target = target
        self.duration = max(0.0, duration)
        self.easing = easing
        self.delay = max(0.0, delay)
        self.on_start = on_start
        self.on_done = on_done
        self.end = values
        self.start: dict[str, float] | None = None
        self.elapsed = 0.0
        self.done = False

    def _begin(self) -> None:
        self.start = {name: float(getattr(self.target, name)) for name in self.end}
        if self.on_start is not None:
            self.on_start()

    def update(self, dt: float) -> bool:
        """Advance by ``dt`` seconds; True once finished."""
        if self.done:
            return True
        if self.delay > 0:
            self.delay -= dt
            if self.delay > 0:
                return False
            dt = -self.delay
            self.delay = 0.0
        if self.start is None:
            self._begin()
        self.elapsed += dt
        t = 1.0 if self.duration <= 0 else min(1.0, self.elapsed / self.duration)
        k = self.easing(t)
        assert self.start is not None
        for name, end in self.end.items():
            start = self.start[name]
            setattr(self.target, name, start + (end - start) * k)
        if t >= 1.0:
            self.finish()
        return self.done

    def finish(self) -> None:
        """Jump to the end (skipping an animation) and run the callbacks."""
        if self.done:
            return
        if self.start is None:
            self._begin()
        for name, end in self.end.items():
            setattr(self.target, name, end)
        self.done = True
        if self.on_done is not None:
            self.on_done()


class Tweener:
    """A set of running tweens, advanced together."""

    def __init__(self) -> None:
        self.tweens: list[Tween] = []

    def add(self, tween: Tween) -> Tween:
        self.tweens.append(tween)
        return tween

    def __call__(self, target: Any, duration: float, **kwargs: Any) -> Tween:
        return self.add(Tween(target, duration, **kwargs))

    @property
    def busy(self) -> bool:
        return bool(self.tweens)

    def update(self, dt: float) -> None:
        for tween in list(self.tweens):
            if tween.update(dt):
                self.tweens.remove(tween)

    def finish_all(self) -> None:
        # Callbacks may add tweens: finish until nothing is left.
        for _ in range(1000):
            if not self.tweens:
                return
            tweens, self.tweens = self.tweens, []
            for tween in tweens:
                tween.finish()

    def cancel(self, target: Any) -> None:
        self.tweens = [t for t in self.tweens if t.target is not target]
