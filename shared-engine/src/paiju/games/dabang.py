"""葫芦岛打棒 Huludao Dabang (seed 003): four players in fixed partnerships (seats 0 and 2 against
1 and 3), four decks with jokers (216 cards), 52 each and 8 in the kitty; tricks with trumps on
the trick-taking core (``paiju.tricks``); levels from 3 past 10.

A hand goes: the deal (the first hand from a dealer drawn by lot from the deal's seeds, "第一局随机
确认庄家") → the declaring window (``declare``, a speaking round: in the first hand 抢亮大王, from
the second on level cards and overcalls) → 喝血 (the dealer's previous player hands the dealer his
biggest non-point cards) and the dealer takes the kitty → the dealer buries 8 (``bury``, a ``Play``
of 8 cards) → the others may bury jokers for the lowest non-point cards of the kitty (``exchange``,
a speaking round; ``pick`` while a player chooses among equally low cards) → tricks until the hands
are empty (``play``) → scoring: the attackers' points, 抠底/保底, levels, blood for the next hand,
the next dealer. A kitty of jokers only where a suit must be drawn from it ends the hand at once
(phase ``redeal``): "若底牌全是王，则重新洗牌" — the next deal, with its own seed, is the same hand
played again.

docs/rules/dabang.md quotes the phrase behind every rule and every reading; each reading the
text leaves open is an option of ``DabangOptions``.

This module is the game as the table sees it: ``Dabang``'s hooks into the trick-taking core and
the table (the deal, the speaking rounds' openings, the burial's event, the view) and the 死棒
rules of following (``follow_rules``). Each phase is a module of its own over the state
(``dabang_state``), which the hooks call: the declaring round (``dabang_declaring_round``, on
``dabang_declaring``'s rules of declarations), 喝血 and the kitty's exchanges
(``dabang_exchanging``, on ``dabang_cards``' rules of the kitty), the end of a hand
(``dabang_scoring``), the bots (``dabang_bots``); the options and the words are data
(``dabang_options``, ``dabang_words``).

>>> from paiju.cards import parse_cards
>>> from paiju.games.dabang_cards import trump_order_of
>>> order = trump_order_of(suit=1, level=3)
>>> [order.strength(c) > order.strength(d) for c, d in zip(parse_cards("RJ 3H"), parse_cards("BJ 3S"))]
[True, True]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from paiju.cards import (
    SMALL_JOKER,
    SUITS,
    Card,
    Hand,
    build_deck,
    card_codes,
    parse_cards,
    remove_cards,
)
from paiju.games import dabang_playout
from paiju.games.dabang_bots import bot_word_or_burial, burials
from paiju.games.dabang_cards import FIRST_LEVEL, KITTY, POINTS, level_rank
from paiju.games.dabang_declaring import PASS, joker_grabs, shows
from paiju.games.dabang_declaring_round import (
    declaration_kind,
    declaring_word_heard,
    declaring_words,
    flip,
    redeal_ended,
)
from paiju.games.dabang_exchanging import Buried, burial, exchange, exchange_words, start_play
from paiju.games.dabang_options import OPTION_LABELS, OPTIONS_BEFORE, DabangOptions
from paiju.games.dabang_scoring import Outcome, hand_ended, match_after_hand, outcome
from paiju.games.dabang_state import (
    DabangState,
    dealer_level,
    first_hand,
    first_to_draw,
    hand_order,
    side_of,
)
from paiju.games.dabang_words import INFO, WORDS
from paiju.protocol import Bid, BidMade, Command, Dealt, Event, HandEnded, Play
from paiju.results import LevelsAndBlood
from paiju.sides import Sides
from paiju.table import Changes, Config, GameInfo, copy_with
from paiju.trick_rules import FollowRules, TrumpOrder
from paiju.tricks import TrickGame

DECKS = 4  # "4副牌，共216张"
HAND_SIZE = 52  # "每人52张"

# "单牌"、"棒"、"三联、四联": identical cards only; no straights, tractors or throws.
KINDS = {"single": (1,), "bang": (2,), "sanlian": (3,), "silian": (4,)}


def follow_rules(four_fallback: str) -> FollowRules:
    """死棒打法: "打棒必须出棒，没有时可以给两个单张。没棒有三联、四联时可以不出"; "打三联、四联
    必须出三联、四联，若没有可按以下顺序出牌：棒+单张（两棒），3张单牌、3联+单张、4张单牌"."""
    four: tuple[tuple[int, ...], ...] = (
        ((4,), (2, 2), (3, 1), (1, 1, 1, 1))
        if four_fallback == "pairs_first"
        else ((4,), (3, 1), (2, 2), (1, 1, 1, 1))
    )
    return FollowRules(
        leads=KINDS,
        substitutes={
            "single": ((1,),),
            "bang": ((2,), (1, 1)),
            "sanlian": ((3,), (2, 1), (1, 1, 1)),
            "silian": four,
        },
        exact=frozenset({"bang"}),
    )


