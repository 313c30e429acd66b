"""Card notation and decks: every text form a player may type reads back to one canonical code,
every card has a name a player reads (♠A / A♠, 大王 / Big Joker) that reads back to it, and the
packs the games deal from have exactly the cards their rules name."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    build_deck,
    card_codes,
    card_name,
    card_names,
    format_card,
    format_cards,
    is_joker,
    parse_card,
    parse_cards,
    rank_counts,
    rank_of,
    remove_cards,
    suit_of,
)
from paiju.errors import NotationError, PaijuError

# --- one card ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("TS", "TS"),
        ("10S", "TS"),
        ("10♠", "TS"),
        ("ts", "TS"),
        ("10s", "TS"),
        ("t♠", "TS"),
        ("3h", "3H"),
        ("3♥", "3H"),
        ("q♣", "QC"),
        ("Ad", "AD"),
        ("a♦", "AD"),
        ("2S", "2S"),
        (" 9c ", "9C"),
        ("rj", "RJ"),
        ("BJ", "BJ"),
        ("bj", "BJ"),
        # a card's name, as messages write it, reads back too
        ("♠3", "3S"),
        ("♥10", "TH"),
        ("10♥", "TH"),
        ("大王", "RJ"),
        ("小王", "BJ"),
        ("Big Joker", "RJ"),
        ("small  joker", "BJ"),
    ],
)
def test_every_spelling_reads_to_the_canonical_code(text: str, canonical: str) -> None:
    assert format_card(parse_card(text)) == canonical


def test_every_card_of_a_pack_with_jokers_round_trips() -> None:
    pack = build_deck(jokers=True)
    assert len(pack) == 54
    for card in pack:
        code = format_card(card)
        assert parse_card(code) == card
        assert parse_card(code.lower()) == card
    assert sorted(format_card(c) for c in pack) == sorted(set(card_codes(pack)))


def test_ranks_and_suits_follow_the_notation_order() -> None:
    three_spades, two_diamonds = parse_card("3S"), parse_card("2D")
    assert (rank_of(three_spades), suit_of(three_spades)) == (0, 0)
    assert (rank_of(two_diamonds), suit_of(two_diamonds)) == (12, 3)
    assert two_diamonds == 12 * 4 + 3  # a card is rank × 4 + suit
    assert rank_of(parse_card("AH")) == 11
    assert [suit_of(parse_card(f"7{s}")) for s in "♠♥♣♦"] == [0, 1, 2, 3]
    assert parse_card("BJ") == SMALL_JOKER and parse_card("RJ") == BIG_JOKER
    assert is_joker(SMALL_JOKER) and is_joker(BIG_JOKER) and not is_joker(parse_card("2D"))


def test_cards_order_by_rank_then_suit() -> None:
    assert parse_card("3D") < parse_card("4S") < parse_card("AD") < parse_card("2S") < SMALL_JOKER


@pytest.mark.parametrize(
    "junk",
    [
        "",
        " ",
        "1S",
        "11S",
        "3X",
        "3",
        "10",
        "3SS",
        "♠♠3",
        "S3",
        "JK",
        "XJ",
        "10♠♠",
        "1O♠",
        "T",
        "王",
    ],
)
def test_junk_is_a_notation_error(junk: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(junk)
    assert info.value.text == junk
    assert isinstance(info.value, PaijuError) and isinstance(info.value, ValueError)


def test_formatting_a_number_that_is_no_card_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        format_card(99)
    with pytest.raises(NotationError):
        format_card(-1)


# --- names: a card as a player reads it -------------------------------------------------------------

# every rank in the notation's order, as a player names it
RANK_NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


@pytest.mark.parametrize(("rank", "name"), list(zip("3456789TJQKA2", RANK_NAMES, strict=True)))
def test_every_rank_is_named_with_its_suit_before_it_in_chinese_after_it_in_english(
    rank: str, name: str
) -> None:
    for suit, symbol in zip("SHCD", "♠♥♣♦", strict=True):
        card = parse_card(rank + suit)
        assert card_name(card, "zh") == symbol + name
        assert card_name(card, "en") == name + symbol
    assert card_name(parse_card(rank + "S")) == "♠" + name  # Chinese unless asked


def test_a_ten_is_named_10_and_the_jokers_by_their_names() -> None:
    assert (card_name(parse_card("TS"), "zh"), card_name(parse_card("TS"), "en")) == ("♠10", "10♠")
    assert (card_name(BIG_JOKER, "zh"), card_name(BIG_JOKER, "en")) == ("大王", "Big Joker")
    assert (card_name(SMALL_JOKER, "zh"), card_name(SMALL_JOKER, "en")) == ("小王", "Small Joker")


def test_cards_are_named_in_the_order_given() -> None:
    cards = [parse_card(c) for c in ("RJ", "TH", "3C", "AS", "BJ")]
    assert card_names(cards, "zh") == "大王 ♥10 ♣3 ♠A 小王"
    assert card_names(cards, "en") == "Big Joker 10♥ 3♣ A♠ Small Joker"
    assert card_names([], "en") == ""


@given(st.lists(st.sampled_from(build_deck(decks=2, jokers=True))), st.sampled_from(["zh", "en"]))
def test_names_read_back_to_the_same_cards(cards: list[int], lang: str) -> None:
    assert parse_cards(card_names(cards, lang)) == tuple(sorted(cards))  # type: ignore[arg-type]


def test_naming_something_that_is_no_card_or_in_no_language_is_refused() -> None:
    with pytest.raises(NotationError):
        card_name(99, "en")
    with pytest.raises(ValueError, match="'zh' or 'en'"):
        card_name(parse_card("3S"), "fr")  # type: ignore[arg-type]


# --- several cards -------------------------------------------------------------------------------


def test_docstring_example() -> None:
    assert format_cards(parse_cards("10♠ 3h rj")) == "3H TS RJ"


def test_a_hand_reads_sorted_from_spaces_commas_or_a_list() -> None:
    expected = parse_cards("3D 5H TS AS")
    assert parse_cards("AS, 10♠,5h 3d") == expected
    assert parse_cards("AS,TS,5H,3D") == expected
    assert parse_cards("  AS\tTS\n5H 3D ") == expected
    assert parse_cards(["as", "10s", " 5h", "3♦"]) == expected
    assert format_cards(expected) == "3D 5H TS AS"
    assert parse_cards("") == ()


def test_format_keeps_the_order_given() -> None:
    hand = [parse_card("KS"), parse_card("3D")]
    assert format_cards(hand) == "KS 3D"
    assert card_codes(hand) == ["KS", "3D"]


def test_the_same_card_may_appear_twice_in_a_hand_of_two_decks() -> None:
    hand = parse_cards("5H 5H 3S")
    assert format_cards(hand) == "3S 5H 5H"
    assert format_cards(parse_cards(format_cards(hand))) == "3S 5H 5H"


def test_one_bad_code_spoils_the_hand() -> None:
    with pytest.raises(NotationError) as info:
        parse_cards("3S 4S 1X 5S")
    assert info.value.text == "1X"


def test_rank_counts_and_removing_cards_treat_hands_as_multisets() -> None:
    hand = parse_cards("3S 3H 5C 5C RJ")
    counts = rank_counts(hand)
    assert counts[0] == 2 and counts[2] == 2 and counts[14] == 1 and sum(counts) == 5
    rest = remove_cards(hand, parse_cards("5C 3H"))
    assert rest is not None and format_cards(rest) == "3S 5C RJ"
    assert remove_cards(hand, parse_cards("5C 5C 5C")) is None
    assert remove_cards(hand, parse_cards("4S")) is None


# --- decks ----------------------------------------------------------------------------------------------


def test_a_plain_deck_has_52_distinct_cards() -> None:
    deck = build_deck()
    assert len(deck) == len(set(deck)) == 52
    assert list(deck) == sorted(deck)
    assert not any(is_joker(c) for c in deck)


@pytest.mark.parametrize(
    ("removed", "name"),
    [
        (["2H", "2D", "2C", "AD"], "波克城市"),
        (["2H", "2C", "2D", "AS"], "主流 / 苏州"),
    ],
)
def test_the_guanpai_packs_have_48_cards(removed: list[str], name: str) -> None:
    # 一副牌去掉大小王，红桃2方块2草花2和方块A，共计48张牌 (主流: ... 黑桃A instead of 方块A)
    deck = build_deck(removed=removed)
    assert len(deck) == len(set(deck)) == 48, name
    codes = set(card_codes(deck))
    assert codes.isdisjoint(removed)
    assert [c for c in card_codes(deck) if c[0] == "2"] == ["2S"]
    assert sum(1 for c in codes if c[0] == "A") == 3


def test_several_decks_repeat_every_card_and_jokers_come_per_deck() -> None:
    two = build_deck(decks=2)
    assert len(two) == 104 and set(Counter(two).values()) == {2}
    three = build_deck(decks=3, jokers=True)
    assert len(three) == 162
    assert Counter(three)[SMALL_JOKER] == Counter(three)[BIG_JOKER] == 3


def test_removed_cards_come_out_once_from_the_whole_pack() -> None:
    two = build_deck(decks=2, removed=["2H"])
    assert len(two) == 103 and Counter(two)[parse_card("2H")] == 1
    twice = build_deck(decks=2, removed=["2H", "2H"])
    assert parse_card("2H") not in twice


def test_removing_a_card_the_pack_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="not in the pack"):
        build_deck(removed=["RJ"])
    with pytest.raises(ValueError, match="not in the pack"):
        build_deck(removed=["AD", "AD"])
    with pytest.raises(NotationError):
        build_deck(removed=["ZZ"])
