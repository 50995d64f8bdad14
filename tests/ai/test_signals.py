"""Computer partners and signals: they signal only the truth, by the convention; they read
the signals they see as evidence in their samples; the driver and the arena let them."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from briscola.ai import Bot
from briscola.ai import signals as ai_signals
from briscola.ai.search.sampling import deal_of, from_engine
from briscola.ai.signals import choose_signal, drew_since, signals_between, with_signal_evidence
from briscola.arena import main as arena_main
from briscola.arena.spec import BotSpec
from briscola.engine import (
    Action,
    Card,
    GameState,
    PlayerView,
    Rank,
    Rules,
    Signal,
    Signalled,
    determinize,
    replay,
    view,
)
from briscola.engine.signals import CARD_SIGNALS, DIRECTIONS, truthful
from briscola.game.driver import BotJob, MatchDriver, Seat
from tests.ai.signalhelp import signalled_playout


def answer(job: BotJob) -> Callable[[], tuple[Action, Bot]]:
    """The computer's answer to ``job``, as the driver takes it."""
    return lambda: (job.bot.choose(job.seen), job.bot)


SIGNAL_RULES = [
    Rules.preset("teams4", signals="partner"),
    Rules.preset("teams6", signals="open"),
    Rules.preset("chiamata5", signals="partner"),
    Rules.preset("briscolone4", signals="partner"),
]


def computers_play(rules: Rules, seed: int) -> tuple[GameState, int]:
    """Every seat a computer that signals by the convention before each of its moves and
    between tricks (:func:`signalled_playout`); the truth of each signal is checked against
    the hand at the moment it is made. The finished hand, and how many signals were made
    between tricks (by a seat not to lead)."""
    between = 0
    for state, made in signalled_playout(rules, seed):
        for signalled in made:
            seat = signalled.seat
            assert truthful(signalled.kind, state.hands[seat], state.trump), (signalled, seat)
            assert signalled.kind not in DIRECTIONS
            between += seat != state.current_player
    return state, between


@pytest.mark.parametrize("rules", SIGNAL_RULES, ids=[r.name for r in SIGNAL_RULES])
def test_computer_partners_signal_only_the_truth(rules: Rules) -> None:
    made = between = 0
    for seed in range(12):
        state, early = computers_play(rules, seed)
        made += len(state.signals)
        between += early
        for seat in range(rules.players):
            once = [s.kind for s in state.signals if s.seat == seat and s.kind in CARD_SIGNALS]
            assert len(once) == len(set(once)), "a card of trump is claimed once a hand"
            for kind in ("carico", "trump"):
                told = [s.trick for s in state.signals if s.seat == seat and s.kind == kind]
                for first, again in itertools.pairwise(told):
                    played = [
                        card
                        for trick in state.tricks[first:again]
                        for who, card in zip(trick.seats, trick.cards, strict=True)
                        if who == seat
                    ]
                    assert any(truthful(kind, [card], state.trump) for card in played), (
                        "told again only once a card it told of was played"
                    )
    assert made > between > 0


def test_computers_do_not_signal_when_the_option_is_off_or_out_of_turn() -> None:
    state = GameState.new(Rules.preset("teams4"), random.Random(1))
    assert choose_signal(view(state, state.current_player or 0)) is None
    on = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(1))
    waiting = ((on.current_player or 0) + 1) % 4
    assert choose_signal(view(on, waiting)) is None


def test_a_computer_signals_between_tricks_only_when_asked_and_before_the_lead() -> None:
    state = GameState.new(Rules.preset("teams4", signals="partner"), random.Random(3))
    leader = state.current_player or 0
    waiting = (leader + 1) % 4
    early = choose_signal(view(state, waiting), between=True)
    assert early is not None and truthful(early.kind, state.hands[waiting], state.trump)
    state.signal(waiting, early)
    assert choose_signal(view(state, waiting), between=True) is None  # one a trick
    state.apply(state.legal_actions()[0])
    other = (leader + 3) % 4
    assert choose_signal(view(state, other), between=True) is None  # the trick has begun


def test_between_tricks_the_leader_never_signals_and_each_sees_the_earlier_signals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, tuple[Signalled, ...]]] = []

    def spy(shown: PlayerView, between: bool = False) -> Signal | None:
        assert between
        seen.append((shown.seat, tuple(shown.signals)))
        return choose_signal(shown, between)

    monkeypatch.setattr(ai_signals, "choose_signal", spy)
    rules = Rules.preset("teams4", signals="open")
    state = GameState.new(rules, random.Random(3))
    leader = state.current_player
    made = signals_between(state, lambda seat: seat != 3)
    assert made == state.signals and len(made) >= 2
    assert [seat for seat, _ in seen] == [s for s in range(4) if s not in (leader, 3)]
    for seat, before in seen:  # in seat order, each seat sees what the earlier ones made
        assert before == tuple(m for m in made if m.seat < seat)
    assert all(m.trick == 0 and m.at == 0 for m in made)
    assert signals_between(state, lambda seat: seat != 3) == []  # one a trick
    state.apply(state.legal_actions()[0])
    asked = len(seen)
    assert signals_between(state, lambda seat: True) == []  # a trick is on the table
    off = GameState.new(Rules.preset("teams4"), random.Random(3))
    assert signals_between(off, lambda seat: True) == [] and not off.signals
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert signals_between(state, lambda seat: True) == []  # the game is over
    assert len(seen) == asked


