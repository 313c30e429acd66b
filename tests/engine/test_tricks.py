"""The rules of a trick (``paiju.trick_rules``) on their own: the card order with trumps and a
level rank, lead shapes and the follow rules as data (each substitute order of 死棒), the trick's
winner with trumps and side suits, and the points a trick captures. The order and rules used are
打棒's (hearts trump, level 3, the 2s always trump) unless a test says otherwise."""

from __future__ import annotations

import itertools
import random

import pytest

from paiju.cards import build_deck, format_cards, parse_cards
from paiju.trick_rules import (
    NO_KEY,
    TRUMP,
    FollowRules,
    TrumpOrder,
    can_make,
    follow_candidates,
    follow_error,
    lead_candidates,
    lead_of,
    play_key,
    points_of,
    trick_winner,
    units_of,
)

ORDER = TrumpOrder(suit=1, level=0, fixed=(12,))  # ♥ trump, level 3, 2s 常主
POINTS = {2: 5, 7: 10, 10: 10}
LEADS = {"single": (1,), "bang": (2,), "sanlian": (3,), "silian": (4,)}
PAIRS_FIRST = FollowRules(
    leads=LEADS,
    substitutes={
        "single": ((1,),),
        "bang": ((2,), (1, 1)),
        "sanlian": ((3,), (2, 1), (1, 1, 1)),
        "silian": ((4,), (2, 2), (3, 1), (1, 1, 1, 1)),
    },
    exact=frozenset({"bang"}),
)
TRIPLE_FIRST = FollowRules(
    leads=LEADS,
    substitutes={**PAIRS_FIRST.substitutes, "silian": ((4,), (3, 1), (2, 2), (1, 1, 1, 1))},
    exact=frozenset({"bang"}),
)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def stronger(a: str, b: str, order: TrumpOrder = ORDER) -> bool:
    return order.strength(cards(a)[0]) > order.strength(cards(b)[0])


# --- the card order ------------------------------------------------------------------------------


def test_the_order_from_the_big_joker_down_to_the_side_suits() -> None:
    """ "大王>小王>主花色混牌>其他花色混牌>主花色2>其他花色2>主花色牌（混牌除外）>副牌"."""
    chain = ["RJ", "BJ", "3H", "3S", "2H", "2C", "AH", "4H", "AS"]
    for high, low in itertools.pairwise(chain):
        assert stronger(high, low), (high, low)


def test_level_cards_and_twos_of_other_suits_are_equal_and_all_trumps() -> None:
    for a, b in [("3S", "3C"), ("3C", "3D"), ("2S", "2D")]:
        assert ORDER.strength(cards(a)[0]) == ORDER.strength(cards(b)[0])
    for code in ["RJ", "BJ", "3S", "3H", "2D", "2H", "5H", "KH"]:
        assert ORDER.suit_of(cards(code)[0]) == TRUMP, code
    for code in ["KS", "4D", "AC"]:
        assert ORDER.suit_of(cards(code)[0]) == cards(code)[0] & 3


def test_a_level_card_of_another_suit_beats_the_trump_suits_two_and_ace() -> None:
    assert stronger("3D", "2H") and stronger("3D", "AH") and not stronger("3D", "3H")


def test_the_level_rank_moves_the_level_cards_and_leaves_the_rest_of_the_suit_in_order() -> None:
    order = TrumpOrder(suit=3, level=6, fixed=(12,))  # ♦ trump, level 9
    assert stronger("9D", "9S", order) and stronger("9S", "2D", order)
    assert stronger("TD", "8D", order) and stronger("8D", "AS", order)
    assert order.is_trump(cards("9C")[0]) and not order.is_trump(cards("3C")[0])
    # within a side suit by rank, with the level rank lifted out
    assert stronger("AS", "KS", order) and stronger("TS", "8S", order)


def test_without_a_trump_suit_only_jokers_level_cards_and_fixed_ranks_are_trump() -> None:
    order = TrumpOrder(suit=None, level=0, fixed=(12,))
    assert order.is_trump(cards("3S")[0]) and order.is_trump(cards("2H")[0])
    assert not order.is_trump(cards("AH")[0])


# --- leads ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "kind"),
    [("5S", "single"), ("5S 5S", "bang"), ("BJ BJ BJ", "sanlian"), ("3C 3C 3C 3C", "silian")],
)
def test_a_lead_is_one_card_or_identical_cards(play: str, kind: str) -> None:
    assert lead_of(PAIRS_FIRST, ORDER, cards(play)) is not None
    assert lead_of(PAIRS_FIRST, ORDER, cards(play))[0] == kind  # type: ignore[index]


