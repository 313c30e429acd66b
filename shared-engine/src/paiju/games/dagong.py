"""通山打拱 Dagong (seed 004): four players, two decks with their four jokers (108 cards), 27 each,
ranks 2 > A > … > 3; the jokers are wildcards (癞子). 5, 10 and K are points (200 in all).

A hand goes: the deal, a card turned face up choosing the first hand's dealer (later, the last
一游 deals) and the dealer's called card (叫牌) shown: the holder of its other copy is his secret
partner (明鸡 when he plays it) → a speaking round for 明独 (one against three; only the first out
counts) → play, the dealer leading. A round's points go to its last player (抓分); 接风: a player
out with a play nobody beats hands the lead to his partner once the partnership is known, else to
the next player. Two against two, one side out first and second wins outright (绑), else the side
with more points (100–100: the side of 末游 loses). 番: 吼 ×4, 绑 ×2, 喜钱 for 天炸 / 8喜 / 7喜 /
四套硬510K whatever the result, and a 番 won or lost by each 拱拢 (and 天炸 / 8喜 / 7喜 / 四套硬510K)
played. Amount = stake × 番.

The combinations, the bomb ladder and the generator are ``dagong_combos``; docs/rules/dagong.md
quotes the phrase behind every choice; the readings the text leaves open are options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.cards import SMALL_JOKER, Card, Hand, build_deck, format_card, parse_card
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.errors import register_messages
from paiju.protocol import (
    Bid,
    BidMade,
    Command,
    Dealt,
    HandEnded,
    Pass,
    Played,
    ResultLine,
    ScoreLine,
    TrickWon,
    net_scores,
)
from paiju.results import PointsFanXi
from paiju.sides import Sides, is_public, mark_holders
from paiju.table import MATCH_HANDS, Changes, Config, GameInfo, OptionLabel, Variant
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Holder, Said, Words, merged

from .dagong_combos import (
    BOMBS,
    DOUBLING,
    FIVE_TEN_KING,
    LINEAR,
    MAX_CARDS,
    POINTS,
    Fans,
    beats,
    fan_table,
    generate,
    gong_parts,
    readings,
    rung,
)

PLAYERS = 4
HAND_SIZE = 27  # "2副扑克牌108张，四人游戏，每家27张牌"
TOTAL_POINTS = 200  # "两副牌共200分"
SOLO_FAN = 4  # "吼（硬）×4"
BANG_FAN = 2  # "绑（一拢）×2"
# 喜钱: "天炸×3（其余三家各出1）", "8喜×6（其余三家各出2）", "7喜×3（其余三家各出1）",
# "4套硬510K … 3（其余三家各出1）"; the figure is the total the three others pay
XIQIAN: dict[str, int] = {"tianzha": 3, "baxi": 6, "qixi": 3, "sitao": 3}
# a played 天炸 / 8喜 / 7喜 wins or loses "相应的番数" (its table is lost: the 喜钱 figure);
# "4套硬5 10 K一起出，算4拢" (番数 = 拢数 × 2)
PLAYED_FAN: dict[str, int] = {"tianzha": 3, "baxi": 6, "qixi": 3, "sitao": 8}
GONG_SIZES = MAX_CARDS - 8 + 1
ORDINARY_RUNG = 3  # bombs a bot may spend on a rich round: 五十K and ordinary bombs (``rung``)
RICH_ROUND = 20  # points on the table worth a plain bomb  # the 番 table: a 拱拢 of 8 … 27 cards


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
            "points": ("得分", "points"),
            "fan": ("番数", "番"),
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
        seat_figures={"captured_points": ("得分", "points")},
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


@dataclass(frozen=True, slots=True)
class DagongState(ClimbState):
    dealer: int | None = None
    called: Card | None = None  # the dealer's called card (public)
    turned: Card | None = None  # the first hand's card turned up, choosing the dealer
    solo: int | None = None  # the seat that declared 明独
    points: tuple[int, ...] = ()  # points captured by each seat this hand
    trick_points: int = 0  # points in the round on the table
    xiqian: tuple[ScoreLine, ...] = ()  # 喜钱 owed from the deal
    big_plays: tuple[tuple[int, str, int], ...] = ()  # (seat, reason, 番) of each 番 bomb played


def points_of(cards: Sequence[Card]) -> int:
    """ "5代表5分，10代表10分，K也代表10分" (a joker is worth nothing, whatever it stands for)."""
    return sum(POINTS.get(c >> 2, 0) for c in cards if c < SMALL_JOKER)


def turned_position(hands: Sequence[Hand]) -> int:
    """The first hand's "随机翻一张明牌": the position, in the deal as held seat by seat (each
    hand sorted), of the card turned up — the sum of seat 0's card codes modulo the 108 cards (a
    figure of the shuffled deal, so every seat is as likely)."""
    return sum(hands[0]) % (PLAYERS * HAND_SIZE)


def first_dealer(hands: Sequence[Hand]) -> tuple[int, Card]:
    """The first hand's dealer and the card turned up for him."""
    pos = turned_position([tuple(sorted(h)) for h in hands])
    seat, index = divmod(pos, HAND_SIZE)
    return seat, tuple(sorted(hands[seat]))[index]


