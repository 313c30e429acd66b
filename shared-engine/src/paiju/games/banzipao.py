"""板子炮 Banzipao (seed 000): four players, one 52-card deck, 13 each, ranks 2 > A > … > 3.

A hand goes: the deal (a 天牌 — 十三烂 or 滚龙 — wins it at once) → the auction (``bid``: the
dealer, who holds ♠7, speaks first; 包 is one against three, and the bidder's next player may
answer with 反包, a duel in which the other two sit out) → if nobody bids, the dealer calls a card
he does not hold and its holder is his secret partner (``call``) → play. A round (一轮) ends when a
play stands and the others pass; its player captures (得牌) every card of the round and leads
next. A 豆 (four of a kind) or 滚筒 that wins its round earns a bonus from every other player.

Who wins: with a 包 or 反包, whoever of the fighters goes out first; in the two-against-two game
(叫牌), the side out first and second (双飞), else the side that captured more cards.

docs/rules/banzipao.md quotes the phrase behind every choice; each reading the text leaves open is
an option of ``BanzipaoOptions``.

>>> from paiju.cards import parse_cards
>>> [combo_of(parse_cards(t)).kind for t in ("6S", "KS KH", "3S 4S 5H", "QS QH QC")]
['single', 'pair', 'straight', 'bomb']
>>> [combo_of(parse_cards(t)).kind for t in ("7S 7H 8S 8H 9S 9H", "4S 4H 4C 4D", "6S 6H 6C 7S 7H 7C 8S 8H 8C")]
['banzipao', 'dou', 'guntong']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.cards import Card, Hand, build_deck, format_card, parse_card, rank_counts
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.errors import RuleError, register_messages
from paiju.protocol import (
    Bid,
    BidMade,
    CallCard,
    CardCalled,
    Command,
    Dealt,
    Event,
    HandEnded,
    ScoreLine,
    TrickWon,
    net_scores,
)
from paiju.rank_patterns import group_by_rank, take, windows
from paiju.sides import Sides, mark_holders, teams
from paiju.table import (
    MATCH_HANDS,
    Changes,
    Config,
    GameInfo,
    OptionLabel,
    Variant,
    copy_with,
    holder_of,
)
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Holder, Said, Words, merged

PLAYERS = 4
HAND_SIZE = 13  # "每人13张": one deck among four
TWO = 12  # the notation's rank of 2, the highest; no run contains it
SPADE_SEVEN: Card = parse_card("7S")  # its holder is the dealer (庄家)

# "共包括9种牌型": one rank several times, and runs of consecutive ranks (never the 2).
SETS: dict[int, str] = {1: "single", 2: "pair", 3: "bomb", 4: "dou"}
RUNS: dict[int, str] = {1: "straight", 2: "banzipao", 3: "guntong"}  # by cards per rank
RUN_MIN = 3  # "3个或3个以上", "3对或3对以上", "连续3个或3个以上的炸弹"
# What beats what: a kind beats every kind of a lower tier ("可以打以上…种牌型"); single, pair and
# straight share tier 0 and never meet ("单张、对子与顺子间不能互相比较大小").
TIER: dict[str, int] = {
    "single": 0,
    "pair": 0,
    "straight": 0,
    "bomb": 1,
    "banzipao": 2,
    "dou": 3,
    "guntong": 4,
}
# Within a kind: straights only at equal length ("必须张数相同"); 板子炮 and 滚筒 longer first, then
# rank ("首先看板子炮的长度"); the rest by rank. A combination's key is its (top) rank.
LONGER_WINS = frozenset({"banzipao", "guntong"})

# 附加分: what each other player pays the capturer of a round won by a big combination.
BONUS_PER_HEAD: dict[tuple[str, bool], tuple[str, int]] = {
    ("dou", False): ("dou", 1),  # "豆附加+3分给得牌者(其他每人-1分)"
    ("dou", True): ("dou_twos", 2),  # "四个二2222附加+6分(其他每人-2分)"
    ("guntong", False): ("guntong", 3),  # "滚筒附加+9分(其他每人-3分)"
}

# 天牌: what each other player pays the winner.
TIANPAI_PER_HEAD: dict[str, int] = {"gunlong": 12, "shisanlan": 6}

Mode = Literal["bao", "fanbao", "call"]


def combo_of(cards: Sequence[Card]) -> Combo | None:
    """What ``cards`` are in 板子炮, or None if they are no play (a 滚龙 is never played: its
    holder has won at the deal)."""
    counts = rank_counts(cards)
    ranks = [r for r, k in enumerate(counts) if k]
    if not ranks or ranks[-1] > TWO:
        return None
    widths = {counts[r] for r in ranks}
    if len(widths) != 1:
        return None
    width = widths.pop()
    if len(ranks) == 1:
        kind = SETS.get(width)
        return None if kind is None else Combo(kind, ranks[0], len(cards))
    top = ranks[-1]
    run = len(ranks) >= RUN_MIN and top - ranks[0] == len(ranks) - 1 and top < TWO
    kind = RUNS.get(width) if run else None
    return None if kind is None else Combo(kind, top, len(cards))


def beats(combo: Combo, lead: Combo) -> bool:
    """Whether ``combo`` may be played on ``lead``."""
    tier, lead_tier = TIER[combo.kind], TIER[lead.kind]
    if tier != lead_tier:
        return tier > lead_tier
    if combo.kind != lead.kind:
        return False
    if combo.kind in LONGER_WINS:
        return (combo.size, combo.key) > (lead.size, lead.key)
    return combo.size == lead.size and combo.key > lead.key


def generate(hand: Hand, lead: Combo | None) -> list[Candidate]:
    """One play for every rank pattern in ``hand`` that may lead (``lead`` None) or beats it."""
    counts = rank_counts(hand)
    groups = group_by_rank(hand)
    patterns: list[tuple[tuple[tuple[int, int], ...], Combo]] = []
    for width, kind in SETS.items():
        patterns += [
            (((r, width),), Combo(kind, r, width)) for r in range(13) if counts[r] >= width
        ]
    for width, kind in RUNS.items():
        for length in range(RUN_MIN, TWO + 1):
            runs = list(windows(counts, range(TWO), width, length))
            if not runs:
                break
            patterns += [
                (tuple((r, width) for r in run), Combo(kind, run[-1], width * length))
                for run in runs
            ]
    return [
        (take(groups, pattern), combo)
        for pattern, combo in patterns
        if lead is None or beats(combo, lead)
    ]


def tianpai_of(hand: Hand) -> tuple[str, int] | None:
    """The 天牌 in a dealt hand with its strength, or None: ``("gunlong", key)`` for 3+ consecutive
    fours (no 2; longer, then higher, is bigger), ``("shisanlan", 0)`` for 13 different ranks."""
    counts = rank_counts(hand)
    for length in range(len(hand) // 4, RUN_MIN - 1, -1):
        runs = list(windows(counts, range(TWO), 4, length))
        if runs:
            return "gunlong", length * 16 + runs[-1][-1]
    if len(hand) == 13 and all(counts[r] == 1 for r in range(13)):
        return "shisanlan", 0
    return None


def tianpai_winner(hands: Sequence[Hand], dealer: int) -> tuple[int, str] | None:
    """Who wins the deal by a 天牌, and with which: a 滚龙 before a 十三烂; several 滚龙, the
    bigger ("滚龙大的为胜"); several 十三烂, the first counting from the dealer in the order of
    play ("从庄家起，靠前的十三烂者为胜")."""
    n = len(hands)
    found = [
        (seat, t)
        for seat in ((dealer + i) % n for i in range(n))
        if (t := tianpai_of(hands[seat])) is not None
    ]
    if not found:
        return None
    best = max(found, key=lambda f: (f[1][0] == "gunlong", f[1][1]))
    return best[0], best[1][0]


@dataclass(frozen=True, slots=True)
class BanzipaoOptions:
    """A table's readings of what the text leaves open (docs/rules/banzipao.md).

    fanbao_rights: who may answer a 包 with 反包 — ``next``: the bidder's next player only
        ("他的下家还可以选择反包"); ``all``: each other player in turn until one does.
    bystanders_pay_bonus: in a 包/反包 duel the other two also pay (and would receive) 附加分
        ("其他每人"); False: they sit the hand out entirely ("完全不参与战斗"), only the opponent pays.
    open_trick: the round still on the table when the hand ends — ``top``: its top player captures
        it (and a big combination on top earns its bonus); ``nobody``: it counts for no one.
    hands: how many hands a match has.
    """

    fanbao_rights: Literal["next", "all"] = "next"
    bystanders_pay_bonus: bool = False
    open_trick: Literal["top", "nobody"] = "top"
    hands: int = 1


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


@dataclass(frozen=True, slots=True)
class BanzipaoState(ClimbState):
    dealer: int | None = None  # the holder of ♠7 (everyone knows who that is)
    bao: int | None = None  # the seat that bid 包
    fanbao: int | None = None  # the seat that answered with 反包
    called: Card | None = None  # the card the dealer called (public)
    captured: tuple[int, ...] = ()  # cards captured (得牌) by each seat
    bonuses: tuple[ScoreLine, ...] = ()  # 附加分 earned so far this hand


def mode_of(state: BanzipaoState) -> Mode | None:
    """Who fights whom this hand: ``bao`` (one against three), ``fanbao`` (a duel) or ``call``
    (two against two); None during the auction."""
    if state.fanbao is not None:
        return "fanbao"
    if state.bao is not None:
        return "bao"
    return "call" if state.called is not None else None


def partner_of(state: BanzipaoState) -> int | None:
    """The dealer's partner in a two-against-two hand (the called card's holder, or who played
    it); None in any other hand."""
    sides = GAME.hand_sides(state)
    if mode_of(state) != "call" or sides is None:
        return None
    holders = mark_holders(sides, state.hands, dict(state.marks_played))
    return holders[0] if holders else None


def sides_of(state: BanzipaoState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides of the hand: the bidder's (or the dealer's with his partner) first.

    Raises:
        ValueError: the auction has not decided the sides yet.
    """
    sides = GAME.hand_sides(state)
    if sides is None:
        raise ValueError("the sides are not decided yet")
    return teams(sides, state.hands, dict(state.marks_played))


