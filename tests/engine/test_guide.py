"""The players' rules pages (web-client/guide/<game>.<lang>.md): for every game of the catalogue a
Chinese and an English page, each with the sections a player looks for, every card picture written
as canonical card codes in double braces, no card code loose in the prose, the English page in
English (Chinese only for the terms the catalogue's English itself uses), and every table option
of the game named by its lobby label, with each of its choices."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paiju import api
from paiju.cards import format_card, parse_card, parse_cards
from paiju.errors import NotationError

GUIDE = Path(__file__).resolve().parents[2] / "web-client" / "guide"
GAMES = api.list_games()
IDS = [game["id"] for game in GAMES]

SECTIONS = {
    "zh": ["牌与人数", "牌型", "大小", "特殊规则", "计分", "房规"],
    "en": [
        "Cards and players",
        "Combinations",
        "What beats what",
        "Special rules",
        "Scoring",
        "House rules",
    ],
}
GROUP = re.compile(r"\{\{([^{}]*)\}\}")
# a card code as the notation writes it, standing alone: 3C, TS, 10H, RJ, BJ
LOOSE_CODE = re.compile(
    r"(?<![A-Za-z0-9])(?:[2-9TJQKA]|10)[SHCD](?![A-Za-z0-9])|(?<![A-Za-z0-9])[RB]J(?![A-Za-z0-9])"
)
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff00-\uffef]")


def page(game: str, lang: str) -> str:
    return (GUIDE / f"{game}.{lang}.md").read_text(encoding="utf-8")


def english_texts(node: Any, key: str = "") -> Iterator[str]:
    """Every English string of a catalogue entry: the `en`/`*_en` fields and the second of each
    [Chinese, English] pair of its words."""
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, str) and (k == "en" or k.endswith("_en")):
                yield v
            else:
                yield from english_texts(v, k)
    elif isinstance(node, list):
        if len(node) == 2 and all(isinstance(x, str) for x in node) and HAN.search(node[0]):
            yield node[1]
        else:
            for item in node:
                yield from english_texts(item, key)


def labels(game: dict[str, Any], lang: str) -> set[str]:
    """The lobby labels of every option of every variant of a game, and of each of its choices."""
    found = set()
    for variant in game["variants"]:
        for option in variant["options"]:
            found.add(option[lang])
            for choice in option.get("choices", []):
                found.add(choice[lang])
    return found


def prose(text: str) -> str:
    return GROUP.sub(" ", text)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_game_has_its_page_with_the_sections_a_player_looks_for(
    game: dict[str, Any], lang: str
) -> None:
    text = page(game["id"], lang)
    headings = re.findall(r"^## (.+?)\s*$", text, flags=re.MULTILINE)
    for section in SECTIONS[lang]:
        assert section in headings, f"{game['id']}.{lang}.md lacks the section {section!r}"
    assert text.startswith("# "), "a page opens with its title"
    assert game[f"name_{lang}"] in text.splitlines()[0]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_card_picture_is_canonical_card_codes_and_no_code_is_loose(
    game: dict[str, Any], lang: str
) -> None:
    text = page(game["id"], lang)
    groups = GROUP.findall(text)
    assert groups, "a page shows its combinations as card pictures"
    for group in groups:
        codes = group.split()
        assert codes, "an empty card picture"
        try:
            assert len(parse_cards(group)) == len(codes)
            assert [format_card(parse_card(c)) for c in codes] == codes, (
                f"not canonical: {{{{{group}}}}}"
            )
        except NotationError as e:
            pytest.fail(f"{game['id']}.{lang}.md: {{{{{group}}}}} is not cards ({e})")
    rest = prose(text)
    assert "{{" not in rest and "}}" not in rest, "an unclosed card picture"
    loose = LOOSE_CODE.findall(rest)
    assert not loose, f"card codes outside a picture: {loose}"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_english_page_is_english(game: dict[str, Any]) -> None:
    allowed = {run for t in english_texts(game) for run in HAN.findall(t)} | {game["name_zh"]}
    text = page(game["id"], "en")
    stray = [run for run in HAN.findall(text) if not any(run in a for a in allowed)]
    assert not stray, f"Chinese outside the game's own terms: {stray}"
    wide = sorted(set(FULL_WIDTH.findall(text)))
    assert not wide, f"full-width punctuation: {wide}"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_table_option_and_choice_is_named_by_its_lobby_label(
    game: dict[str, Any], lang: str
) -> None:
    text = page(game["id"], lang)
    house = text.split(f"## {SECTIONS[lang][-1]}", 1)[-1]
    missing = sorted(label for label in labels(game, lang) if label not in house)
    assert not missing, f"{game['id']}.{lang}.md's house rules do not name {missing}"


def test_the_english_check_knows_the_catalogues_own_terms() -> None:
    guanpai = next(g for g in GAMES if g["id"] == "guanpai")
    runs = {run for t in english_texts(guanpai) for run in HAN.findall(t)}
    assert {"必管", "顶大", "三带二"} <= runs
    assert "单张" not in runs  # the Chinese half of a word pair is not English
