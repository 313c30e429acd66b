"""板子炮 Banzipao's combinations, functions of the cards alone: what a selection is
(``combo_of``), what beats what (``beats``: by tier, then length and rank), every play a hand can
make (``generate``) and the 天牌 that win at the deal (``tianpai_of``: 十三烂 and 滚龙). Kept apart
from the game's flow (``paiju.games.banzipao``: the auction, the rounds) and its settlement
(``paiju.games.banzipao_scoring``).

>>> from paiju.cards import parse_cards
>>> [combo_of(parse_cards(t)).kind for t in ("6S", "KS KH", "3S 4S 5H", "QS QH QC")]
['single', 'pair', 'straight', 'bomb']
>>> [combo_of(parse_cards(t)).kind for t in ("7S 7H 8S 8H 9S 9H", "4S 4H 4C 4D", "6S 6H 6C 7S 7H 7C 8S 8H 8C")]
['banzipao', 'dou', 'guntong']
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cards import Card, Hand, rank_counts
from paiju.climbing import Candidate, Combo
from paiju.rank_patterns import group_by_rank, take, windows

TWO = 12  # the notation's rank of 2, the highest; no run contains it

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


def may_beat(kind: str, lead: Combo | None) -> bool:
    """Whether some play of ``kind`` may be played on ``lead`` (None: leading): one of the lead's
    kind or of a higher tier (``beats`` then compares them)."""
    return lead is None or kind == lead.kind or TIER[kind] > TIER[lead.kind]


def generate(hand: Hand, lead: Combo | None) -> list[Candidate]:
    """One play for every rank pattern in ``hand`` that may lead (``lead`` None) or beats it. The
    kinds that cannot beat the lead are never looked for (a single on the table: no pair, no
    straight), nor the sets of the lead's kind at or below its rank (a set beats its kind by rank
    alone)."""
    counts = rank_counts(hand)
    groups = group_by_rank(hand)
    patterns: list[tuple[tuple[tuple[int, int], ...], Combo]] = []
    for width, kind in SETS.items():
        if not may_beat(kind, lead):
            continue
        low = lead.key + 1 if lead is not None and lead.kind == kind else 0
        patterns += [
            (((r, width),), Combo(kind, r, width)) for r in range(low, 13) if counts[r] >= width
        ]
    for width, kind in RUNS.items():
        if not may_beat(kind, lead):
            continue
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