def test_no_trump_is_signalled_again_only_after_a_draw() -> None:
    rules = Rules.preset("teams4")
    assert not drew_since(rules, 3, 3)
    assert drew_since(rules, 3, 4)
    assert not drew_since(rules, rules.stock_size // 4, 9)


def _state_with_partner_claim(kind: str, seed: int = 0) -> tuple[GameState, int, Card | None]:
    """A teams4 state where seat 2 (partner of 0) truthfully made ``kind`` if it could."""
    rules = Rules.preset("teams4", signals="partner")
    for attempt in range(400):
        state = GameState.new(rules, random.Random(seed * 1000 + attempt), dealer=1)
        assert state.current_player == 2
        if truthful(kind, state.hands[2], state.trump):
            state.signal(2, Signal(kind))
            card = None
            if kind in ("ace", "three", "king"):
                rank = {"ace": Rank.ACE, "three": Rank.THREE, "king": Rank.KING}[kind]
                assert state.trump is not None
                card = Card(rank, state.trump)
            return state, 2, card
    raise AssertionError(f"no deal gives seat 2 a true {kind!r}")


@pytest.mark.parametrize("kind", ["ace", "three", "king"])
def test_a_partners_claimed_trump_is_in_its_hand_in_every_sample(kind: str) -> None:
    state, partner, card = _state_with_partner_claim(kind)
    seen = view(state, 0)
    assert card is not None and card not in seen.known[partner]
    evidence = with_signal_evidence(seen)
    assert card in evidence.known[partner]
    rng = random.Random(3)
    for _ in range(20):
        assert card in determinize(evidence, rng).hands[partner]
        hands, _stock = from_engine(seen, rng)
        assert card.index in hands[partner]
    assert card.index in deal_of(seen).hands[partner]


def test_a_partners_no_trump_makes_it_void_in_trump_until_it_draws() -> None:
    state, partner, _card = _state_with_partner_claim("none")
    seen = view(state, 0)
    assert state.trump in with_signal_evidence(seen).voids[partner]
    rng = random.Random(4)
    for _ in range(20):
        hands, _stock = from_engine(seen, rng)
        assert all(Card.from_index(c).suit is not state.trump for c in hands[partner])
    while len(state.tricks) < 1:
        state.apply(state.legal_actions()[0])
    assert state.trump not in with_signal_evidence(view(state, 0)).voids[partner]


def test_an_impossible_claim_is_ignored() -> None:
    state, partner, card = _state_with_partner_claim("ace")
    assert card is not None
    # Seat 0 is told a card is with seat 2; as seat 2 itself it adds nothing, and a claim
    # about a card already played is not evidence.
    assert with_signal_evidence(view(state, 2)) == view(state, 2)
    while card in state.hands[partner]:
        if state.current_player == partner:
            state.apply(next(a for a in state.legal_actions() if getattr(a, "card", None) == card))
        else:
            state.apply(state.legal_actions()[0])
    seen = view(state, 0)
    assert card not in with_signal_evidence(seen).known[partner]


def test_the_driver_lets_computer_partners_signal_and_records_them() -> None:
    rules = Rules.preset("teams4", signals="partner")
    seats = [Seat("Anna", "human")] + [Seat(f"C{i}", "bot", "easy") for i in range(1, 4)]
    driver = MatchDriver(rules, seats, random.Random(5), undo=True)
    state = driver.deal()
    rng = random.Random(6)
    while not state.is_terminal():
        seat = state.current_player
        if seat == 0:
            if not [s for s in state.signals if s.seat == 0]:
                driver.signal(0, Signal("take"))
            driver.apply(rng.choice(state.legal_actions()))
        else:
            job = driver.bot_job()
            driver.bot_move(job, answer(job))
        assert driver.state is not None
        state = driver.state
    assert any(s.seat in (1, 2, 3) for s in state.signals)
    doc = json.loads(json.dumps(driver.record()))
    assert replay(doc).signals == state.signals
    assert len(doc["meta"]["played_by"]) == 40  # signals are not moves


def test_undo_keeps_the_signals_made_before_the_move_taken_back() -> None:
    rules = Rules.preset("teams4", signals="partner")
    seats = [Seat("Anna", "human")] + [Seat(f"C{i}", "bot", "random") for i in range(1, 4)]
    driver = MatchDriver(rules, seats, random.Random(2), undo=True)
    state = driver.deal()
    while state.current_player != 0:
        job = driver.bot_job()
        driver.bot_move(job, answer(job))
    driver.signal(0, Signal("king"))
    driver.apply(state.legal_actions()[0])
    computers = [s for s in state.signals if s.seat != 0]
    assert driver.undo(0)
    assert driver.state is not None
    assert driver.state.signals == computers


def test_an_arena_entry_with_signals_off_never_signals(tmp_path: Path) -> None:
    assert BotSpec.parse("medium:signals=0").signals is False
    assert BotSpec.parse("medium").signals is True
    out = tmp_path / "games.jsonl"
    code = arena_main(
        [
            "--preset",
            "teams4",
            "--rules-opts",
            "signals=partner",
            "--bots",
            "medium,medium:signals=0",
            "--deals",
            "3",
            "--records",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    for line in out.read_text().splitlines():
        doc = json.loads(line)
        silent = {s for s, bot in enumerate(doc["meta"]["bots"]) if bot.endswith("signals=0")}
        made = {entry["seat"] for entry in doc.get("signals", [])}
        assert made and not made & silent
        replay(doc)
