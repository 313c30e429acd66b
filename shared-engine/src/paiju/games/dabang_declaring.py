"""亮主 in 葫芦岛打棒 (seed 003): what a declaration shows and what it overcalls, the first hand's
grab of a big joker (抢亮大王) and its turned kitty (翻底牌), and the words said for them. The
speaking round is ``paiju.games.dabang_declaring_round``'s; these say which cards decide.

A declaration is a word: ``liang`` (first hand: a single big joker), ``<n>x<suit>`` (n identical
level cards of that suit), ``BJx<suit>`` / ``RJx<suit>`` (four small / big jokers naming a suit).

>>> overcalls("2xH", "1xS", three_overcalls=False), overcalls("3xH", "2xS", three_overcalls=False)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, Hand
from paiju.games.dabang_cards import FIRST_LEVEL, PLAYERS, level_rank

LIANG = "liang"
PASS = "pass"
DECLARATIONS = (
    [f"{n}x{s}" for n in (1, 2, 3, 4) for s in SUITS]
    + [f"BJx{s}" for s in SUITS]
    + [f"RJx{s}" for s in SUITS]
)


def declaration_suit(word: str) -> int:
    return SUITS.index(word[-1])


def declaration_tier(word: str) -> int:
    """1–4 for level cards, 5 four small jokers, 6 four big jokers ("大王的叫牌权优于小王")."""
    head = word.split("x")[0]
    return {"BJ": 5, "RJ": 6}.get(head) or int(head)


def overcalls(new: str, old: str | None, three_overcalls: bool) -> bool:
    """ "2个相同的反1个的，4个相同的反3个或2个、1个的，4个小王或4个大王可以叫任意花色为主花色…
    大王的叫牌权优于小王"; three overcalling one or two only with ``three_overcalls``."""
    if old is None:
        return True
    a, b = declaration_tier(new), declaration_tier(old)
    if a >= 5 or b >= 5:
        return a > b
    if a == 4:
        return b < 4
    if a == 3:
        return three_overcalls and b < 3
    return a == 2 and b == 1


def answers(
    new: str,
    old: str | None,
    own: bool,
    *,
    three_overcalls: bool = False,
    self_overcall: str = "any_suit",
    reinforce: str = "more",
) -> bool:
    """Whether declaration ``new`` may follow ``old`` (None: nothing shown yet), ``own`` when the
    speaker showed ``old``: "亮牌后自己和其他人都可以反，自己可以加固自己的亮牌" — anyone 反 by the
    rules of ``overcalls``, the declarer too, in another suit (``self_overcall`` ``any_suit``;
    ``same_suit``, the reading before issue 33: he may only reinforce); the declarer reinforces
    (加固) his own suit with more cards (``reinforce`` ``more``: the text counts only 反) or by
    the counts of 反 (``like_overcall``).

    >>> answers("2xD", "1xS", own=True), answers("2xD", "1xS", True, self_overcall="same_suit")
    (True, False)
    >>> answers("3xS", "2xS", own=True), answers("3xS", "2xS", True, reinforce="like_overcall")
    (True, False)
    """
    if old is None or not own:
        return overcalls(new, old, three_overcalls)
    if declaration_suit(new) == declaration_suit(old):
        if reinforce == "more":
            return declaration_tier(new) > declaration_tier(old)
        return overcalls(new, old, three_overcalls)
    return self_overcall == "any_suit" and overcalls(new, old, three_overcalls)


def can_show(hand: Sequence[Card], word: str, level: int) -> bool:
    """Whether ``hand`` holds the cards of declaration ``word`` at ``level``."""
    card, copies = shows(word, level)
    return hand.count(card) >= copies


def shows(word: str, level: int) -> tuple[Card, int]:
    """The card a declaration ``word`` (or 亮大王) shows every seat at ``level``, and how many of
    it: n identical level cards, four jokers, one big joker.

    >>> from paiju.cards import card_codes
    >>> card, copies = shows("2xH", 3)
    >>> card_codes([card]), copies, shows("RJxS", 3)[1], shows(LIANG, 3)[1]
    (['3H'], 2, 4, 1)
    """
    if word == LIANG:
        return BIG_JOKER, 1
    head, suit = word.split("x")
    if head in ("BJ", "RJ"):
        return SMALL_JOKER if head == "BJ" else BIG_JOKER, 4
    return level_rank(level) * 4 + SUITS.index(suit), int(head)


def first_suited(cards: Sequence[Card]) -> int | None:
    """The suit of the first card that is not a joker ("若摸到的是王则继续摸牌")."""
    return next((c & 3 for c in cards if c < SMALL_JOKER), None)


def joker_grabs(
    drawn: Sequence[Hand], rest: Hand, first: int
) -> list[tuple[int, int | None, Card | None]]:
    """抢亮大王: each seat holding a big joker with the suit its declaration names — the first
    suited card it drew after its first big joker ("以亮牌人亮牌后摸的第一张花色牌的花色为主花色"),
    then the kitty's in pack order (None: only jokers follow, "若底牌全是王") — and that card when
    the seat drew it itself (None when the kitty names the suit: a card the seat has not seen),
    in the order the seats drew their first big joker."""
    found: list[tuple[int, int, int | None, Card | None]] = []
    n = len(drawn)
    for seat, cards in enumerate(drawn):
        if BIG_JOKER not in cards:
            continue
        i = cards.index(BIG_JOKER)
        suit = first_suited((*cards[i + 1 :], *rest))
        own = next((c for c in cards[i + 1 :] if c < SMALL_JOKER), None)
        when = i * n + (seat - first) % n  # the deal's position of that joker
        found.append((when, seat, suit, own))
    return [(seat, suit, own) for _, seat, suit, own in sorted(found, key=lambda f: f[0])]


def flip_dealer(
    rest: Hand, first: int, players: int = PLAYERS, top: int | None = level_rank(FIRST_LEVEL)
) -> tuple[int, int, Hand]:
    """ "4家都从底牌中翻牌，以翻出最大牌的一家为庄家，并以该牌的花色为主花色": from ``first`` in
    turn each seat turns the kitty's next suited card (a joker is turned past); the biggest wins,
    a tie to the earlier flipper. Biggest by the order "…混牌>…2>…副牌": the rank ``top`` (the
    first hand's 混牌, the 3: "第一把从3打起") above the 2, then A down to 4 (``top`` None: 3 < … <
    A < 2). Returns (dealer, suit, the cards turned); no card turned (a kitty of jokers only)
    leaves ``first`` and spades, and the hand is dealt again (``Dabang``).

    >>> from paiju.cards import parse_card
    >>> turned = tuple(parse_card(c) for c in "4H KC 3D 2C".split())  # by seats 0, 1, 2, 3
    >>> flip_dealer(turned, 0)[:2], flip_dealer(turned, 0, top=None)[:2]
    ((2, 3), (3, 2))
    """
    suited = [c for c in rest if c < SMALL_JOKER][:players]
    if not suited:
        return first, 0, ()
    best = max(range(len(suited)), key=lambda i: (suited[i] >> 2 == top, suited[i] >> 2, -i))
    return (first + best) % players, suited[best] & 3, tuple(suited)
