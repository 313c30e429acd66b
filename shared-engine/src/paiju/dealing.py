"""The deal, as every game has it: the server's commitment, the seats' seeds, the deal itself,
and the hand's end up to its revealed seed and, after the last hand, the match's end.

Each step is a function of the game (``paiju.decider.Decider``: the hooks it asks, such as
``pack``, ``first_turn`` or ``match_over``), the state and the command or event; ``TableGame``
wires them in by type from ``DECIDERS`` and ``EVOLVERS``. They are here, apart from the table,
because they are the one part of a table that proves its fairness (docs/log-format.md), and
``paiju.log.deals`` checks a log against the same rules.
"""

from __future__ import annotations

import re
from typing import Any

from paiju import fairness
from paiju.changes import Changes
from paiju.commands import DEAL_SCHEMES, AddSeed, Command, CommitDeal, Deal, RevealSeed
from paiju.decider import Decider, Step
from paiju.errors import RuleError
from paiju.events import (
    DealCommitted,
    Dealt,
    Event,
    HandEnded,
    MatchEnded,
    SeedAdded,
    SeedRevealed,
)
from paiju.table_state import TableState

_HEX64 = re.compile(r"[0-9a-f]{64}")


def _decide_commit(game: Decider[Any], state: TableState, command: CommitDeal) -> list[Event]:
    game.require_phase(state, "commit")
    if not _HEX64.fullmatch(command.commitment):
        raise RuleError("bad_commitment")
    return [DealCommitted(hand_no=state.hand_no + 1, commitment=command.commitment)]


def decide_add_seed(game: Decider[Any], state: TableState, command: AddSeed) -> list[Event]:
    """A seat's own seed for the deal committed to, once per hand, while the table is seeding (a
    继续 may carry one: ``paiju.table_life``).

    Raises:
        RuleError: not seeding, the seat's seed already added, a seed empty or over 128 characters.
    """
    game.require_phase(state, "seeding")
    if state.player_seeds[command.seat] is not None:
        raise RuleError("seed_already_added")
    _check_seed(command.seed)
    return [SeedAdded(seat=command.seat, seed=command.seed)]


def _decide_deal(game: Decider[Any], state: TableState, command: Deal) -> list[Event]:
    game.require_phase(state, "seeding")
    if fairness.commitment_of(command.seed) != state.commitment:
        raise RuleError("seed_mismatch")
    if command.scheme not in DEAL_SCHEMES:
        raise RuleError("bad_command", detail=f"unknown deal scheme {command.scheme[:20]!r}")
    config = state.config
    first = game.seat_drawing_first(state, command.seed)
    drawn, rest = fairness.deal(
        game.pack(config),
        config.players,
        game.hand_size(config),
        command.seed,
        state.player_seeds,
        command.scheme,
        first,
    )
    hands = tuple(tuple(sorted(hand)) for hand in drawn)
    dealt = Dealt(
        hand_no=state.hand_no,
        hands=drawn,
        rest=rest,
        face_up=game.face_up(state, drawn, rest),
        leader=first if game.draws_first_by_lot(state) else game.first_turn(state, hands),
        scheme=command.scheme,
    )
    return [dealt, *game.deal_consequences(game.evolve(state, dealt))]


def _decide_reveal(game: Decider[Any], state: TableState, command: RevealSeed) -> list[Event]:
    game.require_phase(state, "reveal")
    if fairness.commitment_of(command.seed) != state.commitment:
        raise RuleError("seed_mismatch")
    events: list[Event] = [SeedRevealed(hand_no=state.hand_no, seed=command.seed)]
    if game.match_over(state):
        events.append(MatchEnded(totals=state.totals))
    return events


def _on_committed(game: Decider[Any], state: TableState, event: DealCommitted) -> Changes:
    return {
        "phase": "seeding",
        "hand_no": event.hand_no,
        "commitment": event.commitment,
        "player_seeds": (None,) * state.config.players,
    }


def _on_seed_added(game: Decider[Any], state: TableState, event: SeedAdded) -> Changes:
    seeds = list(state.player_seeds)
    seeds[event.seat] = event.seed
    return {"player_seeds": tuple(seeds)}


def _on_dealt(game: Decider[Any], state: TableState, event: Dealt) -> Changes:
    changes = {
        "phase": "play",
        "hands": tuple(tuple(sorted(hand)) for hand in event.hands),
        "rest": event.rest,
        "turn": event.leader,
        "leader": event.leader,
        "ready": (),
    }
    return changes | game.start_hand(state) | game.opening(state, event)


def _on_hand_ended(game: Decider[Any], state: TableState, event: HandEnded) -> Changes:
    totals = game.totals_after(state, event)
    changes = {"phase": "reveal", "turn": None, "totals": totals, "last_hand": event}
    return changes | game.hand_scored(state, event)


def _on_seed_revealed(game: Decider[Any], state: TableState, event: SeedRevealed) -> Changes:
    return {"phase": "commit", "revealed": (*state.revealed, event.seed)}


def _on_match_ended(game: Decider[Any], state: TableState, event: MatchEnded) -> Changes:
    return {"phase": "over"}


def _check_seed(seed: str) -> None:
    if not 1 <= len(seed) <= 128:
        raise RuleError("bad_seed")


# the commands the deal decides and the events it evolves by, for ``TableGame`` to wire in
DECIDERS: dict[type[Command], Step] = {
    CommitDeal: _decide_commit,
    AddSeed: decide_add_seed,
    Deal: _decide_deal,
    RevealSeed: _decide_reveal,
}
EVOLVERS: dict[type[Event], Step] = {
    DealCommitted: _on_committed,
    SeedAdded: _on_seed_added,
    Dealt: _on_dealt,
    HandEnded: _on_hand_ended,
    SeedRevealed: _on_seed_revealed,
    MatchEnded: _on_match_ended,
}
