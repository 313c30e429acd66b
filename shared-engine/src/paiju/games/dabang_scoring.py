"""The end of a 葫芦岛打棒 hand (seed 003): the attackers' points with the kitty's on 抠底, which
of the text's four cases applies, the levels a side earns and where its climb stops ("逢3必打,逢10
必打"), the blood owed in the next hand (喝血), the next dealer and the match won at once. Kept
apart from the hand's play (``paiju.games.dabang``), which calls these once the tricks are done.

docs/rules/dabang.md, "Levels and the match" and "The end of a hand", quotes the text behind
each rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.cards import BIG_JOKER, SMALL_JOKER, Card
from paiju.games.dabang_cards import POINTS
from paiju.games.dabang_state import DabangState, side_of, side_seats
from paiju.protocol import HandEnded, ResultLine
from paiju.table import Changes
from paiju.trick_rules import points_of

LAST_LEVEL = 10  # "打过10就结束一轮"
ATTACK_TARGET = 160  # "本局得分大于、等于160分"
ALL_POINTS = 400  # "抓分方得"400"分，抓分方即赢"
BLOOD_LOW, BLOOD_HIGH = 120, 200  # "未满120分，每少10分…一个血"; "超过200，每多10分…一个血"


def blood_of_points(points: int, rounding: str = "score") -> int:
    """ "抓分方得分若未满120分，每少10分下局出一个血（结算时5分不计）。若得分超过200，每多10分
    下局即得一个血": ``score`` — the score's 5 is dropped first (85 → 80: four); ``shortfall`` —
    only whole tens of what is short of 120 count (85 is 35 short: three). Above 200 both agree.

    >>> blood_of_points(85), blood_of_points(85, "shortfall"), blood_of_points(215, "shortfall")
    (4, 3, 1)
    """
    if points < BLOOD_LOW and rounding == "shortfall":
        return (BLOOD_LOW - points) // 10
    tens = points - points % 10
    if tens < BLOOD_LOW:
        return (BLOOD_LOW - tens) // 10
    if tens > BLOOD_HIGH:
        return (tens - BLOOD_HIGH) // 10
    return 0


def king_levels(kitty: Sequence[Card], reading: str) -> int:
    """The levels the kings buried in the kitty add to the side that earns their reward
    ("享受底牌扣的王带来的奖励(升级并且吃血)"; outside 干锅 they "追加升级", "底牌中的王不追加升级" being
    said of 干锅 alone). The text counts the kings ("所扣的王的个数") but prints a number only for
    their blood: ``one_each`` — one level (one 升级) a king, big or small; ``like_blood`` — as
    many levels as blood ("1个大王为2个血…1个小王为1个血"); ``none`` — no level beyond the hand's
    one (the kings bring blood only)."""
    big = sum(1 for c in kitty if c == BIG_JOKER)
    small = sum(1 for c in kitty if c == SMALL_JOKER)
    if reading == "one_each":
        return big + small
    if reading == "like_blood":
        return 2 * big + small
    return 0


MUST_PLAY: dict[str, tuple[int, ...]] = {"three_and_ten": (3, 10), "ten": (10,)}


def climb(level: int, earned: int, dealer_side: bool, stops: Sequence[int]) -> int:
    """A side's level after it earns ``earned`` levels: "逢3必打,逢10必打" — a climb stops at a
    must-play level it reaches, and passes it only as the dealer side, having played it (a side
    at such a level that wins as the attackers stays there, to play it as the new dealer side).

    >>> climb(3, 1, dealer_side=False, stops=(3, 10)), climb(3, 3, True, (3, 10))
    (3, 6)
    >>> climb(8, 4, dealer_side=True, stops=(3, 10)), climb(10, 2, False, (3, 10))
    (10, 10)
    """
    if level in stops and not dealer_side:
        return level
    ahead = [s for s in (*stops, LAST_LEVEL) if s > level]
    return min([level + earned, *ahead])


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ends: the attackers' points (the kitty's doubled on 抠底), who took the last
    trick, which of the text's four cases applies, the side that levels up and the levels it
    earns (before the stops of "逢3必打,逢10必打"), the blood owed in the next hand, the next
    dealer, and the side that wins the match at once (None)."""

    points: int
    kitty_points: int
    koudi: bool  # the attackers took the last trick (抠底); else the dealer side did (保底)
    case: int  # 1 保底 <160, 2 抠底 <160, 3 保底 >=160, 4 抠底 >=160
    leveling: int | None  # the side that levels up
    levels: int  # the levels it earns: the hand's one and the buried kings' (0: nobody levels)
    blood: int
    next_dealer: int
    match_winner: int | None  # a side


