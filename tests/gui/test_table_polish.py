"""The table as a newcomer meets it (issue 15): the called card, the auction explained and
remembered, a five- and six-seat trick that can be read, the keyboard never playing a card
blindly, hot seat asking for a handover only when the player changes, the buttons clear of
the hands."""

from __future__ import annotations

import dataclasses

import pygame
import pytest
from guihelp import key, make_app, run_until, start_table, table_at_my_turn
from scenelist import chiamata_auction, chiamata_call

from briscola.engine import PASS, Bid, Card, Rank, Rules
from briscola.game.setup import GameSetup, SeatConfig, default_setup
from briscola.gui.app import App
from briscola.gui.layout.table import TableLayout
from briscola.gui.render.sprites import CARD_RATIO
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.hud import hand_boxes
from briscola.text import i18n, names


def chiamata_at_1024x600(call: bool) -> tuple[App, TableScene]:
    """A five-seat Chiamata table in a 1024x600 window, at the call or still at the auction."""
    app = make_app((1024, 600))
    scene = chiamata_call(app) if call else chiamata_auction(app)
    assert isinstance(scene, TableScene)
    return app, scene


def hot_seat() -> GameSetup:
    """Anna and Ben at one table for two, both people."""
    seats = [SeatConfig("Anna", True), SeatConfig("Ben", True)]
    return GameSetup(Rules.preset("classic2"), seats, seed=3)


def test_the_called_card_lands_and_no_card_stays_in_the_air() -> None:
    app, scene = chiamata_at_1024x600(call=True)
    app.settings.speed = "normal"
    call = next(w for w in scene.auction.controls.widgets if w.name.startswith("call:"))  # type: ignore[attr-defined]
    call.activate()
    app.step(1 / 60)
    assert not scene.auction.active, "the panel goes as soon as the card is called"
    assert run_until(app, lambda: not scene.busy)
    briscola = scene.board.briscola
    assert briscola is not None and not briscola.air
    assert (round(briscola.x), round(briscola.y)) == tuple(
        round(v) for v in scene.board.layout.stock
    )
    assert not any(sprite.air for sprite, _casts in scene.board.draw_order())
    app.close()


def test_the_auction_is_listed_in_order_and_its_bubbles_stay_until_the_call() -> None:
    app, scene = chiamata_at_1024x600(call=False)
    bid = next(w for w in scene.auction.controls.widgets if w.name == "bid:7")  # type: ignore[attr-defined]
    bid.activate()
    assert run_until(app, lambda: scene.awaiting_human or scene.session.view().phase != "auction")
    seen = scene.session.view()
    assert scene.captions.bids == list(seen.bids) and len(seen.bids) >= 2
    for _frame in range(600):  # ten seconds: the bubbles are still there
        app.step(1 / 60)
    bidders = {seat for seat, _bid in seen.bids if seat != seen.seat}
    assert bidders <= set(scene.captions.bubbles)
    app.close()


def test_the_keyboard_starts_on_a_bid_never_on_minus() -> None:
    app, scene = chiamata_at_1024x600(call=False)
    seen = scene.session.view()
    later = dataclasses.replace(seen, bids=(*seen.bids, (1, Bid(Rank.TWO, 70))))
    points = [Bid(Rank.TWO, p) for p in range(71, 121)]
    scene.auction.refresh(later, [*points, PASS])
    focused = scene.auction.controls.focused
    assert getattr(focused, "name", "") == "bid:points"
    assert len(scene.auction.help_lines()) == 1
    app.close()


def test_another_caller_keeps_its_colour_until_the_partner_is_known() -> None:
    app, scene = chiamata_at_1024x600(call=False)
    seen = scene.session.view()
    caller = (seen.seat + 1) % 5
    called = dataclasses.replace(seen, caller=caller)
    mine = scene.painter.seat_colour(seen.seat, called)
    assert scene.painter.seat_colour(caller, called) != mine
    app.close()


@pytest.mark.parametrize("language", ["en", "it", "de", "es"])
def test_figures_are_named_in_the_language_of_the_numbers(language: str) -> None:
    i18n.set_language(language)
    try:
        for style in ("italian", "piacentine", "siciliane", "spanish"):
            figures = [names.rank_name(r, style) for r in (Rank.JACK, Rank.QUEEN, Rank.KING)]
            if language == "en":
                assert figures == ["Jack", "Knight", "King"], style
            elif language == "it":
                assert figures[1:] == ["Cavallo", "Re"], style
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
@pytest.mark.parametrize("players", [5, 6])
def test_no_card_of_a_full_trick_covers_another(players: int, size: tuple[int, int]) -> None:
    lay = TableLayout(size, players, 1.0, players != 5)
    w, h = lay.trick_w, round(lay.trick_w * 1.6)
    boxes = [pygame.Rect(0, 0, w, h) for _spot in lay.spots]
    for box, spot in zip(boxes, lay.spots, strict=True):
        box.center = (round(spot.trick[0]), round(spot.trick[1]))
    for i, box in enumerate(boxes):
        assert box.collidelist(boxes[i + 1 :]) == -1, f"seat {i}'s card is covered"


