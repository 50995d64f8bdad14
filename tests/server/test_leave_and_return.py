"""Leaving an online table and coming back: a person who leaves a match under way is played
for by a computer at once and may take the seat back with its token until the match ends;
after that the token is refused with its own code (``match_over``)."""

from __future__ import annotations

import json
from collections.abc import Callable

from serverhelp import hello, player, raw, replies, seated_pair

from briscola.client.headless import open_table, play_all
from briscola.engine import Rules
from briscola.server import ServerThread

DEADLINE = 60.0


def test_a_player_who_left_a_match_under_way_takes_the_seat_back_with_the_token(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(takeover_level="random", bot_delay=0.02)
    with raw(server.url) as guest:
        host, code, _host_token, token = seated_pair(server.url, guest)
        guest.send(json.dumps({"type": "leave"}))
        assert replies(guest, lambda m: m["type"] == "left")["table"] == code
    back = player(server.url, "Bruno", 5)
    try:
        # A computer plays for the guest at once, and the host is told so.
        host.run_until(lambda p: p.table is not None and p.table["seats"][1]["replaced"], 10)
        seat = host.table["seats"][1]
        assert seat["away"] is True and seat["connected"] is False
        host.run_until(lambda p: p.moves >= 3 or p.phase != "playing", DEADLINE)
        back.client.submit({"type": "resume", "code": code, "token": token})
        back.run_until(lambda p: p.view is not None, 10)
        host.run_until(
            lambda p: p.table is not None and not p.table["seats"][1]["replaced"], DEADLINE
        )
        assert host.table["seats"][1]["connected"] is True
        # The computer stood down: the person moves for the seat again, to the match's end.
        play_all([host, back], lambda p: p.match_over, DEADLINE)
        assert back.acted > 0
    finally:
        for p in (host, back):
            p.client.close()


def test_once_the_match_is_over_the_token_of_a_seat_left_is_refused_with_a_clear_code(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server(takeover_level="random")
    with raw(server.url) as guest:
        host, code, _host_token, token = seated_pair(server.url, guest)
        guest.send(json.dumps({"type": "leave"}))
        replies(guest, lambda m: m["type"] == "left")
    try:
        host.run_until(lambda p: p.match_over, DEADLINE)
        with raw(server.url) as late:
            hello(late, "Bruno")
            late.send(json.dumps({"type": "resume", "code": code, "token": token}))
            refused = replies(late, lambda m: m["type"] == "error")
        assert refused["code"] == "match_over", refused
        assert host.table is not None and host.table["seats"][1]["replaced"] is True
    finally:
        host.client.close()


def test_a_seat_left_in_the_waiting_room_is_given_up_and_its_token_is_not_valid(
    make_server: Callable[..., ServerThread],
) -> None:
    server = make_server()
    host = player(server.url, "Anna", 0)
    try:
        open_table(host, Rules.preset("classic2"))
        code = str(host.table["table"])
        with raw(server.url) as guest:
            hello(guest, "Bruno")
            guest.send(json.dumps({"type": "join", "code": code}))
            token = replies(guest, lambda m: m["type"] == "joined")["token"]
            guest.send(json.dumps({"type": "leave"}))
            replies(guest, lambda m: m["type"] == "left")
            guest.send(json.dumps({"type": "resume", "code": code, "token": token}))
            refused = replies(guest, lambda m: m["type"] == "error")
        assert refused["code"] == "bad_token"
        host.run_until(lambda p: p.table is not None and not p.table["seats"][1]["claimed"], 10)
    finally:
        host.client.close()
