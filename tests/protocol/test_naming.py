"""The rules of a registered name and of a player's key (issue 47), one test per rule."""

from __future__ import annotations

import hashlib

import pytest

from briscola.game.setup import COMPUTER_NAMES
from briscola.protocol.errors import ErrorCode, ProtocolError
from briscola.protocol.naming import check_key, check_player_name, key_hash, name_key


def refused(name: object) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        check_player_name(name)
    return caught.value


def test_a_name_is_stripped_and_read_in_its_compatibility_form() -> None:
    assert check_player_name("  Zoë Bianchi ") == "Zoë Bianchi"
    assert check_player_name("Ｚｏｅ") == "Zoe"  # (full-width letters: NFKC)


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 25, "a\x00b", "a\tb", "a\u200bb", "a\u202eb", "Zoë!", "a  b", 7]
)
def test_empty_too_long_control_invisible_and_other_characters_are_bad_names(
    name: object,
) -> None:
    assert refused(name).code is ErrorCode.BAD_NAME


def test_a_name_needs_a_letter() -> None:
    error = refused("2024")
    assert error.code is ErrorCode.BAD_NAME and "letter" in str(error)


@pytest.mark.parametrize("name", ["\u0410nna", "Z\u03bfe", "Ivan \u0418van"])
def test_letters_of_two_scripts_are_refused_as_confusable(name: str) -> None:
    error = refused(name)
    assert error.code is ErrorCode.NAME_REFUSED and "one script" in str(error)


def test_names_of_one_other_script_are_welcome() -> None:
    assert check_player_name("Иван") == "Иван"
    assert check_player_name("Νίκος") == "Νίκος"
    assert check_player_name("さくら サクラ 桜") == "さくら サクラ 桜"


@pytest.mark.parametrize(
    "name", ["admin", "ADMIN", "Server", "moderator", "The Mod", "m0d", "Staff-Team", "Robot"]
)
def test_reserved_words_are_refused_as_the_name_or_one_of_its_words(name: str) -> None:
    error = refused(name)
    assert error.code is ErrorCode.NAME_REFUSED and "reserved" in str(error)


def test_a_reserved_word_inside_another_word_is_anyone_s() -> None:
    assert check_player_name("Badminton") == "Badminton"
    assert check_player_name("Modesta") == "Modesta"


def test_a_person_may_have_a_computer_player_s_name() -> None:
    # Real people are called Anna and Bruno; a computer seated beside one takes another
    # name (spare_computer_name), and seats say which are computers.
    for name in COMPUTER_NAMES:
        assert check_player_name(name) == name
    assert check_player_name("Easy Rider") == "Easy Rider"  # a level's word is anyone's


def test_names_are_compared_after_nfkc_case_folding_accents_and_separators() -> None:
    same = ["Zoë Rossi", "zoë rossi", "ZOË ROSSI", "Zoe\u0308 Rossi", "Ｚｏë Rossi", "Zoe_Rossi"]
    assert len({name_key(name) for name in same}) == 1
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Anna1") == name_key("Annal") and name_key("B0b") == name_key("Bob")
    assert name_key("Anna") != name_key("Anne")


def test_a_key_is_64_lowercase_hexadecimal_digits_and_the_server_keeps_its_sha256() -> None:
    key = "0123456789abcdef" * 4
    assert check_key(key) == key
    for wrong in (key.upper(), key[:-1], key + "0", "g" * 64, None, 64):
        with pytest.raises(ProtocolError) as caught:
            check_key(wrong)
        assert caught.value.code is ErrorCode.BAD_KEY
    assert key_hash(key) == hashlib.sha256(bytes.fromhex(key)).hexdigest()
