"""板子炮 Banzipao (seed 000): four players, one 52-card deck, 13 each, ranks 2 > A > … > 3.

A hand goes: the deal (a 天牌 — 十三烂 or 滚龙 — wins it at once) → the auction (``bid``: the
dealer, who holds ♠7, speaks first; 包 is one against three, and the bidder's next player may
answer with 反包, a duel in which the other two sit out) → if nobody bids, the dealer calls a card
he does not hold and its holder is his secret partner (``call``) → play. A round (一轮) ends when a
play stands and the others pass; its player captures (得牌) every card of the round and leads
next. A 豆 (four of a kind) or 滚筒 that wins its round earns a bonus from every other player.

Who wins: with a 包 or 反包, whoever of the fighters goes out first; in the two-against-two game
(叫牌), the side out first and second (双飞), else the side that captured more cards.

docs/rules/banzipao.md quotes the phrase behind every choice; each reading the text leaves open is
an option of ``BanzipaoOptions``.

Its parts: the combinations (``banzipao_combos``), the settlement (``banzipao_scoring``), and
the option names, words and catalogue entry (``banzipao_catalogue``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.cards import Card, Hand, build_deck, format_card, parse_card
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.errors import RuleError
from paiju.games.banzipao_catalogue import INFO, OPTION_LABELS, WORDS
from paiju.games.banzipao_combos import beats, combo_of, generate, tianpai_winner
from paiju.games.banzipao_scoring import (
    bao_lines,
    bonus_lines,
    fanbao_lines,
    settled_captures,
    tianpai_lines,
    two_against_two_lines,
)
from paiju.protocol import (
    Bid,
    BidMade,
    CallCard,
    CardCalled,
    Command,
    Dealt,
    Event,
    HandEnded,
    ScoreLine,
    TrickWon,
    net_scores,
)
from paiju.sides import Sides, mark_holders, teams
from paiju.table import Changes, Config, GameInfo, copy_with, holder_of

HAND_SIZE = 13  # "每人13张": one deck among four
SPADE_SEVEN: Card = parse_card("7S")  # its holder is the dealer (庄家)

Mode = Literal["bao", "fanbao", "call"]


@dataclass(frozen=True, slots=True)
class BanzipaoOptions:
    """A table's readings of what the text leaves open (docs/rules/banzipao.md).

    fanbao_rights: who may answer a 包 with 反包 — ``next``: the bidder's next player only
        ("他的下家还可以选择反包"); ``all``: each other player in turn until one does.
    bystanders_pay_bonus: in a 包/反包 duel the other two also pay (and would receive) 附加分
        ("其他每人"); False: they sit the hand out entirely ("完全不参与战斗"), only the opponent pays.
    open_trick: the round still on the table when the hand ends — ``top``: its top player captures
        it (and a big combination on top earns its bonus); ``nobody``: it counts for no one.
    hands: how many hands a match has.
    """

    fanbao_rights: Literal["next", "all"] = "next"
    bystanders_pay_bonus: bool = False
    open_trick: Literal["top", "nobody"] = "top"
    hands: int = 1


@dataclass(frozen=True, slots=True)
class BanzipaoState(ClimbState):
    dealer: int | None = None  # the holder of ♠7 (everyone knows who that is)
    bao: int | None = None  # the seat that bid 包
    fanbao: int | None = None  # the seat that answered with 反包
    called: Card | None = None  # the card the dealer called (public)
    captured: tuple[int, ...] = ()  # cards captured (得牌) by each seat
    bonuses: tuple[ScoreLine, ...] = ()  # 附加分 earned so far this hand


def mode_of(state: BanzipaoState) -> Mode | None:
    """Who fights whom this hand: ``bao`` (one against three), ``fanbao`` (a duel) or ``call``
    (two against two); None during the auction."""
    if state.fanbao is not None:
        return "fanbao"
    if state.bao is not None:
        return "bao"
    return "call" if state.called is not None else None


def partner_of(state: BanzipaoState) -> int | None:
    """The dealer's partner in a two-against-two hand (the called card's holder, or who played
    it); None in any other hand."""
    sides = GAME.hand_sides(state)
    if mode_of(state) != "call" or sides is None:
        return None
    holders = mark_holders(sides, state.hands, dict(state.marks_played))
    return holders[0] if holders else None


def sides_of(state: BanzipaoState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides of the hand: the bidder's (or the dealer's with his partner) first.

    Raises:
        ValueError: the auction has not decided the sides yet.
    """
    sides = GAME.hand_sides(state)
    if sides is None:
        raise ValueError("the sides are not decided yet")
    return teams(sides, state.hands, dict(state.marks_played))


