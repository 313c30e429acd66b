"""通山打拱 Dagong: every combination and each wildcard example of the text, the whole bomb ladder
pairwise, 拱拢 with 2-A and 2-3, hard against soft, 四套五十K — and the fast generator checked
against an independent brute force (every sub-multiset of a hand × every joker assignment)."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import parse_cards
from paiju.climbing import Combo
from paiju.games.dagong_combos import (
    DOUBLING,
    GONG_LINE,
    LINEAR,
    beats,
    fan_table,
    generate,
    gong_fan,
    gong_key,
    gong_parts,
    readings,
)

FANS = fan_table(DOUBLING)


def kinds(text: str) -> list[tuple[str, int, int]]:
    return [(c.kind, c.key, c.size) for c in readings(parse_cards(text), FANS)]


def only(text: str) -> Combo:
    found = readings(parse_cards(text), FANS)
    assert len(found) == 1, found
    return found[0]


def gong(text: str) -> Combo:
    found = [c for c in readings(parse_cards(text), FANS) if c.kind == "gonglong"]
    assert len(found) == 1, found
    return found[0]


# --- plain combinations ------------------------------------------------------------------------


def test_plain_combinations_and_their_order() -> None:
    assert kinds("2S") == [("single", 12, 1)]
    assert beats(only("2S"), only("AS")) and not beats(only("AS"), only("2S"))
    assert kinds("3S 3H") == [("pair", 0, 2)]
    assert kinds("AS AH KS KD") == [("liandui", 11, 4)]
    assert kinds("3S 3H 4S 4H 5C 5D")[0] == ("liandui", 2, 6)
    assert kinds("2S 2H AS AH") == []  # "2不能与任何牌组成连对"
    assert kinds("QS QH QC") == [("triple", 9, 3)]
    assert kinds("AS AH AC KS KH KC") == [("feiji", 11, 6)]
    assert kinds("2S 2H 2C AS AH AC") == []
    assert kinds("3S 3H 5S 5H") == []  # not consecutive
    # different plain types and lengths never beat each other
    assert not beats(only("AS AH KS KD"), only("3S 3H"))
    assert not beats(only("5S 5H 6S 6H 7C 7D"), only("3S 3H 4S 4H"))
    assert beats(only("5S 5H 6S 6H"), only("3S 3H 4S 4H"))


# --- the wildcard examples of the text -----------------------------------------------------------


def test_the_wildcard_examples_of_the_text() -> None:
    # "3条3加癞子，算作3333，与4张3的炸弹同等大小"
    soft = only("3S 3H 3C RJ")
    assert (soft.kind, soft.key, soft.size) == ("bomb", 0, 4)
    assert soft.stands_for == parse_cards("3S")
    hard = only("3S 3H 3C 3D")
    assert not beats(soft, hard) and not beats(hard, soft)
    # "任意两张单5、10、K配癞子，算做510K，如果是同花，算正五十K"
    assert kinds("5S TH BJ") == [("za510k", 0, 3)]
    zheng = only("5H KH BJ")
    assert (zheng.kind, zheng.key, zheng.stands_for) == ("zheng510k", 1, parse_cards("TH"))
    # "对4和单张3，配癞子后可以当做4433的连对"
    assert kinds("4S 4H 3S RJ") == [("liandui", 1, 4)]
    # "4张炸弹配癞子算作5张炸弹，如：3333加癞子＞AAAA"
    five = only("3S 3H 3C 3D RJ")
    assert (five.kind, five.size) == ("bomb", 5)
    assert beats(five, only("AS AH AC AD"))
    # "任意一张单牌配两个王，只算做3条" (not 五十K)
    assert kinds("5S BJ RJ") == [("triple", 2, 3)]
    # "单独出算最小的3"; jokers alone otherwise only as 天炸
    assert only("RJ") == Combo("single", 0, 1, parse_cards("3S"))
    assert kinds("BJ RJ") == []
    assert kinds("BJ BJ RJ RJ") == [("tianzha", 0, 4)]


def test_a_selection_read_several_ways() -> None:
    """77 88 + two jokers: the 连对 667788 or 778899, or the 飞机 777888, each naming what the
    jokers stand for."""
    found = {
        (c.kind, c.key): c.stands_for for c in readings(parse_cards("7S 7H 8S 8H BJ RJ"), FANS)
    }
    assert found == {
        ("liandui", 5): parse_cards("6S 6S"),
        ("liandui", 6): parse_cards("9S 9S"),
        ("feiji", 5): parse_cards("7S 8S"),
    }


# --- bombs ---------------------------------------------------------------------------------------

LADDER = [
    "5S TH KD",  # 杂五十K
    "5D TD KD",  # ♦ 正
    "5C TC KC",
    "5H TH KH",
    "5S TS KS",  # ♠ 正
    "AS AH AC AD",  # 4
    "3S 3H 3C 3D 3S",  # 5 (two decks)
    "3S 3H 3C 3D 3S 3H",  # 6
    "3S 3H 3C 3D 3S 3H RJ",  # 7 with a joker
    "3S 3H 3C 3D 3S 3H 3C RJ",  # 8 with a joker
    "3S 3H 3C 3D 3S 3H 3C 3D RJ",  # 9 with a joker
    "3S 3H 3C 3D 3S 3H 3C",  # 7喜
    "3S 3H 3C 3D 4S 4H 4C RJ",  # 软8拱
    "5S 5H 5C 5D TS TH TC TD KS KH KC RJ",  # 四套软510K
    "3S 3H 3C 3D 4S 4H 4C 4D",  # 硬8拱
    "5S 5H 5C 5D TS TH TC TD KS KH KC KD",  # 四套硬510K
    "3S 3H 3C 3D 3S 3H 3C 3D",  # 8喜
    "BJ BJ RJ RJ",  # 天炸
]


def ladder_combo(text: str) -> Combo:
    """The one bomb reading of a rung of the ladder."""
    bombs = [c for c in readings(parse_cards(text), FANS) if c.kind not in ("liandui", "feiji")]
    assert len(bombs) == 1, (text, bombs)
    return bombs[0]


@pytest.mark.parametrize("i", range(len(LADDER)))
def test_each_rung_beats_every_rung_below_and_loses_to_the_ones_above(i: int) -> None:
    me = ladder_combo(LADDER[i])
    for j, other in enumerate(LADDER):
        them = ladder_combo(other)
        if j < i:
            assert beats(me, them), (LADDER[i], other)
            assert not beats(them, me), (other, LADDER[i])
        elif j > i:
            assert not beats(me, them), (LADDER[i], other)


def test_every_bomb_beats_every_plain_combination() -> None:
    for text in LADDER:
        for plain in ("2S", "2S 2H", "2S 2H 2C", "AS AH KS KH", "AS AH AC KS KH KC"):
            assert beats(ladder_combo(text), only(plain))
            assert not beats(only(plain), ladder_combo(text))


def test_za510k_never_beats_za510k_and_equal_bombs_stand() -> None:
    assert not beats(only("5S TH KD"), only("5D TC KH"))
    assert not beats(only("5S TS KS"), only("5S TS KS"))
    assert beats(only("4S 4H 4C 4D"), only("3S 3H 3C 3D"))
    assert not beats(only("3S 3H 3C 3D"), only("3S 3H 3C 3D"))


def test_the_big_gonglong_and_the_top_bombs_do_not_meet() -> None:
    """ "10硬拱及以上的拱拢，不能打天炸、8喜和4套硬5 10 K；反之…也不能打10硬拱及以上的拱拢"."""
    hard10 = gong("3S 3H 3C 3D 3S 4S 4H 4C 4D 4S")
    soft12 = gong("3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C RJ")  # the same 番 as a hard 10
    tops = [ladder_combo(t) for t in LADDER[-3:]]
    for big in (hard10, soft12):
        for top in tops:
            assert not beats(big, top) and not beats(top, big)
        for low in LADDER[:-3]:
            assert beats(big, ladder_combo(low))
    # both at 8番: by face, then hard
    assert gong_parts(hard10.key)[1] == gong_parts(soft12.key)[1] == 8
    assert beats(soft12, hard10) and not beats(hard10, soft12)  # 3-4-5 over 3-4


def test_gonglong_two_ace_biggest_two_three_smallest_and_hard_over_soft() -> None:
    two_ace = gong("2S 2H 2C 2D AS AH AC AD")
    two_three = gong("2S 2H 2C 2D 3S 3H 3C 3D")
    three_four = gong("3S 3H 3C 3D 4S 4H 4C 4D")
    king_ace = gong("KS KH KC KD AS AH AC AD")
    assert beats(two_ace, king_ace) and beats(king_ace, three_four)
    assert beats(three_four, two_three) and not beats(two_three, three_four)
    soft_two_ace = gong("2S 2H 2C 2D AS AH AC RJ")
    assert beats(two_ace, soft_two_ace) and not beats(soft_two_ace, two_ace)
    # "8硬拱和10软拱都是4番": equal 番, then the face decides
    soft10 = gong("5S 5H 5C 5D 5S 6S 6H 6C 6D RJ")
    assert gong_parts(soft10.key)[1] == gong_parts(three_four.key)[1] == 4
    assert beats(soft10, three_four) and not beats(three_four, soft10)
    assert beats(king_ace, soft10)
    # a run of three bombs; 2 once only (no A-2-3)
    assert gong("3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D").size == 12
    assert [c for c in readings(parse_cards("AS AH AC AD 2S 2H 2C 2D 3S 3H 3C 3D"), FANS)] == []
    # bombs of unequal size are no 拱拢: "组成拱拢的炸弹必须牌张数相同"
    assert kinds("3S 3H 3C 3D 3S 4S 4H 4C 4D") == []


def test_gonglong_fan_table_presets() -> None:
    soft, hard, _ = fan_table(DOUBLING)
    assert (soft[0], hard[0], soft[2], soft[4]) == (2, 4, 4, 8)  # 8 = 1拢; 10 ×4; 12 ×8
    assert gong_fan(fan_table(DOUBLING), 8, True) == gong_fan(fan_table(DOUBLING), 10, False) == 4
    soft = fan_table(LINEAR).soft
    assert (soft[0], soft[2], soft[4]) == (2, 4, 6)
    assert len(GONG_LINE) == 14


def test_sitao_five_ten_king() -> None:
    hard = only("5S 5H 5C 5D TS TH TC TD KS KH KC KD")
    soft = only("5S 5H 5C 5D TS TH TC TD KS KH BJ RJ")
    assert (hard.kind, hard.key, soft.kind, soft.key) == ("sitao", 1, "sitao", 0)
    soft10 = gong("5S 5H 5C 5D 5S 6S 6H 6C 6D RJ")
    soft8 = gong("3S 3H 3C 3D 4S 4H 4C RJ")
    hard8 = gong("3S 3H 3C 3D 4S 4H 4C 4D")
    # 软: "只能打软8拱及以下的牌"; 硬: "可以打硬8拱、软10拱以下拱拢"
    assert beats(soft, soft8) and not beats(soft, hard8) and not beats(soft, soft10)
    assert beats(hard, soft10) and beats(hard, hard8)


# --- the generator against a brute force ---------------------------------------------------------


Identity = tuple[str, int, int]  # (kind, key, size) of a combination


@functools.cache
def brute_identities(
    natural_ranks: tuple[int, ...], suits: frozenset[int], jokers: int
) -> frozenset[Identity]:
    """Every combination a selection of naturals (their ranks, sorted, and the set of their suits)
    plus jokers can be, found by trying each joker as each rank (a joker's suit only matters in a
    五十K, where the naturals decide: "如果是同花"). It depends on nothing else, so each answer is
    kept: the hands of the random test share most of their selections."""
    found: set[Identity] = set()
    size = len(natural_ranks) + jokers
    if not natural_ranks:
        if jokers == 1:
            found.add(("single", 0, 1))
        if jokers == 4:
            found.add(("tianzha", 0, 4))
        return frozenset(found)
    nat_ranks = Counter(natural_ranks)
    for assign in itertools.combinations_with_replacement(range(13), jokers):
        counts = nat_ranks + Counter(assign)
        ranks = sorted(counts)
        widths = set(counts.values())
        if len(ranks) == 1:
            r = ranks[0]
            if size <= 3:
                found.add((("single", "pair", "triple")[size - 1], r, size))
            elif size in (7, 8) and jokers == 0:
                found.add(("qixi" if size == 7 else "baxi", r, size))
            else:
                found.add(("bomb", r, size))
        if len(widths) == 1:
            w = widths.pop()
            consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
            if w in (2, 3) and len(ranks) >= 2 and consecutive and ranks[-1] < 12:
                found.add(("liandui" if w == 2 else "feiji", ranks[-1], size))
            if w >= 4 and len(ranks) >= 2:
                for start in range(len(GONG_LINE) - len(ranks) + 1):
                    if sorted(GONG_LINE[start : start + len(ranks)]) == ranks:
                        face = start + len(ranks) - 1
                        key = gong_key(FANS, size, face, jokers == 0, w)
                        found.add(("gonglong", key, size))
        if size == 3 and len(natural_ranks) >= 2 and ranks == [2, 7, 10]:
            if len(suits) == 1:
                found.add(("zheng510k", next(iter(suits)), 3))
            else:
                found.add(("za510k", 0, 3))
        if size == 12 and ranks == [2, 7, 10] and all(v == 4 for v in counts.values()):
            found.add(("sitao", int(jokers == 0), 12))
    return frozenset(found)


def brute_plays(hand: Sequence[int]) -> set[Identity]:
    """Every combination some cards of ``hand`` can be: every sub-multiset of its naturals with
    every number of its jokers."""
    natural = [c for c in hand if c < 52]
    jokers = len(hand) - len(natural)
    subsets: set[tuple[int, ...]] = set()
    for n in range(len(natural) + 1):
        subsets |= set(itertools.combinations(natural, n))
    out: set[Identity] = set()
    for sub in subsets:
        ranks, suits = tuple(sorted(c >> 2 for c in sub)), frozenset(c & 3 for c in sub)
        for k in range(jokers + 1):
            if sub or k:
                out |= brute_identities(ranks, suits, k)
    return out


def beating(identities: set[Identity], lead: Combo | None) -> set[Identity]:
    """Those of ``identities`` that may be played on ``lead`` (all of them when leading)."""
    return identities if lead is None else {i for i in identities if beats(Combo(*i), lead)}


def fast_plays(hand: Sequence[int], lead: Combo | None) -> list[Identity]:
    return [(c.kind, c.key, c.size) for _, c in generate(sorted(hand), lead, FANS)]


def check_hand(hand: list[int], leads: Sequence[Combo | None]) -> None:
    """On each of ``leads``, the generator offers exactly the plays the brute force finds, each
    once, made of the hand's cards and read as listed."""
    every = brute_plays(hand)  # what the hand's cards can be does not depend on the lead
    for lead in leads:
        fast = fast_plays(hand, lead)
        assert len(fast) == len(set(fast)), "a play listed twice"
        assert set(fast) == beating(every, lead)
        for cards, combo in generate(sorted(hand), lead, FANS):
            assert not Counter(cards) - Counter(hand)
            assert combo in readings(cards, FANS)  # the cards read as listed, jokers as stated