def called_card(
    drawn: Hand, first_hand: bool, run_out: Literal["first_single", "lowest"] = "first_single"
) -> Card | None:
    """The dealer's called card from his cards as drawn. First hand: "系统随机抽取庄家任意单张
    牌" — a card he holds one copy of, jokers excluded, picked by the sum of his cards. Later:
    "亮出发到的第一张牌进行叫牌（不包括大小王），如庄家发到两张一样叫庄的牌…发到第二张同样牌后的
    第一张为第二次叫牌" — the first card dealt to him; while he holds both copies, the first card
    dealt after the second copy. When no card comes after a second copy (the text is silent),
    ``run_out`` (option ``call_run_out``): ``first_single``, the call goes round his deal again
    from its start — the first card dealt to him that he holds once — or ``lowest``, his lowest
    card held once. None if he holds no single card."""
    counts = Counter(drawn)
    singles = sorted(c for c in counts if c < SMALL_JOKER and counts[c] == 1)
    if not singles:
        return None
    if first_hand:
        return singles[sum(drawn) % len(singles)]
    i = 0
    while i < len(drawn):
        card = drawn[i]
        if card >= SMALL_JOKER:
            i += 1
            continue
        if counts[card] == 1:
            return card
        i = max(j for j, c in enumerate(drawn) if c == card) + 1
    if run_out == "lowest":
        return singles[0]
    return next(c for c in drawn if c in singles)


def xiqian_of(hands: Sequence[Hand], stake: int) -> list[ScoreLine]:
    """喜钱 owed from the deal ("不管是否作为…出牌…由其余三方出，不管输赢"): each other seat pays
    a third of the figure to the holder of 天炸 (all four jokers), 8喜 (eight of a rank), 7喜 (seven
    of a rank) or four hard 5-10-Ks ("4套-8套硬510K均有喜钱，番数相同")."""
    lines: list[ScoreLine] = []
    n = len(hands)
    for seat, hand in enumerate(hands):
        counts = Counter(c >> 2 for c in hand if c < SMALL_JOKER)
        found: list[str] = []
        if sum(1 for c in hand if c >= SMALL_JOKER) == 4:
            found.append("tianzha")
        found += ["baxi" for r in range(13) if counts[r] == 8]
        found += ["qixi" for r in range(13) if counts[r] == 7]
        if all(counts[r] >= 4 for r in FIVE_TEN_KING):
            found.append("sitao")
        for kind in found:
            per_head = XIQIAN[kind] // (n - 1) * stake
            lines += [ScoreLine(f"xiqian_{kind}", p, seat, per_head) for p in range(n) if p != seat]
    return lines


def settle(
    reason: str,
    winners: Sequence[int],
    losers: Sequence[int],
    amount: int,
    payment: str = "one_each",
) -> list[ScoreLine]:
    """Side against side: two against two each loser pays one winner (in the order given), or
    each winner with ``payment`` ``each_to_each``; one against three the one pays or is paid by
    each of the three."""
    if len(winners) == len(losers) and payment == "one_each":
        return [ScoreLine(reason, lo, w, amount) for w, lo in zip(winners, losers, strict=True)]
    if len(winners) == len(losers):
        return [ScoreLine(reason, lo, w, amount) for lo in losers for w in winners]
    if len(winners) == 1:
        return [ScoreLine(reason, lo, winners[0], amount) for lo in losers]
    return [ScoreLine(reason, losers[0], w, amount) for w in winners]


