"""The Statistics screen's ratings (``docs/ratings.md``): for a server where the player has
a key, each family's leaderboard (the top players and the player's own place), the
player's rating with its uncertainty, and its history as a small chart. Fetched from the
server in a thread of its own when the screen opens (:func:`~briscola.client.ratings.
fetch_ratings`); a clear line while it comes, or when the server cannot be reached."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from briscola.client.identity import Identities
from briscola.client.ratings import PlayerRatings, RatingsProblem, fetch_ratings
from briscola.protocol.people import HistoryPoint
from briscola.ratings.families import FAMILIES
from briscola.text.i18n import _, decimal, ngettext

if TYPE_CHECKING:
    from briscola.gui.scene import Services
    from briscola.gui.widgets.page import PageScene

__all__ = ["RatingsView", "family_label"]

Fetch = Callable[[str, Identities], PlayerRatings | RatingsProblem]


def family_label(family: str) -> str:
    """A family of rated tables, for the player."""
    labels = {
        "two": _("Two players"),
        "three": _("Three players"),
        "teams4": _("Four in teams"),
        "chiamata": _("Chiamata"),
        "six": _("Six players"),
    }
    return labels.get(family, family)


class RatingsView:
    """The ratings on the first server the player has a key for (None: no such server)."""

    def __init__(self, identities: Identities, fetch: Fetch = fetch_ratings) -> None:
        servers = sorted(identities.store.all())
        self.server = servers[0] if servers else None
        self.identities = identities
        self.fetch = fetch
        self.result: PlayerRatings | RatingsProblem | None = None
        #: The family shown (an index into :data:`FAMILIES`).
        self.family = 0
        self._thread: threading.Thread | None = None

    @property
    def offered(self) -> bool:
        return self.server is not None

    def start(self) -> None:
        """Ask the server (once), in a thread: :attr:`result` holds the answer."""
        if self.server is None or self._thread is not None:
            return
        server = self.server

        def work() -> None:
            self.result = self.fetch(server, self.identities)

        self._thread = threading.Thread(target=work, name="briscola-ratings", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 15.0) -> None:
        """Wait for the answer (tests, screenshots)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def next_family(self) -> None:
        self.family = (self.family + 1) % len(FAMILIES)

    def family_text(self) -> str:
        return _("Ratings: {family}").format(family=family_label(FAMILIES[self.family]))

    def lines(self) -> list[str]:
        """The status or the player's own line (tests read them)."""
        result = self.result
        if result is None:
            return [_("Asking {server} for the ratings…").format(server=self.server)]
        if isinstance(result, RatingsProblem):
            return [result.text]
        board = result.boards[self.family]
        if board.you is None:
            return [_("You have no rating here yet: play at a rated table.")]
        you = board.you
        games = ngettext("{n} rated hand", "{n} rated hands", you["games"]).format(n=you["games"])
        return [
            _("Your rating: {rating} ± {sigma} · rank {rank} · {games}").format(
                rating=you["rating"], sigma=decimal(you["sigma"], 1), rank=you["rank"],
                games=games,
            )
        ]  # fmt: skip

    # ------------------------------------------------------------------ drawing

    def draw(self, scene: PageScene, surface: pygame.Surface, box: pygame.Rect) -> None:
        app: Services = scene.app
        theme = app.theme
        px = scene.px
        painter = scene.painter
        head = pygame.Rect(box.x, box.y, box.width, px(34))
        title = self.family_text()
        if self.server is not None:
            title = _("{title} on {server}").format(title=title, server=self.server)
        painter.fit(surface, title, head, px(24), theme.accent, True, "left")
        line = pygame.Rect(box.x, head.bottom + px(6), box.width, px(28))
        for text in self.lines():
            painter.fit(surface, text, line, px(19), theme.text, False, "left")
            line.y += px(30)
        result = self.result
        if not isinstance(result, PlayerRatings):
            return
        board = result.boards[self.family]
        top = line.y + px(8)
        left = pygame.Rect(box.x, top, box.width * 45 // 100, box.bottom - top)
        chart = pygame.Rect(left.right + px(24), top, box.right - left.right - px(24), left.height)
        painter.fit(
            surface, _("Top players"), pygame.Rect(left.x, top, left.width, px(26)), px(18),
            theme.dim, True, "left",
        )  # fmt: skip
        row = pygame.Rect(left.x, top + px(30), left.width, px(26))
        if not board.top:
            painter.fit(surface, _("Nobody is rated here yet."), row, px(17), theme.dim)
        for entry in board.top:
            if row.bottom > left.bottom:
                break
            mine = board.you is not None and entry["rank"] == board.you["rank"]
            text = f"{entry['rank']}. {entry['name']}"
            colour = theme.accent if mine else theme.text
            painter.fit(surface, text, row, px(17), colour, mine, "left")
            painter.fit(surface, str(entry["rating"]), row, px(17), colour, mine, "right")
            row.y += px(28)
        painter.fit(
            surface, _("Your rating, hand by hand"), pygame.Rect(chart.x, top, chart.width, px(26)),
            px(18), theme.dim, True, "left",
        )  # fmt: skip
        area = pygame.Rect(chart.x, top + px(32), chart.width, chart.height - px(40))
        draw_chart(surface, area, board.history, theme.accent, theme.dim, px(2))


def draw_chart(
    surface: pygame.Surface,
    area: pygame.Rect,
    points: list[HistoryPoint],
    colour: tuple[int, int, int],
    frame: tuple[int, int, int],
    width: int,
) -> None:
    """The rating after each hand as a line (mu less 3 sigma), the band above it up to mu."""
    pygame.draw.rect(surface, frame, area, 1)
    if area.width < 20 or area.height < 20 or not points:
        return
    lows = [p["rating"] for p in points]
    highs = [p["rating"] + 3 * p["sigma"] for p in points]  # up to mu
    low, high = min(lows), max(highs)
    span = max(1.0, high - low)
    inner = area.inflate(-8, -8)

    def at(index: int, value: float) -> tuple[int, int]:
        x = inner.x + (inner.width * index // max(1, len(points) - 1) if len(points) > 1 else 0)
        return x, round(inner.bottom - (value - low) / span * inner.height)

    band = [at(i, v) for i, v in enumerate(highs)] + [
        at(i, v) for i, v in reversed(list(enumerate(lows)))
    ]
    if len(points) > 1:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(shade, (*colour, 40), band)
        surface.blit(shade, (0, 0))
        pygame.draw.lines(surface, colour, False, [at(i, v) for i, v in enumerate(lows)], width)
    for i, v in enumerate(lows):
        pygame.draw.circle(surface, colour, at(i, v), width + 1)
