"""The Beihai Big-Two family (seed 002): what 大北 Dabei and 条数 Tiaoshu share — one 52-card
deck dealt 13 each to four seats, one card order (♠3 highest, ♦4 lowest), the plays of 1, 2, 3 or
5 cards (the five-card 扑子) and how they compare, and the generation of every legal play.

The games differ only in who leads, who is with whom and how a hand is scored; ``dabei.py`` and
``tiaoshu.py`` hold that. docs/rules/dabei.md and docs/rules/tiaoshu.md quote the phrase behind
each choice made here.

Suits matter (they break ties), so plays are concrete cards, not rank patterns. Comparison keys
compare within a kind and share one scale, 0..51, so that a bot can weigh plays of different kinds:
a card's *power* is ``place_of_rank * 4 + suit_strength``, with ranks in the game's order
4 < 5 < … < A < 2 < 3 (place 0..12) and suits ♦ < ♣ < ♥ < ♠ (strength 0..3). A play compared by one
card (a single, a pair, a straight, a flush) has that card's power as its key; one compared by a
rank alone (a triple, 葫芦, 铁枝) has ``place * 4``:

>>> from paiju.cards import parse_card, parse_cards
>>> power(parse_card("4D")), power(parse_card("3S"))
(0, 51)
>>> rules = BeihaiRules()
>>> [combo_of(rules, parse_cards(t)).kind for t in ("2S 3S 4S 5S 6S", "3D 4C 5H 6S 7S")]
['straight_flush', 'straight']
>>> combo_of(rules, parse_cards("JS QS KS AS 2S")).kind  # runs past A are no straight: a flush
'flush'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, ClassVar, Literal, TypeVar

from paiju.cards import RANKS, Card, Hand, build_deck, parse_card
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.errors import register_messages
from paiju.rank_patterns import group_by_rank
from paiju.table import Config, OptionLabel
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Words, merged

FOUR_D: Card = parse_card("4D")  # the lowest card: its holder leads the first hand
SPADE_THREE: Card = parse_card("3S")  # the highest card
SPADE_ACE: Card = parse_card("AS")

# The place of each notation rank (3 4 5 … K A 2 = 0..12) in the game's order 4 < … < A < 2 < 3.
PLACE: tuple[int, ...] = tuple((r - 1) % 13 for r in range(13))
# A card's power: place of its rank, then suit (♠ strongest). The key of singles and of every
# play compared by one card.
POWER: tuple[int, ...] = tuple(PLACE[c >> 2] * 4 + 3 - (c & 3) for c in range(52))
# The suit-first reading of the single order: every ♠ above every ♥, and so on.
SUIT_FIRST_POWER: tuple[int, ...] = tuple((3 - (c & 3)) * 13 + PLACE[c >> 2] for c in range(52))

# 2e: "有且只有以下类型顺子" — the only nine straights, smallest first. Each is written in the
# text's order; its last card is its top card ("以最后一张牌比顺子大小").
STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANKS.index(ch) for ch in run)
    for run in ("23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA")
)
_STRAIGHT_MASKS: frozenset[int] = frozenset(sum(1 << r for r in run) for run in STRAIGHTS)

# 2f: 同花顺 > 铁枝 > 葫芦 > 同花 > 顺子. Five-card plays of different kinds compare by this order.
FIVE_KINDS: tuple[str, ...] = ("straight", "flush", "full_house", "four_kind", "straight_flush")
FIVE_ORDER: dict[str, int] = {kind: i for i, kind in enumerate(FIVE_KINDS)}


def power(card: Card) -> int:
    """A card's strength in the game's order (rank first, then suit): ♦4 is 0, ♠3 is 51."""
    return POWER[card]


@dataclass(frozen=True, slots=True)
class BeihaiRules:
    """The readings of the shared rule text a table may choose (both games inherit these).

    single_order: ``rank_first`` — rank decides, suit breaks ties (♥3 beats ♠2, as in 锄大地);
        ``suit_first`` — the per-suit listing read literally (every ♠ above every ♥: ♠4 beats ♥3).
    pair_suit_tiebreak: two pairs of one rank compare by their higher suit (♠5♦5 beats ♥5♣5);
        False: pairs of one rank are equal and cannot beat each other.
    bare_four: a house rule, not in the text — four of a kind may be played as a four-card play
        (beaten only by a higher four). The text allows plays of "单张，双张，三张或五张" only, so it
        stays off by default.
    """

    single_order: Literal["rank_first", "suit_first"] = "rank_first"
    pair_suit_tiebreak: bool = True
    bare_four: bool = False


# the lobby's names of the shared options (each game adds its own)
OPTION_LABELS: dict[str, OptionLabel] = {
    "single_order": OptionLabel(
        "单张比较",
        "Single cards compare",
        {
            "rank_first": ("单张先比点数再比花色", "singles by rank, then by suit"),
            "suit_first": ("单张先比花色（♠全大于♥…）", "singles by suit first (every ♠ above ♥…)"),
        },
    ),
    "pair_suit_tiebreak": OptionLabel("同点对子比花色", "Pairs of one rank compare by suit"),
    "bare_four": OptionLabel(
        "（非原文房规）四张同点可单出",
        "House rule (not in the text): four of a kind may be played alone",
    ),
}

# --- the words both Beihai games share (paiju.words): the five-card plays and the four, beside the
# climbing core's; imported here so that the block stands on its own

WORDS = merged(
    CORE_WORDS,
    CLIMBING_WORDS,
    Words(
        kinds={
            "quad": ("四条", "four of a kind"),
            "flush": ("同花", "flush"),
            "full_house": ("葫芦", "full house"),
            "four_kind": ("铁枝", "four of a kind + 1"),
            "straight_flush": ("同花顺", "straight flush"),
        },
    ),
)
register_messages(WORDS.errors)


def combo_of(rules: BeihaiRules, cards: Hand) -> Combo | None:
    """What ``cards`` (sorted, distinct) are in these games, or None if they are no play.

    Keys compare within a kind; five-card kinds compare by ``FIVE_ORDER`` first (see ``beats``).
    """
    n = len(cards)
    if n == 0:
        return None
    if n == 1:
        card = cards[0]
        key = SUIT_FIRST_POWER[card] if rules.single_order == "suit_first" else POWER[card]
        return Combo("single", key, 1)
    rank = cards[0] >> 2
    same_rank = all(c >> 2 == rank for c in cards)
    if n == 2 and same_rank:
        return Combo("pair", _pair_key(rules, min(cards)), 2)  # the lowest int: the strongest suit
    if n == 3 and same_rank:
        return Combo("triple", PLACE[rank] * 4, 3)
    if n == 4 and same_rank and rules.bare_four:
        return Combo("quad", PLACE[rank] * 4, 4)
    if n == 5:
        return _five_of(cards)
    return None


def _pair_key(rules: BeihaiRules, strongest: Card) -> int:
    return POWER[strongest] if rules.pair_suit_tiebreak else PLACE[strongest >> 2] * 4


def _five_of(cards: Hand) -> Combo | None:
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    if len(counts) == 2:
        main = max(counts, key=counts.__getitem__)
        kind = "four_kind" if counts[main] == 4 else "full_house"
        return Combo(kind, PLACE[main] * 4, 5)
    if len(counts) < 5:
        return None
    flush = len({c & 3 for c in cards}) == 1
    mask = sum(1 << r for r in counts)
    if mask in _STRAIGHT_MASKS:
        top = _straight_top(cards)
        return Combo("straight_flush" if flush else "straight", POWER[top], 5)
    if flush:
        return Combo("flush", max(POWER[c] for c in cards), 5)
    return None


def _straight_top(cards: Hand) -> Card:
    """The top card of a straight: the last in the text's writing of it (the 6 of 23456)."""
    ranks = {c >> 2 for c in cards}
    run = next(run for run in STRAIGHTS if set(run) == ranks)
    return next(c for c in cards if c >> 2 == run[-1])