def test_after_a_trick_a_blind_enter_plays_nothing() -> None:
    app = make_app()
    setup = default_setup(Rules.preset("classic2"), "easy")
    setup.seed = 11
    scene = start_table(app, setup)
    assert run_until(app, lambda: scene.awaiting_human)
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RETURN)
    assert run_until(app, lambda: scene.awaiting_human)
    assert scene.hand.focused() is None, "no selection shows until a key asks for it"
    before = len(scene.session.view().hand)
    key(app, pygame.K_RETURN)
    assert len(scene.session.view().hand) == before and scene.hand.focused() is not None
    app.close()


def test_hot_seat_asks_for_a_handover_only_when_the_player_changes() -> None:
    app = make_app()
    scene = start_table(app, hot_seat())
    last: int | None = None
    asked = same = 0
    for _frame in range(30000):
        if scene.session.hand_over:
            break
        app.step(1 / 60)
        if scene.privacy is not None:
            asked += 1
            same += scene.privacy == last
            scene.session.reveal()
        elif scene.awaiting_human:
            last = scene.session.shown_seat
            assert scene.painter.is_player(scene.turn_shown or 0)
            scene.submit(scene.session.legal_actions()[0])
    assert asked >= 2 and same == 0
    app.close()


def test_the_turn_line_names_the_hot_seat_player() -> None:
    app = make_app()
    scene = start_table(app, hot_seat())
    assert run_until(app, lambda: scene.privacy is not None)
    scene.session.reveal()
    assert run_until(app, lambda: scene.awaiting_human)
    lines: list[str] = []
    original = app.assets.text

    def spy(text: str, *args: object, **kwargs: object) -> pygame.Surface:
        lines.append(text)
        return original(text, *args, **kwargs)  # type: ignore[arg-type]

    app.assets.text = spy  # type: ignore[method-assign]
    app.step(1 / 60)
    name = scene.session.seats[scene.session.shown_seat or 0].name
    assert f"{name} to play" in lines and "Your turn" not in lines
    app.close()


def test_the_buttons_keep_clear_of_the_hands_at_a_large_ui_scale() -> None:
    app = make_app((1024, 900))
    app.settings.ui_scale = 1.6
    setup = default_setup(Rules.preset("classic2"), "easy")
    scene = start_table(app, setup)
    scene.on_resize(app.size)
    hands = hand_boxes(scene.board.layout)
    for button in [*scene.hud.widgets, *scene.assist.buttons.widgets]:
        if button is not scene.hud.swap:
            assert button.rect.collidelist(hands) == -1, getattr(button, "name", "")
    app.close()


def test_a_card_is_named_with_its_figure_in_english() -> None:
    assert names.card_name(Card.from_code("QD"), "italian") == "Knight of coins"


@pytest.mark.parametrize(
    ("size", "scale"), [((1024, 600), 1.0), ((1280, 720), 1.0), ((1920, 1080), 1.0),
                        ((1024, 600), 1.6), ((1920, 1080), 1.3)],
)  # fmt: skip
@pytest.mark.parametrize("preset", ["classic2", "classic3", "teams4"])
def test_the_players_name_plate_clears_a_raised_card_and_its_card_on_the_trick(
    preset: str, size: tuple[int, int], scale: float
) -> None:
    app = make_app(size)
    app.settings.ui_scale = scale
    scene = table_at_my_turn(app, default_setup(Rules.preset(preset)))
    scene.on_resize(app.size)
    lay = scene.board.layout
    spot = lay.spots[0]
    plate_top = spot.label[1] - lay.label_h / 2
    plate_bottom = spot.label[1] + lay.label_h / 2
    trick_bottom = spot.trick[1] + lay.trick_w * CARD_RATIO / 2
    assert trick_bottom <= plate_top + 2, "the player's card on the trick covers the name"
    for sprite in scene.my_hand():
        scene.hand.hover = sprite
        for _ in range(30):
            app.step(1 / 60)
        assert sprite.lift > 0.95
        assert sprite.rect().top >= plate_bottom, f"a raised {sprite.card} touches the name"


@pytest.mark.parametrize("scale", [1.0, 1.6])
@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_deck_held_for_the_deal_covers_no_name(size: tuple[int, int], scale: float) -> None:
    for players in range(2, 7):
        lay = TableLayout(size, players, scale)
        plates = []
        for spot in lay.spots:
            plate = pygame.Rect(0, 0, round(lay.w * 0.1), lay.label_h)
            plate.center = (round(spot.label[0]), round(spot.label[1]))
            plates.append(plate)
        for dealer in range(players):
            deck = pygame.Rect(0, 0, lay.stock_w, round(lay.stock_w * CARD_RATIO))
            deck.center = tuple(round(v) for v in lay.deal_origin(dealer))
            assert deck.collidelist(plates) == -1, (players, dealer)


@pytest.mark.parametrize(("language", "shown"), [("en", "You"), ("it", "Tu"), ("es", "Tú")])
def test_the_players_default_name_is_shown_in_the_language_in_use(
    language: str, shown: str
) -> None:
    """A game begun in one language and shown in another names the player in the second."""
    from briscola.game.session import SeatInfo
    from briscola.gui.table.plates import plate_name
    from briscola.text.i18n import set_language

    try:
        set_language(language)
        assert plate_name(SeatInfo("You", "human")) == shown
        assert plate_name(SeatInfo("You", "human", rating=12)) == f"{shown} (12)"
        assert plate_name(SeatInfo("Marco", "remote")) == "Marco"
    finally:
        set_language("en")
