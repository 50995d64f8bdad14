"""Nothing a file or a peer sends can crash the game or lose a statistic.

A corpus of damaged files and messages (``tests/corpus/``, see its README) is run against
every loader (settings, statistics, autosave, records), the bot program, the arena's command
line and the app's start-up; each gives a clear message or an error reply, exit status 2 for
a wrong command line, and never a traceback. Statistics and the autosave never lose what was
good. Deeply nested and oversized documents are made here rather than stored.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from enginehelp import answering_program, arena_figures, bot_program
from hypothesis import given
from hypothesis import strategies as st

from briscola.arena import main as arena_main
from briscola.engine import (
    CodecError,
    GameState,
    ReplayError,
    parse_json,
    read_records,
    replay,
    view_from_json,
)
from briscola.engine.codec import MAX_DEPTH, nesting_depth
from briscola.storage import autosave
from briscola.storage import files as storage
from briscola.storage.autosave import Autosave
from briscola.storage.settings import Settings, load_settings, peek_language, usable_window_pos
from briscola.storage.stats import Stats

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
EXPECT: dict[str, dict[str, Any]] = json.loads((CORPUS / "expect.json").read_text("utf-8"))


def _corpus_doc(name: str) -> dict[str, Any]:
    """The JSON document ``name`` (``kind/file.json``) of the corpus."""
    doc: dict[str, Any] = json.loads((CORPUS / name).read_text())
    return doc


DEEP = ("[" * 100_000 + "]" * 100_000).encode()
DEEP_OBJECT = ('{"a":' * 5_000 + "1" + "}" * 5_000).encode()
#: Made at run time: (name, bytes).
MADE = [("deep-array.json", DEEP), ("deep-object.json", DEEP_OBJECT)]


def corpus(kind: str) -> list[tuple[str, bytes]]:
    """(name, content) of every corpus file of one kind, and the ones made here."""
    files = sorted((CORPUS / kind).glob("*.json"))
    return [(path.name, path.read_bytes()) for path in files] + MADE


def expect(kind: str, name: str) -> dict[str, Any]:
    return EXPECT.get(f"{kind}/{name}", {})


def ids(items: list[tuple[str, bytes]]) -> list[str]:
    return [name for name, _content in items]


def no_traceback(text: str) -> None:
    assert "Traceback" not in text, text[-2000:]


def test_the_corpus_covers_every_loader() -> None:
    for kind in ("settings", "stats", "autosave", "records", "bot"):
        assert len(list((CORPUS / kind).glob("*.json"))) >= 8, kind
    assert all((CORPUS / rel).is_file() for rel in EXPECT)


# ---------------------------------------------------------------------------- the reader


def test_parse_json_refuses_what_json_loads_cannot_survive() -> None:
    for text, reason in (
        (DEEP, "deeper"),
        (b"\xff\xfe[]", "UTF-8"),
        (b"[1e400]", "out of range"),
        (b"[NaN]", "not a JSON number"),
        (b"[" + b"9" * 5000 + b"]", "not JSON"),
        (b"[1]" + b" " * 100, "too large"),
    ):
        with pytest.raises(CodecError, match=reason):
            parse_json(text, max_chars=100 if reason == "too large" else 4_000_000)
    assert parse_json(b'\xef\xbb\xbf{"a": "]]]"}') == {"a": "]]]"}


def test_leftover_temporary_files_of_killed_writes_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    storage.atomic_write_json(path, {"format": 1, "entries": []})
    old = [tmp_path / f".stats.json.{tag}.tmp" for tag in ("ab12cd34", "zz_99xyz")]
    fresh = tmp_path / ".stats.json.freshone.tmp"
    foreign = [tmp_path / ".other.json.ab12cd34.tmp", tmp_path / ".stats.json.tmp"]
    for leftover in [*old, fresh, *foreign]:
        leftover.write_text("{")
    past = time.time() - 3600
    for leftover in [*old, *foreign]:
        os.utime(leftover, (past, past))
    assert storage.read_file(path).status == "ok"
    assert not any(p.exists() for p in old)
    assert fresh.exists() and all(p.exists() for p in foreign)


def test_the_records_folder_is_cleaned_of_killed_saves_too(tmp_path: Path) -> None:
    from briscola.gui.scenes.replay import load_entries

    kept = tmp_path / "hand-1.json"
    kept.write_bytes(dict(RECORDS)["valid-classic2.json"])
    leftovers = [tmp_path / f".hand-{n}.json.a1b2c3d{n}.tmp" for n in range(3)]
    other = tmp_path / ".notes.txt.a1b2c3d4.tmp"
    for leftover in [*leftovers, other]:
        leftover.write_text("{")
        os.utime(leftover, (time.time() - 3600,) * 2)
    assert [entry.path for entry in load_entries(tmp_path)] == [kept]
    assert not any(p.exists() for p in leftovers) and other.exists()


def test_a_second_damage_keeps_the_first_backup(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    contents = [b"{first", b"{second", b"{third"]
    for content in contents:
        path.write_bytes(content)
        assert storage.read_file(path).status == "damaged"
    kept = [p.read_bytes() for p in storage.backups(path)]
    assert kept == contents[::-1]
    for _ in range(storage.KEEP_BACKUPS + 2):
        path.write_bytes(b"{again")
        storage.read_file(path)
    assert len(storage.backups(path)) == storage.KEEP_BACKUPS


# ---------------------------------------------------------------------------- settings

SETTINGS = corpus("settings")


@pytest.mark.parametrize(("name", "content"), SETTINGS, ids=ids(SETTINGS))
def test_damaged_settings_fall_back_to_defaults_with_a_notice(
    tmp_path: Path, name: str, content: bytes
) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    assert peek_language(path) in ("", "it", "de", "es", "en")
    settings, notice = load_settings(path)
    assert isinstance(settings, Settings)
    keep = expect("settings", name).get("keep", {})
    for field, value in keep.items():
        assert getattr(settings, field) == value, field
    if name != "bom.json":
        assert notice
    if expect("settings", name).get("window_pos_used") is False:
        assert usable_window_pos(settings.window_pos, [(1920, 1080)]) is None


def test_a_window_position_off_every_screen_is_not_used() -> None:
    assert usable_window_pos([30000, 30000], [(1920, 1080)]) is None
    assert usable_window_pos([-5000, 10], [(1920, 1080)]) is None
    assert usable_window_pos([30, 30], []) is None  # desktop unknown: let the system place it
    assert usable_window_pos([2500, 100], [(1920, 1080), (1920, 1200)]) == [2500, 100]


def _run_game(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, BRISCOLA_HOME=str(home), SDL_VIDEODRIVER="dummy")
    env["SDL_AUDIODRIVER"] = "dummy"
    env.pop("BRISCOLA_REPORT", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    "name", ["deep-array.json", "not-utf8.json", "wrong-types.json", "long-integer.json"]
)
def test_the_game_starts_with_a_damaged_settings_file(tmp_path: Path, name: str) -> None:
    content = dict(SETTINGS)[name]
    (tmp_path / "settings.json").write_bytes(content)
    done = _run_game(tmp_path, "--help")
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr
    no_traceback(done.stderr + done.stdout)
    (tmp_path / "settings.json").write_bytes(content)
    done = _run_game(tmp_path, "--self-check")
    # Status 1 only reports missing card, sound or font files (not this test's business).
    assert done.returncode in (0, 1) and "result:" in done.stdout, done.stderr
    assert "unexpected problem" not in done.stderr
    no_traceback(done.stderr + done.stdout)


def test_the_game_removes_old_temporary_files_of_killed_saves_at_start(tmp_path: Path) -> None:
    old = [tmp_path / ".stats.json.k1ll3d00.tmp", tmp_path / ".autosave.json.k1ll3d01.tmp"]
    old.append(tmp_path / ".settings.json.k1ll3d02.tmp")
    (tmp_path / "records").mkdir()
    old.append(tmp_path / "records" / ".hand-7.json.k1ll3d03.tmp")
    fresh = tmp_path / ".stats.json.w0rk1ng0.tmp"
    mine = tmp_path / ".my-notes.txt.k1ll3d04.tmp"
    for leftover in [*old, fresh, mine]:
        leftover.write_text("{")
    for leftover in [*old, mine]:
        os.utime(leftover, (time.time() - 3600,) * 2)
    done = _run_game(tmp_path, "--self-check")
    no_traceback(done.stderr)
    assert not any(p.exists() for p in old)
    assert fresh.exists() and mine.exists()


def test_the_game_forgets_a_window_position_off_screen(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"window_pos": [30000, 30000]}')
    done = _run_game(tmp_path, "--frames", "2", "--windowed")
    assert done.returncode == 0, done.stderr
    no_traceback(done.stderr)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["window_pos"] != [30000, 30000]


def test_a_wrong_game_command_line_exits_with_status_2(tmp_path: Path) -> None:
    for args in (["--size", "99999x1"], ["--frames", "-1"], ["--lang", "xx"], ["--nope"]):
        done = _run_game(tmp_path, *args)
        assert done.returncode == 2, args
        no_traceback(done.stderr)


# ---------------------------------------------------------------------------- statistics

STATS = corpus("stats")


def _counts(stats: Stats) -> dict[str, int]:
    return {f"{preset}/{strength}": e.hands for (preset, strength), e in stats.entries.items()}


@pytest.mark.parametrize(("name", "content"), STATS, ids=ids(STATS))
def test_damaged_statistics_keep_what_was_good_and_a_copy(
    tmp_path: Path, name: str, content: bytes
) -> None:
    from test_stats import setup_for, two_sided

    path = tmp_path / "stats.json"
    path.write_bytes(content)
    stats = Stats.load(path)
    assert stats.notice
    keep: dict[str, int] = expect("stats", name).get("keep", {})
    for key, hands in keep.items():
        assert _counts(stats)[key] == hands
    assert content in [p.read_bytes() for p in storage.backups(path)]
    stats.record_hand(setup_for(), two_sided((70, 50)), 0)
    assert stats.save() is None
    again = _counts(Stats.load(path))
    for key, hands in keep.items():
        assert again[key] == hands + (key == "classic2/medium")


def test_the_statistics_screen_shows_damaged_statistics(tmp_path: Path) -> None:
    from guihelp import make_app, start

    from briscola.gui.scenes.stats import StatsScene

    app = make_app()
    for name, content in STATS:
        path = tmp_path / name
        path.write_bytes(content)
        stats = Stats.load(path)
        assert all(key.isprintable() for pair in stats.entries for key in pair)
        start(app, StatsScene(app, stats))
        app.step(1 / 60)


def test_statistics_that_cannot_be_read_are_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_stats import setup_for, two_sided

    path = tmp_path / "stats.json"
    seven = Stats(path)
    for _hand in range(7):
        seven.record_hand(setup_for(), two_sided((70, 50)), 0)
    assert seven.save() is None
    before = path.read_bytes()
    real = storage._read_bytes

    def refuse(target: Path, limit: int) -> bytes:
        if target == path:
            raise PermissionError(13, "Permission denied")
        return real(target, limit)

    monkeypatch.setattr(storage, "_read_bytes", refuse)
    stats = Stats.load(path)
    assert stats.notice and "Permission denied" in stats.notice
    stats.record_hand(setup_for(), two_sided((30, 90)), 0)
    notice = stats.save()
    assert notice and "stats.json.pending" in notice
    assert path.read_bytes() == before
    # The next session still cannot read it: its hand joins the one waiting.
    later = Stats.load(path)
    later.record_hand(setup_for(), two_sided((61, 59)), 0)
    later.save()
    assert path.read_bytes() == before
    monkeypatch.undo()
    healed = Stats.load(path)
    entry = healed.entries[("classic2", "medium")]
    assert (entry.hands, entry.hands_won, entry.hands_lost) == (9, 8, 1)
    assert healed.save() is None
    assert not healed.pending_path.exists()
    assert Stats.load(path).entries[("classic2", "medium")].hands == 9


def test_statistics_become_readable_again_during_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_stats import setup_for, two_sided

    path = tmp_path / "stats.json"
    old = Stats(path)
    for _hand in range(3):
        old.record_hand(setup_for(), two_sided((70, 50)), 0)
    old.save()
    real = storage._read_bytes
    monkeypatch.setattr(
        storage,
        "_read_bytes",
        lambda target, limit: (
            (_ for _ in ()).throw(PermissionError(13, "denied"))
            if target == path
            else real(target, limit)
        ),
    )
    stats = Stats.load(path)
    monkeypatch.undo()
    stats.record_hand(setup_for(), two_sided((70, 50)), 0)
    assert stats.save() is None
    assert Stats.load(path).entries[("classic2", "medium")].hands == 4


# ---------------------------------------------------------------------------- autosave

AUTOSAVES = corpus("autosave")


@pytest.mark.parametrize(("name", "content"), AUTOSAVES, ids=ids(AUTOSAVES))
def test_a_damaged_autosave_is_discarded_with_a_notice(
    tmp_path: Path, name: str, content: bytes
) -> None:
    path = tmp_path / "autosave.json"
    saves = Autosave(path)
    path.write_bytes(content)
    saved, notice = saves.load()
    if expect("autosave", name).get("restores"):
        assert saved is not None and notice is None
        assert saved.state is not None and len(saved.state.tricks) >= 1
        assert all(seat.name.isprintable() for seat in saved.setup.seats)
    else:
        assert saved is None and notice
        assert not saves.exists()
        assert content in [p.read_bytes() for p in storage.backups(path)]


def test_a_failed_autosave_is_reported_and_the_older_one_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "autosave.json"
    saves = Autosave(path)
    path.write_bytes(dict(AUTOSAVES)["valid.json"])
    older, _notice = saves.load()
    assert older is not None and older.state is not None
    saves.take_notice()

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave, "atomic_write_json", full)
    state = older.state.clone()
    state.apply(state.legal_actions()[0])
    saves.save(older.setup, older.match, state, background=True)
    saves.flush()
    notice = saves.take_notice()
    assert notice and "No space left" in notice
    assert saves.take_notice() is None  # told once
    assert not saves.exists()  # Continue cannot resume the older game
    saves.save(older.setup, older.match, state, background=True)
    saves.flush()
    assert saves.take_notice() is None  # not after every move while the disk is full
    monkeypatch.undo()
    saves.save(older.setup, older.match, state)
    assert saves.exists() and saves.take_notice() is None
    monkeypatch.setattr(autosave, "atomic_write_json", full)
    saves.save(older.setup, older.match, state)
    assert saves.take_notice()  # a new failure after a success is told again


def test_an_older_autosave_that_cannot_be_removed_is_emptied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "autosave.json"
    saves = Autosave(path)
    path.write_bytes(dict(AUTOSAVES)["valid.json"])
    older, _notice = saves.load()
    assert older is not None
    denied = PermissionError(13, "Permission denied")
    monkeypatch.setattr(autosave, "atomic_write_json", lambda *args: (_ for _ in ()).throw(denied))
    real_unlink = Path.unlink

    def unlink(self: Path, missing_ok: bool = False) -> None:
        if self == path:
            raise denied  # a read-only folder: no file can be removed or created there
        real_unlink(self, missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    saves.save(older.setup, older.match, older.state)
    assert saves.take_notice()
    saved, notice = saves.load()
    assert saved is None and notice  # never the older game


def test_the_player_is_told_when_the_autosave_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from guihelp import make_app

    path = tmp_path / "autosave.json"
    saves = Autosave(path)
    path.write_bytes(dict(AUTOSAVES)["valid.json"])
    saved, _notice = saves.load()
    assert saved is not None
    app = make_app()
    monkeypatch.setattr(
        autosave,
        "atomic_write_json",
        lambda *args: (_ for _ in ()).throw(PermissionError(13, "Permission denied")),
    )
    app.storage.autosave.save(saved.setup, saved.match, saved.state, background=True)
    app.storage.autosave.flush()
    app.step(1 / 60)
    assert any("could not be saved" in notice.text for notice in app.notices)


def test_a_folder_where_the_autosave_should_be(tmp_path: Path) -> None:
    path = tmp_path / "autosave.json"
    saves = Autosave(path)
    path.mkdir()
    saved, notice = saves.load()
    assert saved is None and notice
    setup_doc = json.loads(dict(AUTOSAVES)["valid.json"])
    restored = tmp_path / "valid.json"
    restored.write_text(json.dumps(setup_doc))
    good, _ = Autosave(restored).load()
    assert good is not None
    saves.take_notice()
    saves.save(good.setup, good.match, good.state)
    assert saves.take_notice()


# ---------------------------------------------------------------------------- records

RECORDS = corpus("records")


@pytest.mark.parametrize(("name", "content"), RECORDS, ids=ids(RECORDS))
def test_a_bad_record_is_refused_with_a_replay_error(name: str, content: bytes) -> None:
    try:
        doc = parse_json(content)
    except CodecError:
        assert not expect("records", name).get("valid")
        return
    if expect("records", name).get("valid"):
        state = replay(doc)
        assert isinstance(state, GameState)
    else:
        with pytest.raises(ReplayError):
            replay(doc)


def test_read_records_reports_bad_lines_without_crashing(tmp_path: Path) -> None:
    for name, content in RECORDS:
        path = tmp_path / name
        path.write_bytes(content)
        try:
            docs = list(read_records(path))
        except ReplayError:
            continue
        assert all(isinstance(doc, dict) for doc in docs)
    lines = tmp_path / "games.jsonl"
    one_line = json.dumps(json.loads(dict(RECORDS)["valid-classic2.json"])).encode()
    lines.write_bytes(one_line + b"\n" + DEEP + b"\n")
    with pytest.raises(ReplayError, match="line 2"):
        list(read_records(lines))


def test_the_replay_list_shows_only_good_records_and_steps_any_to_its_end(
    tmp_path: Path,
) -> None:
    pytest.importorskip("pygame")
    from guihelp import make_app, start

    from briscola.gui.scenes.replay import ReplayScene, load_entries

    for name, content in RECORDS:
        (tmp_path / name).write_bytes(content)
    shown = {entry.path.name for entry in load_entries(tmp_path)}
    valid = {name for name, _c in RECORDS if expect("records", name).get("valid")}
    assert shown == valid
    app = make_app()
    for entry in load_entries(tmp_path):
        assert isinstance(entry.title, str)
        scene = ReplayScene(app, entry.doc)
        start(app, scene)
        for _trick in range(len(scene.tricks) + 1):
            scene.step(1)
            app.step(1 / 60)
        assert scene.index == len(scene.tricks)
        assert len(scene.names) == scene.session.rules.players


# ---------------------------------------------------------------------------- bot program

BOT = sorted((CORPUS / "bot").glob("*.json"))


def test_the_bot_program_answers_every_damaged_request_with_an_error() -> None:
    lines = [path.read_bytes().strip() for path in BOT] + [DEEP, DEEP_OBJECT]
    wanted = [expect("bot", path.name).get("reply") for path in BOT] + ["error", "error"]
    done = subprocess.run(
        [sys.executable, "-m", "briscola.bot", "--level", "medium", "--seed", "1"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0
    no_traceback(done.stderr.decode("utf-8", "replace"))
    replies = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(replies) == len(lines)
    for path_name, want, reply in zip(
        [p.name for p in BOT] + ["deep", "deep-object"], wanted, replies, strict=True
    ):
        if want == "error":
            assert set(reply) <= {"error", "id"} and reply["error"], path_name
        else:
            assert "error" not in reply and ("play" in reply or "bid" in reply), path_name


def test_the_bot_program_ends_quietly_when_the_host_stops_reading() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "briscola.bot", "--level", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.close()
    try:
        proc.stdin.write(b'{"cmd": "hello"}\n' * 2000)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=60) == 0
    assert proc.stderr is not None
    no_traceback(proc.stderr.read().decode("utf-8", "replace"))
    proc.stderr.close()


def test_a_view_with_legal_cards_the_hand_does_not_hold_is_refused() -> None:
    message = _corpus_doc("bot/act-legal-card-not-in-hand.json")
    with pytest.raises(ValueError, match="does not hold"):
        view_from_json(message["view"])


# ---------------------------------------------------------------------------- arena


def _arena_lines(tmp_path: Path) -> list[list[str]]:
    text = (CORPUS / "arena" / "bad-command-lines.txt").read_text()
    folder = tmp_path / "out"
    folder.mkdir(exist_ok=True)
    missing = tmp_path / "missing"
    return [
        line.format(missing=missing, folder=folder).split()
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_every_bad_arena_command_line_exits_with_status_2_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _arena_lines(tmp_path)
    assert len(lines) >= 20
    for argv in lines:
        with pytest.raises(SystemExit) as stop:
            arena_main([*argv, "--deals", "1", "--quiet"] if "--deals" not in argv else argv)
        assert stop.value.code == 2, argv
        captured = capsys.readouterr()
        assert "error:" in captured.err and not captured.out, argv
        no_traceback(captured.err)
    assert not (tmp_path / "missing").exists()


def test_a_bot_that_answers_twice_stays_in_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chatty = answering_program(
        tmp_path,
        """
        if msg.get("cmd") == "act":
            answer = msg["view"]["legal"][-1]
        else:
            answer = {"ok": True}
        answer["id"] = msg["id"]  # echoes the request's id
        for _ in range(2):  # every answer twice, the copy out of step
            print(json.dumps(answer), flush=True)
        """,
        "chatty.py",
    )
    figures = arena_figures(tmp_path, "--bot", "random", "--bot", chatty, "--deals", "2")
    assert figures["bots"][1]["forfeits"] == 0
    no_traceback(capsys.readouterr().err)


def test_an_extra_answer_of_a_program_that_does_not_echo_ids_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chatty = answering_program(
        tmp_path,
        """
        if msg.get("cmd") == "act":
            print(json.dumps(msg["view"]["legal"][0]), flush=True)
        else:
            print('{"ok": true}', flush=True)
            print('{"ok": true, "again": 1}', flush=True)
        """,
        "chatty.py",
    )
    figures = arena_figures(tmp_path, "--bot", "random", "--bot", chatty, "--deals", "2")
    assert figures["bots"][1]["forfeits"] == 0
    no_traceback(capsys.readouterr().err)


def test_a_late_reply_is_skipped_by_its_id(tmp_path: Path) -> None:
    from briscola.ai.protocol import ProgramBot

    late = answering_program(
        tmp_path,
        """
        print(json.dumps({"ok": True, "id": msg["id"] - 1}), flush=True)  # stale
        print(json.dumps({"ok": True, "id": msg["id"], "n": msg["id"]}), flush=True)
        """,
        "late.py",
    )
    bot = ProgramBot(late[4:], timeout=30.0)
    try:
        for number in range(1, 4):
            assert bot.request({"cmd": "hello"})["n"] == number
    finally:
        bot.close()


def test_a_silent_program_forfeits_after_the_bot_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    silent = bot_program(
        tmp_path,
        """
        import sys
        for line in sys.stdin:
            pass
        """,
        "silent.py",
    )
    records = tmp_path / "games.jsonl"
    argv = ["--bot", "random", "--bot", silent, "--deals", "1", "--bot-timeout", "0.2"]
    argv += ["--records", str(records), "--quiet"]
    assert arena_main(argv) == 0
    err = capsys.readouterr().err
    assert "no answer within 0.2 s" in err
    no_traceback(err)
    docs = list(read_records(records))
    assert len(docs) == 2 and all("forfeit" in doc["meta"] for doc in docs)
    for doc in docs:
        assert not replay(doc).is_terminal()


def test_corpus_readme_lists_every_kind() -> None:
    readme = (CORPUS / "README.md").read_text()
    for kind in ("settings", "stats", "autosave", "records", "bot", "arena"):
        assert f"`{kind}/`" in readme


# ---------------------------------------------------------------------------- properties

Path_ = tuple[str | int, ...]
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["AD", "7B", "classic2", "best-of-3", "play", "over", "medium"])
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@contextlib.contextmanager
def _written(doc: Any, name: str) -> Iterator[Path]:
    """``doc`` written as JSON to a file ``name`` in a folder of its own, removed afterwards
    (hypothesis runs many examples in one test: no tmp_path)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(json.dumps(doc))
        yield path


