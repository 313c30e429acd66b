"""关牌 combinations and how they compare, variant by variant, told through ``paiju.api``.

``classify`` names what a set of cards is (None: nothing playable); ``compare(a, b)`` says whether
``a`` may be played on ``b`` (1), ``b`` on ``a`` (-1) or neither (0). Every example uses cards that
exist in the variant's 48-card pack: 波克城市 removes ♥2 ♦2 ♣2 ♦A, the mainstream and Suzhou rules
remove ♥2 ♣2 ♦2 ♠A. Where the seed text gives an example, the test quotes it.
"""

from __future__ import annotations

from typing import Any

import pytest

from paiju import api
from paiju.cards import build_deck, parse_cards
from paiju.errors import RuleError

VARIANTS = ("boke", "mainstream", "suzhou")
OTHERS = ("mainstream", "suzhou")  # the two rule sets that remove ♠A instead of ♦A
AAA = {"boke": "AS AH AC", "mainstream": "AH AC AD", "suzhou": "AH AC AD"}


def config(variant: str, **options: Any) -> api.Config:
    return api.make_config("guanpai", variant, None, options)


def cards_of(variant: str, text: str, **options: Any) -> tuple[api.Config, tuple[int, ...]]:
    cfg = config(variant, **options)
    cards = parse_cards(text)
    pack = set(build_deck(removed=cfg.options.removed))
    assert set(cards) <= pack, f"{text} is not in the {variant} pack"
    assert len(set(cards)) == len(cards)
    return cfg, cards


def kind(variant: str, text: str, last_hand: bool = False, **options: Any) -> str | None:
    """What the cards are (None: not a combination)."""
    cfg, cards = cards_of(variant, text, **options)
    combo = api.classify(cfg, cards, last_hand)
    if combo is not None:
        assert combo.size in (len(cards), 5)  # a last-hand 三条/三带一 stands as a 5-card 三带二
    return None if combo is None else combo.kind


def compare(variant: str, a: str, b: str, **options: Any) -> int:
    cfg, first = cards_of(variant, a, **options)
    _, second = cards_of(variant, b, **options)
    return api.compare(cfg, first, second)


# --- 单牌 singles ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_any_card_is_a_single_and_the_2_is_the_highest(variant: str) -> None:
    # 牌面点数大小比较2>A>K>Q>J>10>9>8>7>6>5>4>3
    assert kind(variant, "3D") == "single"
    assert compare(variant, "2S", "AH") == 1
    assert compare(variant, "AH", "KS") == 1
    assert compare(variant, "4S", "3D") == 1
    assert compare(variant, "3D", "4S") == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_suits_never_decide_so_equal_singles_do_not_beat_each_other(variant: str) -> None:
    assert compare(variant, "7S", "7D") == 0
    assert compare(variant, "7D", "7S") == 0


# --- 对子 pairs and 三条 triples ----------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_cards_of_a_rank_are_a_pair_two_different_ones_are_nothing(variant: str) -> None:
    assert kind(variant, "KS KH") == "pair"
    assert kind(variant, "3S 4S") is None
    assert compare(variant, "KS KH", "QS QD") == 1
    assert compare(variant, "QS QD", "KS KH") == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pair_answers_only_a_pair(variant: str) -> None:
    # 除非使用炸弹，不然跟牌的玩家只能出对子
    assert compare(variant, "9S 9H", "3D") == 0
    assert compare(variant, "9S 9H 9C", "3S 3H") == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_three_of_a_rank_are_a_triple(variant: str) -> None:
    assert kind(variant, "3S 3H 3C") == "triple"
    assert kind(variant, "3S 3H 4C") is None
    assert compare(variant, "KS KH KC", "QS QH QD") == 1
    assert compare(variant, "3S 3H 3C", "4S 4H 4C") == -1


def test_boke_three_aces_are_a_bomb_not_a_triple() -> None:
    # 炸弹： 三张A或四张相同点数的牌
    assert kind("boke", "AS AH AC") == "bomb"


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_bare_three_aces_are_the_highest_triple(variant: str) -> None:
    # 主流: A炸为三个A带1; 苏州: 三张A带1张也为炸 — without the card AAA is a triple
    assert kind(variant, "AH AC AD") == "triple"
    assert compare(variant, "AH AC AD", "KS KH KC") == 1


# --- 三带一 ---------------------------------------------------------------------------------------


