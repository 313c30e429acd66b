"""板子炮 Banzipao's settlement: what the end of a hand pays — 包 and 反包 (the fighter out first
wins), two against two (双飞, else the side that captured more cards), the 附加分 of a 豆 or a
滚筒 that wins its round, and a 天牌 won at the deal. Functions of the finishing order, the sides
and the captures; the game's flow (``paiju.games.banzipao``) decides when a hand ends and who
captured what, and calls these.

>>> [(line.reason, line.payer, line.payee, line.amount) for line in bao_lines(2, 2, (0, 1, 3))]
[('bao_win', 0, 2, 3), ('bao_win', 1, 2, 3), ('bao_win', 3, 2, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.climbing import Combo
from paiju.games.banzipao_combos import TWO
from paiju.protocol import ScoreLine

# 附加分: what each other player pays the capturer of a round won by a big combination.
BONUS_PER_HEAD: dict[tuple[str, bool], tuple[str, int]] = {
    ("dou", False): ("dou", 1),  # "豆附加+3分给得牌者(其他每人-1分)"
    ("dou", True): ("dou_twos", 2),  # "四个二2222附加+6分(其他每人-2分)"
    ("guntong", False): ("guntong", 3),  # "滚筒附加+9分(其他每人-3分)"
}

# 天牌: what each other player pays the winner.
TIANPAI_PER_HEAD: dict[str, int] = {"gunlong": 12, "shisanlan": 6}


def pay_each(reason: str, payers: Sequence[int], payee: int, amount: int) -> list[ScoreLine]:
    """Each of ``payers`` pays ``payee`` ``amount``."""
    return [ScoreLine(reason, p, payee, amount) for p in payers]


def paired(
    reason: str, winners: Sequence[int], losers: Sequence[int], amount: int
) -> list[ScoreLine]:
    """Each loser pays one winner (sides of two against two)."""
    return [ScoreLine(reason, loser, w, amount) for w, loser in zip(winners, losers, strict=True)]


def tianpai_lines(winner: int, kind: str, players: int) -> list[ScoreLine]:
    """A 天牌 (``kind``: ``gunlong`` or ``shisanlan``) won at the deal: every other player pays."""
    others = [s for s in range(players) if s != winner]
    return pay_each(kind, others, winner, TIANPAI_PER_HEAD[kind])


def bonus_lines(combo: Combo, seat: int, payers: Sequence[int]) -> list[ScoreLine]:
    """The 附加分 ``payers`` pay ``seat`` for a round won with ``combo`` on top (none for a
    combination that earns none)."""
    found = BONUS_PER_HEAD.get((combo.kind, combo.kind == "dou" and combo.key == TWO))
    if found is None:
        return []
    reason, amount = found
    return pay_each(reason, payers, seat, amount)


def bao_lines(first_out: int, bao: int, others: Sequence[int]) -> list[ScoreLine]:
    """a: "包牌者+9分，其他每人-3分…否则需付其他每人3分"."""
    if first_out == bao:
        return pay_each("bao_win", others, bao, 3)
    return [ScoreLine("bao_lose", bao, s, 3) for s in others]


def fanbao_lines(first_out: int, bao: int, fanbao: int) -> list[ScoreLine]:
    """b: "反包失败…-18分，包牌者+18分，反包成功则反包者+9分，包牌者-9分"."""
    if first_out == bao:
        return [ScoreLine("fanbao_fail", fanbao, bao, 18)]
    return [ScoreLine("fanbao_win", bao, fanbao, 9)]


def settled_captures(captured: Sequence[int], out: Sequence[int]) -> tuple[int, ...]:
    """c(2): "最后出完牌者手中未打出的牌作废…并且他之前的所得牌全部拿给最先出完牌的人"."""
    settled = list(captured)
    last = [s for s in range(len(captured)) if s not in out]
    if len(last) == 1 and out:
        settled[out[0]] += settled[last[0]]
        settled[last[0]] = 0
    return tuple(settled)


def two_against_two_lines(
    out: Sequence[int], captured: Sequence[int], a: tuple[int, ...], b: tuple[int, ...]
) -> list[ScoreLine]:
    """Two against two, sides ``a`` and ``b``: each loser pays one winner, each side in finishing
    order — 2 for 双飞, else 1 to the side that captured more (``captured``: each seat's cards,
    before the last player's are handed on)."""
    order = (*out, *(s for s in range(len(captured)) if s not in out))
    first = out[0]
    if len(out) == 2:  # c(1) 双飞: "某方两家都出完牌而另外两家均没出完"
        won, lost = (a, b) if first in a else (b, a)
        reason = "shuangfei"
    else:  # c(2): more captured cards; "如果双方得牌和相同，则最先跑完手中牌者与其朋友判胜"
        settled = settled_captures(captured, out)
        total_a, total_b = sum(settled[s] for s in a), sum(settled[s] for s in b)
        a_wins = total_a > total_b or (total_a == total_b and first in a)
        won, lost = (a, b) if a_wins else (b, a)
        reason = "more_cards"
    winners, losers = sorted(won, key=order.index), sorted(lost, key=order.index)
    return paired(reason, winners, losers, 2 if reason == "shuangfei" else 1)
