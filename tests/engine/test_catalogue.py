"""The catalogue's table options: what the lobby offers for each variant is exactly the yes/no,
one-of, number and list fields of the game's options dataclass, with the variant's values as
defaults, named in Chinese and English, and every value it offers makes a table."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any, Literal

import pytest

from paiju import api
from paiju.registry import get_game

VARIANTS = [(game["id"], variant) for game in api.list_games() for variant in game["variants"]]
IDS = [f"{game}/{variant['id']}" for game, variant in VARIANTS]


def offered_fields(options: Any) -> dict[str, str]:
    """The fields of an options dataclass the lobby may set, by kind."""
    hints = typing.get_type_hints(type(options))
    kinds = {}
    for f in dataclasses.fields(options):
        hint = hints[f.name]
        if typing.get_origin(hint) is Literal:
            kinds[f.name] = "choice"
        elif hint in (bool, int):
            kinds[f.name] = hint.__name__
        elif typing.get_origin(hint) is tuple:
            kinds[f.name] = "list"
    return kinds


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=IDS)
def test_a_variant_offers_its_bool_choice_and_int_options_with_its_own_defaults(
    game: str, variant: dict[str, Any]
) -> None:
    preset = api.make_config(game, variant["id"]).options
    offered = {o["name"]: o for o in variant["options"]}
    assert {name: o["kind"] for name, o in offered.items()} == offered_fields(preset)
    assert list(offered) == [
        n for n in (f.name for f in dataclasses.fields(preset)) if n in offered
    ]
    for name, option in offered.items():
        default = getattr(preset, name)
        assert option["default"] == (list(default) if isinstance(default, tuple) else default), name
        assert option["zh"].strip() and option["en"].strip() and option["zh"] != name, name
        if option["kind"] == "choice":
            hint = typing.get_type_hints(type(preset))[name]
            assert [c["value"] for c in option["choices"]] == list(typing.get_args(hint))
            assert all(c["zh"].strip() and c["en"].strip() for c in option["choices"]), name
        if option["kind"] == "int":
            assert option["min"] <= option["default"], name
    assert json.loads(json.dumps(variant["options"])) == variant["options"]


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=IDS)
def test_every_value_the_lobby_offers_makes_a_table(game: str, variant: dict[str, Any]) -> None:
    for option in variant["options"]:
        name = option["name"]
        if option["kind"] == "bool":
            values: list[Any] = [True, False]
        elif option["kind"] == "choice":
            values = [c["value"] for c in option["choices"]]
        elif option["kind"] == "list":
            values = [p["value"] for p in option["presets"]]
        else:
            values = [option["min"], option["default"] + 1]
        for value in values:
            config = api.make_config(game, variant["id"], options={name: value})
            got = getattr(config.options, name)
            assert (list(got) if isinstance(got, tuple) else got) == value
            get_game(game).initial_state(config)


def test_banzipao_names_who_may_fanbao_in_both_languages() -> None:
    (banzipao,) = [g for g in api.list_games() if g["id"] == "banzipao"]
    (rights,) = [o for o in banzipao["variants"][0]["options"] if o["name"] == "fanbao_rights"]
    assert rights["kind"] == "choice" and rights["default"] == "next"
    assert rights["choices"] == [
        {"value": "next", "zh": "只有下家可反包", "en": "only the next player may 反包"},
        {"value": "all", "zh": "其他人依次可反包", "en": "each other player in turn"},
    ]


def test_list_options_are_offered_with_named_presets_and_checked() -> None:
    """关牌's lists (the cards taken out, the cards that choose the leader, the planes with wings)
    are set in the lobby as named presets or as lists; a list that cannot make a table is refused
    (a code that is no card, more cards taken out than the hands leave)."""
    (guanpai,) = [g for g in api.list_games() if g["id"] == "guanpai"]
    lists = {o["name"]: o for o in guanpai["variants"][0]["options"] if o["kind"] == "list"}
    assert set(lists) == {"removed", "first_lead", "plane_wings"}
    assert lists["plane_wings"]["item"] == "int" and lists["removed"]["item"] == "str"
    assert [p["value"] for p in lists["removed"]["presets"]] == [
        ["2H", "2D", "2C", "AD"],
        ["2H", "2C", "2D", "AS"],
    ]
    assert all(p["zh"] and p["en"] for o in lists.values() for p in o["presets"])
    assert api.make_config("guanpai", "boke", options={"plane_wings": []}).options.plane_wings == ()
    for bad in (
        {"removed": ["ZZ"]},
        {"removed": ["2H", "2D", "2C", "AD", "3S"]},
        {"first_lead": ["XX"]},
        {"plane_wings": ["two"]},
    ):
        with pytest.raises(ValueError):
            api.make_config("guanpai", "boke", options=bad)


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=IDS)
def test_a_number_below_its_least_value_is_refused(game: str, variant: dict[str, Any]) -> None:
    """The lobby's number boxes stop at an option's least value; the engine (and so the API)
    refuses anything lower just the same."""
    numbers = [o for o in variant["options"] if o["kind"] == "int"]
    assert numbers  # every game has at least its number of hands
    for option in numbers:
        api.make_config(game, variant["id"], options={option["name"]: option["min"]})
        with pytest.raises(ValueError, match="at least"):
            api.make_config(game, variant["id"], options={option["name"]: option["min"] - 1})
