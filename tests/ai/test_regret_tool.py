"""tools/learn/regret.py: each bot's card against the values of a long search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.learn import regret


def _rows(text: str) -> dict[str, tuple[float, float]]:
    """Bot spec -> (regret, share of best cards in percent), from the printed table."""
    rows = {}
    for line in text.splitlines()[1:]:
        spec, value, best, _ms = line.split()
        rows[spec] = (float(value), float(best.rstrip("%")))
    return rows


def test_gold_values_are_kept_and_read_back_for_the_same_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold.json"
    argv = ["--positions", "3", "--gold-budget", "3000", "--repeats", "1", "--gold", str(gold)]
    assert regret.main([*argv, "random", "medium"]) == 0
    first = capsys.readouterr()
    assert "gold values of 3 positions" in first.err
    kept = json.loads(gold.read_text(encoding="utf-8"))
    assert kept["format"] == regret.FORMAT and len(kept["items"]) == 3
    for item in kept["items"]:
        assert len(item["values"]) >= 2  # every legal card has its value
    rows = _rows(first.out)
    assert set(rows) == {"random", "medium"}
    for value, best in rows.values():
        assert value >= 0 and 0 <= best <= 100
    # The same settings read the values back (no search), and the same choices follow.
    assert regret.main([*argv, "medium"]) == 0
    again = capsys.readouterr()
    assert "gold values" not in again.err
    assert _rows(again.out)["medium"] == rows["medium"]


def test_a_position_and_its_gold_values_are_the_same_when_made_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hand ``g``'s position and its values follow from the seed and ``g`` alone: a kept
    file and a fresh search agree, so runs on other days compare bots on the same values."""
    gold = tmp_path / "gold.json"
    argv = ["--positions", "3", "--gold-budget", "3000", "--repeats", "1", "--gold", str(gold)]
    assert regret.main([*argv, "medium"]) == 0
    capsys.readouterr()
    for item in json.loads(gold.read_text(encoding="utf-8"))["items"]:
        seen = regret.position("classic2", 5, item["game"])
        assert seen is not None and seen.stock_size > 0
        assert {a.card.code for a in seen.legal if hasattr(a, "card")} == set(item["values"])
        assert regret.gold_values(("classic2", 5, item["game"], 3000)) == item


def test_a_damaged_gold_file_is_refused_with_a_message(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text("{not json", encoding="utf-8")
    with pytest.raises(SystemExit, match="cannot read"):
        regret.main(["--positions", "1", "--gold", str(gold), "medium"])


def test_an_unknown_bot_is_refused_before_any_search(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        regret.main(["--positions", "1", "grandmaster"])
    assert "unknown bot" in capsys.readouterr().err


def test_the_coach_is_measured_by_the_card_it_names_or_by_its_most_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briscola.coach import evaluate, position_seed

    gold = tmp_path / "gold.json"
    argv = ["--positions", "3", "--gold-budget", "3000", "--repeats", "1", "--gold", str(gold)]
    specs = ["coach:budget=800", "coach:budget=800:by=points"]
    assert regret.main([*argv, *specs]) == 0
    assert set(_rows(capsys.readouterr().out)) == set(specs)
    for game in range(3):
        seen = regret.position("classic2", 5, game)
        assert seen is not None
        found = evaluate(seen, seed=position_seed(seen, 1), budget=800)
        most = max(found.values, key=lambda item: item[1])[0]
        assert regret.chooser(specs[0])(seen, 1) == found.best
        assert regret.chooser(specs[1])(seen, 1) == most


@pytest.mark.parametrize("spec", ["coach:budget=0", "coach:by=luck", "coach:depth=3"])
def test_a_bad_coach_option_is_refused_before_any_search(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        regret.main(["--positions", "1", spec])
    assert "coach: unknown option" in capsys.readouterr().err


def test_chiamata_positions_come_from_the_play_while_hands_hold_three_cards_or_more() -> None:
    """Chiamata deals every card (no stock): its positions are taken before the last two
    tricks, which the search solves exactly."""
    found = [regret.position("chiamata5", 5, game) for game in range(3)]
    assert any(seen is not None for seen in found)
    for seen in found:
        if seen is not None:
            assert seen.phase == "play" and seen.stock_size == 0 and len(seen.hand) >= 3