@pytest.mark.parametrize(
    "play", ["5S 6S 7S 8S 9S", "3S 3S 4S 4S", "5S 5S 5S 6S 6S 6S", "5S 5H", "5S 6S", "3S 3C"]
)
def test_straights_tractors_throws_and_mixed_cards_are_no_lead(play: str) -> None:
    """ "不能出顺子（34567）、拖拉机（3344）和泰坦尼克（555666），也不能甩牌"; two level cards of
    different suits are not a 棒 ("两张牌点和花色相同的牌")."""
    assert lead_of(PAIRS_FIRST, ORDER, cards(play)) is None


def test_lead_candidates_offer_each_card_and_each_set_once() -> None:
    hand = cards("5S 5S 5S 9D RJ")
    leads = {format_cards(p) for p in lead_candidates(PAIRS_FIRST, ORDER, hand)}
    assert leads == {"5S", "9D", "RJ", "5S 5S", "5S 5S 5S"}


# --- following -----------------------------------------------------------------------------------


def check(lead: str, hand: str, play: str, rules: FollowRules = PAIRS_FIRST) -> str | None:
    found = lead_of(rules, ORDER, cards(lead))
    assert found is not None
    return follow_error(rules, ORDER, found[0], found[1], cards(hand), cards(play))


def test_a_single_follows_suit_and_a_void_player_trumps_or_discards() -> None:
    """ "有此花色必须出…如果没有此花色可以用主牌杀掉或垫其他花色的牌"."""
    assert check("9S", "4S KD 5H", "4S") is None
    assert check("9S", "4S KD 5H", "KD") == "must_follow_suit"
    assert check("9S", "KD 5H", "5H") is None and check("9S", "KD 5H", "KD") is None
    assert check("9S", "KD 5H", "KD 5H") == "wrong_number_of_cards"


def test_trumps_are_one_suit_a_level_card_of_a_side_suit_follows_a_trump_lead() -> None:
    assert check("5H", "3S 9S", "3S") is None  # the ♠3 is a trump
    assert check("5H", "3S 9S", "9S") == "must_follow_suit"
    assert check("9S", "3S 9C", "3S") is None  # no ♠ left but the trump ♠3: void in ♠


def test_a_bang_must_be_answered_with_a_bang_when_one_is_held() -> None:
    """ "打棒必须出棒，没有时可以给两个单张"."""
    assert check("9S 9S", "4S 4S 7S", "4S 4S") is None
    assert check("9S 9S", "4S 4S 7S", "4S 7S") == "must_follow_shape"
    assert check("9S 9S", "4S 6S 7S", "4S 7S") is None


def test_a_player_without_a_bang_need_not_break_a_sanlian() -> None:
    """ "没棒有三联、四联时可以不出"."""
    assert check("9S 9S", "4S 4S 4S 7S", "4S 7S") is None
    assert check("9S 9S", "4S 4S 4S 7S", "4S 4S") is None  # he may
    assert check("9S 9S", "4S 4S 4S 7S 8S 8S", "4S 7S") == "must_follow_shape"  # a 棒 held


def test_a_sanlian_led_wants_a_sanlian_then_bang_and_single_then_three_singles() -> None:
    """ "打三联、四联必须出三联、四联，若没有可按以下顺序出牌：棒+单张…3张单牌"."""
    assert check("9S 9S 9S", "4S 4S 4S 4S 6S", "4S 4S 4S") is None  # a 四联 held answers
    assert check("9S 9S 9S", "4S 4S 4S 4S 6S", "4S 4S 6S") == "must_follow_shape"
    assert check("9S 9S 9S", "4S 4S 6S 7S", "4S 4S 6S") is None
    assert check("9S 9S 9S", "4S 4S 6S 7S", "4S 6S 7S") == "must_follow_shape"
    assert check("9S 9S 9S", "4S 5S 6S 7S", "4S 6S 7S") is None


def test_a_silian_led_in_the_text_s_order_two_bangs_first() -> None:
    """ "棒+单张（两棒），3张单牌、3联+单张、4张单牌", read for a 四联 as 两棒, 三联+单张, 4张单牌."""
    lead = "9S 9S 9S 9S"
    assert check(lead, "4S 4S 4S 4S 5S", "4S 4S 4S 5S") == "must_follow_shape"
    two_bangs = "4S 4S 6S 6S 7S 7S 7S"
    assert check(lead, two_bangs, "4S 4S 6S 6S") is None
    assert check(lead, two_bangs, "7S 7S 4S 4S") is None  # a 棒 out of the 三联 is a 棒
    assert check(lead, two_bangs, "7S 7S 7S 4S") == "must_follow_shape"  # two 棒 come first
    assert check(lead, "4S 4S 6S 6S 8S", "4S 4S 6S 8S") == "must_follow_shape"
    assert check(lead, "4S 4S 4S 6S 8S", "4S 4S 4S 6S") is None
    assert check(lead, "4S 4S 4S 6S 8S", "4S 4S 6S 8S") == "must_follow_shape"
    assert check(lead, "4S 5S 6S 8S 9C", "4S 5S 6S 8S") is None


