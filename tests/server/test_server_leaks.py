"""No frame the server sends a seat names a card that seat could not know.

Every frame sent to every seat over whole games of every preset (and the variants where
partners see hands, the briscola swap, scoperta) is checked at the moment it is sent,
against the true game state: a card may appear only if it is in the seat's hand, was
played, lies face up (briscola, scoperta's top card, a swap), was drawn face up, was shown
to the seat as a partner, or was removed from the deck by the rules. What a seat once knew
stays known for the rest of the hand. Independently, each view must equal the engine's
view of that seat and each frame's events the engine's events for that seat. And no frame
carries the server's seed of a deal before that hand is over (docs/fairness.md): the seed
of the hand under way, or of the next one, appears only in a ``reveal`` once it has ended.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from briscola.ai import make_bot
from briscola.client.connection import NetClient
from briscola.client.headless import HeadlessPlayer, all_ready, open_table, play_all
from briscola.engine import Card, GameState, Rules, view
from briscola.protocol.wire import event_to_json
from briscola.server import ServerConfig, ServerThread
from briscola.server.dealproof import DealSeeds
from briscola.server.tables import Table

DEADLINE = 90.0

CONFIGS = [
    Rules.preset("classic2"),
    Rules.preset("classic3"),
    Rules.preset("teams4"),
    Rules.preset("chiamata5"),
    Rules.preset("teams6"),
    Rules.preset("scoperta2"),
    Rules.preset("briscolone2", match="single"),
    Rules.preset("briscolone4", match="single"),
    Rules.preset("teams4", partners_see="start"),
    Rules.preset("teams6", partners_see="stock-empty"),
    Rules.preset("classic2", swap=True, match="best-of-3"),
    Rules.preset("scoperta2", swap=True),
    Rules.preset("teams4", swap=True, three_as_three=True),
]


def card_codes(value: Any, out: set[str]) -> None:
    """Every string in a frame that is a card code (names are excluded: players choose them;
    so are the cards a Chiamata caller may call: naming a card says nothing of its place)."""
    if isinstance(value, dict) and set(value) == {"call"}:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("name", "table"):
                card_codes(item, out)
    elif isinstance(value, list):
        for item in value:
            card_codes(item, out)
    elif isinstance(value, str) and len(value) == 2:
        try:
            Card.from_code(value)
        except ValueError:
            return
        out.add(value)


def may_know(state: GameState, seat: int) -> set[str]:
    """What ``seat`` may know right now, from the true state (not from the view code)."""
    rules = state.rules
    cards: set[Card] = set(state.hands[seat])
    for trick in state.tricks:
        cards.update(trick.cards)
    cards.update(state.trick)
    for other in range(rules.players):
        cards.update(state.known[other])  # drawn face up, taken in a swap
    if state.briscola is not None:
        cards.add(state.briscola)
    if rules.scoperta and state.stock:
        cards.add(state.stock[0])
    for swap in state.swaps:
        cards.update((swap.gave, swap.took))
    if state.called is not None:
        cards.add(state.called)
    for partner in rules.partners(seat) if rules.teams else ():
        if rules.partners_see == "start":
            cards.update(state.shown[partner])
        elif rules.partners_see == "stock-empty" and not state.stock:
            cards.update(state.hands[partner])
    codes = {card.code for card in cards}
    codes.update(rules.removed)
    return codes


class Auditor:
    """The server's frame tap: checks each frame as it is sent."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, int, int], set[str]] = {}
        self.frames = 0
        self.reveals = 0
        self.problems: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, table: Table, seat: int, text: str) -> None:
        frame = json.loads(text)
        state = table.state
        with self.lock:
            self.frames += 1
            self.check_seeds(table, seat, text, frame)
            if state is None:
                self.check(frame, set(table.rules.removed), seat, "lobby")
                return
            key = (table.code, table.deals, seat)
            known = self.known.setdefault(key, set())
            known |= may_know(state, seat)
            self.check(frame, known, seat, frame.get("type", "?"))
            if frame.get("type") == "update":
                if frame["view"] != view(state, seat).to_json():
                    self.problems.append(f"seat {seat}: the view is not the engine's view")
                start = 0 if frame["reset"] else None
                if start == 0:
                    wanted = [event_to_json(e) for e in state.events_for(seat)]
                    got = [e for e in frame["events"] if e["event"] != "match_over"]
                    if got != wanted:
                        self.problems.append(f"seat {seat}: reset events differ")

    def check_seeds(self, table: Table, seat: int, text: str, frame: dict[str, Any]) -> None:
        seeds = getattr(table, "seeds", None)
        if seeds is None:
            return
        over = table.state is not None and table.state.is_terminal()
        secret = [seeds.seed(table.deals + 1).hex()]
        if table.deals and not (over and frame.get("type") == "reveal"):
            secret.append(seeds.seed(table.deals).hex())
        if any(seed in text for seed in secret):
            self.problems.append(f"seat {seat} was sent a seed in a {frame.get('type')} frame")
        if frame.get("type") == "reveal":
            self.reveals += 1
            if not over or frame["deal"] != table.deals:
                self.problems.append(f"seat {seat} was sent a reveal before its hand ended")

    def check(self, frame: dict[str, Any], known: set[str], seat: int, kind: str) -> None:
        seen: set[str] = set()
        card_codes(frame, seen)
        leaked = seen - known
        if leaked:
            self.problems.append(f"seat {seat} was sent {sorted(leaked)} in a {kind} frame")


