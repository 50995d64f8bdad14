"""The public side as a player sees it, headless, against a real in-process server: the
first visit asks a name then lists the lobby; a table opened elsewhere appears and is
joined; quick match seats two into a table; the key's code round trip; the servers list."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import guihelp
import pytest

from briscola.client.connection import NetClient
from briscola.client.identity import Identities, new_key
from briscola.client.public import PublicSide
from briscola.client.sentences import code_text
from briscola.engine import Rules
from briscola.gui.app import App
from briscola.gui.scenes.newgame import NewGameScene
from briscola.gui.scenes.online import OnlineScene
from briscola.gui.scenes.public import PublicScene, entry_text
from briscola.gui.scenes.public_key import PublicKeyScene
from briscola.gui.scenes.quick_match import QuickMatchScene
from briscola.gui.scenes.servers import ServersScene
from briscola.gui.scenes.table import TableScene
from briscola.gui.scenes.waiting_room import WaitingRoomScene
from briscola.gui.widgets.online_page import waited_text
from briscola.server import ServerConfig, ServerThread
from briscola.storage.servers import SERVERS_FILE

pytestmark = pytest.mark.usefixtures("gui_home")
FAST = {"rate": 1000.0, "burst": 1000}


@pytest.fixture(autouse=True)
def _no_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRISCOLA_NO_LAN", "1")


@pytest.fixture
def server() -> Iterator[ServerThread]:
    config = ServerConfig(host="127.0.0.1", port=0, ping_interval=None, bots_after=0.5, **FAST)
    running = ServerThread(config).start()
    yield running
    running.stop()


def wait_for(app: App, condition: object, what: str) -> None:
    def each() -> None:
        time.sleep(0.002)

    if not guihelp.wait_for(app, condition, 30.0, each):  # type: ignore[arg-type]
        raise AssertionError(f"timed out: {what} (scene {type(app.scene).__name__})")


def signed_in_lobby(app: App, url: str, name: str = "Anna") -> PublicScene:
    guihelp.start(app, PublicScene(app, url))
    page = app.scene
    assert isinstance(page, PublicScene)
    assert page.asking and page.name_input.visible
    page.name_input.set_text(name)
    guihelp.click(app, page.sign_button.rect.center)
    wait_for(app, lambda: page.player == name and page.side.stage == "lobby", "signed in")
    return page


def other(url: str, name: str) -> PublicSide:
    client = NetClient(url, name).start()
    return PublicSide(client)


def test_first_visit_asks_a_name_then_lists_the_lobby_and_later_visits_sign_in(
    app: App, server: ServerThread
) -> None:
    page = signed_in_lobby(app, server.url)
    assert not page.name_input.visible and page.quick_button.visible
    kept = Identities(app.storage.keys).get(server.url)
    assert kept is not None and kept.name == "Anna"
    page.close()
    again = PublicScene(app, server.url)
    guihelp.start(app, again)
    assert not again.asking
    wait_for(app, lambda: again.player == "Anna", "signed in with the kept key")


def test_refused_names_are_said_in_plain_words(app: App, server: ServerThread) -> None:
    bruno = NetClient(server.url, "Bruno").start()
    bruno.identify(new_key(), "Bruno")
    bruno.wait_for(lambda m: m["type"] == "identity")
    guihelp.start(app, PublicScene(app, server.url))
    page = app.scene
    assert isinstance(page, PublicScene)
    page.name_input.set_text("mod")
    page.sign_in()
    assert page.message_bad and "reserved" in page.message  # (told before asking)
    page.name_input.set_text("BRUNO")
    page.sign_in()
    wait_for(app, lambda: page.message_bad, "the server refuses the name")
    assert page.message == code_text("name_taken")
    assert page.asking and page.player is None
    bruno.close(timeout=0)


def test_a_table_opened_elsewhere_appears_and_is_joined(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    dario = other(server.url, "Dario")
    dario.create_public(Rules.preset("classic2"))
    wait_for(app, lambda: len(page.entries) == 1, "the table appears in the lobby")
    assert "Dario" in entry_text(page.entries[0])
    assert page.row_buttons[0].visible and page.row_action(0) == "Join"
    guihelp.click(app, page.row_buttons[0].rect.center)
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "the waiting room opens")
    room = app.scene
    assert isinstance(room, WaitingRoomScene)
    wait_for(app, lambda: room.table is not None and len(room.table["seats"]) == 2, "seats")
    names = [seat.get("name") for seat in room.seats()]
    assert names == ["Dario", "Anna"]
    assert page.client is None  # (the lobby's connection rests while a table is open)
    guihelp.click(app, room.leave_button.rect.center)
    wait_for(app, lambda: app.scene is page and page.side.stage == "lobby", "back in the lobby")
    assert page.player == "Anna"
    assert dario.client is not None
    dario.client.close(timeout=0)


def test_a_public_table_created_here_is_listed_elsewhere(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    guihelp.click(app, page.create_button.rect.center)
    app.apply_requests()
    newgame = app.scene
    assert isinstance(newgame, NewGameScene) and newgame.public == server.url
    newgame.start()
    app.apply_requests()
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "the waiting room opens")
    room = app.scene
    assert isinstance(room, WaitingRoomScene)
    assert room.start_button.visible  # (this player opened the table: its host)
    bruno = other(server.url, "Bruno")
    bruno.watch_lobby()

    def listed() -> bool:
        bruno.poll()
        return len(bruno.lobby) == 1

    wait_for(app, listed, "the table is in another player's lobby")
    entry = next(iter(bruno.lobby.values()))
    assert entry["table"] == room.code and entry["seats"][0]["name"] == "Anna"
    assert bruno.client is not None
    bruno.client.close(timeout=0)


def test_two_quick_match_into_a_table(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    guihelp.click(app, page.quick_button.rect.center)
    app.apply_requests()
    quick = app.scene
    assert isinstance(quick, QuickMatchScene)
    guihelp.click(app, quick.wait_button.rect.center)
    wait_for(app, lambda: quick.queued, "waiting")
    bruno = other(server.url, "Bruno")
    bruno.queue(["classic2"])

    def bruno_plays() -> bool:
        bruno.poll()  # (his seat may reach him a moment after Anna's table opens)
        return isinstance(app.scene, TableScene) and bruno.stage == "seated"

    wait_for(app, bruno_plays, "the table opens")
    assert bruno.stage == "seated"
    assert bruno.client is not None
    bruno.client.close(timeout=0)


def test_the_server_offers_computer_players(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    app.open("quick_match", side=page.side)
    app.apply_requests()
    quick = app.scene
    assert isinstance(quick, QuickMatchScene)
    quick.toggle_wait()
    wait_for(app, lambda: quick.bots_button.visible, "computer players offered")
    guihelp.click(app, quick.bots_button.rect.center)
    wait_for(app, lambda: isinstance(app.scene, TableScene), "the table with computers opens")


def test_the_key_s_code_round_trip(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    keys = Identities(app.storage.keys)
    key = keys.get(server.url)
    assert key is not None
    app.open("public_key", url=server.url, side=page.side)
    app.apply_requests()
    keypage = app.scene
    assert isinstance(keypage, PublicKeyScene)
    keypage.show()
    code = keypage.shown_code
    assert code.startswith("BK1-")
    keypage.code_input.set_text(code[:-1] + ("2" if code[-1] != "2" else "3"))
    keypage.import_code()
    assert keypage.message_bad and "mistyped" in keypage.message
    keys.forget(server.url)  # (another computer: no key)
    keypage.code_input.set_text(code.lower())
    keypage.import_code()
    assert not keypage.message_bad
    wait_for(app, lambda: "Anna" in keypage.message, "signed in with the imported key")
    kept = keys.get(server.url)
    assert kept is not None and kept.key == key.key and kept.name == "Anna"


def test_servers_are_added_removed_and_a_damaged_file_reported(app: App) -> None:
    (app.storage.data_dir / SERVERS_FILE).parent.mkdir(parents=True, exist_ok=True)
    (app.storage.data_dir / SERVERS_FILE).write_text("{damaged", encoding="utf-8")
    page = ServersScene(app, lan=False)
    guihelp.start(app, page)
    assert page.message_bad and "damaged" in page.message
    page.address_input.set_text("not an address")
    page.add()
    assert page.message_bad
    page.address_input.set_text("tables.example.org")
    page.add()
    assert page.rows == [("tables.example.org", "ws://tables.example.org:8765", True)]
    assert page.open_buttons[0].visible and page.remove_buttons[0].visible
    assert app.storage.servers.all() == ["tables.example.org"]
    guihelp.click(app, page.remove_buttons[0].rect.center)
    wait_for(app, lambda: not page.rows, "the server removed")
    assert app.storage.servers.all() == []


def test_words() -> None:
    assert waited_text(65) == "1:05"
    assert waited_text(3723) == "1:02:03"
    entry = {"table": "K7MX2Q", "preset": "classic2", "match": "single", "phase": "lobby",
             "free": 1, "waited": 3.0,
             "seats": [{"seat": 0, "kind": "human", "name": "Anna", "free": False, "rating": 1510},
                       {"seat": 1, "kind": "human", "name": "", "free": True}]}  # fmt: skip
    text = entry_text(entry)  # type: ignore[arg-type]
    assert "Anna (1510)" in text and "free" in text


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_the_public_pages_fit_both_window_sizes(
    size: tuple[int, int], server: ServerThread
) -> None:
    from layoutcheck import check_scene

    app = guihelp.make_app(size)
    try:
        hub = OnlineScene(app)  # (Play online, with its Public tables button)
        guihelp.start(app, hub)
        assert hub.public_button.visible and check_scene(app) == []
        app.storage.servers.add("tables.example.org")
        guihelp.start(app, ServersScene(app, lan=False))
        assert check_scene(app) == []
        asking = PublicScene(app, server.url)
        guihelp.start(app, asking)
        asking.name_input.set_text("mod")
        asking.sign_in()  # (the name prompt with a refusal under it)
        assert asking.asking and asking.message_bad and check_scene(app) == []
        asking.close()
        page = signed_in_lobby(app, server.url)
        dario = other(server.url, "Dario")
        dario.create_public(Rules.preset("teams4"))
        wait_for(app, lambda: len(page.entries) == 1, "a table listed")
        assert check_scene(app) == []
        for name, options in (
            ("quick_match", {"side": page.side}),
            ("public_key", {"url": server.url, "side": page.side}),
        ):
            app.open(name, **options)
            app.apply_requests()
            assert check_scene(app) == [], name
            app.pop()
            app.apply_requests()
        assert dario.client is not None
        dario.client.close(timeout=0)
    finally:
        app.close()


def test_the_lobby_is_reachable_by_keyboard(app: App, server: ServerThread) -> None:
    """Tab reaches the first table's Join, Return takes the seat: no mouse needed."""
    import pygame

    page = signed_in_lobby(app, server.url)
    dario = other(server.url, "Dario")
    dario.create_public(Rules.preset("classic2"))
    wait_for(app, lambda: page.row_buttons[0].visible, "the table is listed")
    for _ in range(12):
        if page.group.focused is page.row_buttons[0]:
            break
        guihelp.key(app, pygame.K_TAB)
    assert page.group.focused is page.row_buttons[0]
    guihelp.key(app, pygame.K_RETURN)
    wait_for(app, lambda: isinstance(app.scene, WaitingRoomScene), "the waiting room opens")
    assert dario.client is not None
    dario.client.close(timeout=0)


