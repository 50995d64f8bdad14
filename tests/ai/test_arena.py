"""The arena: seatings, duplicate deals, figures, records, external bots and forfeits."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from enginehelp import answering_program, arena_figures, bot_program

from briscola.arena import (
    ArenaConfig,
    BotSpec,
    main,
    mean_ci,
    parse_rules_opts,
    run_arena,
    seatings,
)
from briscola.arena.play import _seen
from briscola.engine import GameState, Rules, read_records, replay

BOT = f"cmd:{sys.executable} -m briscola.bot --seed 5 --level"


def test_seatings_rotate_every_bot_through_every_side() -> None:
    assert seatings(Rules.preset("classic2"), 2) == [(0, 1), (1, 0)]
    assert seatings(Rules.preset("teams4"), 2) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(Rules.preset("teams6"), 2) == [(0, 1, 0, 1, 0, 1), (1, 0, 1, 0, 1, 0)]
    three = seatings(Rules.preset("classic3"), 3)
    assert sorted(three) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    field = seatings(Rules.preset("chiamata5"), 2)
    assert len(field) == 5 and all(s.count(0) == 1 for s in field)
    assert sorted(s.index(0) for s in field) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        seatings(Rules.preset("teams4"), 3)


def test_bot_specs_and_rule_options() -> None:
    spec = BotSpec.parse("hard:budget=200:inference=off")
    assert spec.name == "hard" and dict(spec.options) == {"budget": 200, "inference": False}
    assert BotSpec.parse("cmd:python x.py --a 1").command == "python x.py --a 1"
    with pytest.raises(ValueError):
        BotSpec.parse("genius")
    assert parse_rules_opts("swap=1,three_as_three=1,partners_see=start") == {
        "swap": True,
        "three_as_three": True,
        "partners_see": "start",
    }


def test_mean_ci() -> None:
    mean, lo, hi = mean_ci([0.0, 1.0] * 50)
    assert mean == 0.5 and lo < 0.5 < hi and hi - lo < 0.25


def test_arena_smoke_with_json_and_records(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    figures = arena_figures(
        tmp_path,
        *("--preset", "classic2", "--bots", "medium,random", "--deals", "30", "--seed", "3"),
        *("--records", str(records)),
    )
    assert figures["games"] == 60 and figures["deals"] == 30
    medium, rand = figures["bots"]
    assert medium["label"] == "medium" and medium["score"] + rand["score"] == pytest.approx(1.0)
    assert medium["ci95"][0] <= medium["score"] <= medium["ci95"][1]
    assert medium["moves"] == rand["moves"] == 60 * 20
    docs = list(read_records(records))
    assert len(docs) == 60
    for doc in docs[:6]:
        state = replay(doc)
        assert state.is_terminal()
        assert set(doc["meta"]["bots"]) == {"medium", "random"}
    # Duplicate deals: the two seatings of a deal share the deck.
    assert docs[0]["deck"] == docs[1]["deck"] and docs[0]["meta"]["bots"] != docs[1]["meta"]["bots"]


def test_medium_beats_random() -> None:
    config = ArenaConfig(
        Rules.preset("classic2"), (BotSpec.parse("medium"), BotSpec.parse("random")), 40, 9
    )
    summary, _ = run_arena(config)
    assert summary["bots"][0]["score"] > 0.7


def test_hard_beats_random_on_a_small_budget() -> None:
    """A smoke version of docs/ai.md's table: the full figures are a benchmark."""
    bots = (BotSpec.parse("hard:budget=2000"), BotSpec.parse("random"))
    summary, _ = run_arena(ArenaConfig(Rules.preset("classic2"), bots, 20, 4))
    assert summary["bots"][0]["score"] > 0.75


def test_arena_is_reproducible_with_jobs() -> None:
    specs = (BotSpec.parse("easy"), BotSpec.parse("hard:budget=300:min_samples=2"))
    one = run_arena(ArenaConfig(Rules.preset("classic2"), specs, 6, 4))[0]
    two = run_arena(ArenaConfig(Rules.preset("classic2"), specs, 6, 4, jobs=2))[0]
    for a, b in zip(one["bots"], two["bots"], strict=True):
        assert (a["score"], a["margin"]) == (b["score"], b["margin"])


