"""玩具 Toy: a tiny climbing game that exists only in the tests, to prove that a game is its own
module — combinations, a command and an event of its own, error codes and words — and that the
engine's generic parts (simulate, selfcheck, the audit, the catalogue) carry it without an edit.

Two or three players, the 24 cards 3 … 8 of one deck, six each (the rest is an unused pile). Before
play the seat that drew first shows one of its cards face up (``ShowCard``, its own command): its
holder leads. Plays: a single, a pair, two pairs (``two_pairs``, any two ranks) and a run of pairs
(``pair_run``, two or more consecutive ranks). 5566 is both two pairs and a run of pairs, and the
two do not beat the same things, so the player must say which he means (a reading). A play beats
one of its own kind and size with a higher top rank. The first player out wins one point per card
each other seat still holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from paiju.cards import Card, Hand, build_deck, format_card, rank_counts
from paiju.climbing import Candidate, ClimbingGame, ClimbState, Combo
from paiju.errors import RuleError, register_messages
from paiju.protocol import Command, Event, HandEnded, ScoreLine, net_scores, register
from paiju.table import MATCH_HANDS, Changes, Config, GameInfo, Variant
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Words, merged

TOP = 5  # ranks 3..8 are the notation's 0..5
HAND_SIZE = 6


@register
@dataclass(frozen=True, slots=True)
class ShowCard(Command):
    """Show a card of one's own face up (the game's own command; its field is a card by type)."""

    TYPE: ClassVar[str] = "toy_show_card"
    seat: int
    shown: Card


@register
@dataclass(frozen=True, slots=True)
class CardShown(Event):
    TYPE: ClassVar[str] = "toy_card_shown"
    seat: int
    shown: Card

    def as_command(self) -> Command:
        return ShowCard(seat=self.seat, shown=self.shown)


WORDS = merged(
    CORE_WORDS,
    CLIMBING_WORDS,
    Words(
        phases={"show": ("亮牌", "showing a card")},
        kinds={"two_pairs": ("两对", "two pairs"), "pair_run": ("连对", "run of pairs")},
        reasons={"toy_cards_left": ("玩具剩牌", "toy cards left")},
        errors={"toy_not_held": ("只能亮自己的牌：{card}", "Show a card you hold: {card}")},
        events={"toy_card_shown": ("{name} 亮出 {card}", "{name} shows {card}")},
        facts={"shown_card": ("亮的牌", "card shown")},
    ),
)
register_messages(WORDS.errors)


@dataclass(frozen=True, slots=True)
class ToyOptions:
    hands: int = 1


@dataclass(frozen=True, slots=True)
class ToyState(ClimbState):
    shown: Card | None = None


def combo_of(cards: Sequence[Card]) -> list[Combo]:
    """Every reading of ``cards``."""
    counts = rank_counts(cards)
    ranks = [r for r, k in enumerate(counts) if k]
    if not ranks or ranks[-1] > TOP:
        return []
    if len(cards) == 1:
        return [Combo("single", ranks[0], 1)]
    if len(ranks) == 1 and len(cards) == 2:
        return [Combo("pair", ranks[0], 2)]
    if any(counts[r] != 2 for r in ranks):
        return []
    found = []
    if len(ranks) == 2:
        found.append(Combo("two_pairs", ranks[-1], 4))
    if ranks[-1] - ranks[0] == len(ranks) - 1:
        found.append(Combo("pair_run", ranks[-1], len(cards)))
    return found


class Toy(ClimbingGame[ToyState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="toy",
        name_zh="玩具",
        name_en="Toy",
        region_zh="测试",
        region_en="Tests",
        description_zh="只在测试中存在的小游戏。",
        description_en="A tiny game that exists only in the tests.",
        variants=(Variant("plain", "普通", "Plain", (2, 3), "24张。", "24 cards."),),
    )
    state_type = ToyState
    seat_phases = frozenset({"show", "play"})
    readings_matter = True
    words = WORDS
    option_labels: ClassVar[dict[str, Any]] = {"hands": MATCH_HANDS}

    def __init__(self) -> None:
        super().__init__()
        self.handle(ShowCard, self.decide_show)
        self.evolve_by(CardShown, self.on_shown)

    def variant_options(self, variant: str) -> ToyOptions:
        return ToyOptions()

    def pack(self, config: Config[Any]) -> Hand:
        return tuple(c for c in build_deck() if c >> 2 <= TOP)

    def hand_size(self, config: Config[Any]) -> int:
        return HAND_SIZE

    def first_turn(self, state: ToyState, hands: tuple[Hand, ...]) -> int:
        return self.first_to_draw(state)

    def opening(self, state: ToyState, dealt: Any) -> Changes:
        return {"phase": "show", "shown": None}

    def decide_show(self, state: ToyState, command: ShowCard) -> list[Event]:
        self.require_phase(state, "show")
        if command.seat != state.turn:
            raise RuleError("not_your_turn")
        if command.shown not in state.hands[command.seat]:
            code = format_card(command.shown)
            raise RuleError("toy_not_held", [code], card=code)
        return [CardShown(seat=command.seat, shown=command.shown)]

    def on_shown(self, state: ToyState, event: CardShown) -> Changes:
        return {"phase": "play", "shown": event.shown}

    def legal_moves(self, state: ToyState, seat: int) -> list[Command]:
        if state.phase == "show" and seat == state.turn:
            return [ShowCard(seat=seat, shown=c) for c in state.hands[seat]]
        return super().legal_moves(state, seat)

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        return combo_of(cards)

    def beats(self, combo: Combo, lead: Combo) -> bool:
        return (combo.kind, combo.size) == (lead.kind, lead.size) and combo.key > lead.key

    def generate_plays(self, state: ToyState, seat: int) -> list[Candidate]:
        hand = state.hands[seat]
        found: list[Candidate] = []
        for size in range(1, len(hand) + 1):
            for cards in _subsets(hand, size):
                for combo in combo_of(cards):
                    if state.lead is None or self.beats(combo, state.lead):
                        found.append((cards, combo))
        return found

    def score(self, state: ToyState) -> HandEnded:
        winner = state.out[0]
        lines = [
            ScoreLine("toy_cards_left", s, winner, len(h))
            for s, h in enumerate(state.hands)
            if s != winner and h
        ]
        return HandEnded(
            hand_no=state.hand_no,
            order=self.finishing_order(state),
            lines=tuple(lines),
            scores=net_scores(lines, state.config.players),
        )

    def view_extra(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        shown = None if state.shown is None else format_card(state.shown)
        return super().view_extra(state, seat) | {"shown_card": shown}


def _subsets(hand: Hand, size: int) -> list[Hand]:
    """Distinct sub-multisets of ``hand`` of ``size`` cards (one per choice of cards)."""
    from itertools import combinations

    return sorted(set(combinations(hand, size)))


GAME = Toy()