@functools.cache
def _auction_sides(
    bao: int | None, fanbao: int | None, dealer: int | None, called: Card | None
) -> Sides | None:
    """The sides the auction made (``Banzipao.hand_sides``), one value for each of its outcomes,
    made once: the climbing core asks at every play. None: the auction is not over."""
    if fanbao is not None:
        return Sides(first=(bao or 0,), second=(fanbao,))
    if bao is not None:
        return Sides(first=(bao,))
    if called is not None:
        return Sides(first=(dealer or 0,), marks=(called,), named=True)
    return None


class Banzipao(ClimbingGame[BanzipaoState]):
    info: ClassVar[GameInfo] = INFO
    state_type = BanzipaoState
    seat_phases = frozenset({"bid", "call", "play"})
    speaking_phases = frozenset({"bid"})
    captures_tricks = True  # "此人抓得本轮出牌的所有牌"
    bomb_kinds = frozenset({"bomb", "banzipao", "dou", "guntong"})
    option_labels = OPTION_LABELS
    words = WORDS

    def __init__(self) -> None:
        super().__init__()
        self.handle(CallCard, self._decide_call)
        self.evolve_by(CardCalled, self._on_called)

    # --- the table ------------------------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        return BanzipaoOptions()

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck()  # "使用去掉大小王的一副牌，即52张"

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def first_turn(self, state: BanzipaoState, hands: tuple[Hand, ...]) -> int:
        """ "每局均以抓到黑桃7者为庄家…庄家具有叫牌的优先发言权": the ♠7 holder speaks first."""
        seat = holder_of(hands, SPADE_SEVEN)
        return 0 if seat is None else seat

    def start_hand(self, state: BanzipaoState) -> dict[str, Any]:
        return super().start_hand(state) | {
            "dealer": None,
            "bao": None,
            "fanbao": None,
            "called": None,
            "captured": (0,) * state.config.players,
            "bonuses": (),
        }

    def opening(self, state: BanzipaoState, dealt: Dealt) -> Changes:
        """ "庄家具有叫牌的优先发言权": the auction opens with the dealer, then in turn."""
        n = state.config.players
        order = tuple((dealt.leader + i) % n for i in range(n))
        return self.speaking_round(order, "bid") | {"dealer": dealt.leader}

    def deal_consequences(self, state: BanzipaoState) -> list[Event]:
        """ "玩家只要抓到此牌型，就直接判胜，无需对局": a 天牌 ends the hand at the deal, and no
        other score applies ("既不计算牌局分也无需计算附加分")."""
        found = tianpai_winner(state.hands, state.dealer or 0)
        if found is None:
            return []
        winner, kind = found
        lines = tianpai_lines(winner, kind, state.config.players)
        scores = net_scores(lines, state.config.players)
        return [
            HandEnded(hand_no=state.hand_no, order=(winner,), lines=tuple(lines), scores=scores)
        ]

    # --- the auction ------------------------------------------------------------------------------

    def words_now(self, state: BanzipaoState, seat: int) -> tuple[str, ...]:
        """What the seat to speak may say: 包 or 不包, or (after a 包) 反包 or not."""
        return ("pass", "bao") if state.bao is None else ("pass", "fanbao")

    def _fanbao_answerers(self, state: BanzipaoState, bao: int) -> tuple[int, ...]:
        """Who may answer ``bao``'s 包, in order: "如果有人选择包牌了，则他的下家还可以选择反包"."""
        n = state.config.players
        after = tuple((bao + i) % n for i in range(1, n))
        return after[:1] if state.config.options.fanbao_rights == "next" else after

    def heard(self, state: BanzipaoState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """The auction: "依次由闲家选择包牌或不包" — each speaks once from the dealer; a 包 is
        answered by its answerers in turn; a 反包 starts a duel; when the order has gone round
        without a 包 the dealer calls a card ("如果四人均发言完毕，仍无人包牌，则轮到庄家叫牌"),
        and after a 包 nobody answered, its bidder leads."""
        n = state.config.players
        if event.bid == "bao":
            answerers = self._fanbao_answerers(state, event.seat)
            return {"bao": event.seat, "to_speak": answerers, "turn": answerers[0]}
        if event.bid == "fanbao":
            fighters = (state.bao, event.seat)
            return {
                "fanbao": event.seat,
                "to_speak": (),
                "benched": tuple(s for s in range(n) if s not in fighters),
            } | self._play_from(state.bao)  # "均由包牌者首先出牌"
        if to_speak:
            return {}
        if state.bao is None:
            return {"phase": "call", "turn": state.dealer}
        return self._play_from(state.bao)

    @staticmethod
    def _play_from(seat: int | None) -> dict[str, Any]:
        return {"phase": "play", "turn": seat, "leader": seat}

    def _decide_call(self, state: BanzipaoState, command: CallCard) -> list[Event]:
        """ "此时庄家必须叫一张手中没有的牌"."""
        self.require_phase(state, "call")
        if command.seat != state.turn:
            raise RuleError("not_your_turn")
        card = command.card
        code = format_card(card)
        if card not in self.pack(state.config):
            raise RuleError("card_not_in_pack", [code], card=code)
        if card in state.hands[command.seat]:
            raise RuleError("call_own_card", [code], card=code)
        return [CardCalled(seat=command.seat, card=card)]

    def _on_called(self, state: BanzipaoState, event: CardCalled) -> dict[str, Any]:
        """ "拿到此张牌的人，则成为庄家的朋友"; "如果庄家叫牌，则由庄家先出牌"."""
        return {
            "called": event.card,
        } | self._play_from(event.seat)

    def legal_moves(self, state: BanzipaoState, seat: int) -> list[Command]:
        if seat != state.turn:
            return []
        if state.phase == "bid":
            return [Bid(seat=seat, bid=b) for b in self.words_now(state, seat)]
        if state.phase == "call":  # the highest cards first: a bot calls a strong partner
            own = set(state.hands[seat])
            return [
                CallCard(seat=seat, card=c)
                for c in sorted(self.pack(state.config), key=lambda c: (-(c >> 2), c))
                if c not in own
            ]
        return super().legal_moves(state, seat)

    # --- play -----------------------------------------------------------------------------------

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        combo = combo_of(cards)
        return [] if combo is None else [combo]

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return beats(combo, lead)

    def generate_plays(self, state: BanzipaoState, seat: int) -> list[Candidate]:
        return generate(state.hands[seat], state.lead)

    def trick_won(self, state: BanzipaoState, event: TrickWon) -> Changes:
        """ "大住牌而没其他人要时，则一轮出牌结束，此人抓得本轮出牌的所有牌"."""
        return self._round_won(state, event.seat, len(event.cards), Combo(event.kind, event.key, 0))

    def _round_won(
        self, state: BanzipaoState, top: int, cards: int, combo: Combo
    ) -> dict[str, Any]:
        """The round goes to its top player: its cards, and a bonus for a 豆 or a 滚筒 on top
        ("如果玩家打出此大牌型并且大住牌…都会得到相应的附加分")."""
        captured = list(state.captured)
        captured[top] += cards
        return {
            "captured": tuple(captured),
            "bonuses": state.bonuses + tuple(self._bonus(state, top, combo)),
        }

    def _bonus(self, state: BanzipaoState, seat: int, combo: Combo) -> list[ScoreLine]:
        """The 附加分 for ``combo`` on top: every other player pays, but in a duel the two sitting
        out (unless ``bystanders_pay_bonus``)."""
        out_of_it = () if state.config.options.bystanders_pay_bonus else state.benched
        payers = [s for s in range(state.config.players) if s != seat and s not in out_of_it]
        return bonus_lines(combo, seat, payers)

    def hand_sides(self, state: BanzipaoState) -> Sides | None:
        """包: one against three; 反包: a duel (the two others sit out); 叫牌: the dealer and the
        holder of the called card, secret until it is played ("拿到此张牌的人，则成为庄家的朋友")."""
        return _auction_sides(state.bao, state.fanbao, state.dealer, state.called)

    def hand_over(self, state: BanzipaoState) -> bool:
        """包 and 反包: "只要有一人出完手中牌，则结束牌局". Two against two: once both of one side
        are out — 双飞 if none of the other side is, else with three out (the two readings of
        when the game ends agree, see the rules document)."""
        if mode_of(state) != "call":
            return bool(state.out)
        return any(all(s in state.out for s in side) for side in sides_of(state))

    def final_round(self, state: BanzipaoState) -> BanzipaoState:
        """The state with the round still on the table settled the table's way (``open_trick``)."""
        if state.config.options.open_trick != "top" or state.lead is None:
            return state
        on_table = len(state.discards) - state.trick_start
        return copy_with(state, self._round_won(state, state.lead_seat or 0, on_table, state.lead))

    def score(self, state: BanzipaoState) -> HandEnded:
        """The bonuses earned in the hand, then what 包, 反包 or two against two pays
        (``banzipao_scoring``), the round still on the table settled first (``open_trick``)."""
        state = self.final_round(state)
        n = state.config.players
        mode = mode_of(state)
        bidder_side, other_side = sides_of(state)
        lines: list[ScoreLine] = list(state.bonuses)
        if mode == "bao":
            lines += bao_lines(state.out[0], bidder_side[0], other_side)
        elif mode == "fanbao":
            lines += fanbao_lines(state.out[0], bidder_side[0], other_side[0])
        else:
            lines += two_against_two_lines(state.out, state.captured, bidder_side, other_side)
        return HandEnded(
            hand_no=state.hand_no,
            order=self.finishing_order(state),
            lines=tuple(lines),
            scores=net_scores(lines, n),
        )

    def hand_scored(self, state: BanzipaoState, event: HandEnded) -> Changes:
        """The captures as they were counted: the open round settled, and in two against two the
        last player's captures handed to the first one out."""
        if state.phase != "play":
            return {}
        settled = self.final_round(state)
        call = mode_of(state) == "call"
        captured = settled.captured
        return {"captured": settled_captures(captured, settled.out) if call else captured}

    # --- what a seat sees ---------------------------------------------------------------------------

    def partner_public(self, state: BanzipaoState) -> bool:
        """The partner is known once the called card is played, or the hand is over."""
        called = state.called
        return called is not None and (called in state.discards or state.phase != "play")

    def view_extra(self, state: BanzipaoState, seat: int | None) -> dict[str, Any]:
        out = super().view_extra(state, seat)
        out |= {
            "dealer": state.dealer,
            "bids": [list(b) for b in state.said],
            "bao": state.bao,
            "fanbao": state.fanbao,
            "called_card": None if state.called is None else format_card(state.called),
            "partner": partner_of(state) if self.partner_public(state) else None,
            "captured": list(state.captured),
            "trick_cards": len(state.discards) - state.trick_start if state.lead else 0,
            "bonus_lines": [dataclasses.asdict(line) for line in state.bonuses],
        }
        return out

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """For ``client.state_from_view``: the called card (the view names it by its code), the
        auction's words (``bids``), the bonuses, and where this round began (the view counts its
        cards)."""
        code = view.get("called_card")
        counts = view.get("counts") or ()
        played = HAND_SIZE * len(counts) - sum(counts)
        return {
            "called": None if code is None else parse_card(code),
            "said": tuple((int(seat), str(word)) for seat, word in view.get("bids") or ()),
            "bonuses": tuple(ScoreLine(**line) for line in view.get("bonus_lines") or ()),
            "trick_start": played - int(view.get("trick_cards") or 0),
        }


GAME = Banzipao()

__all__ = [
    "GAME",
    "Banzipao",
    "BanzipaoOptions",
    "BanzipaoState",
    "mode_of",
    "partner_of",
    "sides_of",
]
