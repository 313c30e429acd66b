"""通山打拱 Dagong (seed 004): four players, two decks with their four jokers (108 cards), 27 each,
ranks 2 > A > … > 3; the jokers are wildcards (癞子). 5, 10 and K are points (200 in all).

A hand goes: the deal, a card turned face up choosing the first hand's dealer (later, the last
一游 deals) and the dealer's called card (叫牌) shown: the holder of its other copy is his secret
partner (明鸡 when he plays it) → a speaking round for 明独 (one against three; only the first out
counts) → play, the dealer leading. A round's points go to its last player (抓分); 接风: a player
out with a play nobody beats hands the lead to his partner once the partnership is known, else to
the next player. Two against two, one side out first and second wins outright (绑), else the side
with more points (100–100: the side of 末游 loses). 番: 吼 ×4, 绑 ×2, 喜钱 for 天炸 / 8喜 / 7喜 /
四套硬510K whatever the result, and a 番 won or lost by each 拱拢 (and 天炸 / 8喜 / 7喜 / 四套硬510K)
played. Amount = stake × 番.

This module is the table: the deal, the speaking round, play, what a seat sees, the bots. Beside
it: ``dagong_catalogue`` (options, words, names), ``dagong_calling`` (the first dealer and the
called card), ``dagong_combos`` (the combinations, the bomb ladder and the generator) and
``dagong_scoring`` (points, 喜钱, 番 and the settlement). docs/rules/dagong.md quotes the phrase
behind every choice; the readings the text leaves open are options.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from paiju.cards import SMALL_JOKER, Card, Hand, build_deck, format_card, parse_card
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.games import dagong_playout
from paiju.protocol import (
    Bid,
    BidMade,
    Command,
    Dealt,
    HandEnded,
    Pass,
    Played,
    ScoreLine,
    TrickWon,
)
from paiju.results import PointsFanXi
from paiju.sides import Sides, is_public, mark_holders
from paiju.table import Changes, Config, GameInfo

from .dagong_calling import HAND_SIZE, PLAYERS, bombs_dealt, called_card, first_dealer
from .dagong_catalogue import INFO, OPTION_LABELS, OPTIONS_BEFORE, WORDS, DagongOptions
from .dagong_combos import (
    BOMBS,
    MAX_CARDS,
    POINTS,
    Fans,
    beats,
    fan_table,
    generate,
    readings,
    rung,
)
from .dagong_scoring import FinishedHand, hand_ended, played_fan, points_of, xiqian_of

GONG_SIZES = MAX_CARDS - 8 + 1  # the 番 table: a 拱拢 of 8 … 27 cards
ORDINARY_RUNG = 3  # bombs a bot may spend on a rich round: 五十K and ordinary bombs (``rung``)
RICH_ROUND = 20  # points on the table worth a plain bomb


@functools.lru_cache(maxsize=64)
def _fans(soft: tuple[int, ...], by_cards: bool) -> Fans:
    """``fan_table``, made once a table's options (every move of a play-out asks for it)."""
    return fan_table(soft, by_cards)


@dataclass(frozen=True, slots=True)
class DagongState(ClimbState):
    dealer: int | None = None
    called: Card | None = None  # the dealer's called card (public)
    turned: Card | None = None  # the first hand's card turned up, choosing the dealer
    solo: int | None = None  # the seat that declared 明独
    points: tuple[int, ...] = ()  # points captured by each seat this hand
    trick_points: int = 0  # points in the round on the table
    xiqian: tuple[ScoreLine, ...] = ()  # 喜钱 owed from the deal
    big_plays: tuple[tuple[int, str, int], ...] = ()  # (seat, reason, 番) of each 番 bomb played


