"""关牌 Guanpai's combinations: what a selection of cards can be under a table's options
(``classify_cards``), and the order of the bombs (``bomb_power``: three aces above or below four of
a kind).

The classifier answers ``decide`` about a selection; the move generator
(``paiju.games.guanpai_moves``) builds the same plays from a hand's rank counts, and
tests/engine/test_guanpai_generation.py checks the two agree against a brute force.

>>> from paiju.cards import parse_cards
>>> from paiju.games.guanpai_catalogue import VARIANT_OPTIONS
>>> [c.kind for c in classify_cards(VARIANT_OPTIONS["boke"], parse_cards("3S 4H 5S 6D 7C"))]
['straight']
>>> [(c.kind, c.key) for c in classify_cards(VARIANT_OPTIONS["mainstream"], parse_cards("AS AH AC 3D"))]
[('bomb', 43)]
"""

from __future__ import annotations

from paiju.cards import Hand, card_codes, rank_counts
from paiju.climbing import Combo
from paiju.errors import RuleError
from paiju.games.guanpai_catalogue import GuanpaiOptions
from paiju.rank_patterns import windows

ACE, TWO = 11, 12
PLAIN_ORDER: tuple[int, ...] = tuple(range(12))  # 3 .. A: 2 never enters a run
LOW_ACE_ORDER: tuple[int, ...] = (ACE, TWO, *range(12))  # A(1) 2 3 .. K A (苏州 "从1（A）-A")

Pattern = tuple[tuple[int, int], ...]


def bomb_power(options: GuanpaiOptions, rank: int, cards: int) -> int:
    """The comparison key of a bomb: AAA (with or without its kicker) above or below four of a kind."""
    is_aaa = rank == ACE and (
        (cards == 3 and aaa_bare(options)) or (cards == 4 and aaa_kicked(options))
    )
    if is_aaa:
        return (2 if options.bomb_order == "aaa_top" else 0) * 16 + rank
    return 16 + rank


def aaa_bare(options: GuanpaiOptions) -> bool:
    """Three aces alone are a bomb."""
    return options.aaa_bomb in ("bare", "either")


def aaa_kicked(options: GuanpaiOptions) -> bool:
    """Three aces and one card are a bomb."""
    return options.aaa_bomb in ("with_kicker", "either")


def classify_cards(options: GuanpaiOptions, cards: Hand, last_hand: bool = False) -> list[Combo]:
    """Every combination ``cards`` can be, the preferred first (best key first within a kind).

    ``last_hand``: the cards are the player's whole remaining hand (三带一, 三条 as 三带二).

    Raises:
        RuleError: ``trio_single_not_last`` for a 三带一 that is not a last hand.
    """
    o = options
    n = len(cards)
    counts = rank_counts(cards)
    ranks = [r for r in range(13) if counts[r]]
    shape = sorted((counts[r] for r in ranks), reverse=True)
    main = max(ranks, key=lambda r: (counts[r], r)) if ranks else -1
    found: list[Combo] = []
    if n == 1:
        found.append(Combo("single", main, 1))
    elif shape == [2]:
        found.append(Combo("pair", main, 2))
    elif shape == [3]:
        if main == ACE and aaa_bare(o):
            found.append(Combo("bomb", bomb_power(o, ACE, 3), 3))
        else:
            found.append(Combo("triple", main, 3))
            if last_hand and o.last_triple_as_trio_pair:
                found.append(Combo("trio_pair", main, 5))
    elif shape == [4]:
        if o.quad_bomb in ("bare", "either"):
            found.append(Combo("bomb", bomb_power(o, main, 4), 4))
    elif shape == [3, 1]:
        if main == ACE and aaa_kicked(o):
            found.append(Combo("bomb", bomb_power(o, ACE, 4), 4))
        elif o.trio_single_last:
            if not last_hand:
                raise RuleError("trio_single_not_last", card_codes(cards))
            found += [Combo("trio_single", main, 4), Combo("trio_pair", main, 5)]
    elif shape == [4, 1] and o.quad_bomb in ("with_kicker", "either"):
        found.append(Combo("bomb", bomb_power(o, main, 5), 5))
    elif n == 5 and shape[0] == 3 and (shape == [3, 2] or o.trio_pair_kickers == "any"):
        found.append(Combo("trio_pair", main, 5))
    elif n == 6 and shape[0] == 4 and o.four_two:  # 两张单牌或一个对子: trio_pair_kickers aside
        found.append(Combo("four_two", main, 6))
    if shape and shape[0] == 1 and n >= o.straight_min:
        order = LOW_ACE_ORDER if o.straight_low_ace else PLAIN_ORDER
        top = _run_top(order, ranks)
        if top is not None:
            found.append(Combo("straight", top, n))
    if n == len(LOW_ACE_ORDER) and _whole_range(o, counts):
        found.append(Combo("straight", n - 1, n))
    for kind, width, minimum in (
        ("pair_run", 2, o.pair_run_min),
        ("triple_run", 3, o.triple_run_min),
    ):
        if minimum and shape and shape[0] == shape[-1] == width and len(ranks) >= minimum:
            top = _run_top(PLAIN_ORDER, ranks)
            if top is not None:
                found.append(Combo(kind, top, n))
    for k in o.plane_wings:
        if n == 5 * k:
            tops = sorted(
                (
                    body[-1]
                    for body in windows(counts, PLAIN_ORDER, 3, k)
                    if _wings_ok(o, counts, body)
                ),
                reverse=True,
            )
            found += [Combo("plane_wings", top, n) for top in tops]
    return found


def _whole_range(o: GuanpaiOptions, counts: list[int]) -> bool:
    """The cards are the straight A 2 3 … K A, where the table plays it (``straight_ace_twice``)."""
    return (
        o.straight_low_ace
        and o.straight_ace_twice
        and counts[ACE] == 2
        and all(counts[r] == 1 for r in range(13) if r != ACE)
    )


def _wings_ok(o: GuanpaiOptions, counts: list[int], body: tuple[int, ...]) -> bool:
    if any(counts[r] != 3 for r in body):
        return False
    # pair kickers: one pair each, of distinct ranks (as the play generator makes them)
    return o.trio_pair_kickers == "any" or all(
        c in (0, 2) for r, c in enumerate(counts) if r not in body
    )


def _run_top(order: tuple[int, ...], ranks: list[int]) -> int | None:
    """If ``ranks`` (distinct) are consecutive in ``order``: the position of the top one."""
    want = set(ranks)
    n = len(ranks)
    for start in range(len(order) - n + 1):
        window = order[start : start + n]
        if len(set(window)) == n and set(window) == want:
            return start + n - 1  # a position in the order (in PLAIN_ORDER, also the rank)
    return None
