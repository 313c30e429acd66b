"""A fast play-out of 通山打拱's play for the 高手 search (``paiju.search``): the rest of a hand
played by the 普通 bot's rules (``Dagong.bot_choice``) on each seat's cards taken apart by rank
(``dagong_holding``: the bot's plays found directly, without listing every play of a hand), with
no event and no state copied a move; the rounds, who is out, the points, 明鸡 and 接风 as the
climbing core and ``Dagong`` keep them.

The moves are the engine's move for move, ties included, so a play-out ends the hand as the
engine's would; the tests check both over many deals. A play-out from the 高手's sampled deals
costs about 0.7 ms of CPU where the engine's took about 9 ms (CPython, 66 moves on average,
passes included): a play decision searches six candidates on up to 32 deals (``search.BUDGETS``)
where four on about five fitted.

The result is the state the hand ends in, with what scoring reads (the hands left, who is out in
what order, each seat's points and the round on the table, the 番 bombs played, the called card's
holder if he showed it): ``Dagong.score`` of it is the hand's end. It is a state for scoring
only, not one the table could have reached event by event.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from paiju.cards import BIG_JOKER, Card, Hand
from paiju.changes import copy_with
from paiju.climbing import Candidate, Combo
from paiju.games.dagong_combos import PLAIN, Fans
from paiju.games.dagong_holding import Holding, going_out, leading, least_bomb, plain_answer
from paiju.games.dagong_scoring import played_fan, points_of
from paiju.sides import Sides, is_public, known_allies, teams
from paiju.table import Config

DANGER = 3  # an opponent with this many cards or fewer is about to go out (``bot_choice``)
CARD_POINTS = tuple(points_of((c,)) for c in range(BIG_JOKER + 1))  # by card code


class HandInPlay(Protocol):
    """What the play-out reads of a state: ``DagongState``'s fields, named here so that this
    module needs nothing of the table (``dagong``) that calls it."""

    @property
    def config(self) -> Config[Any]: ...
    @property
    def hands(self) -> tuple[Hand, ...]: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def lead(self) -> Combo | None: ...
    @property
    def lead_seat(self) -> int | None: ...
    @property
    def passes(self) -> int: ...
    @property
    def out(self) -> tuple[int, ...]: ...
    @property
    def marks_played(self) -> tuple[tuple[Card, int], ...]: ...
    @property
    def solo(self) -> int | None: ...
    @property
    def points(self) -> tuple[int, ...]: ...
    @property
    def trick_points(self) -> int: ...
    @property
    def big_plays(self) -> tuple[tuple[int, str, int], ...]: ...


S = TypeVar("S", bound=HandInPlay)


class PlayOut(Generic[S]):
    """A hand in play as the play-out keeps it: each seat's cards (``Holding``), the trick on the
    table, who is out, the points, the 番 bombs played and the called card if shown, as the
    climbing core and ``Dagong`` change them; ``choice`` is the bot's move of the seat to move,
    ``play`` makes a move."""

    def __init__(
        self,
        state: S,
        fans: Fans,
        sides: Sides | None,
        ordinary_rung: int,
        rich_round: int,
    ) -> None:
        self.state, self.sides = state, sides
        self.ordinary_rung, self.rich_round = ordinary_rung, rich_round
        self.players = state.config.players
        self.seats = [Holding(h, fans) for h in state.hands]
        self.marks = sides.marks if sides is not None else ()
        self.first = sides.first if sides is not None else ()
        self.marks_played = list(state.marks_played)
        self.played = dict(state.marks_played)
        self.points, self.out = list(state.points), list(state.out)
        self.big_plays = list(state.big_plays)
        self.lead, self.lead_seat, self.passes = state.lead, state.lead_seat, state.passes
        self.trick_points = state.trick_points
        self.turn = state.turn if state.turn is not None else 0
        self.allies = self._allies()

    def hands(self) -> tuple[Hand, ...]:
        return tuple(h.hand() for h in self.seats)

    def _allies(self) -> list[frozenset[int]]:
        """What each seat knows of its side (``ClimbingGame.allies``): it changes only when the
        called card is shown."""
        if self.sides is None:
            return [frozenset()] * self.players
        hands = self.hands()
        return [known_allies(self.sides, hands, self.played, s) for s in range(self.players)]

    def choice(self) -> Candidate | None:
        """The bot's move of the seat to move (``Dagong.bot_choice``): a play, or None to pass."""
        seat, lead = self.turn, self.lead
        h = self.seats[seat]
        play = going_out(h, lead)
        if play is not None:
            return play
        if lead is None:
            return leading(h)
        allies = self.allies[seat]
        if self.lead_seat in allies:
            return None  # an ally's play stands
        others = [
            x.size for s, x in enumerate(self.seats) if s != seat and x.size and s not in allies
        ]
        plain = lead.kind in PLAIN
        if min(others, default=99) <= DANGER:  # as high as possible, a bomb if need be
            return (plain_answer(h, lead, True) if plain else None) or least_bomb(h, lead)
        play = plain_answer(h, lead, False) if plain else None  # the cheapest natural play
        if play is None and self.trick_points >= self.rich_round:  # a plain bomb takes it
            play = least_bomb(h, lead, self.ordinary_rung)
        return play

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` that holds cards (``ClimbingGame.next_active``)."""
        n = self.players
        for step in range(1, n + 1):
            if self.seats[(seat + step) % n].size:
                return (seat + step) % n
        return seat

    def next_leader(self, winner: int) -> int:
        """Who leads after ``winner`` won a round: 接风 (``Dagong.next_leader``)."""
        sides = self.sides
        if self.seats[winner].size:
            return winner
        if self.state.solo is None and sides and self.marks and is_public(sides, self.played):
            side = next(t for t in teams(sides, self.hands(), self.played) if winner in t)
            mate = next((s for s in side if s != winner), None)
            if mate is not None and self.seats[mate].size:
                return mate
        return self.next_active(winner)

    def hand_over(self) -> bool:
        """After a seat went out: is the hand over (``Dagong.hand_over``)?"""
        out = self.out
        if self.state.solo is not None or len(out) >= 3:
            return True
        if len(out) < 2 or self.sides is None:
            return False
        one, _ = teams(self.sides, self.hands(), self.played)
        return (out[0] in one) == (out[1] in one)

    def play(self, move: Candidate | None) -> bool:
        """Make the move of the seat to move (None: a pass), as the core's events would: whether
        the hand is over."""
        seat = self.turn
        if move is None:
            lead_seat = self.lead_seat
            assert lead_seat is not None, "a pass with nothing on the table"
            self.passes += 1
            seats = self.seats
            if self.passes < sum(1 for s, x in enumerate(seats) if x.size and s != lead_seat):
                self.turn = self.next_active(seat)
                return False
            self.points[lead_seat] += self.trick_points  # the round is taken
            self.turn = self.next_leader(lead_seat)
            self.lead, self.lead_seat, self.passes, self.trick_points = None, None, 0, 0
            return False
        cards, combo = move
        h = self.seats[seat]
        h.remove(cards)
        on_table = self.trick_points if self.lead is not None else 0
        self.trick_points = on_table + sum(CARD_POINTS[c] for c in cards)
        fan = played_fan(combo.kind, combo.key)
        if fan is not None:
            self.big_plays.append((seat, f"fan_{combo.kind}", fan))
        shown = [(c, seat) for c in cards if c in self.marks] if seat not in self.first else []
        if shown:  # 明鸡
            self.marks_played += shown
            self.played.update(shown)
            self.allies = self._allies()
        self.lead, self.lead_seat, self.passes = combo, seat, 0
        if not h.size:
            self.out.append(seat)
            if self.hand_over():
                return True
        self.turn = self.next_active(seat)
        return False

    def end(self) -> S:
        """The state to score (see the module docstring)."""
        changes = {
            "hands": self.hands(),
            "out": tuple(self.out),
            "points": tuple(self.points),
            "trick_points": self.trick_points,
            "lead": self.lead,
            "lead_seat": self.lead_seat,
            "passes": 0,
            "big_plays": tuple(self.big_plays),
            "marks_played": tuple(self.marks_played),
            "turn": None,
        }
        return copy_with(self.state, changes)


def play_out(
    state: S, fans: Fans, sides: Sides | None, ordinary_rung: int, rich_round: int
) -> tuple[S, int]:
    """The hand from ``state`` (phase ``play``, a full state) to its end, every seat played by
    the 普通 bot's rules (``sides``: the hand's; ``ordinary_rung`` and ``rich_round``: the bot's
    bombs for a rich round and how rich): the state to score (see the module docstring) and the
    moves played, passes included."""
    hand = PlayOut(state, fans, sides, ordinary_rung, rich_round)
    moves = 1
    while not hand.play(hand.choice()):
        moves += 1
    return hand.end(), moves


__all__ = ["HandInPlay", "PlayOut", "play_out"]
