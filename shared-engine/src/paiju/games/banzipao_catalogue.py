"""板子炮 Banzipao's catalogue: the lobby's names of its options, its words (the plays, the auction
and the call, the score lines, what its view shows) and its entry in the game list (``INFO``).

Kept apart from the rules (``paiju.games.banzipao`` and its parts): this is the data the lobby and
the browser read. Importing it registers the game's error messages.
"""

from __future__ import annotations

from paiju.errors import register_messages
from paiju.table import MATCH_HANDS, GameInfo, OptionLabel, Variant
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Holder, Said, Words, merged

PLAYERS = 4  # "四人": a table of four, no other size


# the lobby's names of the options (``TableGame.option_catalogue``)
OPTION_LABELS: dict[str, OptionLabel] = {
    "fanbao_rights": OptionLabel(
        "谁可以反包",
        "Who may answer 包 with 反包",
        {
            "next": ("只有下家可反包", "only the next player may 反包"),
            "all": ("其他人依次可反包", "each other player in turn"),
        },
    ),
    "bystanders_pay_bonus": OptionLabel(
        "包与反包对打时，旁观的两人也付附加分",
        "In a 包/反包 duel, the two sitting out also pay bonuses",
    ),
    "open_trick": OptionLabel(
        "终局时桌上未收的一轮",
        "The round left on the table at the end",
        {
            "top": ("桌上未收的牌归最大者", "the last round goes to its top player"),
            "nobody": ("桌上未收的牌不归任何人", "the last round counts for nobody"),
        },
    ),
    "hands": MATCH_HANDS,
}


# --- the words of 板子炮 (paiju.words): its plays, the auction and the call, its score lines and
# what its view shows, beside the shared ones; imported here so that the block stands on its own

WORDS = merged(
    CORE_WORDS,
    CLIMBING_WORDS,
    Words(
        phases={
            "bid": ("叫牌/包牌阶段", "bidding"),
            "call": ("庄家叫牌", "the dealer calls a card"),
        },
        kinds={
            "bomb": ("炸弹", "bomb"),
            "banzipao": ("板子炮", "run of pairs (板子炮)"),
            "dou": ("豆", "four of a kind (豆)"),
            "guntong": ("滚筒", "run of triples (滚筒)"),
        },
        reasons={
            "bao_win": ("包牌成功", "包 won"),
            "bao_lose": ("包牌失败", "包 lost"),
            "fanbao_win": ("反包成功", "反包 won"),
            "fanbao_fail": ("反包失败", "反包 lost"),
            "shuangfei": ("双飞", "both out first (双飞)"),
            "more_cards": ("得牌多", "more cards won"),
            "dou": ("豆附加分", "bonus: four of a kind (豆)"),
            "dou_twos": ("2222附加分", "bonus: four twos"),
            "guntong": ("滚筒附加分", "bonus: run of triples (滚筒)"),
            "gunlong": ("天牌滚龙", "dealt a 滚龙"),
            "shisanlan": ("天牌十三烂", "dealt a 十三烂"),
        },
        errors={
            "call_own_card": (
                "叫牌必须叫一张自己手里没有的牌：{card} 在你手里",
                "You must call a card you do not hold: {card} is in your hand",
            ),
            "card_not_in_pack": ("这副牌里没有 {card}", "There is no {card} in this pack"),
        },
        events={
            "dealt": ("发牌，{name} 先发言", "Dealt; {name} speaks first"),
            "bid_made": ("{name} {bid}", "{name}: {bid}"),
            "card_called": ("庄家 {name} 叫 {card}", "The dealer {name} calls {card}"),
        },
        commands={
            "bid": {
                "bao": Said(("包", "Bid alone (包)"), ("包", "Alone")),
                "fanbao": Said(("反包", "Counter-bid (反包)"), ("反包", "Counter")),
                "pass": Said(("不包", "No bid (不包)"), ("不包", "No bid")),
            },
            "call_card": {"": Said(("叫 {card}", "Call {card}"), ("叫 {card}", "Called {card}"))},
        },
        answers={
            "bid": {"pass": Said(("不反包", "No counter (不反包)"), ("不反包", "No counter"))}
        },
        auctions={"bids": "bid"},
        help={
            "bid": (
                "包：一人对三家，先出完者胜；有人包牌后，其下家可以反包（一对一，另两家旁观）。",
                "包: you alone against the other three, the first out wins; after a 包 the next "
                "player may answer 反包 (a duel; the other two sit out).",
            ),
            "call": (
                "叫牌：选一张你没有的牌，拿到它的人就是你的朋友，两两对打；"
                "这张牌打出之前，谁是朋友只有他自己知道。",
                "Call a card you do not hold: its holder becomes your partner, two against two. "
                "Until that card is played, only the partner knows.",
            ),
        },
        turn_lines={
            "bid": (
                ("轮到你发言", "Your turn to speak"),
                ("等待 {name} 发言", "Waiting for {name} to speak"),
            ),
            "call": (
                ("轮到你叫牌", "Your turn to call a card"),
                ("等待 {name} 叫牌", "Waiting for {name} to call a card"),
            ),
        },
        roles={"dealer": ("庄", "Dealer"), "partner": ("朋友", "Partner")},
        seat_figures={"captured": ("得牌", "cards won")},
        facts={"trick_cards": ("本轮牌数", "cards this round")},
        seat_facts={"partner": ("朋友", "partner")},
        card_facts={"called_card": ("庄家叫 {card}", "The dealer called {card}")},
        card_holders={
            "called_card": Holder("partner", ("你是朋友（暗）", "You are the partner (secret)"))
        },
        lines={"bonus_lines": ("附加分", "bonuses")},
        hidden={
            "bao": "the seat that bid 包: its badge in the auction (bids) says so",
            "fanbao": "the seat that answered 反包: its badge in the auction (bids) says so",
        },
    ),
)
register_messages(WORDS.errors)