def test_a_rename_then_a_second_one_is_told_how_long_to_wait(
    app: App, server: ServerThread
) -> None:
    page = signed_in_lobby(app, server.url)
    app.open("public_key", url=server.url, side=page.side, rename_at=page.rename_at)
    app.apply_requests()
    keypage = app.scene
    assert isinstance(keypage, PublicKeyScene)
    keypage.rename_input.set_text("Annetta")
    keypage.rename()
    wait_for(app, lambda: "Annetta" in keypage.message, "renamed")
    kept = Identities(app.storage.keys).get(server.url)
    assert kept is not None and kept.name == "Annetta"
    keypage.rename_input.set_text("Annina")
    keypage.rename()
    wait_for(app, lambda: keypage.message_bad, "the second rename refused")
    assert keypage.message.endswith("You can change it again in 24 hours.")


def test_the_filter_shows_one_configuration(app: App, server: ServerThread) -> None:
    page = signed_in_lobby(app, server.url)
    dario, bruno = other(server.url, "Dario"), other(server.url, "Bruno")
    dario.create_public(Rules.preset("classic2"))
    bruno.create_public(Rules.preset("teams4"))
    wait_for(app, lambda: len(page.entries) == 2, "both tables listed")
    page.filter_choice.set_value("teams4")
    page.set_filter("teams4")
    wait_for(app, lambda: [e["preset"] for e in page.entries] == ["teams4"], "teams4 only")
    page.set_filter(None)
    wait_for(app, lambda: len(page.entries) == 2, "both again")
    for side in (dario, bruno):
        assert side.client is not None
        side.client.close(timeout=0)


