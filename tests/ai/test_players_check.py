"""The self-check's look at the computer players (``briscola/ai/check.py``): the same
build makes the same digest, a bot that plays otherwise changes it, and a bundled network
that does not load is reported."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from briscola.ai import check, learned, make_bot
from briscola.resources import asset_path


def test_the_same_players_make_the_same_digest_and_every_move_is_legal() -> None:
    problems, digest = check.players_check(positions=2)
    assert problems == []
    assert check.players_check(positions=2) == ([], digest)


def test_a_level_that_plays_other_moves_changes_the_digest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _problems, digest = check.players_check(positions=2)

    def otherwise(name: str, rng: random.Random | None = None, **options: object) -> object:
        return make_bot("random" if name == "medium" else name, random.Random(99), **options)

    monkeypatch.setattr(check, "make_bot", otherwise)
    assert check.players_check(positions=2)[1] != digest


def test_a_bundled_network_that_does_not_load_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(asset_path("ai"), tmp_path / "ai")
    (tmp_path / "ai" / learned.NETWORKS[1]).write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(check, "asset_path", lambda *parts: tmp_path.joinpath(*parts))
    problems, _digest = check.players_check(positions=1)
    assert problems == [f"learned network did not load: {learned.NETWORKS[1]}"]
