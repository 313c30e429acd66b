"""The settlement of a hand of 通山打拱: the points cards carry, the 喜钱 a deal owes, the 番 a
played bomb wins or loses, who beat whom (明独; 绑; more points) and the payments side against
side. Functions of a finished hand's facts (``FinishedHand``), apart from the play (``dagong``),
so that a result can be worked out and tested from those facts alone.

>>> [(x.payer, x.payee, x.amount) for x in settle("bang", (0, 2), (1, 3), 2)]
[(1, 0, 2), (3, 2, 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from paiju.cards import SMALL_JOKER, Card, Hand
from paiju.protocol import HandEnded, ResultLine, ScoreLine, net_scores

from .dagong_catalogue import DagongOptions
from .dagong_combos import FIVE_TEN_KING, POINTS, gong_parts

TOTAL_POINTS = 200  # "两副牌共200分"
SOLO_FAN = 4  # "吼（硬）×4"
BANG_FAN = 2  # "绑（一拢）×2"
# 喜钱: "天炸×3（其余三家各出1）", "8喜×6（其余三家各出2）", "7喜×3（其余三家各出1）",
# "4套硬510K … 3（其余三家各出1）"; the figure is the total the three others pay
XIQIAN: dict[str, int] = {"tianzha": 3, "baxi": 6, "qixi": 3, "sitao": 3}
# a played 天炸 / 8喜 / 7喜 wins or loses "相应的番数" (its table is lost: the 喜钱 figure);
# "4套硬5 10 K一起出，算4拢" (番数 = 拢数 × 2)
PLAYED_FAN: dict[str, int] = {"tianzha": 3, "baxi": 6, "qixi": 3, "sitao": 8}


def points_of(cards: Sequence[Card]) -> int:
    """ "5代表5分，10代表10分，K也代表10分" (a joker is worth nothing, whatever it stands for)."""
    return sum(POINTS.get(c >> 2, 0) for c in cards if c < SMALL_JOKER)


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


def played_fan(kind: str, key: int) -> int | None:
    """The 番 a play wins or loses for its side at the end: a 拱拢's from the table's figures (in
    its key), 天炸's, 8喜's, 7喜's and 四套硬510K's their own (a soft 四套, key 0, none); None for
    every other play."""
    if kind == "gonglong":
        return gong_parts(key)[1]
    if kind in PLAYED_FAN and (kind != "sitao" or key):
        return PLAYED_FAN[kind]
    return None


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


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """What the settlement reads of a hand that is over.

    order: the finishing order, 末游 last; out: the seats that went out, in order (绑 ends a hand
    with two); teams: the two sides (明独: the one, then the three); solo: the seat that declared
    明独, if any; points: captured by each seat, the round still on the table given to its top
    player; unplayed: the points still in 末游's hand; xiqian: the 喜钱 lines of the deal;
    big_plays: (seat, reason, 番) of each 番 bomb played.
    """

    hand_no: int
    order: tuple[int, ...]
    out: tuple[int, ...]
    teams: tuple[tuple[int, ...], tuple[int, ...]]
    solo: int | None
    points: tuple[int, ...]
    unplayed: int
    xiqian: tuple[ScoreLine, ...]
    big_plays: tuple[tuple[int, str, int], ...]
    options: DagongOptions


@dataclass(frozen=True, slots=True)
class Settled:
    """How a hand's main contest ended: the winning side, its 番, the payments, each seat's
    points as counted, and the marks of the result (光头, 清)."""

    winners: tuple[int, ...]
    fan: int
    lines: tuple[ScoreLine, ...]
    points: tuple[int, ...]
    marks: tuple[ResultLine, ...] = ()


def hand_ended(hand: FinishedHand) -> HandEnded:
    """The hand's sheet: the 喜钱 of the deal, the main contest's payments (明独, else two against
    two), each 番 bomb's, then the results — the marks, each seat's points and the 番."""
    n = len(hand.points)
    settled = solo_result(hand, hand.solo) if hand.solo is not None else pair_result(hand)
    lines = [*hand.xiqian, *settled.lines, *big_play_lines(hand)]
    results = [*settled.marks, *(ResultLine("points", s, settled.points[s]) for s in range(n))]
    results.append(ResultLine("fan", settled.winners[0], settled.fan))
    return HandEnded(
        hand_no=hand.hand_no,
        order=hand.order,
        lines=tuple(lines),
        scores=net_scores(lines, n),
        results=tuple(results),
    )


def solo_result(hand: FinishedHand, solo: int) -> Settled:
    """明独: "若明独玩家得到一游，则明独玩家胜" — one against three at 吼's 番."""
    others = tuple(s for s in range(len(hand.points)) if s != solo)
    won = hand.order[0] == solo
    winners, losers = ((solo,), others) if won else (others, (solo,))
    reason = "mingdu_win" if won else "mingdu_lose"
    lines = settle(reason, winners, losers, hand.options.stake * SOLO_FAN)
    return Settled(winners, SOLO_FAN, tuple(lines), hand.points)


