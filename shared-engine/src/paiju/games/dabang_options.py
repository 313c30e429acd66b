"""The table options of 葫芦岛打棒 (seed 003): each reading the text leaves open
(docs/rules/dabang.md marks them **Interpretation**) as a field of ``DabangOptions``, the readings a
stored config that names none of the newer options was played under (``OPTIONS_BEFORE``), and
the options' labels in the lobby (``OPTION_LABELS``). Kept apart from the game's flow
(``paiju.games.dabang``) because they are data the catalogue and the lobby read, not rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from paiju.table import OptionLabel


@dataclass(frozen=True, slots=True)
class DabangOptions:
    """The readings of what the text leaves open (docs/rules/dabang.md).

    leader: who leads after the first trick — ``winner`` of the last trick, or ``dealer`` ("每轮都
        由庄家先出牌" read literally).
    three_overcalls: three identical level cards overcall one or two.
    four_fallback: a 四联 led, lacking one — ``pairs_first`` (两棒, then 三联+单张) or
        ``triple_first``.
    kitty_multiplier: 抠底 — the kitty's points ``x2`` ("翻两倍" as two times) or ``x4``.
    small_jokers_end: four small jokers buried end the match as four big ones do (规则5).
    pick_back: taking back kitty cards of the same rank and different suits — ``choose``: the
        player chooses ("可由用户自己决定要哪张牌"), ``fixed``: the suit order ♠ ♥ ♣ ♦ decides
        ("最后看花色").
    hands: end the match after this many hands even if no side has passed 10 (0: no cap; a hand
        dealt again, "重新洗牌", is not counted twice).
    buried_king_levels: the levels the kings buried in the kitty add to the side that earns their
        reward ("升级并且吃血") — ``one_each`` (one a king), ``like_blood`` (a big king 2, a small 1,
        as their blood) or ``none`` (the hand's one level only: the reading before issue 27).
    must_play: the levels a climb stops at ("逢3必打,逢10必打") — ``three_and_ten``, or ``ten``
        (the reading before issue 27: a side at 3 that wins as the attackers goes on to 4).
    blood_rounding: "结算时5分不计" under 120 — ``score``: the score's 5 is dropped (85 → 80, four
        blood), or ``shortfall``: only whole tens short of 120 count (85: three).
    ganguo_two: the trump suit's 2 in the 干锅 test — ``apart`` (not a 主花色牌: the order lists
        "主花色2" apart) or ``trump_suit`` (a card of the trump suit like any other).
    first_hand_ganguo: "第一把不带干锅", said where the kitty is turned — ``never`` (the whole first
        hand is exempt) or ``after_grab`` (only the turned kitty is: a first hand whose trumps a
        grabbed big joker named may be 干锅).
    self_overcall: "亮牌后自己和其他人都可以反" — the declarer may 反 himself in another suit
        (``any_suit``), or only reinforce his own (``same_suit``: the reading before issue 33).
    reinforce: "自己可以加固自己的亮牌", no count given — ``more``: more cards of his suit, or
        ``like_overcall``: by the counts of 反 (two over one, four over fewer).
    flip_order: the first hand's turned kitty cards — ``hunpai_high``: the 混牌 3 biggest, then the
        2, A … 4 ("第一把从3打起", "混牌>…2>…"), or ``two_high``: 3 < … < A < 2 (the reading before
        issue 33).
    ganguo_unopened: a kitty nobody showed for (never opened: "若没人亮主，底牌不公开") may be 干锅
        too, and is shown; the text names 干锅 "公开底牌后".
    take_order: "先看是否是主牌，然后看点数" among trumps taken back — ``rank``: their rank (点数),
        or ``card_order``: their place in the order of the cards (the reading before issue 33).
    """

    leader: Literal["winner", "dealer"] = "winner"
    three_overcalls: bool = False
    four_fallback: Literal["pairs_first", "triple_first"] = "pairs_first"
    kitty_multiplier: Literal["x2", "x4"] = "x2"
    small_jokers_end: bool = True
    pick_back: Literal["choose", "fixed"] = "choose"
    hands: int = 0
    buried_king_levels: Literal["one_each", "like_blood", "none"] = "one_each"
    must_play: Literal["three_and_ten", "ten"] = "three_and_ten"
    blood_rounding: Literal["score", "shortfall"] = "score"
    ganguo_two: Literal["apart", "trump_suit"] = "apart"
    first_hand_ganguo: Literal["never", "after_grab"] = "never"
    self_overcall: Literal["any_suit", "same_suit"] = "any_suit"
    reinforce: Literal["more", "like_overcall"] = "more"
    take_order: Literal["rank", "card_order"] = "rank"
    flip_order: Literal["hunpai_high", "two_high"] = "hunpai_high"
    ganguo_unopened: bool = False


# What a stored config that does not name these options was played under (api.config_from_dict):
# the readings before issues 27 and 33, so that an old log replays as it was played.
OPTIONS_BEFORE: dict[str, Any] = {
    "buried_king_levels": "none",
    "must_play": "ten",
    "self_overcall": "same_suit",
    "reinforce": "like_overcall",
    "take_order": "card_order",
    "flip_order": "two_high",
}


OPTION_LABELS: dict[str, OptionLabel] = {
    "leader": OptionLabel(
        "第二圈起谁先出",
        "Who leads after the first trick",
        {
            "winner": ("上一圈最大者先出", "the winner of the last trick"),
            "dealer": ("每圈都由庄家先出", "the dealer, every trick"),
        },
    ),
    "three_overcalls": OptionLabel(
        "三张混牌可以反一张、两张", "Three level cards overcall one or two"
    ),
    "four_fallback": OptionLabel(
        "打四联没有四联时",
        "A 四联 led, lacking one",
        {
            "pairs_first": ("先出两棒，再三联+单张", "two pairs first, then triple + single"),
            "triple_first": ("先出三联+单张，再两棒", "triple + single first, then two pairs"),
        },
    ),
    "kitty_multiplier": OptionLabel(
        "抠底时底牌分数",
        "Kitty points on 抠底",
        {"x2": ("翻两倍（×2）", "doubled (×2)"), "x4": ("翻两番（×4）", "×4")},
    ),
    "small_jokers_end": OptionLabel(
        "底牌扣4个小王也直接结束一轮", "Four small jokers buried also end the match"
    ),
    "pick_back": OptionLabel(
        "扣王后捡底牌，点数相同花色不同时",
        "Taking back kitty cards of one rank in different suits",
        {
            "choose": ("由玩家自己决定要哪张", "the player chooses"),
            "fixed": ("按花色♠♥♣♦顺序", "by the suit order ♠ ♥ ♣ ♦"),
        },
    ),
    "hands": OptionLabel("最多局数（0为打过10为止）", "Most hands (0: until a side passes 10)"),
    "buried_king_levels": OptionLabel(
        "底牌扣王追加升级",
        "Levels added by the kings buried in the kitty",
        {
            "one_each": ("每个王追加升一级", "one level a king"),
            "like_blood": ("按血数：大王升两级，小王升一级", "as their blood: big 2, small 1"),
            "none": ("王不追加升级（只吃血）", "none (blood only)"),
        },
    ),
    "must_play": OptionLabel(
        "必打的级",
        "Levels that must be played",
        {
            "three_and_ten": ("逢3必打，逢10必打", "3 and 10"),
            "ten": ("只有10必打", "10 only"),
        },
    ),
    "blood_rounding": OptionLabel(
        "不足120分算血时（结算时5分不计）",
        "Blood under 120 (结算时5分不计)",
        {
            "score": ("得分去掉5分再算（85分算4个血）", "drop the score's 5 (85: 4 blood)"),
            "shortfall": ("只算少的整10分（85分算3个血）", "whole tens short (85: 3 blood)"),
        },
    ),
    "ganguo_two": OptionLabel(
        "判干锅时主花色2",
        "The trump suit's 2 in the 干锅 test",
        {
            "apart": ("不算主花色牌", "not a card of the trump suit"),
            "trump_suit": ("算主花色牌", "a card of the trump suit"),
        },
    ),
    "first_hand_ganguo": OptionLabel(
        "第一把干锅",
        "干锅 in the first hand",
        {
            "never": ("第一把不带干锅", "never"),
            "after_grab": ("抢亮大王后可以干锅（翻底定主时不带）", "after a grabbed big joker"),
        },
    ),
    "self_overcall": OptionLabel(
        "亮牌人自己反主",
        "The declarer overcalling himself",
        {
            "any_suit": ("可以反成其他花色", "in any suit"),
            "same_suit": ("只能加固自己的花色", "only reinforcing his own suit"),
        },
    ),
    "reinforce": OptionLabel(
        "加固自己的亮牌",
        "Reinforcing one's own show (加固)",
        {
            "more": ("张数更多即可（两张可加到三张）", "with more cards (two to three too)"),
            "like_overcall": ("按反主的张数（两张反一张，四张反三张）", "by the counts of 反"),
        },
    ),
    "take_order": OptionLabel(
        "扣王捡底时主牌之间",
        "Trumps taken back after burying jokers",
        {
            "rank": ("看点数", "by rank (点数)"),
            "card_order": ("看牌的大小", "by the order of the cards"),
        },
    ),
    "flip_order": OptionLabel(
        "第一把翻底牌定庄时牌的大小",
        "The first hand's turned kitty cards rank",
        {
            "hunpai_high": ("混牌3最大，其次2、A…", "the level card 3 highest, then 2, A…"),
            "two_high": ("2最大，3最小", "2 highest, 3 lowest"),
        },
    ),
    "ganguo_unopened": OptionLabel(
        "没人亮主（底牌不公开）也判干锅", "干锅 also when nobody showed (the kitty never opened)"
    ),
}