def test_watch_opens_the_watch_scene_and_is_harmless_without_it(
    app: App, server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = signed_in_lobby(app, server.url)
    players = [other(server.url, name) for name in ("Dario", "Bruno")]
    for side in players:
        side.queue(["classic2"])
    wait_for(app, lambda: bool(page.entries) and page.row_action(0) == "Watch", "a running table")
    code = page.entries[0]["table"]
    monkeypatch.delitem(app.scene_factories, "watch", raising=False)
    page.choose(0)
    assert page.message_bad and app.scene is page  # (no such scene in this version)
    opened: list[dict[str, object]] = []

    def watch(app: App, **options: object) -> None:
        opened.append(options)

    monkeypatch.setitem(app.scene_factories, "watch", watch)
    page.choose(0)
    assert opened == [{"url": server.url, "code": code, "name": "Anna"}]
    for side in players:
        assert side.client is not None
        side.client.close(timeout=0)


def test_a_long_lobby_turns_its_pages(app: App, server: ServerThread) -> None:
    """More tables than rows: ← and → (or Page Up and Page Down) show the others, and the
    page says which are shown; a filter starts again at the first."""
    import pygame

    from briscola.gui.scenes.public import ROWS

    page = signed_in_lobby(app, server.url)
    total = 2 * ROWS + 2
    for i in range(total):
        code = f"T{i:05d}"
        page.side.lobby[code] = {
            "table": code, "preset": "classic2" if i % 2 else "teams4", "rules": {},
            "match": "single", "phase": "lobby", "seats": [{"name": f"P{i}", "kind": "human"}],
            "free": 1, "waited": float(total - i), "watchers": 0, "rated": False,
        }  # fmt: skip
    app.step(1 / 60)
    assert [e["table"] for e in page.entries] == [f"T{i:05d}" for i in range(ROWS)]
    assert page.next_button.visible and page.next_button.enabled
    assert not page.prev_button.enabled
    guihelp.click(app, page.next_button.rect.center)
    app.step(1 / 60)
    assert page.entries[0]["table"] == f"T{ROWS:05d}" and page.prev_button.enabled
    guihelp.key(app, pygame.K_PAGEDOWN)
    app.step(1 / 60)
    assert [e["table"] for e in page.entries] == [f"T{i:05d}" for i in range(2 * ROWS, total)]
    assert not page.next_button.enabled
    guihelp.key(app, pygame.K_PAGEDOWN)  # (no further)
    app.step(1 / 60)
    assert len(page.entries) == 2
    said: list[str] = []
    painter_fit = page.painter.fit

    def fit(surface: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        said.append(text)
        return painter_fit(surface, text, *args, **kwargs)

    page.painter.fit = fit  # type: ignore[method-assign]
    page.draw(app.screen)
    assert f"{2 * ROWS + 1}–{total} of {total}" in said
    from layoutcheck import check_scene

    assert check_scene(app) == []
    guihelp.key(app, pygame.K_PAGEUP)
    app.step(1 / 60)
    assert page.entries[0]["table"] == f"T{ROWS:05d}"
    page.set_filter("teams4")
    app.step(1 / 60)
    assert page.first == 0 and page.entries[0]["table"] == "T00000"
    assert len(page.entries) == ROWS and page.next_button.enabled  # 7 teams4 tables
    for code in list(page.side.lobby)[2:]:
        del page.side.lobby[code]
    page.set_filter(None)
    app.step(1 / 60)
    assert len(page.entries) == 2 and not page.next_button.visible
