"""Issue 46's kill run, small: three server processes on Redis behind HAProxy, tables of two
and four players played by the outside client (``tools/outside_client.py``, written from
docs/network-protocol.md alone), and the process that owns a table killed with ``kill -9``
right after a move is sent, five times (``python -m tools.kill_run`` does it a hundred
times; docs/server.md has its figures). Every hand started finishes, with 120 points, no
seat gives up or is told its table ended, no turn clock runs out and no error frame comes
but those documented: ``stale`` for a move sent again that had arrived after all, and
``wrong_phase`` for a ``next`` sent again after a reset once the next hand was dealt."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from redishelp import need
from serverhelp import hello, raw, replies
from websockets.sync.client import ClientConnection

from briscola.protocol import messages as msg
from briscola.server import ServerThread
from tools import kill_run

KILLS = 5


@pytest.mark.slow
def test_kill_9_of_the_owner_as_a_move_is_sent_and_every_hand_finishes(tmp_path: Path) -> None:
    need("redis-server")
    need("haproxy")
    settings = kill_run.Settings(kills=KILLS, tables=6, think=0.2, folder=tmp_path)
    report = kill_run.run(settings)
    print("\n".join(report.lines()))
    assert report.proxy
    assert len(report.kills) == KILLS
    # Each kill stopped the owner of the table that moved: its seats were sent the position
    # again, and each kill's seats saw their tables move on (a seat that never did stalled).
    assert report.resets >= KILLS
    assert all(kill.pauses for kill in report.kills)
    assert report.stalled == []
    assert report.finished == report.started > 0
    assert report.bad_points == 0
    assert set(report.errors) <= {"stale (act)", "wrong_phase (next)"}, report.errors
    assert report.notices == {}


def play_a_hand(ws: ClientConnection) -> tuple[msg.Act | None, dict[str, Any]]:
    """Play the first legal card each turn to the hand's end: the last move sent, and the
    update with the record."""
    last: msg.Act | None = None
    while "record" not in (update := replies(ws, lambda m: m["type"] == "update")):
        view = update["view"]
        if view["current_player"] == view["seat"] and view["legal"]:
            last = msg.act(view["legal"][0], update["moves"])
            ws.send(msg.encode(last))
    return last, update


def test_the_last_move_of_a_hand_sent_again_is_answered_stale(
    make_server: Callable[..., ServerThread],
) -> None:
    """What the kill run found: the copy of a hand's last move that a client sends again
    after a reset, when the first copy reached the table and ended the hand, was answered
    ``wrong_phase``; docs/network-protocol.md promises ``stale`` for any move sent again."""
    server = make_server()
    ws = raw(server.url)
    try:
        hello(ws)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        ws.send(msg.encode(msg.create({"preset": "classic2"}, seats, 0)))
        replies(ws, lambda m: m["type"] == "joined")
        for _ in range(20):  # until a hand whose last move is ours (about one in two)
            ws.send(msg.encode(msg.start()))  # a new single-hand match
            last, update = play_a_hand(ws)
            assert update["phase"] == "over"
            if last is not None and last.get("moves") == update["moves"] - 1:
                break
        else:
            pytest.fail("the computer made the last move of 20 hands")
        assert last is not None
        ws.send(msg.encode(last))  # the last move again, as after a reset
        refused = replies(ws, lambda m: m["type"] == "error")
        assert (refused["code"], refused["ref"]) == ("stale", "act")
        ws.send(msg.encode(msg.act({"play": "AD"})))  # no moves: not a move sent again
        refused = replies(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "wrong_phase"
    finally:
        ws.close()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--kills", "-1"], "--kills must be 0 to 10000"),
        (["--tables", "0"], "--tables 1 to 500"),
        (["--lease", "0.1"], "--lease 0.2 to 30"),
        (["--think", "-1"], "--think must not be negative"),
    ],
)
def test_the_kill_run_refuses_bad_settings_with_the_reason(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        kill_run.main(argv)
    assert exited.value.code == 2
    assert says in capsys.readouterr().err