@pytest.mark.parametrize("preset", ["teams4", "classic3", "chiamata5", "briscolone4"])
def test_arena_other_presets(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--preset", preset, "--bots", "medium,random", "--deals", "3", "--quiet"]) == 0
    table = capsys.readouterr().out
    assert "medium" in table and "random" in table
    if preset == "chiamata5":
        assert "match pts/hand" in table


def test_arena_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list-presets"]) == 0
    assert "chiamata5" in capsys.readouterr().out


def test_external_bot_in_the_arena(tmp_path: Path) -> None:
    figures = arena_figures(tmp_path, "--bots", f"medium,{BOT} random", "--deals", "4")
    assert [b["forfeits"] for b in figures["bots"]] == [0, 0]
    assert figures["bots"][1]["moves"] == 8 * 20


def test_illegal_answers_forfeit_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cheat = answering_program(
        tmp_path,
        """
        if msg.get("cmd") == "act":
            hand = msg["view"]["hand"]
            print(json.dumps({"play": "AD" if "AD" not in hand else "2C"}), flush=True)
        else:
            print(json.dumps({"ok": True}), flush=True)
        """,
    )
    figures = arena_figures(tmp_path, "--bot", "random", "--bot", cheat, "--deals", "2")
    assert figures["bots"][1]["forfeits"] == 4
    assert figures["bots"][1]["score"] == 0.0
    assert "illegal action" in capsys.readouterr().err


def test_a_crashing_program_forfeits_and_restarts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crash = bot_program(
        tmp_path,
        """
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg.get("cmd") == "act" and len(msg["view"]["tricks"]) == 3:
                sys.exit(3)
            if msg.get("cmd") == "act":
                print(json.dumps(msg["view"]["legal"][0]), flush=True)
            elif msg.get("cmd") != "quit":
                print(json.dumps({"ok": True}), flush=True)
        """,
    )
    figures = arena_figures(tmp_path, "--bot", "medium", "--bot", crash, "--deals", "2")
    assert figures["bots"][1]["forfeits"] == 4
    assert "exited" in capsys.readouterr().err


def test_too_many_forfeits_stop_the_arena_and_keep_what_was_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    silent = bot_program(tmp_path, "import sys\nsys.exit(0)\n")
    out, records = tmp_path / "figures.json", tmp_path / "games.jsonl"
    argv = ["--bot", "random", "--bot", silent, "--deals", "5", "--max-forfeits", "2"]
    argv += ["--json", str(out), "--records", str(records), "--quiet"]
    assert main(argv) == 1
    figures = json.loads(out.read_text())
    assert figures["deals"] == 2 and "stopped" in figures
    assert figures["bots"][1]["forfeits"] == 4
    docs = list(read_records(records))
    assert len(docs) == 4 and all(doc["meta"]["forfeit"]["seat"] in (0, 1) for doc in docs)
    captured = capsys.readouterr()
    assert "stopped" in captured.err and "forfeits" in captured.out


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--preset", "teams4", "--bots", "medium,random,easy"])
    with pytest.raises(SystemExit):
        main(["--preset", "nope"])
    assert "error" in capsys.readouterr().err


def test_an_entry_that_sees_its_partner_is_shown_the_partners_whole_hand() -> None:
    state = GameState.new(Rules.preset("teams4"), random.Random(3))
    seat = state.current_player
    assert seat is not None
    (partner,) = state.rules.partners(seat)
    shown = _seen(state, seat, BotSpec.parse("medium:sees_partner=1"))
    assert set(state.hands[partner]) <= shown.known[partner]
    plain = _seen(state, seat, BotSpec.parse("medium"))
    assert not set(state.hands[partner]) <= plain.known[partner]
    for other in range(4):  # the opponents' hands stay hidden
        if other not in (seat, partner):
            assert shown.known[other] == plain.known[other]