def beats(combo: Combo, lead: Combo) -> bool:
    """Whether ``combo`` may be played on ``lead``: as many cards, and higher."""
    if combo.size != lead.size:
        return False
    if combo.size == 5:
        return (FIVE_ORDER[combo.kind], combo.key) > (FIVE_ORDER[lead.kind], lead.key)
    return combo.kind == lead.kind and combo.key > lead.key


# --- play generation -------------------------------------------------------------------------------


def generate(rules: BeihaiRules, hand: Hand, lead: Combo | None) -> list[Candidate]:
    """Every play in ``hand`` that may be led (``lead`` None) or beats ``lead``: following, only
    plays of the lead's size are made, and five-card kinds below the lead's are skipped."""
    groups = group_by_rank(hand)
    size = lead.size if lead is not None else 0
    floor = lead.key if lead is not None else -1
    found: list[Candidate] = []
    if size in (0, 1):
        table = SUIT_FIRST_POWER if rules.single_order == "suit_first" else POWER
        found += [((c,), Combo("single", table[c], 1)) for c in hand if table[c] > floor]
    if size in (0, 2):
        for group in groups[:13]:
            if len(group) >= 2:
                for pair in combinations(group, 2):
                    key = _pair_key(rules, pair[0])
                    if key > floor:
                        found.append((pair, Combo("pair", key, 2)))
    if size in (0, 3):
        for rank, group in enumerate(groups[:13]):
            key = PLACE[rank] * 4
            if len(group) >= 3 and key > floor:
                found += [(t, Combo("triple", key, 3)) for t in combinations(group, 3)]
    if size in (0, 4) and rules.bare_four:
        for rank, group in enumerate(groups[:13]):
            key = PLACE[rank] * 4
            if len(group) == 4 and key > floor:
                found.append((tuple(group), Combo("quad", key, 4)))
    if size in (0, 5) and len(hand) >= 5:
        if lead is None:
            found += _fives(hand, groups, 0)
        else:
            found += (
                (cards, combo)
                for cards, combo in _fives(hand, groups, FIVE_ORDER[lead.kind])
                if beats(combo, lead)
            )
    return found


