"""The one match driver: the same seeded match, dealt the same deck, driven on this computer
and on a server, writes the same record byte for byte; a bot that fails or cheats never stops
a match; undo and stand-ins are told apart in the record."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from briscola import __version__
from briscola.ai.base import Bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, open_table
from briscola.engine import (
    Action,
    GameState,
    Match,
    Play,
    PlayerView,
    ReplayError,
    Rules,
    cards_from_codes,
    replay,
)
from briscola.game import driver as driver_module
from briscola.game.driver import MatchDriver, Seat, hand_actions
from briscola.game.local import LocalSession
from briscola.game.setup import GameSetup, SeatConfig
from briscola.server import ServerConfig, ServerThread

SEED = 20261201
DATE = "2026-12-01T10:00:00"


class NowRunner:
    """Computer players think at once, on the caller's thread."""

    def submit(self, bot: Bot, seen: PlayerView) -> Future[tuple[Action, Bot]]:
        future: Future[tuple[Action, Bot]] = Future()
        future.set_result((bot.choose(seen), bot))
        return future


def first_legal(seen: PlayerView) -> Action:
    return seen.legal[0]


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(driver_module, "now", lambda: DATE)
    yield


def local_record(rules: Rules) -> dict[str, Any]:
    setup = GameSetup(
        rules, [SeatConfig("Anna", human=True), SeatConfig("Bruno", level="medium")], SEED
    )
    session = LocalSession(setup, NowRunner(), pace=lambda: 0.0, version=__version__)
    session.start()
    for _frame in range(5000):
        if session.hand_over:
            break
        session.new_events()
        legal = session.legal_actions()
        if legal:
            assert session.submit(legal[0])
        session.advance(0.1, True)
    summary = session.finish_hand()
    assert summary is not None
    return summary.record


def server_record(rules: Rules, records: Path) -> str:
    config = ServerConfig(port=0, records=records, seed=SEED, ping_interval=None, rate=1e4)
    server = ServerThread(config).start()
    anna = HeadlessPlayer(NetClient(server.url, "Anna").start(), first_legal, auto_next=False)
    try:
        open_table(
            anna, rules, [{"kind": "human"}, {"kind": "bot", "level": "medium", "name": "Bruno"}]
        )
        anna.client.start_game()
        anna.run_until(lambda p: p.phase in ("between", "over"), 60)
    finally:
        anna.client.close()
        server.stop()
    (path,) = records.glob("*.jsonl")
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first


@pytest.mark.usefixtures("fixed_clock")
def test_a_seeded_match_writes_the_same_record_on_this_computer_and_on_a_server(
    tmp_path: Path,
) -> None:
    rules = Rules.preset("classic2")
    there = server_record(rules, tmp_path / "records")
    # Online the deck follows from the server's seed and the players' own values (no one
    # chooses it: docs/fairness.md); here the same match is dealt that same deck.
    deck = cards_from_codes(json.loads(there)["deck"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Match, "new_hand", lambda self, rng: GameState(rules, deck, self.dealer))
        here = json.dumps(local_record(rules), separators=(",", ":"))
    assert here == there
    doc = json.loads(here)
    assert replay(doc).is_terminal()
    assert doc["meta"]["players"] == [
        {"name": "Anna", "kind": "human"},
        {"name": "Bruno", "kind": "bot:medium"},
    ]
    assert doc["meta"]["date"] == DATE and doc["meta"]["app"] == f"briscola {__version__}"


def _driver(kinds: list[str], seed: int = 7, **options: Any) -> MatchDriver:
    seats = [
        Seat(f"P{i}", "bot" if kind == "bot" else "human", "easy") for i, kind in enumerate(kinds)
    ]
    rules = Rules.preset({2: "classic2", 4: "teams4"}[len(kinds)])
    return MatchDriver(rules, seats, random.Random(seed), **options)


def _play_out(driver: MatchDriver) -> None:
    while not driver.hand_over:
        if driver.computer_to_move():
            job = driver.bot_job()
            driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))
        else:
            state = driver.state
            assert state is not None
            driver.apply(state.legal_actions()[-1])


def test_a_computer_player_that_fails_or_cheats_plays_its_first_legal_move() -> None:
    driver = _driver(["bot", "human"])
    driver.deal()
    job = driver.bot_job()
    legal = job.seen.legal

    def broken() -> tuple[Action, Bot]:
        raise RuntimeError("the bot crashed")

    assert driver.bot_move(job, broken) == legal[0]
    _play_out(driver)
    driver2 = _driver(["bot", "human"])
    driver2.deal()
    job = driver2.bot_job()
    illegal = next(Play(c) for c in driver2.state.hands[1])  # type: ignore[union-attr]
    assert driver2.bot_move(job, lambda: (illegal, job.bot)) == job.seen.legal[0]


