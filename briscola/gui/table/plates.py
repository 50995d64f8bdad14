"""Name plates, the piles' points and the information panel: the chrome that changes seldom.

Each plate, each pile's tag and each line of the panel is a
:data:`~briscola.gui.render.damage.Piece`: first a plan (every value its drawing depends on:
text, size, place, colours), which is also its key, then a drawing made from the plan alone.
A frame whose plan for a piece is the last frame's, and in which nothing touches it, leaves
the piece as it was.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import pygame

from briscola.engine import PlayerView
from briscola.game.session import SeatInfo, moved_on
from briscola.gui.render.assets import CARD_RATIO, Assets
from briscola.gui.render.damage import Piece
from briscola.gui.widgets import fit_text, rounded
from briscola.text.i18n import _, ngettext, pgettext
from briscola.text.labels import bid_label, means_you
from briscola.text.names import suit_name

if TYPE_CHECKING:
    from briscola.gui.table.painter import TablePainter

#: Seconds a computer must think before "thinking..." shows under its name.
THINKING_CUE = 0.6

Colour = tuple[int, int, int]


class Plate(NamedTuple):
    """What a seat's name plate shows, and where."""

    text: str
    size: int
    centre: tuple[int, int]
    alpha: int
    colour: Colour
    glow: tuple[int, ...] | None  # the turn's marker, at this frame's pulse
    dealer: str | None  # the dealer's button
    thinking: str | None  # "thinking..." with this frame's dots
    above: bool  # "thinking..." above the plate (the bottom seat: its cards lie below)
    scale: int  # the table's text scale (px(100))


class Line(NamedTuple):
    """A line of the information panel, and where it ends."""

    text: str
    size: int
    bold: bool
    colour: Colour
    topright: tuple[int, int]
    scale: int


class Tag(NamedTuple):
    """The points of a pile, on a tag centred on ``centre``."""

    text: str
    size: int
    centre: tuple[int, int]
    scale: int


def plate_name(info: SeatInfo) -> str:
    """The name on a seat's plate, with the rating of a rated table's player; the default
    name of the player at the screen in the language in use (a game begun in English and
    shown in Italian says "Tu", not "You")."""
    name = _("You") if means_you(info.name) else info.name
    return name if info.rating is None else f"{name} ({info.rating})"


def label_pieces(painter: TablePainter, turn: int | None, pulsing: bool) -> list[Piece]:
    """The name plates (see :func:`plate_pieces`), then who played each card of a large
    table's trick (drawn every frame) and the piles' points."""
    seen = painter.session.view()
    pieces = plate_pieces(painter, turn, pulsing, seen)
    if painter.board.n >= 5:
        names = painter.marked(lambda surface: painter.draw_trick_names(surface, seen))
        pieces.append(("trick names", None, names))
    if painter.app.settings.show_score:
        pieces += pile_pieces(painter, seen)
    return pieces


def draw_labels(
    painter: TablePainter, surface: pygame.Surface, turn: int | None, pulsing: bool
) -> None:
    """The name plates and tags of :func:`label_pieces`, drawn at once (a whole frame)."""
    for _name, _key, draw in label_pieces(painter, turn, pulsing):
        draw(surface)


def plate_pieces(
    painter: TablePainter, turn: int | None, pulsing: bool, seen: PlayerView
) -> list[Piece]:
    """The seats' name plates (``turn``'s glows, and pulses while ``pulsing``), with the
    dealer's button and "thinking..." under a computer that takes its time (``seen``: the
    viewer's view, which says who called in Chiamata)."""
    app = painter.app
    board = painter.board
    lay = board.layout
    theme = app.theme
    px = painter.px
    rules = board.rules
    thinking = painter.session.thinking()
    dots = "..." if app.settings.reduce_motion else "." * (1 + int(painter.captions.t * 3) % 3)
    pieces: list[Piece] = []
    gone_on = moved_on(painter.session)  # the last hand's caller and dealer are not shown
    caller = None if gone_on else seen.caller
    for seat in range(board.n):
        spot = lay.spots[board.screen_index(seat)]
        info = painter.session.seats[seat]
        parts = [plate_name(info)]
        if rules.chiamata and seat == caller:
            parts.append(_("caller"))
        if rules.chiamata and seat == board.revealed_partner and seat != caller:
            parts.append(_("partner"))
        text = " · ".join(parts)
        glow: tuple[int, ...] | None = None
        if seat == turn:
            pulse = 0.5 + 0.5 * math.sin(painter.captions.t * 5) if pulsing else 1.0
            glow = tuple(int(c * (0.6 + 0.4 * pulse)) for c in theme.focus)
        thinks = (
            thinking is not None
            and thinking[0] == seat
            and time.monotonic() - thinking[1] > THINKING_CUE
        )
        plate = Plate(
            text=text,
            size=fit_text(app.assets, text, lay.font, int(lay.w * 0.22), bold=True),
            centre=(round(spot.label[0]), round(spot.label[1])),
            alpha=230 if seat == turn else 170,
            colour=painter.seat_colour(seat, seen),
            glow=glow,
            # Translators: the dealer's button beside a name: one letter.
            dealer=pgettext("dealer", "D")
            if painter.session.dealer == seat and not gone_on
            else None,
            thinking=_("thinking") + dots if thinks else None,
            above=board.screen_index(seat) == 0,
            scale=px(100),
        )
        pieces.append((("plate", seat), plate, functools.partial(_draw_plate, painter, plate)))
    return pieces


