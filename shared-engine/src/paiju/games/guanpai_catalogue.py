"""关牌 Guanpai's catalogue: the options a table plays by (``GuanpaiOptions``), with the presets
of its three variants — 波克城市 (``boke``, the default), 主流 (``mainstream``) and 苏州
(``suzhou``) — and the lobby's names of each option; the game's words; its entry in the game list
(``INFO``).

Kept apart from the rules (``paiju.games.guanpai``, ``guanpai_combos``, ``guanpai_moves``): this is
the data the lobby and the browser read, and the rules read only the options. Importing it
registers the game's error messages, so every module that raises them has them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from paiju.errors import register_messages
from paiju.table import MATCH_HANDS, GameInfo, OptionLabel, Variant
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Words, merged

SPADE_LADDER = tuple(f"{r}S" for r in "3456789TJQKA2")


@dataclass(frozen=True, slots=True)
class GuanpaiOptions:
    """The rules of one table. Each variant presets these; a table may override the open readings."""

    removed: tuple[str, ...] = ("2H", "2D", "2C", "AD")
    first_lead: tuple[str, ...] = ("3D",)  # the first of these cards found in a hand leads
    later_lead: Literal["first_lead", "winner"] = "first_lead"
    straight_min: int = 5
    straight_low_ace: bool = False
    # 苏州 "从1（A）-A": may one straight run the whole range, A 2 3 … K A, its ace at both ends
    straight_ace_twice: bool = False
    pair_run_min: int = 2  # 0: no runs of pairs
    triple_run_min: int = 2  # 0: no runs of triples
    plane_wings: tuple[int, ...] = (2, 3)  # how many triples a 飞机带翅膀 may have
    four_two: bool = True
    trio_pair_kickers: Literal["any", "pair"] = "any"
    trio_single_last: bool = True
    last_triple_as_trio_pair: bool = True
    quad_bomb: Literal["bare", "with_kicker", "either"] = "bare"
    aaa_bomb: Literal["bare", "with_kicker", "either"] = "bare"
    bomb_order: Literal["aaa_top", "quads_top"] = "aaa_top"
    must_beat: bool = True
    must_beat_with_bomb: bool = True
    # 必管 binds every follower, or only the 下家 of the player on top ("上家打的牌，下家…")
    must_beat_scope: Literal["every_follower", "next_player"] = "every_follower"
    dingda: Literal["off", "liable", "enforced"] = "liable"
    dingda_scope: Literal["singles", "highest_single"] = "singles"
    # with dingda="liable": a low single costs only if the one-card 下家 wins, or whoever wins
    dingda_liability: Literal["if_next_wins", "always"] = "if_next_wins"
    first_play_must_include: bool = False  # the first play contains the card that made its leader
    bomb_score: int = 0
    hands: int = 1


# the lobby's names of the options (``TableGame.option_catalogue``); the lists come with the
# variants' values as named presets
OPTION_LABELS: dict[str, OptionLabel] = {
    "removed": OptionLabel(
        "去掉的牌",
        "Cards taken out of the deck",
        presets=(
            (
                "波克城市：去掉♥2 ♦2 ♣2 ♦A",
                "波克城市: without 2♥ 2♦ 2♣ A♦",
                ("2H", "2D", "2C", "AD"),
            ),
            ("主流：去掉♥2 ♣2 ♦2 ♠A", "Mainstream: without 2♥ 2♣ 2♦ A♠", ("2H", "2C", "2D", "AS")),
        ),
    ),
    "first_lead": OptionLabel(
        "定先出的牌（依次找持有者）",
        "The cards that choose the first leader (the first one held)",
        presets=(
            ("♦3 先出", "3♦ leads", ("3D",)),
            ("♠3 先出，没有则 ♠4…", "3♠ leads, else 4♠ …", SPADE_LADDER),
        ),
    ),
    "plane_wings": OptionLabel(
        "飞机带翅膀：几连飞机可带",
        "Planes with wings: runs of how many triples",
        presets=(("二连、三连可带", "runs of 2 or 3", (2, 3)), ("不可带翅膀", "no wings", ())),
    ),
    "later_lead": OptionLabel(
        "之后各局谁先出",
        "Who leads the later hands",
        {
            "first_lead": ("每局由持先出牌者先出", "every hand: the leading card's holder leads"),
            "winner": ("之后由上局赢家先出", "later hands: the last winner leads"),
        },
    ),
    "straight_min": OptionLabel("顺子最少张数", "Shortest straight", min=3),
    "straight_low_ace": OptionLabel("A可作1（A2345）", "The ace may be low (A2345)"),
    "straight_ace_twice": OptionLabel(
        "顺子可从A（1）直到A（14张，用两张A）", "A straight may run A(1) to A (14 cards, two aces)"
    ),
    "pair_run_min": OptionLabel("连对最少对数（0为无）", "Fewest pairs in a run (0: none)"),
    "triple_run_min": OptionLabel("飞机最少三条数（0为无）", "Fewest triples in a plane (0: none)"),
    "four_two": OptionLabel("可出四带二", "Four with two (四带二)"),
    "trio_pair_kickers": OptionLabel(
        "三带二所带的牌",
        "The two cards of a 三带二",
        {
            "any": ("三带二带任意两张", "三带二 with any two cards"),
            "pair": ("三带二须带对子", "三带二 with a pair only"),
        },
    ),
    "trio_single_last": OptionLabel("最后一手可出三带一", "三带一 as a last hand"),
    "last_triple_as_trio_pair": OptionLabel(
        "最后一手三条可管三带二", "A last-hand triple beats a 三带二"
    ),
    "quad_bomb": OptionLabel(
        "四张炸弹",
        "Four-of-a-kind bombs",
        {
            "bare": ("四张为炸", "four alone are a bomb"),
            "with_kicker": ("四带一为炸", "four plus one are a bomb"),
            "either": ("四张或四带一为炸", "four, alone or plus one, are a bomb"),
        },
    ),
    "aaa_bomb": OptionLabel(
        "三个A炸弹",
        "The aces' bomb",
        {
            "bare": ("三个A为炸", "AAA alone is a bomb"),
            "with_kicker": ("三个A带一为炸", "AAA plus one is a bomb"),
            "either": ("三个A或带一为炸", "AAA, alone or plus one, is a bomb"),
        },
    ),
    "bomb_order": OptionLabel(
        "炸弹大小",
        "Bomb order",
        {
            "aaa_top": ("三个A最大", "AAA highest"),
            "quads_top": ("四张炸大于三个A", "four of a kind above AAA"),
        },
    ),
    "must_beat": OptionLabel("必管（能管必须管）", "Must beat when able (必管)"),
    "must_beat_with_bomb": OptionLabel("必管包括炸弹", "必管 counts bombs"),
    "must_beat_scope": OptionLabel(
        "必管管到谁",
        "Whom 必管 binds",
        {
            "every_follower": ("每个跟牌者能管必须管", "every follower who can beat"),
            "next_player": ("只有出牌者的下家必须管", "only the next player after the play"),
        },
    ),
    "dingda": OptionLabel(
        "顶大（下家只剩一张时出最大）",
        "Play high (顶大) when the next player has one card",
        {
            "off": ("不顶大", "no 顶大"),
            "liable": ("不顶大者包赔", "who fails to play high pays for all"),
            "enforced": ("必须顶大", "顶大 enforced"),
        },
    ),
    "dingda_scope": OptionLabel(
        "顶大管到",
        "顶大 binds",
        {
            "singles": ("顶大只管单张", "顶大 binds singles only"),
            "highest_single": ("顶大须出最大单张", "顶大: play the highest single"),
        },
    ),
    "dingda_liability": OptionLabel(
        "不顶大何时包赔",
        "When a failed 顶大 pays for all",
        {
            "if_next_wins": (
                "只在一张牌的下家赢时包赔",
                "only if the next player, who had one card, wins",
            ),
            "always": ("无论谁赢都包赔", "whoever wins"),
        },
    ),
    "first_play_must_include": OptionLabel(
        "首出须含定先出的牌", "The first play contains the card that chose its leader"
    ),
    "bomb_score": OptionLabel("每个炸弹每家付", "Each bomb: every other player pays"),
    "hands": MATCH_HANDS,
}


MAINSTREAM = GuanpaiOptions(
    removed=("2H", "2C", "2D", "AS"),
    first_lead=SPADE_LADDER,
    later_lead="winner",
    plane_wings=(),
    four_two=False,
    trio_single_last=False,
    last_triple_as_trio_pair=False,
    quad_bomb="with_kicker",
    aaa_bomb="with_kicker",
    must_beat=False,
    dingda="off",
)
VARIANT_OPTIONS: dict[str, GuanpaiOptions] = {
    "boke": GuanpaiOptions(),
    "mainstream": MAINSTREAM,
    # 苏州: "牌数与主流关牌规则一样", with its own runs and bombs
    "suzhou": dataclasses.replace(
        MAINSTREAM, straight_low_ace=True, pair_run_min=3, triple_run_min=0, quad_bomb="bare"
    ),
}

# --- the words of 关牌 (paiju.words): its plays, score lines and refusals, beside the shared ones;
# imported here so that the block stands on its own

WORDS = merged(
    CORE_WORDS,
    CLIMBING_WORDS,
    Words(
        kinds={
            "trio_single": ("三带一", "triple with one"),
            "trio_pair": ("三带二", "triple with two"),
            "pair_run": ("连对", "run of pairs"),
            "triple_run": ("飞机", "run of triples"),
            "plane_wings": ("飞机带翅膀", "plane with wings"),
            "four_two": ("四带二", "four with two"),
            "bomb": ("炸弹", "bomb"),
        },
        reasons={
            "guan": ("被关（加倍）", "shut out (double)"),
            "dingda_cards_left": ("顶大包赔", "顶大: pays for a loser"),
            "dingda_guan": ("顶大包赔（被关）", "顶大: pays for a shut-out loser"),
            "bomb": ("炸弹", "bomb"),
        },
        errors={
            "trio_single_not_last": (
                "三带一只能在最后一手牌时出",
                "三带一 (a triple with one card) may only be your last hand",
            ),
            "must_beat": ("必管：你能管上，必须出牌", "必管: you can beat this play, so you must"),
            "must_play_highest": (
                "顶大：下家只剩一张牌，单张必须出你最大的牌",
                "顶大: your next player has one card left, a single must be your highest card",
            ),
        },
    ),
)
register_messages(WORDS.errors)


INFO = GameInfo(
    id="guanpai",
    name_zh="关牌",
    name_en="Guanpai",
    region_zh="江浙（苏州等地）",
    region_en="Jiangsu and Zhejiang (Suzhou and around)",
    description_zh=(
        "关牌是流行于江浙一带的出牌游戏：一副牌去掉大小王和四张牌，共48张，每人16张。"
        "谁先出完手中的牌谁赢，其余玩家按手中剩余张数输分，一张未出（被关）加倍。"
        "牌型有单张、对子、三条、三带二、顺子、连对、飞机和炸弹等，跟牌须出同样牌型且更大的牌。"
    ),
    description_en=(
        "Guanpai is a shedding game from Jiangsu and Zhejiang: one deck without jokers and four "
        "more cards, 48 in all, 16 each. The first player out wins; every other player pays one "
        "point per card left, double if they never played a card (shut out). Plays are singles, "
        "pairs, triples, a triple with two, straights, runs of pairs, planes and bombs; a follower "
        "must play the same kind, higher."
    ),
    variants=(
        Variant(
            "boke",
            "波克城市规则",
            "Boke City rules",
            (3,),
            "3人，去掉红桃2、方块2、梅花2和方块A；方块3先出；必管、顶大。",
            "3 players; ♥2 ♦2 ♣2 ♦A removed; ♦3 leads; must beat (必管) and play high (顶大).",
        ),
        Variant(
            "mainstream",
            "主流规则",
            "Mainstream rules",
            (2, 3),
            "2或3人，去掉红桃2、梅花2、方块2和黑桃A；黑桃3先出；炸弹为四带一，三个A带一最大。",
            "2 or 3 players; ♥2 ♣2 ♦2 ♠A removed; ♠3 leads; bombs are four plus one, AAA+1 highest.",
        ),
        Variant(
            "suzhou",
            "苏州规则",
            "Suzhou rules",
            (2, 3),
            "2或3人；顺子从A（1）到A，5张起；连对3对起；四张为炸，三个A带一最大。",
            "2 or 3 players; straights from A(1) to A, five or more; runs of 3+ pairs; "
            "four of a kind bombs, AAA+1 highest.",
        ),
    ),
)
