"""The climbing-game core (关牌, 大北, 条数, 板子炮, 打拱): plays and passes, who leads, when a
trick is over, the finishing order — and the rank-pattern helpers that games use to classify cards
and to generate plays fast.

A game supplies ``classify`` (cards → the combinations they can be), ``beats``, ``candidates``
(every legal play now) and ``score``; optional hooks add its own constraints (必管, 顶大, a card
that the first play must contain). Seats are numbered in the order of play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from paiju.cards import RANK_COUNT, Card, Hand, card_codes, format_card, remove_cards
from paiju.errors import RuleError
from paiju.protocol import Command, Event, HandEnded, Pass, Passed, Play, Played
from paiju.table import Changes, Config, TableGame, TableState


@dataclass(frozen=True, slots=True)
class Combo:
    """A classified play: its kind (a stable code), its comparison key and its number of cards."""

    kind: str
    key: int
    size: int


@dataclass(frozen=True, slots=True)
class ClimbState(TableState):
    lead: Combo | None = None  # the combination on top of the current trick
    lead_seat: int | None = None
    passes: int = 0  # passes since the last play
    out: tuple[int, ...] = ()  # seats that have played out, in order
    discards: Hand = ()  # every card played this hand, in order
    actions: tuple[Hand | None, ...] = ()  # this trick: a seat's play, () a pass, None nothing yet
    benched: tuple[int, ...] = ()  # seats that sit this hand out (板子炮's 包 against 反包)


C = TypeVar("C", bound=ClimbState)
Candidate = tuple[Hand, Combo]


class ClimbingGame(TableGame[C]):
    state_type = ClimbState
    # the kinds a bot keeps for when they matter (they beat other kinds)
    bomb_kinds: frozenset[str] = frozenset({"bomb"})

    def __init__(self) -> None:
        super().__init__()
        self.handle(Play, self._decide_play)
        self.handle(Pass, self._decide_pass)
        self.evolve_by(Played, self._on_played)
        self.evolve_by(Passed, self._on_passed)
        self._plays_memo: tuple[C, int, list[Candidate]] | None = None

    # --- hooks ----------------------------------------------------------------------------------

    def combinations(
        self, config: Config[Any], cards: Hand, last_hand: bool = False
    ) -> list[Combo]:
        """Every combination ``cards`` can be under ``config``, the preferred one first.
        ``last_hand``: the cards are the player's whole remaining hand.

        Raises:
            RuleError: a game may name a more precise reason than ``invalid_combination``.
        """
        raise NotImplementedError

    def classify(self, state: C, seat: int, cards: Hand) -> list[Combo]:
        """Every combination ``cards`` can be for this seat now."""
        return self.combinations(state.config, cards, len(cards) == len(state.hands[seat]))

    def beats(self, combo: Combo, lead: Combo) -> bool:
        raise NotImplementedError

    def generate_plays(self, state: C, seat: int) -> list[Candidate]:
        """Every legal play of ``seat`` now (the lead, or what beats the lead)."""
        raise NotImplementedError

    def candidates(self, state: C, seat: int) -> list[Candidate]:
        """``generate_plays``, remembered for the last state asked about: ``legal_moves`` and then
        ``decide`` of a pass (必管) ask twice about one state. States are immutable, and the memo
        holds the state, so its identity cannot be reused while it is remembered."""
        memo = self._plays_memo
        if memo is not None and memo[0] is state and memo[1] == seat:
            return memo[2]
        plays = self.generate_plays(state, seat)
        must = self.opening_card(state) if not state.discards else None
        if must is not None:
            plays = [p for p in plays if must in p[0]]
        self._plays_memo = (state, seat, plays)
        return plays

    def opening_card(self, state: C) -> Card | None:
        """A card the first play of the hand must contain (大北's ♦4), or None."""
        return None

    def check_play(self, state: C, seat: int, cards: Hand, combo: Combo) -> None:
        """Further constraints on a play that classifies and beats. Raises RuleError."""

    def check_pass(self, state: C, seat: int, plays: Callable[[], list[Candidate]]) -> None:
        """Further constraints on passing (必管); ``plays()`` gives the seat's legal plays.
        Raises RuleError."""

    def allies(self, state: C, seat: int) -> frozenset[int]:
        """The seats ``seat`` knows to be on its side, from what it may see (a bot lets an ally's
        play stand). Default: none."""
        return frozenset()

    def hand_over(self, state: C) -> bool:
        """After a play: is the hand over? Default: as soon as one seat is out."""
        return bool(state.out)

    def on_play(self, state: C, event: Played) -> Changes:
        """A game's own changes when a play is made, given the state before it (大北 notes who
        played ♠3 and ♠A)."""
        return {}

    def trick_won(self, state: C, winner: int) -> Changes:
        """A game's own changes when a trick closes (everyone else passed), given the state before
        the last pass: ``winner`` played its top combination (板子炮 captures the trick's cards)."""
        return {}

    def next_leader(self, state: C, winner: int) -> int:
        """Who leads after ``winner`` won a trick: the winner, or if out the next seat still
        playing (a game with 接风 hands the lead to the winner's partner)."""
        return winner if state.hands[winner] else self.next_active(state, state.hands, winner)

    def finishing_order(self, state: C) -> tuple[int, ...]:
        """Every seat in finishing order: those out, in order, then the others, fewest cards
        first (ties in seat order)."""
        rest = sorted(
            (s for s in range(state.config.players) if s not in state.out),
            key=lambda s: len(state.hands[s]),
        )
        return (*state.out, *rest)

    def score(self, state: C) -> HandEnded:
        raise NotImplementedError

    # --- decide -----------------------------------------------------------------------------------

    def _check_turn(self, state: C, seat: int) -> None:
        self._require(state, "play")
        if seat != state.turn:
            raise RuleError("not_your_turn")

    def _decide_play(self, state: C, command: Play) -> list[Event]:
        seat, cards = command.seat, tuple(sorted(command.cards))
        self._check_turn(state, seat)
        if not cards:
            raise RuleError("empty_play")
        codes = card_codes(cards)
        if remove_cards(state.hands[seat], cards) is None:
            raise RuleError("not_in_hand", codes, play=" ".join(codes))
        combos = self.classify(state, seat, cards)
        if not combos:
            raise RuleError("invalid_combination", codes, play=" ".join(codes))
        lead = state.lead
        if lead is not None:
            combos = [c for c in combos if self.beats(c, lead)]
            if not combos:
                on_table = state.actions[state.lead_seat or 0] or ()
                raise RuleError(
                    "does_not_beat",
                    codes,
                    play=" ".join(codes),
                    lead=" ".join(card_codes(on_table)),
                )
        combo = combos[0]
        must = self.opening_card(state) if not state.discards else None
        if must is not None and must not in cards:
            raise RuleError("must_include_card", codes, card=format_card(must))
        self.check_play(state, seat, cards, combo)
        played = Played(seat=seat, cards=cards, kind=combo.kind, key=combo.key)
        events: list[Event] = [played]
        if len(cards) == len(state.hands[seat]):  # going out is the only way a hand can end
            after = self.evolve(state, played)
            if self.hand_over(after):
                events.append(self.score(after))
        return events

    def _decide_pass(self, state: C, command: Pass) -> list[Event]:
        self._check_turn(state, command.seat)
        if state.lead is None:
            raise RuleError("cannot_pass_lead")
        self.check_pass(state, command.seat, lambda: self.candidates(state, command.seat))
        return [Passed(seat=command.seat)]

    # --- evolve -----------------------------------------------------------------------------------

    def start_hand(self, state: C) -> dict[str, Any]:
        n = state.config.players
        return {
            "lead": None,
            "lead_seat": None,
            "passes": 0,
            "out": (),
            "discards": (),
            "actions": (None,) * n,
            "benched": (),
        }

    def next_active(self, state: C, hands: tuple[Hand, ...], seat: int) -> int:
        """The next seat after ``seat`` that still holds cards and is not benched."""
        n = len(hands)
        benched = state.benched
        for step in range(1, n + 1):
            s = (seat + step) % n
            if hands[s] and s not in benched:
                return s
        return seat

    def _on_played(self, state: C, event: Played) -> dict[str, Any]:
        seat = event.seat
        hands = list(state.hands)
        hands[seat] = remove_cards(hands[seat], event.cards) or ()
        actions: list[Hand | None] = (
            list(state.actions) if state.lead is not None else [None] * state.config.players
        )
        actions[seat] = event.cards
        new_hands = tuple(hands)
        return self.on_play(state, event) | {
            "hands": new_hands,
            "lead": Combo(event.kind, event.key, len(event.cards)),
            "lead_seat": seat,
            "passes": 0,
            "out": state.out if hands[seat] else (*state.out, seat),
            "discards": state.discards + event.cards,
            "actions": tuple(actions),
            "turn": self.next_active(state, new_hands, seat),
        }

    def _on_passed(self, state: C, event: Passed) -> dict[str, Any]:
        lead_seat = state.lead_seat if state.lead_seat is not None else event.seat
        benched = state.benched
        responders = sum(
            1 for s, h in enumerate(state.hands) if h and s != lead_seat and s not in benched
        )
        passes = state.passes + 1
        if passes < responders:
            actions = list(state.actions)
            actions[event.seat] = ()
            return {
                "passes": passes,
                "actions": tuple(actions),
                "turn": self.next_active(state, state.hands, event.seat),
            }
        # everybody else passed: the trick is over and its winner (or the game's choice) leads
        return self.trick_won(state, lead_seat) | {
            "lead": None,
            "lead_seat": None,
            "passes": 0,
            "actions": (None,) * state.config.players,
            "turn": self.next_leader(state, lead_seat),
        }

    # --- queries ----------------------------------------------------------------------------------

    def legal_moves(self, state: C, seat: int) -> list[Command]:
        if state.phase != "play" or seat != state.turn:
            return []
        plays = self.candidates(state, seat)
        moves: list[Command] = [Play(seat=seat, cards=cards) for cards, _ in plays]
        if state.lead is not None:
            try:
                self.check_pass(state, seat, lambda: plays)
                moves.append(Pass(seat=seat))
            except RuleError:
                pass
        return moves

    def view_extra(self, state: C, seat: int | None) -> dict[str, Any]:
        lead = state.lead
        return {
            "lead": None
            if lead is None
            else {
                "seat": state.lead_seat,
                "kind": lead.kind,
                "key": lead.key,
                "size": lead.size,
                "cards": card_codes(state.actions[state.lead_seat or 0] or ()),
            },
            "actions": [None if a is None else card_codes(a) for a in state.actions],
            "out": list(state.out),
            "benched": list(state.benched),
        }


# --- rank patterns: the shared vocabulary for classifying and generating plays ------------------


def group_by_rank(hand: Sequence[Card]) -> list[list[Card]]:
    """The cards of a hand grouped by rank (index = rank)."""
    groups: list[list[Card]] = [[] for _ in range(RANK_COUNT)]
    for c in hand:
        groups[c >> 2].append(c)
    return groups


def take(groups: list[list[Card]], pattern: Sequence[tuple[int, int]]) -> Hand:
    """Concrete cards for a rank pattern ``[(rank, count), ...]``: the first cards of each rank."""
    if len(pattern) == 1:
        rank, count = pattern[0]
        return tuple(groups[rank][:count]) if count == 1 else tuple(sorted(groups[rank][:count]))
    out: list[Card] = []
    for rank, count in pattern:
        out.extend(groups[rank][:count])
    return tuple(sorted(out))


def windows(
    counts: Sequence[int], order: Sequence[int], width: int, length: int
) -> Iterator[tuple[int, ...]]:
    """Every run of ``length`` consecutive positions of ``order`` whose ranks each have at least
    ``width`` cards; yields the ranks of the run (lowest first)."""
    run = 0
    for pos, rank in enumerate(order):
        run = run + 1 if counts[rank] >= width else 0
        if run >= length:
            yield tuple(order[pos - length + 1 : pos + 1])


def kicker_patterns(
    counts: Sequence[int], exclude: Sequence[int], k: int, pairs_only: bool = False
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every choice of ``k`` kicker cards, by rank, from ranks not in ``exclude``.

    Yields tuples of ``(rank, count)``. With ``pairs_only`` the kickers are pairs of one rank each.
    """
    ranks = [r for r in range(RANK_COUNT) if counts[r] and r not in exclude]
    if k == 2 and not pairs_only:  # the common case, without recursion
        for i, rank in enumerate(ranks):
            if counts[rank] >= 2:
                yield ((rank, 2),)
            for other in ranks[i + 1 :]:
                yield ((rank, 1), (other, 1))
        return
    step = 2 if pairs_only else 1

    def rec(i: int, left: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if left == 0:
            yield ()
            return
        if i == len(ranks):
            return
        rank = ranks[i]
        most = min(counts[rank], left)
        if pairs_only:
            most = 2 if most >= 2 else 0
        for take_n in range(most, 0, -step):
            for rest in rec(i + 1, left - take_n):
                yield ((rank, take_n), *rest)
        yield from rec(i + 1, left)

    yield from rec(0, k)