def test_an_answer_about_an_older_position_is_dropped() -> None:
    driver = _driver(["bot", "human"])
    driver.deal()
    job = driver.bot_job()
    driver.apply(job.seen.legal[0])  # someone else moved for the seat meanwhile
    assert driver.bot_move(job, lambda: (job.seen.legal[1], job.bot)) is None
    assert driver.played_by == ["bot:easy"]


def test_the_record_says_who_made_each_move_a_person_or_a_computer_standing_in() -> None:
    driver = _driver(["human", "human"])
    driver.deal()
    state = driver.state
    assert state is not None
    driver.apply(state.legal_actions()[0])
    driver.replace(1, "medium")
    assert driver.computer_to_move()
    _play_out(driver)
    doc = driver.record()
    movers = {}
    for (seat, _action), who in zip(
        hand_actions(replay(doc)), doc["meta"]["played_by"], strict=True
    ):
        movers.setdefault(seat, set()).add(who)
    assert movers[1] == {"bot:medium"} and movers[0] == {"human"}
    assert [p["kind"] for p in doc["meta"]["players"]] == ["human", "human"]


def test_undo_takes_back_the_persons_move_and_the_replies_and_the_record_forgets_them() -> None:
    driver = _driver(["human", "bot"], undo=True)
    driver.deal()
    state = driver.state
    assert state is not None
    before = state.legal_actions()
    driver.apply(before[0])
    job = driver.bot_job()
    driver.bot_move(job, lambda: (job.bot.choose(job.seen), job.bot))
    assert len(driver.played_by) == 2
    assert driver.undo(0)
    assert driver.played_by == [] and driver.undos == 1
    assert driver.state is not None and driver.state.legal_actions() == before
    assert driver.record()["meta"]["undos"] == 1


def test_a_driver_resumed_from_a_record_goes_on_with_the_same_moves() -> None:
    driver = _driver(["human", "bot"], seed=3)
    driver.deal()
    for _ in range(3):
        if driver.computer_to_move():
            job = driver.bot_job()
            driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))
        else:
            driver.apply(driver.state.legal_actions()[0])  # type: ignore[union-attr]
    doc = driver.record()
    again = MatchDriver(
        driver.rules,
        [Seat("P0", "human", "easy"), Seat("P1", "bot", "easy")],
        random.Random(3),
        match=driver.match,
        state=replay(doc),
        played_by=doc["meta"]["played_by"],
    )
    assert again.played_by == driver.played_by
    assert again.state is not None and again.state.events == driver.state.events  # type: ignore[union-attr]
    assert again.to_move == driver.to_move


def test_a_match_is_rebuilt_from_the_records_of_its_hands() -> None:
    rules = Rules.preset("classic2", match="best-of-3")
    seats = [Seat("P0", "bot", "easy"), Seat("P1", "bot", "easy")]
    driver = MatchDriver(rules, seats, random.Random(11))
    driver.deal()
    _play_out(driver)
    records = [driver.finish_hand()[0].record]
    driver.deal()
    for _ in range(5):
        job = driver.bot_job()
        driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))
    records.append(driver.record())
    again = MatchDriver.rebuild(
        rules, [Seat("P0", "bot", "easy"), Seat("P1", "bot", "easy")], random.Random(0), records
    )
    assert again.match.standing == driver.match.standing
    assert again.match.dealer == driver.match.dealer and again.deals == 2
    assert again.played_by == driver.played_by == ["bot:easy"] * 5
    assert again.state is not None and driver.state is not None
    assert again.state.events == driver.state.events and again.to_move == driver.to_move
    assert again.hand_number == driver.hand_number == 2


def test_a_record_of_another_match_is_refused_when_rebuilding() -> None:
    rules = Rules.preset("classic2", match="best-of-3")
    seats = [Seat("P0", "bot", "easy"), Seat("P1", "bot", "easy")]
    driver = MatchDriver(rules, seats, random.Random(5))
    driver.deal()
    _play_out(driver)
    finished = driver.record()
    with pytest.raises(ReplayError, match="hand 2: not the next hand"):
        MatchDriver.rebuild(rules, seats, random.Random(0), [finished, finished])
    with pytest.raises(ReplayError, match="hand 1: not the next hand"):
        MatchDriver.rebuild(Rules.preset("teams4"), [*seats, *seats], random.Random(0), [finished])


