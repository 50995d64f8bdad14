"""Partner signals over the network: they go over the wire as actions, the server's engine
judges them, and each seat is sent exactly the signals it may see (a frame audit over whole
games of every configuration with signals), computer partners' included."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest
from serverhelp import session_at_the_deal

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.client.session import RemoteSession
from briscola.engine import (
    GameState,
    PlayerView,
    Rules,
    Signal,
    Signalled,
    legal_signals,
    to_record,
    view,
    view_signals,
)
from briscola.protocol.wire import event_from_json, event_to_json
from briscola.server import ServerThread
from briscola.server.tables import Table

DEADLINE = 90.0

CONFIGS = [
    Rules.preset("teams4", signals="partner"),
    Rules.preset("teams4", signals="open"),
    Rules.preset("teams6", signals="partner"),
    Rules.preset("chiamata5", signals="partner", match="hands-3"),  # (more hands: a partner
    Rules.preset("chiamata5", signals="open", match="hands-3"),  # revealed late may leave none)
    Rules.preset("briscolone4", signals="partner", match="single"),
]


def allowed_to_see(state: GameState, signaller: int, viewer: int) -> bool:
    """The seat rule, from the true state (not from the engine's code)."""
    if state.rules.signals == "open" or viewer == signaller:
        return True
    if state.rules.teams:
        return viewer % 2 == signaller % 2
    calling = {state.caller, state.partner}
    return (viewer in calling) == (signaller in calling)


class SignalAuditor:
    """The server's frame tap: every signal in every frame is one its seat may see."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.problems: list[str] = []
        self.signals_sent = 0
        #: Per (table, deal, seat): the signals each seat was sent, in order.
        self.got: dict[tuple[str, int, int], list[Signalled]] = {}
        self.states: dict[tuple[str, int], GameState] = {}

    def __call__(self, table: Table, seat: int, text: str) -> None:
        frame = json.loads(text)
        state = table.state
        if frame.get("type") != "update" or state is None:
            return
        with self.lock:
            self.states[(table.code, table.deals)] = state
            got = self.got.setdefault((table.code, table.deals, seat), [])
            if frame.get("reset"):
                got.clear()
            for data in frame["events"]:
                if data.get("event") != "signalled":
                    continue
                event = event_from_json(data)
                assert isinstance(event, Signalled)
                self.signals_sent += 1
                got.append(event)
                if not allowed_to_see(state, event.seat, seat):
                    self.problems.append(f"seat {seat} was sent {event}")
            for entry in frame["view"].get("signals", []):
                if not allowed_to_see(state, entry["seat"], seat):
                    self.problems.append(f"seat {seat}'s view shows {entry}")

    def check_complete(self) -> None:
        """At the end: each seat was sent every signal it may see, and no other."""
        for (code, deal, seat), got in self.got.items():
            state = self.states[(code, deal)]
            wanted = [s for s in state.signals if allowed_to_see(state, s.seat, seat)]
            if got != wanted:
                self.problems.append(f"table {code} deal {deal} seat {seat}: {got} != {wanted}")


def signalling_chooser(player: list[HeadlessPlayer], seed: int) -> Callable[[PlayerView], Any]:
    """A random player that makes a random signal before most of its moves."""
    rng = random.Random(seed)
    bot = make_bot("random", random.Random(seed))

    def choose(seen: PlayerView) -> Any:
        options = view_signals(seen)
        if options and rng.random() < 0.6:
            player[0].client.signal(rng.choice(options))
        return bot.choose(seen)

    return choose


def play_signalling(server: ServerThread, rules: Rules, seed: int) -> list[HeadlessPlayer]:
    players: list[HeadlessPlayer] = []
    for i in range(rules.players):
        holder: list[HeadlessPlayer] = []
        player = HeadlessPlayer(
            NetClient(server.url, f"P{i}").start(), signalling_chooser(holder, seed * 10 + i)
        )
        holder.append(player)
        players.append(player)
    host = players[0]
    open_table(host, rules)
    for guest in players[1:]:
        assert host.table is not None
        guest.client.join(host.table["table"])
        guest.client.ready()
    all_ready(host)
    host.client.start_game()
    try:
        play_all(players, lambda q: q.match_over, DEADLINE)
    finally:
        for p in players:
            p.client.close()
    return players


@pytest.mark.parametrize("rules", CONFIGS, ids=[f"{r.name}-{r.signals}" for r in CONFIGS])
def test_each_seat_is_sent_exactly_the_signals_it_may_see(
    make_server: Callable[..., ServerThread], rules: Rules
) -> None:
    server = make_server()
    auditor = SignalAuditor()
    server.server.tap = auditor
    players = play_signalling(server, rules, seed=len(rules.describe()))
    auditor.check_complete()
    assert auditor.problems == []
    assert auditor.signals_sent > 0
    for p in players:
        assert p.match_over
        assert all(error.get("code") != "bad_action" for error in p.errors), p.errors


def test_computer_partners_signal_to_a_person_online(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    auditor = SignalAuditor()
    server.server.tap = auditor
    rules = Rules.preset("teams4", signals="partner")
    person = HeadlessPlayer(NetClient(server.url, "Anna").start(), make_bot("random").choose)
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3
    open_table(person, rules, seats)
    person.client.ready()
    all_ready(person)
    person.client.start_game()
    try:
        person.run_until(lambda p: p.match_over, DEADLINE)
    finally:
        person.client.close()
    auditor.check_complete()
    assert auditor.problems == []
    state = next(iter(auditor.states.values()))
    partner_signals = [s for s in state.signals if s.seat == 2]
    assert partner_signals, "the computer partner should have signalled"
    assert person.view is not None
    assert [s for s in person.view.signals if s.seat == 2] == partner_signals
    assert not [s for s in person.view.signals if s.seat % 2 == 1]


def test_a_signal_refused_by_the_engine_is_an_error_and_changes_nothing(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    off = Rules.preset("teams4")
    person = HeadlessPlayer(NetClient(server.url, "Anna").start())
    open_table(person, off, [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)
    person.client.ready()
    all_ready(person)
    person.client.start_game()
    person.run_until(lambda p: p.view is not None)
    person.client.signal(Signal("ace"))
    person.run_until(lambda p: bool(p.errors))
    assert person.errors[-1]["code"] == "illegal"
    assert "not allowed by these rules" in person.errors[-1]["message"]
    person.client.submit({"type": "act", "action": {"signal": "wink"}})
    person.run_until(lambda p: len(p.errors) >= 2)
    assert person.errors[-1]["code"] == "bad_action"
    person.client.close()


def test_a_signalled_event_round_trips_on_the_wire() -> None:
    event = Signalled(2, "king", 3, 1)
    assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    with pytest.raises(ValueError, match="unknown signal"):
        event_from_json({"event": "signalled", "seat": 1, "kind": "wink", "trick": 0, "at": 0})


def test_a_view_sent_to_a_seat_carries_only_its_signals() -> None:
    state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(9))
    for seat in range(4):
        if legal_signals(state, seat):
            state.signal(seat, legal_signals(state, seat)[0])
    for seat in range(4):
        entries: list[dict[str, int]] = view(state, seat).to_json()["signals"]  # type: ignore[assignment]
        assert {entry["seat"] for entry in entries} == {seat % 2, seat % 2 + 2}


def test_a_table_taken_over_from_the_store_keeps_its_signals() -> None:
    from types import SimpleNamespace

    from briscola.game.driver import MatchDriver
    from briscola.game.driver import Seat as Player
    from briscola.server.replica import hand_so_far, table_ops

    rules = Rules.preset("teams4", signals="partner")
    seats = [Player(f"P{i}", "human") for i in range(4)]
    driver = MatchDriver(rules, seats, random.Random(3))
    state = driver.deal()
    driver.replace(3, "hard")
    deal = to_record(GameState(state.rules, state.deck, state.dealer))
    table = SimpleNamespace(driver=driver, state=state)
    moves: list[dict[str, Any]] = []
    rng = random.Random(4)
    for _ in range(9):
        seat = state.current_player or 0
        options = legal_signals(state, seat)
        if options:
            made = driver.signal(seat, options[0])
            ops = table_ops(table, "signal", made)  # type: ignore[arg-type]
            moves += [json.loads(value) for op, key, value in ops if key == "moves"]
        for made in driver.computer_signals_between():  # a computer stands in for seat 3
            ops = table_ops(table, "signal", made)  # type: ignore[arg-type]
            moves += [json.loads(value) for op, key, value in ops if key == "moves"]
        action = rng.choice(state.legal_actions())
        driver.apply(action)
        ops = table_ops(table, "move", action)  # type: ignore[arg-type]
        moves += [json.loads(value) for op, key, value in ops if key == "moves"]
    assert any("s" in move for move in moves)
    rebuilt = hand_so_far(deal, moves)
    assert rebuilt["signals"] == to_record(state)["signals"]
    assert rebuilt["meta"]["played_by"] == driver.played_by
    assert rebuilt["meta"]["signalled_by"] == driver.signalled_by
    assert set(driver.signalled_by) == {"human", "bot:hard"}, "a person's and a stand-in's"
    again = MatchDriver.rebuild(rules, seats, random.Random(0), [rebuilt])
    assert again.signalled_by == driver.signalled_by


def anna_s_session_at_four(
    host: NetClient, others: list[HeadlessPlayer], rules: Rules
) -> RemoteSession:
    """Anna (``host``) makes a table of four, the ``others`` join and are ready, she
    starts it: her table's session, started."""
    host.create(rules)
    joined = host.wait_for(lambda m: m["type"] == "joined", 10)
    for other in others:
        other.client.join(joined["table"])
        other.client.ready()
    host.wait_for(lambda m: m["type"] == "table" and all(s["ready"] for s in m["seats"]), 10)
    host.start_game()
    session = session_at_the_deal(host)
    session.start()
    return session


def test_a_remote_session_sends_a_signal_and_its_partner_sees_it(
    make_server: Callable[..., ServerThread],
) -> None:
    import time

    server = make_server()
    rules = Rules.preset("teams4", signals="partner")
    host = NetClient(server.url, "Anna").start()
    others = [HeadlessPlayer(NetClient(server.url, f"P{i}").start()) for i in (1, 2, 3)]
    try:
        session = anna_s_session_at_four(host, others, rules)
        deadline = time.monotonic() + 20
        while not view_signals(session.view()):
            assert time.monotonic() < deadline, "seat 0 never could signal"
            session.advance(0.016, idle=True)
            session.wait(0.05)
        assert session.send_signal(Signal("king"))
        for other in others:
            other.run_until(lambda p: p.view is not None, 10)
        by_seat = {p.view.seat: p for p in others if p.view is not None}
        partner, opponent = by_seat[2], by_seat[1]
        partner.run_until(lambda p: p.view is not None and bool(p.view.signals), 10)
        assert partner.view is not None
        assert [(s.seat, s.kind) for s in partner.view.signals] == [(0, "king")]
        while opponent.pump(0.3) is not None:
            pass
        assert opponent.view is not None and not opponent.view.signals
        sent = [e for f in opponent.frames if f.get("type") == "update" for e in f["events"]]
        assert not [e for e in sent if e.get("event") == "signalled"]
        while not session.view().signals:
            assert time.monotonic() < deadline, "the signal did not come back"
            session.advance(0.016, idle=True)
            session.wait(0.05)
        assert not session.send_signal(Signal("ace")), "once a trick"
    finally:
        host.close()
        for other in others:
            other.client.close()


def test_a_signal_a_computer_made_for_a_person_out_of_time_is_told_apart(
    make_server: Callable[..., ServerThread],
) -> None:
    """Anna never moves: each time her turn runs out a computer moves for her, and signals
    first when it has something to say; her view's signals say which were the computer's
    (``signals_by``), and the others' updates say it too."""
    import time

    from briscola.text.signals import signal_log_line

    server = make_server(turn_timeout=0.2, seed=5)
    rules = Rules.preset("teams4", signals="partner")
    host = NetClient(server.url, "Anna").start()
    others = [HeadlessPlayer(NetClient(server.url, f"P{i}").start()) for i in (1, 2, 3)]
    try:
        session = anna_s_session_at_four(host, others, rules)
        deadline = time.monotonic() + 30

        def mine() -> list[Any]:
            return [s for s in session.view().signals if s.seat == 0]

        while not mine():
            assert time.monotonic() < deadline, "no computer signalled for Anna"
            assert session.view().phase != "over", "a hand without a signal for Anna"
            for other in others:
                other.pump()
            session.advance(0.016, idle=True)
            session.wait(0.05)
        news = session.news()
        assert set(mine()) <= news.computer_signals
        assert signal_log_line("Anna", mine()[0].kind, True, True).startswith("Computer for you")
        # Anna's partner (seat 2) is told the same of her signals.
        for other in others:
            other.run_until(lambda p: p.view is not None and p.view.seat in (1, 2, 3), 10)
        partner = next(p for p in others if p.view is not None and p.view.seat == 2)
        partner.run_until(lambda p: p.view is not None and any(s.seat == 0 for s in p.view.signals))
        update = next(f for f in reversed(partner.frames) if f.get("type") == "update")
        made = update["view"]["signals"]
        assert len(update["signals_by"]) == len(made)
        assert all(
            tag.startswith("bot:")
            for tag, s in zip(update["signals_by"], made, strict=True)
            if s["seat"] == 0
        )
    finally:
        host.close()
        for other in others:
            other.client.close()
