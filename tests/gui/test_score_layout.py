"""The score screen's rows of cards stay legible with any pile, up to the whole deck: every card
worth points shows its index and suit and its "+N" under it, the cards worth nothing follow
after a gap without covering them (issue 15, item 2)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from guihelp import make_app, start
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck import make_summary, problems, recording, render

from briscola.engine import PRESETS
from briscola.gui.app import App
from briscola.gui.layout.scorefan import FanSpec, card_h, fan_row
from briscola.gui.scenes.score import CountedCard, ScoreScene
from briscola.storage import paths

SIZES = ((1024, 600), (1280, 720), (1920, 1080))
LABEL = re.compile(r"^\+\d+$")


@pytest.fixture(scope="module", params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def app(request: pytest.FixtureRequest) -> Iterator[App]:
    app = make_app(request.param)
    app.settings.reduce_motion = True  # the count is over at once
    yield app


def score_scene(app: App, preset: str, how: str) -> ScoreScene:
    summary = make_summary(preset, seed=11, viewer=0)
    if how == "whole deck to the first side":
        deck = [card for pile in summary.piles for card in pile]
        summary = dataclasses.replace(summary, piles=[deck] + [[] for _ in summary.piles[1:]])
    elif how == "whole deck to the last side":
        deck = [card for pile in summary.piles for card in pile]
        summary = dataclasses.replace(summary, piles=[[] for _ in summary.piles[1:]] + [deck])
    scene = ScoreScene(app, summary, None, lambda: None, lambda: None)
    start(app, scene)
    assert scene.done
    return scene


def card_rect(scene: ScoreScene, c: CountedCard) -> pygame.Rect:
    return pygame.Rect(c.x, c.y, scene.card_w, card_h(scene.card_w))


def visible_strip(scene: ScoreScene, index: int) -> int:
    """How much of the card's width, from its left edge, no card drawn later covers."""
    mine = scene.cards[index]
    rect = card_rect(scene, mine)
    strip = rect.width
    for later in scene.cards[index + 1 :]:
        if later.row != mine.row:
            continue
        other = card_rect(scene, later)
        if other.colliderect(rect):
            strip = min(strip, max(0, other.x - rect.x))
    return strip


@pytest.mark.parametrize(
    "how", ["as played", "whole deck to the first side", "whole deck to the last side"]
)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_card_worth_points_shows_its_face_and_its_points(
    app: App, preset: str, how: str
) -> None:
    scene = score_scene(app, preset, how)
    with recording(app) as images:
        record = render(app, images).record
    labels = [d for d in record.texts if d.scene == "ScoreScene" and LABEL.match(d.text)]
    counting = [(i, c) for i, c in enumerate(scene.cards) if c.points]
    # Each card worth points has its "+N", under it, and no two labels overlap.
    assert Counter(d.text for d in labels) == Counter(f"+{c.points}" for _i, c in counting)
    for a in range(len(labels)):
        for b in range(a + 1, len(labels)):
            assert not labels[a].rect.colliderect(labels[b].rect), (labels[a], labels[b])
    for _index, c in counting:
        below = pygame.Rect(c.x, c.y + card_h(scene.card_w), c.strip, scene.px(20))
        assert any(below.contains(d.rect) for d in labels), (c.card, below)
    # Index and suit show: at least half of each card worth points, never a sliver.
    assert scene.card_w >= scene.px(30)
    least = max(0.45 * scene.card_w, scene.px(24))
    for index, c in counting:
        assert visible_strip(scene, index) >= least, (c.card, visible_strip(scene, index))
    # The cards worth nothing cover no card worth points.
    for _index, c in counting:
        for other in scene.cards:
            if other.row == c.row and not other.points:
                assert not card_rect(scene, other).colliderect(card_rect(scene, c))
    # Every card inside its row, and the rest of the screen as tidy as ever.
    for c in scene.cards:
        assert scene.card_areas[c.row].contains(card_rect(scene, c)), c.card
    assert problems(app, record) == []