def _nodes(doc: Any, path: Path_ = ()) -> list[Path_]:
    found = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _nodes(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _nodes(value, (*path, index))
    return found


def _deep(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


@st.composite
def mutations(draw: st.DrawFn, original: Any) -> tuple[Any, list[Path_]]:
    """``original`` with one to three random changes: a value replaced (by any JSON value,
    now and then one nested deeper than the reader allows), a key or item removed, a key
    added. Returns the document and the paths changed."""
    doc = json.loads(json.dumps(original))
    changed: list[Path_] = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_nodes(doc)))
        op = draw(st.sampled_from(["replace", "remove", "add"]))
        if not path:
            op = "replace" if op == "remove" else op
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        value = draw(
            st.one_of(VALUES, st.just(_deep(150)), st.just(_deep(300)))
            if draw(st.booleans())
            else VALUES
        )
        if op == "replace":
            if path:
                parent[path[-1]] = value
            else:
                doc = value
        elif op == "remove":
            del parent[path[-1]]
        else:
            target = parent[path[-1]] if path else doc
            if isinstance(target, dict):
                target[draw(st.text(max_size=6))] = value
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), value)
        changed.append(path)
    return doc, changed


def _touched(changed: list[Path_], prefix: Path_) -> bool:
    """A change at, above or below ``prefix``."""
    n = len(prefix)
    return any(path[:n] == prefix or prefix[: len(path)] == path for path in changed)


