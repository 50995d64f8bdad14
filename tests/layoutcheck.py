"""Layout checks for headless renders: every text the scenes draw, where it lands, and whether
it fits its widget, its box, its panel and the window (tests/text/test_i18n.py and
tests/gui/test_accessibility.py render every scene in every language and with every display
option and ask :func:`problems`).

How: the App's :class:`Assets` remembers each text image it renders (so an image blitted
later is known to be the text ``"..."`` at size ``n``); the scenes draw onto a
:class:`RecordingSurface` that remembers every blit with the clipping rectangle in force;
``draw_panel`` is wrapped to remember the panels each scene draws.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pygame
from guihelp import run_until

from briscola.engine import Bid, Match, Rules, to_record
from briscola.game.summary import HandSummary
from briscola.gui.app import App
from briscola.gui.scene import Scene
from briscola.gui.scenes.newgame import TextInput
from briscola.gui.scenes.rules import MIN_TEXT, SectionButton
from briscola.gui.widgets import Button, Choice, Slider, Widget, WidgetGroup, fit_text
from briscola.text.i18n import parse_po

#: Modules whose ``draw_panel`` is watched.
PANEL_MODULES = (
    "briscola.gui.widgets.page",
    "briscola.gui.widgets.draw",  # (the dialogs and solid panels over the table)
    "briscola.gui.scenes.replay",
    "briscola.gui.scenes.rules",
    "briscola.gui.scenes.score",
    "briscola.gui.table.painter",
)


@dataclass
class Drawn:
    """One text image blitted onto the window."""

    scene: str
    text: str
    size: int
    bold: bool
    rect: pygame.Rect
    clip: pygame.Rect
    #: A veil over the whole window was drawn on it later (a modal dialog's backdrop).
    veiled: bool = False


@dataclass
class Record:
    """What a render drew: texts and panels, per scene."""

    size: tuple[int, int]
    texts: list[Drawn] = field(default_factory=list)
    #: Panels per scene, each with the number of texts drawn before it (texts drawn earlier
    #: lie under the panel, such as the table under a banner, and are not checked against it).
    panels: dict[str, list[tuple[int, pygame.Rect]]] = field(default_factory=dict)


class RecordingSurface(pygame.Surface):
    """A window-sized surface that remembers where text images land."""

    def __init__(self, size: tuple[int, int], images: dict[int, tuple[Any, str, int, bool]]):
        super().__init__(size)
        self.images = images
        self.record = Record(size)
        self.scene = ""

    def blit(
        self,
        source: pygame.Surface,
        dest: Any = (0, 0),
        area: Any = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        if source.get_size() == self.get_size() and area is None:
            for drawn in self.record.texts:  # a veil: what lies under it is not checked
                drawn.veiled = drawn.veiled or drawn.scene == self.scene
        known = self.images.get(id(source))
        if known is not None and known[0] is source:
            _image, text, size, bold = known
            if isinstance(dest, pygame.Rect):
                topleft = dest.topleft
            else:
                topleft = (round(dest[0]), round(dest[1]))
            width, height = source.get_size() if area is None else pygame.Rect(area).size
            self.record.texts.append(
                Drawn(
                    self.scene,
                    text,
                    size,
                    bold,
                    pygame.Rect(topleft, (width, height)),
                    self.get_clip(),
                )
            )
        return super().blit(source, dest, area, special_flags)

    def fill(self, color: Any, rect: Any = None, special_flags: int = 0) -> pygame.Rect:
        if rect is None and special_flags:  # a veil made in place (widgets.darken)
            for drawn in self.record.texts:
                drawn.veiled = drawn.veiled or drawn.scene == self.scene
        return super().fill(color, rect, special_flags)


class TextImage(pygame.Surface):
    """A text image whose copies (faded for an animation) are known as the same text."""

    def copy(self) -> TextImage:
        twin = TextImage(self.get_size(), pygame.SRCALPHA)
        twin.blit(self, (0, 0))
        twin.known = self.known  # type: ignore[attr-defined]
        _image, message, size, bold = self.known  # type: ignore[attr-defined]
        self.known_in[id(twin)] = (twin, message, size, bold)  # type: ignore[attr-defined]
        twin.known_in = self.known_in  # type: ignore[attr-defined]
        return twin


@contextlib.contextmanager
def recording(app: App, copies: bool = False) -> Iterator[dict[int, tuple[Any, str, int, bool]]]:
    """Remember every text image the App's assets render while inside; with ``copies``,
    also the copies made of them (a label faded as it floats)."""
    images: dict[int, tuple[Any, str, int, bool]] = {}
    assets = app.assets
    original = assets.text

    def text(
        message: str, size: int, colour: Any = (240, 240, 230), bold: bool = False
    ) -> pygame.Surface:
        image = original(message, size, colour, bold)
        if copies:
            tracked = TextImage(image.get_size(), pygame.SRCALPHA)
            tracked.blit(image, (0, 0))
            tracked.known = (tracked, message, int(size), bold)  # type: ignore[attr-defined]
            tracked.known_in = images  # type: ignore[attr-defined]
            image = tracked
        images[id(image)] = (image, message, int(size), bold)
        return image

    assets.text = text  # type: ignore[method-assign, assignment]
    try:
        yield images
    finally:
        del assets.text  # back to the class's method


def render(app: App, images: dict[int, tuple[Any, str, int, bool]]) -> RecordingSurface:
    """Draw the scene stack as the App does, onto a recording surface."""
    surface = RecordingSurface(app.size, images)
    stack = app.scenes
    start = len(stack) - 1
    while start > 0 and not stack[start].opaque:
        start -= 1
    panels = surface.record.panels
    saved: dict[str, Callable[..., None]] = {}
    modules = [importlib.import_module(m) for m in PANEL_MODULES]

    def watch(original: Callable[..., None]) -> Callable[..., None]:
        def draw_panel(target: pygame.Surface, rect: pygame.Rect, *args: Any, **kw: Any) -> None:
            if target is surface:
                count = len(surface.record.texts)
                panels.setdefault(surface.scene, []).append((count, pygame.Rect(rect)))
            original(target, rect, *args, **kw)

        return draw_panel

    for module in modules:
        saved[module.__name__] = module.draw_panel
        module.draw_panel = watch(module.draw_panel)  # type: ignore[attr-defined]
    try:
        for scene in stack[max(0, start) :]:
            surface.scene = type(scene).__name__
            scene.draw(surface)
        surface.scene = "notices"
        app._draw_notices(surface)
    finally:
        for module in modules:
            module.draw_panel = saved[module.__name__]  # type: ignore[attr-defined]
    return surface


# ---------------------------------------------------------------------- checks


def text_fits(app: App, text: str, size: int, width: int, bold: bool) -> bool:
    return bool(app.assets.font(size, bold).size(text)[0] <= width)


def widget_problems(app: App, widget: Widget) -> list[str]:
    """Text of a widget that does not fit its rectangle, or is too small to read."""
    assets = app.assets
    problems: list[str] = []

    def check(text: str, nominal: int, width: int, bold: bool) -> None:
        if not text:
            return
        size = fit_text(assets, text, nominal, width, bold)
        if not text_fits(app, text, size, width, bold) or size < MIN_TEXT:
            problems.append(f"{type(widget).__name__} {text!r}: {size}px in {width}px")

    rect = widget.rect
    if isinstance(widget, SectionButton):
        lines, size = widget.lines(assets)
        for line in lines:
            check(line, size, rect.width - 2 * widget.pad(), True)
        if len(lines) * assets.font(size, True).get_linesize() > rect.height:
            problems.append(f"{lines} taller than {rect}")
    elif isinstance(widget, Choice):
        if widget.show_label:
            check(widget.label(), int(rect.height * 0.46), widget.label_box().width, False)
        check(widget.shown(), int(rect.height * 0.44), widget.value_box().width, widget.enabled)
    elif isinstance(widget, Button):
        check(widget.label(), int(rect.height * 0.45), rect.width - 16, True)
    elif isinstance(widget, TextInput):
        text = widget.text or widget.placeholder()
        check(text, int(rect.height * 0.46), widget.text_box().width, True)
    elif isinstance(widget, Slider):
        label = f"{widget.label()}  {round(widget.value * 100)}%"
        check(label, int(rect.height * 0.46), widget._track().x - rect.x - 20, False)
    return problems


def scene_widgets(scene: Scene) -> list[Widget]:
    """The visible widgets of a scene (every widget group it holds)."""
    found: list[Widget] = []
    for value in vars(scene).values():
        if isinstance(value, WidgetGroup):
            found += [w for w in value.widgets if w.visible]
    if getattr(scene, "confirming", False) is False and hasattr(scene, "dialog_group"):
        dialog = getattr(scene, "dialog_group")  # noqa: B009 (only some scenes have one)
        found = [w for w in found if w not in dialog.widgets]
    unique: list[Widget] = []
    for widget in found:
        if widget not in unique:
            unique.append(widget)
    return unique


def _straddles(inner: pygame.Rect, outer: pygame.Rect, slack: int = 1) -> bool:
    """``inner`` is neither inside ``outer`` nor apart from it."""
    if outer.inflate(2 * slack, 2 * slack).contains(inner):
        return False
    return bool(inner.clip(outer).width > slack and inner.clip(outer).height > slack)


def problems(app: App, record: Record, scenes: list[Scene] | None = None) -> list[str]:
    """Everything that overflows: text outside the window, its clip, its widget or a panel,
    text too small to read, widgets outside the window or across a panel's edge, painter
    boxes whose text does not fit, text over another widget."""
    width, height = record.size
    screen = pygame.Rect(0, 0, width, height)
    found: list[str] = []
    scenes = scenes if scenes is not None else app.scenes[-1:]
    names = {type(scene).__name__ for scene in scenes}
    widgets_of = {type(scene).__name__: scene_widgets(scene) for scene in scenes}
    for index, drawn in enumerate(record.texts):
        if drawn.scene not in names and drawn.scene != "notices":
            continue
        visible = drawn.rect.clip(drawn.clip)
        if visible.width <= 1 or visible.height <= 1:
            continue  # scrolled out of its view
        where = f"{drawn.scene}: {drawn.text!r}"
        if not screen.inflate(2, 2).contains(visible):
            found.append(f"{where} leaves the window: {drawn.rect}")
        if drawn.size < MIN_TEXT:
            found.append(f"{where} drawn at {drawn.size}px")
        if drawn.veiled:
            continue
        for before, panel in record.panels.get(drawn.scene, []):
            if before <= index and _straddles(visible, panel):
                found.append(f"{where} {drawn.rect} crosses the edge of the panel {panel}")
        for widget in widgets_of.get(drawn.scene, []):
            if _straddles(visible, widget.rect, slack=2):
                label = getattr(widget, "label", None)
                name = label() if callable(label) else type(widget).__name__
                found.append(f"{where} {drawn.rect} overlaps the widget {name!r} {widget.rect}")
    for scene in scenes:
        if type(scene).__name__ == "TableScene":
            found += card_overlaps(record, scene)
    for scene in scenes:
        tag = type(scene).__name__
        for widget in widgets_of[tag]:
            found += [f"{tag}: {p}" for p in widget_problems(app, widget)]
            page = getattr(scene, "page_bounds", None)  # a page that scrolls: its whole height
            if not (page() if callable(page) else screen).contains(widget.rect):
                found.append(f"{tag}: {widget} leaves the window: {widget.rect}")
            for _before, panel in record.panels.get(tag, []):
                if _straddles(widget.rect, panel):
                    found.append(f"{tag}: {widget} {widget.rect} crosses the panel {panel}")
        painter = getattr(scene, "painter", None)
        for drawn_box in getattr(painter, "drawn", []):
            if not text_fits(
                app, drawn_box.text, drawn_box.size, drawn_box.box.width + 1, drawn_box.bold
            ):
                found.append(f"{tag}: {drawn_box.text!r} overflows {drawn_box.box}")
    return list(dict.fromkeys(found))


def card_overlaps(record: Record, table: Any) -> list[str]:
    """Texts of the table drawn over cards (names, information, counts): unreadable cards or
    unreadable text. Speech bubbles and banners may cover cards for a moment; while a panel
    (auction, last trick) is up, what it covers is not checked."""
    if table.privacy is not None:
        return []  # the privacy screen covers the table
    sprites = [s for s, _shadow in table.board.draw_order()]
    bubbles = {label() for label, _until in table.captions.bubbles.values()}
    found = []
    for index, drawn in enumerate(record.texts):
        if drawn.scene != "TableScene" or drawn.veiled:
            continue
        if any(before <= index for before, _p in record.panels.get("TableScene", [])):
            continue  # a banner or a panel and what is drawn on it
        if drawn.text in bubbles:
            continue
        rect = drawn.rect.inflate(-2, -2)
        for sprite in sprites:
            if sprite.rect().colliderect(rect):
                found.append(f"TableScene: {drawn.text!r} {drawn.rect} over a card {sprite.rect()}")
                break
    return found


def check_scene(app: App, language: str | None = None) -> list[str]:
    """Render the stack and report the top scene's problems (and the notices'); with
    ``language``, also the texts drawn in another language."""
    with recording(app) as images:
        surface = render(app, images)
    found = problems(app, surface.record)
    if language is not None:
        found += stale_texts(surface.record, language)
    return found


# ---------------------------------------------------------------------- scenes to check


def make_summary(
    preset: str = "classic2", seed: int = 3, viewer: int | None = 0, hands: int = 1, **opts: Any
) -> HandSummary:
    """Play ``hands`` hands of a match at random and summarise the last one."""
    names = ["You", "Anna", "Bruno", "Carla", "Dario", "Elena"]
    rules = Rules.preset(preset, **opts)
    match = Match(rules)
    rng = random.Random(seed)
    for _hand in range(hands):
        state = match.new_hand(rng)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        match.finish_hand(state)
        if match.is_over():
            break
    result = state.outcome()
    piles = [[card for seat in side for card in state.piles[seat]] for side in result.sides]
    return HandSummary(
        rules=rules,
        names=names[: rules.players],
        result=result,
        piles=piles,
        hand_number=len(match.results),
        standing=list(match.standing),
        match_over=match.is_over(),
        match_winners=match.winners(),
        record=to_record(state),
        bid=state.high_bid,
        caller=state.caller,
        partner=state.partner,
        called=state.called,
        viewer=viewer,
    )


def human_wins_auction(app: App, scene: Any) -> None:
    """Bid the highest possible (Two and 120) when the human's turn comes, so that the call
    controls follow; pass if that bid is gone."""
    while scene.session.state.phase == "auction":
        assert run_until(
            app, lambda: scene.awaiting_human or scene.session.state.phase != "auction"
        )
        if scene.session.state.phase != "auction":
            break
        bids = [a for a in scene.session.state.legal_actions() if isinstance(a, Bid)]
        scene.submit(
            max(bids, key=lambda b: (b.points, -b.rank))
            if bids
            else scene.session.state.legal_actions()[0]
        )


# ---------------------------------------------------------------------- stale text


@functools.lru_cache(maxsize=1)
def _patterns() -> dict[str, list[re.Pattern[str]]]:
    """Per language (English too), a full-match pattern of every message with enough
    words of its own (placeholders match anything)."""
    from tools import i18n as tool

    messages, _problems = tool.extract()
    texts: dict[str, list[str]] = {"en": [m.msgid for m in messages]}
    texts["en"] += [m.msgid_plural for m in messages if m.msgid_plural]
    for language, path in tool.po_files():
        entries = parse_po(path.read_text(encoding="utf-8"))
        texts[language] = [form for e in entries[1:] if e.translated for form in e.msgstr]
    patterns: dict[str, list[re.Pattern[str]]] = {}
    for language, found in texts.items():
        compiled = []
        for text in found:
            parts = re.split(r"\{[^{}]*\}", text)
            if sum(len(part.strip(" .,:;!?()-")) for part in parts) < 4:
                continue  # too little of its own to tell languages apart ("{n} pt", "D")
            compiled.append(re.compile(".+?".join(re.escape(part) for part in parts)))
        patterns[language] = compiled
    return patterns


def stale_texts(record: Record, language: str) -> list[str]:
    """Texts drawn in another language than ``language``: a scene kept a string made
    before the language changed."""
    patterns = _patterns()
    own = patterns.get(language, [])
    found = []
    for drawn in record.texts:
        text = drawn.text
        if any(p.fullmatch(text) for p in own):
            continue
        other = next(
            (
                lang
                for lang, ps in patterns.items()
                if lang != language and any(p.fullmatch(text) for p in ps)
            ),
            None,
        )
        if other is not None:
            found.append(f"{drawn.scene}: {text!r} is in {other}, not {language}")
    return found
