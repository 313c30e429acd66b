"""Shared helpers for the engine's story tests: exact 关牌 positions and a table to play them on.

A position is dealt by the ``Dealt`` event itself (the event a real deal produces), so the state is
built by the engine's own ``evolve`` and every later step goes through ``paiju.api``:

    t = table("boke", "3D 5S 9H", "4S 7H", "6C KD", leader=0)
    t.play(0, "5S")
    t.refuses(Pass(seat=1), "must_beat")
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from paiju import api
from paiju.cards import Hand, build_deck, format_cards, parse_cards
from paiju.errors import RuleError
from paiju.protocol import Command, Dealt, Event, HandEnded, Pass, Play, encode


def guanpai_config(variant: str, players: int | None = None, **options: Any) -> api.Config:
    return api.make_config("guanpai", variant, players, options)


def pack_of(config: api.Config) -> Hand:
    """The cards a table of this configuration deals from."""
    return build_deck(removed=config.options.removed)


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

    def passes(self, seat: int) -> list[Event]:
        return self.do(Pass(seat=seat))

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


def deal_position(
    variant: str, *hands: str, leader: int = 0, rest: str = "", **options: Any
) -> Table:
    """A hand of ``variant`` dealt exactly as given (one string per seat), ``leader`` to play.

    The cards must come from the variant's pack and appear once; options override the variant's.
    """
    config = guanpai_config(variant, len(hands), **options)
    parsed = tuple(parse_cards(h) for h in hands)
    leftover = parse_cards(rest)
    every = [c for h in parsed for c in h] + list(leftover)
    pack = pack_of(config)
    assert len(every) == len(set(every)), "a card is dealt twice"
    assert set(every) <= set(pack), f"not in the {variant} pack: {set(every) - set(pack)}"
    state = dataclasses.replace(api.initial_state(config), phase="seeding", hand_no=1)
    dealt = Dealt(hand_no=1, hands=parsed, rest=leftover, leader=leader)
    return Table(api.evolve(state, dealt))


@pytest.fixture
def table() -> Callable[..., Table]:
    """``table(variant, hand0, hand1, ..., leader=0, **options)``: an exact position to play on."""
    return deal_position