def pair_result(hand: FinishedHand) -> Settled:
    """Two against two: 绑 (one side out first and second, "对方还没有得分的情况下，叫光头") at
    its 番, else the side with more points (100–100: the side of 末游 loses); 清 for a winning
    side that took all 200 points with a seat out ("得到满分…且跑出来")."""
    first, second = hand.teams
    out, order = hand.out, hand.order
    bang = len(out) >= 2 and (out[0] in first) == (out[1] in first)
    points = list(hand.points) if bang else points_shared(hand)
    side_points = sum(points[s] for s in first), sum(points[s] for s in second)
    marks: list[ResultLine] = []
    if bang:
        winners, losers = (first, second) if out[0] in first else (second, first)
        reason, fan = "bang", BANG_FAN
        if sum(points[s] for s in losers) == 0:
            marks += [ResultLine("guangtou", s, 1) for s in winners]
    else:
        a_wins = side_points[0] > side_points[1] or (
            side_points[0] == side_points[1] and order[-1] not in first  # 100–100
        )
        winners, losers = (first, second) if a_wins else (second, first)
        reason, fan = "points_win", 1
    if max(side_points) == TOTAL_POINTS and any(s in out for s in winners):
        marks += [ResultLine("qing", s, 1) for s in winners]
    by_place = sorted(winners, key=order.index), sorted(losers, key=order.index)
    amount = hand.options.stake * fan
    lines = settle(reason, by_place[0], by_place[1], amount, hand.options.payment)
    return Settled(winners, fan, tuple(lines), tuple(points), tuple(marks))


def points_shared(hand: FinishedHand) -> list[int]:
    """Without 绑: "末游玩家所得到的分数归一游玩家所有，手中未出的分数归三（一）游所有" — the
    points in 末游's hand to 三游 or 一游 (option ``unplayed_points``)."""
    points, order = list(hand.points), hand.order
    last = order[-1]
    points[order[0]] += points[last]
    points[last] = 0
    to = order[2] if hand.options.unplayed_points == "third" else order[0]
    points[to] += hand.unplayed
    return points


def big_play_lines(hand: FinishedHand) -> list[ScoreLine]:
    """ "出拱拢者跑出为1、2、3游，末游为敌对方的人，则他和他对家都赢相应的番数，如出拱拢者
    未跑出，则他和他对家都输相应的番数" (and the same for 天炸, 8喜, 7喜, 四套硬510K; option
    ``big_play_won``: ``out``, whoever is 末游)."""
    first, second = hand.teams
    options = hand.options
    lines: list[ScoreLine] = []
    for seat, reason, fan in hand.big_plays:
        mine, theirs = (first, second) if seat in first else (second, first)
        won = seat in hand.out[:3] and (hand.order[-1] in theirs or options.big_play_won == "out")
        winners, losers = (mine, theirs) if won else (theirs, mine)
        lines += settle(reason, winners, losers, options.stake * fan, options.payment)
    return lines


__all__ = [
    "BANG_FAN",
    "PLAYED_FAN",
    "SOLO_FAN",
    "TOTAL_POINTS",
    "XIQIAN",
    "FinishedHand",
    "Settled",
    "big_play_lines",
    "hand_ended",
    "pair_result",
    "played_fan",
    "points_of",
    "points_shared",
    "settle",
    "solo_result",
]
