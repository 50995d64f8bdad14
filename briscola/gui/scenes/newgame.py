"""The New game screen: configuration, options, match length and who sits where.

Every option is checked against the rules engine (``Rules.preset`` raises ``ValueError`` for a
combination the rules do not allow), so the screen can only build valid games. The last
choices are remembered in ``settings.new_game``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from briscola.engine import PRESETS, Rules
from briscola.game.setup import LEVELS, GameSetup, SeatConfig, computer_name
from briscola.gui.widgets import (
    BLINK_MS,
    NAME_LENGTH,
    Button,
    Label,
    OptionChoice,
    PrimaryButton,
    TextInput,
    Widget,
    WidgetGroup,
)
from briscola.gui.widgets.draw import draw_turn_arrow
from briscola.gui.widgets.page import FormPage
from briscola.protocol.wire import tidy_name
from briscola.text.i18n import _
from briscola.text.labels import (
    kind_label,
    match_label,
    preset_help,
    preset_label,
    rule_facts,
)
from briscola.text.signals import SIGNAL_MODES, signals_mode_label

if TYPE_CHECKING:
    from briscola.gui.scene import Services

MAX_SEATS = 6

#: Seat kinds: a human, or a computer of a strength.
KINDS = ("human", *LEVELS)


def match_options(preset: str) -> list[str]:
    """The match lengths a configuration allows, as match format strings."""
    base = PRESETS[preset]
    if base.chiamata:
        candidates = ["single", "hands-3", "hands-5", "hands-10"]
    elif base.match.kind == "points":
        candidates = ["points-121", "points-151"]
    else:
        candidates = ["single", "best-of-3", "best-of-5"]
        candidates += [f"first-to-{n}" for n in range(2, 10)]
    return [match for match in candidates if allowed(preset, match=match)]


def allowed(preset: str, **options: Any) -> bool:
    """Whether the rules engine accepts ``options`` on ``preset``."""
    try:
        Rules.preset(preset, **options)
    except ValueError:
        return False
    return True


def default_name(seat: int, kind: str) -> str:
    """The name a seat gets when the player leaves it blank."""
    if kind == "human":
        return _("You") if seat == 0 else _("Player {n}").format(n=seat + 1)
    return computer_name(seat, kind)


def online_bot(index: int, seat: SeatConfig) -> dict[str, Any]:
    """A computer seat of a table hosted online, with the name shown on this page (without
    the characters the network does not take)."""
    name = tidy_name(seat.name) or tidy_name(computer_name(index, seat.level))
    return {"kind": "bot", "level": seat.level, "name": name}


def seat_position(
    seat: int, players: int, centre: tuple[float, float], rx: float, ry: float
) -> tuple[float, float]:
    """Where a seat sits around an oval table on screen: seat 0 at the bottom, then
    counterclockwise (seat 1 to its right), as Briscola is played."""
    angle = 2 * math.pi * seat / players
    return centre[0] + rx * math.sin(angle), centre[1] + ry * math.cos(angle)


def clean_name(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable()).strip()[:NAME_LENGTH]


# ---------------------------------------------------------------------- choices


@dataclass
class SeatChoice:
    name: str = ""  # blank: the default name
    kind: str = "medium"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}


def _default_seats() -> list[SeatChoice]:
    return [SeatChoice(kind="human")] + [SeatChoice() for _seat in range(MAX_SEATS - 1)]


@dataclass
class Choices:
    """Everything chosen on the screen; stored as ``settings.new_game``."""

    preset: str = "classic2"
    swap: bool = False
    three_as_three: bool = False
    partners_see: str = "never"
    signals: str = "off"
    #: Match length per configuration (a match format string).
    matches: dict[str, str] = field(default_factory=dict)
    seats: list[SeatChoice] = field(default_factory=_default_seats)

    def match(self, preset: str | None = None) -> str:
        preset = preset or self.preset
        options = match_options(preset)
        chosen = self.matches.get(preset, str(PRESETS[preset].match))
        return chosen if chosen in options else options[0]

    def rules(self) -> Rules:
        """The rules chosen; options the configuration does not allow are left out."""
        options: dict[str, Any] = {}
        wanted: dict[str, Any] = {
            "swap": self.swap,
            "three_as_three": self.three_as_three,
            "partners_see": self.partners_see,
            "signals": self.signals,
            "match": self.match(),
        }
        for key, value in wanted.items():
            if allowed(self.preset, **options, **{key: value}):
                options[key] = value
        return Rules.preset(self.preset, **options)

    def setup(self) -> GameSetup:
        rules = self.rules()
        seats = []
        for seat in range(rules.players):
            choice = self.seats[seat]
            name = clean_name(choice.name) or default_name(seat, choice.kind)
            if choice.kind == "human":
                seats.append(SeatConfig(name, human=True))
            else:
                seats.append(SeatConfig(name, human=False, level=choice.kind))
        return GameSetup(rules, seats, seed=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "swap": self.swap,
            "three_as_three": self.three_as_three,
            "partners_see": self.partners_see,
            "signals": self.signals,
            "matches": dict(self.matches),
            "seats": [seat.to_json() for seat in self.seats],
        }

    @classmethod
    def from_json(cls, data: Any) -> Choices:
        """Choices from saved data; anything unusable falls back to its default."""
        choices = cls()
        if not isinstance(data, dict):
            return choices
        if data.get("preset") in PRESETS:
            choices.preset = data["preset"]
        for key in ("swap", "three_as_three"):
            if isinstance(data.get(key), bool):
                setattr(choices, key, data[key])
        if data.get("partners_see") in ("never", "start", "stock-empty"):
            choices.partners_see = data["partners_see"]
        if data.get("signals") in SIGNAL_MODES:
            choices.signals = data["signals"]
        matches = data.get("matches")
        if isinstance(matches, dict):
            choices.matches = {
                preset: match
                for preset, match in matches.items()
                if preset in PRESETS and isinstance(match, str) and match in match_options(preset)
            }
        seats = data.get("seats")
        if isinstance(seats, list):
            for seat, saved in enumerate(seats[:MAX_SEATS]):
                if isinstance(saved, dict):
                    name = saved.get("name")
                    kind = saved.get("kind")
                    if isinstance(name, str):
                        choices.seats[seat].name = clean_name(name)
                    if kind in KINDS:
                        choices.seats[seat].kind = kind
        return choices


# ---------------------------------------------------------------------- widgets


# ---------------------------------------------------------------------- the scene


class NewGameScene(FormPage):
    """Choose the game, its options and the players; Start opens the table. ``online``: the
    same choices for a table hosted on this computer (Play online -> Host a table): seat 1
    is the host, a human seat is open to a friend, and Start opens the table to them."""

    def __init__(
        self, app: Services, online: bool = False, public: str | None = None, key: str = ""
    ):
        super().__init__(app)
        self.public, self.key = public, key  # (a public table on that server: its lobby's Create)
        self.online = online or public is not None
        self.choices = Choices.from_json(app.settings.new_game)
        off_on: list[tuple[Any, Label]] = [(False, lambda: _("Off")), (True, lambda: _("On"))]
        self.preset_choice = OptionChoice(
            lambda: _("Game type"),
            [(name, partial(preset_label, name)) for name in PRESETS],
            self.choices.preset,
            self.set_preset,
            name="preset",
        )
        self.swap_choice = OptionChoice(
            lambda: _("Swap the briscola"),
            off_on,
            self.choices.swap,
            lambda value: self.set_option("swap", value),
            disabled_text=lambda: _("No turned briscola"),
            name="swap",
        )
        self.three_choice = OptionChoice(
            lambda: _("Three ranked as three"),
            off_on,
            self.choices.three_as_three,
            lambda value: self.set_option("three_as_three", value),
            name="three_as_three",
        )
        self.partners_choice = OptionChoice(
            lambda: _("Partners see hands"),
            [
                ("never", lambda: _("Never")),
                ("start", lambda: _("At the start")),
                ("stock-empty", lambda: _("When the stock is empty")),
            ],
            self.choices.partners_see,
            lambda value: self.set_option("partners_see", value),
            disabled_text=lambda: _("Team games only"),
            name="partners_see",
        )
        self.signals_choice = OptionChoice(
            lambda: _("Partner signals"),
            [(mode, partial(signals_mode_label, mode)) for mode in SIGNAL_MODES],
            self.choices.signals,
            lambda value: self.set_option("signals", value),
            disabled_text=lambda: _("Team games and Chiamata"),
            name="signals",
        )
        self.match_choice = OptionChoice(
            lambda: _("Match"), [("single", lambda: "")], "single", self.set_match, name="match"
        )
        self.option_rows = [
            self.preset_choice,
            self.swap_choice,
            self.three_choice,
            self.partners_choice,
            self.signals_choice,
            self.match_choice,
        ]
        self.name_inputs: list[TextInput] = []
        self.kind_choices: list[OptionChoice] = []
        for seat in range(MAX_SEATS):
            choice = self.choices.seats[seat]
            field_ = TextInput(
                choice.name,
                partial(self.set_name, seat),
                partial(self.placeholder, seat),
                on_enter=lambda: self.group.move_focus(1),
                name=f"name-{seat}",
            )
            kind = OptionChoice(
                lambda: "",
                [(kind, partial(kind_label, kind)) for kind in KINDS],
                choice.kind,
                partial(self.set_kind, seat),
                show_label=False,
                name=f"kind-{seat}",
            )
            self.name_inputs.append(field_)
            self.kind_choices.append(kind)
        self.back_button = Button(lambda: _("Back"), self.back, name="back")
        self.start_button = PrimaryButton(
            (lambda: _("Open the table")) if online else (lambda: _("Start")),
            self.start,
            name="start",
        )
        if online:  # the host sits in the first seat; friends bring their own names
            self.choices.seats[0].kind = "human"
            self.kind_choices[0].set_value("human")
            self.kind_choices[0].enabled = False
            self.kind_choices[0].disabled_text = lambda: _("You")
            for seat, field_ in enumerate(self.name_inputs[1:], 1):
                field_.enabled = False
                kinds: list[tuple[Any, Label]] = [("human", lambda: _("A friend"))]
                kinds += [(kind, partial(kind_label, kind)) for kind in KINDS[1:]]
                # A hosted table is for friends: every other seat starts open to one.
                self.choices.seats[seat].kind = "human"
                self.kind_choices[seat].set_options(kinds, "human")
        seat_widgets: list[Widget] = []
        for field_, kind in zip(self.name_inputs, self.kind_choices, strict=True):
            seat_widgets += [field_, kind]
        self.group = WidgetGroup(
            [*self.option_rows, *seat_widgets, self.back_button, self.start_button]
        )
        self.group.focus_widget(self.start_button)
        # The ring shows on Start from the first frame: Enter starts, Tab goes round to the
        # first control.
        self.group.keyboard_focus = True
        self.fields = self.name_inputs
        # Layout boxes
        self.left_panel = pygame.Rect(0, 0, 1, 1)
        self.right_panel = pygame.Rect(0, 0, 1, 1)
        self.game_heading = pygame.Rect(0, 0, 1, 1)
        self.players_heading = pygame.Rect(0, 0, 1, 1)
        self.help_box = pygame.Rect(0, 0, 1, 1)
        self.diagram_box = pygame.Rect(0, 0, 1, 1)
        self.seat_badges: list[pygame.Rect] = [pygame.Rect(0, 0, 1, 1)] * MAX_SEATS
        self.refresh()

    # ------------------------------------------------------------------ choices

    @property
    def rules(self) -> Rules:
        return self.choices.rules()

    def button(self, name: str) -> Widget:
        return next(w for w in self.group.widgets if getattr(w, "name", "") == name)

    def set_preset(self, preset: str) -> None:
        self.choices.preset = preset
        self.refresh()

    def set_option(self, key: str, value: Any) -> None:
        setattr(self.choices, key, value)
        self.refresh()

    def set_match(self, match: str) -> None:
        self.choices.matches[self.choices.preset] = match

    def set_name(self, seat: int, text: str) -> None:
        self.choices.seats[seat].name = text

    def placeholder(self, seat: int) -> str:
        kind = self.choices.seats[seat].kind
        if self.online and kind == "human":
            return _("Your name") if seat == 0 else _("A friend")
        return default_name(seat, kind)

    def set_kind(self, seat: int, kind: str) -> None:
        self.choices.seats[seat].kind = kind

    def refresh(self) -> None:
        """Enable the options the configuration allows and show the seats it has."""
        preset = self.choices.preset
        self.preset_choice.set_value(preset)
        rows: list[tuple[OptionChoice, str, Any, Any]] = [
            (self.swap_choice, "swap", True, self.choices.swap),
            (self.three_choice, "three_as_three", True, self.choices.three_as_three),
            (self.partners_choice, "partners_see", "start", self.choices.partners_see),
            (self.signals_choice, "signals", "partner", self.choices.signals),
        ]
        for widget, key, probe, value in rows:
            widget.enabled = allowed(preset, **{key: probe})
            widget.set_value(value)
        matches = match_options(preset)
        self.match_choice.set_options(
            [(match, partial(match_label, match)) for match in matches],
            self.choices.match(),
        )
        self.match_choice.enabled = len(matches) > 1
        players = PRESETS[preset].players
        for seat in range(MAX_SEATS):
            visible = seat < players
            self.name_inputs[seat].visible = visible
            self.kind_choices[seat].visible = visible
        focused = self.group.focused
        if focused is not None and not (focused.visible and focused.enabled):
            self.group.focus_widget(self.preset_choice)
        self.on_resize(self.app.size)

    # ------------------------------------------------------------------ actions

    def remember(self) -> None:
        doc = self.choices.to_json()
        kept = dict(self.app.settings.new_game or {}).get("seats")
        if self.online:
            # The host's name is kept; the other seats of a hosted table (friends) are not
            # those of a game on this computer.
            doc["seats"] = doc["seats"][:1] + (kept[1:] if isinstance(kept, list) else [])
        self.app.settings.new_game = doc
        self.app.save_settings()

    def back(self) -> None:
        self.remember()
        self.app.pop()

    def setup(self) -> GameSetup:
        return self.choices.setup()

    def start(self) -> None:
        setup = self.setup()
        self.remember()
        if self.online:
            seats = [
                {"kind": "human"} if seat.human else online_bot(index, seat)
                for index, seat in enumerate(setup.seats)
            ]
            public = {} if self.public is None else {"url": self.public, "key": self.key}
            self.app.open("online_host", mode="replace", rules=setup.rules, seats=seats, **public)
            return
        self.app.open("table", mode="replace", setup=setup)

    # ------------------------------------------------------------------ layout

    def on_resize(self, size: tuple[int, int]) -> None:
        frame = self.page_frame(size, 1240, scrolls=True, columns=True)
        px = self.px
        button_h, top = frame.button_h, frame.body.y
        left, total_w = frame.body.x, frame.body.width
        self.left_panel, self.right_panel = frame.columns(px(18))
        pad = px(16)
        row_h, row_gap = px(38), px(9)
        # Left: the game and its options, then the configuration's description.
        x = self.left_panel.x + pad
        inner_w = self.left_panel.width - 2 * pad
        self.game_heading = pygame.Rect(x, top + px(10), inner_w, px(32))
        y = self.game_heading.bottom + px(8)
        for widget in self.option_rows:
            widget.rect = pygame.Rect(x, y, inner_w, row_h)
            y += row_h + row_gap
        self.help_box = pygame.Rect(
            x + px(8), y + px(6), inner_w - px(16), self.left_panel.bottom - y - px(16)
        )
        # Right: one row per seat, then the table diagram.
        x = self.right_panel.x + pad
        inner_w = self.right_panel.width - 2 * pad
        self.players_heading = pygame.Rect(x, self.right_panel.y + px(10), inner_w, px(32))
        y = self.players_heading.bottom + px(8)
        badge = px(30)
        name_w = int((inner_w - badge - px(20)) * 0.47)
        kind_w = inner_w - badge - px(20) - name_w
        players = PRESETS[self.choices.preset].players
        badges = []
        for seat in range(MAX_SEATS):
            badges.append(pygame.Rect(x, y + (row_h - badge) // 2, badge, badge))
            self.name_inputs[seat].rect = pygame.Rect(x + badge + px(10), y, name_w, row_h)
            self.kind_choices[seat].rect = pygame.Rect(
                x + badge + px(20) + name_w, y, kind_w, row_h
            )
            if seat < players:
                y += row_h + row_gap
        self.seat_badges = badges
        space = pygame.Rect(x, y + px(4), inner_w, self.right_panel.bottom - y - px(14))
        height = min(space.height, px(250))
        self.diagram_box = pygame.Rect(0, 0, space.width, height)
        self.diagram_box.center = space.center
        # Buttons
        bw = px(210)
        by = frame.buttons_y
        self.back_button.rect = pygame.Rect(left, by, bw, button_h)
        self.start_button.rect = pygame.Rect(left + total_w - bw, by, bw, button_h)

    # ------------------------------------------------------------------ events

    def next_frame_in(self) -> float | None:
        if self._typing is None:
            return None  # still until input
        return (BLINK_MS - pygame.time.get_ticks() % BLINK_MS) / 1000  # the caret's blink

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        theme = app.theme
        px = self.px
        painter = self.painter
        title = _("Host a table") if self.online else _("New game")
        if self.public is not None:
            title = _("Create a public table")
        self.draw_page(surface, title, self.left_panel, self.right_panel)
        painter.fit(surface, _("Game"), self.game_heading, px(24), theme.accent, bold=True)
        painter.fit(surface, _("Players"), self.players_heading, px(24), theme.accent, bold=True)
        rules = self.rules
        self._draw_help(surface, rules)
        for seat in range(rules.players):
            self._draw_badge(surface, self.seat_badges[seat], seat, rules)
        self.group.draw(surface, app.assets, theme)
        self._draw_diagram(surface, self.diagram_box, rules)

    def _draw_help(self, surface: pygame.Surface, rules: Rules) -> None:
        """The configuration's description, then its rules as a bullet list."""
        theme = self.app.theme
        px = self.px
        box = self.help_box
        used = self.painter.paragraph(surface, preset_help(rules.name), box, px(18), theme.text)
        y = box.y + used + px(10)
        indent = px(18)
        for fact in rule_facts(rules):
            room = pygame.Rect(box.x + indent, y, box.width - indent, box.bottom - y)
            if room.height < px(16):
                break
            size = self.painter.layout(fact, room, px(16))[1]
            line_h = self.app.assets.font(size).get_linesize()
            dot_y = y + line_h // 2
            pygame.draw.circle(surface, theme.accent, (box.x + px(6), dot_y), max(2, px(3)))
            y += self.painter.paragraph(surface, fact, room, px(16), theme.dim) + px(4)

    def seat_colour(self, seat: int, rules: Rules) -> tuple[int, int, int]:
        """Team colours (seats of the same parity play together in 4 and 6 player games),
        the same as at the table."""
        theme = self.app.theme
        return theme.teams[seat % 2] if rules.teams else theme.seat

    def _draw_badge(
        self, surface: pygame.Surface, rect: pygame.Rect, seat: int, rules: Rules
    ) -> None:
        colour = self.seat_colour(seat, rules)
        pygame.draw.circle(surface, colour, rect.center, rect.width // 2)
        pygame.draw.circle(surface, (20, 20, 20), rect.center, rect.width // 2, 1)
        box = rect.inflate(-4, -4)
        self.painter.fit(
            surface, str(seat + 1), box, int(rect.height * 0.6), (20, 24, 20), True, "center"
        )

    def _draw_diagram(self, surface: pygame.Surface, box: pygame.Rect, rules: Rules) -> None:
        """The seats around the table: seat 1 at the bottom, play going counterclockwise."""
        theme = self.app.theme
        px = self.px
        n = rules.players
        label_h = px(20)
        radius = max(8, min(px(17), box.height // 9))
        table = pygame.Rect(0, 0, int(box.width * 0.42), int((box.height - 2 * label_h) * 0.52))
        table.center = box.center
        felt = (16, 70, 40) if not self.app.settings.high_contrast else (0, 0, 0)
        pygame.draw.ellipse(surface, felt, table)
        pygame.draw.ellipse(surface, theme.accent, table, max(2, px(3)))
        draw_turn_arrow(surface, table, theme.dim, self.px)
        label_w = int(min(px(130), box.width * 0.24))
        table.width = min(table.width, int(box.width - 2 * (label_w + radius * 2.4 + px(10))))
        table.centerx = box.centerx
        rx = table.width / 2 + radius * 1.2
        ry = table.height / 2 + radius * 1.2
        for seat in range(n):
            cx, cy = seat_position(seat, n, table.center, rx, ry)
            colour = self.seat_colour(seat, rules)
            centre = (round(cx), round(cy))
            pygame.draw.circle(surface, (0, 0, 0), (centre[0] + 2, centre[1] + 3), radius)
            pygame.draw.circle(surface, colour, centre, radius)
            choice = self.choices.seats[seat]
            if choice.kind == "human":
                pygame.draw.circle(surface, theme.accent, centre, radius, max(2, px(3)))
            number = pygame.Rect(0, 0, radius * 2 - 4, radius * 2 - 4)
            number.center = centre
            self.painter.fit(
                surface, str(seat + 1), number, int(radius * 1.1), (20, 24, 20), True, "center"
            )
            name = clean_name(choice.name) or default_name(seat, choice.kind)
            if self.online and seat > 0:
                name = self.placeholder(seat)
            label = pygame.Rect(0, 0, label_w, label_h)
            sx, sy = (cx - table.centerx) / rx, (cy - table.centery) / ry
            if abs(sy) > 0.6:  # top or bottom: label beyond the circle, centred
                label.centerx = centre[0]
                if sy > 0:
                    label.top = centre[1] + radius + px(2)
                else:
                    label.bottom = centre[1] - radius - px(2)
                align = "center"
            elif sx > 0:  # right side
                label.midleft = (centre[0] + radius + px(6), centre[1])
                align = "left"
            else:
                label.midright = (centre[0] - radius - px(6), centre[1])
                align = "right"
            self.painter.fit(
                surface, name, label, px(17), theme.text, choice.kind == "human", align, shadow=True
            )
