"""通山打拱's entry in the catalogue (``api.list_games()``): the options a table may choose
(``DagongOptions``, each reading the text leaves open, with their labels and the readings an old
log was played under), the game's words in Chinese and English, and its names, region and
variant. Data that people read and choose from, kept apart from the rules (``dagong``,
``dagong_combos``, ``dagong_scoring``) that act on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from paiju.errors import register_messages
from paiju.table import MATCH_HANDS, GameInfo, OptionLabel, Variant
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Holder, Said, Words, merged

from .dagong_calling import PLAYERS
from .dagong_combos import DOUBLING, LINEAR


@dataclass(frozen=True, slots=True)
class DagongOptions:
    """A table's readings of what the text leaves open (docs/rules/dagong.md).

    gonglong_fan: the soft 番 of a 拱拢 of 8, 9, … 27 cards (hard is twice: "硬拱为软拱的2倍");
        the text's table lost its figures — presets: doubling every two cards (the default) or
        one 拢 more every two cards.
    unplayed_points: where the points still in 末游's hand go ("手中未出的分数归三（一）游所有"):
        ``third`` (三游) or ``first`` (一游).
    stake: the table's stake (房间底金); every amount is stake × 番.
    hands: how many hands a match has.
    payment: two against two, ``one_each`` — each loser pays one winner, so that each player wins
        or loses the 番 ("他和他对家都赢相应的番数", "最终金币数＝房间底金×番数") — or
        ``each_to_each``: each loser pays each winner (each wins or loses twice the 番).
    gonglong_tie: two 拱拢 of equal 番 and face (a hard 8 and a soft 10 on the same ranks) —
        ``more_cards``: the one of more cards ("（10）9连炸＞8连炸"; hard beats soft "在拱拢总张数相同
        …时" only), then hard over soft — or ``hard``: hard over soft, the cards never counted.
    call_run_out: the called card when the second call lands on a doubled card with nothing
        dealt after its second copy (the text is silent) — ``first_single``: round the deal
        again, the first card dealt to him that he holds once — or ``lowest``: his lowest single.
    big_play_won: when a played 拱拢 (天炸, 8喜, 7喜, 四套硬510K) wins its 番 — ``out_and_last``:
        its player out among the first three and 末游 an opponent ("跑出为1、2、3游，末游为敌对方的
        人"), or ``out``: its player out among the first three, whoever is 末游.
    """

    gonglong_fan: tuple[int, ...] = DOUBLING
    unplayed_points: Literal["third", "first"] = "third"
    stake: int = 1
    hands: int = 1
    payment: Literal["one_each", "each_to_each"] = "one_each"
    big_play_won: Literal["out_and_last", "out"] = "out_and_last"
    gonglong_tie: Literal["more_cards", "hard"] = "more_cards"
    call_run_out: Literal["first_single", "lowest"] = "first_single"


# What a stored config that does not name these options was played under (api.config_from_dict):
# the readings before issue 33, so that an old log replays to the same plays.
OPTIONS_BEFORE: dict[str, Any] = {"gonglong_tie": "hard", "call_run_out": "lowest"}

OPTION_LABELS: dict[str, OptionLabel] = {
    "gonglong_fan": OptionLabel(
        "拱拢番数（软拱，8张至27张；硬拱加倍）",
        "番 of a soft 拱拢 of 8 … 27 cards (hard: twice)",
        presets=(
            ("每多两张翻一番（8张2番、10张4番、12张8番）", "doubling every two cards", DOUBLING),
            ("每多两张多一拢（8张2番、10张4番、12张6番）", "one 拢 more every two cards", LINEAR),
        ),
    ),
    "unplayed_points": OptionLabel(
        "末游手中未出的分",
        "Points left in 末游's hand",
        {"third": ("归三游", "go to 三游"), "first": ("归一游", "go to 一游")},
    ),
    "stake": OptionLabel("底金", "Stake", min=1),
    "hands": MATCH_HANDS,
    "gonglong_tie": OptionLabel(
        "番数和牌面都相同的拱拢",
        "拱拢 of equal 番 and face",
        {
            "more_cards": ("张数多的大（9连炸大于8连炸），再硬大于软", "more cards win, then hard"),
            "hard": ("硬拱大于软拱，不论张数", "hard beats soft, whatever the cards"),
        },
    ),
    "call_run_out": OptionLabel(
        "叫牌一直落在对子上、后面没牌时",
        "The call, when the dealt cards run out",
        {
            "first_single": ("从头再找：发到的第一张单牌", "round again: the first single dealt"),
            "lowest": ("叫最小的单牌", "his lowest single card"),
        },
    ),
    "payment": OptionLabel(
        "二打二时的输赢",
        "Two against two, who pays whom",
        {
            "one_each": ("每个输家付一个赢家（每人输赢番数）", "each loser pays one winner"),
            "each_to_each": (
                "每个输家付每个赢家（每人输赢两倍番数）",
                "each loser pays each winner",
            ),
        },
    ),
    "big_play_won": OptionLabel(
        "打出拱拢、天炸、喜算赢",
        "A played 拱拢, 天炸 or 喜 wins its 番",
        {
            "out_and_last": (
                "跑出1、2、3游且末游为敌对方",
                "out in the first three, 末游 an opponent",
            ),
            "out": ("跑出1、2、3游即可", "out in the first three"),
        },
    ),
}

WORDS = merged(
    CORE_WORDS,
    CLIMBING_WORDS,
    Words(
        phases={"declare": ("明独", "declaring 明独")},
        kinds={
            "liandui": ("连对", "run of pairs"),
            "feiji": ("飞机", "run of triples (飞机)"),
            "za510k": ("杂五十K", "mixed 5-10-K"),
            "zheng510k": ("正五十K", "suited 5-10-K"),
            "bomb": ("炸弹", "bomb"),
            "qixi": ("7喜", "seven of a kind (7喜)"),
            "baxi": ("8喜", "eight of a kind (8喜)"),
            "tianzha": ("天炸", "four jokers (天炸)"),
            "gonglong": ("拱拢", "run of bombs (拱拢)"),
            "sitao": ("四套五十K", "four 5-10-Ks"),
        },
        reasons={
            "points_win": ("得分胜", "more points"),
            "bang": ("绑（一拢）", "first and second (绑)"),
            "mingdu_win": ("明独成功", "明独 won"),
            "mingdu_lose": ("明独失败", "明独 lost"),
            "xiqian_tianzha": ("喜钱：天炸", "bonus: 天炸 dealt"),
            "xiqian_baxi": ("喜钱：8喜", "bonus: 8喜 dealt"),
            "xiqian_qixi": ("喜钱：7喜", "bonus: 7喜 dealt"),
            "xiqian_sitao": ("喜钱：四套硬510K", "bonus: four hard 5-10-Ks dealt"),
            "fan_gonglong": ("拱拢番", "拱拢 played"),
            "fan_tianzha": ("天炸番", "天炸 played"),
            "fan_baxi": ("8喜番", "8喜 played"),
            "fan_qixi": ("7喜番", "7喜 played"),
            "fan_sitao": ("四套硬510K番", "four hard 5-10-Ks played"),
            # each seat's points as the hand counts them (the round left on the table to its top
            # player; without 绑, 末游's to 一游 and those in his hand to 三游 or 一游): they may
            # differ from the 捡分 taken in play
            "points": ("结算得分", "points counted"),
            "fan": ("赢方番数", "the winners' 番"),
            "qing": ("清", "all 200 points (清)"),
            "guangtou": ("光头", "shut out (光头)"),
        },
        events={
            "dealt": ("发牌，{name} 坐庄", "Dealt; {name} deals"),
            "bid_made": ("{name} {bid}", "{name}: {bid}"),
        },
        commands={
            "bid": {
                "budu": Said(("不独", "No (不独)"), ("不独", "No")),
                "mingdu": Said(("明独", "Alone (明独)"), ("明独", "Alone")),
            },
        },
        auctions={"bids": "bid"},
        help={
            "declare": (
                "明独：一人对三家，只看名次，得一游则胜；不独则按叫牌找朋友两两对打。",
                "明独: you alone against the other three, only finishing first counts; otherwise "
                "the dealer and the holder of the called card's other copy play two against two.",
            ),
        },
        turn_lines={
            "declare": (
                ("轮到你选择明独或不独", "Your turn: 明独 or not"),
                ("等待 {name} 选择明独", "Waiting for {name} to declare"),
            ),
        },
        roles={
            "dealer": ("庄", "Dealer"),
            "partner": ("对家", "Partner"),
            "solo": ("明独", "Alone"),
        },
        seat_figures={"captured_points": ("捡分", "points taken")},
        facts={
            "trick_points": ("本轮分数", "points this round"),
            "trick_cards": ("本轮牌数", "cards this round"),
        },
        card_facts={
            "called_card": ("庄家叫 {card}", "The dealer called {card}"),
            "turned_card": ("翻牌 {card} 定庄", "{card} turned up chose the dealer"),
        },
        card_holders={
            "called_card": Holder(
                "partner",
                ("你是对家（暗）", "You are the partner (secret)"),
                unless=("dealer",),
                void_when=("solo",),
            )
        },
        lines={"xiqian_lines": ("喜钱", "bonuses")},
        hidden={
            "big_plays": "the 番 bombs played (seat, reason, 番): their plays are on the table, "
            "their lines on the score sheet at the end",
        },
    ),
)
register_messages(WORDS.errors)

INFO = GameInfo(
    id="dagong",
    name_zh="通山打拱",
    name_en="Tongshan Dagong",
    region_zh="湖北通山（鄂南湘北）",
    region_en="Tongshan, Hubei",
    description_zh=(
        "通山打拱流行于鄂南湘北：四人两副牌（108张，含四张王），每人27张，2最大、3最小，"
        "大小王为癞子。5、10、K为分。庄家亮牌叫朋友，另一张同样牌的持有者为暗中的对家；"
        "也可明独一打三。五十K、四张以上同点都是炸弹，另有7喜、8喜、天炸、拱拢、四套五十K。"
        "一游、二游同一方为绑；否则比双方得分。"
    ),
    description_en=(
        "Tongshan Dagong is played in southern Hubei: four players, two decks with jokers, 27 "
        "cards each, 2 high, jokers wild. 5, 10 and K are points. The dealer shows a card; the "
        "holder of its other copy is his secret partner — or a player declares 明独, alone "
        "against three. 5-10-K and four or more of a kind are bombs, above them 7喜, 8喜, 天炸, "
        "runs of bombs (拱拢) and four 5-10-Ks. Out first and second (绑) wins, else more points."
    ),
    variants=(
        Variant(
            "tongshan",
            "通山规则",
            "Tongshan rules",
            (PLAYERS,),
            "4人，两副牌108张，王为癞子；叫牌找朋友或明独；抓分，绑×2，吼×4，喜钱与拱拢番。",
            "4 players, 108 cards, jokers wild; a called partner or 明独; points, 绑 ×2, 吼 ×4, "
            "bonuses for 天炸 / 8喜 / 7喜 / four 5-10-Ks and 番 for runs of bombs.",
        ),
    ),
)

__all__ = ["INFO", "OPTIONS_BEFORE", "OPTION_LABELS", "WORDS", "DagongOptions"]