class Dagong(ClimbingGame[DagongState]):
    info: ClassVar[GameInfo] = INFO
    state_type = DagongState
    seat_phases = frozenset({"declare", "play"})
    speaking_phases = frozenset({"declare"})
    captures_tricks = True  # "最后得到任意出牌权的玩家获得这些分数"
    readings_matter = True  # 77 88 + two jokers: 667788, 778899 or 777888
    bomb_kinds = BOMBS
    option_labels = OPTION_LABELS
    options_before = OPTIONS_BEFORE
    words = WORDS
    result_type = PointsFanXi

    # --- the table ------------------------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        return DagongOptions()

    def check_config(self, config: Config[Any]) -> None:
        super().check_config(config)
        fans = config.options.gonglong_fan
        if len(fans) != GONG_SIZES or any(not 0 <= f <= 2047 for f in fans):
            raise ValueError(f"gonglong_fan needs {GONG_SIZES} figures from 0 to 2047")

    def pack(self, config: Config[Any]) -> Hand:
        return build_deck(decks=2, jokers=True)  # "使用牌数：2副扑克牌108张"

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def fans(self, config: Config[Any]) -> Fans:
        options = config.options
        return _fans(tuple(options.gonglong_fan), options.gonglong_tie == "more_cards")

    def points_played(self, state: DagongState) -> tuple[Mapping[int, int], int]:
        """Every round taken is counted in ``points``, the round on the table in
        ``trick_points``."""
        return POINTS, sum(state.points) + state.trick_points

    def _dealer_before_deal(self, state: DagongState) -> int | None:
        """After the first hand: "其后则以上局的一游玩家为庄家"."""
        last = state.last_hand
        return last.order[0] if last is not None and last.order else None

    def first_to_draw(self, state: DagongState) -> int:
        """ "庄家首先发牌…逆时针": the dealer deals, his next player receiving the first card."""
        dealer = self._dealer_before_deal(state)
        return 0 if dealer is None else (dealer + 1) % PLAYERS

    def _deal_facts(
        self, state: DagongState, drawn: Sequence[Hand]
    ) -> tuple[int, Card | None, Card | None]:
        dealer = self._dealer_before_deal(state)
        turned: Card | None = None
        if dealer is None:
            dealer, turned = first_dealer(drawn)
        run_out = state.config.options.call_run_out
        return dealer, turned, called_card(drawn[dealer], turned is not None, run_out)

    def face_up(self, state: DagongState, drawn: tuple[Hand, ...], rest: Hand) -> Hand:
        """The card turned up for the first dealer (first hand), then the called card."""
        _, turned, called = self._deal_facts(state, drawn)
        return tuple(c for c in (turned, called) if c is not None)

    def first_turn(self, state: DagongState, hands: tuple[Hand, ...]) -> int:
        dealer = self._dealer_before_deal(state)
        return first_dealer(hands)[0] if dealer is None else dealer

    def start_hand(self, state: DagongState) -> dict[str, Any]:
        return super().start_hand(state) | {
            "dealer": None,
            "called": None,
            "turned": None,
            "solo": None,
            "points": (0,) * state.config.players,
            "trick_points": 0,
            "xiqian": (),
            "big_plays": (),
        }

    def opening(self, state: DagongState, dealt: Dealt) -> Changes:
        """The called card is shown, then "每个玩家都有明独的权利": a speaking round from the
        dealer."""
        dealer, turned, called = self._deal_facts(state, dealt.hands)
        order = tuple((dealer + i) % PLAYERS for i in range(PLAYERS))
        xiqian = xiqian_of(dealt.hands, state.config.options.stake)
        return self.speaking_round(order, "declare") | {
            "dealer": dealer,
            "called": called,
            "turned": turned,
            "xiqian": tuple(xiqian),
            # no card to call (never in practice): the dealer plays alone
            "solo": None if called is not None else dealer,
        }

    # --- 明独 --------------------------------------------------------------------------------------

    def words_now(self, state: DagongState, seat: int) -> tuple[str, ...]:
        return ("budu", "mingdu")

    def heard(self, state: DagongState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """The first 明独 ends the round; when all have said 不独, play begins, the dealer leading
        ("庄家首先发牌出牌")."""
        if event.bid == "mingdu":
            return {"solo": event.seat, "to_speak": ()} | self._play_from(state.dealer)
        return {} if to_speak else self._play_from(state.dealer)

    @staticmethod
    def _play_from(seat: int | None) -> dict[str, Any]:
        return {"phase": "play", "turn": seat, "leader": seat}

    def legal_moves(self, state: DagongState, seat: int) -> list[Command]:
        if state.phase != "declare":
            return super().legal_moves(state, seat)
        if seat != state.turn:
            return []
        return [Bid(seat=seat, bid=word) for word in self.words_now(state, seat)]

    # --- play -----------------------------------------------------------------------------------

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        return readings(cards, self.fans(config))

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return beats(combo, lead)

    def generate_plays(self, state: DagongState, seat: int) -> list[Candidate]:
        return generate(state.hands[seat], state.lead, self.fans(state.config))

    def on_play(self, state: DagongState, event: Played) -> Changes:
        """The round's points grow by the play's; each 拱拢 (its 番 from the table's figures) and
        each 天炸, 8喜, 7喜 and 四套硬510K played is noted: its side wins or loses its 番 at the end."""
        on_table = (state.trick_points if state.lead is not None else 0) + points_of(event.cards)
        changes: Changes = {"trick_points": on_table}
        fan = played_fan(event.kind, event.key)
        if fan is None:
            return changes
        reason = f"fan_{event.kind}"
        return changes | {"big_plays": (*state.big_plays, (event.seat, reason, fan))}

    def trick_won(self, state: DagongState, event: TrickWon) -> Changes:
        """ "当一轮中有分数时，则最后得到任意出牌权的玩家获得这些分数"."""
        points = list(state.points)
        points[event.seat] += state.trick_points
        return {"points": tuple(points), "trick_points": 0}

    def hand_sides(self, state: DagongState) -> Sides | None:
        """明独: one against three; else the dealer and the holder of the called card's other
        copy, secret until he plays it ("另一家拥有与庄家叫牌相同牌的玩家即和庄家成为对家")."""
        if state.dealer is None:
            return None
        if state.solo is not None:
            return Sides(first=(state.solo,))
        if state.called is None:
            return None
        return Sides(first=(state.dealer,), marks=(state.called,), named=True)

    def partner_known(self, state: DagongState) -> bool:
        """明鸡: the partner has played the called card."""
        sides = self.hand_sides(state)
        return (
            sides is not None and bool(sides.marks) and is_public(sides, dict(state.marks_played))
        )

    def partner_of(self, state: DagongState) -> int | None:
        sides = self.hand_sides(state)
        if sides is None or not sides.marks:
            return None
        holders = mark_holders(sides, state.hands, dict(state.marks_played))
        return holders[0] if holders else None

    def next_leader(self, state: DagongState, winner: int) -> int:
        """接风: "当玩家出的最后一手牌为最大时，若庄家的对家已明鸡确定关系，由各自对家接风；
        若未明鸡确定关系，由下家接风"."""
        if state.hands[winner]:
            return winner
        if state.solo is None and self.partner_known(state):
            first, second = self.teams(state)
            side = first if winner in first else second
            mate = next((s for s in side if s != winner), None)
            if mate is not None and state.hands[mate]:
                return mate
        return self.next_active(state, state.hands, winner)

    def hand_over(self, state: DagongState) -> bool:
        """明独: "该局只以最先的名次决定胜负" — the first out ends it. Two against two: 绑 (one side
        out first and second) ends it, else the third out (末游 is left)."""
        out = state.out
        if state.solo is not None:
            return bool(out)
        if len(out) >= 3:
            return True
        if len(out) == 2:
            first, _ = self.teams(state)
            return (out[0] in first) == (out[1] in first)
        return False

    def _on_table(self, state: DagongState) -> tuple[int, ...]:
        """Points captured with the round still on the table given to its top player."""
        points = list(state.points)
        if state.lead is not None and state.lead_seat is not None:
            points[state.lead_seat] += state.trick_points
        return tuple(points)

    def score(self, state: DagongState) -> HandEnded:
        """The settlement (``dagong_scoring.hand_ended``) of the facts of the hand now over."""
        order = self.finishing_order(state)
        hand = FinishedHand(
            hand_no=state.hand_no,
            order=order,
            out=state.out,
            teams=self.teams(state),
            solo=state.solo,
            points=self._on_table(state),
            unplayed=points_of(state.hands[order[-1]]),
            xiqian=state.xiqian,
            big_plays=state.big_plays,
            options=state.config.options,
        )
        return hand_ended(hand)

    # --- bots -------------------------------------------------------------------------------------

    def bot_finish(self, state: DagongState) -> tuple[DagongState, HandEnded, int] | None:
        """The hand played out by the 普通 bot's rules on cards taken apart by rank
        (``dagong_playout``), without listing every play of a hand: in phase ``play`` only."""
        if state.phase != "play":
            return None
        fans, sides = self.fans(state.config), self.hand_sides(state)
        end, moves = dagong_playout.play_out(state, fans, sides, ORDINARY_RUNG, RICH_ROUND)
        return end, self.score(end), moves

    def bot_choice(self, state: DagongState, seat: int, moves: list[Command]) -> Command:
        """明独 only with a hand of overwhelming bombs; in play: go out when possible, let a known
        ally's play stand (``allies``: only what the seat can know), keep jokers and bombs — the
        cheapest natural play that does the job; jokers and bombs only to stop an opponent close
        to going out (the least bomb), a plain bomb without jokers for a round of 20 points or
        more; leading, the lowest and longest natural combination."""
        if state.phase == "declare":
            strong = bombs_dealt(state.hands[seat])
            return Bid(seat=seat, bid="mingdu" if strong >= 7 else "budu")
        plays = self.candidates(state, seat)
        can_pass = any(isinstance(m, Pass) for m in moves)
        hand = state.hands[seat]
        for candidate in plays:
            if len(candidate[0]) == len(hand):
                return self._play_of(seat, candidate)
        allies = self.allies(state, seat)
        if can_pass and state.lead_seat in allies:
            return Pass(seat=seat)
        others = [len(h) for s, h in enumerate(state.hands) if s != seat and h and s not in allies]
        danger = min(others, default=99) <= 3

        def jokers(p: Candidate) -> int:
            return sum(1 for c in p[0] if c >= SMALL_JOKER)

        ordinary = [p for p in plays if p[1].kind not in BOMBS]
        natural = [p for p in ordinary if not jokers(p)]
        bombs = [p for p in plays if p[1].kind in BOMBS]

        def least_bomb(pool: list[Candidate]) -> Command:
            return self._play_of(seat, min(pool, key=lambda p: (jokers(p), rung(p[1]))))

        if not can_pass:  # leading: shed the lowest, longest, natural cards first
            pool = natural or ordinary
            if pool:
                return self._play_of(
                    seat, min(pool, key=lambda p: (jokers(p), p[1].key, -len(p[0]), p[0]))
                )
            return least_bomb(bombs) if bombs else moves[0]
        if danger:  # an opponent is about to go out: as high as possible, a bomb if need be
            if ordinary:
                return self._play_of(seat, max(ordinary, key=lambda p: (p[1].key, -jokers(p))))
            if bombs:
                return least_bomb(bombs)
        if natural:
            return self._play_of(seat, min(natural, key=lambda p: (p[1].key, p[0])))
        cheap = [p for p in bombs if not jokers(p) and rung(p[1])[0] <= ORDINARY_RUNG]
        if cheap and state.trick_points >= RICH_ROUND:  # a rich round: a plain bomb takes it
            return least_bomb(cheap)
        return Pass(seat=seat) if can_pass else moves[0]

    # --- what a seat sees -------------------------------------------------------------------------

    def named_cards(self, state: DagongState) -> Hand:
        """The called card, and the first hand's card turned up to choose the dealer: both are
        shown to everyone while their holders keep them ("随机翻一张明牌")."""
        turned = () if state.turned is None else (state.turned,)
        return (*super().named_cards(state), *turned)

    def view_extra(self, state: DagongState, seat: int | None) -> dict[str, Any]:
        out = super().view_extra(state, seat)
        known = self.partner_known(state) or state.phase not in ("declare", "play")
        in_trick = len(state.discards) - state.trick_start if state.lead is not None else 0
        out |= {
            "dealer": state.dealer,
            "bids": [list(b) for b in state.said],
            "solo": state.solo,
            "called_card": None if state.called is None else format_card(state.called),
            "turned_card": None if state.turned is None else format_card(state.turned),
            "partner": self.partner_of(state) if known and state.solo is None else None,
            "captured_points": list(state.points),
            "trick_points": state.trick_points if state.lead is not None else 0,
            "trick_cards": in_trick,
            # 喜钱 come from hidden hands: on the sheet once the hand is over
            "xiqian_lines": [
                {"reason": x.reason, "payer": x.payer, "payee": x.payee, "amount": x.amount}
                for x in state.xiqian
            ]
            if state.phase not in ("declare", "play")
            else [],
            "big_plays": [list(b) for b in state.big_plays],
        }
        return out

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        called = view.get("called_card")
        turned = view.get("turned_card")
        counts = view.get("counts") or ()
        played = HAND_SIZE * len(counts) - sum(counts)
        partner = view.get("partner")
        marks: tuple[tuple[Card, int], ...] = ()
        if called is not None and partner is not None and view.get("phase") == "play":
            marks = ((parse_card(called), int(partner)),)  # 明鸡: the partner played it
        return {
            "marks_played": marks,
            "called": None if called is None else parse_card(called),
            "turned": None if turned is None else parse_card(turned),
            "said": tuple((int(s), str(w)) for s, w in view.get("bids") or ()),
            "points": tuple(int(p) for p in view.get("captured_points") or ()),
            "xiqian": tuple(ScoreLine(**x) for x in view.get("xiqian_lines") or ()),
            "big_plays": tuple((int(a), str(b), int(c)) for a, b, c in view.get("big_plays") or ()),
            "trick_start": played - int(view.get("trick_cards") or 0),
        }


GAME = Dagong()

__all__ = ["GAME", "Dagong", "DagongState"]