@pytest.fixture
def audited(tmp_path: Path) -> Iterator[tuple[ServerThread, Auditor]]:
    config = ServerConfig(port=0, records=tmp_path, rate=10_000.0, burst=10_000, ping_interval=None)
    server = ServerThread(config).start()
    auditor = Auditor()
    server.server.tap = auditor
    yield server, auditor
    server.stop()


def play_everyone(url: str, rules: Rules, seed: int) -> list[HeadlessPlayer]:
    rng = random.Random(seed)
    players = []
    for i in range(rules.players):
        bot = make_bot("random", random.Random(rng.random()))
        players.append(HeadlessPlayer(NetClient(url, f"P{i}").start(), bot.choose))
    host = players[0]
    open_table(host, rules)
    for guest in players[1:]:
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


@pytest.mark.parametrize(
    "rules",
    CONFIGS,
    ids=[
        f"{i}-{r.name}-{r.partners_see}{'-swap' if r.swap else ''}" for i, r in enumerate(CONFIGS)
    ],
)
def test_no_frame_names_a_card_its_seat_could_not_know(
    audited: tuple[ServerThread, Auditor], rules: Rules
) -> None:
    server, auditor = audited
    players = play_everyone(server.url, rules, seed=len(rules.describe()))
    assert auditor.problems == []
    assert auditor.frames >= sum(len(p.frames) for p in players) - 4 * len(players)
    assert auditor.reveals >= len(players), "every seat was shown each hand's seed once over"
    for p in players:
        assert not p.errors, p.errors
        assert p.match_over


def test_the_auditor_catches_a_leak() -> None:
    """The check itself works: a frame holding another seat's card is reported."""
    import random as rnd

    state = GameState.new(Rules.preset("classic2"), rnd.Random(1))
    table = cast(Table, SimpleNamespace(state=state, code="AAAAAA", deals=1, rules=state.rules))
    auditor = Auditor()
    honest = {"type": "update", "view": view(state, 0).to_json(), "events": [], "reset": False}
    auditor(table, 0, json.dumps(honest))
    assert auditor.problems == []
    leaky = dict(honest, view=dict(honest["view"], hand=[c.code for c in state.hands[1]]))
    auditor(table, 0, json.dumps(leaky))
    assert any("was sent" in problem for problem in auditor.problems)


def test_the_auditor_catches_a_seed_sent_before_its_hand_is_over() -> None:
    seeds = DealSeeds(lambda: "secret")
    state = GameState.new(Rules.preset("classic2"), random.Random(1))
    table = cast(
        Table,
        SimpleNamespace(state=state, code="AAAAAA", deals=1, rules=state.rules, seeds=seeds),
    )
    auditor = Auditor()
    seeds.dealt = [b"", b""]
    early = seeds.reveal(1)
    auditor(table, 0, json.dumps(early))
    assert any("was sent a seed" in problem for problem in auditor.problems)
    auditor.problems.clear()
    auditor(table, 0, json.dumps({"type": "notice", "message": seeds.seed(2).hex()}))
    assert any("was sent a seed" in problem for problem in auditor.problems), "the next one"
    auditor.problems.clear()
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    auditor(table, 0, json.dumps(early))
    assert auditor.problems == [] and auditor.reveals == 2


def test_no_frame_leaks_when_a_client_drops_mid_hand_and_computers_signal_for_a_person(
    tmp_path: Path,
) -> None:
    """Teams of four with partner signals: one person never moves (a computer moves and
    signals for them each time their turn runs out), another's connection drops mid-hand
    and comes back (its update then resends the hand): every frame to every seat is
    audited, each view's signals come with who made each (``signals_by``), and a seat sees
    only the signals it may."""
    config = ServerConfig(
        port=0, records=tmp_path, rate=10_000.0, burst=10_000, ping_interval=None, turn_timeout=0.2
    )
    server = ServerThread(config).start()
    auditor = Auditor()
    server.server.tap = auditor
    rules = Rules.preset("teams4", signals="partner")
    players = []
    for i in range(rules.players):
        bot = make_bot("random", random.Random(i))
        client = NetClient(server.url, f"P{i}", backoff=0.3).start()
        players.append(HeadlessPlayer(client, None if i == 1 else bot.choose))
    host = players[0]
    try:
        open_table(host, rules)
        for guest in players[1:]:
            guest.client.join(host.table["table"])
            guest.client.ready()
        all_ready(host)
        host.client.start_game()
        dropped = players[2]
        dropped.run_until(lambda p: p.moves >= 6, DEADLINE)
        dropped.client.kill()
        play_all(players, lambda q: q.match_over, DEADLINE)
    finally:
        for p in players:
            p.client.close()
        server.stop()
    assert auditor.problems == []
    updates = [f for p in players for f in p.frames if f.get("type") == "update"]
    assert any(f["reset"] for f in dropped.frames if f.get("type") == "update"), "it came back"
    with_signals = [f for f in updates if f["view"].get("signals")]
    assert with_signals, "a computer signalled for the person who never moves"
    for frame in with_signals:
        made, by = frame["view"]["signals"], frame["signals_by"]
        assert len(by) == len(made)
        seat = frame["view"]["seat"]
        assert all(s["seat"] % 2 == seat % 2 for s in made), "only the own side's signals"
        assert all(b.startswith("bot:") for s, b in zip(made, by, strict=True) if s["seat"] == 1)