def test_boke_trio_with_one_is_refused_unless_it_is_the_last_hand() -> None:
    # 三带一的牌型只有在玩家最后一手牌时才可以出
    cfg, cards = cards_of("boke", "3S 3H 3C 4D")
    with pytest.raises(RuleError) as info:
        api.classify(cfg, cards)
    assert info.value.code == "trio_single_not_last"
    assert info.value.cards == ["3S", "3H", "3C", "4D"]
    assert kind("boke", "3S 3H 3C 4D", last_hand=True) == "trio_single"


def test_boke_aces_with_one_card_are_a_last_hand_trio_not_a_bomb() -> None:
    assert kind("boke", "AS AH AC 5D", last_hand=True) == "trio_single"
    cfg, cards = cards_of("boke", "AS AH AC 5D")
    with pytest.raises(RuleError, match="trio_single_not_last"):
        api.classify(cfg, cards)


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_there_is_no_trio_with_one_even_as_a_last_hand(variant: str) -> None:
    assert kind(variant, "3S 3H 3C 4D") is None
    assert kind(variant, "3S 3H 3C 4D", last_hand=True) is None


# --- 三带二 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cards", ["3S 3H 3C 4D 7S", "3S 3H 3C 4S 4H"], ids=["333+47", "333+44"])
def test_trio_with_two_takes_any_two_cards_or_a_pair(variant: str, cards: str) -> None:
    # 三带二： 点数相同的三条＋两张单牌或一个对子牌型。例如：333+47或333+44
    assert kind(variant, cards) == "trio_pair"


@pytest.mark.parametrize("variant", VARIANTS)
def test_trio_with_two_compares_the_triples_only(variant: str) -> None:
    # 大小比较以三张相同牌面点数来决定大小，所带的牌不比较大小
    assert compare(variant, "5S 5H 5C 3S 3H", "4S 4H 4C KS KH") == 1
    assert compare(variant, "4S 4H 4C 3S 3H", "5S 5H 5C 6D 7D") == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_trio_with_two_is_not_a_triple(variant: str) -> None:
    assert compare(variant, "KS KH KC 3S 4S", "5S 5H 5C") == 0
    assert compare(variant, "KS KH KC", "5S 5H 5C 3S 4S") == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_pair_kicker_option_refuses_two_odd_cards(variant: str) -> None:
    assert kind(variant, "3S 3H 3C 4D 7S", trio_pair_kickers="pair") is None
    assert kind(variant, "3S 3H 3C 4S 4H", trio_pair_kickers="pair") == "trio_pair"


def test_four_of_a_rank_and_one_card_is_not_a_trio_with_two() -> None:
    assert kind("boke", "3S 3H 3C 3D 4S") is None
    assert kind("suzhou", "3S 3H 3C 3D 4S") is None
    assert kind("mainstream", "3S 3H 3C 3D 4S") == "bomb"  # 4带1


# --- 顺子 straights ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_seed_straight_three_to_eight(variant: str) -> None:
    # 任何3以上（包含3）5张以上连起的单牌，如3、4、5、6、7、8
    assert kind(variant, "3S 4H 5C 6D 7S 8H") == "straight"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_straight_needs_five_cards(variant: str) -> None:
    assert kind(variant, "3S 4H 5C 6D 7S") == "straight"
    assert kind(variant, "3S 4H 5C 6D") is None


def test_mainstream_short_straight_option() -> None:
    # 主流 only says 数量无限制; straight_min=3 is the table option for three-card straights
    assert kind("mainstream", "3S 4H 5C") is None
    assert kind("mainstream", "3S 4H 5C", straight_min=3) == "straight"


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_straight_may_run_up_to_the_ace(variant: str) -> None:
    # 主流: 可以连接A，10JQKA; 苏州: 从1（A）-A
    assert kind(variant, "TS JS QS KS AH") == "straight"
    assert compare(variant, "TS JS QS KS AH", "9S TH JH QH KH") == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_straight_runs_past_the_ace_or_wraps_around(variant: str) -> None:
    # 2不可以作为顺子当中的牌
    assert kind(variant, "JS QS KS AH 2S") is None
    assert kind(variant, "QS KS AH 2S 3S") is None
    assert kind(variant, "KS AH 2S 3S 4S") is None


@pytest.mark.parametrize("variant", ["boke", "mainstream"])
def test_the_ace_is_never_low_outside_suzhou(variant: str) -> None:
    assert kind(variant, "AH 2S 3S 4S 5S") is None
    assert kind(variant, "2S 3S 4S 5S 6S") is None


