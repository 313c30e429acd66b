"""The cards of 葫芦岛打棒 (seed 003) and the rules of its kitty: the point cards, the order of the
cards in a hand with trumps, and what the kitty's rules ask of the cards — the cards taken back
after burying jokers (扣王换底), 干锅, and the big jokers buried first. Kept apart from the game's
flow (``paiju.games.dabang``), which calls these with the hand's trump suit and level.

>>> from paiju.cards import card_codes, parse_cards
>>> card_codes(takeable(parse_cards("5D 7S 8S AD AS RJ"), trump_order_of(suit=0, level=3)))
['AD', '7S', '8S', 'AS']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from paiju.cards import BIG_JOKER, SMALL_JOKER, Card, Hand
from paiju.trick_rules import TrumpOrder

PLAYERS = 4  # "四个人进行游戏"
TWO = 12  # the notation's rank of 2: always trump (常主)
FIRST_LEVEL = 3  # "第一把从3打起"
KITTY = 8  # "底牌8张"
POINTS: dict[int, int] = {2: 5, 7: 10, 10: 10}  # "分牌：5、10、K" (5, 10, K by rank index)


def level_rank(level: int) -> int:
    """The notation's rank of a level (3 → 0, 10 → 7)."""
    return level - FIRST_LEVEL


def trump_order_of(suit: int | None, level: int) -> TrumpOrder:
    """ "大王>小王>主花色混牌>其他花色混牌>主花色2>其他花色2>主花色牌（混牌除外）>副牌"."""
    return TrumpOrder(suit=suit, level=level_rank(level), fixed=(TWO,))


# --- taking back kitty cards (扣王换底) -------------------------------------------------------------


def lowness(order: TrumpOrder, by: str = "rank") -> Callable[[Card], tuple[bool, int]]:
    """How low a card is when the kitty's lowest are taken back: "最小牌的判定方法为先看是否是主牌，
    然后看点数" — a side card below any trump (the trump suit's cards are trumps like the jokers,
    the 2s and the level cards: "主牌：大王、小王、常主、级牌和主花色牌"), then its 点数: ``by``
    ``rank`` — the rank, 3 < … < A < 2, whatever its place among trumps; ``card_order`` — its
    place in the order of the cards (the trump suit's level card above the others' and above
    the 2s)."""
    if by == "rank":
        return lambda c: (order.is_trump(c), c >> 2)
    return lambda c: (order.is_trump(c), order.strength(c))


def takeable(kitty: Sequence[Card], order: TrumpOrder, by: str = "rank") -> list[Card]:
    """The kitty's cards a player who buried jokers may take back, lowest first: "从底牌中捡最小的
    牌，不能捡分牌" — no point card (nor a joker); "最小牌的判定方法为先看是否是主牌，然后看点数，
    最后看花色" — side cards before trumps, then the 点数 (``lowness``), then ♠ ♥ ♣ ♦."""
    low = lowness(order, by)
    return sorted(
        (c for c in kitty if (c >> 2) not in POINTS and c < SMALL_JOKER),
        key=lambda c: (*low(c), c & 3),
    )


def low_class(kitty: Sequence[Card], order: TrumpOrder, by: str = "rank") -> list[Card]:
    """The lowest takeable cards that rank alike ("点数相同，花色不同"): side cards of one rank, or
    trumps of one rank (``card_order``: of one place in the order — the level cards or the 2s
    outside the trump suit)."""
    pool = takeable(kitty, order, by)
    if not pool:
        return []
    low = lowness(order, by)
    return [c for c in pool if low(c) == low(pool[0])]


def auto_taken(
    kitty: Sequence[Card], order: TrumpOrder, count: int, by: str = "rank"
) -> tuple[Hand, int]:
    """What a player taking back ``count`` cards takes without a choice of his own, and how many
    he still chooses: whole classes of alike cards while all of one are taken, and identical
    copies; he chooses once equally low cards of different suits are more than he still takes
    ("如果点数相同，花色不同，可由用户自己决定要哪张牌")."""
    left = list(kitty)
    taken: list[Card] = []
    while count > 0:
        alike = low_class(left, order, by)
        if not alike:
            break
        if len(alike) > count and len(set(alike)) > 1:
            break
        for c in alike[:count]:
            left.remove(c)
            taken.append(c)
        count -= min(count, len(alike))
    return tuple(taken), count


# --- the kitty's other rules ---------------------------------------------------------------------


def big_jokers_first(hand: Sequence[Card], buried: Sequence[Card]) -> bool:
    """ "扣王时有大王必须先扣大王，没有大王的情况下才能扣小王": a small joker only with every big
    one held."""
    if SMALL_JOKER not in buried:
        return True
    return Counter(buried)[BIG_JOKER] == Counter(hand)[BIG_JOKER]


def is_ganguo(kitty: Sequence[Card], order: TrumpOrder, suit: int, two: str = "apart") -> bool:
    """ "底牌没有主花色牌(混牌除外)或全是主，称为干锅": no card of the trump suit but its level card
    (nor its 2, which the order ranks apart — ``two`` ``apart``; ``trump_suit``: its 2 counts as
    a card of the suit), or trumps only."""
    level = order.level
    apart = (level, TWO) if two == "apart" else (level,)
    plain = [c for c in kitty if c < SMALL_JOKER and c & 3 == suit and c >> 2 not in apart]
    return not plain or all(order.is_trump(c) for c in kitty)