def outcome(state: DabangState) -> Outcome:
    """The hand's end by the text's rules (docs/rules/dabang.md, 升级 and 底牌扣王)."""
    o = state.config.options
    dealer = state.dealer if state.dealer is not None else 0
    defenders = side_of(dealer)
    attackers = 1 - defenders
    won = sum(state.points_won[s] for s in side_seats(attackers))
    koudi = state.last_winner is not None and side_of(state.last_winner) == attackers
    kitty = state.rest
    kitty_points = (
        points_of(kitty, POINTS) * (2 if o.kitty_multiplier == "x2" else 4) if koudi else 0
    )
    points = won + kitty_points
    enough = points >= ATTACK_TARGET
    case = (3 if enough else 1) if not koudi else (4 if enough else 2)
    leveling = {1: defenders, 4: attackers}.get(case)
    rewarded = case != 2 and not state.ganguo  # "扣的王作废"; 干锅 "不追加升级也不算血"
    big = sum(1 for c in kitty if c == BIG_JOKER)
    small = sum(1 for c in kitty if c == SMALL_JOKER)
    blood = blood_of_points(points, o.blood_rounding) + (2 * big + small if rewarded else 0)
    # case 3 "能吃到底牌扣的王奖励的血牌,但不升级": only the levelling cases earn levels
    earned = 0 if leveling is None else 1
    if leveling is not None and rewarded:
        earned += king_levels(kitty, o.buried_king_levels)
    next_side = attackers if enough else defenders
    n = state.config.players
    next_dealer = (dealer + 2) % n if next_side == defenders else (dealer + 1) % n
    winner: int | None = None
    four = big == 4 or (small == 4 and o.small_jokers_end)
    if points == 0:  # "抓分方得"0"分，庄家方即赢"
        winner = defenders
    elif points >= ALL_POINTS:
        winner = attackers
    elif four and not state.ganguo and case in (1, 4):  # 规则5, "该轮结束"
        winner = leveling
    elif leveling is not None and leveling == defenders and state.levels[leveling] >= LAST_LEVEL:
        winner = leveling  # "打过10就结束一轮"
    return Outcome(points, kitty_points, koudi, case, leveling, earned, blood, next_dealer, winner)


def hand_ended(state: DabangState) -> HandEnded:
    """The hand's end as an event: the attackers' points, 抠底 or 保底, the levels, the blood
    owed and the match won, as result lines (``paiju.results.LevelsAndBlood``)."""
    out = outcome(state)
    n = state.config.players
    dealer = state.dealer if state.dealer is not None else 0
    attackers = 1 - side_of(dealer)
    results = [ResultLine("points", s, out.points) for s in side_seats(attackers)]
    last = state.last_winner if state.last_winner is not None else dealer
    if out.koudi:  # "抠底：不论用几张牌抠底，底牌的分数都只翻两倍"
        x4 = state.config.options.kitty_multiplier == "x4"
        results.append(ResultLine("koudi_x4" if x4 else "koudi", last, out.kitty_points))
    else:  # 保底: the kitty's points are not the attackers'
        results.append(ResultLine("baodi", last, points_of(state.rest, POINTS)))
    if out.leveling is not None:
        results += [ResultLine("level_up", s, out.levels) for s in side_seats(out.leveling)]
    if out.blood:
        results.append(ResultLine("blood", out.next_dealer, out.blood))
    if out.match_winner is not None:
        results += [ResultLine("match_won", s, 1) for s in side_seats(out.match_winner)]
    # levels and blood (paiju.results.LevelsAndBlood): no payment, no finishing order
    return HandEnded(
        hand_no=state.hand_no, order=(), lines=(), scores=(0,) * n, results=tuple(results)
    )


def match_after_hand(state: DabangState) -> Changes:
    """Levels (``climb``: "逢3必打,逢10必打"), the blood owed and the next dealer. A hand dealt
    again changes none of them."""
    if state.phase == "redeal":
        return {"redeals": state.redeals + 1}
    out = outcome(state)
    levels = list(state.levels)
    if out.leveling is not None and out.match_winner is None:
        dealer_side = state.dealer is not None and out.leveling == side_of(state.dealer)
        stops = MUST_PLAY[state.config.options.must_play]
        levels[out.leveling] = climb(levels[out.leveling], out.levels, dealer_side, stops)
    return {
        "levels": tuple(levels),
        "dealer": out.next_dealer,
        "blood": out.blood,
        "match_winner": out.match_winner,
    }
