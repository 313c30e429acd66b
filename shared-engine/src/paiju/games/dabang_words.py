"""What 葫芦岛打棒 (seed 003) is called, in Chinese and English: its phases, kinds, result lines,
errors, events, the words said in its speaking rounds (亮主, 扣王, 捡底牌), the help and the turn
lines, and its entry in the catalogue of games (``INFO``). Kept apart from the rules
(``paiju.games.dabang`` and its parts), which name these codes; ``tests/engine/test_words.py``
checks that every code they produce has its words here.
"""

from __future__ import annotations

from paiju.cards import SUITS, card_name, parse_card
from paiju.errors import register_messages
from paiju.games.dabang_cards import PLAYERS
from paiju.games.dabang_declaring import DECLARATIONS, LIANG, PASS, declaration_suit
from paiju.games.dabang_exchanging import EXCHANGES, TAKE, TAKES
from paiju.table import GameInfo, Variant
from paiju.trick_rules import TRUMP
from paiju.tricks import TRICK_WORDS
from paiju.words import CORE_WORDS, Said, Words, merged


def _said(word: str) -> Said:
    """The words of a declaration: level cards shown (``2xH``) or four jokers naming a suit."""
    if word.startswith(("BJ", "RJ")):
        jokers = "小王" if word.startswith("BJ") else "大王"
        en = "small" if word.startswith("BJ") else "big"
        suit = "♠♥♣♦"[declaration_suit(word)]
        return Said(
            (f"四个{jokers}叫{suit}", f"Four {en} jokers: {suit}"),
            (f"四{jokers}{suit}", f"4 {en} jokers {suit}"),
        )
    n, suit = int(word[0]), "♠♥♣♦"[declaration_suit(word)]
    return Said((f"亮{n}张{suit}混牌", f"Show {n} level {suit}"), (f"亮{suit}×{n}", f"{suit}×{n}"))


def _take_said(word: str) -> Said:
    """The words of a kitty card taken back in the pick (``take<code>``)."""
    card = parse_card(word[len(TAKE) :])
    zh, en = card_name(card, "zh"), card_name(card, "en")
    return Said((f"捡{zh}", f"Take {en}"), (f"捡{zh}", f"Took {en}"))