def test_suzhou_ace_low_straight_is_the_lowest() -> None:
    # 苏州: 从1（A）-A，5张起
    assert kind("suzhou", "AH 2S 3S 4S 5S") == "straight"
    assert kind("suzhou", "2S 3S 4S 5S 6S") == "straight"
    assert compare("suzhou", "2S 3H 4H 5H 6H", "AH 2S 3S 4S 5S") == 1
    assert compare("suzhou", "3S 4S 5S 6S 7S", "2S 3H 4H 5H 6H") == 1
    assert compare("suzhou", "TS JS QS KS AD", "AH 2S 3S 4S 5S") == 1


def test_ace_low_straights_are_a_table_option() -> None:
    assert kind("suzhou", "AH 2S 3S 4S 5S", straight_low_ace=False) is None
    assert kind("mainstream", "AH 2S 3S 4S 5S", straight_low_ace=True) == "straight"


@pytest.mark.parametrize("variant", VARIANTS)
def test_straights_compare_by_their_top_card_and_must_match_in_length(variant: str) -> None:
    # 跟牌的玩家所出的顺子必须和出牌玩家所出顺子的牌数量一样; 以顺子最后一张牌的牌面大小来比较
    assert compare(variant, "4S 5S 6S 7S 8S", "3H 4H 5H 6H 7H") == 1
    assert compare(variant, "4S 5S 6S 7S 8S 9S", "3H 4H 5H 6H 7H") == 0
    assert compare(variant, "3H 4H 5H 6H 7H", "4S 5S 6S 7S 8S 9S") == 0
    assert compare(variant, "3H 4H 5H 6H 7H", "3S 4S 5S 6S 7S") == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_straight_is_single_cards_only(variant: str) -> None:
    assert kind(variant, "3S 4S 5S 6S 6H 7S") is None
    assert kind(variant, "3S 4S 5S 7S 8S") is None


# --- 双顺 / 姐妹对 / 连对: runs of pairs -----------------------------------------------------------


@pytest.mark.parametrize("variant", ["boke", "mainstream"])
def test_two_consecutive_pairs_are_a_run(variant: str) -> None:
    # 双顺： 任何连续的2个以上的对子; 主流 姐妹对（两张三张都可以连接，且连接数量无限）
    assert kind(variant, "3S 3H 4S 4H") == "pair_run"


def test_suzhou_runs_of_pairs_start_at_three() -> None:
    # 苏州: 连对3个起
    assert kind("suzhou", "3S 3H 4S 4H") is None
    assert kind("suzhou", "3S 3H 4S 4H 5S 5H") == "pair_run"


@pytest.mark.parametrize("variant", VARIANTS)
def test_runs_of_pairs_compare_by_top_and_length(variant: str) -> None:
    assert kind(variant, "QS QH KS KH AH AC") == "pair_run"
    assert kind(variant, "3S 3H 5S 5H 6S 6H") is None
    assert compare(variant, "4S 4H 5S 5H 6S 6H", "3S 3H 4C 4D 5C 5D") == 1
    assert compare(variant, "4S 4H 5S 5H 6S 6H 7S 7H", "3S 3H 4C 4D 5C 5D") == 0


def test_boke_the_seeds_33_44_is_a_run_of_pairs() -> None:
    # The 四带二 example "如33+44" read literally is two consecutive pairs: a 双顺.
    assert kind("boke", "3S 3H 4S 4H") == "pair_run"


# --- 飞机 / 姐妹对 of triples ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["boke", "mainstream"])
def test_consecutive_triples_are_a_plane(variant: str) -> None:
    # 飞机： 二个或更多的连续三条; 主流 姐妹对 of 三张
    assert kind(variant, "3S 3H 3C 4S 4H 4C") == "triple_run"
    assert kind(variant, "3S 3H 3C 5S 5H 5C") is None
    assert compare(variant, "5S 5H 5C 6S 6H 6C", "3S 3H 3C 4S 4H 4C") == 1
    assert compare(variant, "3S 3H 3C 4S 4H 4C 5S 5H 5C", "6S 6H 6C 7S 7H 7C") == 0


def test_suzhou_has_no_planes() -> None:
    # the Suzhou list names 对子，连对，3条，3带2 and bombs only
    assert kind("suzhou", "3S 3H 3C 4S 4H 4C") is None


