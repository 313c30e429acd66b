"""The state of a 葫芦岛打棒 match (seed 003) and the facts every part of the game reads from it:
the sides ("对家两人为一组"), whether a hand is the match's first (抢亮大王), the dealer's level
(混牌) and the hand's order of the cards. Kept apart from the game (``paiju.games.dabang``) so
that its phases — declaring, the exchanges of cards, scoring, the bots — are functions over the
state in modules of their own, below the game and not importing it.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.cards import Card, Hand
from paiju.games.dabang_cards import FIRST_LEVEL, trump_order_of
from paiju.trick_rules import TrumpOrder
from paiju.tricks import TrickState


@dataclass(frozen=True, slots=True)
class DabangState(TrickState):
    """A 打棒 table: the match (both sides' levels, the dealer, the blood owed) and the hand
    (the declaring, the kitty, the exchanges) on the trick-taking core's state."""

    # the match
    levels: tuple[int, ...] = (FIRST_LEVEL, FIRST_LEVEL)  # side 0 (seats 0, 2), side 1 (1, 3)
    dealer: int | None = None  # the next hand's dealer once a hand is scored
    blood: int = 0  # cards of tribute the next hand owes (喝血)
    match_winner: int | None = None  # the side that has won the match
    first_dealer: int | None = None  # the first hand's dealer by lot, whom the deal starts from
    redeals: int = 0  # hands dealt again ("重新洗牌"): the rules' hand is hand_no - redeals
    # the hand
    grabs: tuple[tuple[int, int | None], ...] = ()  # first hand: (seat, suit) of each grab
    # first hand: (seat, card) of each grab whose suit a card of the seat's own draw names
    grab_cards: tuple[tuple[int, Card], ...] = ()
    declaration: str | None = None
    declarer: int | None = None
    flipped: Hand = ()
    kitty: Hand = ()  # the kitty as shown to everyone (empty while it is hidden)
    ganguo: bool = False
    tribute: int = 0  # cards of tribute paid this hand
    exchanges: tuple[tuple[int, int], ...] = ()  # (seat, jokers buried) of the others
    picking: int = 0  # kitty cards the seat to move still chooses to take back (``pick``)


def side_of(seat: int) -> int:
    """Seats 0 and 2 are side 0, seats 1 and 3 side 1 ("对家两人为一组")."""
    return seat % 2


def side_seats(side: int) -> tuple[int, int]:
    """The two seats of ``side``."""
    return (side, side + 2)


def first_hand(state: DabangState) -> bool:
    """Whether this is the match's first hand (抢亮大王), a hand dealt again counted once."""
    return state.hand_no - state.redeals == 1


def first_to_draw(state: DabangState) -> int:
    """ "从庄家开始逆时针发牌": the dealer; in the first hand the dealer drawn by lot (a first
    hand dealt again is dealt from him again)."""
    if state.dealer is not None:
        return state.dealer
    return state.first_dealer if state.first_dealer is not None else 0


def dealer_level(state: DabangState) -> int:
    """ "当前庄家的级别就是混牌"."""
    dealer = state.dealer if state.dealer is not None else 0
    return state.levels[side_of(dealer)]


def hand_order(state: DabangState) -> TrumpOrder:
    """The order of the cards this hand: its trump suit (None until it is fixed) and the
    dealer's level."""
    return trump_order_of(state.trump_suit, dealer_level(state))
