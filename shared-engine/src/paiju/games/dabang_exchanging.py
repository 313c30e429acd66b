"""The exchanges of cards in a 葫芦岛打棒 hand (seed 003), between the declaring and the tricks:
喝血 (the dealer's previous player hands him his biggest non-point cards, the dealer hands back
as many of his lowest), 干锅 judged and the kitty taken by the dealer, the dealer's burial of 8
cards (``Buried``), and the others burying jokers for the kitty's lowest non-point cards (扣王换底:
the ``exchange`` round, and ``pick`` while a player chooses among equally low cards). Kept apart
from the game (``paiju.games.dabang``), which calls these from its hooks; the rules of the cards
themselves (what may be taken back, 干锅, big jokers first) are ``paiju.games.dabang_cards``'.

docs/rules/dabang.md, "喝血 (tribute)" and "The kitty (底牌)", quotes the text behind each rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.cards import SMALL_JOKER, Hand, card_codes, parse_card, remove_cards
from paiju.errors import RuleError
from paiju.games.dabang_cards import (
    KITTY,
    POINTS,
    auto_taken,
    big_jokers_first,
    is_ganguo,
    level_rank,
    low_class,
    takeable,
    trump_order_of,
)
from paiju.games.dabang_declaring import PASS
from paiju.games.dabang_state import DabangState, first_hand, hand_order, side_of
from paiju.protocol import BidMade, Command, Event, Play, register
from paiju.table import Changes
from paiju.trick_rules import TrumpOrder

EXCHANGES = [f"bury{n}" for n in range(1, 9)]
TAKE = "take"  # take<code>: the card a player takes back among equally low ones (``pick``)
TAKES = [f"{TAKE}{code}" for code in card_codes(range(SMALL_JOKER))]


@register
@dataclass(frozen=True, slots=True)
class Buried(Event):
    """The dealer has buried ``cards`` as the new kitty (sent as a ``Play`` in the ``bury``
    phase)."""

    TYPE: ClassVar[str] = "buried"
    seat: int
    cards: Hand

    def as_command(self) -> Command:
        return Play(seat=self.seat, cards=self.cards)


def exchange_words(state: DabangState, seat: int) -> tuple[str, ...]:
    """What ``seat`` may say in the ``exchange`` phase (pass, or bury one to eight of his jokers)
    or in ``pick`` (one of the equally low cards of the kitty shown, each once)."""
    if state.phase == "exchange":
        jokers = sum(1 for c in state.hands[seat] if c >= SMALL_JOKER)
        return (PASS, *EXCHANGES[: min(jokers, KITTY)])
    alike = low_class(state.kitty, hand_order(state), state.config.options.take_order)
    return tuple(f"{TAKE}{code}" for code in card_codes(sorted(set(alike))))


def settle(state: DabangState, dealer: int, suit: int, shown: bool) -> Changes:
    """The dealer and the trump suit are fixed: 喝血, then the dealer takes the kitty ("由庄家
    取走底牌") unless it is 干锅, which is played as dealt."""
    n = state.config.players
    level = state.levels[side_of(dealer)]
    order = trump_order_of(suit, level)
    hands = list(state.hands)
    payer = (dealer - 1) % n  # "庄家的上家应向庄家进贡"
    tribute = tribute_cards(hands[payer], order, state.blood)
    # the text names no return; hands stay even ("每人52张") by the dealer's lowest cards
    back = returned_cards(hands[dealer], order, len(tribute))
    hands[payer] = tuple(sorted((*(remove_cards(hands[payer], tribute) or ()), *back)))
    hands[dealer] = tuple(sorted((*(remove_cards(hands[dealer], back) or ()), *tribute)))
    kitty = state.rest
    o = state.config.options
    first = first_hand(state)  # its unshown kitty is the turned one: "第一把不带干锅"
    judged = shown or (o.ganguo_unopened and not first)
    exempt = first and o.first_hand_ganguo == "never"
    ganguo = judged and not exempt and is_ganguo(kitty, order, suit, o.ganguo_two)
    changes: Changes = {
        "dealer": dealer,
        "trump_suit": suit,
        "level_rank": level_rank(level),
        "tribute": len(tribute),
        "kitty": tuple(sorted(kitty)) if shown or ganguo else (),
        "ganguo": ganguo,
        "to_speak": (),
    }
    if ganguo:  # "干锅时底牌不能替换，也不能在底牌中扣王"
        return changes | {"hands": tuple(hands)} | start_play(state, dealer)
    hands[dealer] = tuple(sorted((*hands[dealer], *kitty)))
    return changes | {"hands": tuple(hands), "rest": (), "phase": "bury", "turn": dealer}


def tribute_cards(hand: Hand, order: TrumpOrder, count: int) -> Hand:
    """ "进贡的牌为进贡者手中的最大牌(分牌除外)…血牌不包括分牌，打5、10的时候，5、10不进贡"."""
    if count <= 0:
        return ()
    pool = sorted((c for c in hand if (c >> 2) not in POINTS), key=order.strength, reverse=True)
    return tuple(pool[:count])


def returned_cards(hand: Hand, order: TrumpOrder, count: int) -> Hand:
    """What the dealer hands back for the tribute: his lowest cards, side suits and non-point
    cards first."""
    pool = sorted(hand, key=lambda c: (order.is_trump(c), (c >> 2) in POINTS, order.strength(c)))
    return tuple(pool[:count])


def burial(state: DabangState, command: Play) -> Buried:
    """The dealer buries 8 cards ("将底牌替换成同样张数的牌作为新的底牌重新扣下"), big jokers before a
    small one (in the ``bury`` phase, which the caller checks).

    Raises:
        RuleError: ``not_your_turn``, ``not_in_hand``, ``bury_eight`` (not 8 cards) or
            ``big_jokers_first``.
    """
    if command.seat != state.turn:
        raise RuleError("not_your_turn")
    cards = tuple(sorted(command.cards))
    codes = card_codes(cards)
    hand = state.hands[command.seat]
    if remove_cards(hand, cards) is None:
        raise RuleError("not_in_hand", codes, play=" ".join(codes))
    if len(cards) != KITTY:
        raise RuleError("bury_eight", codes, play=" ".join(codes), count=KITTY)
    if not big_jokers_first(hand, cards):
        raise RuleError("big_jokers_first", codes, play=" ".join(codes))
    return Buried(seat=command.seat, cards=cards)


def exchange(state: DabangState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
    """ "其他玩家也可在底牌中扣王，扣王时底牌必须公开。扣王后还需从底牌中捡最小的牌，不能捡
    分牌，扣几张捡几张": big jokers first; as many as the kitty has non-point cards to give.
    With ``pick_back`` ``choose`` the player then picks (``pick``, one ``take<code>`` at a
    time) while equally low cards of different suits are more than he still takes; the
    round goes on once he has them all."""
    seat = event.seat
    order, by = hand_order(state), state.config.options.take_order
    hands = list(state.hands)
    kitty = state.rest
    changes: Changes = {}
    count = state.picking
    if event.bid.startswith(TAKE):  # a card chosen among the lowest
        card = parse_card(event.bid[len(TAKE) :])
        hands[seat] = tuple(sorted((*hands[seat], card)))
        kitty = remove_cards(kitty, (card,)) or ()
        count -= 1
    elif event.bid != PASS:
        count = min(int(event.bid[4:]), len(takeable(kitty, order, by)))
        hand = hands[seat]
        jokers = sorted((c for c in hand if c >= SMALL_JOKER), reverse=True)[:count]
        hands[seat] = remove_cards(hand, jokers) or ()
        kitty = tuple(sorted((*kitty, *jokers)))
        changes["exchanges"] = (*state.exchanges, (seat, count))
    if state.config.options.pick_back == "fixed":
        taken, count = tuple(takeable(kitty, order, by)[:count]), 0
    else:
        taken, count = auto_taken(kitty, order, count, by)
    if event.bid != PASS:
        hands[seat] = tuple(sorted((*hands[seat], *taken)))
        kitty = tuple(sorted(remove_cards(kitty, taken) or ()))
        changes |= {"hands": tuple(hands), "rest": kitty, "kitty": kitty, "picking": count}
    if count:  # "可由用户自己决定要哪张牌": he speaks again
        return changes | {
            "phase": "pick",
            "to_speak": (seat, *to_speak),
            "turn": seat,
        }
    if to_speak:
        return changes | {"phase": "exchange", "turn": to_speak[0]}
    return changes | start_play(state)


def start_play(state: DabangState, dealer: int | None = None) -> Changes:
    """ "庄家具有扣底牌和第一轮的首先出牌权"."""
    lead = dealer if dealer is not None else state.dealer
    return {"phase": "play", "turn": lead, "leader": lead, "to_speak": ()}