INFO = GameInfo(
    id="banzipao",
    name_zh="板子炮",
    name_en="Banzipao",
    region_zh="贵州、重庆",
    region_en="Guizhou, Chongqing",
    description_zh=(
        "板子炮流行于贵州、重庆、四川部分地区。四人一副牌（不要大小王），每人13张，"
        "2最大、3最小。抓到黑桃7者为庄家，先发言包牌或不包；有人包牌时下家可以反包；"
        "无人包牌则庄家叫一张自己没有的牌找朋友，两两对打。一轮出牌大住者得牌，"
        "打出的豆和滚筒大住牌另有附加分；十三烂和滚龙为天牌，直接判胜。"
    ),
    description_en=(
        "Banzipao is played in Guizhou, Chongqing and parts of Sichuan: four players, one deck "
        "without jokers, 13 cards each, 2 high and 3 low. The holder of ♠7 deals and speaks first: "
        "包 (alone against three) or not; the next player may answer a 包 with 反包, a duel. If "
        "nobody bids, the dealer calls a card he lacks and its holder is his secret partner. The "
        "player whose play stands captures the round's cards; a four of a kind (豆) or a run of "
        "triples (滚筒) that stands earns a bonus; 十三烂 and 滚龙 win at the deal."
    ),
    variants=(
        Variant(
            "guizhou",
            "贵州规则",
            "Guizhou rules",
            (PLAYERS,),
            "4人，52张，黑桃7为庄；包牌±9、反包±18/±9、叫牌两两对打（双飞±2，比得牌±1）；"
            "豆、2222、滚筒大住牌附加分；十三烂+18、滚龙+36。",
            "4 players, 52 cards; ♠7 deals; 包 ±9, 反包 ±18/±9; otherwise the dealer calls a "
            "partner (双飞 ±2, else more captured cards ±1); bonuses for a standing 豆, 2222, 滚筒; "
            "十三烂 +18, 滚龙 +36.",
        ),
    ),
)
