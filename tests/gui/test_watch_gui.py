"""Watching a public table in the game window (issue 47), headless, against a real server
in this process: the "watch" scene opens the table live; the spectator sees every card
played and never a card of a hand, can do nothing at the table, is told when the table ends
and leaves with Esc; the players' table says "1 watching"; a spectator may leave mid-hand."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import guihelp
import pygame
import pytest
from guihelp import click, key, start

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer
from briscola.client.spectator import SpectatorSession
from briscola.engine import Rules
from briscola.gui.app import App
from briscola.gui.scenes.menu import MenuScene
from briscola.gui.scenes.table import TableScene
from briscola.gui.scenes.watch import WatchScene
from briscola.gui.table.plates import info_pieces
from briscola.protocol import messages as msg
from briscola.server import ServerConfig, ServerThread

pytestmark = pytest.mark.usefixtures("gui_home")


@pytest.fixture(autouse=True)
def _no_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRISCOLA_NO_LAN", "1")


@pytest.fixture
def app(app: App) -> App:
    app.settings.speed = "off"
    return app


@pytest.fixture
def server() -> Iterator[ServerThread]:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=None, rate=1000.0, burst=1000)
    running = ServerThread(config).start()
    yield running
    running.stop()


def wait_for(
    app: App, condition: Callable[[], bool], what: str, also: Callable[[], Any] | None = None
) -> None:
    def each_frame() -> None:
        if also is not None:
            also()
        time.sleep(0.001)

    if not guihelp.wait_for(app, condition, 60.0, each_frame):
        raise AssertionError(f"timed out: {what} (scene {type(app.scene).__name__})")


def player(url: str, name: str, seed: int, moves: bool = True) -> HeadlessPlayer:
    chooser = make_bot("random", random.Random(seed)).choose if moves else None
    return HeadlessPlayer(NetClient(url, name).start(), chooser)


def public_table(url: str, moves: bool = True) -> tuple[list[HeadlessPlayer], str]:
    """Dario opens a public table for two (one hand), Bruno joins, the game starts."""
    dario, bruno = player(url, "Dario", 1, moves), player(url, "Bruno", 2, moves)
    create = msg.create(Rules.preset("classic2").to_dict(), None, 0)
    create["public"] = True
    dario.client.submit(create)
    code = dario.client.wait_for(lambda m: m["type"] == "joined", 10)["table"]
    bruno.client.join(code)
    bruno.client.ready()
    dario.run_until(lambda p: p.table is not None and p.table["seats"][1]["ready"], 10)
    dario.client.start_game()
    dario.run_until(lambda p: p.view is not None, 10)
    return [dario, bruno], code


def pumping(players: list[HeadlessPlayer]) -> Callable[[], None]:
    def pump() -> None:
        for each in players:
            while each.pump() is not None:
                pass

    return pump


def watching(app: App, url: str, code: str, pump: Callable[[], None]) -> TableScene:
    """Vera opens the watch scene over the menu: the table it opens."""
    start(app, MenuScene(app))
    app.open("watch", url=url, code=code, name="Vera")
    app.apply_requests()
    assert isinstance(app.scene, WatchScene)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the watched table opens", pump)
    table = app.scene
    assert isinstance(table, TableScene) and isinstance(table.session, SpectatorSession)
    return table


def test_a_spectator_watches_a_table_to_its_end_and_never_sees_a_hand(
    app: App, server: ServerThread
) -> None:
    players, code = public_table(server.url)
    pump = pumping(players)
    table = watching(app, server.url, code, pump)
    seen_faces: set[str] = set()

    def look() -> None:
        pump()
        seen = table.session.view()
        for seat, hand in enumerate(table.board.hands):
            # No card of a hand is known but what every seat knows: the briscola drawn last.
            public = {seen.briscola, *seen.known[seat]}
            assert all(s.card is None or s.card in public for s in hand), (hand, seen)
            assert all(s.flip == 0 for s in hand if not s.air)  # every hand face down
        assert seen.hand == () and not table.awaiting_human
        seen_faces.update(card.code for card in table.session.view().played_cards())

    wait_for(app, lambda: "Watching" in " ".join(table.banner.notes), "the label", look)
    assert "Dario" in table.banner.notes[0] and "Bruno" in table.banner.notes[0]
    assert table.hud.menu.label() == "Leave"
    first = table.board.hands[0][0].rect().center if table.board.hands[0] else (400, 500)
    click(app, first)  # a click on the cards plays nothing
    key(app, pygame.K_h)  # the hint says why there is none
    assert table.captions.banner is not None and "watching" in table.captions.banner[0]()
    table.captions.banner = None
    key(app, pygame.K_u)  # and the undo too
    assert table.captions.banner is not None and "undo" in table.captions.banner[0]()
    wait_for(app, lambda: all(p.phase == "over" for p in players), "the hand ends", look)
    wait_for(app, lambda: table.session.view().phase == "over", "Vera sees its end", look)
    look()
    assert len(seen_faces) == 40  # every card of the hand was seen played
    for each in players:
        each.client.leave()
    wait_for(app, lambda: table.banner.ended, "Vera is told the table ended", look)
    assert "Esc" in table.banner.banner and isinstance(app.scene, TableScene)
    key(app, pygame.K_ESCAPE)
    app.step(guihelp.DT)
    assert isinstance(app.scene, MenuScene)


def test_the_players_see_one_watching_and_a_spectator_leaves_mid_hand(
    app: App, server: ServerThread
) -> None:
    players, code = public_table(server.url, moves=False)  # nobody moves: mid-hand
    pump = pumping(players)
    table = watching(app, server.url, code, pump)
    wait_for(
        app,
        lambda: all(p.table is not None and p.table.get("watchers") == 1 for p in players),
        "the players learn of one spectator",
        pump,
    )
    assert table.session.news().watchers == 1
    lines = [getattr(piece[1], "text", "") for piece in info_pieces(table.painter, None)]
    assert "1 watching" in lines
    key(app, pygame.K_ESCAPE)  # Leave
    app.step(guihelp.DT)
    assert isinstance(app.scene, MenuScene)
    wait_for(
        app,
        lambda: all(p.table is not None and p.table.get("watchers") == 0 for p in players),
        "the players learn the spectator left",
        pump,
    )


def test_a_table_that_cannot_be_watched_says_why(app: App, server: ServerThread) -> None:
    start(app, MenuScene(app))
    app.open("watch", url=server.url, code="K7MX2Q", name="Vera")
    app.apply_requests()
    page = app.scene
    assert isinstance(page, WatchScene)
    wait_for(app, lambda: page.message_bad, "the server's refusal")
    assert "no table" in page.message
    click(app, page.back_button.rect.center)
    app.step(guihelp.DT)
    assert isinstance(app.scene, MenuScene)


def test_the_command_line_watches_a_table_and_refuses_a_bad_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from briscola.gui import cli

    args = cli.build_parser().parse_args(["--watch", "tables.example.org:9000", "k7mx2q"])
    assert args.watch == ["tables.example.org:9000", "k7mx2q"]
    told: list[str] = []
    monkeypatch.setattr(cli, "_fatal", told.append)
    assert cli._run(cli.build_parser().parse_args(["--watch", "http://x", "K7MX2Q"])) == 2
    assert told and "http://x" in told[0]


def test_a_connection_made_is_nothing_wrong(app: App, server: ServerThread) -> None:
    """ "connected" has no sentence and is no refusal: the page did read it as one (red,
    empty) until the server's answer came."""
    start(app, MenuScene(app))
    app.open("watch", url=server.url, code="K7MX2Q", name="Vera")
    app.apply_requests()
    page = app.scene
    assert isinstance(page, WatchScene)
    page._tell({"type": "status", "status": "connected"})  # type: ignore[typeddict-item]
    assert not page.message_bad and page.message == ""
    page._tell({"type": "status", "status": "reconnecting"})  # type: ignore[typeddict-item]
    assert page.message_bad and page.message