def _plate_boxes(label: pygame.Rect, px: Callable[[float], int]) -> tuple[pygame.Rect, pygame.Rect]:
    """A name plate around its ``label``, and the plate with the turn's glow around it."""
    plate = label.inflate(px(22), px(8))
    return plate, plate.inflate(px(6) + 2, px(6) + 2)


def plate_reach(assets: Assets, font: int, px: Callable[[float], int]) -> int:
    """How far a name plate in ``font`` (the layout's), with the turn's glow, reaches above
    and below its centre (as :func:`_draw_plate` draws it; a name shrunk to fit reaches
    less)."""
    label = pygame.Rect(0, 0, 1, assets.font(font, True).get_height())
    return -(-_plate_boxes(label, px)[1].height // 2)


def _draw_plate(painter: TablePainter, plan: Plate, surface: pygame.Surface) -> list[pygame.Rect]:
    app = painter.app
    theme = app.theme
    px = painter.px
    label = app.assets.text(plan.text, plan.size, theme.text, bold=True)
    rect = label.get_rect(center=plan.centre)
    plate, glowing = _plate_boxes(rect, px)
    drawn = [glowing]  # with the turn's glow
    surface.blit(rounded(plate.size, (*theme.chip, plan.alpha), plate.h // 2), plate)
    pygame.draw.rect(surface, plan.colour, plate, width=max(2, px(2)), border_radius=plate.h // 2)
    if plan.glow is not None:
        pygame.draw.rect(
            surface,
            plan.glow,
            plate.inflate(px(6), px(6)),
            width=max(2, px(2)),
            border_radius=plate.h // 2 + px(3),
        )
    surface.blit(label, rect)
    if plan.dealer is not None:
        size = max(10, int(painter.board.layout.font * 0.8))
        d = app.assets.text(plan.dealer, size, theme.token_ink, bold=True)
        centre = (plate.right + px(14), plate.centery)
        drawn.append(pygame.draw.circle(surface, theme.token, centre, px(11)))
        drawn.append(d.get_rect(center=centre))
        surface.blit(d, drawn[-1])
    if plan.thinking is not None:
        think = app.assets.text(plan.thinking, px(15), theme.dim)
        if plan.above:
            drawn.append(think.get_rect(midbottom=(plate.centerx, plate.top - px(4))))
        else:
            drawn.append(think.get_rect(midtop=(plate.centerx, plate.bottom + px(4))))
        surface.blit(think, drawn[-1])
    return drawn


def pile_pieces(painter: TablePainter, seen: PlayerView) -> list[Piece]:
    """The points of each pile taken so far, on a tag by it."""
    app = painter.app
    px = painter.px
    board = painter.board
    lay = board.layout
    shown = seen.tricks[: board.shown_tricks()]
    pieces: list[Piece] = []
    for key, pile in board.piles.items():
        if not pile:
            continue
        points = sum(t.points for t in shown if board.pile_key(t.winner) == key)
        x, y = board.pile_spot(key)
        words = _("{points} pts").format(points=points)
        text = app.assets.text(words, px(16), app.theme.accent, bold=True)
        pos = (round(x), round(y + lay.pile_w * CARD_RATIO * 0.5 + px(12)))
        if board.over_a_hand(text.get_rect(center=pos)):  # a side seat's pile
            pos = (round(x), round(y - lay.pile_w * CARD_RATIO * 0.5 - px(16)))
        tag = Tag(words, px(16), pos, px(100))
        pieces.append((("pile", key), tag, functools.partial(_draw_pile_tag, painter, tag)))
    return pieces


def _draw_pile_tag(painter: TablePainter, plan: Tag, surface: pygame.Surface) -> list[pygame.Rect]:
    app = painter.app
    px = painter.px
    text = app.assets.text(plan.text, plan.size, app.theme.accent, bold=True)
    back = text.get_rect(center=plan.centre).inflate(px(10), px(4))
    panel = pygame.Surface(back.size, pygame.SRCALPHA)
    radius = back.h // 2
    pygame.draw.rect(panel, (*app.theme.shade, 140), panel.get_rect(), border_radius=radius)
    surface.blit(panel, back)
    surface.blit(text, text.get_rect(center=plan.centre))
    return [back]


def info_pieces(painter: TablePainter, turn: int | None) -> list[Piece]:
    """Top right: match and hand information, a piece a line."""
    app = painter.app
    px = painter.px
    theme = app.theme
    session = painter.session
    lines = _info_lines(painter, turn, session.view())
    y = px(10)
    right = app.size[0] - px(14)
    pieces: list[Piece] = []
    for i, text in enumerate(lines):
        # Narrower where a seat's hand comes close to the corner (many seats, large text).
        line_h = app.assets.font(px(18), True).get_linesize()
        room = right - painter.board.cards_right_of(pygame.Rect(0, y, right, line_h)) - px(14)
        size = max(10, fit_text(app.assets, text, px(17 if i else 18), room, bold=i == 0))
        colour = theme.accent if i else theme.text
        line = Line(text, size, i == 0, colour, (right, y), px(100))
        pieces.append((("info", i), line, functools.partial(_draw_line, painter, line)))
        _text, _rect, back = _line_box(painter, line)
        y = back.bottom + px(4)
    return pieces


def _info_lines(painter: TablePainter, turn: int | None, seen: PlayerView) -> list[str]:
    rules = painter.board.rules
    session = painter.session
    lines = [match_line(painter)]
    trump = painter.board.shown_trump
    if not rules.trump:
        lines.append(_("No trump"))
    elif trump is not None:
        lines.append(_("Trump: {suit}").format(suit=suit_name(trump, painter.style)))
    elif rules.chiamata:
        lines.append(_("Trump: not called yet"))
    if not session.hand_over:
        if turn is not None:
            hot_seat = sum(session.plays_here(s) for s in range(len(session.seats))) > 1
            if painter.is_player(turn) and not hot_seat:  # hot seat: the name says whose
                lines.append(_("Your turn"))
            else:
                lines.append(_("{name} to play").format(name=session.seats[turn].name))
        if rules.chiamata and seen.high_bid is not None and seen.phase != "over":
            lines.append(_("Bid: {bid}").format(bid=bid_label(seen.high_bid, painter.style)))
    watchers = session.news().watchers  # (a public table online: spectators)
    if watchers:
        lines.append(ngettext("{n} watching", "{n} watching", watchers).format(n=watchers))
    return lines


def _line_box(painter: TablePainter, plan: Line) -> tuple[pygame.Surface, pygame.Rect, pygame.Rect]:
    """A line's text, where it goes and its back."""
    text = painter.app.assets.text(plan.text, plan.size, plan.colour, bold=plan.bold)
    rect = text.get_rect(topright=plan.topright)
    return text, rect, rect.inflate(painter.px(14), painter.px(6))


def _draw_line(painter: TablePainter, plan: Line, surface: pygame.Surface) -> list[pygame.Rect]:
    text, rect, back = _line_box(painter, plan)
    surface.blit(rounded(back.size, (*painter.app.theme.shade, 120), painter.px(6)), back)
    surface.blit(text, rect)
    return [back]


def match_line(painter: TablePainter) -> str:
    """The match's format and standing ("Hand 2 · best of 3 · 1 – 0")."""
    fmt = painter.board.rules.match
    number = painter.session.hand_number
    if fmt.kind == "single":
        return _("Single hand")
    standing = " – ".join(str(v) for v in painter.session.standing)
    if fmt.kind == "best-of":
        head = _("Hand {n} · best of {target}").format(n=number, target=fmt.target)
    elif fmt.kind == "first-to":
        head = _("Hand {n} · first to {target}").format(n=number, target=fmt.target)
    elif fmt.kind == "points":
        head = _("Hand {n} · to {target} points").format(n=number, target=fmt.target)
    else:
        head = _("Hand {n} of {target}").format(n=number, target=fmt.target)
    return f"{head} · {standing}"