# --- 飞机带翅膀 (波克城市) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        "3S 3H 3C 4S 4H 4C 5S 5H 6S 6H",
        "3S 3H 3C 4S 4H 4C 5S 7H 8S 9H",
        "7S 7H 7C 8S 8H 8C 9S 9H 3S 4S",
        "3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 7S 7H 8S 8H",
    ],
    ids=["two-with-pairs", "two-with-singles", "seed-7899", "three-triples"],
)
def test_boke_planes_with_wings_have_two_or_three_triples(cards: str) -> None:
    # 飞机带翅膀： 两个或者三个连续的三带二 (the seed's example "8或7899" is garbled)
    assert kind("boke", cards) == "plane_wings"


def test_boke_a_plane_of_four_triples_may_not_take_wings() -> None:
    assert kind("boke", "3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C 7S 7H 8S 8H 9S 9H TS TH") is None


def test_boke_planes_with_wings_compare_by_their_top_triple_and_length() -> None:
    low = "3S 3H 3C 4S 4H 4C KD KC QD JD"
    high = "5S 5H 5C 6S 6H 6C 3D 7H 8S KH"
    assert compare("boke", high, low) == 1
    assert compare("boke", low, high) == -1
    three = "7S 7C 7D 8C 8D 8H 9S 9H 9C QS QH TC TD JS JH"
    assert kind("boke", three) == "plane_wings"
    assert compare("boke", three, low) == 0
    assert compare("boke", high, "3S 3H 3C 4S 4H 4C") == 0  # a bare plane is another kind


def test_boke_pair_kicker_option_makes_wings_pairs() -> None:
    assert kind("boke", "3S 3H 3C 4S 4H 4C 5S 5H 6S 6H", trio_pair_kickers="pair") == "plane_wings"
    assert kind("boke", "3S 3H 3C 4S 4H 4C 5S 7H 8S 9H", trio_pair_kickers="pair") is None
    # one pair per wing, of different ranks: four 5s are not two wings
    assert kind("boke", "3S 3H 3C 4S 4H 4C 5S 5H 5C 5D", trio_pair_kickers="pair") is None
    assert kind("boke", "3S 3H 3C 4S 4H 4C 5S 5H 5C 5D") == "plane_wings"


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_planes_take_no_wings(variant: str) -> None:
    assert kind(variant, "3S 3H 3C 4S 4H 4C 5S 5H 6S 6H") is None


# --- 四带二 (波克城市) ---------------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["3S 3H 3C 3D 4S 4H", "3S 3H 3C 3D 4S 7H"], ids=["+44", "+47"])
def test_boke_four_with_two_is_not_a_bomb(cards: str) -> None:
    # 四带二： 点数相同的四张牌＋两张单牌或一个对子。如33+44 ... 四带二不算炸弹
    assert kind("boke", cards) == "four_two"
    assert compare("boke", "AS AH AC", cards) == 1
    assert compare("boke", "2S", cards) == 0


def test_boke_four_with_two_compares_by_the_four() -> None:
    # 以四张相同牌面点数来决定大小，所带的牌不比较大小
    assert compare("boke", "5S 5H 5C 5D 3S 3H", "4S 4H 4C 4D KS AH") == 1
    assert compare("boke", "4S 4H 4C 4D KS AH", "5S 5H 5C 5D 3S 3H") == -1


def test_boke_four_with_two_kickers_ignore_the_trio_pair_option() -> None:
    assert kind("boke", "3S 3H 3C 3D 4S 7H", trio_pair_kickers="pair") == "four_two"


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_there_is_no_four_with_two(variant: str) -> None:
    assert kind(variant, "3S 3H 3C 3D 4S 4H") is None
    assert kind(variant, "3S 3H 3C 3D 4S 7H") is None


# --- 炸弹 bombs ---------------------------------------------------------------------------------


def test_boke_bombs_are_four_of_a_rank_or_bare_aaa() -> None:
    assert kind("boke", "3S 3H 3C 3D") == "bomb"
    assert kind("boke", "AS AH AC") == "bomb"
    assert kind("boke", "3S 3H 3C 3D 4S") is None


def test_mainstream_bombs_carry_one_card() -> None:
    # 炸弹（4带1，A炸为三个A带1）
    assert kind("mainstream", "3S 3H 3C 3D 4S") == "bomb"
    assert kind("mainstream", "AH AC AD 3S") == "bomb"
    assert kind("mainstream", "3S 3H 3C 3D") is None
    assert kind("mainstream", "AH AC AD") == "triple"


