"""The call in 通山打拱, before play: who deals the first hand (a card turned face up), the
dealer's called card (叫牌) whose other copy names his secret partner, and how strong a hand is
for a bot to declare 明独. Functions of the cards as dealt, apart from the table (``dagong``) that
shows their results and runs the speaking round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from paiju.cards import SMALL_JOKER, Card, Hand

PLAYERS = 4
HAND_SIZE = 27  # "2副扑克牌108张，四人游戏，每家27张牌"


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


def bombs_dealt(hand: Hand) -> int:
    """How strong a hand is for 明独: its ranks held four times or more, its jokers, and one for
    each two 2s (a bot declares from 7)."""
    counts = Counter(c >> 2 for c in hand if c < SMALL_JOKER)
    jokers = sum(1 for c in hand if c >= SMALL_JOKER)
    return sum(1 for r in range(13) if counts[r] >= 4) + jokers + counts[12] // 2


__all__ = ["HAND_SIZE", "PLAYERS", "bombs_dealt", "called_card", "first_dealer", "turned_position"]