RULES = {
    "pairs_first": follow_rules("pairs_first"),
    "triple_first": follow_rules("triple_first"),
}


class Dabang(TrickGame[DabangState]):
    info: ClassVar[GameInfo] = INFO
    state_type = DabangState
    seat_phases = frozenset({"declare", "bury", "exchange", "pick", "play"})
    speaking_phases = frozenset({"declare", "exchange", "pick"})
    option_labels = OPTION_LABELS
    options_before = OPTIONS_BEFORE
    words = WORDS
    result_type = LevelsAndBlood
    later_hands_differ = True  # 亮主 with level cards and overcalls from the second hand
    follow_rules = RULES["pairs_first"]
    point_values = POINTS

    def __init__(self) -> None:
        super().__init__()
        self.evolve_by(Buried, self._on_buried)

    # --- the table --------------------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        return DabangOptions()

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck(DECKS, jokers=True)

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def first_to_draw(self, state: DabangState) -> int:
        return first_to_draw(state)

    def draws_first_by_lot(self, state: DabangState) -> bool:
        """ "第一局随机确认庄家，并从庄家开始逆时针发牌": the first deal of a match draws its dealer
        by lot from the deal's seeds (``fairness.draw_seat``); the deal's ``leader`` is he."""
        return state.dealer is None and state.first_dealer is None

    def first_turn(self, state: DabangState, hands: tuple[Hand, ...]) -> int:
        return self.first_to_draw(state)

    @staticmethod
    def first_hand(state: DabangState) -> bool:
        return first_hand(state)

    def trump_order(self, state: DabangState) -> TrumpOrder:
        return hand_order(state)

    def rules_of(self, state: DabangState) -> FollowRules:
        return RULES[state.config.options.four_fallback]

    def hand_sides(self, state: DabangState) -> Sides | None:
        return Sides(first=(0, 2), second=(1, 3))

    def match_over(self, state: DabangState) -> bool:
        hands: int = state.config.options.hands
        return state.match_winner is not None or 0 < hands <= state.hand_no - state.redeals

    def start_hand(self, state: DabangState) -> Changes:
        return super().start_hand(state) | {
            "grabs": (),
            "grab_cards": (),
            "declaration": None,
            "declarer": None,
            "flipped": (),
            "kitty": (),
            "ganguo": False,
            "tribute": 0,
            "exchanges": (),
            "picking": 0,
            "trump_suit": None,
            "level_rank": None,
        }

    def opening(self, state: DabangState, dealt: Dealt) -> Changes:
        """The declaring window. The first hand (dealt from the dealer drawn by lot, the deal's
        ``leader``): 抢亮大王, the seats holding a big joker speak in the order they drew it;
        nobody: the kitty is turned. Later hands: level cards, each seat from the dealer in turn
        and again after every declaration."""
        n = state.config.players
        first = dealt.leader  # the seat the deal started from: the dealer, or the lot
        level = dealer_level(state)
        base: Changes = {"level_rank": level_rank(level)}
        hands = tuple(tuple(sorted(h)) for h in dealt.hands)
        state = copy_with(state, self.start_hand(state) | {"hands": hands, "rest": dealt.rest})
        if self.first_hand(state):
            base |= {"first_dealer": first}
            state = copy_with(state, {"first_dealer": first})
            grabs = joker_grabs(dealt.hands, dealt.rest, first)
            if not grabs:
                return base | flip(state, dealt.rest, first)
            order = tuple(seat for seat, _, _ in grabs)
            found = {
                "grabs": tuple((seat, suit) for seat, suit, _ in grabs),
                "grab_cards": tuple((seat, card) for seat, _, card in grabs if card is not None),
            }
            return base | found | self.speaking_round(order, "declare")
        order = tuple((first + i) % n for i in range(n))
        return base | {"dealer": first} | self.speaking_round(order, "declare")

    def deal_consequences(self, state: DabangState) -> list[Event]:
        return redeal_ended(state)

    def word_consequences(self, state: DabangState) -> list[Event]:
        """The last pass over a kitty of jokers only (or a grab with no suit to name) ends the hand
        for a new deal, as at the deal."""
        return self.deal_consequences(state)

    # --- declaring --------------------------------------------------------------------------

    def words_now(self, state: DabangState, seat: int) -> tuple[str, ...]:
        if state.phase in ("exchange", "pick"):
            return exchange_words(state, seat)
        return declaring_words(state, seat)

    def bid_kind(self, state: DabangState, seat: int, word: str) -> str | None:
        """扣王 whatever the number of jokers; 捡 (which of the kitty's equal lowest cards to take
        back) is a choice of cards, no bid; a declaration by its kind (``declaration_kind``)."""
        if state.phase == "exchange":
            return None if word == PASS else "exchange"
        if state.phase == "pick":
            return None
        return declaration_kind(state, seat, word)

    def heard(self, state: DabangState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        if state.phase in ("exchange", "pick"):
            return exchange(state, event, to_speak)
        return declaring_word_heard(state, event, to_speak)

    # --- the kitty --------------------------------------------------------------------------

    def decide_cards(self, state: DabangState, command: Play) -> list[Event]:
        self.require_phase(state, "bury")
        return [burial(state, command)]

    def _on_buried(self, state: DabangState, event: Buried) -> Changes:
        """ "扣王时底牌必须亮给大家看，不扣王时底牌不公开"; the others may bury jokers unless the
        dealer buried only points, or points and jokers (rules 6 and 8)."""
        seat = event.seat
        hands = list(state.hands)
        hands[seat] = remove_cards(hands[seat], event.cards) or ()
        jokers = any(c >= SMALL_JOKER for c in event.cards)
        only_points = all((c >> 2) in POINTS or c >= SMALL_JOKER for c in event.cards)
        n = state.config.players
        changes: Changes = {
            "hands": tuple(hands),
            "rest": event.cards,
            "kitty": event.cards if jokers else (),
        }
        if only_points:
            return changes | start_play(state, seat)
        order = tuple((seat + i) % n for i in range(1, n))
        return changes | self.speaking_round(order, "exchange")

    # --- tricks ---------------------------------------------------------------------------

    def trick_taken(self, state: DabangState, event: Any) -> Changes:
        """The literal reading of "每轮都由庄家先出牌" (option ``leader``): the dealer leads again."""
        if state.config.options.leader == "dealer":
            return {"turn": state.dealer, "leader": state.dealer}
        return {}

    def outcome(self, state: DabangState) -> Outcome:
        return outcome(state)

    def points_played(self, state: DabangState) -> tuple[Mapping[int, int], int]:
        """Every trick taken is counted in ``points_won``; the trick on the table not yet."""
        on_table = sum(POINTS.get(c >> 2, 0) for cards in state.actions if cards for c in cards)
        return POINTS, sum(state.points_won) + on_table

    def shown_held(self, state: DabangState) -> tuple[tuple[int, Card], ...]:
        """In the declaring round, the cards each seat's words showed (the most of a card one
        seat showed: 加固 shows again what it showed): all still in its hand, as no card moves
        before the round ends (then 扣王, the kitty and the play move them)."""
        if state.phase != "declare":
            return ()
        most: Counter[tuple[int, Card]] = Counter()
        for seat, word in state.said:
            if word != PASS:
                card, copies = shows(word, dealer_level(state))
                most[seat, card] = max(most[seat, card], copies)
        return tuple(sorted(most.elements()))

    def bot_finish(self, state: DabangState) -> tuple[DabangState, HandEnded, int] | None:
        """The hand's tricks played out by the 普通 bot's rules on counts of cards
        (``dabang_playout``), a few microseconds a move: in phase ``play`` only."""
        if state.phase != "play":
            return None
        end, moves = dabang_playout.play_out(state, self.rules_of(state))
        return end, self.score(end), moves

    def score(self, state: DabangState) -> HandEnded:
        return hand_ended(state)

    def hand_scored(self, state: DabangState, event: HandEnded) -> Changes:
        return match_after_hand(state)

    # --- bots -------------------------------------------------------------------------------

    def legal_moves(self, state: DabangState, seat: int) -> list[Command]:
        if seat != state.turn:
            return []
        if state.phase in self.speaking_phases:
            return [Bid(seat=seat, bid=w) for w in self.words_now(state, seat)]
        if state.phase == "bury":
            return [Play(seat=seat, cards=c) for c in burials(state, seat)]
        return super().legal_moves(state, seat)

    def bot_choice(self, state: DabangState, seat: int, moves: list[Command]) -> Command:
        """The bots' words and burials (``paiju.games.dabang_bots``); in play the trick core's
        choice."""
        chosen = bot_word_or_burial(state, seat, moves)
        return chosen if chosen is not None else super().bot_choice(state, seat, moves)

    # --- views ------------------------------------------------------------------------------

    def view_extra(self, state: DabangState, seat: int | None) -> dict[str, Any]:
        out = super().view_extra(state, seat)
        dealer = state.dealer
        attack_points = None
        side_points = [0, 0]
        if state.points_won:
            for s, p in enumerate(state.points_won):
                side_points[side_of(s)] += p
            if dealer is not None:
                attack_points = side_points[1 - side_of(dealer)]
        out |= {
            "dealer": dealer,
            "seat_levels": [state.levels[side_of(s)] for s in range(state.config.players)],
            "side_levels": list(state.levels),
            "hunpai": None if state.level_rank is None else "3456789TJQKA2"[state.level_rank],
            "trump": None if state.trump_suit is None else SUITS[state.trump_suit],
            "declaration": state.declaration,
            "declarer": state.declarer,
            "bids": [list(b) for b in state.said],
            "kitty": card_codes(state.kitty),
            "buried": card_codes(state.rest) if self._sees_buried(state, seat) else None,
            "flipped": card_codes(state.flipped),
            "ganguo": "yes" if state.ganguo else "no",
            "tribute_paid": state.tribute,
            # who paid it (the dealer's 上家, "庄家的上家应向庄家进贡"): the dealer wears his badge
            "tribute_payer": (state.dealer - 1) % state.config.players
            if state.tribute and state.dealer is not None
            else None,
            "blood": state.blood,
            # the blood the next hand owes, once this hand is scored: while a hand is played its
            # blood is already drunk (tribute_paid), and "next hand" would be the one after
            "blood_next": state.blood if self.between_hands(state) else None,
            "exchanges": [list(e) for e in state.exchanges],
            "picking": state.picking,
            "first_dealer": state.first_dealer if state.dealer is None else None,
            "grab_card": self._grab_card(state, seat),
            "redeals": state.redeals,
            "side_points": side_points,
            "attack_points": attack_points,
            "match_winner": state.match_winner,
        }
        return out

    @staticmethod
    def _grab_card(state: DabangState, seat: int | None) -> str | None:
        """While the first hand's grab is open, the card of my own draw whose suit my 亮大王 would
        make trumps ("亮牌后摸的第一张花色牌"): the hand is shown sorted, not in the order drawn,
        so the page says it. None for anyone else, and once the window is over."""
        if seat is None or state.phase != "declare" or state.declaration is not None:
            return None
        card = dict(state.grab_cards).get(seat)
        return None if card is None else card_codes((card,))[0]

    @staticmethod
    def _sees_buried(state: DabangState, seat: int | None) -> bool:
        """The dealer knows the kitty he buried while it is hidden from the others."""
        return (
            seat is not None
            and seat == state.dealer
            and state.phase in ("exchange", "play")
            and not state.kitty
            and not state.ganguo
            and len(state.rest) == KITTY
        )

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        trump = view.get("trump")
        level = view.get("hunpai")
        buried = view.get("buried")
        grab_card, seat = view.get("grab_card"), view.get("seat")
        mine = () if grab_card is None or seat is None else ((seat, parse_cards(grab_card)[0]),)
        return ({} if buried is None else {"rest": parse_cards(buried)}) | {
            "grab_cards": mine,
            "trump_suit": None if trump is None else SUITS.index(trump),
            "level_rank": None if level is None else "3456789TJQKA2".index(level),
            "said": tuple((int(s), str(w)) for s, w in view.get("bids") or ()),
            "kitty": parse_cards(view.get("kitty") or ()),
            "flipped": parse_cards(view.get("flipped") or ()),
            "ganguo": view.get("ganguo") == "yes",
            "exchanges": tuple((int(s), int(k)) for s, k in view.get("exchanges") or ()),
            "levels": tuple(view.get("side_levels") or (FIRST_LEVEL, FIRST_LEVEL)),
            "tribute": int(view.get("tribute_paid") or 0),
            "dealer": view.get("dealer"),
        }


GAME = Dabang()

__all__ = [
    "GAME",
    "KINDS",
    "Dabang",
    "follow_rules",
]
