"""A spectator's session against a real server (issue 47): a whole hand of two people who
quick-matched, watched move by move; every view and event the session holds is audited
against the server's state at that moment (no card of a hand unseen, no hand, no move), and
the session can play nothing. A dropped connection watches the table again."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola.client.connection import Incoming, NetClient
from briscola.client.online import OnlineSession
from briscola.client.public import PublicSide
from briscola.client.spectator import SpectatorSession
from briscola.engine import HandOver, Play, Played
from briscola.engine.view import view_to_json
from briscola.protocol.wire import event_to_json
from briscola.server import ServerConfig, ServerThread
from briscola.server.watch import leaks
from briscola.storage.seats import SeatStore


@pytest.fixture
def server() -> Iterator[ServerThread]:
    config = ServerConfig(port=0, rate=10_000.0, burst=10_000, ping_interval=None)
    running = ServerThread(config).start()
    yield running
    running.stop()


def until(done: Callable[[], bool], poll: Callable[[], object], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline
        poll()
        time.sleep(0.01)


def seated_pair(server: ServerThread, tmp_path: Path) -> tuple[list[OnlineSession], str]:
    """Two people seated together by quick match: their sessions and the table's code."""
    anna, bruno = (PublicSide(NetClient(server.url, n, backoff=0.05).start()) for n in "AB")
    anna.queue(["classic2"])
    bruno.queue(["classic2"])
    until(lambda: anna.playing and bruno.playing, lambda: (anna.poll(), bruno.poll()))
    assert anna.seated is not None
    players = [anna.session(SeatStore(tmp_path / "a")), bruno.session(SeatStore(tmp_path / "b"))]
    return players, anna.seated


def watch(server: ServerThread, code: str) -> SpectatorSession:
    """Watch ``code`` as the watch scene does: the session once the first update came."""
    side = PublicSide(NetClient(server.url, "Vera", backoff=0.05, table=code).start())
    assert side.client is not None
    client = side.client
    side.watch(code)
    backlog: list[Incoming] = []

    def take() -> None:
        for message in client.drain():
            side.take(message)
            backlog.append(message)

    until(lambda: any(m["type"] == "update" for m in backlog), take)
    return SpectatorSession(client, side, backlog)


def table_now(server: ServerThread, code: str) -> Any:
    return server.call(lambda: server.server.tables[code])


def test_a_spectator_sees_a_whole_hand_and_never_a_card_of_a_hand(
    server: ServerThread, tmp_path: Path
) -> None:
    players, code = seated_pair(server, tmp_path)
    vera = watch(server, code)
    vera.start()
    assert vera.shown_seat is None and vera.demo and vera.view().seat == -1
    problems: list[str] = []
    played: list[str] = []
    over = False

    def audit(texts: list[str]) -> None:
        state = table_now(server, code).state
        problems.extend(server.call(lambda: [p for text in texts for p in leaks(text, state)]))

    while not over:
        moves = table_now(server, code).moves
        # Vera catches up with the table as it is, then everything she holds is audited.
        caught_up = lambda moves=moves: vera._moves == moves and not vera._updates  # noqa: E731
        until(caught_up, lambda: vera.advance(0, True))
        events = vera.new_events()
        seen = vera.view()
        assert seen.hand == () and vera.legal_actions() == [] and not vera.plays_here(0)
        audit([json.dumps(view_to_json(seen)), json.dumps([event_to_json(e) for e in events])])
        played += [e.card.code for e in events if isinstance(e, Played) and e.card is not None]
        over = any(isinstance(e, HandOver) for e in events)
        for each in players:
            each.advance(0, True)
            legal = each.legal_actions()
            if legal:
                assert not vera.submit(legal[0])  # a spectator plays nothing, even a legal card
                assert each.submit(legal[0])
                # The table has it before the next look (else the next round reads the moves
                # before it, and Vera, caught up past them, never equals them).
                until(lambda m=moves: table_now(server, code).moves == m + 1, lambda: None)
                break
        else:
            if not over:
                for each in players:
                    each.wait(0.05)
    assert problems == []
    assert len(played) == 40  # every card of the hand was seen played
    summary = vera.finish_hand()
    assert summary is not None and summary.viewer is None and summary.record == {}
    assert vera.news().watching and vera.news().watchers == 1
    for each in players:
        each.close()
    vera.close()


def test_players_see_one_watching_and_a_spectator_comes_back_after_a_drop(
    server: ServerThread, tmp_path: Path
) -> None:
    players, code = seated_pair(server, tmp_path)
    vera = watch(server, code)
    vera.start()
    anna = players[0]
    until(lambda: anna.news().watchers == 1, lambda: anna.advance(0, True))
    vera.client.kill()
    until(lambda: vera.client.reconnects > 0, lambda: vera.advance(0, True))

    def audience() -> int:
        watched = server.server.tables[code].audience
        return watched.count if watched is not None else -1

    until(
        lambda: server.call(audience) == 1 and vera.side.stage == "watching",
        lambda: vera.advance(0, True),
    )
    mover = next(p for p in players if p.legal_actions())
    card = mover.legal_actions()[0]
    assert isinstance(card, Play) and mover.submit(card)
    until(lambda: card.card in vera.view().played_cards(), lambda: vera.advance(0, True))
    vera.close()
    until(lambda: anna.news().watchers == 0, lambda: anna.advance(0, True))
    for each in players:
        each.close()


def test_a_spectator_reads_the_players_quick_chat_and_can_send_none(
    server: ServerThread, tmp_path: Path
) -> None:
    players, code = seated_pair(server, tmp_path)
    vera = watch(server, code)
    vera.start()
    players[0].say("good_luck")
    heard: list[Any] = []
    until(lambda: bool(heard), lambda: (vera.advance(0, True), heard.extend(vera.take_said())))
    assert [(m["seat"], m["say"]) for m in heard] == [(players[0].seat, "good_luck")]
    vera.client.chat("smile")  # at no seat: the server refuses it, no one reads it
    until(lambda: bool(vera.errors), lambda: vera.advance(0, True))
    assert vera.errors[0]["code"] == "no_table"
    for each in players:
        each.advance(0, True)
        assert [m["say"] for m in each.take_said()] == ["good_luck"]
    for each in players:
        each.close()
    vera.close()