def test_mainstream_quad_bomb_option() -> None:
    assert kind("mainstream", "3S 3H 3C 3D", quad_bomb="bare") == "bomb"
    assert kind("mainstream", "3S 3H 3C 3D 4S", quad_bomb="bare") is None
    assert kind("mainstream", "3S 3H 3C 3D", quad_bomb="either") == "bomb"
    assert kind("mainstream", "3S 3H 3C 3D 4S", quad_bomb="either") == "bomb"


def test_suzhou_bombs_are_bare_quads_and_aaa_with_one() -> None:
    # 4个为炸可吃任何牌，三张A带1张也为炸，并且最大
    assert kind("suzhou", "3S 3H 3C 3D") == "bomb"
    assert kind("suzhou", "3S 3H 3C 3D 4S") is None
    assert kind("suzhou", "AH AC AD 3S") == "bomb"
    assert kind("suzhou", "AH AC AD") == "triple"


BOMBS = {
    "boke": {
        "AAA": "AS AH AC",
        "KKKK": "KS KH KC KD",
        "QQQQ": "QS QH QC QD",
        "3333": "3S 3H 3C 3D",
    },
    "mainstream": {
        "AAA": "AH AC AD 4S",
        "KKKK": "KS KH KC KD 4H",
        "QQQQ": "QS QH QC QD 4C",
        "3333": "3S 3H 3C 3D 4D",
    },
    "suzhou": {
        "AAA": "AH AC AD 4S",
        "KKKK": "KS KH KC KD",
        "QQQQ": "QS QH QC QD",
        "3333": "3S 3H 3C 3D",
    },
}

NON_BOMBS = [
    "2S",
    "5S 5H",
    "KS KH KC 6S 7S",
    "TS JS QS KS 9D",
    "5S 5H 6S 6H 7S 7H",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("other", NON_BOMBS)
def test_the_lowest_bomb_beats_every_plain_combination(variant: str, other: str) -> None:
    # 炸弹任何牌形都能出
    bomb = BOMBS[variant]["3333"]
    assert compare(variant, bomb, other) == 1
    assert compare(variant, other, bomb) == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_bombs_rank_by_their_cards_with_aaa_on_top(variant: str) -> None:
    # 主流 d、炸弹的大小为：A、K，Q，J，10，9，8，7，6，5，4，3; 苏州 三张A带1 ... 并且最大
    b = BOMBS[variant]
    assert compare(variant, b["AAA"], b["KKKK"]) == 1
    assert compare(variant, b["KKKK"], b["QQQQ"]) == 1
    assert compare(variant, b["QQQQ"], b["3333"]) == 1
    assert compare(variant, b["3333"], b["AAA"]) == -1


@pytest.mark.parametrize("variant", VARIANTS)
def test_quads_top_option_puts_aaa_below_every_four(variant: str) -> None:
    b = BOMBS[variant]
    assert compare(variant, b["3333"], b["AAA"], bomb_order="quads_top") == 1
    assert compare(variant, b["KKKK"], b["QQQQ"], bomb_order="quads_top") == 1


def test_boke_a_plane_with_wings_and_a_four_with_two_fall_to_any_bomb() -> None:
    assert compare("boke", "3S 3H 3C 3D", "5S 5H 5C 6S 6H 6C 7S 7H 8S 8H") == 1
    assert compare("boke", "3S 3H 3C 3D", "5S 5H 5C 5D 6S 6H") == 1


# --- kinds never cross ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2S", "3S 3H"),
        ("KS KH", "3S 3H 3C"),
        ("KS KH KC", "3S 4S 5S 6S 7S"),
        ("4S 4H 5S 5H 6S 6H", "3S 4H 5C 6D 7S 8H"),
    ],
)
def test_a_combination_only_answers_its_own_kind(variant: str, a: str, b: str) -> None:
    # 除了炸弹以外，普通牌形不允许对压，相同牌形只有比它大的才能出
    assert compare(variant, a, b) == 0
    assert compare(variant, b, a) == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cards", ["", "3S 3H 4S", "3S 3H 4S 4H 4C 5D", "2S AH AC KS KH KC"])
def test_junk_is_no_combination(variant: str, cards: str) -> None:
    assert kind(variant, cards) is None


def test_compare_refuses_junk() -> None:
    cfg = config("boke")
    with pytest.raises(ValueError):
        api.compare(cfg, "3S 4S", "5S")