def _fives(hand: Hand, groups: list[list[Card]], lowest_kind: int) -> Iterator[Candidate]:
    """Every five-card play of kind ``lowest_kind`` (in ``FIVE_ORDER``) or above."""
    # straights and straight flushes
    for run in STRAIGHTS:
        if all(groups[r] for r in run):
            for picked in product(*(groups[r] for r in run)):
                flush = len({c & 3 for c in picked}) == 1
                if flush or lowest_kind == 0:
                    kind = "straight_flush" if flush else "straight"
                    yield tuple(sorted(picked)), Combo(kind, POWER[picked[-1]], 5)
    rich = [(r, g) for r, g in enumerate(groups[:13]) if len(g) >= 2]
    # 铁枝: four of a kind and any fifth card
    if lowest_kind <= FIVE_ORDER["four_kind"]:
        for rank, group in rich:
            if len(group) == 4:
                combo = Combo("four_kind", PLACE[rank] * 4, 5)
                for kicker in hand:
                    if kicker >> 2 != rank:
                        yield tuple(sorted((*group, kicker))), combo
    # 葫芦: three of a kind and a pair
    if lowest_kind <= FIVE_ORDER["full_house"]:
        for rank, group in rich:
            if len(group) >= 3:
                combo = Combo("full_house", PLACE[rank] * 4, 5)
                for trio in combinations(group, 3):
                    for other, pairs in rich:
                        if other != rank:
                            for pair in combinations(pairs, 2):
                                yield tuple(sorted(trio + pair)), combo
    # 同花 that are not straights (those were made above as straight flushes)
    if lowest_kind <= FIVE_ORDER["flush"]:
        for suit in range(4):
            same = [c for c in hand if c & 3 == suit]
            if len(same) >= 5:
                for five in combinations(same, 5):
                    if sum(1 << (c >> 2) for c in five) not in _STRAIGHT_MASKS:
                        yield five, Combo("flush", max(POWER[c] for c in five), 5)


# --- the game skeleton both games share --------------------------------------------------------------

S = TypeVar("S", bound=ClimbState)


class BeihaiGame(ClimbingGame[S]):
    """A Beihai game: the 52-card deal, the combinations and their generation. Subclasses add who
    leads (``first_turn``), constraints (``check_play``), the end of a hand and its score."""

    options_type: ClassVar[type[BeihaiRules]] = BeihaiRules
    option_labels = OPTION_LABELS
    words = WORDS

    def variant_options(self, variant: str) -> Any:
        return self.options_type()

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck()

    def hand_size(self, config: Config[Any]) -> int:
        return 13

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        combo = combo_of(config.options, cards)
        return [] if combo is None else [combo]

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return beats(combo, lead)

    def generate_plays(self, state: S, seat: int) -> list[Candidate]:
        return generate(state.config.options, state.hands[seat], state.lead)


__all__ = [
    "FIVE_KINDS",
    "FIVE_ORDER",
    "FOUR_D",
    "POWER",
    "SPADE_ACE",
    "SPADE_THREE",
    "STRAIGHTS",
    "BeihaiGame",
    "BeihaiRules",
    "beats",
    "combo_of",
    "generate",
    "power",
]
