"""Story helpers for the engine's tests, shared by every game: a hand in play and steps that
read like the table talk ("seat 0 plays 5S, seat 1 passes, seat 2 is refused 9H because …").

A position is dealt by the ``Dealt`` event itself (the event a real deal produces), so the state is
built by the engine's own ``evolve`` and every later step goes through ``paiju.api``.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from typing import Any

import pytest

from paiju import api, bots
from paiju.cards import format_card, format_cards, parse_cards
from paiju.errors import RuleError
from paiju.protocol import Command, Dealt, Event, HandEnded, Pass, Play, encode
from paiju.registry import get_game
from paiju.simulate import table_command


class Table:
    """One hand in play: the state, the events so far, and story-like steps."""

    def __init__(self, state: api.State) -> None:
        self.state = state
        self.events: list[Event] = []

    # --- steps that must succeed ----------------------------------------------------------------

    def do(self, command: Command) -> list[Event]:
        self.state, events = api.apply(self.state, command)
        self.events += events
        return events

    def play(self, seat: int, cards: str) -> list[Event]:
        return self.do(Play(seat=seat, cards=parse_cards(cards)))

    def passes(self, *seats: int) -> list[Event]:
        events: list[Event] = []
        for seat in seats:
            events += self.do(Pass(seat=seat))
        return events

    # --- steps that must be refused ---------------------------------------------------------------

    def refuses(self, command: Command, code: str) -> RuleError:
        """``command`` is refused with ``code``; the state and the table's JSON check agree."""
        before = copy.deepcopy(self.state)
        with pytest.raises(RuleError) as info:
            api.decide(self.state, command)
        assert info.value.code == code, info.value
        assert self.state == before
        assert api.check_command(self.state, encode(command)) == {
            "ok": False,
            "error": info.value.to_dict(),
        }
        return info.value

    def refuses_play(self, seat: int, cards: str, code: str) -> RuleError:
        return self.refuses(Play(seat=seat, cards=parse_cards(cards)), code)

    # --- what the table shows ---------------------------------------------------------------------

    def hand(self, seat: int) -> str:
        return format_cards(self.state.hands[seat])

    @property
    def turn(self) -> int | None:
        return api.to_move(self.state)

    @property
    def ended(self) -> HandEnded:
        result = api.result(self.state)
        assert result is not None, "the hand has not ended"
        assert self.events and self.events[-1] == result
        return result

    def legal_plays(self, seat: int) -> set[str]:
        """The plays ``legal_moves`` offers, as canonical card strings."""
        moves = api.legal_moves(self.state, seat)
        return {format_cards(m.cards) for m in moves if isinstance(m, Play)}

    def may_pass(self, seat: int) -> bool:
        return any(isinstance(m, Pass) for m in api.legal_moves(self.state, seat))

    def view(self, seat: int | None) -> dict[str, Any]:
        return api.view(self.state, seat)


def dealt(
    config: api.Config,
    hands: tuple[str, ...],
    leader: int,
    rest: str = "",
    hand_no: int = 1,
    **state: Any,
) -> Table:
    """A hand of ``config`` dealt exactly as given (one string per seat), ``leader`` to play;
    ``state`` sets further fields before the deal (e.g. the commitment of a later hand)."""
    parsed = tuple(parse_cards(h) for h in hands)
    every = Counter(c for h in (*parsed, parse_cards(rest)) for c in h)
    pack = Counter(get_game(config.game).pack(config))
    # copies counted: with several decks a code may be dealt as often as the pack holds it
    too_many = {format_card(c): n for c, n in every.items() if n > max(1, pack[c])}
    assert not too_many, f"dealt more copies than the pack holds: {too_many}"
    before = dataclasses.replace(
        api.initial_state(config), phase="seeding", hand_no=hand_no, **state
    )
    return Table(
        api.evolve(
            before,
            Dealt(
                hand_no=hand_no,
                hands=parsed,
                rest=parse_cards(rest),
                face_up=(),
                leader=leader,
                scheme="round",
            ),
        )
    )


def run_table(state: api.State, base_seed: str) -> api.State:
    """Let the table take its own steps (commit, deal, reveal) until a seat must act."""
    while state.phase != "play" and (command := table_command(state, base_seed)) is not None:
        state, _ = api.apply(state, command)
    return state


def play_hand_with_bots(state: api.State) -> api.State:
    """Let the bots play every seat until the hand is over."""
    while state.phase == "play":
        seat = api.to_move(state)
        assert seat is not None
        state, _ = api.apply(state, bots.choose(state, seat))
    return state