def test_a_silian_led_with_the_triple_first_reading() -> None:
    lead = "9S 9S 9S 9S"
    hand = "4S 4S 4S 6S 6S 8S"
    assert check(lead, hand, "4S 4S 4S 8S", TRIPLE_FIRST) is None
    assert check(lead, hand, "4S 4S 6S 6S", TRIPLE_FIRST) == "must_follow_shape"
    assert check(lead, "4S 4S 6S 6S 8S", "4S 4S 6S 6S", TRIPLE_FIRST) is None


def test_short_of_the_suit_a_player_plays_all_he_has_and_anything_else() -> None:
    assert check("9S 9S", "4S KD QD", "4S KD") is None
    assert check("9S 9S", "4S KD QD", "KD QD") == "must_follow_suit"
    assert check("9S 9S 9S 9S", "4S 4S AH AH", "4S 4S AH AH") is None


def test_can_make_counts_units_from_groups_and_singles_from_anything() -> None:
    assert can_make((2, 1), [2, 1]) and can_make((1, 1, 1), [3])
    assert not can_make((2, 2), [3, 1]) and can_make((2, 2), [4]) is False
    assert can_make((2, 2), [3, 2]) and not can_make((2,), [3], exact=True)
    assert units_of(cards("5S 5S 6S")) == (2, 1)


def test_follow_candidates_are_legal_and_cover_every_way_in_the_suit() -> None:
    rng = random.Random(3)
    pack = list(build_deck(4, jokers=True))
    for _ in range(200):
        hand = tuple(sorted(rng.sample(pack, 20)))
        lead = rng.choice([(c,) * k for c in set(pack) for k in (1, 2, 3, 4)][:400])
        found = lead_of(PAIRS_FIRST, ORDER, lead)
        assert found is not None
        kind, suit = found
        offered = follow_candidates(PAIRS_FIRST, ORDER, kind, suit, hand, POINTS)
        assert offered
        for play in offered:
            assert follow_error(PAIRS_FIRST, ORDER, kind, suit, hand, play) is None, play
        in_suit = [c for c in hand if ORDER.suit_of(c) == suit]
        if len(in_suit) >= len(lead):  # every legal play of the suit is offered
            for combo in set(itertools.combinations(sorted(in_suit), len(lead))):
                legal = follow_error(PAIRS_FIRST, ORDER, kind, suit, hand, combo) is None
                assert legal == (combo in offered), combo


# --- the trick -----------------------------------------------------------------------------------


def winner(*plays: str) -> int:
    return trick_winner(PAIRS_FIRST, ORDER, [(s, cards(p)) for s, p in enumerate(plays)])[0]


def test_the_highest_card_of_the_led_suit_wins_and_a_discard_never_does() -> None:
    assert winner("9S", "KS", "AD", "4S") == 1  # ♦A is a discard
    assert winner("9S", "4S", "5S", "6S") == 0


def test_a_trump_beats_the_side_suit_and_a_higher_trump_beats_it() -> None:
    assert winner("AS", "4H", "KS", "5S") == 1
    assert winner("AS", "4H", "2C", "3D") == 3  # an off-suit level card over a 2
    assert winner("AS", "3D", "3C", "BJ") == 3


def test_of_equal_cards_the_first_played_stays_on_top() -> None:
    assert winner("AS", "3D", "3C", "5S") == 1
    assert winner("2S", "2D", "2C", "2S") == 0
    assert winner("KS", "KS", "4S", "5S") == 0


def test_only_a_play_of_the_led_kind_wins_a_bang_trick() -> None:
    """ "一轮结束后，最大方得到该轮的所有分牌": two trump singles do not beat a 棒."""
    assert winner("9S 9S", "RJ BJ", "4H 4H", "KS KS") == 2
    assert winner("9S 9S", "RJ BJ", "4S 5S", "KS KS") == 3
    assert winner("9S 9S 9S", "2H 2H 2H", "3C 3C 3C", "AS AS AS") == 2


def test_a_play_of_the_wrong_kind_has_no_key() -> None:
    assert play_key(PAIRS_FIRST, ORDER, "bang", 0, cards("RJ BJ")) == NO_KEY
    assert play_key(PAIRS_FIRST, ORDER, "single", 0, cards("5D")) == NO_KEY
    assert play_key(PAIRS_FIRST, ORDER, "single", 0, cards("5H")) > play_key(
        PAIRS_FIRST, ORDER, "single", 0, cards("AS")
    )


def test_points_are_counted_by_rank() -> None:
    """ "分牌：5、10、K" (5, 10 and 10)."""
    assert points_of(cards("5S TD KH KH 3S RJ"), POINTS) == 35
    assert points_of(build_deck(4, jokers=True), POINTS) == 400
