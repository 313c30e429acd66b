"""The bots of 葫芦岛打棒 (seed 003): the burials offered to a seat in the ``bury`` phase, and
what a bot says in the declaring round (grab, declare, overcall or pass), in the exchange (never
bury jokers) and in the pick (the kitty card that fits its hand best). Kept apart from the game
(``paiju.games.dabang``), whose ``legal_moves`` and ``bot_choice`` call these, because they are
choices among legal moves, not rules; in play the trick-taking core chooses.

docs/rules/dabang.md, "Bots", says how they play.
"""

from __future__ import annotations

from paiju.cards import Hand, parse_card
from paiju.games.dabang_cards import KITTY, POINTS, big_jokers_first, trump_order_of
from paiju.games.dabang_declaring import declaration_suit, declaration_tier
from paiju.games.dabang_exchanging import TAKE
from paiju.games.dabang_state import DabangState, dealer_level, first_hand, hand_order
from paiju.protocol import Bid, Command

GRAB_TRUMPS = 10  # a bot grabs (亮大王) holding this many jokers, 3s and 2s (the average is 9.6)
DECLARE_TRUMPS = 28  # a bot declares first a suit giving it this many trumps (over half its hand)


def burials(state: DabangState, seat: int) -> list[Hand]:
    """A few sensible burials to offer (``decide`` accepts any 8 cards by the rules): the
    lowest side-suit cards sparing points, and the same keeping points in (扣分)."""
    order = hand_order(state)
    hand = state.hands[seat]
    low = sorted(hand, key=lambda c: (order.is_trump(c), (c >> 2) in POINTS, order.strength(c)))
    with_points = sorted(
        hand, key=lambda c: (order.is_trump(c), -POINTS.get(c >> 2, 0), order.strength(c))
    )
    found = {tuple(sorted(low[:KITTY])), tuple(sorted(with_points[:KITTY]))}
    return sorted(b for b in found if big_jokers_first(hand, b))


def bot_word_or_burial(state: DabangState, seat: int, moves: list[Command]) -> Command | None:
    """Grab (亮大王) holding many jokers, level cards and 2s; declare or overcall in the suit
    that would give the most trumps when they are many, never over the partner; never bury
    jokers; bury the lowest side cards; take back the card that pairs best with the hand. None
    in play: the trick core chooses."""
    words = [m for m in moves if isinstance(m, Bid)]
    hand = state.hands[seat]
    if state.phase == "declare" and words:
        plain = trump_order_of(None, dealer_level(state))
        fixed = sum(1 for c in hand if plain.is_trump(c))
        if first_hand(state):
            return words[-1] if fixed >= GRAB_TRUMPS else words[0]
        return declaration_choice(state, seat, words)
    if state.phase == "pick" and words:
        return max(words, key=lambda m: take_value(state, seat, str(m.bid)))
    if state.phase in ("exchange", "bury"):
        return moves[0]
    return None


def declaration_choice(state: DabangState, seat: int, words: list[Bid]) -> Bid:
    """The word for the suit that would give the most trumps, the fewest cards shown for it:
    declared first when those trumps reach ``DECLARE_TRUMPS``; over an opponent's
    declaration whenever that suit gives more trumps than the opponent's; a pass over the
    partner's declaration or its own."""
    n = state.config.players
    declarer, declaration = state.declarer, state.declaration
    if (declarer is not None and (declarer - seat) % n in (0, 2)) or len(words) == 1:
        return words[0]
    level = dealer_level(state)
    hand = state.hands[seat]

    def trumps(suit: int) -> int:
        order = trump_order_of(suit, level)
        return sum(1 for c in hand if order.is_trump(c))

    def value(word: Bid) -> tuple[int, int]:
        return trumps(declaration_suit(str(word.bid))), -declaration_tier(str(word.bid))

    best = max(words[1:], key=value)
    if declaration is None:
        return best if value(best)[0] >= DECLARE_TRUMPS else words[0]
    return best if value(best)[0] >= trumps(declaration_suit(declaration)) else words[0]


def take_value(state: DabangState, seat: int, word: str) -> tuple[int, int, int]:
    """How well a kitty card fits the hand: copies already held (a 棒 or more), then the
    cards of its suit held, then the suit order."""
    card = parse_card(word[len(TAKE) :])
    order = hand_order(state)
    hand = state.hands[seat]
    suit = order.suit_of(card)
    return (
        sum(1 for c in hand if c == card),
        sum(1 for c in hand if order.suit_of(c) == suit),
        -(card & 3),
    )
