"""The first lesson: a guided hand from the menu with a fixed deal and captions; it can be
completed by following the captions and by playing cards it did not expect, in every
language, and it keeps no statistics or autosave."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest
from guihelp import DT, click, run_until

from briscola.engine import Card, GameState, Play, view
from briscola.game.lesson import (
    DECK,
    PLAYER,
    TEACHER,
    LessonSession,
    Teacher,
    expected_card,
    lesson_rules,
)
from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.table import TableScene
from briscola.storage import paths
from briscola.storage.stats import Stats
from briscola.text import i18n
from briscola.text.lesson import LESSON_WORDS

pytestmark = pytest.mark.usefixtures("gui_home")


def _open_lesson(app: App) -> TableScene:
    menu = MenuScene(app)
    app.reset_to(menu)
    app.apply_requests()
    menu.on_resize(app.size)
    click(app, menu.button("lesson").rect.center)
    scene = app.scene
    assert isinstance(scene, TableScene) and isinstance(scene.session, LessonSession)
    return scene


def _play_out(app: App, scene: TableScene, choose: object) -> list[str]:
    """Play the lesson to its end with ``choose(scene) -> Card``; the captions seen at each
    of the player's turns."""
    session = scene.session
    assert isinstance(session, LessonSession)
    captions: list[str] = []
    while not session.hand_over:
        assert run_until(app, lambda: scene.awaiting_human or session.hand_over)
        if session.hand_over:
            break
        caption = session.caption(app.settings.deck_style)
        assert caption is not None and caption[0] and caption[1]
        captions.append(f"{caption[0]}: {caption[1]}")
        scene.draw(app.screen)
        assert scene.play_card(choose(scene))  # type: ignore[operator]
    assert run_until(app, lambda: type(app.scene).__name__ == "ScoreScene")
    return captions


def test_the_lesson_deal_is_fixed_and_the_player_leads() -> None:
    state = GameState(lesson_rules(), DECK, TEACHER)
    assert state.current_player == PLAYER
    seen = view(state, PLAYER)
    assert [c.code for c in seen.hand] == ["4B", "2C", "KS"]
    assert seen.briscola == Card.from_code("7C")
    assert expected_card(seen) == Card.from_code("4B")


def test_the_lesson_is_completed_by_following_the_captions(app: App) -> None:
    scene = _open_lesson(app)
    session = scene.session
    assert isinstance(session, LessonSession)

    def follow(table: TableScene) -> Card:
        suggested = session.suggested()
        return suggested if suggested is not None else table.legal_cards()[0]

    captions = _play_out(app, scene, follow)
    assert len(captions) == 20
    assert "briscola" in captions[0] and "Four of batons" in captions[0]
    assert "Take it with the Two of cups" in captions[1]
    assert "11 points" in captions[2]
    assert not any("instead of" in c for c in captions)
    tricks = session.state.tricks  # type: ignore[union-attr]
    assert [c.code for c in tricks[0].cards] == ["4B", "KB"] and tricks[0].winner == TEACHER
    assert [c.code for c in tricks[1].cards] == ["AS", "2C"] and tricks[1].winner == PLAYER
    assert session.caption("italian") is not None  # the end has its caption too
    # A lesson counts in no statistics and leaves no saved game.
    assert Stats.load().empty
    assert not paths.autosave_file().exists()


def test_the_caption_waits_for_the_cards_it_speaks_of(app: App) -> None:
    app.options.turbo = False  # the deal takes its time, as in a real window
    scene = _open_lesson(app)
    session = scene.session
    assert isinstance(session, LessonSession)
    app.step(1 / 60)
    assert scene.busy, "the cards are being dealt"
    scene.draw(app.screen)
    assert "caption" not in scene.assist.boxes, "no caption over a deal still under way"
    assert run_until(app, lambda: scene.awaiting_human)
    scene.draw(app.screen)
    assert "caption" in scene.assist.boxes
    # The player's card flies to the trick: the caption stays the one it was until it lands.
    before = scene.assist.caption
    assert scene.play_card(Card.from_code("4B"))
    app.step(1 / 60)
    assert scene.busy and scene.assist.caption == before
    assert run_until(app, lambda: scene.awaiting_human)
    assert scene.assist.caption != before


