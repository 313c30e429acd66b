"""Commands and events in their JSON form: stable tags, a schema version, canonical cards, and a
clear error for anything malformed."""

from __future__ import annotations

import pytest

from paiju import api
from paiju.errors import RuleError
from paiju.protocol import HandEnded, Pass, Play, Played, ScoreLine, decode, encode


def test_commands_and_events_round_trip() -> None:
    for message in (
        Play(seat=2, cards=(0, 5, 9)),
        Pass(seat=1),
        Played(seat=0, cards=(44, 45), kind="pair", key=11),
        HandEnded(
            hand_no=1, order=(2, 0, 1), lines=(ScoreLine("guan", 0, 2, 32),), scores=(-32, 0, 32)
        ),
    ):
        assert decode(encode(message)) == message


def test_events_carry_a_schema_version_and_canonical_cards() -> None:
    data = encode(Played(seat=0, cards=(32, 33), kind="pair", key=8))
    assert data == {
        "type": "played",
        "v": 1,
        "seat": 0,
        "cards": ["JS", "JH"],
        "kind": "pair",
        "key": 8,
    }
    assert decode({"type": "play", "seat": 0, "cards": ["j♠", "10h"]}) == Play(
        seat=0, cards=(28 + 1, 32)
    )


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("not an object", "bad_command"),
        ({"seat": 0}, "bad_command"),
        ({"type": "teleport", "seat": 0}, "unknown_command"),
        ({"type": "play", "seat": 0}, "bad_command"),
        ({"type": "play", "seat": 0, "cards": ["ZZ"]}, "bad_command"),
        ({"type": "play", "seat": "0", "cards": ["3S"]}, "bad_command"),
        ({"type": "play", "seat": True, "cards": ["3S"]}, "bad_command"),
        ({"type": "play", "seat": 0, "cards": ["3S"], "extra": 1}, "bad_command"),
        ({"type": "played", "v": 99, "seat": 0, "cards": [], "kind": "x", "key": 0}, "bad_command"),
    ],
)
def test_malformed_messages_get_a_typed_error(data: object, code: str) -> None:
    with pytest.raises(RuleError) as err:
        decode(data)
    assert err.value.code == code
    assert err.value.zh and err.value.en


def test_a_rule_error_speaks_chinese_and_english_and_names_the_cards() -> None:
    state = api.initial_state(api.make_config("guanpai", "boke"))
    result = api.check_command(state, {"type": "play", "seat": 0, "cards": ["3S"]})
    assert result == {
        "ok": False,
        "error": {
            "code": "wrong_phase",
            "zh": "现在不能这样做（commit）",
            "en": "That is not possible now (commit)",
            "cards": [],
        },
    }


def test_the_catalogue_lists_each_game_with_variants_players_and_descriptions() -> None:
    (guanpai,) = [g for g in api.list_games() if g["id"] == "guanpai"]
    assert guanpai["name_zh"] == "关牌" and "出牌" in guanpai["description_zh"]
    assert [(v["id"], v["players"]) for v in guanpai["variants"]] == [
        ("boke", (3,)),
        ("mainstream", (2, 3)),
        ("suzhou", (2, 3)),
    ]
    with pytest.raises(ValueError):
        api.make_config("guanpai", "boke", players=2)
    with pytest.raises(ValueError):
        api.make_config("guanpai", "boke", options={"no_such_option": 1})


def test_table_options_are_checked_against_their_types() -> None:
    assert api.make_config("guanpai", "boke", options={"plane_wings": [2]}).options.plane_wings == (
        2,
    )
    for bad in ({"hands": "2"}, {"must_beat": 1}, {"dingda": "sometimes"}, {"removed": [3]}):
        with pytest.raises(ValueError):
            api.make_config("guanpai", "boke", options=bad)