VALID_SETTINGS = Settings(deck="french", volume=0.3, speed="fast", ui_scale=1.2).to_json()


@given(mutations(VALID_SETTINGS))
def test_mutated_settings_keep_every_field_left_alone(case: tuple[Any, list[Path_]]) -> None:
    doc, changed = case
    with _written(doc, "settings.json") as path:
        settings, _notice = load_settings(path)
        peek_language(path)
    if isinstance(doc, dict) and not _touched(changed, ()):
        for name, value in VALID_SETTINGS.items():
            if name in doc and not _touched(changed, (name,)):
                assert getattr(settings, name) == value, name


def _valid_stats() -> dict[str, Any]:
    doc = _corpus_doc("stats/one-bad-count.json")
    doc["entries"][1]["best"] = 40
    doc["entries"].append(dict(doc["entries"][0], preset="classic3", hands=31))
    return doc


VALID_STATS = _valid_stats()


@given(mutations(VALID_STATS))
def test_mutated_statistics_never_lose_an_entry_left_alone(
    case: tuple[Any, list[Path_]],
) -> None:
    doc, changed = case
    text = json.dumps(doc)
    with _written(doc, "stats.json") as path:
        stats = Stats.load(path)
        stats.save()
        again = Stats.load(path)
        copies = [p.read_text() for p in storage.backups(path)]
    if nesting_depth(text) > MAX_DEPTH:  # refused as a whole: the copy keeps everything
        assert text in copies and stats.notice
        return
    structure_kept = isinstance(doc, dict) and isinstance(doc.get("entries"), list)
    if not structure_kept or any(len(p) < 2 for p in changed):
        assert again.entries or copies or stats.empty or not changed
        return
    for original in VALID_STATS["entries"]:
        if original in doc["entries"]:
            key = (original["preset"], original["strength"])
            assert again.entries[key].hands >= original["hands"]
    if doc != VALID_STATS and stats.notice:
        assert text in copies