class Dagong(ClimbingGame[DagongState]):
    info: ClassVar[GameInfo] = INFO
    state_type = DagongState
    seat_phases = frozenset({"declare", "play"})
    speaking_phases = frozenset({"declare"})
    captures_tricks = True  # "最后得到任意出牌权的玩家获得这些分数"
    readings_matter = True  # 77 88 + two jokers: 667788, 778899 or 777888
    bomb_kinds = BOMBS
    option_labels = OPTION_LABELS
    options_before = OPTIONS_BEFORE
    words = WORDS
    result_type = PointsFanXi

    # --- the table ------------------------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        return DagongOptions()

    def check_config(self, config: Config[Any]) -> None:
        super().check_config(config)
        fans = config.options.gonglong_fan
        if len(fans) != GONG_SIZES or any(not 0 <= f <= 2047 for f in fans):
            raise ValueError(f"gonglong_fan needs {GONG_SIZES} figures from 0 to 2047")

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck(decks=2, jokers=True)  # "使用牌数：2副扑克牌108张"

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def fans(self, config: Config[Any]) -> Fans:
        options = config.options
        return fan_table(options.gonglong_fan, options.gonglong_tie == "more_cards")

    def _dealer_before_deal(self, state: DagongState) -> int | None:
        """After the first hand: "其后则以上局的一游玩家为庄家"."""
        last = state.last_hand
        return last.order[0] if last is not None and last.order else None

    def first_to_draw(self, state: DagongState) -> int:
        """ "庄家首先发牌…逆时针": the dealer deals, his next player receiving the first card."""
        dealer = self._dealer_before_deal(state)
        return 0 if dealer is None else (dealer + 1) % PLAYERS

    def _deal_facts(
        self, state: DagongState, drawn: Sequence[Hand]
    ) -> tuple[int, Card | None, Card | None]:
        dealer = self._dealer_before_deal(state)
        turned: Card | None = None
        if dealer is None:
            dealer, turned = first_dealer(drawn)
        run_out = state.config.options.call_run_out
        return dealer, turned, called_card(drawn[dealer], turned is not None, run_out)

    def face_up(self, state: DagongState, drawn: tuple[Hand, ...], rest: Hand) -> Hand:
        """The card turned up for the first dealer (first hand), then the called card."""
        _, turned, called = self._deal_facts(state, drawn)
        return tuple(c for c in (turned, called) if c is not None)

    def first_turn(self, state: DagongState, hands: tuple[Hand, ...]) -> int:
        dealer = self._dealer_before_deal(state)
        return first_dealer(hands)[0] if dealer is None else dealer

    def start_hand(self, state: DagongState) -> dict[str, Any]:
        return super().start_hand(state) | {
            "dealer": None,
            "called": None,
            "turned": None,
            "solo": None,
            "points": (0,) * state.config.players,
            "trick_points": 0,
            "xiqian": (),
            "big_plays": (),
        }

    def opening(self, state: DagongState, dealt: Dealt) -> Changes:
        """The called card is shown, then "每个玩家都有明独的权利": a speaking round from the
        dealer."""
        dealer, turned, called = self._deal_facts(state, dealt.hands)
        order = tuple((dealer + i) % PLAYERS for i in range(PLAYERS))
        xiqian = xiqian_of(dealt.hands, state.config.options.stake)
        return self.speaking_round(order, "declare") | {
            "dealer": dealer,
            "called": called,
            "turned": turned,
            "xiqian": tuple(xiqian),
            # no card to call (never in practice): the dealer plays alone
            "solo": None if called is not None else dealer,
        }

    # --- 明独 --------------------------------------------------------------------------------------

    def words_now(self, state: DagongState, seat: int) -> tuple[str, ...]:
        return ("budu", "mingdu")

    def heard(self, state: DagongState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """The first 明独 ends the round; when all have said 不独, play begins, the dealer leading
        ("庄家首先发牌出牌")."""
        if event.bid == "mingdu":
            return {"solo": event.seat, "to_speak": ()} | self._play_from(state.dealer)
        return {} if to_speak else self._play_from(state.dealer)

    @staticmethod
    def _play_from(seat: int | None) -> dict[str, Any]:
        return {"phase": "play", "turn": seat, "leader": seat}

    def legal_moves(self, state: DagongState, seat: int) -> list[Command]:
        if state.phase != "declare":
            return super().legal_moves(state, seat)
        if seat != state.turn:
            return []
        return [Bid(seat=seat, bid=word) for word in self.words_now(state, seat)]

    # --- play -----------------------------------------------------------------------------------

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        return readings(cards, self.fans(config))

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return beats(combo, lead)

    def generate_plays(self, state: DagongState, seat: int) -> list[Candidate]:
        return generate(state.hands[seat], state.lead, self.fans(state.config))

    def on_play(self, state: DagongState, event: Played) -> Changes:
        """The round's points grow by the play's; each 拱拢 (its 番 from the table's figures) and
        each 天炸, 8喜, 7喜 and 四套硬510K played is noted: its side wins or loses its 番 at the end."""
        on_table = (state.trick_points if state.lead is not None else 0) + points_of(event.cards)
        changes: Changes = {"trick_points": on_table}
        if event.kind == "gonglong":
            fan = gong_parts(event.key)[1]
        elif event.kind in PLAYED_FAN and (event.kind != "sitao" or event.key):
            fan = PLAYED_FAN[event.kind]
        else:
            return changes
        reason = f"fan_{event.kind}"
        return changes | {"big_plays": (*state.big_plays, (event.seat, reason, fan))}

    def trick_won(self, state: DagongState, event: TrickWon) -> Changes:
        """ "当一轮中有分数时，则最后得到任意出牌权的玩家获得这些分数"."""
        points = list(state.points)
        points[event.seat] += state.trick_points
        return {"points": tuple(points), "trick_points": 0}

    def hand_sides(self, state: DagongState) -> Sides | None:
        """明独: one against three; else the dealer and the holder of the called card's other
        copy, secret until he plays it ("另一家拥有与庄家叫牌相同牌的玩家即和庄家成为对家")."""
        if state.dealer is None:
            return None
        if state.solo is not None:
            return Sides(first=(state.solo,))
        if state.called is None:
            return None
        return Sides(first=(state.dealer,), marks=(state.called,), named=True)

    def partner_known(self, state: DagongState) -> bool:
        """明鸡: the partner has played the called card."""
        sides = self.hand_sides(state)
        return (
            sides is not None and bool(sides.marks) and is_public(sides, dict(state.marks_played))
        )

    def partner_of(self, state: DagongState) -> int | None:
        sides = self.hand_sides(state)
        if sides is None or not sides.marks:
            return None
        holders = mark_holders(sides, state.hands, dict(state.marks_played))
        return holders[0] if holders else None

    def next_leader(self, state: DagongState, winner: int) -> int:
        """接风: "当玩家出的最后一手牌为最大时，若庄家的对家已明鸡确定关系，由各自对家接风；
        若未明鸡确定关系，由下家接风"."""
        if state.hands[winner]:
            return winner
        if state.solo is None and self.partner_known(state):
            first, second = self.teams(state)
            side = first if winner in first else second
            mate = next((s for s in side if s != winner), None)
            if mate is not None and state.hands[mate]:
                return mate
        return self.next_active(state, state.hands, winner)

    def hand_over(self, state: DagongState) -> bool:
        """明独: "该局只以最先的名次决定胜负" — the first out ends it. Two against two: 绑 (one side
        out first and second) ends it, else the third out (末游 is left)."""
        out = state.out
        if state.solo is not None:
            return bool(out)
        if len(out) >= 3:
            return True
        if len(out) == 2:
            first, _ = self.teams(state)
            return (out[0] in first) == (out[1] in first)
        return False

    def _on_table(self, state: DagongState) -> tuple[int, ...]:
        """Points captured with the round still on the table given to its top player."""
        points = list(state.points)
        if state.lead is not None and state.lead_seat is not None:
            points[state.lead_seat] += state.trick_points
        return tuple(points)

    def score(self, state: DagongState) -> HandEnded:
        n = state.config.players
        stake = state.config.options.stake
        order = self.finishing_order(state)
        points = list(self._on_table(state))
        lines: list[ScoreLine] = list(state.xiqian)
        results: list[ResultLine] = []
        first, second = self.teams(state)
        if state.solo is not None:
            solo = state.solo
            others = tuple(s for s in range(n) if s != solo)
            won = order[0] == solo  # "若明独玩家得到一游，则明独玩家胜"
            winners, losers = ((solo,), others) if won else (others, (solo,))
            reason = "mingdu_win" if won else "mingdu_lose"
            fan = SOLO_FAN
            lines += settle(reason, winners, losers, stake * fan)
        else:
            out = state.out
            bang = len(out) >= 2 and (out[0] in first) == (out[1] in first)
            last = order[-1]
            if not bang:  # "末游玩家所得到的分数归一游玩家所有，手中未出的分数归三（一）游所有"
                points[order[0]] += points[last]
                points[last] = 0
                to = order[2] if state.config.options.unplayed_points == "third" else order[0]
                points[to] += points_of(state.hands[last])
            side_points = sum(points[s] for s in first), sum(points[s] for s in second)
            if bang:
                winners, losers = (first, second) if out[0] in first else (second, first)
                reason, fan = "bang", BANG_FAN
                if sum(points[s] for s in losers) == 0:  # "对方还没有得分的情况下，叫光头"
                    results += [ResultLine("guangtou", s, 1) for s in winners]
            else:
                a_wins = side_points[0] > side_points[1] or (
                    side_points[0] == side_points[1] and last not in first  # 100–100
                )
                winners, losers = (first, second) if a_wins else (second, first)
                reason, fan = "points_win", 1
            if max(side_points) == TOTAL_POINTS and any(s in state.out for s in winners):
                results += [ResultLine("qing", s, 1) for s in winners]  # "得到满分…且跑出来"
            by_place = sorted(winners, key=order.index), sorted(losers, key=order.index)
            payment = state.config.options.payment
            lines += settle(reason, by_place[0], by_place[1], stake * fan, payment)
        lines += self._big_play_lines(state, order, stake)
        results += [ResultLine("points", s, points[s]) for s in range(n)]
        results.append(ResultLine("fan", winners[0], fan))
        return HandEnded(
            hand_no=state.hand_no,
            order=order,
            lines=tuple(lines),
            scores=net_scores(lines, n),
            results=tuple(results),
        )

    def _big_play_lines(
        self, state: DagongState, order: tuple[int, ...], stake: int
    ) -> list[ScoreLine]:
        """ "出拱拢者跑出为1、2、3游，末游为敌对方的人，则他和他对家都赢相应的番数，如出拱拢者
        未跑出，则他和他对家都输相应的番数" (and the same for 天炸, 8喜, 7喜, 四套硬510K)."""
        first, second = self.teams(state)
        lines: list[ScoreLine] = []
        for seat, reason, fan in state.big_plays:
            mine, theirs = (first, second) if seat in first else (second, first)
            won = seat in state.out[:3] and (
                order[-1] in theirs or state.config.options.big_play_won == "out"
            )
            winners, losers = (mine, theirs) if won else (theirs, mine)
            lines += settle(reason, winners, losers, stake * fan, state.config.options.payment)
        return lines

    # --- bots -------------------------------------------------------------------------------------

    def bot_choice(self, state: DagongState, seat: int, moves: list[Command]) -> Command:
        """明独 only with a hand of overwhelming bombs; in play: go out when possible, let a known
        ally's play stand (``allies``: only what the seat can know), keep jokers and bombs — the
        cheapest natural play that does the job; jokers and bombs only to stop an opponent close
        to going out (the least bomb), a plain bomb without jokers for a round of 20 points or
        more; leading, the lowest and longest natural combination."""
        if state.phase == "declare":
            strong = self._bombs_dealt(state.hands[seat])
            return Bid(seat=seat, bid="mingdu" if strong >= 7 else "budu")
        plays = self.candidates(state, seat)
        can_pass = any(isinstance(m, Pass) for m in moves)
        hand = state.hands[seat]
        for candidate in plays:
            if len(candidate[0]) == len(hand):
                return self._play_of(seat, candidate)
        allies = self.allies(state, seat)
        if can_pass and state.lead_seat in allies:
            return Pass(seat=seat)
        others = [len(h) for s, h in enumerate(state.hands) if s != seat and h and s not in allies]
        danger = min(others, default=99) <= 3

        def jokers(p: Candidate) -> int:
            return sum(1 for c in p[0] if c >= SMALL_JOKER)

        ordinary = [p for p in plays if p[1].kind not in BOMBS]
        natural = [p for p in ordinary if not jokers(p)]
        bombs = [p for p in plays if p[1].kind in BOMBS]

        def least_bomb(pool: list[Candidate]) -> Command:
            return self._play_of(seat, min(pool, key=lambda p: (jokers(p), rung(p[1]))))

        if not can_pass:  # leading: shed the lowest, longest, natural cards first
            pool = natural or ordinary
            if pool:
                return self._play_of(
                    seat, min(pool, key=lambda p: (jokers(p), p[1].key, -len(p[0]), p[0]))
                )
            return least_bomb(bombs) if bombs else moves[0]
        if danger:  # an opponent is about to go out: as high as possible, a bomb if need be
            if ordinary:
                return self._play_of(seat, max(ordinary, key=lambda p: (p[1].key, -jokers(p))))
            if bombs:
                return least_bomb(bombs)
        if natural:
            return self._play_of(seat, min(natural, key=lambda p: (p[1].key, p[0])))
        cheap = [p for p in bombs if not jokers(p) and rung(p[1])[0] <= ORDINARY_RUNG]
        if cheap and state.trick_points >= RICH_ROUND:  # a rich round: a plain bomb takes it
            return least_bomb(cheap)
        return Pass(seat=seat) if can_pass else moves[0]

    @staticmethod
    def _bombs_dealt(hand: Hand) -> int:
        counts = Counter(c >> 2 for c in hand if c < SMALL_JOKER)
        jokers = sum(1 for c in hand if c >= SMALL_JOKER)
        return sum(1 for r in range(13) if counts[r] >= 4) + jokers + counts[12] // 2

    # --- what a seat sees -------------------------------------------------------------------------

    def named_cards(self, state: DagongState) -> Hand:
        """The called card, and the first hand's card turned up to choose the dealer: both are
        shown to everyone while their holders keep them ("随机翻一张明牌")."""
        turned = () if state.turned is None else (state.turned,)
        return (*super().named_cards(state), *turned)

    def view_extra(self, state: DagongState, seat: int | None) -> dict[str, Any]:
        out = super().view_extra(state, seat)
        known = self.partner_known(state) or state.phase not in ("declare", "play")
        in_trick = len(state.discards) - state.trick_start if state.lead is not None else 0
        out |= {
            "dealer": state.dealer,
            "bids": [list(b) for b in state.said],
            "solo": state.solo,
            "called_card": None if state.called is None else format_card(state.called),
            "turned_card": None if state.turned is None else format_card(state.turned),
            "partner": self.partner_of(state) if known and state.solo is None else None,
            "captured_points": list(state.points),
            "trick_points": state.trick_points if state.lead is not None else 0,
            "trick_cards": in_trick,
            # 喜钱 come from hidden hands: on the sheet once the hand is over
            "xiqian_lines": [
                {"reason": x.reason, "payer": x.payer, "payee": x.payee, "amount": x.amount}
                for x in state.xiqian
            ]
            if state.phase not in ("declare", "play")
            else [],
            "big_plays": [list(b) for b in state.big_plays],
        }
        return out

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        called = view.get("called_card")
        turned = view.get("turned_card")
        counts = view.get("counts") or ()
        played = HAND_SIZE * len(counts) - sum(counts)
        partner = view.get("partner")
        marks: tuple[tuple[Card, int], ...] = ()
        if called is not None and partner is not None and view.get("phase") == "play":
            marks = ((parse_card(called), int(partner)),)  # 明鸡: the partner played it
        return {
            "marks_played": marks,
            "called": None if called is None else parse_card(called),
            "turned": None if turned is None else parse_card(turned),
            "said": tuple((int(s), str(w)) for s, w in view.get("bids") or ()),
            "points": tuple(int(p) for p in view.get("captured_points") or ()),
            "xiqian": tuple(ScoreLine(**x) for x in view.get("xiqian_lines") or ()),
            "big_plays": tuple((int(a), str(b), int(c)) for a, b, c in view.get("big_plays") or ()),
            "trick_start": played - int(view.get("trick_cards") or 0),
        }


GAME = Dagong()

__all__ = [
    "GAME",
    "INFO",
    "Dagong",
    "DagongOptions",
    "DagongState",
    "called_card",
    "first_dealer",
    "points_of",
    "settle",
    "xiqian_of",
]
