"""The climbing-game core (关牌, 大北, 条数, 板子炮, 打拱): plays and passes, who leads, when a
trick is over, the finishing order. The rank-pattern helpers that games use to classify cards and
to generate plays fast live in ``paiju.rank_patterns``.

A game supplies ``classify`` (cards → the combinations they can be), ``beats``, ``candidates``
(every legal play now) and ``score``; optional hooks add its own constraints (必管, 顶大, a card
that the first play must contain). Seats are numbered in the order of play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, TypeVar

from paiju.cards import (
    RANK_NAMES,
    Card,
    Hand,
    card_codes,
    card_name,
    format_card,
    is_joker,
    parse_cards,
    rank_of,
    remove_cards,
)
from paiju.errors import PaijuError, RuleError
from paiju.protocol import (
    Command,
    Event,
    HandEnded,
    Pass,
    Passed,
    Play,
    Played,
    Reading,
    TrickWon,
    trusted_play,
)
from paiju.sides import known_allies, teams, twins
from paiju.table import Changes, Config, TableGame, TableState, copy_with


class Combo(NamedTuple):
    """A classified play: its kind (a stable code), its comparison key, its number of cards and
    what each wildcard in it stands for (empty in a game without wildcards). ``kind`` and
    ``stands_for`` are the play's reading. A named tuple: generators make thousands of these per
    decision, and a tuple is made several times faster than a frozen dataclass."""

    kind: str
    key: int
    size: int
    stands_for: Hand = ()

    @property
    def reading(self) -> Reading:
        return Reading(kind=self.kind, stands_for=self.stands_for)


def said(cards: Hand, stands_for: Hand) -> str:
    """A set with wildcards as players say it: its ranks low to high, each wildcard (a joker) as
    the rank it stands for. ♣7 ♣7 + two jokers read as a bomb is "7777", as a 连对 "6677".
    A joker that stands for nothing is named as itself.

    >>> said(parse_cards("7C 7C BJ RJ"), parse_cards("7S 7S"))
    '7777'
    >>> said(parse_cards("7C 7C BJ RJ"), parse_cards("6S 6S"))
    '6677'
    """
    wild = len(stands_for)
    natural = [c for c in cards if not is_joker(c)]
    jokers = sorted(c for c in cards if is_joker(c))[wild:]
    ranks = [RANK_NAMES[rank_of(c)] for c in sorted([*natural, *stands_for])]
    return "".join([*ranks, *(card_name(c) for c in jokers)])


@dataclass(frozen=True, slots=True)
class ClimbState(TableState):
    lead: Combo | None = None  # the combination on top of the current trick
    lead_seat: int | None = None
    passes: int = 0  # passes since the last play
    out: tuple[int, ...] = ()  # seats that have played out, in order
    discards: Hand = ()  # every card played this hand, in order
    actions: tuple[Hand | None, ...] = ()  # this trick: a seat's play, () a pass, None nothing yet
    benched: tuple[int, ...] = ()  # seats that sit this hand out (板子炮's 包 against 反包)
    trick_start: int = 0  # where the current trick begins in ``discards``
    marks_played: tuple[tuple[Card, int], ...] = ()  # cards of ``sides.marks`` played, and by whom


C = TypeVar("C", bound=ClimbState)
Candidate = tuple[Hand, Combo]


class ClimbingGame(TableGame[C]):
    state_type = ClimbState
    # the kinds a bot keeps for when they matter (they beat other kinds)
    bomb_kinds: frozenset[str] = frozenset({"bomb"})
    # whether a selection's readings are the player's choice: a selection that still has several
    # readings after the lead is applied is refused (``ambiguous_reading``) unless the play names
    # one. False: the game's documented default, the first reading that may be played, is taken.
    readings_matter: ClassVar[bool] = False
    # whether a trick's winner captures it (its cards, its points): such a game records every
    # trick won as a ``trick_won`` event, which its ``trick_won`` hook reads and an auditor sees
    captures_tricks: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
        self.handle(Play, self._decide_play)
        self.handle(Pass, self._decide_pass)
        self.evolve_by(Played, self._on_played)
        self.evolve_by(Passed, self._on_passed)
        self.evolve_by(TrickWon, self._on_trick_won)
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

    def pass_refused(self, state: C, seat: int, plays: Callable[[], list[Candidate]]) -> str | None:
        """Why ``seat`` may not pass a play on the table (必管): a ``RuleError`` code, or None.
        ``plays()`` gives its legal plays. Not raised: ``legal_moves`` asks at every follow."""
        return None

    def allies(self, state: C, seat: int) -> frozenset[int]:
        """The seats ``seat`` knows to be on its side, from what it may see (a bot lets an ally's
        play stand): from the hand's ``sides`` (none when each plays for himself)."""
        sides = self.hand_sides(state)
        if sides is None:
            return frozenset()
        return known_allies(sides, state.hands, dict(state.marks_played), seat)

    def teams(self, state: C) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The two sides of the hand as they truly are (for scoring).

        Raises:
            ValueError: the hand has no sides.
        """
        sides = self.hand_sides(state)
        if sides is None:
            raise ValueError("this hand has no sides")
        return teams(sides, state.hands, dict(state.marks_played))

    def named_cards(self, state: C) -> Hand:
        """The marks of the hand's sides, when they are named in public (a called card)."""
        sides = self.hand_sides(state)
        return sides.marks if sides is not None and sides.named else ()

    def indistinguishable(self, state: C) -> list[tuple[C, tuple[int | None, ...]]]:
        """While a mark is unplayed, its holder's side is secret: the same state with the mark in
        another seat's hand must look the same to everyone but the two seats involved."""
        sides = self.hand_sides(state)
        if state.phase != "play" or sides is None or not sides.marks:
            return []
        return [
            (copy_with(state, {"hands": hands}), (None, *watchers))
            for hands, watchers in twins(sides, state.hands, dict(state.marks_played))
        ]

    def hand_over(self, state: C) -> bool:
        """After a play: is the hand over? Default: as soon as one seat is out."""
        return bool(state.out)

    def on_play(self, state: C, event: Played) -> Changes:
        """A game's own changes when a play is made, given the state before it (大北 notes who
        played ♠3 and ♠A)."""
        return {}

    def trick_won(self, state: C, event: TrickWon) -> Changes:
        """A game's own changes when a trick is won (everyone else passed; the table is already
        cleared): ``event`` names the winner, its top play and every card of the trick (板子炮
        captures them)."""
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
        self.require_phase(state, "play")
        if seat != state.turn:
            raise RuleError("not_your_turn")

    def _decide_play(self, state: C, command: Play) -> list[Event]:
        seat, cards = command.seat, command.cards  # sorted: ``decide`` normalised the command
        self._check_turn(state, seat)
        if not cards:
            raise RuleError("empty_play")
        codes = card_codes(cards)
        if remove_cards(state.hands[seat], cards) is None:
            raise RuleError("not_in_hand", codes, play=" ".join(codes))
        combos = self.classify(state, seat, cards)
        if not combos:
            raise RuleError("invalid_combination", codes, play=" ".join(codes))
        reading = command.reading
        if reading is not None:
            combos = [c for c in combos if c.reading == reading]
            if not combos:
                raise RuleError("reading_not_possible", codes, play=" ".join(codes))
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
        if reading is None and self.readings_matter and len({c.reading for c in combos}) > 1:
            raise RuleError("ambiguous_reading", codes, play=" ".join(codes))
        combo = combos[0]
        must = self.opening_card(state) if not state.discards else None
        if must is not None and must not in cards:
            raise RuleError("must_include_card", codes, card=format_card(must))
        self.check_play(state, seat, cards, combo)
        played = Played(
            seat=seat, cards=cards, kind=combo.kind, key=combo.key, stands_for=combo.stands_for
        )
        events: list[Event] = [played]
        if len(cards) == len(state.hands[seat]):  # going out is the only way a hand can end
            after = self.evolve(state, played)
            if self.hand_over(after):
                events.append(self.score(after))
        return events

    def _decide_pass(self, state: C, command: Pass) -> list[Event]:
        seat = command.seat
        self._check_turn(state, seat)
        if state.lead is None:
            raise RuleError("cannot_pass_lead")
        refused = self.pass_refused(state, seat, lambda: self.candidates(state, seat))
        if refused is not None:
            raise RuleError(refused)
        passed = Passed(seat=seat)
        if (
            not self.captures_tricks
            or state.lead_seat is None
            or state.passes + 1 < self._responders(state)
        ):
            return [passed]
        trick = state.discards[state.trick_start :]
        lead = state.lead
        won = TrickWon(seat=state.lead_seat, cards=trick, kind=lead.kind, key=lead.key)
        return [passed, won]

    def _responders(self, state: C) -> int:
        """How many seats answer the play on the table: everyone else still playing."""
        lead_seat, benched = state.lead_seat, state.benched
        return sum(
            1 for s, h in enumerate(state.hands) if h and s != lead_seat and s not in benched
        )

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
            "trick_start": 0,
            "marks_played": (),
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
            "lead": Combo(event.kind, event.key, len(event.cards), event.stands_for),
            "trick_start": len(state.discards) if state.lead is None else state.trick_start,
            "marks_played": self._marks_played(state, event),
            "lead_seat": seat,
            "passes": 0,
            "out": state.out if hands[seat] else (*state.out, seat),
            "discards": state.discards + event.cards,
            "actions": tuple(actions),
            "turn": self.next_active(state, new_hands, seat),
        }

    def _marks_played(self, state: C, event: Played) -> tuple[tuple[Card, int], ...]:
        sides = self.hand_sides(state)
        if sides is None or not sides.marks or event.seat in sides.first:
            return state.marks_played  # a public member's copy of a mark shows nobody
        found = tuple((c, event.seat) for c in event.cards if c in sides.marks)
        return state.marks_played + found if found else state.marks_played

    def _on_passed(self, state: C, event: Passed) -> dict[str, Any]:
        lead_seat = state.lead_seat if state.lead_seat is not None else event.seat
        passes = state.passes + 1
        if passes < self._responders(state):
            actions = list(state.actions)
            actions[event.seat] = ()
            return {
                "passes": passes,
                "actions": tuple(actions),
                "turn": self.next_active(state, state.hands, event.seat),
            }
        # everybody else passed: the trick is over and its winner (or the game's choice) leads;
        # the ``trick_won`` event that follows says who won what
        return {
            "lead": None,
            "lead_seat": None,
            "passes": 0,
            "actions": (None,) * state.config.players,
            "turn": self.next_leader(state, lead_seat),
        }

    def public_state(self, config: Config[Any], view: Mapping[str, Any]) -> Changes:
        """The trick on the table as a seat's view shows it: each seat's play or pass, who is out
        or sits the hand out, the combination on top (as the view states it) and the passes since
        (every seat still playing between the top play and the seat to move has passed)."""
        n = config.players
        counts = [int(c) for c in view.get("counts") or ()]
        benched = tuple(view.get("benched") or ())
        actions = tuple(
            None if a is None else parse_cards(a) for a in view.get("actions") or [None] * n
        )
        changes: Changes = {
            "actions": actions,
            "out": tuple(view.get("out") or ()),
            "benched": benched,
            "lead": None,
            "lead_seat": None,
            "passes": 0,
        }
        lead = view.get("lead")
        if lead is not None:
            lead_seat = int(lead["seat"])
            stands_for = parse_cards(lead.get("stands_for") or ())
            combo = Combo(str(lead["kind"]), int(lead["key"]), int(lead["size"]), stands_for)
            turn = view.get("turn")
            passes = 0
            seat = (lead_seat + 1) % n
            while turn is not None and seat not in (turn, lead_seat):
                passes += 1 if counts[seat] and seat not in benched else 0
                seat = (seat + 1) % n
            changes |= {"lead": combo, "lead_seat": lead_seat, "passes": passes}
        return changes

    def single_strength(self, config: Config[Any], card: Card) -> int:
        """A card's key as a single, where the game has singles."""
        try:
            singles = [c for c in self.combinations(config, (card,)) if c.kind == "single"]
        except PaijuError:
            singles = []
        return singles[0].key if singles else super().single_strength(config, card)

    def bot_choice(self, state: C, seat: int, moves: list[Command]) -> Command:
        """In play: go out when possible, let a known ally's play stand, play as high as possible
        against an opponent about to go out, else shed the lowest combination (the longer the
        better), keeping bombs for when they matter. Outside play: the table's choice."""
        if state.phase != "play":
            return super().bot_choice(state, seat, moves)
        plays = self.candidates(state, seat)
        can_pass = any(isinstance(m, Pass) for m in moves)
        hand = state.hands[seat]
        for candidate in plays:
            if len(candidate[0]) == len(hand):
                return self._play_of(seat, candidate)  # going out
        if can_pass and state.lead_seat in self.allies(state, seat):
            return Pass(seat=seat)  # an ally's play stands
        others = (len(h) for s, h in enumerate(state.hands) if s != seat and h)
        danger = min(others, default=99) <= 2
        ordinary = [p for p in plays if p[1].kind not in self.bomb_kinds]
        bombs = [p for p in plays if p[1].kind in self.bomb_kinds]
        if ordinary:
            if danger:  # an opponent is about to go out: play as high as possible
                return self._play_of(seat, max(ordinary, key=lambda p: (p[1].key, len(p[0]))))
            # shed the lowest combination, the longer the better
            return self._play_of(seat, min(ordinary, key=lambda p: (p[1].key, -len(p[0]), p[0])))
        if bombs and (danger or not can_pass):
            return self._play_of(seat, min(bombs, key=lambda p: p[1].key))
        return Pass(seat=seat) if can_pass else moves[0]

    def _play_of(self, seat: int, candidate: Candidate) -> Play:
        cards, combo = candidate
        return Play(seat=seat, cards=cards, reading=combo.reading if self.readings_matter else None)

    def _on_trick_won(self, state: C, event: TrickWon) -> Changes:
        return self.trick_won(state, event)

    # --- queries ----------------------------------------------------------------------------------

    def legal_moves(self, state: C, seat: int) -> list[Command]:
        if state.phase != "play" or seat != state.turn:
            return []
        plays = self.candidates(state, seat)
        if self.readings_matter:
            moves: list[Command] = [self._play_of(seat, candidate) for candidate in plays]
        else:  # the hot path: a play per candidate, its reading the game's default
            moves = [trusted_play(seat, cards) for cards, _ in plays]
        if state.lead is not None and self.pass_refused(state, seat, lambda: plays) is None:
            moves.append(Pass(seat=seat))
        return moves

    def view_extra(self, state: C, seat: int | None) -> dict[str, Any]:
        return {
            "lead": self._lead_view(state),
            "actions": [None if a is None else card_codes(a) for a in state.actions],
            "out": list(state.out),
            "benched": list(state.benched),
        }

    @staticmethod
    def _lead_view(state: C) -> dict[str, Any] | None:
        """The combination on top of the trick, with its cards; in a game whose wildcards stood
        in, the set as players say it (``said``: "7777")."""
        lead = state.lead
        if lead is None:
            return None
        played = state.actions[state.lead_seat or 0] or ()
        out = {
            "seat": state.lead_seat,
            "kind": lead.kind,
            "key": lead.key,
            "size": lead.size,
            "stands_for": card_codes(lead.stands_for),
            "cards": card_codes(played),
        }
        return out | {"said": said(played, lead.stands_for)} if lead.stands_for else out
