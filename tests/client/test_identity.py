"""The player on a server, client side (issue 47): keys kept per server in the data folder
(damaged files kept aside and reported, never a traceback), moved as a code with a
checksum, quick chat in each reader's language, mute; and NetClient identifying itself,
again after a reconnection, chatting, and stopping for good when banned."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola.client.chat import FACE_TEXT, PHRASE_TEXT, Muted, phrase_text, said_text
from briscola.client.connection import NetClient
from briscola.client.flow import OnlineFlow
from briscola.client.identity import (
    Identities,
    KeyCodeError,
    export_code,
    import_code,
    name_problem,
    new_key,
    sign_in,
    signed_in,
)
from briscola.client.sentences import code_text
from briscola.client.session import RemoteSession
from briscola.engine import Rules
from briscola.protocol.errors import ErrorCode
from briscola.protocol.people import FACES, PHRASES, QUICK_CHAT
from briscola.server import ServerConfig, ServerThread
from briscola.server.registry import Ban, address_target
from briscola.storage import Storage
from briscola.storage.keys import KeyStore, ServerKey
from briscola.text import i18n

URL = "wss://briscola.example.org:9000"


def test_a_key_code_round_trips_in_any_case_with_or_without_dashes() -> None:
    for _ in range(20):
        key = new_key()
        code = export_code(key)
        assert code.startswith("BK1-") and len(code) == 69
        assert import_code(code) == key
        assert import_code(code.lower().replace("-", "")) == key
        assert import_code(" ".join(code.split("-"))) == key


def test_a_mistyped_key_code_is_refused_by_its_checksum() -> None:
    key = new_key()
    code = export_code(key)
    refused = 0
    for at in range(4, len(code)):
        if code[at] == "-":
            continue
        wrong = "X" if code[at] != "X" else "Y"
        with pytest.raises(KeyCodeError, match="mistyped"):
            import_code(code[:at] + wrong + code[at + 1 :])
        refused += 1
    assert refused == 55
    with pytest.raises(KeyCodeError, match="all of it was copied"):
        import_code(code[:-3])
    with pytest.raises(KeyCodeError, match="all of it was copied"):
        import_code(code[:-1] + "U")  # (no U in the alphabet)


def test_look_alike_characters_are_read_as_the_digits() -> None:
    key = "00" * 32
    code = export_code(key)
    assert import_code(code.replace("0", "O")) == key
    assert import_code(export_code("11" * 32).replace("1", "l")) == "11" * 32


def test_each_server_has_its_key_in_the_data_folder(tmp_path: Path) -> None:
    identities = Identities(Storage(tmp_path / "config", tmp_path / "data").keys)
    key, other = new_key(), new_key()
    assert identities.remember(URL, key, "Zoë")
    assert identities.remember("ws://127.0.0.1", other, "Zoë B")
    assert identities.get("wss://BRISCOLA.example.org:9000/?table=K7MX2Q") == ServerKey(key, "Zoë")
    assert identities.get("ws://127.0.0.1:8765") == ServerKey(other, "Zoë B")
    assert identities.get("ws://127.0.0.1:9999") is None
    assert (tmp_path / "data" / "keys.json").exists()
    assert import_code(identities.export(URL) or "") == key
    assert identities.forget(URL) and identities.get(URL) is None


def test_a_key_imported_on_another_computer_is_kept_for_its_server(tmp_path: Path) -> None:
    here = Identities(KeyStore(tmp_path / "here"))
    there = Identities(KeyStore(tmp_path / "there"))
    key = new_key()
    here.remember(URL, key, "Zoë")
    code = here.export(URL)
    assert code is not None
    assert there.import_(URL, code) == key
    assert there.get(URL) == ServerKey(key, "")
    with pytest.raises(KeyCodeError):
        there.import_(URL, code[:-1] + ("2" if code[-1] != "2" else "3"))
    assert there.get(URL) == ServerKey(key, "")  # (a bad code changes nothing)


def test_a_damaged_keys_file_is_kept_aside_and_reported(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.path.write_text('{"servers": {"ws://a:1": {"key": "', encoding="utf-8")
    assert store.all() == {}
    assert store.notice is not None and "damaged" in store.notice
    assert (tmp_path / "keys.json.bak").exists()
    assert store.put("ws://a:1", ServerKey("ab" * 32, "Ada"))
    assert store.get("ws://a:1") == ServerKey("ab" * 32, "Ada")


def test_entries_that_are_not_keys_are_left_out(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.path.write_text(
        '{"servers": {"ws://a:1": {"key": "AB", "name": "x"}, "ftp://b": {"key": "'
        + "ab" * 32
        + '", "name": "y"}, "ws://c:1": {"key": "'
        + "cd" * 32
        + '", "name": "Carla\\u0000"}, "ws://d:1": 7}}',
        encoding="utf-8",
    )
    assert store.all() == {"ws://c:1": ServerKey("cd" * 32, "Carla")}


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs permissions")
def test_an_unreadable_keys_file_is_reported_and_never_written_over(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    store.path.write_text('{"servers": {}}', encoding="utf-8")
    store.path.chmod(0)
    try:
        assert not store.put(URL, ServerKey(new_key(), "Zoë"))
        assert store.notice is not None
    finally:
        store.path.chmod(0o600)
    assert store.path.read_text(encoding="utf-8") == '{"servers": {}}'


def test_every_quick_chat_code_is_worded_in_every_language() -> None:
    assert set(PHRASE_TEXT) == set(PHRASES) and set(FACE_TEXT) == set(FACES)
    english = {say: phrase_text(say) for say in QUICK_CHAT}
    assert all(english.values())
    for language in ("it", "es", "de"):
        i18n.set_language(language)
        try:
            for say in PHRASES:
                assert phrase_text(say) not in (None, english[say]), (language, say)
            for say in FACES:
                assert phrase_text(say) == english[say]
        finally:
            i18n.set_language("en")
    i18n.set_language("it")
    try:
        line = said_text({"type": "said", "seat": 0, "name": "Zoë", "say": "good_game"})
        assert line == "Zoë: Bella partita!"
    finally:
        i18n.set_language("en")


def test_muting_is_per_player_name_as_the_server_compares_names() -> None:
    muted = Muted(["Zoë Rossi"])
    assert not muted.shows("ZOE_ROSSI") and muted.shows("Anna")
    assert muted.toggle("zoë rossi") is False and muted.shows("Zoë Rossi")


def test_a_name_s_problem_is_told_before_it_is_sent() -> None:
    assert name_problem("Zoë") is None
    assert name_problem("") == code_text(ErrorCode.BAD_NAME)
    problem = name_problem("admin")
    assert problem is not None and problem.startswith("That name cannot be used:")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(port=0, records=tmp_path, ping_interval=None, grace=30.0)
    running = ServerThread(config).start()
    yield running
    running.stop()


def test_a_client_registers_then_identifies_again_after_a_reconnection(
    server: ServerThread,
) -> None:
    key = new_key()
    client = NetClient(server.url, "Guest", backoff=0.05, max_backoff=0.2)
    client.identify(key, "Zoë")
    client.start()
    try:
        first = client.wait_for(lambda m: m["type"] == "identity", 10)
        assert first["type"] == "identity" and first["new"] is True
        assert client.identity == client.name == "Zoë" and client.register is None
        client.kill()  # the connection drops: the client comes back and says who it is
        again = client.wait_for(lambda m: m["type"] == "identity", 10)
        assert again["type"] == "identity" and again["name"] == "Zoë" and not again["new"]
        assert client.reconnects >= 1
    finally:
        client.close()


def test_two_clients_chat_at_a_table_and_a_banned_one_stops_for_good(
    server: ServerThread,
) -> None:
    host = NetClient(server.url, "Ada").start()
    guest = NetClient(server.url, "Bea", backoff=0.05).start()
    try:
        host.identify(new_key(), "Ada")
        host.wait_for(lambda m: m["type"] == "identity")
        host.create(Rules.preset("classic2"))
        code = str(host.wait_for(lambda m: m["type"] == "joined")["table"])  # type: ignore[typeddict-item]
        guest.join(code)
        guest.wait_for(lambda m: m["type"] == "joined")
        guest.chat("well_played")
        said = host.wait_for(lambda m: m["type"] == "said")
        assert said == {"type": "said", "seat": 1, "name": "Bea", "say": "well_played"}
        registry = server.server.people.registry
        ban = Ban(address_target("127.0.0.1"), "spam", 0.0)
        server.call(lambda: asyncio.ensure_future(registry.ban(ban)))
        late = NetClient(server.url, "Cleo", backoff=0.05).start()
        try:
            refused = late.wait_for(lambda m: m["type"] == "error")
            assert refused["code"] == "banned" and refused["message"] == "spam"  # type: ignore[typeddict-item]
            late.wait_for(lambda m: m.get("status") == "failed")
            assert code_text("banned", "spam").endswith("The reason given: spam")
        finally:
            late.close()
    finally:
        host.close()
        guest.close()


def test_sign_in_registers_a_new_key_once_and_uses_the_kept_one_after(
    server: ServerThread, tmp_path: Path
) -> None:
    identities = Identities(KeyStore(tmp_path / "data"))
    first = NetClient(server.url, "Guest")
    assert not sign_in(first, identities)  # no key kept, no name: ask the player for one
    assert sign_in(first, identities, "Zoë")
    first.start()
    try:
        answer = first.wait_for(lambda m: m["type"] == "identity")
        assert answer["type"] == "identity" and answer["new"]
        assert signed_in(first, identities, answer)
    finally:
        first.close()
    kept = identities.get(server.url)
    assert kept is not None and kept.name == "Zoë" and kept.key == first.key
    again = NetClient(server.url, "Guest")
    assert sign_in(again, identities)
    again.start()
    try:
        answer = again.wait_for(lambda m: m["type"] == "identity")
        assert answer["type"] == "identity" and answer["name"] == "Zoë" and not answer["new"]
    finally:
        again.close()


def test_the_table_s_session_keeps_the_quick_chat_but_the_muted_players() -> None:
    client = NetClient("ws://127.0.0.1:9", "Ann", reconnect=False)
    client.seat = 0
    session = RemoteSession(client)
    session.muted.toggle("Bea")
    for seat, name in ((1, "Bea"), (2, "Cleo")):
        client.incoming.put({"type": "said", "seat": seat, "name": name, "say": "hello"})
    assert [said["name"] for said in session.take_said()] == ["Cleo"]
    assert session.take_said() == []


def test_the_flow_joins_on_when_a_name_is_refused_and_keeps_the_room_s_chat(
    server: ServerThread,
) -> None:
    def stranger(*args: Any, **options: Any) -> NetClient:
        client = NetClient(*args, **options)
        client.identify(new_key())  # a key this server does not know, and no name
        return client

    host = NetClient(server.url, "Dario").start()
    try:
        host.create(Rules.preset("classic2"))
        code = str(host.wait_for(lambda m: m["type"] == "joined")["table"])  # type: ignore[typeddict-item]
        flow = OnlineFlow("Anna", client=stranger)
        flow.join(server.url, code)
        deadline = time.monotonic() + 10
        while flow.poll() != "room":
            assert flow.stage == "joining" and time.monotonic() < deadline, flow.problem
            time.sleep(0.01)
        assert flow.problem is not None and flow.problem.code is ErrorCode.UNKNOWN_KEY
        host.chat("hello")
        while not flow.said:
            flow.poll()
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert flow.said[0]["name"] == "Dario" and flow.said[0]["say"] == "hello"
        flow.leave()
    finally:
        host.close()
