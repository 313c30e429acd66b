"""The rules of a trick, apart from any table: the card order with trumps and a level rank, what a
lead may be, how the others must follow, which play wins, the points a trick captures, and the
plays to offer: pure functions over cards and two small records of data, which a test or a game's
card helpers (``games/dabang_cards``) use without a table; ``paiju.tricks`` plugs them into
``TableGame``.

Everything a rule text varies is data:

- ``TrumpOrder(suit, level, fixed)``: the card order. Jokers on top (big over small), then the
  level cards (the trump suit's above the others, which are equal among themselves), then each
  rank that is always trump (常主: 打棒's 2s) in the same way, then the rest of the trump suit by
  rank; every other card belongs to its own side suit and is ranked by its rank there. Every trump
  is of one *effective suit*, ``TRUMP``.
- ``FollowRules``: the lead shapes (a kind → the sizes of its units of identical cards: a single
  ``(1,)``, a pair ``(2,)``) and, for each, the order of substitutes a follower must play when he
  has enough cards of the led suit (the first one his hand can make is required), and whether a
  substitute may only be drawn from groups of exactly its size (死棒: a player without a 棒 need
  not break a 三联 to answer one).
- a game's point values per rank.

The follow rule is the one of every trick game (cf. rbtying/shengji's ``TrickFormat``): a player
who holds at least as many cards of the led suit as were led plays only that suit, in the first
shape of the substitute order his hand can make; with fewer, he plays all of them and anything
else. A play wins the trick when it is of the led kind (the same units) in the led suit or in
trumps and ranks strictly above the play on top: of equal cards the first played stays on top.

>>> from paiju.cards import format_cards, parse_cards
>>> order = TrumpOrder(suit=1, level=0, fixed=(12,))  # hearts trump, level 3, 2s always trump
>>> [format_cards(sorted(parse_cards(t), key=order.strength)) for t in ["AH 3S 2H 3H 2S BJ"]]
['AH 2S 2H 3S 3H BJ']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from paiju.cards import BIG_JOKER, SMALL_JOKER, Card, Hand, remove_cards

TRUMP = 4  # the effective suit of every trump
NO_KEY = -1  # the key of a play that cannot win the trick
FOLLOW = "follow"  # the kind of a play that is not of the led kind (it follows, trumps short or discards)


@dataclass(frozen=True, slots=True)
class TrumpOrder:
    """The order of the cards in a hand with trumps: ``suit`` the trump suit (None: no trump
    suit), ``level`` the level rank (None: none), ``fixed`` the ranks that are always trump,
    strongest first (常主)."""

    suit: int | None
    level: int | None
    fixed: tuple[int, ...] = ()

    def strength(self, card: Card) -> int:
        """The card's place in the order: trumps above 100, a side suit's cards by rank."""
        return _tables(self.suit, self.level, self.fixed)[1][card]

    def suit_of(self, card: Card) -> int:
        """The card's effective suit: ``TRUMP`` for a trump, else its suit."""
        return _tables(self.suit, self.level, self.fixed)[0][card]

    def is_trump(self, card: Card) -> bool:
        return self.suit_of(card) == TRUMP

    def tables(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(effective suit, strength) of every card code, indexed by the code (the hot path)."""
        return _tables(self.suit, self.level, self.fixed)


@lru_cache(maxsize=256)
def _tables(
    suit: int | None, level: int | None, fixed: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    size = BIG_JOKER + 1
    suits = [0] * size
    strengths = [0] * size
    tiers: list[list[Card]] = [[BIG_JOKER], [SMALL_JOKER]]
    special = [r for r in (level, *fixed) if r is not None]
    for rank in dict.fromkeys(special):  # the level first, then the fixed ranks; each once
        own = [rank * 4 + suit] if suit is not None else []
        tiers += [own, [rank * 4 + s for s in range(4) if s != suit]]
    if suit is not None:
        tiers += [[r * 4 + suit] for r in range(12, -1, -1) if r not in special]
    top = 100 + len(tiers)
    for i, tier in enumerate(tiers):
        for card in tier:
            suits[card] = TRUMP
            strengths[card] = top - i
    for card in range(52):
        if suits[card] != TRUMP:
            suits[card] = card & 3
            strengths[card] = card >> 2
    return tuple(suits), tuple(strengths)


@dataclass(frozen=True, slots=True)
class FollowRules:
    """What a lead may be and how it is followed.

    leads: lead kind → its units, sizes of groups of identical cards, largest first.
    substitutes: lead kind → the shapes a follower holding enough of the led suit must play, in
        order (the first his hand can make is required; the last is usually all singles).
    exact: lead kinds whose substitutes draw only on groups of exactly their size (死棒: "没棒有
        三联、四联时可以不出").
    """

    leads: Mapping[str, tuple[int, ...]]
    substitutes: Mapping[str, tuple[tuple[int, ...], ...]]
    exact: frozenset[str] = field(default_factory=frozenset)

    def kind_of(self, units: tuple[int, ...]) -> str | None:
        for kind, shape in self.leads.items():
            if shape == units:
                return kind
        return None


def counts_of(cards: Iterable[Card]) -> dict[Card, int]:
    """How many of each card, in the order first seen: what ``collections.Counter`` counts,
    without its generic set-up (a check of the argument's type, a method call), which costs more
    than counting the few cards of a play. A trick game's decisions call this most."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def units_of(cards: Iterable[Card]) -> tuple[int, ...]:
    """The sizes of the groups of identical cards, largest first."""
    return tuple(sorted(counts_of(cards).values(), reverse=True))


def can_make(shape: Sequence[int], groups: Sequence[int], exact: bool = False) -> bool:
    """Whether groups of identical cards (their sizes) hold ``shape``: each unit of two or more
    from a group of its own at least as large (``exact``: exactly as large); singles from any card
    left over."""
    free = sum(groups)
    if free < sum(shape):
        return False
    pool = sorted(groups, reverse=True)
    for unit in sorted(shape, reverse=True):
        if unit == 1:
            break
        fit = [g for g in pool if (g == unit if exact else g >= unit)]
        if not fit:
            return False
        pool.remove(fit[-1] if not exact else unit)  # the smallest group that fits
    return True


def lead_of(rules: FollowRules, order: TrumpOrder, cards: Sequence[Card]) -> tuple[str, int] | None:
    """(kind, effective suit) of a lead, or None when the cards are no lead (mixed suits, a shape
    that is not a lead kind)."""
    if not cards:
        return None
    suits, _ = order.tables()
    suit = suits[cards[0]]
    if any(suits[c] != suit for c in cards):
        return None
    kind = rules.kind_of(units_of(cards))
    return None if kind is None else (kind, suit)


def follow_error(
    rules: FollowRules,
    order: TrumpOrder,
    kind: str,
    suit: int,
    hand: Sequence[Card],
    cards: Sequence[Card],
) -> str | None:
    """Why ``cards`` may not follow a lead of ``kind`` in effective ``suit`` from ``hand`` (an error
    code), or None when they may. ``cards`` are in ``hand``."""
    size = sum(rules.leads[kind])
    if len(cards) != size:
        return "wrong_number_of_cards"
    suits, _ = order.tables()
    held = [c for c in hand if suits[c] == suit]
    played = [c for c in cards if suits[c] == suit]
    if len(played) < min(size, len(held)):
        return "must_follow_suit"
    if len(held) < size:
        return None  # all of the suit, and anything else
    shape = required_shape(rules, kind, held)
    if shape is None or can_make(shape, list(counts_of(played).values())):
        return None
    return "must_follow_shape"


def required_shape(rules: FollowRules, kind: str, held: Sequence[Card]) -> tuple[int, ...] | None:
    """The first substitute for a lead of ``kind`` that the cards ``held`` of the led suit can make
    (what a follower must play), or None when none can (any cards of the suit will do). A play
    that makes an earlier substitute makes this one too: the substitutes go from the led shape
    down."""
    groups = list(counts_of(held).values())
    exact = kind in rules.exact
    for shape in rules.substitutes[kind]:
        if can_make(shape, groups, exact):
            return shape
    return None


def play_key(
    rules: FollowRules, order: TrumpOrder, kind: str, suit: int, cards: Sequence[Card]
) -> int:
    """How a play ranks in a trick led with ``kind`` in ``suit``: the strength of its top card
    when it is of the led kind in the led suit or in trumps, else ``NO_KEY``."""
    suits, strengths = order.tables()
    own = suits[cards[0]]
    if (own != suit and own != TRUMP) or any(suits[c] != own for c in cards):
        return NO_KEY
    if units_of(cards) != rules.leads[kind]:
        return NO_KEY
    return max(strengths[c] for c in cards)  # a trump (above 100) beats every side-suit card


def trick_winner(
    rules: FollowRules, order: TrumpOrder, plays: Sequence[tuple[int, Hand]]
) -> tuple[int, int]:
    """(seat, key) of the winner of a trick, its plays in the order played (the lead first): the
    highest play of the led kind; of equal plays the first stays on top."""
    lead = lead_of(rules, order, plays[0][1])
    if lead is None:
        raise ValueError("the first play of a trick is not a lead")
    kind, suit = lead
    best_seat, best = plays[0][0], play_key(rules, order, kind, suit, plays[0][1])
    for seat, cards in plays[1:]:
        key = play_key(rules, order, kind, suit, cards)
        if key > best:
            best_seat, best = seat, key
    return best_seat, best


def points_of(cards: Iterable[Card], values: Mapping[int, int]) -> int:
    """The points among ``cards``: ``values`` maps a rank to its points."""
    return sum(values.get(c >> 2, 0) for c in cards)


def lead_candidates(rules: FollowRules, order: TrumpOrder, hand: Sequence[Card]) -> list[Hand]:
    """Every distinct lead in ``hand`` (one per card code and lead kind)."""
    counts = counts_of(hand)
    out: list[Hand] = []
    for units in rules.leads.values():
        if len(units) != 1:
            continue  # leads of several units (a tractor) would be generated here
        n = units[0]
        out += [(c,) * n for c in sorted(counts) if counts[c] >= n]
    return out


def follow_candidates(
    rules: FollowRules,
    order: TrumpOrder,
    kind: str,
    suit: int,
    hand: Sequence[Card],
    values: Mapping[int, int],
) -> list[Hand]:
    """Legal follows of a lead to offer: every way of answering in the led suit (each distinct
    multiset), and when the suit runs short the required cards with a few fillers — each trump
    play of the led kind that could win, the lowest cards, and the most points. ``follow_error``
    accepts any legal follow; this lists what a player reasonably chooses among."""
    size = sum(rules.leads[kind])
    suits, strengths = order.tables()
    held = sorted(c for c in hand if suits[c] == suit)
    if len(held) >= size:
        shape = required_shape(rules, kind, held)
        return sorted(
            p
            for p in _multisets(held, size)
            if shape is None or can_make(shape, list(counts_of(p).values()))
        )
    rest = remove_cards(tuple(hand), held) or ()
    need = size - len(held)
    fills: set[Hand] = set()
    if not held and suit != TRUMP:
        units = rules.leads[kind]
        trumps = counts_of(c for c in rest if suits[c] == TRUMP)
        if len(units) == 1:
            fills |= {(c,) * units[0] for c, k in trumps.items() if k >= units[0]}
    by_low = sorted(
        rest, key=lambda c: (values.get(c >> 2, 0) > 0, suits[c] == TRUMP, strengths[c])
    )
    fills.add(tuple(by_low[:need]))
    by_points = sorted(
        rest, key=lambda c: (-values.get(c >> 2, 0), suits[c] == TRUMP, strengths[c])
    )
    fills.add(tuple(by_points[:need]))
    return sorted({tuple(sorted((*held, *f))) for f in fills if len(f) == need})


def _multisets(cards: Sequence[Card], size: int) -> set[Hand]:
    """Every distinct sub-multiset of ``size`` cards (by counts: fast with many copies)."""
    counts = sorted(counts_of(cards).items())
    out: set[Hand] = set()

    def rec(i: int, left: int, acc: tuple[Card, ...]) -> None:
        if left == 0:
            out.add(acc)
            return
        if i == len(counts):
            return
        card, k = counts[i]
        for take in range(min(k, left), -1, -1):
            rec(i + 1, left - take, acc + (card,) * take)

    rec(0, size, ())
    return out


__all__ = [
    "FOLLOW",
    "NO_KEY",
    "TRUMP",
    "FollowRules",
    "TrumpOrder",
    "can_make",
    "follow_candidates",
    "follow_error",
    "lead_candidates",
    "lead_of",
    "play_key",
    "points_of",
    "required_shape",
    "trick_winner",
    "units_of",
]