SPEC = st.builds(
    FanSpec,
    width=st.integers(200, 1400),
    height=st.integers(60, 300),
    max_card_w=st.integers(40, 130),
    min_card_w=st.integers(16, 40),
    label_w=st.integers(20, 40),
    label_h=st.integers(10, 24),
    gap=st.integers(4, 24),
    spacing=st.integers(2, 10),
    drop=st.integers(0, 10),
)


@given(st.integers(0, 20), st.integers(0, 20), SPEC)
def test_a_legible_fan_keeps_every_card_in_its_room_and_every_label_wide_enough(
    points: int, blanks: int, spec: FanSpec
) -> None:
    fan = fan_row(points, blanks, spec)
    assert len(fan.spots) == points + blanks
    if not fan.legible:
        # Only when even the smallest cards on one line per card height cannot make it.
        assert fan.card_w == spec.min_card_w
        return
    width, height = fan.card_w, card_h(fan.card_w)
    assert spec.min_card_w <= fan.card_w <= max(spec.min_card_w, spec.max_card_w)
    for spot in fan.spots:
        assert spot.x >= 0 and spot.x + width <= spec.width
        assert spot.y >= 0 and spot.y + height <= spec.height
    for spot in fan.spots[:points]:
        assert spot.strip >= spec.label_w and spot.strip >= 0.45 * width
        assert spot.y + height + spec.label_h <= spec.height
    rects = [pygame.Rect(s.x, s.y, width, height) for s in fan.spots]
    for mine in rects[:points]:
        assert not any(mine.colliderect(other) for other in rects[points:])


@pytest.mark.parametrize("preset", ["classic2", "chiamata5"])
def test_where_the_record_went_is_told_in_the_details_never_over_the_verdict(
    app: App, preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 6) / "records"
    monkeypatch.setattr(paths, "records_dir", lambda: folder)
    folder.mkdir(parents=True)
    scene = score_scene(app, preset, "as played")
    scene.save_record()
    assert scene.saved_path is not None and Path(scene.saved_path).parent == folder
    assert not app.notices
    with recording(app) as images:
        record = render(app, images).record
    notes = [d for d in record.texts if d.text.startswith("Record saved to ")]
    assert len(notes) == 1
    note = notes[0]
    assert scene.details_box.contains(note.rect)
    assert not note.rect.colliderect(scene.title_box)
    # The path is cut in the middle: its start and the file's name still show.
    assert note.text.endswith(Path(scene.saved_path).name)
    assert "…" in note.text and str(tmp_path)[:8] in note.text
    assert problems(app, record) == []


def test_a_record_that_cannot_be_written_says_why_in_the_details(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setattr(paths, "records_dir", lambda: blocker)
    scene = score_scene(app, "classic2", "as played")
    scene.save_record()
    assert scene.saved_path is None and scene.save_button.enabled
    with recording(app) as images:
        record = render(app, images).record
    notes = [d for d in record.texts if d.text.startswith("Could not save the record: ")]
    assert len(notes) == 1 and scene.details_box.contains(notes[0].rect)
    assert problems(app, record) == []


@pytest.mark.parametrize("preset", ["classic2", "teams4"])
def test_during_the_count_no_points_label_is_drawn_over_a_card(app: App, preset: str) -> None:
    """With motion on, each "+N" lights up under its card as it lands: at every moment of the
    count no label lies over a card's face (issue 23, item 10)."""
    app.settings.reduce_motion = False
    try:
        summary = make_summary(preset, seed=11, viewer=0)
        scene = ScoreScene(app, summary, None, lambda: None, lambda: None)
        start(app, scene)
        moments = 0
        while not scene.done and moments < 400:
            scene.update(1 / 30)
            moments += 1
            landed = [card_rect(scene, c) for c in scene.cards if c.landed(scene.t, scene.flight)]
            if not landed:
                continue
            with recording(app, copies=True) as images:
                record = render(app, images).record
            for drawn in record.texts:
                if drawn.scene == "ScoreScene" and LABEL.match(drawn.text):
                    inner = drawn.rect.inflate(-2, -2)
                    over = [r for r in landed if r.colliderect(inner)]
                    assert not over, f"{drawn.text!r} {drawn.rect} over a card {over[0]}"
        assert scene.done
    finally:
        app.settings.reduce_motion = True
