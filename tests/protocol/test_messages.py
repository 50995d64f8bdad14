"""The one codec of briscola-net/1: messages built by briscola.protocol.messages are the
documented frames byte for byte, and a frame that is no message is refused with its code."""

from __future__ import annotations

import pytest

from briscola.protocol import messages as msg
from briscola.protocol.errors import CloseReason, ErrorCode, NoticeCode, ProtocolError


def test_a_client_s_messages_are_the_documented_frames() -> None:
    assert msg.encode(msg.hello("Anna")) == (
        '{"type":"hello","protocol":"briscola-net/1","name":"Anna"}'
    )
    assert msg.encode(msg.join("K7MX2Q")) == '{"type":"join","code":"K7MX2Q"}'
    assert msg.encode(msg.join("K7MX2Q", 3)) == '{"type":"join","code":"K7MX2Q","seat":3}'
    assert msg.encode(msg.resume("K7MX2Q", "t")) == '{"type":"resume","code":"K7MX2Q","token":"t"}'
    assert msg.encode(msg.act({"play": "3S"}, 14)) == (
        '{"type":"act","action":{"play":"3S"},"moves":14}'
    )
    assert msg.encode(msg.act({"signal": "king"})) == '{"type":"act","action":{"signal":"king"}}'
    assert msg.encode(msg.start(True)) == '{"type":"start","fill_bots":true}'
    assert msg.encode(msg.ready(False)) == '{"type":"ready","ready":false}'
    assert msg.encode(msg.next_hand()) == '{"type":"next"}'
    assert msg.encode(msg.leave()) == '{"type":"leave"}'
    created = msg.create({"preset": "classic2"}, [{"kind": "human"}, {"kind": "bot"}], 0)
    assert msg.encode(created) == (
        '{"type":"create","rules":{"preset":"classic2"},"seat":0,'
        '"seats":[{"kind":"human"},{"kind":"bot"}]}'
    )


def test_a_server_s_messages_are_the_documented_frames_and_read_back() -> None:
    frames = [
        msg.welcome(16384, 10.0, 30, 60.0),
        msg.joined("K7MX2Q", 1, "x" * 32, False),
        msg.left("K7MX2Q"),
        msg.notice(NoticeCode.TIMED_OUT, "your time ran out"),
        msg.closed(CloseReason.HOST_LEFT, "the host closed the table"),
        msg.error(ErrorCode.NOT_YOUR_TURN, "it is not your turn", "act"),
    ]
    for frame in frames:
        assert msg.decode_server(msg.encode(frame)) == frame
    assert msg.encode(msg.closed(CloseReason.REPLACED, "m")) == (
        '{"type":"closed","reason":"replaced","message":"m"}'
    )
    assert msg.encode(msg.error(ErrorCode.VERSION, "v", "hello", "briscola-net/1")) == (
        '{"type":"error","code":"version","message":"v","ref":"hello","protocol":"briscola-net/1"}'
    )
    assert msg.error(ErrorCode.STALE, "s", "x" * 50)["ref"] == "x" * 32
    assert "ref" not in msg.error(ErrorCode.STALE, "s", 7)


def test_a_client_frame_that_is_no_message_is_refused_with_its_code() -> None:
    cases = {
        "[1]": ErrorCode.MALFORMED,
        "{": ErrorCode.MALFORMED,
        '{"type": 3}': ErrorCode.MALFORMED,
        '{"type": "dance"}': ErrorCode.UNKNOWN_TYPE,
        '{"type": "\\ud800"}': ErrorCode.BAD_MESSAGE,
    }
    for text, code in cases.items():
        with pytest.raises(ProtocolError) as caught:
            msg.decode_client(text)
        assert caught.value.code is code, text
    with pytest.raises(ProtocolError) as caught:
        msg.decode_client('{"type": "welcome"}')  # a server's message, from a client
    assert caught.value.code is ErrorCode.UNKNOWN_TYPE and caught.value.ref == "welcome"
    with pytest.raises(ProtocolError) as caught:
        msg.decode_hello('{"type": "join", "code": "K7MX2Q"}')
    assert caught.value.code is ErrorCode.HELLO_FIRST
    assert msg.decode_client('{"type": "join", "code": 5}') == {"type": "join", "code": 5}


def test_a_server_frame_is_read_field_by_field_and_unknown_types_are_left_out() -> None:
    assert msg.decode_server('{"type": "celebrate", "x": 1}') is None
    bad = [
        '{"type": "joined", "table": "K7MX2Q", "seat": true, "token": "t", "host": false}',
        '{"type": "joined", "table": "K7MX2Q", "token": "t", "host": false}',
        '{"type": "closed", "reason": 4, "message": ""}',
        '{"type": "table", "table": "A", "rules": {}, "host": 0, "phase": "lobby",'
        ' "seats": [{"seat": "0", "kind": "human", "name": ""}], "standing": null,'
        ' "hand": null, "grace": 60}',
        '{"type": "update", "deal": 1, "hand": 1, "moves": 0, "reset": false,'
        ' "events": {}, "view": {}, "standing": [], "phase": "playing"}',
    ]
    for text in bad:
        with pytest.raises(ProtocolError) as caught:
            msg.decode_server(text)
        assert caught.value.code is ErrorCode.MALFORMED, text
    table = msg.decode_server(
        '{"type": "table", "table": "A", "rules": {}, "host": 0, "phase": "lobby",'
        ' "seats": [{"seat": 0, "kind": "human", "name": "", "level": null}],'
        ' "standing": null, "hand": null, "grace": 60}'
    )
    assert table is not None and table["type"] == "table" and table["seats"][0]["seat"] == 0


def test_the_type_of_an_encoded_frame_is_read_without_parsing_it() -> None:
    assert msg.frame_type(msg.encode(msg.joined("K7MX2Q", 0, "t", True))) == "joined"
    assert msg.frame_type('{"table": "x", "type": "joined"}') == ""