VALID_AUTOSAVE = _corpus_doc("autosave/valid.json")


@given(mutations(VALID_AUTOSAVE))
def test_mutated_autosaves_restore_or_are_discarded_with_a_notice(
    case: tuple[Any, list[Path_]],
) -> None:
    doc, _changed = case
    with _written(doc, "autosave.json") as path:
        saved, notice = Autosave(path).load()
    assert (saved is None) == (notice is not None)


VALID_RECORD = _corpus_doc("records/valid-classic2.json")


@given(mutations(VALID_RECORD))
def test_mutated_records_replay_or_raise_a_replay_error(case: tuple[Any, list[Path_]]) -> None:
    doc, changed = case
    try:
        state = replay(doc)
    except ReplayError:
        assert changed
        return
    assert isinstance(state, GameState)


VALID_REQUEST = _corpus_doc("bot/valid-act.json")


@given(mutations(VALID_REQUEST))
def test_mutated_bot_requests_get_a_reply_never_an_exception(
    case: tuple[Any, list[Path_]],
) -> None:
    from briscola.ai import make_bot
    from briscola.ai.protocol import handle_request

    doc, _changed = case
    reply = handle_request(json.dumps(doc), lambda limit: make_bot("random"), {})
    assert reply is None or isinstance(reply, dict)
    if reply is not None and "error" not in reply:
        json.dumps(reply)