SMALL_DECK = [r * 4 + s for r in range(13) for s in range(4)] * 2


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), jokers=st.integers(0, 4), naturals=st.integers(3, 8))
def test_generation_is_exact_on_small_hands(seed: int, jokers: int, naturals: int) -> None:
    rng = random.Random(seed)
    # dense hands (few ranks, so that runs, bombs and 五十K occur)
    ranks = [*rng.sample(range(13), 3), 2, 7, 10]
    pool = [c for c in SMALL_DECK if c >> 2 in ranks]
    hand = rng.sample(pool, max(0, naturals - (jokers > 2) * 2)) + [52, 56, 52, 56][:jokers]
    leads: list[Combo | None] = [None]
    plays = generate(sorted(hand), None, FANS)
    leads += [c for _, c in rng.sample(plays, min(3, len(plays)))]
    check_hand(hand, leads)


def test_generation_is_exact_on_the_examples() -> None:
    for text in (
        "7S 7H 8S 8H BJ RJ",
        "5S TH KD 5D BJ",
        "3S 3H 3C 3D 4S 4H 4C RJ",
        "2S 2H 2C 2D 3S AS AH BJ",
        "5S 5H TS TH KS BJ RJ",
    ):
        check_hand(list(parse_cards(text)), [None])


def test_a_27_card_hand_with_four_jokers() -> None:
    rng = random.Random(11)
    deck = SMALL_DECK[:]
    rng.shuffle(deck)
    hand = sorted([*deck[:23], 52, 52, 56, 56])
    plays = generate(hand, None, FANS)
    names = [(c.kind, c.key, c.size) for _, c in plays]
    assert len(names) == len(set(names))
    assert ("tianzha", 0, 4) in names
    for cards, combo in plays:
        assert combo in readings(cards, FANS)
        assert not Counter(cards) - Counter(hand)
    # following: every play offered beats the lead
    for lead in (Combo("pair", 5, 2), Combo("bomb", 11, 4), Combo("za510k", 0, 3)):
        for _, combo in generate(hand, lead, FANS):
            assert beats(combo, lead)