WORDS = merged(
    CORE_WORDS,
    TRICK_WORDS,
    Words(
        phases={
            "declare": ("亮主", "declaring trumps"),
            "bury": ("庄家扣底", "the dealer buries the kitty"),
            "exchange": ("扣王换底", "burying jokers"),
            "pick": ("捡底牌", "taking back kitty cards"),
            "redeal": ("底牌全是王，重新洗牌", "a kitty of jokers only: dealt again"),
        },
        kinds={
            "bang": ("棒", "pair (棒)"),
            "sanlian": ("三联", "three of a kind (三联)"),
            "silian": ("四联", "four of a kind (四联)"),
        },
        reasons={
            "points": ("抓分方得分", "attackers' points"),
            # on the seat that took the last trick, the kitty's points as counted (抠底) or not
            "koudi": (
                "抠底（抓分方赢最后一圈，底牌分翻两倍计入）",
                "抠底: the attackers took the last trick, kitty points doubled",
            ),
            "koudi_x4": (
                "抠底（抓分方赢最后一圈，底牌分×4计入）",
                "抠底: the attackers took the last trick, kitty points ×4",
            ),
            "baodi": (
                "保底（庄家方赢最后一圈，底牌分不计）",
                "保底: the dealer side took the last trick, kitty points not counted",
            ),
            "level_up": ("升级", "level up"),
            "blood": ("下局喝血", "blood next hand"),
            "match_won": ("赢得本轮", "wins the match"),
            "redeal": (
                "底牌全是王，重新洗牌（王的张数）",
                "kitty of jokers only, dealt again (jokers)",
            ),
        },
        errors={
            "bury_eight": ("扣底必须正好 {count} 张：{play}", "Bury exactly {count} cards: {play}"),
            "big_jokers_first": (
                "扣王必须先扣大王：{play}",
                "Bury the big jokers before a small one: {play}",
            ),
        },
        events={
            "dealt": ("发牌", "Dealt"),
            "bid_made": ("{name} {bid}", "{name}: {bid}"),
            "buried": ("庄家 {name} 扣底", "The dealer {name} buries the kitty"),
        },
        commands={
            "bid": {
                PASS: Said(("不亮", "Pass"), ("不亮", "Pass")),
                LIANG: Said(("亮大王", "Show a big joker"), ("亮大王", "Big joker")),
                **{w: _said(w) for w in DECLARATIONS},
                **{
                    w: Said(
                        (f"扣{w[4:]}张王", f"Bury {w[4:]} jokers"),
                        (f"扣{w[4:]}王", f"{w[4:]} jokers"),
                    )
                    for w in EXCHANGES
                },
                **{w: _take_said(w) for w in TAKES},
            }
        },
        phase_commands={
            "exchange": {"bid": {PASS: Said(("不扣王", "Bury none"), ("不扣王", "No jokers"))}}
        },
        auctions={"bids": "bid"},
        bid_kinds={
            "declare": ("亮主", "Declared trumps"),
            "overcall": ("反主", "Overcalled"),
            "reinforce": ("加固", "Reinforced"),
            "exchange": ("扣王", "Buried jokers"),
        },
        help={
            "declare": (
                "亮主：第一局抢亮大王（亮牌后最先摸到的花色牌定主）；以后亮混牌，两张反单张，"
                "四张反三张、两张或单张；四个小王或四个大王可叫任意花色；亮牌人自己也可以反，"
                "或加固自己的亮牌。",
                "Declare trumps: in the first hand show a big joker (the first suited card you drew "
                "after it names the suit); later show level cards: two overcall one, four overcall "
                "three, two or one; four small or four big jokers name any suit; the declarer may "
                "overcall himself too, or reinforce his own show.",
            ),
            "bury": (
                "庄家扣底：选8张牌扣下（可扣分和王；扣王先扣大王，扣王时底牌公开）。",
                "Bury 8 cards (points and jokers allowed; big jokers before small; buried jokers "
                "show the kitty).",
            ),
            "exchange": (
                "可以在底牌中扣王（先大王），并捡回同样张数的最小非分牌；底牌公开。",
                "You may bury jokers (big first) and take back as many of the kitty's lowest "
                "non-point cards; the kitty is shown.",
            ),
            "pick": (
                "捡底牌：最小的牌点数相同、花色不同，由你决定要哪张。",
                "Take back kitty cards: the lowest are of one rank in different suits; you "
                "choose which you take.",
            ),
        },
        turn_lines={
            "declare": (
                ("轮到你亮主", "Your turn to declare"),
                ("等待 {name} 亮主", "Waiting for {name} to declare"),
            ),
            "bury": (
                ("请扣底", "Bury the kitty"),
                ("等待 {name} 扣底", "Waiting for {name} to bury"),
            ),
            "exchange": (
                ("是否扣王换底", "Bury jokers?"),
                ("等待 {name} 扣王", "Waiting for {name} to bury jokers"),
            ),
            "pick": (
                ("选择要捡的底牌", "Choose the kitty card to take back"),
                ("等待 {name} 捡底牌", "Waiting for {name} to take back kitty cards"),
            ),
        },
        roles={
            "dealer": ("庄", "Dealer"),
            "declarer": ("亮主", "Declared"),
            "first_dealer": ("随机庄家", "Dealer by lot"),
        },
        seat_facts={"tribute_payer": ("向庄家进贡", "paid the dealer his tribute")},
        facts={
            "trump": ("主花色", "trump suit"),
            "hunpai": ("混牌（级牌）", "level rank"),
            "tribute_paid": ("本局喝血张数", "tribute cards this hand"),
            "blood_next": ("下局血数", "blood owed next hand"),
            "ganguo": ("干锅", "干锅 (kitty not exchanged)"),
            "picking": ("还要捡的底牌张数", "kitty cards still to take back"),
        },
        value_names={
            "ganguo": {"yes": ("干锅", "干锅"), "no": ("不是干锅", "no")},
            "trump": {s: (sym, sym) for s, sym in zip(SUITS, "♠♥♣♦", strict=True)},
            "hunpai": {"T": ("10", "10")},
        },
        seat_figures={"seat_levels": ("级别", "level")},
        side_figures={"side_levels": ("级别", "level"), "side_points": ("得分", "points")},
        suits={
            **{str(i): (sym, sym) for i, sym in enumerate("♠♥♣♦")},
            str(TRUMP): ("主牌", "trumps"),
        },
        trick={"top": "winning"},
        card_facts={
            "grab_card": (
                "亮大王则主花色随 {card}（你大王后摸到的第一张花色牌）",
                "Show the big joker and {card}'s suit is trumps (the first suited card you drew after it)",
            ),
        },
        card_sets={
            "kitty": ("底牌", "the kitty"),
            "buried": ("你扣下的底牌", "the kitty you buried"),
            "flipped": ("翻出的底牌", "kitty cards turned"),
        },
        hidden={
            "attack_points": "the attackers' points: their side's points (side_points)",
            "blood": "the blood owed, as the state holds it: shown as blood_next once the hand is "
            "scored, and as tribute_paid while the hand that drinks it is played",
            "declaration": "the declaration on top: its badge in the auction (bids)",
            "exchanges": "who buried how many jokers for kitty cards",
            "match_winner": "the side that won the match",
            "redeals": "hands dealt again so far (the rules' hand is hand_no minus these)",
        },
    ),
)
register_messages(WORDS.errors)


INFO = GameInfo(
    id="dabang",
    name_zh="葫芦岛打棒",
    name_en="Huludao Dabang",
    region_zh="辽宁葫芦岛",
    region_en="Huludao, Liaoning",
    description_zh=(
        "四人四副牌（216张），对家一组，每人52张，底牌8张。抢亮大王或亮混牌定主，庄家扣底，"
        "闲家可扣王换底；出单张、棒、三联、四联，死棒跟牌；抓分方得160分并抠底升级，"
        "庄家方保底升级；喝血进贡；从3打起，先打过10的一方获胜。"
    ),
    description_en=(
        "Four players in partnerships, four decks with jokers (216 cards), 52 each and an 8-card "
        "kitty. Trumps are declared with a big joker (first hand) or level cards; the dealer buries "
        "the kitty and the others may bury jokers for its lowest cards. Leads are singles, pairs "
        "(棒) and three or four identical cards, followed by the 死棒 rules; the attackers level "
        "up with 160 points and the last trick, the dealer side by holding them under 160 and "
        "taking the last trick; tribute (喝血) flows to the dealer. From 3, the first side past 10 "
        "wins."
    ),
    variants=(
        Variant(
            "huludao",
            "葫芦岛规则（娱网棋牌）",
            "Huludao rules (pkgame)",
            (PLAYERS,),
            "4人4副牌，每人52张，底8张；抢亮大王、亮混牌反主；扣底、扣王；死棒；"
            "160分抠底升级，保底升级；喝血；3打过10。",
            "4 players, 4 decks, 52 each, kitty 8; big-joker grab, level-card declarations and "
            "overcalls; kitty burying and joker exchange; 死棒 follows; 160 + last trick to level "
            "up; tribute; from 3 past 10.",
        ),
    ),
)