def test_a_rematch_is_dealt_first_by_the_next_seat_round_the_table_and_rebuilds() -> None:
    """Match after match of one hand, the first deal goes round the table (it passes after
    every hand, across matches too), and a rematch's hands rebuild as the match they are."""
    for rules in (Rules.preset("classic2"), Rules.preset("teams4")):
        seats = [Seat(f"P{i}", "bot", "easy") for i in range(rules.players)]
        driver = MatchDriver(rules, seats, random.Random(3))
        dealers = []
        for _match in range(rules.players + 1):
            if driver.match.is_over():
                driver.new_match()
            state = driver.deal()
            dealers.append(state.dealer)
            _play_out(driver)
            record = driver.finish_hand()[0].record
        n = rules.players
        assert dealers == [(n - 1 + k) % n for k in range(n + 1)]
        again = MatchDriver.rebuild(rules, seats, random.Random(0), [record])
        assert again.match.is_over() and again.match.first_dealer == dealers[-1]
        assert again.match.dealer == driver.match.dealer


def test_a_seeded_driver_rebuilt_from_its_records_makes_the_same_computer_choices() -> None:
    """A table kept in a shared store: any process that replays the records plays on as
    the one it took over from would have, card for card, and deals the same next hand."""
    rules = Rules.preset("classic2", match="best-of-3")

    def seats() -> list[Seat]:
        return [Seat("P0", "bot", "medium"), Seat("P1", "bot", "easy")]

    def move(driver: MatchDriver) -> Action | None:
        job = driver.bot_job()
        return driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))

    whole = MatchDriver(rules, seats(), random.Random(1), seed="table-seed")
    whole.deal()
    _play_out(whole)
    records = [whole.finish_hand()[0].record]
    whole.deal()
    for _ in range(7):
        move(whole)
    records.append(whole.record())
    rest = [move(whole) for _ in range(12)]
    # Another process, with another generator, rebuilds the match from the records.
    again = MatchDriver.rebuild(rules, seats(), random.Random(99), records, seed="table-seed")
    assert [move(again) for _ in range(12)] == rest
    assert again.record()["deck"] == whole.record()["deck"]
    # Another seed is another match (the seed does decide the deals and the choices).
    other = MatchDriver(rules, seats(), random.Random(1), seed="other-seed")
    other.deal()
    assert other.record()["deck"] != records[0]["deck"]


def test_without_a_seed_the_driver_carries_its_computers_random_state_as_before() -> None:
    rules = Rules.preset("classic2")
    seats = [Seat("P0", "bot", "random"), Seat("P1", "bot", "random")]
    driver = MatchDriver(rules, seats, random.Random(4))
    driver.deal()
    first = driver.bot_job()
    assert driver.bot_job().bot is first.bot  # the same bot, its state carried on
    seeded = MatchDriver(rules, seats, random.Random(4), seed="s")
    seeded.deal()
    assert seeded.bot_job().bot is not seeded.bot_job().bot  # made afresh for each move


def test_computers_tell_their_partners_between_tricks_before_the_lead() -> None:
    rules = Rules.preset("teams4", signals="partner")
    seats = [Seat(f"P{i}", "bot", "medium") for i in range(4)]
    driver = MatchDriver(rules, seats, random.Random(5), seed="between")
    driver.deal()
    before_lead = driver.computer_signals_between()
    state = driver.state
    assert state is not None
    while not driver.hand_over:
        job = driver.bot_job()
        driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))
        before_lead += driver.computer_signals_between()
    assert before_lead, "nobody signalled between tricks in a whole hand"
    leaders = [trick.leader for trick in state.tricks]
    for made in before_lead:
        assert made.at == 0 and made.seat != leaders[made.trick]
    assert driver.computer_signals_between() == []  # the hand is over: nothing more
    assert replay(driver.record()).signals == state.signals  # in the record, in place


def test_nobody_signals_between_tricks_when_the_rules_have_no_signals() -> None:
    driver = _driver(["bot", "bot", "bot", "bot"], seed=2)
    driver.deal()
    while not driver.hand_over:
        assert driver.computer_signals_between() == []
        job = driver.bot_job()
        driver.bot_move(job, lambda job=job: (job.bot.choose(job.seen), job.bot))
    assert driver.state is not None and driver.state.signals == []