@pytest.mark.parametrize("by_cards", [True, False])
def test_two_gonglong_of_equal_fan_and_face_by_the_cards_or_by_hardness(by_cards: bool) -> None:
    """ "8硬拱和10软拱都是4番，则按牌面点数比大小"; on the same ranks the face is equal too. The text's
    hard over soft holds "在拱拢总张数相同，组成拱拢的炸弹牌数也相同时"; the first copy's "（10）9连炸＞
    8连炸" puts more cards first (``by_cards``, option ``gonglong_tie="more_cards"``, the default);
    the other reading, hard over soft whatever the cards, is ``gonglong_tie="hard"``."""
    fans = fan_table(DOUBLING, by_cards)

    def gong_of(text: str) -> Combo:
        (found,) = [c for c in readings(parse_cards(text), fans) if c.kind == "gonglong"]
        return found

    hard8 = gong_of("3S 3H 3C 3D 4S 4H 4C 4D")
    soft10 = gong_of("3S 3S 3H 3C 3D 4S 4H 4C 4D RJ")
    assert gong_parts(hard8.key)[:3] == gong_parts(soft10.key)[:3]  # class, 番 and face
    assert beats(soft10, hard8) is by_cards
    assert beats(hard8, soft10) is not by_cards
    # the same cards, hard against soft, and a higher face, are read alike either way
    soft8 = gong_of("3S 3H 3C 3D 4S 4H 4C RJ")
    assert beats(hard8, soft8) and not beats(soft8, hard8)
    assert beats(gong_of("4S 4H 4C 4D 5S 5H 5C 5D"), soft10)
    # the generator lists exactly what beats the table under the same reading
    hand = parse_cards("3S 3S 3H 3C 3D 4S 4H 4C 4D RJ 9C")
    listed = {(c.kind, c.size) for _, c in generate(hand, hard8, fans) if c.kind == "gonglong"}
    assert (("gonglong", 10) in listed) is by_cards
