"""The player's name is the New game screen's first seat: online play reads and keeps it
there, leaving the other choices of that screen as they were."""

from __future__ import annotations

from briscola.storage.settings import Settings


def test_the_player_name_is_the_first_seat_s_and_keeps_the_rest() -> None:
    settings = Settings()
    assert settings.player_name == ""
    settings.player_name = "Anna"
    assert settings.new_game == {"seats": [{"name": "Anna", "kind": "human"}]}
    settings.new_game = {
        "preset": "teams4",
        "seats": [{"name": "Old", "kind": "human", "level": "hard"}, {"kind": "bot"}],
    }
    settings.player_name = "Bruno"
    assert settings.player_name == "Bruno"
    assert settings.new_game == {
        "preset": "teams4",
        "seats": [{"name": "Bruno", "kind": "human", "level": "hard"}, {"kind": "bot"}],
    }
    settings.new_game = {"seats": ["not a seat"]}
    assert settings.player_name == ""
    settings.player_name = "Carla"
    assert settings.player_name == "Carla"
