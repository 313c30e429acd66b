"""Commands and events in their JSON form: stable tags, a schema version, canonical cards, and a
clear error for anything malformed."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from paiju import api
from paiju.cards import Card, Hand, card_name, format_card
from paiju.errors import RuleError
from paiju.protocol import (
    Dealt,
    Event,
    HandEnded,
    Pass,
    Play,
    Played,
    Reading,
    ResultLine,
    ScoreLine,
    TrickWon,
    decode,
    encode,
    register,
)
from paiju.simulate import table_command


@register
@dataclasses.dataclass(frozen=True, slots=True)
class TrumpShown(Event):
    """A game's own event, as a trick-taking game would declare it."""

    TYPE: ClassVar[str] = "test_trump_shown"
    seat: int
    trump: Card
    shown: Hand
    kitty: tuple[Hand, ...]


def test_commands_and_events_round_trip() -> None:
    for message in (
        Play(seat=2, cards=(0, 5, 9)),
        Pass(seat=1),
        Play(seat=2, cards=(0, 5, 9), reading=Reading(kind="pair_run", stands_for=(8,))),
        Played(seat=0, cards=(44, 45), kind="pair", key=11, stands_for=()),
        TrickWon(seat=1, cards=(3, 7, 44), kind="single", key=11),
        Dealt(
            hand_no=1, hands=((9, 0), (3, 1)), rest=(7, 2), face_up=(7,), leader=1, scheme="round"
        ),
        HandEnded(
            hand_no=1,
            order=(2, 0, 1),
            lines=(ScoreLine("guan", 0, 2, 32),),
            scores=(-32, 0, 32),
            results=(ResultLine("level_up", 2, 1),),
        ),
    ):
        assert decode(encode(message)) == message


def test_events_carry_a_schema_version_and_canonical_cards() -> None:
    data = encode(Played(seat=0, cards=(32, 33), kind="pair", key=8, stands_for=(52,)))
    assert data == {
        "type": "played",
        "v": 2,
        "seat": 0,
        "cards": ["JS", "JH"],
        "kind": "pair",
        "key": 8,
        "stands_for": ["BJ"],
    }
    # cards keep the order written (a dealt hand is recorded as drawn); a reading is optional
    assert decode({"type": "play", "seat": 0, "cards": ["j♠", "10h"]}) == Play(
        seat=0, cards=(32, 28 + 1)
    )


def test_a_schema_1_event_is_upcast_to_the_current_version() -> None:
    old = {
        "type": "dealt",
        "v": 1,
        "hand_no": 1,
        "hands": [["3S"], ["3H"]],
        "rest": [],
        "leader": 0,
    }
    assert decode(old) == Dealt(
        hand_no=1, hands=((0,), (1,)), rest=(), face_up=(), leader=0, scheme="blocks"
    )
    old_play = {"type": "played", "v": 1, "seat": 0, "cards": ["3S"], "kind": "single", "key": 0}
    assert decode(old_play) == Played(seat=0, cards=(0,), kind="single", key=0, stands_for=())
    old_end = {"type": "hand_ended", "v": 1, "hand_no": 1, "order": [0], "lines": [], "scores": [0]}
    assert decode(old_end) == HandEnded(hand_no=1, order=(0,), lines=(), scores=(0,), results=())


def test_fields_are_encoded_by_type_not_by_name() -> None:
    """A card field of any name travels as a code, never as the engine's integer."""
    event = TrumpShown(seat=1, trump=51, shown=(0, 1), kitty=((2,), ()))
    data = encode(event)
    assert data == {
        "type": "test_trump_shown",
        "v": 1,
        "seat": 1,
        "trump": "2D",
        "shown": ["3S", "3H"],
        "kitty": [["3C"], []],
    }
    assert decode(data) == event
    with pytest.raises(RuleError):
        decode(data | {"trump": 51})


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
            "zh": "现在不能这样做（准备发牌）",
            "en": "That is not possible now (before the deal)",
            "cards": [],
        },
    }


def test_a_refusal_names_the_cards_as_players_read_them_in_each_language() -> None:
    """The message a player reads names cards by suit symbol and rank (♠10 in Chinese, 10♠ in
    English), never by code; the codes stay in ``cards`` for programs."""
    state = api.initial_state(api.make_config("guanpai", "mainstream", players=3))
    while (command := table_command(state, "names")) is not None:
        state, _ = api.apply(state, command)
    seat = api.to_move(state)
    assert seat is not None
    # a ten (rank 7) another seat holds
    other = next(c for s, hand in enumerate(state.hands) if s != seat for c in hand if c >> 2 == 7)
    result = api.check_command(state, {"type": "play", "seat": seat, "cards": [format_card(other)]})
    assert result["error"] == {
        "code": "not_in_hand",
        "zh": f"你手里没有这些牌：{card_name(other, 'zh')}",
        "en": f"These cards are not in your hand: {card_name(other, 'en')}",
        "cards": [format_card(other)],
    }
    assert card_name(other, "en")[:2] == "10" and card_name(other, "zh")[1:] == "10"  # a ten


@pytest.mark.parametrize(
    ("params", "zh", "en"),
    [
        ({"play": "4S", "lead": "TH"}, "♠4 管不上 ♥10", "4♠ does not beat 10♥"),
        ({"play": "3C AS", "lead": "RJ"}, "♣3 ♠A 管不上 大王", "3♣ A♠ does not beat Big Joker"),
        ({"play": (0, 1), "lead": 52}, "♠3 ♥3 管不上 小王", "3♠ 3♥ does not beat Small Joker"),
    ],
)
def test_card_parameters_of_any_message_are_named_per_language(
    params: dict[str, object], zh: str, en: str
) -> None:
    err = RuleError("does_not_beat", ["4S"], **params)
    assert (err.zh, err.en, err.cards) == (zh, en, ["4S"])


def test_a_parameter_that_is_not_cards_is_left_as_written() -> None:
    err = RuleError("must_include_card", [], card="the lowest card")
    assert err.en == "The first play must include the lowest card"
    assert RuleError("unknown_seat", seat=3).en == "There is no seat 3"


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
