"""The coach at the table: a hint with its reason, each card's expected points, the memory
aid (only what the seat has seen) and undo against the computer (the exact position back,
the hand marked in the statistics), all headless."""

from __future__ import annotations

import os
import random
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from guihelp import (
    DT,
    click,
    click_first_legal,
    key,
    make_app,
    play_out_by_clicks,
    run_until,
    start_table,
    table_at_my_turn,
    wait_for,
)

from briscola.coach import evaluate
from briscola.engine import Card, GameState, Match, Rules, view
from briscola.game.setup import GameSetup, default_setup
from briscola.gui.app import App
from briscola.gui.scenes.table import TableScene
from briscola.gui.table.assist import played_by_suit, points_taken
from briscola.gui.table.coach import advise
from briscola.storage.stats import Entry, Stats
from briscola.text.coachtext import reason_text

pytestmark = pytest.mark.usefixtures("gui_home")


def _solo(preset: str = "classic2", seed: int = 5) -> GameSetup:
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = seed
    return setup


def _table(app: App, seed: int = 5) -> TableScene:
    scene = table_at_my_turn(app, _solo(seed=seed))
    return scene


def test_the_hint_shows_the_coachs_card_and_one_sentence_why(app: App) -> None:
    scene = _table(app)
    seen = scene.session.view()
    key(app, pygame.K_h)
    assert wait_for(app, lambda: scene.hand.hint_card is not None)
    advice = advise(seen)
    # One evaluation of the position serves the hint and the review (same seed and budget).
    assert advice.assessment == evaluate(seen)
    assert scene.hand.hint_card == advice.best
    text = scene.assist.hint_text()
    assert text == reason_text(advice.reason, app.settings.deck_style)
    assert text and text.endswith(".")
    scene.draw(app.screen)  # the sentence draws above the hand
    # The hint is the player's own turn's: once the card is played it goes.
    click_first_legal(app, scene)
    assert scene.assist.hint_text() is None


def _hint_on(app: App, state: GameState) -> tuple[Card | None, str | None]:
    """The hint card and sentence the table shows for seat 0 of ``state``."""
    setup = _solo()
    match = Match(setup.rules, first_dealer=state.dealer)
    scene = table_at_my_turn(app, setup, match=match, state=state)
    key(app, pygame.K_h)
    assert wait_for(app, lambda: scene.hand.hint_card is not None)
    return scene.hand.hint_card, scene.assist.hint_text()


def test_the_hint_never_reads_a_card_the_player_cannot_see(app: App) -> None:
    rules = Rules.preset("classic2")
    state = GameState.new(rules, random.Random(31), dealer=1)
    # The same deal with the cards seat 0 cannot see (the opponent's hand and the stock
    # under the briscola) in another order: seat 0's view is the same, so is the hint.
    deck = list(state.deck)
    hidden = [1, 3, 5, *range(7, len(deck))]
    shuffled = [deck[i] for i in hidden]
    random.Random(2).shuffle(shuffled)
    for i, card in zip(hidden, shuffled, strict=True):
        deck[i] = card
    other = GameState(rules, deck, dealer=1)
    assert view(other, 0) == view(state, 0) and other.hands[1] != state.hands[1]
    assert _hint_on(app, state) == _hint_on(app, other)


def test_the_values_overlay_shows_each_cards_expected_points_once_per_turn(app: App) -> None:
    scene = _table(app)
    assert scene.assist.values() == {}  # off by default
    app.settings.coach_values = True
    assert wait_for(app, lambda: bool(scene.assist.values()))
    values = scene.assist.values()
    seen = scene.session.view()
    assert set(values) == set(seen.hand)
    assert values == dict(advise(seen).assessment.values)
    for _frame in range(5):  # the turn goes on: no second assessment of it
        app.step(DT)
    assert len(scene.assist.coach._jobs) == 1
    scene.draw(app.screen)
    # The next turn gets its own values.
    click_first_legal(app, scene)
    assert run_until(app, lambda: scene.awaiting_human)
    assert wait_for(app, lambda: bool(scene.assist.values()))
    assert set(scene.assist.values()) == set(scene.session.view().hand)
    assert len(scene.assist.coach._jobs) == 2


