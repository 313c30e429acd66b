"""The cards and plays 大北 and 条数 share (seed 002), told through ``paiju.api``.

``classify`` names what a set of cards is (None: no play); ``compare(a, b)`` says whether ``a`` may
be played on ``b`` (1), ``b`` on ``a`` (-1) or neither (0). Both games use one card order and one set
of combinations, so every story runs for both. Where the seed text gives an example, the test
quotes it.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from paiju import api
from paiju.cards import RANKS, Hand, build_deck, format_cards, parse_cards
from paiju.climbing import Combo
from paiju.games.beihai import generate

GAMES = ("dabei", "tiaoshu")


def config(game: str, **options: Any) -> api.Config:
    return api.make_config(game, "beihai", 4, options)


def kind(game: str, text: str, **options: Any) -> str | None:
    combo = api.classify(config(game, **options), parse_cards(text))
    return None if combo is None else combo.kind


def compare(game: str, a: str, b: str, **options: Any) -> int:
    return api.compare(config(game, **options), parse_cards(a), parse_cards(b))


def ascending(game: str, plays: list[str], **options: Any) -> None:
    """Each play beats every play before it, and none of those beats it."""
    for i, low in enumerate(plays):
        for high in plays[i + 1 :]:
            assert compare(game, high, low, **options) == 1, f"{high} should beat {low}"


# --- 1. 从大到小的顺序: single cards ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_spade_three_is_the_highest_card_and_the_diamond_four_the_lowest(game: str) -> None:
    # "也就是黑桃3最大，方块4最小"
    for card in build_deck():
        code = format_cards((card,))
        assert kind(game, code) == "single"
        if code != "3S":
            assert compare(game, "3S", code) == 1
            assert compare(game, code, "3S") == -1
        if code != "4D":
            assert compare(game, code, "4D") == 1


@pytest.mark.parametrize("game", GAMES)
def test_ranks_run_four_to_three_and_suits_spade_heart_club_diamond(game: str) -> None:
    # "数字由小排到大是4、5、6、7、8、9、10、J、Q、K、A、2、3" and "黑桃>红心>梅花>方块"
    ascending(game, [f"{rank}H" for rank in "456789TJQKA23"])
    ascending(game, ["7D", "7C", "7H", "7S"])


@pytest.mark.parametrize("game", GAMES)
def test_by_default_rank_comes_first_and_suit_only_breaks_ties(game: str) -> None:
    assert compare(game, "3H", "2S") == 1  # a heart 3 beats the spade 2
    assert compare(game, "2D", "AS") == 1
    assert compare(game, "5D", "4S") == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_suit_first_reading_puts_every_spade_above_every_heart(game: str) -> None:
    # the per-suit listing read literally: "黑桃♠ 3/2/A/…/4；红心♥ 3/2/A/…/4；…"
    assert compare(game, "2S", "3H", single_order="suit_first") == 1
    assert compare(game, "4S", "3H", single_order="suit_first") == 1
    assert compare(game, "4H", "3C", single_order="suit_first") == 1
    assert compare(game, "3S", "2S", single_order="suit_first") == 1
    ascending(game, ["4D", "3D", "4C", "3C", "4H", "3H", "4S", "3S"], single_order="suit_first")


# --- pairs and triples -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_pairs_and_triples_compare_by_rank(game: str) -> None:
    assert kind(game, "KS KH") == "pair"
    assert kind(game, "KS QS") is None
    assert kind(game, "9S 9H 9D") == "triple"
    assert kind(game, "9S 9H 8D") is None
    assert compare(game, "3C 3D", "2S 2H") == 1
    assert compare(game, "5C 5D", "4S 4H") == 1
    assert compare(game, "3C 3D 3H", "2S 2H 2C") == 1
    assert compare(game, "4C 4D 4H", "5S 5H 5C") == -1


@pytest.mark.parametrize("game", GAMES)
def test_pairs_of_one_rank_compare_by_the_higher_suit_by_default(game: str) -> None:
    assert compare(game, "5S 5D", "5H 5C") == 1
    assert compare(game, "5H 5D", "5C 5S") == -1
    assert compare(game, "5H 5C", "5C 5D") == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_no_suit_reading_makes_pairs_of_one_rank_equal(game: str) -> None:
    assert compare(game, "5S 5D", "5H 5C", pair_suit_tiebreak=False) == 0
    assert compare(game, "6D 6C", "5S 5H", pair_suit_tiebreak=False) == 1


@pytest.mark.parametrize("game", GAMES)
def test_only_one_two_three_or_five_cards_make_a_play(game: str) -> None:
    # "可出单张，双张，三张或五张"
    assert kind(game, "9S 9H 9C 9D") is None
    assert kind(game, "3S 4S 5S 6S") is None
    assert kind(game, "3S 4H 6C 8D TS JS") is None
    assert kind(game, "3S 3H 5C 5D 7S") is None  # two pairs and a card
    assert kind(game, "3S 5H 7C 9D JS") is None


@pytest.mark.parametrize("game", GAMES)
def test_a_table_may_allow_a_bare_four_of_a_kind(game: str) -> None:
    assert kind(game, "9S 9H 9C 9D", bare_four=True) == "quad"
    assert compare(game, "TS TH TC TD", "9S 9H 9C 9D", bare_four=True) == 1
    assert compare(game, "TS TH TC TD", "9S 9H 9C", bare_four=True) == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_lobby_names_the_bare_four_a_house_rule_outside_the_text(game: str) -> None:
    (entry,) = [g for g in api.list_games() if g["id"] == game]
    (option,) = [o for o in entry["variants"][0]["options"] if o["name"] == "bare_four"]
    assert option["default"] is False
    assert option["zh"].startswith("（非原文房规）")
    assert option["en"].startswith("House rule (not in the text)")


@pytest.mark.parametrize("game", GAMES)
def test_a_follower_plays_as_many_cards(game: str) -> None:
    # "如上家出一张牌，则下家也需出一张牌；如上家出3张牌，则下家也需出3张牌"
    assert compare(game, "3S 3H", "4D") == 0
    assert compare(game, "3S", "4D 4C") == 0
    assert compare(game, "3S 3H 3C", "4D 4C") == 0
    assert compare(game, "2S 2H 2C 2D 3S", "4D 4C 4H") == 0


# --- 2e 顺子 straights ----------------------------------------------------------------------------------

NINE = ["23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]


def run(ranks: str, suits: str) -> str:
    return " ".join(r + s for r, s in zip(ranks, suits, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_the_nine_straights_rank_by_their_place_in_the_list(game: str) -> None:
    # "2+3+4+5+6（最小顺子…），3+4+5+6+7，…，10+j+q+k+A（最大顺子）": the weakest suit on the
    # top card of the higher straight, the strongest on the lower one — the place still wins.
    for ranks in NINE:
        assert kind(game, run(ranks, "SHCDS")) == "straight"
    ascending(game, [run(ranks, "SSSHD") for ranks in NINE])
    for low, high in itertools.pairwise(NINE):
        assert compare(game, run(high, "SSSSD"), run(low, "DDDHS")) == 1


@pytest.mark.parametrize("game", GAMES)
def test_23456_is_the_smallest_straight_though_it_holds_the_2_and_the_3(game: str) -> None:
    # "2+3+4+5+6（最小顺子，以最后一张牌比顺子大小）": its top card is the 6
    assert compare(game, "3S 4D 5D 6D 7D", "2S 3S 4S 5H 6S") == 1
    assert compare(game, "TD JD QC KC AD", "2S 3S 4S 5H 6S") == 1
    assert compare(game, "2D 3D 4S 5D 6S", "2S 3S 4C 5D 6H") == 1  # ♠6 on top beats ♥6


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("ranks", ["JQKA2", "QKA23", "KA234", "A2345"])
def test_no_straight_runs_past_the_ace(game: str, ranks: str) -> None:
    # "有且只有以下类型顺子": nothing wraps around from A
    assert kind(game, run(ranks, "SHCDS")) is None
    assert kind(game, run(ranks, "HHHHH")) == "flush"


@pytest.mark.parametrize("game", GAMES)
def test_equal_straights_compare_by_the_suit_of_the_top_card(game: str) -> None:
    assert compare(game, "3D 4D 5D 6D 7S", "3S 4S 5S 6H 7H") == 1
    assert compare(game, "TD JD QD KD AC", "TS JS QS KS AH") == -1
    # only the top card counts: with one top card (two tables' worth of cards) neither beats
    assert compare(game, "TD JD QD KS AC", "TS JS QS KH AC") == 0


# --- 2a 同花顺, 2d 同花 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_straight_flushes_compare_like_straights(game: str) -> None:
    # "红心（♥）10/j/q/k/A，方块（♦）10/j/q/k/A": same top rank, the heart wins
    assert kind(game, "TH JH QH KH AH") == "straight_flush"
    assert compare(game, "TH JH QH KH AH", "TD JD QD KD AD") == 1
    assert compare(game, "3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S") == 1
    assert compare(game, "2S 3S 4S 5S 6S", "9D TD JD QD KD") == -1


@pytest.mark.parametrize("game", GAMES)
def test_flushes_compare_by_their_highest_card_then_its_suit(game: str) -> None:
    # "例如2+4+5+10+j，红心5+6+9+10+j": the flush with the 2 beats the one topped by the J
    assert kind(game, "2C 4C 5C TC JC") == "flush"
    assert kind(game, "5H 6H 9H TH JH") == "flush"
    assert compare(game, "2C 4C 5C TC JC", "5H 6H 9H TH JH") == 1
    assert compare(game, "3D 4D 5D 7D 9D", "2S 4S 5S TS JS") == 1  # the 3 is the highest rank
    assert compare(game, "4S 6S 8S 9S JS", "5H 6H 9H TH JH") == 1  # both J-high: ♠ over ♥
    assert compare(game, "4C 6C 8C 9C JC", "5H 6H 9H TH JH") == -1


# --- 2b 铁枝, 2c 葫芦 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_four_of_a_kind_with_one_compares_by_the_four(game: str) -> None:
    # "直接比较该4张牌的单张牌的牌面大小，例如4444+5，6666+10"
    assert kind(game, "4S 4H 4C 4D 5S") == "four_kind"
    assert compare(game, "6S 6H 6C 6D TS", "4S 4H 4C 4D 5S") == 1
    assert compare(game, "5S 5H 5C 5D 6S", "4S 4H 4C 4D 3S") == 1  # the kicker never counts
    assert compare(game, "3S 3H 3C 3D 4S", "2S 2H 2C 2D AS") == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_full_house_compares_by_the_three(game: str) -> None:
    # "直接比较三张的大小。例如444+55，888+66"
    assert kind(game, "4S 4H 4C 5S 5D") == "full_house"
    assert compare(game, "8S 8H 8C 6S 6D", "4S 4H 4C 5S 5D") == 1
    assert compare(game, "5S 5H 5C 4S 4D", "4H 4C 4D 3S 3D") == 1  # the pair never counts
    assert compare(game, "3S 3H 3C 4S 4D", "2S 2H 2C AS AD") == 1


@pytest.mark.parametrize("game", GAMES)
def test_the_five_card_kinds_rank_straight_flush_four_full_house_flush_straight(game: str) -> None:
    # "同花顺>四条>三条>同花>顺子": the weakest of each kind beats the strongest of the one below
    weakest_to_strongest = [
        ("2D 3D 4S 5D 6D", "TS JS QS KS AH"),  # 顺子
        ("4D 5D 6D 7D 9D", "2S 3S 5S 6S 7S"),  # 同花 (2 3 5 6 7 is no straight)
        ("4S 4H 4C 5S 5D", "3S 3H 3C 2S 2D"),  # 葫芦
        ("4S 4H 4C 4D 5S", "3S 3H 3C 3D 2S"),  # 铁枝
        ("2D 3D 4D 5D 6D", "TS JS QS KS AS"),  # 同花顺
    ]
    names = ["straight", "flush", "full_house", "four_kind", "straight_flush"]
    for (weak, strong), name in zip(weakest_to_strongest, names, strict=True):
        assert kind(game, weak) == kind(game, strong) == name
    for (_, strong), (weak, _) in itertools.pairwise(weakest_to_strongest):
        assert compare(game, weak, strong) == 1, f"{weak} should beat {strong}"


# --- play generation: exactly the plays the rules allow ---------------------------------------------------


def brute_force(cfg: api.Config, hand: Hand, lead: Combo | None) -> dict[Hand, Combo]:
    """Every subset of ``hand`` that is a play and beats ``lead``, by classifying each subset."""
    from paiju.registry import get_game

    game: Any = get_game(cfg.game)
    found: dict[Hand, Combo] = {}
    for size in (1, 2, 3, 4, 5):
        for cards in itertools.combinations(hand, size):
            combos = game.combinations(cfg, cards)
            if combos and (lead is None or game.beats(combos[0], lead)):
                found[cards] = combos[0]
    return found


LEADS = [
    "9H",
    "9H 9C",
    "5S 5D",
    "JS JH JD",
    "6D 7S 8H 9C TD",
    "3H 5H 8H TH QH",
    "7S 7H 7C 2D 2S",
    "QS QH QC QD 4H",
    "5C 6C 7C 8C 9C",
]


@pytest.mark.parametrize(
    "options",
    [{}, {"single_order": "suit_first", "pair_suit_tiebreak": False, "bare_four": True}],
)
def test_generated_plays_are_exactly_the_subsets_that_classify_and_beat(
    options: dict[str, Any],
) -> None:
    rng = random.Random(2)
    cfg = config("tiaoshu", **options)
    deck = list(build_deck())
    hands: list[Hand] = [tuple(sorted(rng.sample(deck, 13))) for _ in range(12)]
    # hands rich in the rarer kinds: a whole suit, and four of a kind twice
    hands.append(parse_cards([f"{r}H" for r in RANKS]))
    hands.append(parse_cards("4S 4H 4C 4D 9S 9H 9C 9D 5S 6H 7C 8D TS"))
    leads: list[Combo | None] = [None]
    leads += [api.classify(cfg, parse_cards(text)) for text in LEADS]
    if options.get("bare_four"):
        leads.append(api.classify(cfg, parse_cards("8S 8H 8C 8D")))
    for hand in hands:
        for lead in leads:
            plays = generate(cfg.options, hand, lead)
            as_dict = dict(plays)
            assert len(as_dict) == len(plays), "a play is generated twice"
            assert as_dict == brute_force(cfg, hand, lead), (format_cards(hand), lead)
