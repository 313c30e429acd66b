"""Rank patterns: the shared vocabulary the climbing games (关牌, 板子炮, 大北 and 条数) use to
classify cards and to generate plays fast. Suits rarely matter in these games, so a play is first
found as a rank pattern ``[(rank, count), ...]`` over a hand's rank counts and only then made of
concrete cards (``take``).

Kept apart from the climbing core (``paiju.climbing``): the core runs the trick — plays, passes,
who leads — and never looks at ranks; these helpers are what the games' own generators share.

>>> from paiju.cards import card_codes, parse_cards, rank_counts
>>> hand = parse_cards("3S 3H 4S 4H 5S 5D 9C")
>>> list(windows(rank_counts(hand), range(12), 2, 3))
[(0, 1, 2)]
>>> card_codes(take(group_by_rank(hand), [(0, 2), (1, 2), (2, 2)]))
['3S', '3H', '4S', '4H', '5S', '5D']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paiju.cards import RANK_COUNT, Card, Hand


def group_by_rank(hand: Sequence[Card]) -> list[list[Card]]:
    """The cards of a hand grouped by rank (index = rank)."""
    groups: list[list[Card]] = [[] for _ in range(RANK_COUNT)]
    for c in hand:
        groups[c >> 2].append(c)
    return groups


def take(groups: list[list[Card]], pattern: Sequence[tuple[int, int]]) -> Hand:
    """Concrete cards for a rank pattern ``[(rank, count), ...]``: the first cards of each rank."""
    if len(pattern) == 1:
        rank, count = pattern[0]
        return tuple(groups[rank][:count]) if count == 1 else tuple(sorted(groups[rank][:count]))
    out: list[Card] = []
    for rank, count in pattern:
        out.extend(groups[rank][:count])
    return tuple(sorted(out))


def windows(
    counts: Sequence[int], order: Sequence[int], width: int, length: int
) -> Iterator[tuple[int, ...]]:
    """Every run of ``length`` consecutive positions of ``order`` whose ranks each have at least
    ``width`` cards; yields the ranks of the run (lowest first)."""
    run = 0
    for pos, rank in enumerate(order):
        run = run + 1 if counts[rank] >= width else 0
        if run >= length:
            yield tuple(order[pos - length + 1 : pos + 1])


def kicker_patterns(
    counts: Sequence[int], exclude: Sequence[int], k: int, pairs_only: bool = False
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every choice of ``k`` kicker cards, by rank, from ranks not in ``exclude``.

    Yields tuples of ``(rank, count)``. With ``pairs_only`` the kickers are pairs of one rank each.
    """
    ranks = [r for r in range(RANK_COUNT) if counts[r] and r not in exclude]
    if k == 2 and not pairs_only:  # the common case, without recursion
        for i, rank in enumerate(ranks):
            if counts[rank] >= 2:
                yield ((rank, 2),)
            for other in ranks[i + 1 :]:
                yield ((rank, 1), (other, 1))
        return
    step = 2 if pairs_only else 1

    def rec(i: int, left: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if left == 0:
            yield ()
            return
        if i == len(ranks):
            return
        rank = ranks[i]
        most = min(counts[rank], left)
        if pairs_only:
            most = 2 if most >= 2 else 0
        for take_n in range(most, 0, -step):
            for rest in rec(i + 1, left - take_n):
                yield ((rank, take_n), *rest)
        yield from rec(i + 1, left)

    yield from rec(0, k)
