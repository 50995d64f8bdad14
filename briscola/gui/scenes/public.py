"""A server's public side: the player's name there (asked the first time, then the key kept
in the data folder signs in), and the lobby: the open public tables, live, with a filter by
configuration; Join a free seat (the waiting room follows), Watch a running table, Create a
public table, Quick match, and the player's key (``public_key``).

Everything comes from :class:`~briscola.client.public.PublicSide` and
:mod:`briscola.client.identity`; this page draws them and feeds them clicks.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from briscola.client.connection import Incoming, NetClient
from briscola.client.flow import OnlineFlow
from briscola.client.identity import Identities, name_problem, sign_in, signed_in
from briscola.client.public import PublicSide
from briscola.client.sentences import code_text, connection_text
from briscola.engine import PRESETS
from briscola.gui.widgets import Button, Choice, PrimaryButton, TextInput, WidgetGroup
from briscola.gui.widgets.online_page import OnlinePage, waited_text
from briscola.protocol import people
from briscola.protocol.errors import ProtocolError
from briscola.protocol.lobby import LobbyEntry
from briscola.protocol.wire import check_name
from briscola.text.i18n import _, ngettext
from briscola.text.labels import match_label, preset_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services

#: Tables shown at once.
ROWS = 6


def seat_text(seat: dict[str, Any]) -> str:
    """A seat as a lobby row shows it: the name (with a rating when the entry has one), or
    free, or the computer player."""
    if seat.get("free"):
        return _("free")
    name = str(seat.get("name") or "?")
    rating = seat.get("rating")
    return f"{name} ({rating})" if isinstance(rating, int) else name


def entry_text(entry: LobbyEntry) -> str:
    """One table of the lobby on one line."""
    data: dict[str, Any] = dict(entry)
    seats = ", ".join(seat_text(seat) for seat in data.get("seats", []))
    free = ngettext("{n} free seat", "{n} free seats", entry["free"]).format(n=entry["free"])
    parts = [preset_label(entry["preset"]), match_label(str(data.get("match", "single")))]
    if data.get("phase", "lobby") == "lobby":
        parts += [free, _("waiting {time}").format(time=waited_text(entry["waited"]))]
    else:
        parts.append(_("playing"))
    # A table with a computer player is never rated: say which ones count.
    parts.append(_("rated") if data.get("rated") else _("not rated"))
    return " · ".join([*parts, seats])


class PublicScene(OnlinePage):
    """The public side of the server at ``url`` (``address``: as the player knows it)."""

    def __init__(self, app: Services, url: str, address: str = "") -> None:
        super().__init__(app)
        self.url, self.address = url, address or url
        self.identities = Identities(app.storage.keys)
        kept = self.identities.get(url)
        #: The name the server knows this player by (None: not signed in yet).
        self.player: str | None = None
        #: When the server lets the player rename (``identity``'s ``rename_in``).
        self.rename_at = 0.0
        self.asking = kept is None or not kept.name
        self.side = PublicSide(None)
        self.flow: OnlineFlow | None = None
        #: The page is left for a table (joined, created, watched): its connection closes
        #: while it is covered, and opens again on the way back.
        self.away = False
        self.entries: list[LobbyEntry] = []
        #: The list shows ROWS tables from ``first`` of ``total`` (← and →, Page Up/Down).
        self.first = self.total = 0
        self.preset: str | None = None
        self.name_input = TextInput(
            app.settings.player_name,
            self.edited,
            lambda: _("Your name on this server"),
            on_enter=self.sign_in,
            name="public_name",
        )
        self.fields = [self.name_input]
        self.sign_button = PrimaryButton(lambda: _("Sign in"), self.sign_in, name="sign_in")
        options: list[tuple[Any, Any]] = [(None, lambda: _("All"))]
        options += [(name, partial(preset_label, name)) for name in PRESETS]
        self.filter_choice = Choice(
            lambda: _("Show"), options, None, self.set_filter, name="filter"
        )
        self.row_buttons = [
            Button(partial(self.row_action, i), partial(self.choose, i), name=f"table-{i}")
            for i in range(ROWS)
        ]
        self.prev_button = Button(lambda: "←", partial(self.turn, -1), name="tables-prev")
        self.next_button = Button(lambda: "→", partial(self.turn, 1), name="tables-next")
        self.quick_button = PrimaryButton(lambda: _("Quick match"), self.quick, name="quick")
        self.create_button = Button(lambda: _("Create a table"), self.create, name="create")
        self.key_button = Button(lambda: _("Your key"), self.key_page, name="key")
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.group = WidgetGroup(
            [
                self.name_input, self.sign_button, self.filter_choice, self.prev_button,
                self.next_button, *self.row_buttons, self.quick_button, self.create_button,
                self.key_button, self.back_button,
            ]
        )  # fmt: skip
        self.group.keyboard_focus = True
        self.rows_box: list[pygame.Rect] = [pygame.Rect(0, 0, 1, 1) for _ in range(ROWS)]
        self.heading = pygame.Rect(0, 0, 1, 1)
        self.message_box = pygame.Rect(0, 0, 1, 1)
        self.name_box = pygame.Rect(0, 0, 1, 1)
        self.pages_box = pygame.Rect(0, 0, 1, 1)
        self._show()
        self.say(_("Connecting…"))

    # ------------------------------------------------------------------ the connection

    @property
    def client(self) -> NetClient | None:
        return self.side.client

    @property
    def waiting(self) -> bool:
        return True

    def connect(self) -> None:
        """A connection to the server (again, after a table took the last one)."""
        kept = self.identities.get(self.url)
        hello = kept.name if kept is not None and kept.name else self.app.settings.player_name
        try:
            hello = check_name(hello)
        except ProtocolError:
            hello = "Player"
        try:
            client = NetClient(self.url, hello).start()
        except ValueError as exc:
            self.say(str(exc), bad=True)
            return
        self.side = PublicSide(client)
        self.player = None
        if sign_in(client, self.identities):
            self.say(_("Signing in…"))
        else:
            self.asking = True
            self.say(_("Choose the name other players will see on this server."))
        self._show()

    def on_enter(self) -> None:
        self.connect()

    def on_resume(self) -> None:
        super().on_resume()
        if self.client is None or self.side.stage == "seated":
            self.close()
            self.connect()  # (a table took the connection)
        elif self.player is None and not self.asking:
            sign_in(self.client, self.identities)  # (a key imported meanwhile)

    def on_pause(self) -> None:
        super().on_pause()
        if self.away:
            self.away = False
            self.close()

    def close(self) -> None:
        client, self.side.client = self.side.client, None
        if client is not None:
            client.close(timeout=0)

    def on_exit(self) -> None:
        super().on_exit()
        if self.flow is not None:
            self.flow.leave()
        self.close()

    def take_other(self, message: Incoming) -> None:
        """What the public side does not read: who the player is, refusals, the connection."""
        data: dict[str, Any] = dict(message)
        kind = data["type"]
        if kind == "identity":
            client = self.client
            assert client is not None
            signed_in(client, self.identities, message)  # type: ignore[arg-type]
            self.player = str(data["name"])
            self.rename_at = time.monotonic() + float(data.get("rename_in", 0))
            if self.asking or self.side.filter is None:
                self.asking = False
                self.side.watch_lobby(() if self.preset is None else (self.preset,))
                self.say("")
                self._show()
        elif kind == "error" and data.get("ref") in people.CLIENT_TYPES:
            self.say(code_text(data["code"], data["message"]), bad=True)
            if data.get("ref") == "identify":
                self.asking = True
                self._show()
        elif kind == "status" and data["status"] in ("failed", "closed", "reconnecting"):
            self.say(connection_text(data["status"]), bad=True)

    def update(self, dt: float) -> None:
        super().update(dt)
        self.side.poll(self.take_other)
        for refusal in self.side.refused:
            self.say(code_text(refusal["code"], refusal["message"]), bad=True)
        self.side.refused.clear()
        tables = self.side.tables(self.preset)
        self.total = len(tables)
        self.first = max(0, min(self.first, (self.total - 1) // ROWS * ROWS))
        self.entries = tables[self.first : self.first + ROWS]
        for index, button in enumerate(self.row_buttons):
            button.visible = not self.asking and index < len(self.entries)
        self.prev_button.visible = self.next_button.visible = not self.asking and self.total > ROWS
        self.prev_button.enabled = self.first > 0
        self.next_button.enabled = self.first + ROWS < self.total
        self._joining()

    def _joining(self) -> None:
        flow = self.flow
        if flow is None:
            return
        stage = flow.poll()
        if stage in ("room", "playing"):
            self.flow = None
            self.away = True
            self.app.open("waiting_room", flow=flow)
        elif stage == "failed":
            self.flow = None
            if flow.problem is not None:
                self.say(code_text(flow.problem.code, flow.problem.detail), bad=True)

    # ------------------------------------------------------------------ the player's choices

    def edited(self, text: str) -> None:
        self.say("")

    def sign_in(self) -> None:
        client = self.client
        if client is None or not self.asking:
            return
        name = self.name_input.text.strip()
        problem = name_problem(name)
        if problem is not None:
            self.say(problem, bad=True)
            return
        sign_in(client, self.identities, name)
        self.say(_("Signing in…"))

    def set_filter(self, preset: Any) -> None:
        self.preset = preset
        self.first = 0
        if self.player is not None:
            self.side.watch_lobby(() if preset is None else (preset,))

    def turn(self, pages: int) -> None:
        """The next (1) or the previous (-1) tables of the list."""
        self.first = max(0, min(self.first + pages * ROWS, (self.total - 1) // ROWS * ROWS))

    def handle_event(self, event: pygame.event.Event) -> None:
        """Page Up and Page Down turn the list's pages (unless the page itself scrolls: a UI
        scale larger than the window)."""
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN)
            and self.prev_button.visible
            and self.max_page_scroll <= 0
        ):
            self.turn(1 if event.key == pygame.K_PAGEDOWN else -1)
            return
        super().handle_event(event)

    def row_action(self, index: int) -> str:
        if index >= len(self.entries):
            return ""
        entry = self.entries[index]
        if entry.get("phase", "lobby") == "lobby" and entry["free"]:
            return _("Join")
        return _("Watch")

    def choose(self, index: int) -> None:
        if index >= len(self.entries) or self.player is None:
            return
        entry = self.entries[index]
        kept = self.identities.get(self.url)
        if entry.get("phase", "lobby") == "lobby" and entry["free"]:
            if self.flow is None:
                self.flow = OnlineFlow(self.player, self.app.storage.seats)
                self.flow.join(self.url, entry["table"], kept.key if kept else None)
                self.say(_("Joining…"))
        elif "watch" in self.app.scene_factories:
            # (the factory itself: ``open``'s first parameter is called ``name`` too)
            watch = self.app.scene_factories["watch"]
            scene = watch(self.app, url=self.url, code=entry["table"], name=self.player)
            if scene is not None:
                self.away = True
                self.app.push(scene)
        else:
            self.say(_("Watching a table is not available in this version."), bad=True)

    def create(self) -> None:
        kept = self.identities.get(self.url)
        if self.player is not None and kept is not None:
            self.away = True
            self.app.open("newgame", public=self.url, key=kept.key)

    def quick(self) -> None:
        if self.player is not None:
            self.app.open("quick_match", side=self.side)

    def key_page(self) -> None:
        self.app.open("public_key", url=self.url, side=self.side, rename_at=self.rename_at)

    def _show(self) -> None:
        """The name prompt, or the lobby."""
        self.name_input.visible = self.sign_button.visible = self.asking
        self.filter_choice.visible = not self.asking
        for button in (self.quick_button, self.create_button, self.key_button):
            button.visible = not self.asking
        self.group.focus_widget(self.name_input if self.asking else self.quick_button)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 1200, scrolls=True)
        px = self.px
        self.panel = body = frame.body
        x, w = body.x + px(24), body.width - px(48)
        self.heading = pygame.Rect(x, body.y + px(12), w, px(30))
        y = self.heading.bottom + px(8)
        self.name_input.rect = pygame.Rect(x, y, min(w, px(520)), px(46))
        self.sign_button.rect = pygame.Rect(self.name_input.rect.right + px(12), y, px(200), px(46))
        self.filter_choice.rect = pygame.Rect(x, y, min(w, px(520)), px(44))
        self.next_button.rect = pygame.Rect(x + w - px(52), y, px(52), px(44))
        self.prev_button.rect = self.next_button.rect.move(-px(60), 0)
        self.pages_box = pygame.Rect(self.filter_choice.rect.right + px(12), y, 0, px(44))
        self.pages_box.width = max(0, self.prev_button.rect.x - px(12) - self.pages_box.x)
        y += px(54)
        action_w = px(130)
        for box_index, button in enumerate(self.row_buttons):
            self.rows_box[box_index] = pygame.Rect(x, y, w - action_w - px(12), px(42))
            button.rect = pygame.Rect(x + w - action_w, y, action_w, px(42))
            y += px(48)
        self.message_box = pygame.Rect(x, y + px(4), w, max(px(36), body.bottom - y - px(8)))
        #: Under the name while it is asked.
        self.name_box = self.message_box.copy()
        self.name_box.y = self.name_input.rect.bottom + px(16)
        gap = px(12)
        button_w = (body.width - 3 * gap) // 4
        for index, button in enumerate(
            (self.back_button, self.key_button, self.create_button, self.quick_button)
        ):
            button.rect = pygame.Rect(
                body.x + index * (button_w + gap), frame.buttons_y, button_w, frame.button_h
            )

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        px = self.px
        self.draw_page(surface, self.address, self.panel)
        if self.asking:
            heading = _("Your name on this server")
        elif self.player is not None:
            heading = _("Open tables · you are {name}").format(name=self.player)
        else:
            heading = _("Open tables")
        self.painter.fit(surface, heading, self.heading, px(22), theme.accent, bold=True)
        for box, entry in zip(self.rows_box, self.entries if not self.asking else [], strict=False):
            self.painter.fit(surface, entry_text(entry), box, px(18), theme.text)
        if self.prev_button.visible and self.pages_box.width > px(40):
            last = min(self.total, self.first + ROWS)
            # Translators: which tables of the list are shown, e.g. "7–12 of 30".
            shown = _("{first}–{last} of {total}").format(
                first=self.first + 1, last=last, total=self.total
            )
            self.painter.fit(surface, shown, self.pages_box, px(18), theme.dim, align="right")
        if not self.asking and self.player is not None and not self.entries:
            self.painter.paragraph(
                surface,
                _("No open tables right now: create one, or let Quick match find players."),
                self.rows_box[0].union(self.rows_box[1]),
                px(18),
                theme.dim,
            )
        self.draw_message(surface, self.name_box if self.asking else self.message_box)
        self.group.draw(surface, self.app.assets, theme)
