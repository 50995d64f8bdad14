"""Online play as a player sees it, headless: the host's table on an embedded server (on
127.0.0.1, any free port), joined by a headless client; the waiting room; a whole hand
played by clicks at the table scene over the network; the server's errors as messages; the
connection banner and the end of a table. No fixed sleeps: frames until a condition holds,
within a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import guihelp
import pygame
import pytest
from guihelp import DT, click, start
from serverhelp import crash, port_taken, session_at_the_deal

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.flow import address_url
from briscola.client.headless import HeadlessPlayer
from briscola.client.online import HostedSession
from briscola.client.sentences import code_text
from briscola.client.session import RemoteSession
from briscola.engine import Rules
from briscola.game.session import moved_on
from briscola.game.setup import SeatConfig, default_setup
from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.newgame import NewGameScene, online_bot
from briscola.gui.scenes.online import OnlineScene
from briscola.gui.scenes.online_host import HostScene
from briscola.gui.scenes.online_join import JoinScene
from briscola.gui.scenes.pause import PauseScene
from briscola.gui.scenes.quick_chat import QuickChatScene
from briscola.gui.scenes.score import ScoreScene
from briscola.gui.scenes.table import TableScene
from briscola.gui.scenes.waiting_room import WaitingRoomScene
from briscola.gui.table.plates import plate_pieces
from briscola.protocol.lan import LanTable
from briscola.protocol.wire import spaced_code
from briscola.server import ServerConfig, ServerThread
from briscola.server.embedded import EmbeddedHost
from briscola.storage import paths
from briscola.storage.seats import SEAT_FILE

DEADLINE = 60.0
#: Cards that jump and a bot that answers at once move faster than any person: the
#: server's rate limit (10 messages a second) is raised for them.
FAST = {"rate": 1000.0, "burst": 1000}


pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.fixture(autouse=True)
def _no_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRISCOLA_NO_LAN", "1")  # mDNS only inside a private namespace


@pytest.fixture
def app(app: App) -> App:
    """The shared App, with the cards jumping: the test is about the network."""
    app.settings.speed = "off"
    return app


@pytest.fixture
def server() -> Iterator[ServerThread]:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=None, **FAST)
    running = ServerThread(config).start()
    yield running
    running.stop()


def wait_for(
    app: App,
    condition: Callable[[], bool],
    what: str,
    also: Callable[[], Any] | None = None,
    seconds: float = DEADLINE,
) -> None:
    """Step frames (and ``also`` each frame) until ``condition`` holds."""

    def each_frame() -> None:
        if also is not None:
            also()
        time.sleep(0.001)  # give the network threads the processor (no fixed wait)

    if not guihelp.wait_for(app, condition, seconds, each_frame):
        raise AssertionError(f"timed out: {what} (scene {type(app.scene).__name__})")


def pump_all(player: HeadlessPlayer) -> Callable[[], None]:
    def pump() -> None:
        while player.pump() is not None:
            pass

    return pump


def guest(url: str, name: str = "Bruno", seed: int = 2) -> HeadlessPlayer:
    return HeadlessPlayer(
        NetClient(url, name).start(), make_bot("random", random.Random(seed)).choose
    )


def host_table(app: App, rules: Rules, seats: list[dict[str, Any]]) -> WaitingRoomScene:
    start(app, MenuScene(app))
    app.open(
        "online_host",
        rules=rules,
        seats=seats,
        bind="127.0.0.1",
        port=0,
        announce=False,
        server=FAST,
    )
    app.apply_requests()
    assert isinstance(app.scene, HostScene)
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "the waiting room opens")
    room = app.scene
    assert isinstance(room, WaitingRoomScene)
    wait_for(app, lambda: room.table is not None, "the table's seats arrive")
    return room


def started_with_the_friend(
    app: App, room: WaitingRoomScene, friend: HeadlessPlayer, pump: Callable[[], None]
) -> TableScene:
    """The friend joins the host's table and is ready; the host clicks Start: the table."""
    friend.client.join(room.code)
    friend.client.ready()
    wait_for(app, lambda: room.start_button.enabled, "the friend is ready", pump)
    click(app, room.start_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens", pump)
    table = app.scene
    assert isinstance(table, TableScene)
    return table


def seat_line(room: WaitingRoomScene, seat: int) -> dict[str, Any]:
    return room.seats()[seat]


def back_to_menu(app: App) -> None:
    app.open("menu", mode="reset")
    app.apply_requests()


def plays_first_legal(table: TableScene, pump: Callable[[], None]) -> Callable[[], None]:
    """Each frame: the network pumped, and at the player's turn the first legal card."""

    def play() -> None:
        pump()
        if table.awaiting_human and table.legal_cards():
            table.play_card(table.legal_cards()[0])

    return play


def join_page_for_dario_s_table(
    app: App, owner: HeadlessPlayer, url: str, rules: Rules | None = None
) -> JoinScene:
    """Dario makes a table for two (``rules``: one hand of classic2 unless given) on the
    server at ``url``; Anna opens Join a table with its address and code filled in."""
    rules = rules or Rules.preset("classic2")
    owner.client.create(rules, [{"kind": "human"}, {"kind": "human"}])
    code = owner.client.wait_for(lambda m: m["type"] == "joined", 10)["table"]
    start(app, MenuScene(app))
    app.open("online_join", player="Anna", address=url, code=code, lan=False)
    app.apply_requests()
    join = app.scene
    assert isinstance(join, JoinScene)
    return join


def in_dario_s_waiting_room(
    app: App, owner: HeadlessPlayer, url: str, pump: Callable[[], None], rules: Rules | None = None
) -> WaitingRoomScene:
    """Anna joins Dario's table by address and code; the waiting room she is in."""
    join = join_page_for_dario_s_table(app, owner, url, rules)
    click(app, join.join_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "joined", pump)
    room = app.scene
    assert isinstance(room, WaitingRoomScene)
    return room


def started_once_anna_is_ready(
    app: App, owner: HeadlessPlayer, pump: Callable[[], None]
) -> TableScene:
    """Dario starts the game as soon as he sees Anna (seat 1) ready; the table it opens."""
    wait_for(
        app,
        lambda: owner.table is not None and owner.table["seats"][1]["ready"],
        "Anna is ready",
        pump,
    )
    owner.client.start_game()
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens", pump)
    table = app.scene
    assert isinstance(table, TableScene)
    return table


def at_dario_s_table(
    app: App, owner: HeadlessPlayer, url: str, pump: Callable[[], None], rules: Rules | None = None
) -> tuple[TableScene, Callable[[], None]]:
    """Anna joins Dario's table, is ready and Dario starts: the table, and a frame step
    that plays her first legal card at her turns."""
    room = in_dario_s_waiting_room(app, owner, url, pump, rules)
    click(app, room.ready_button.rect.center)
    table = started_once_anna_is_ready(app, owner, pump)
    return table, plays_first_legal(table, pump)


def at_dario_s_score_screen(
    app: App, owner: HeadlessPlayer, url: str, pump: Callable[[], None], rules: Rules | None = None
) -> tuple[TableScene, Callable[[], None], ScoreScene]:
    """Anna at Dario's table (:func:`at_dario_s_table`) until the first hand's score screen."""
    table, play = at_dario_s_table(app, owner, url, pump, rules)
    wait_for(app, lambda: isinstance(app.scene, ScoreScene), "the first hand ends", play)
    score = app.scene
    assert isinstance(score, ScoreScene)
    return table, play, score


def test_a_hosted_table_is_joined_started_and_its_hand_played_by_clicks_over_the_network(
    app: App,
) -> None:
    room = host_table(app, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    assert room.is_host and len(room.code) == 6 and room.host is not None
    assert not room.start_button.enabled, "an open seat is not taken yet"
    friend = guest(room.host.url)
    pump = pump_all(friend)
    try:
        friend.client.join(room.code)
        wait_for(app, lambda: seat_line(room, 1)["claimed"], "the friend's seat shows", pump)
        assert seat_line(room, 1)["name"] == "Bruno" and not room.start_button.enabled
        friend.client.ready()
        wait_for(app, lambda: room.start_button.enabled, "the friend is ready", pump)
        click(app, room.start_button.rect.center)
        wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens", pump)
        table = app.scene
        assert isinstance(table, TableScene) and isinstance(table.session, HostedSession)
        clicks = 0

        def play_a_card() -> None:
            nonlocal clicks
            pump()
            if table.awaiting_human and table.legal_cards():
                legal = set(table.legal_cards())
                sprite = next(s for s in table.my_hand() if s.card in legal)
                click(app, sprite.rect().center)
                clicks += 1

        wait_for(
            app,
            lambda: isinstance(app.scene, ScoreScene),
            f"the hand ends ({len(table.session.view().tricks)} tricks, {clicks} clicks)",
            play_a_card,
        )
        score = app.scene
        assert isinstance(score, ScoreScene)
        assert score.summary.result.points[0] + score.summary.result.points[1] == 120
        assert len(table.session.view().tricks) == 20 and clicks >= 20
        assert friend.errors == [] and table.banner.banner == ""
    finally:
        friend.client.close()
        back_to_menu(app)


def test_a_match_over_the_network_goes_from_hand_to_hand_through_the_score_screen(
    app: App,
) -> None:
    rules = Rules.preset("classic2", match="best-of-3")
    room = host_table(app, rules, [{"kind": "human"}, {"kind": "human"}])
    assert room.host is not None
    friend = guest(room.host.url, seed=5)
    pump = pump_all(friend)
    try:
        table = started_with_the_friend(app, room, friend, pump)
        hands: list[int] = []

        def play() -> None:
            pump()
            scene = app.scene
            if isinstance(scene, ScoreScene) and scene.primary.name == "next":
                hands.append(scene.summary.hand_number)
                click(app, scene.primary.rect.center)
            elif table.awaiting_human and table.legal_cards():
                table.play_card(table.legal_cards()[0])

        def match_over() -> bool:
            scene = app.scene
            return isinstance(scene, ScoreScene) and scene.summary.match_over

        wait_for(app, match_over, "the match ends", play, seconds=120)
        score = app.scene
        assert isinstance(score, ScoreScene) and score.primary.name == "rematch"
        # Best of three: two or three hands, more when one is drawn (60 all counts for nobody).
        assert hands == list(range(1, len(hands) + 1)) and len(hands) >= 1
        assert score.summary.hand_number == len(hands) + 1
        # The host's window may show the end before the friend's computer has heard of it.
        wait_for(app, lambda: friend.match_over, "the friend hears the match is over", pump)
        assert friend.errors == []
    finally:
        friend.client.close()
        back_to_menu(app)


def test_a_chiamata_hand_with_computers_is_played_through_the_auction_over_the_network(
    app: App,
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 4
    room = host_table(app, Rules.preset("chiamata5"), seats)
    assert room.start_button.enabled, "every seat open to a person is taken"
    click(app, room.start_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens")
    table = app.scene
    assert isinstance(table, TableScene)
    kinds: set[str] = set()

    def act() -> None:
        if table.awaiting_human:
            legal = table.session.legal_actions()
            if legal:
                kinds.add(type(legal[0]).__name__)
                assert table.submit(legal[0])

    wait_for(app, lambda: isinstance(app.scene, ScoreScene), "the hand ends", act)
    score = app.scene
    assert isinstance(score, ScoreScene) and score.summary.rules.chiamata
    assert "Play" in kinds
    back_to_menu(app)


def test_the_waiting_room_shows_a_friend_joining_and_leaving(app: App) -> None:
    rules = Rules.preset("teams4")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}] * 2
    room = host_table(app, rules, seats)
    assert room.host is not None
    assert [s["kind"] for s in room.seats()] == ["human", "bot", "human", "bot"]
    assert not room.start_button.enabled, "the open seat is free"
    assert room.fill_button.enabled, "a computer may take it"
    friend = guest(room.host.url, "Carla")
    pump = pump_all(friend)
    try:
        friend.client.join(room.code)
        wait_for(app, lambda: seat_line(room, 2)["claimed"], "Carla sits down", pump)
        assert seat_line(room, 2)["name"] == "Carla" and not seat_line(room, 2)["ready"]
        friend.client.ready()
        wait_for(app, lambda: seat_line(room, 2)["ready"], "Carla is ready", pump)
        assert room.start_button.enabled
        friend.client.leave()
        wait_for(app, lambda: not seat_line(room, 2)["claimed"], "Carla leaves", pump)
        assert not room.start_button.enabled
        # The host may fill the open seat with a computer player instead.
        assert room.fill_button.enabled
        click(app, room.fill_button.rect.center)
        wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens")
        table = app.scene
        assert isinstance(table, TableScene)
        assert [seat.kind for seat in table.session.seats] == ["human", "bot", "bot", "bot"]
    finally:
        friend.client.close()
        back_to_menu(app)


def test_joining_with_a_wrong_code_or_address_says_so(app: App, server: ServerThread) -> None:
    start(app, MenuScene(app))
    app.open("online_join", player="Anna", lan=False)
    app.apply_requests()
    join = app.scene
    assert isinstance(join, JoinScene)
    join.address_input.set_text(server.url.removeprefix("ws://"))
    join.code_input.set_text("abc 234")  # a code's form, but no such table
    click(app, join.join_button.rect.center)
    wait_for(app, lambda: join.message_bad, "the error shows")
    assert "no table with that code" in join.message and join.client is None
    join.code_input.set_text("12")
    click(app, join.join_button.rect.center)
    assert join.message_bad and "never use “1”" in join.message  # and which ones they use
    join.address_input.set_text("")
    click(app, join.join_button.rect.center)
    assert join.message_bad and "address" in join.message
    assert isinstance(app.scene, JoinScene)


def test_a_guest_joins_by_address_and_code_and_is_told_when_the_server_closes(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        room = in_dario_s_waiting_room(app, owner, server.url, pump)
        assert not room.is_host
        assert room.ready_button.visible and not room.start_button.visible
        click(app, room.ready_button.rect.center)
        table = started_once_anna_is_ready(app, owner, pump)
        assert isinstance(table.session, RemoteSession)
        assert table.next_frame_in() is not None
        play = plays_first_legal(table, pump)
        # Dario's moves come at once after the deal: none is lost between the waiting room
        # and the table.
        wait_for(app, lambda: len(table.session.view().tricks) >= 2, "two tricks", play)
        # The connection drops: a banner, then the table plays on once it is back.
        table.session.client.kill()
        wait_for(
            app,
            lambda: "reconnecting" in table.banner.banner,
            "the banner shows",
            pump,
        )
        wait_for(app, lambda: table.banner.banner == "", "reconnected", pump)
        # A notice from the server (a move the turn clock made) shows as a sentence.
        table.session.notices.append({"type": "notice", "code": "timed_out", "message": "m"})
        app.step(DT)
        assert any("time to move ran out" in notice.text for notice in app.notices)
        # The server goes away: the player is told and is back at the menu.
        server.stop()
        wait_for(app, lambda: isinstance(app.scene, MenuScene), "back to the menu", pump)
        assert any("server closed" in notice.text for notice in app.notices)
    finally:
        owner.client.close()


def test_a_guest_who_asks_for_a_rematch_is_told_the_host_starts_it_and_plays_it(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        table, play, score = at_dario_s_score_screen(app, owner, server.url, pump)
        assert score.primary.name == "rematch"
        click(app, score.primary.rect.center)
        wait_for(app, lambda: app.scene is table, "back at the table", pump)
        waiting = "Waiting for Dario to start the new match…"
        wait_for(app, lambda: waiting in table.banner.notes, "told whom she waits for", pump)
        assert not isinstance(app.scene, ScoreScene), "the score screen does not come back"
        seats = owner.table["seats"] if owner.table is not None else []
        assert seats[1]["next"] is True, "Dario sees that Anna asked for a rematch"
        owner.client.start_game()
        wait_for(app, lambda: waiting not in table.banner.notes, "the rematch starts", pump)
        wait_for(app, lambda: isinstance(app.scene, ScoreScene), "its hand ends", play)
        assert table.session.take_errors() == [] and owner.errors == []
    finally:
        owner.client.close()


def score_note(app: App) -> str:
    scene = app.scene
    return scene.note if isinstance(scene, ScoreScene) else ""


def test_the_score_screen_says_who_else_is_ready_and_the_table_waits_empty_for_the_deal(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    owner.auto_next = False  # Dario goes on when the test says so
    pump = pump_all(owner)
    rules = Rules.preset("classic2", match="best-of-5")  # three hands at least
    try:
        table, play, score = at_dario_s_score_screen(app, owner, server.url, pump, rules)
        assert score.primary.name == "next"
        assert score.live and score.note == ""
        # Anna goes on first: the table waits for Dario, and shows nothing of the last hand.
        score.skip()
        wait_for(app, lambda: score.done, "the count is over", pump)
        click(app, score.primary.rect.center)
        wait_for(app, lambda: app.scene is table, "back at the table", pump)
        waiting = "Waiting for Dario to go on to the next hand…"
        wait_for(app, lambda: waiting in table.banner.notes, "told whom she waits for", pump)
        board = table.board
        assert moved_on(table.session)
        assert not any(board.hands) and not board.piles and not board.table and not board.deck
        assert board.briscola is None and board.shown_tricks() == 0
        plates = plate_pieces(table.painter, None, False, table.session.view())
        assert [plan.dealer for _name, plan, _draw in plates] == [None, None], "no last dealer"
        owner.client.next_hand()
        wait_for(app, lambda: any(board.hands), "the second hand is dealt", pump)
        assert not moved_on(table.session) and waiting not in table.banner.notes
        # Dario goes on first: Anna's score screen says so, then takes her to the hand.
        wait_for(app, lambda: isinstance(app.scene, ScoreScene), "the second hand ends", play)
        score = app.scene
        assert isinstance(score, ScoreScene) and score.note == ""
        owner.client.next_hand()
        ready = "Dario is ready for the next hand."
        wait_for(app, lambda: score_note(app) == ready, "told Dario is ready", pump)
        # Once the screen has shown it, looking at the network again draws nothing.
        wait_for(app, score.unchanged, "the screen rests", pump)
        assert score.next_frame_in() is not None and app.draw_changed() == []
        click(app, score.primary.rect.center)
        wait_for(app, lambda: any(table.board.hands), "the third hand is dealt", pump)
        assert table.session.take_errors() == [] and owner.errors == []
    finally:
        owner.client.close()


def test_a_rematch_the_host_started_while_the_guest_read_the_score_is_joined_without_asking(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        table, play, score = at_dario_s_score_screen(app, owner, server.url, pump)
        assert score.primary.name == "rematch"
        wait_for(app, lambda: owner.match_over, "Dario hears the match is over", pump)
        owner.client.start_game()
        begun = "The new match has begun: Rematch takes you to the table."
        wait_for(app, lambda: score.note == begun, "told the new match has begun", pump)
        score.skip()
        wait_for(app, lambda: score.done, "the count is over", pump)
        click(app, score.primary.rect.center)
        wait_for(app, lambda: any(table.board.hands), "the new match's hand is dealt", pump)
        assert not table.banner.notes
        wait_for(app, lambda: isinstance(app.scene, ScoreScene), "its hand ends", play)
        assert table.session.take_errors() == [] and owner.errors == []
    finally:
        owner.client.close()


def test_a_score_screen_says_the_table_is_gone_and_offers_the_menu_only(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        _table, _play, score = at_dario_s_score_screen(app, owner, server.url, pump)
        assert score.primary.enabled
        server.stop()
        wait_for(app, lambda: score.note == "The server closed.", "told the table is gone")
        assert not score.primary.enabled and score.menu_button.enabled
        assert score.save_button.enabled, "the hand's record can still be saved"
    finally:
        owner.client.close()


def test_the_host_s_score_screen_says_a_guest_would_like_a_rematch(app: App) -> None:
    room = host_table(app, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    assert room.host is not None
    friend = guest(room.host.url, seed=4)
    pump = pump_all(friend)
    try:
        table = started_with_the_friend(app, room, friend, pump)
        wait_for(
            app,
            lambda: isinstance(app.scene, ScoreScene),
            "the hand ends",
            plays_first_legal(table, pump),
        )
        wait_for(app, lambda: friend.match_over, "Bruno hears the match is over", pump)
        friend.client.next_hand()  # Bruno presses Rematch
        wanted = "Bruno would like a rematch."
        wait_for(app, lambda: score_note(app) == wanted, "told Bruno would like one", pump)
        score = app.scene
        assert isinstance(score, ScoreScene)
        score.skip()
        wait_for(app, lambda: score.done, "the count is over", pump)
        click(app, score.primary.rect.center)
        wait_for(app, lambda: any(table.board.hands), "the rematch is dealt", pump)
        assert friend.errors == []
    finally:
        friend.client.close()
        back_to_menu(app)


def test_a_player_back_after_the_grace_period_takes_the_seat_back_from_the_computer(
    app: App,
) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=None, grace=0.3, **FAST)
    server = ServerThread(config).start()
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        join_page_for_dario_s_table(app, owner, server.url).join_typed()
        wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "joined", pump)
        room = app.scene
        assert isinstance(room, WaitingRoomScene)
        room.toggle_ready()
        table = started_once_anna_is_ready(app, owner, pump)
        client = table.session.client
        client.backoff = client.max_backoff = 3.0  # away for longer than the grace period
        client.kill()

        def replaced() -> bool:
            seats = owner.table["seats"] if owner.table is not None else []
            return any(seat["replaced"] for seat in seats)

        wait_for(app, replaced, "a computer plays for Anna", pump)
        wait_for(app, lambda: client.status == "connected", "Anna is back", pump)
        wait_for(app, lambda: not replaced(), "Anna has her seat again", pump)
        play = plays_first_legal(table, pump)
        wait_for(app, lambda: isinstance(app.scene, ScoreScene), "the hand ends", play)
        assert table.banner.banner == ""
    finally:
        owner.client.close()
        server.stop()


def test_the_hub_checks_the_name_before_hosting(app: App) -> None:
    start(app, MenuScene(app))
    app.open("online")
    app.apply_requests()
    hub = app.scene
    assert isinstance(hub, OnlineScene)
    hub.name_input.set_text("")
    hub.set_name("")
    click(app, hub.host_button.rect.center)
    assert hub.message_bad and isinstance(app.scene, OnlineScene)
    hub.name_input.set_text("Anna")
    hub.set_name("Anna")
    click(app, hub.join_button.rect.center)
    assert isinstance(app.scene, JoinScene) and app.scene.name == "Anna"
    assert app.settings.new_game["seats"][0]["name"] == "Anna"


def test_new_game_hosts_the_chosen_table_with_friends_and_computers(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRISCOLA_HOST_BIND", "127.0.0.1")
    monkeypatch.setenv("BRISCOLA_HOST_PORT", "0")
    start(app, MenuScene(app))
    app.open("newgame", online=True)
    app.apply_requests()
    page = app.scene
    assert isinstance(page, NewGameScene) and page.online
    assert not page.kind_choices[0].enabled, "the host sits in the first seat"
    page.set_preset("chiamata5")
    for seat, kind in enumerate(["human", "human", "hard", "easy", "human"]):
        page.set_kind(seat, kind)
    click(app, page.start_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "the waiting room opens")
    room = app.scene
    assert isinstance(room, WaitingRoomScene)
    wait_for(app, lambda: room.table is not None, "the table's seats arrive")
    assert Rules.from_dict(room.table["rules"]).name == "chiamata5"
    assert [(s["kind"], s["level"]) for s in room.seats()] == [
        ("human", None),
        ("human", None),
        ("bot", "hard"),
        ("bot", "easy"),
        ("human", None),
    ]
    shown = [seat.name for seat in page.setup().seats]
    assert [s["name"] for s in room.seats()][2:4] == shown[2:4], "the names the page showed"
    assert room.host is not None and room.host.announcer is None
    back_to_menu(app)


def test_server_errors_read_as_sentences_and_addresses_as_urls() -> None:
    assert "version" in code_text("version", "x")
    assert "full" in code_text("table_full")
    assert "refused" in code_text("something_new", "m")
    assert address_url("10.0.0.2:9000") == "ws://10.0.0.2:9000"
    assert address_url("[::1]:9000") == "ws://[::1]:9000"
    for bad in ("", "a b", "host:99999", "http://x", "host:port"):
        with pytest.raises(ValueError):
            address_url(bad)


def test_the_table_rests_between_network_messages(app: App, server: ServerThread) -> None:
    """A remote table asks for a frame every few hundredths of a second, not every frame,
    while another player thinks."""
    owner = NetClient(server.url, "Anna").start()
    try:
        owner.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
        code = owner.wait_for(lambda m: m["type"] == "joined", 10)["table"]
        friend = guest(server.url, "Bruno")
        friend.choose = None  # never moves: the host's player waits for them
        pump = pump_all(friend)
        friend.client.join(code)
        friend.client.ready()
        owner.wait_for(lambda m: m["type"] == "table" and m["seats"][1]["ready"], 10)
        owner.start_game()
        session = session_at_the_deal(owner)
        start(app, TableScene(app, session=session))
        table = app.scene
        assert isinstance(table, TableScene)

        def friends_turn() -> bool:
            return not table.busy and table.session.to_play == 1 and not table.renderer.cold

        wait_for(app, friends_turn, "the friend's turn", plays_first_legal(table, pump))
        due = table.next_frame_in()
        if table.painter.pulsing(1):
            assert due == 0.0
        else:
            assert due is not None and 0 < due <= 0.1
        friend.client.close()
    finally:
        owner.close()


def test_a_scene_opened_by_the_network_is_drawn_before_the_window_rests(app: App) -> None:
    """A table that ends without any input (the host left) opens the menu during a frame:
    the App draws the menu once more instead of resting on the table's last picture."""
    start(app, MenuScene(app))
    app.step(DT)
    assert app._next_frame_in() == 0.0  # the menu is new: drawn once more
    app.step(DT)
    assert app._next_frame_in() is None  # the menu is still: the window may rest
    app.open("online")
    app.step(DT)  # the request is applied at the end of the frame
    assert isinstance(app.scene, OnlineScene)
    assert app._next_frame_in() == 0.0, "the new scene has not been drawn yet"
    app.step(DT)
    assert app._next_frame_in() != 0.0  # only the caret's blink


def test_a_game_closed_without_leaving_takes_its_seat_back_from_the_play_online_page(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        room = in_dario_s_waiting_room(app, owner, server.url, pump)
        kept = app.storage.seats.saved()
        assert kept is not None and kept.seat == 1 and kept.url == server.url
        click(app, room.ready_button.rect.center)
        table = started_once_anna_is_ready(app, owner, pump)
        wait_for(
            app,
            lambda: len(table.session.view().tricks) >= 1,
            "a trick",
            plays_first_legal(table, pump),
        )
        # The game dies mid-hand: the connection drops, nothing leaves the table and the dead
        # game never connects again.
        table.session.client.reconnect = False
        table.session.client.kill()
        table.session.close = lambda: None  # type: ignore[method-assign]
        tricks = len(table.session.view().tricks)
        back_to_menu(app)
        app.open("online")
        app.apply_requests()
        hub = app.scene
        assert isinstance(hub, OnlineScene) and hub.rejoin_button.visible
        assert spaced_code(kept.code) in hub.rejoin_button.label()  # as the room shows it
        hub.set_name("Anna")
        click(app, hub.rejoin_button.rect.center)
        wait_for(app, lambda: isinstance(app.scene, TableScene), "the table again", pump)
        again = app.scene
        assert isinstance(again, TableScene) and again is not table
        seen = again.session.view()
        assert seen.seat == 1 and len(seen.tricks) >= tricks
        # The hand so far is shown as it is, not dealt and played again.
        wait_for(app, lambda: not again._first_news, "the first news", pump)
        assert len(again.director.steps) <= 4, "the hand so far is not replayed"
        # The hand goes on from where it was.
        wait_for(
            app,
            lambda: len(again.session.view().tricks) > tricks,
            "another trick",
            plays_first_legal(again, pump),
        )
        back_to_menu(app)
        table.session.client.close()
    finally:
        owner.client.close()


def test_a_seat_that_is_gone_is_forgotten_with_a_message(app: App, server: ServerThread) -> None:
    remember_seat_file({"url": server.url, "code": "ABCDEF", "seat": 1, "token": "x" * 43})
    join = rejoin_from_play_online(app, "Anna")
    wait_for(app, lambda: join.client is None and join.message_bad, "the refusal")
    assert app.storage.seats.saved() is None


def test_a_seat_at_a_table_that_cannot_come_back_is_not_offered(app: App) -> None:
    remember_seat_file(
        {"url": "ws://127.0.0.1:9", "code": "ABCDEF", "seat": 1, "token": "x" * 43, "until": 1.0}
    )
    start(app, MenuScene(app))
    app.open("online")
    app.apply_requests()
    hub = app.scene
    assert isinstance(hub, OnlineScene) and not hub.rejoin_button.visible
    assert app.storage.seats.saved() is None  # its host's game stayed away: forgotten
    remember_seat_file(  # the host's own seat, at a table this computer no longer keeps
        {"url": "ws://127.0.0.1:9", "code": "ABCDEF", "seat": 0, "token": "x" * 43, "hosted": True}
    )
    hub.on_resume()
    assert not hub.rejoin_button.visible and app.storage.seats.saved() is None


def test_a_seat_whose_server_cannot_be_reached_is_kept_and_the_page_says_why(app: App) -> None:
    remember_seat_file({"url": "ws://127.0.0.1:9", "code": "ABCDEF", "seat": 1, "token": "x" * 43})
    join = rejoin_from_play_online(app, "Bruno")
    wait_for(app, lambda: join.client is None and join.message_bad, "the failure")
    assert "its host's game may be closed" in join.message
    assert app.storage.seats.saved() is not None  # the host's game may come back


class _Announced:
    """A network browser that sees one table in play (no mDNS outside a namespace)."""

    def __init__(self, table: LanTable) -> None:
        self.table = table

    def in_play(self, code: str) -> LanTable | None:
        return self.table if code == self.table.code else None

    def tables(self) -> list[LanTable]:
        return []

    def close(self) -> None:
        pass


def test_a_seat_whose_table_moved_to_another_port_is_taken_back_where_it_is_announced(
    app: App, server: ServerThread
) -> None:
    anna = guest(server.url, "Anna")
    anna.client.create(Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    code = anna.client.wait_for(lambda m: m["type"] == "joined")["table"]
    bruno = NetClient(server.url, "Bruno").start()
    bruno.join(code)
    bruno.ready()
    token = bruno.wait_for(lambda m: m["type"] == "joined")["token"]
    anna.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"])
    anna.client.start_game()
    bruno.wait_for(lambda m: m["type"] == "update")
    bruno.close(timeout=2)  # Bruno's game closed; the table moved (here: another server)
    remember_seat_file({"url": "ws://127.0.0.1:9", "code": code, "seat": 1, "token": token})
    join = rejoin_from_play_online(app, "Bruno")
    wait_for(app, lambda: join.client is None and join.message_bad, "the old address fails")
    port = int(server.url.rsplit(":", 1)[1])
    join.lookout.browser = _Announced(
        LanTable("Anna", "127.0.0.1", port, code, "classic2", 2, 0, "Anna", playing=True)
    )  # type: ignore[assignment]
    pump = pump_all(anna)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the seat taken back there", pump)
    held = app.storage.seats.saved()
    assert held is not None and held.url == server.url, "kept with its new address"
    anna.client.close()


@pytest.mark.parametrize("taken", [False, True], ids=["its port", "its port taken"])
def test_a_host_whose_game_died_takes_the_table_back_from_play_online(
    app: App, taken: bool
) -> None:
    room = host_table(app, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "human"}])
    host = room.host
    assert host is not None
    friend = guest(host.url)
    pump = pump_all(friend)
    table = started_with_the_friend(app, room, friend, pump)
    code, port = room.code, host.listening_port
    wait_for(app, lambda: friend.view is not None, "the friend's hand", pump)
    # The game is killed: its server drops every connection, and nothing of the game runs
    # again (no Leave, no goodbye: the table scene is not closed either).
    crash(host)
    table.session.client.close(timeout=2)  # the dead game's client reconnects no more
    table.session.close = lambda: None  # type: ignore[method-assign]
    back_to_menu(app)
    wait_for(app, lambda: friend.client.status == "reconnecting", "the friend reconnects", pump)
    holding = port_taken(port) if taken else contextlib.nullcontext()
    with holding:  # (another program may hold the port now)
        again = table_taken_back(app, code, pump)
        listening = again.session.host.listening_port  # type: ignore[attr-defined]
        if taken:  # not announced (no mDNS here): the host is told the friend is lost
            assert listening != port
            told = [n.text for n in app.notices if f"Port {port} is taken" in n.text]
            assert told and "cannot find it there" in told[0] and str(listening) in told[0]
            back_to_menu(app)
            friend.client.close()
            return
    assert listening == port
    wait_for(app, lambda: friend.client.status == "connected", "the friend is back", pump)
    moves = friend.moves
    wait_for(
        app, lambda: friend.moves > moves + 1, "the hand goes on", plays_first_legal(again, pump)
    )
    back_to_menu(app)  # the host leaves: the table closes, nothing is offered back
    assert app.storage.seats.saved() is None
    friend.client.close()


def table_taken_back(app: App, code: str, pump: Callable[[], None]) -> TableScene:
    """The host's game started again: Play online, Back to your table; the table."""
    app.open("online")
    app.apply_requests()
    hub = app.scene
    assert isinstance(hub, OnlineScene) and hub.rejoin_button.visible
    assert hub.seat is not None and hub.seat.hosted and hub.seat.code == code
    hub.set_name("Anna")
    click(app, hub.rejoin_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table is back", pump)
    again = app.scene
    assert isinstance(again, TableScene)
    assert isinstance(again.session, HostedSession)
    return again


def rejoin_from_play_online(app: App, name: str) -> JoinScene:
    """The game starts: Play online, Back to your table (a guest's seat): the join page."""
    start(app, MenuScene(app))
    app.open("online")
    app.apply_requests()
    hub = app.scene
    assert isinstance(hub, OnlineScene) and hub.rejoin_button.visible
    hub.set_name(name)
    click(app, hub.rejoin_button.rect.center)
    app.apply_requests()
    join = app.scene
    assert isinstance(join, JoinScene)
    return join


def remember_seat_file(seat: dict[str, Any]) -> None:
    path = paths.data_dir() / SEAT_FILE  # as an earlier run of the game left it
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(seat))


class _Browser:
    """A stand-in for the mDNS browser: these tables are on the network."""

    def __init__(self, tables: list[LanTable]) -> None:
        self.found = tables

    def tables(self) -> list[LanTable]:
        return self.found

    def close(self) -> None:
        pass


def test_tables_of_another_version_are_not_listed_but_the_page_says_they_are_there(
    app: App,
) -> None:
    start(app, MenuScene(app))
    app.open("online_join", player="Anna", lan=False)
    app.apply_requests()
    join = app.scene
    assert isinstance(join, JoinScene)
    ours = LanTable("a", "127.0.0.1", 9000, "ABCDEF", "classic2", 2, 1, "Dario")
    older = LanTable("b", "127.0.0.1", 9001, "GHJKMN", "classic2", 2, 1, "Elena", protocol="x/0")
    browser = _Browser([ours, older])
    join.lookout.browser = browser  # type: ignore[assignment]
    guihelp.run_until(app, lambda: join.other_versions == 1, 10)
    assert join.found == [ours] and join.table_buttons[0].visible
    assert not join.table_buttons[1].visible
    say = []
    monkey_draw = join.painter.paragraph

    def paragraph(surface: Any, text: str, *args: Any, **kwargs: Any) -> int:
        say.append(text)
        return monkey_draw(surface, text, *args, **kwargs)

    join.painter.paragraph = paragraph  # type: ignore[method-assign]
    join.draw(app.screen)
    assert any("another version of Briscola" in text for text in say)
    browser.found = [older]
    guihelp.run_until(app, lambda: not join.found, 10)
    say.clear()
    join.draw(app.screen)
    (text,) = [t for t in say if "another version" in t]
    assert text.startswith("Looking for tables")
    join.lookout.browser = None


def test_a_computer_named_with_characters_the_network_refuses_keeps_the_rest() -> None:
    assert online_bot(2, SeatConfig("Robo\u2728 Carla", level="hard")) == {
        "kind": "bot",
        "level": "hard",
        "name": "Robo Carla",
    }
    assert online_bot(2, SeatConfig("\u2728", level="easy"))["name"] == "Carla"


class _SlowAnnouncer:
    """A stand-in for the mDNS announcer (none may reach a real network here) that takes a
    while to start, as a busy network does."""

    made: ClassVar[list[_SlowAnnouncer]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.started = self.stopped = False
        self.starting = threading.Event()
        _SlowAnnouncer.made.append(self)

    async def start(self) -> None:
        self.starting.set()
        await asyncio.sleep(0.3)
        self.started = True

    async def stop(self) -> None:
        self.stopped = True


def test_a_table_closed_while_it_is_being_announced_is_closed_and_unannounced(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("briscola.protocol.lan.TableAnnouncer", _SlowAnnouncer)
    host = EmbeddedHost(bind="127.0.0.1", port=0, announce=True, interfaces=["127.0.0.1"])
    host.start()
    assert wait_until(
        lambda: bool(_SlowAnnouncer.made) and _SlowAnnouncer.made[-1].starting.is_set()
    )
    host.stop()  # the player left the host page at once
    assert host.ready.wait(20) and host.error is None
    announcer = _SlowAnnouncer.made[-1]
    assert announcer.started and announcer.stopped, "the announcement is taken back"
    assert host.server is None and host.announcer is None
    # Nothing is left running: no network thread of this host lives on.
    assert wait_until(lambda: not [t for t in threading.enumerate() if "briscola-server" in t.name])


def wait_until(condition: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def open_the_menu(app: App, table: TableScene) -> PauseScene:
    table.pause()
    app.apply_requests()
    menu = app.scene
    assert isinstance(menu, PauseScene)
    app.step(DT)  # laid out and drawn
    return menu


def test_a_guest_who_leaves_by_accident_is_asked_first_and_takes_the_seat_back(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        table, play = at_dario_s_table(app, owner, server.url, pump)
        wait_for(app, lambda: len(table.session.view().tricks) >= 1, "a trick", play)
        menu = open_the_menu(app, table)
        # Online nothing pauses: the panel says so, and leaving is asked about first.
        assert menu.title == "Menu" and menu.report()["labels"]["menu"] == "Leave the table"
        leave = next(button for button in menu.buttons if button.name == "menu")
        click(app, leave.rect.center)
        app.step(DT)
        assert menu.asking and app.scene is menu
        assert menu.title == "Leave the table"  # the question's title, not "Menu" (issue 50)
        assert "Play online" in menu.online.leave_question()  # type: ignore[union-attr]
        assert set(menu.report()["widgets"]) == {"stay", "confirm_leave"}
        click(app, menu.stay_button.rect.center)
        app.step(DT)
        assert not menu.asking and app.scene is menu, "Stay: still at the table's menu"
        click(app, leave.rect.center)
        app.step(DT)
        click(app, menu.leave_button.rect.center)
        wait_for(app, lambda: isinstance(app.scene, MenuScene), "the main menu", pump)
        assert any("Play online" in notice.text for notice in app.notices)

        def replaced() -> bool:
            return owner.table is not None and bool(owner.table["seats"][1]["replaced"])

        wait_for(app, replaced, "a computer plays for Anna", pump)
        assert app.storage.seats.saved() is not None, "the seat is kept to come back to"
        tricks = len(table.session.view().tricks)
        app.open("online")
        app.apply_requests()
        hub = app.scene
        assert isinstance(hub, OnlineScene) and hub.rejoin_button.visible
        hub.set_name("Anna")
        click(app, hub.rejoin_button.rect.center)
        wait_for(app, lambda: isinstance(app.scene, TableScene), "the table again", pump)
        again = app.scene
        assert isinstance(again, TableScene) and again is not table
        wait_for(app, lambda: not replaced(), "the computer hands the seat back", pump)
        seen = again.session.view()
        assert seen.seat == 1 and len(seen.tricks) >= tricks
        # The hand so far is shown as it is, not dealt and played again.
        wait_for(app, lambda: not again._first_news, "the first news", pump)
        assert len(again.director.steps) <= 4, "the hand so far is not replayed"
        wait_for(
            app,
            lambda: len(again.session.view().tricks) > len(seen.tricks),
            "the hand goes on",
            plays_first_legal(again, pump),
        )
        back_to_menu(app)
    finally:
        owner.client.close()


def test_the_host_is_told_that_leaving_closes_the_table_and_a_local_game_just_pauses(
    app: App,
) -> None:
    room = host_table(app, Rules.preset("classic2"), [{"kind": "human"}, {"kind": "bot"}])
    click(app, room.start_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table opens")
    table = app.scene
    assert isinstance(table, TableScene)
    menu = open_the_menu(app, table)
    menu.quit()
    assert menu.asking, "quitting online is asked about too"
    assert "closes for everyone" in menu.online.leave_question()  # type: ignore[union-attr]
    menu.cancel()
    back_to_menu(app)
    local = guihelp.start_table(app, default_setup(Rules.preset("classic2"), "easy"))
    menu = open_the_menu(app, local)
    assert menu.title == "Paused" and menu.online is None
    menu.menu()
    app.apply_requests()
    assert isinstance(app.scene, MenuScene), "a local table leaves at once (it is autosaved)"


def test_a_server_closing_on_the_waiting_room_leaves_no_seat_to_take_back(app: App) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=None, **FAST)
    server = ServerThread(config).start()
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        room = in_dario_s_waiting_room(app, owner, server.url, pump)
        wait_for(app, lambda: app.storage.seats.saved() is not None, "the seat is kept", pump)
        server.stop()  # closed: shutdown, before the game started
        wait_for(app, lambda: app.scene is not room, "Anna is sent back", pump)
        assert app.storage.seats.saved() is None  # no "Back to your table" to a dead table
    finally:
        owner.client.close()
        server.stop()


def test_the_address_that_reached_a_table_is_filled_in_next_time(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        typed = server.url.removeprefix("ws://")
        join = join_page_for_dario_s_table(app, owner, typed)
        join.join_typed()
        wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "joined", pump)
        assert app.settings.join_address == typed
        back_to_menu(app)
        app.open("online_join", player="Anna", lan=False)
        app.apply_requests()
        again = app.scene
        assert isinstance(again, JoinScene) and again.address_input.text == typed
    finally:
        owner.client.close()


def test_quick_chat_from_the_table_s_menu_reaches_the_other_player_who_may_be_muted(
    app: App, server: ServerThread
) -> None:
    owner = guest(server.url, "Dario")
    pump = pump_all(owner)
    try:
        table, _play = at_dario_s_table(app, owner, server.url, pump)
        menu = open_the_menu(app, table)
        assert menu.report()["labels"]["chat"] == "Quick chat"
        click(app, next(b for b in menu.buttons if b.name == "chat").rect.center)
        app.apply_requests()
        chat = app.scene
        assert isinstance(chat, QuickChatScene) and chat.report()["people"] == ["Dario"]
        app.step(DT)
        labels = chat.report()["labels"]
        assert labels["say_good_game"] == "Good game!" and labels["say_smile"] == ":-)"
        click(app, chat.report()["widgets"]["say_good_game"][:2])
        wait_for(app, lambda: app.scene is table, "back at the table", pump)

        def heard(say: str) -> bool:
            return any(f.get("type") == "said" and f.get("say") == say for f in owner.frames)

        wait_for(app, lambda: heard("good_game"), "Dario hears Anna", pump)
        said = next(f for f in owner.frames if f.get("type") == "said")
        assert said == {"type": "said", "seat": 1, "name": "Anna", "say": "good_game"}
        owner.client.chat("well_played")
        shown = "Dario: Well played!"
        # Among the table's notes, which keep clear of the other seats' cards.
        wait_for(app, lambda: shown in table.banner.notes, "Anna reads it", pump)
        # Mute Dario, and report him: his next words are not shown; the report is taken.
        menu = open_the_menu(app, table)
        click(app, next(b for b in menu.buttons if b.name == "chat").rect.center)
        app.apply_requests()
        chat = app.scene
        assert isinstance(chat, QuickChatScene)
        app.step(DT)
        click(app, chat.mute_buttons[0].rect.center)
        assert chat.mute_buttons[0].label() == "Unmute"
        click(app, chat.report_buttons[0].rect.center)
        assert not chat.report_buttons[0].enabled and chat.report_buttons[0].label() == "Reported"
        chat.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        app.apply_requests()
        assert app.scene is table
        note = "Your report was sent: the server's operator will read it."
        wait_for(app, lambda: any(n.text == note for n in app.notices), "the report", pump)
        registry = server.server.people.registry
        assert [r["player"]["name"] for r in registry.report_list] == ["Dario"]  # type: ignore[attr-defined]
        owner.client.chat("bye")
        wait_for(app, lambda: heard("bye"), "Dario's words went out", pump)
        session = table.session
        assert isinstance(session, RemoteSession)
        session.say("hello")  # (its echo comes to Anna after Dario's words)
        mine = "Anna: Hello!"
        wait_for(app, lambda: mine in table.banner.notes, "Anna's echo", pump)
        assert "Dario: Bye!" not in table.banner.notes, "Dario is muted"
        back_to_menu(app)
    finally:
        owner.client.close()
