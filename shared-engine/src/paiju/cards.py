"""Cards and their notation: the vocabulary every other module speaks.

A card is a small int. Ranks are numbered in the notation's order ``3 4 5 6 7 8 9 T J Q K A 2``
(0..12), the small joker is rank 13 and the big joker rank 14; suits ``S H C D`` are 0..3. The
card's int is ``rank * 4 + suit``, so ``rank_of`` and ``suit_of`` are a shift and a mask, and a
sorted tuple of ints is a hand. Hands of several decks are multisets: the same int may occur
more than once. Games that order ranks differently (大北: 3 is highest) map ranks through their
own tables; this module only knows the notation.

Every text form round-trips:

>>> format_cards(parse_cards("10♠ 3h rj"))
'3H TS RJ'
>>> parse_card("BJ") == SMALL_JOKER
True

Codes are for programs; a person reads a card by its name, in the language of the text around it
(``card_name``, ``card_names``): the suit before the rank in Chinese, after it in English, ``10``
for a ten, and the jokers by their names.

>>> card_names(parse_cards("10h as bj rj"), "zh")
'♥10 ♠A 小王 大王'
>>> card_names(parse_cards("10h as bj rj"), "en")
'10♥ A♠ Small Joker Big Joker'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Literal, TypeAlias

from paiju.error_base import NotationError


class CardCode:
    """The marker of a card-valued type: messages encode a ``Card`` field (or a tuple of them) as
    card codes because of its type, whatever the field is called."""

    def __repr__(self) -> str:
        return "CardCode"


CARD_CODE = CardCode()
Card: TypeAlias = Annotated[int, CARD_CODE]
Rank = int
Suit = int
Hand: TypeAlias = tuple[Card, ...]

RANKS = "3456789TJQKA2"
SUITS = "SHCD"
SUIT_SYMBOLS = "♠♥♣♦"
RANK_SMALL_JOKER: Rank = 13
RANK_BIG_JOKER: Rank = 14
RANK_COUNT = 15  # 13 ranks and the two jokers
SMALL_JOKER: Card = RANK_SMALL_JOKER * 4
BIG_JOKER: Card = RANK_BIG_JOKER * 4

_RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
_SUIT_INDEX = {ch: i for i, ch in enumerate(SUITS)} | {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}
_JOKERS = {"BJ": SMALL_JOKER, "RJ": BIG_JOKER}
_CODES = {c: RANKS[c >> 2] + SUITS[c & 3] for c in range(52)} | {
    SMALL_JOKER: "BJ",
    BIG_JOKER: "RJ",
}


def rank_of(card: Card) -> Rank:
    """The rank index of a card (0 is 3, 12 is 2, 13/14 the jokers)."""
    return card >> 2


def suit_of(card: Card) -> Suit:
    """The suit index of a card (0 ♠, 1 ♥, 2 ♣, 3 ♦); jokers report 0."""
    return card & 3


def is_joker(card: Card) -> bool:
    return card >= SMALL_JOKER


def parse_card(text: str) -> Card:
    """Parse one card: ``"TS"``, ``"10♠"``, ``"ts"``, ``"RJ"``, and a card's name as
    ``card_name`` writes it (``"♠10"``, ``"大王"``, ``"Big Joker"``).

    Raises:
        NotationError: the text is not a card.
    """
    code = " ".join(text.split()).upper()
    if code in _JOKERS:
        return _JOKERS[code]
    if code in _JOKER_NAMES:
        return _JOKER_NAMES[code]
    if code[:1] and code[0] in SUIT_SYMBOLS:  # the suit first, as a Chinese name has it: ♠10
        code = code[1:] + code[:1]
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2 or code[0] not in _RANK_INDEX or code[1] not in _SUIT_INDEX:
        raise NotationError(text)
    return _RANK_INDEX[code[0]] * 4 + _SUIT_INDEX[code[1]]


def parse_cards(text: str | Iterable[str]) -> Hand:
    """Parse cards separated by spaces or commas (or an iterable of codes), sorted; names as
    ``card_names`` writes them read back too.

    Raises:
        NotationError: one of the codes is not a card.
    """
    if isinstance(text, str):
        for name, card in _JOKER_NAMES.items():  # the two-word English names, as one code each
            if " " in name:
                text = re.sub(re.escape(name), format_card(card), text, flags=re.IGNORECASE)
    codes = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(sorted(parse_card(code) for code in codes))


def format_card(card: Card) -> str:
    """The canonical code of a card."""
    try:
        return _CODES[card]
    except KeyError:
        raise NotationError(repr(card)) from None


def card_codes(cards: Iterable[Card]) -> list[str]:
    return [format_card(c) for c in cards]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical codes separated by single spaces, in the order given."""
    return " ".join(card_codes(cards))


Lang: TypeAlias = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
JOKER_NAMES: dict[Card, tuple[str, str]] = {
    SMALL_JOKER: ("小王", "Small Joker"),
    BIG_JOKER: ("大王", "Big Joker"),
}


_JOKER_NAMES = {name.upper(): card for card, names in JOKER_NAMES.items() for name in names}


def card_name(card: Card, lang: Lang = "zh") -> str:
    """A card as a player reads it: ``♠A``, ``♥10``, ``大王`` in Chinese; ``A♠``, ``10♥``,
    ``Big Joker`` in English.

    >>> card_name(parse_card("TH")), card_name(parse_card("TH"), "en")
    ('♥10', '10♥')

    Raises:
        NotationError: ``card`` is not a card.
        ValueError: ``lang`` is neither ``"zh"`` nor ``"en"``.
    """
    if lang not in LANGS:
        raise ValueError(f"a language is 'zh' or 'en', not {lang!r}")
    if card in JOKER_NAMES:
        return JOKER_NAMES[card][LANGS.index(lang)]
    if card not in _CODES:
        raise NotationError(repr(card))
    rank, suit = RANK_NAMES[card >> 2], SUIT_SYMBOLS[card & 3]
    return suit + rank if lang == "zh" else rank + suit


def card_names(cards: Iterable[Card], lang: Lang = "zh") -> str:
    """Cards as a player reads them, separated by single spaces, in the order given.

    Raises:
        NotationError: one of them is not a card.
        ValueError: ``lang`` is neither ``"zh"`` nor ``"en"``.
    """
    return " ".join(card_name(c, lang) for c in cards)


def rank_counts(cards: Iterable[Card]) -> list[int]:
    """How many cards of each rank (a list of RANK_COUNT ints)."""
    counts = [0] * RANK_COUNT
    for c in cards:
        counts[c >> 2] += 1
    return counts


def build_deck(decks: int = 1, jokers: bool = False, removed: Sequence[str] = ()) -> Hand:
    """A sorted deck: ``decks`` copies of 52 cards, two jokers per deck if asked, minus ``removed``.

    ``removed`` lists codes taken out of the whole pack once each (关牌 removes four cards).

    >>> len(build_deck(removed=["2H", "2D", "2C", "AD"]))
    48

    Raises:
        NotationError: a removed code is not a card.
        ValueError: a removed card is not in the pack.
    """
    one = list(range(52)) + ([SMALL_JOKER, BIG_JOKER] if jokers else [])
    pack = one * decks
    for code in removed:
        card = parse_card(code)
        if card not in pack:
            raise ValueError(f"card {code} is not in the pack")
        pack.remove(card)
    return tuple(sorted(pack))


def remove_cards(hand: Hand, cards: Iterable[Card]) -> Hand | None:
    """``hand`` minus the multiset ``cards``, or None if ``cards`` is not contained in ``hand``."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)