def test_unexpected_cards_get_a_friendly_note_and_the_lesson_goes_on(app: App) -> None:
    scene = _open_lesson(app)
    session = scene.session
    assert isinstance(session, LessonSession)
    assert run_until(app, lambda: scene.awaiting_human)
    # The King of swords instead of the Four of batons: played, not refused.
    assert scene.play_card(Card.from_code("KS"))
    caption = session.caption(app.settings.deck_style)
    assert caption is not None
    assert "You played the King of swords instead of the Four of batons" in caption[1]
    assert "risked nothing" in caption[1]
    scene.draw(app.screen)
    # Off the script the teacher plays on as the medium computer, and so does the player.
    captions = _play_out(app, scene, lambda table: table.legal_cards()[-1])
    assert len(captions) == 19
    facts = ("took the trick", "The deck", "Two cards", "After this trick")
    assert all(any(fact in c for fact in facts) for c in captions[1:])


def test_the_teacher_follows_the_script_then_plays_like_medium() -> None:
    state = GameState(lesson_rules(), DECK, TEACHER)
    state.apply(Play(Card.from_code("4B")))
    assert Teacher().choose(view(state, TEACHER)) == Play(Card.from_code("KB"))
    other = GameState(lesson_rules(), DECK, TEACHER)
    other.apply(Play(Card.from_code("2C")))
    assert expected_card(view(other, TEACHER)) is None


@pytest.mark.parametrize("language", ["en", "it", "de", "es"])
def test_every_caption_reads_in_every_language(app: App, language: str) -> None:
    i18n.set_language(language)
    session = LessonSession(_NowRunner(), LESSON_WORDS, pace=lambda: 0.0)  # type: ignore[arg-type]
    session.start()
    seen_titles = set()
    while not session.hand_over:
        seat = session.to_play
        assert seat is not None
        session.new_events()
        if seat == PLAYER:
            caption = session.caption("italian")
            assert caption is not None and "{" not in caption[1]
            seen_titles.add(caption[0])
            cards = [a for a in session.legal_actions() if isinstance(a, Play)]
            # Off the script at the second trick, to read the friendly notes too.
            wanted = session.suggested()
            pick = cards[-1] if len(session.view().tricks) == 1 or wanted is None else Play(wanted)
            assert session.submit(pick)
        else:
            session.advance(1.0, True)
    final = session.caption("french")
    assert final is not None and "120" in final[1]
    assert len(seen_titles) >= 5


class _NowRunner:
    """Computer players think at once, on the caller's thread."""

    def submit(self, bot: object, seen: object) -> object:
        from concurrent.futures import Future

        future: Future[object] = Future()
        future.set_result((bot.choose(seen), bot))  # type: ignore[attr-defined]
        return future


def test_the_lesson_is_on_the_menu(app: App) -> None:
    scene = _open_lesson(app)
    app.step(DT)
    assert scene.session.seats[TEACHER].name == "Teacher"


def test_the_lesson_ends_with_what_was_learnt_and_what_to_try_next(app: App) -> None:
    scene = _open_lesson(app)
    session = scene.session
    assert isinstance(session, LessonSession)

    def off_script(table: TableScene) -> Card:
        return table.legal_cards()[-1]

    captions = _play_out(app, scene, off_script)
    assert captions
    score = app.scene
    assert type(score).__name__ == "ScoreScene"
    epilogue = getattr(score, "epilogue", "")
    assert epilogue == session.epilogue()
    assert epilogue.startswith("You learnt: a trump") and "Next: Rematch" in epilogue
    # The lesson's box does not peek out from behind the score screen.
    app.step(DT)
    assert "caption" not in scene.assist.boxes
    # The caption of the first trick stays up while the teacher's card lands: it never
    # says the teacher is still to answer.
    assert not any("Now the teacher answers" in c for c in captions)
