"""The views' seal and frame (paiju_services/views.py), alone: a seat's view opens with the key
of that seat's token only, bound to its table and seat; a frame is the body with the table, the
event and the connected seats in front, valid JSON with every field once."""

from __future__ import annotations

import json

import pytest

from paiju_services import views

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


def test_subjects_name_their_audience() -> None:
    assert views.views_subject("0123456789abcdef", None) == "paiju.views.0123456789abcdef.watch"
    assert views.views_subject("0123456789abcdef", 3) == "paiju.views.0123456789abcdef.s3"
    assert views.seat_of_subject("paiju.views.0123456789abcdef.watch") is None
    assert views.seat_of_subject("paiju.views.0123456789abcdef.s3") == 3
