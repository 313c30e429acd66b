"""The views' seal and frame (paiju_services/views.py), alone: a seat's view opens with the key
of that seat's token only, bound to its table and seat; a frame is the body with the table, the
event and the connected seats in front, valid JSON with every field once."""

from __future__ import annotations

import hashlib
import json

import pytest

from paiju_services import tokens, views

BODY = views.encoder.encode(
    views.ViewBody(index=7, view={"hand": ["3C", "4D"], "turn": 1}, settled=True, moves=[])
)


def test_a_sealed_view_opens_with_its_seat_s_token_only() -> None:
    key = views.view_key("token-of-seat-1")
    sealed = views.seal(key, "0123456789abcdef", 1, BODY)
    assert b"3C" not in sealed and b"hand" not in sealed
    assert views.unseal(key, "0123456789abcdef", 1, sealed) == BODY
    with pytest.raises(views.SealBroken):  # another seat's token
        views.unseal(views.view_key("token-of-seat-2"), "0123456789abcdef", 1, sealed)
    with pytest.raises(views.SealBroken):  # moved to another seat's subject
        views.unseal(key, "0123456789abcdef", 2, sealed)
    with pytest.raises(views.SealBroken):  # or another table's
        views.unseal(key, "fedcba9876543210", 1, sealed)
    with pytest.raises(views.SealBroken):  # altered
        views.unseal(key, "0123456789abcdef", 1, sealed[:-1] + bytes([sealed[-1] ^ 1]))
    # a fresh nonce each time: the same view sealed twice does not read the same
    assert views.seal(key, "0123456789abcdef", 1, BODY) != sealed


def test_a_frame_is_the_body_behind_the_table_the_event_and_who_is_connected() -> None:
    frame = json.loads(views.frame("0123456789abcdef", "played", [0, 2], BODY))
    assert frame == {
        "type": "state",
        "table": "0123456789abcdef",
        "event": "played",
        "connected": [0, 2],
        **json.loads(BODY),
    }
    assert json.loads(views.frame("0123456789abcdef", None, [], BODY))["event"] is None


def test_one_message_holds_every_audience_s_view_in_the_order_of_its_head() -> None:
    assert views.views_subject("0123456789abcdef") == "paiju.views.0123456789abcdef"
    key = views.view_key("seat-0-token")
    sealed = views.seal(key, "0123456789abcdef", 0, BODY)
    message = views.pack(7, "played", [(None, BODY), (0, sealed), (2, b"")])
    head, _, rest = message.partition(b"\n")
    assert json.loads(head) == [7, "played", [["watch", len(BODY)], ["s0", len(sealed)], ["s2", 0]]]
    assert rest == BODY + sealed
    index, event, parts = views.unpack(message)
    assert (index, event) == (7, "played")
    assert parts == {None: BODY, 0: sealed, 2: b""}
    assert views.unseal(key, "0123456789abcdef", 0, parts[0]) == BODY


@pytest.mark.parametrize(
    "message",
    [
        b"",  # no head
        b'[7,"played",[["watch",3]]]',  # no newline: no body
        b'[7,"played",[["watch",3]]]\nab',  # a part shorter than its head says
        b'[7,"played",[["watch",3]]]\nabcd',  # bytes left over
        b'[7,"played",[["w",3]]]\nabc',  # an audience with no such name
        b'[7,"played",[["s-1",3]]]\nabc',
        b'[7,"played",[["watch",-1]]]\n',
        b'[7,"played",[["watch",3]],1]\nabc',  # a field too many
        b'{"index":7}\n',
    ],
)
def test_a_message_that_is_not_a_views_message_is_refused(message: bytes) -> None:
    with pytest.raises(ValueError):
        views.unpack(message)


def test_a_seat_s_key_is_named_by_its_table_and_the_sha256_of_its_token() -> None:
    # the table service writes the name, its publisher and the gateway find it: one digest for all
    digest = tokens.token_hash("seat-0-token")
    assert digest == hashlib.sha256(b"seat-0-token").hexdigest()
    assert views.key_name("0123456789abcdef", digest) == f"view.0123456789abcdef.{digest}"