def test_undo_restores_the_exact_position_and_marks_the_statistics(app: App) -> None:
    scene = _table(app, seed=21)
    session = scene.session
    assert session.can_undo
    assert not session.undo(), "nothing to take back before the first move"
    before = session.view()
    record_before = session.state.events[:]  # type: ignore[attr-defined]
    click_first_legal(app, scene)
    assert run_until(app, lambda: scene.awaiting_human)
    assert session.view() != before
    key(app, pygame.K_u)
    assert session.view() == before
    assert session.state.events == record_before  # type: ignore[attr-defined]
    assert [s.card for s in scene.my_hand()] == list(before.hand)
    # Ctrl+Z too, after another move.
    click_first_legal(app, scene)
    assert run_until(app, lambda: scene.awaiting_human)
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert session.view() == before
    # Play the hand out: the statistics count it as a hand with an undo.
    play_out_by_clicks(app, scene)
    stats = Stats.load()
    total = stats.total()
    assert total.hands == 1 and total.hands_with_undo == 1


def test_statistics_written_before_the_undo_count_still_load(gui_home: Path) -> None:
    entry = Entry.from_json({"hands": 3, "hands_won": 2, "points": 150, "best": 70})
    assert entry.hands_with_undo == 0 and entry.hands == 3


def test_no_undo_in_hot_seat(app: App) -> None:
    setup = _solo()
    setup.seats[1].human = True
    scene = start_table(app, setup)
    assert not scene.session.can_undo and not scene.session.undo()
    app.step(DT)
    assert not scene.assist.undo_button.visible or not scene.assist.undo_button.enabled


def test_the_memory_aid_shows_only_what_the_seat_has_seen(app: App) -> None:
    scene = _table(app, seed=13)
    key(app, pygame.K_m)
    assert not scene.assist.memory_open, "off by default"
    app.settings.memory_aid = True
    key(app, pygame.K_m)
    assert scene.assist.memory_open
    for _turn in range(3):
        click_first_legal(app, scene)
        assert run_until(app, lambda: scene.awaiting_human)
    seen = scene.session.view()
    state = scene.session.state
    played = [c for cards in played_by_suit(seen).values() for c in cards]
    expected = [c for t in state.tricks for c in t.cards] + list(state.trick)
    assert sorted(played) == sorted(expected)
    assert not set(played) & set(state.hands[1]), "never the opponent's hand"
    taken = dict(points_taken(seen))
    assert sum(taken.values()) == sum(t.points for t in state.tricks)
    rows = scene.assist.memory_lines()
    assert len(rows) == 4 + 2
    scene.draw(app.screen)
    click(app, scene.assist.memory_button.rect.center)
    assert not scene.assist.memory_open


@pytest.mark.parametrize(
    ("preset", "size", "turns"),
    [
        ("teams4", (1024, 600), 2),
        ("teams6", (1920, 1080), 2),
        # Three players, once the piles of won tricks lie beside the hand: the free room is
        # then above the stock, never on it (the box fell back there, over the briscola).
        ("classic3", (1920, 1080), 4),
        ("classic3", (1024, 600), 4),
    ],
)
def test_the_hint_and_the_memory_aid_cover_no_card(
    preset: str, size: tuple[int, int], turns: int
) -> None:
    app = make_app(size)
    app.settings.memory_aid = True
    setup = default_setup(Rules.preset(preset), "easy")
    setup.seed = 3
    scene = start_table(app, setup)
    for _turn in range(turns):
        assert run_until(app, lambda: scene.awaiting_human)
        click_first_legal(app, scene)
    assert run_until(app, lambda: scene.awaiting_human)
    key(app, pygame.K_m)
    key(app, pygame.K_h)
    assert wait_for(app, lambda: scene.hand.hint_card is not None)
    scene.draw(app.screen)
    boxes = scene.assist.boxes
    assert set(boxes) == {"hint", "memory"}
    assert not boxes["hint"].colliderect(boxes["memory"])
    for sprite, _face in scene.board.draw_order():
        for name, box in boxes.items():
            assert not box.colliderect(sprite.rect()), f"the {name} covers {sprite.card}"
        assert app.screen.get_rect().contains(box)
    app.close()