def pay_each(reason: str, payers: Sequence[int], payee: int, amount: int) -> list[ScoreLine]:
    return [ScoreLine(reason, p, payee, amount) for p in payers]


def paired(
    reason: str, winners: Sequence[int], losers: Sequence[int], amount: int
) -> list[ScoreLine]:
    """Each loser pays one winner (sides of two against two)."""
    return [ScoreLine(reason, loser, w, amount) for w, loser in zip(winners, losers, strict=True)]


class Banzipao(ClimbingGame[BanzipaoState]):
    info: ClassVar[GameInfo] = INFO
    state_type = BanzipaoState
    seat_phases = frozenset({"bid", "call", "play"})
    speaking_phases = frozenset({"bid"})
    captures_tricks = True  # "此人抓得本轮出牌的所有牌"
    bomb_kinds = frozenset({"bomb", "banzipao", "dou", "guntong"})
    option_labels = OPTION_LABELS
    words = WORDS

    def __init__(self) -> None:
        super().__init__()
        self.handle(CallCard, self._decide_call)
        self.evolve_by(CardCalled, self._on_called)

    # --- the table ------------------------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        return BanzipaoOptions()

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck()  # "使用去掉大小王的一副牌，即52张"

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def first_turn(self, state: BanzipaoState, hands: tuple[Hand, ...]) -> int:
        """ "每局均以抓到黑桃7者为庄家…庄家具有叫牌的优先发言权": the ♠7 holder speaks first."""
        seat = holder_of(hands, SPADE_SEVEN)
        return 0 if seat is None else seat

    def start_hand(self, state: BanzipaoState) -> dict[str, Any]:
        return super().start_hand(state) | {
            "dealer": None,
            "bao": None,
            "fanbao": None,
            "called": None,
            "captured": (0,) * state.config.players,
            "bonuses": (),
        }

    def opening(self, state: BanzipaoState, dealt: Dealt) -> Changes:
        """ "庄家具有叫牌的优先发言权": the auction opens with the dealer, then in turn."""
        n = state.config.players
        order = tuple((dealt.leader + i) % n for i in range(n))
        return self.speaking_round(order, "bid") | {"dealer": dealt.leader}

    def deal_consequences(self, state: BanzipaoState) -> list[Event]:
        """ "玩家只要抓到此牌型，就直接判胜，无需对局": a 天牌 ends the hand at the deal, and no
        other score applies ("既不计算牌局分也无需计算附加分")."""
        found = tianpai_winner(state.hands, state.dealer or 0)
        if found is None:
            return []
        winner, kind = found
        others = [s for s in range(state.config.players) if s != winner]
        lines = pay_each(kind, others, winner, TIANPAI_PER_HEAD[kind])
        scores = net_scores(lines, state.config.players)
        return [
            HandEnded(hand_no=state.hand_no, order=(winner,), lines=tuple(lines), scores=scores)
        ]

    # --- the auction ------------------------------------------------------------------------------

    def words_now(self, state: BanzipaoState, seat: int) -> tuple[str, ...]:
        """What the seat to speak may say: 包 or 不包, or (after a 包) 反包 or not."""
        return ("pass", "bao") if state.bao is None else ("pass", "fanbao")

    def _fanbao_answerers(self, state: BanzipaoState, bao: int) -> tuple[int, ...]:
        """Who may answer ``bao``'s 包, in order: "如果有人选择包牌了，则他的下家还可以选择反包"."""
        n = state.config.players
        after = tuple((bao + i) % n for i in range(1, n))
        return after[:1] if state.config.options.fanbao_rights == "next" else after

    def heard(self, state: BanzipaoState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """The auction: "依次由闲家选择包牌或不包" — each speaks once from the dealer; a 包 is
        answered by its answerers in turn; a 反包 starts a duel; when the order has gone round
        without a 包 the dealer calls a card ("如果四人均发言完毕，仍无人包牌，则轮到庄家叫牌"),
        and after a 包 nobody answered, its bidder leads."""
        n = state.config.players
        if event.bid == "bao":
            answerers = self._fanbao_answerers(state, event.seat)
            return {"bao": event.seat, "to_speak": answerers, "turn": answerers[0]}
        if event.bid == "fanbao":
            fighters = (state.bao, event.seat)
            return {
                "fanbao": event.seat,
                "to_speak": (),
                "benched": tuple(s for s in range(n) if s not in fighters),
            } | self._play_from(state.bao)  # "均由包牌者首先出牌"
        if to_speak:
            return {}
        if state.bao is None:
            return {"phase": "call", "turn": state.dealer}
        return self._play_from(state.bao)

    @staticmethod
    def _play_from(seat: int | None) -> dict[str, Any]:
        return {"phase": "play", "turn": seat, "leader": seat}

    def _decide_call(self, state: BanzipaoState, command: CallCard) -> list[Event]:
        """ "此时庄家必须叫一张手中没有的牌"."""
        self.require_phase(state, "call")
        if command.seat != state.turn:
            raise RuleError("not_your_turn")
        card = command.card
        code = format_card(card)
        if card not in self.pack(state.config):
            raise RuleError("card_not_in_pack", [code], card=code)
        if card in state.hands[command.seat]:
            raise RuleError("call_own_card", [code], card=code)
        return [CardCalled(seat=command.seat, card=card)]

    def _on_called(self, state: BanzipaoState, event: CardCalled) -> dict[str, Any]:
        """ "拿到此张牌的人，则成为庄家的朋友"; "如果庄家叫牌，则由庄家先出牌"."""
        return {
            "called": event.card,
        } | self._play_from(event.seat)

    def legal_moves(self, state: BanzipaoState, seat: int) -> list[Command]:
        if seat != state.turn:
            return []
        if state.phase == "bid":
            return [Bid(seat=seat, bid=b) for b in self.words_now(state, seat)]
        if state.phase == "call":  # the highest cards first: a bot calls a strong partner
            own = set(state.hands[seat])
            return [
                CallCard(seat=seat, card=c)
                for c in sorted(self.pack(state.config), key=lambda c: (-(c >> 2), c))
                if c not in own
            ]
        return super().legal_moves(state, seat)

    # --- play -----------------------------------------------------------------------------------

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        combo = combo_of(cards)
        return [] if combo is None else [combo]

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return beats(combo, lead)

    def generate_plays(self, state: BanzipaoState, seat: int) -> list[Candidate]:
        return generate(state.hands[seat], state.lead)

    def trick_won(self, state: BanzipaoState, event: TrickWon) -> Changes:
        """ "大住牌而没其他人要时，则一轮出牌结束，此人抓得本轮出牌的所有牌"."""
        return self._round_won(state, event.seat, len(event.cards), Combo(event.kind, event.key, 0))

    def _round_won(
        self, state: BanzipaoState, top: int, cards: int, combo: Combo
    ) -> dict[str, Any]:
        """The round goes to its top player: its cards, and a bonus for a 豆 or a 滚筒 on top
        ("如果玩家打出此大牌型并且大住牌…都会得到相应的附加分")."""
        captured = list(state.captured)
        captured[top] += cards
        return {
            "captured": tuple(captured),
            "bonuses": state.bonuses + tuple(self._bonus(state, top, combo)),
        }

    def _bonus(self, state: BanzipaoState, seat: int, combo: Combo) -> list[ScoreLine]:
        found = BONUS_PER_HEAD.get((combo.kind, combo.kind == "dou" and combo.key == TWO))
        if found is None:
            return []
        reason, amount = found
        out_of_it = () if state.config.options.bystanders_pay_bonus else state.benched
        payers = [s for s in range(state.config.players) if s != seat and s not in out_of_it]
        return pay_each(reason, payers, seat, amount)

    def hand_sides(self, state: BanzipaoState) -> Sides | None:
        """包: one against three; 反包: a duel (the two others sit out); 叫牌: the dealer and the
        holder of the called card, secret until it is played ("拿到此张牌的人，则成为庄家的朋友")."""
        mode = mode_of(state)
        if mode == "bao":
            return Sides(first=(state.bao or 0,))
        if mode == "fanbao":
            return Sides(first=(state.bao or 0,), second=(state.fanbao or 0,))
        if mode == "call" and state.called is not None:
            return Sides(first=(state.dealer or 0,), marks=(state.called,), named=True)
        return None

    def hand_over(self, state: BanzipaoState) -> bool:
        """包 and 反包: "只要有一人出完手中牌，则结束牌局". Two against two: once both of one side
        are out — 双飞 if none of the other side is, else with three out (the two readings of
        when the game ends agree, see the rules document)."""
        if mode_of(state) != "call":
            return bool(state.out)
        return any(all(s in state.out for s in side) for side in sides_of(state))

    def final_round(self, state: BanzipaoState) -> BanzipaoState:
        """The state with the round still on the table settled the table's way (``open_trick``)."""
        if state.config.options.open_trick != "top" or state.lead is None:
            return state
        on_table = len(state.discards) - state.trick_start
        return copy_with(state, self._round_won(state, state.lead_seat or 0, on_table, state.lead))

    def score(self, state: BanzipaoState) -> HandEnded:
        state = self.final_round(state)
        n = state.config.players
        mode = mode_of(state)
        out = state.out
        bidder_side, other_side = sides_of(state)
        lines: list[ScoreLine] = list(state.bonuses)
        if mode == "bao":  # a: "包牌者+9分，其他每人-3分…否则需付其他每人3分"
            bao = bidder_side[0]
            if out[0] == bao:
                lines += pay_each("bao_win", other_side, bao, 3)
            else:
                lines += [ScoreLine("bao_lose", bao, s, 3) for s in other_side]
        elif mode == "fanbao":  # b: "反包失败…-18分，包牌者+18分，反包成功则反包者+9分，包牌者-9分"
            bao, fanbao = bidder_side[0], other_side[0]
            if out[0] == bao:
                lines.append(ScoreLine("fanbao_fail", fanbao, bao, 18))
            else:
                lines.append(ScoreLine("fanbao_win", bao, fanbao, 9))
        else:
            winners, losers, reason = self._two_against_two(state, bidder_side, other_side)
            lines += paired(reason, winners, losers, 2 if reason == "shuangfei" else 1)
        return HandEnded(
            hand_no=state.hand_no,
            order=self.finishing_order(state),
            lines=tuple(lines),
            scores=net_scores(lines, n),
        )

    def settled_captures(self, state: BanzipaoState) -> tuple[int, ...]:
        """c(2): "最后出完牌者手中未打出的牌作废…并且他之前的所得牌全部拿给最先出完牌的人"."""
        captured = list(state.captured)
        last = [s for s in range(state.config.players) if s not in state.out]
        if len(last) == 1 and state.out:
            captured[state.out[0]] += captured[last[0]]
            captured[last[0]] = 0
        return tuple(captured)

    def _two_against_two(
        self, state: BanzipaoState, a: tuple[int, ...], b: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        """(winners, losers, reason), each side in finishing order."""
        order = (*state.out, *(s for s in range(state.config.players) if s not in state.out))
        first = state.out[0]
        if len(state.out) == 2:  # c(1) 双飞: "某方两家都出完牌而另外两家均没出完"
            won, lost = (a, b) if first in a else (b, a)
            reason = "shuangfei"
        else:  # c(2): more captured cards; "如果双方得牌和相同，则最先跑完手中牌者与其朋友判胜"
            captured = self.settled_captures(state)
            total_a, total_b = sum(captured[s] for s in a), sum(captured[s] for s in b)
            a_wins = total_a > total_b or (total_a == total_b and first in a)
            won, lost = (a, b) if a_wins else (b, a)
            reason = "more_cards"
        by_place = sorted(won, key=order.index), sorted(lost, key=order.index)
        return tuple(by_place[0]), tuple(by_place[1]), reason

    def hand_scored(self, state: BanzipaoState, event: HandEnded) -> Changes:
        """The captures as they were counted: the open round settled, and in two against two the
        last player's captures handed to the first one out."""
        if state.phase != "play":
            return {}
        settled = self.final_round(state)
        call = mode_of(state) == "call"
        return {"captured": self.settled_captures(settled) if call else settled.captured}

    # --- what a seat sees ---------------------------------------------------------------------------

    def partner_public(self, state: BanzipaoState) -> bool:
        """The partner is known once the called card is played, or the hand is over."""
        called = state.called
        return called is not None and (called in state.discards or state.phase != "play")

    def view_extra(self, state: BanzipaoState, seat: int | None) -> dict[str, Any]:
        out = super().view_extra(state, seat)
        out |= {
            "dealer": state.dealer,
            "bids": [list(b) for b in state.said],
            "bao": state.bao,
            "fanbao": state.fanbao,
            "called_card": None if state.called is None else format_card(state.called),
            "partner": partner_of(state) if self.partner_public(state) else None,
            "captured": list(state.captured),
            "trick_cards": len(state.discards) - state.trick_start if state.lead else 0,
            "bonus_lines": [dataclasses.asdict(line) for line in state.bonuses],
        }
        return out

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """For ``client.state_from_view``: the called card (the view names it by its code), the
        auction's words (``bids``), the bonuses, and where this round began (the view counts its
        cards)."""
        code = view.get("called_card")
        counts = view.get("counts") or ()
        played = HAND_SIZE * len(counts) - sum(counts)
        return {
            "called": None if code is None else parse_card(code),
            "said": tuple((int(seat), str(word)) for seat, word in view.get("bids") or ()),
            "bonuses": tuple(ScoreLine(**line) for line in view.get("bonus_lines") or ()),
            "trick_start": played - int(view.get("trick_cards") or 0),
        }


GAME = Banzipao()

__all__ = [
    "GAME",
    "INFO",
    "TIER",
    "Banzipao",
    "BanzipaoOptions",
    "BanzipaoState",
    "beats",
    "combo_of",
    "generate",
    "mode_of",
    "partner_of",
    "sides_of",
    "tianpai_of",
    "tianpai_winner",
]
