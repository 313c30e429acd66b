"""The deal check: for each hand dealt, does the seed revealed after it match the commitment made
before it, and does the deal follow from that seed and the players' seeds (``fairness.deal``)?
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from paiju import fairness
from paiju.protocol import DEAL_SCHEMES, DealCommitted, Dealt, Event, SeedAdded, SeedRevealed
from paiju.registry import get_game
from paiju.table import Config, TableState


@dataclass(frozen=True, slots=True)
class DealCheck:
    hand_no: int
    status: str  # "verified", "unrevealed" (the hand is not over yet), or what is wrong


def verify_deal(
    config: Config[Any], events: Iterable[Event], revealed: Mapping[int, str] | None = None
) -> list[DealCheck]:
    """For each hand dealt: does the revealed seed match the commitment, and does the deal follow
    from it and the players' seeds — every seat's cards in the order drawn, the rest in pack order
    (``fairness.deal`` by the event's scheme, from the seat the game lets draw first or draws by
    lot)? A hand whose seed is not revealed yet is "unrevealed". ``revealed``: seeds revealed elsewhere (hand number →
    seed; the audit's, from events after the ones checked), taken as ``events``' own; each is
    checked against its commitment all the same."""
    game = get_game(config.game)
    events = list(events)
    committed: dict[int, str] = {}
    seeds: dict[int, list[str | None]] = {}
    revealed = dict(revealed or {}) | {
        e.hand_no: e.seed for e in events if isinstance(e, SeedRevealed)
    }
    dealt: list[tuple[Dealt, TableState]] = []  # each deal with the state it was dealt in
    state = game.initial_state(config)
    for event in events:
        if isinstance(event, DealCommitted):
            committed[event.hand_no] = event.commitment
            seeds[event.hand_no] = [None] * config.players
        elif isinstance(event, SeedAdded) and state.hand_no in seeds:
            seeds[state.hand_no][event.seat] = event.seed
        elif isinstance(event, Dealt):
            dealt.append((event, state))
        state = game.evolve(state, event)
    checks = []
    for event, before in dealt:
        no, seed = event.hand_no, revealed.get(event.hand_no)
        if no not in committed:
            status = "no commitment before the deal"
        elif seed is None:
            status = "unrevealed"
        elif fairness.commitment_of(seed) != committed[no]:
            status = "the revealed seed does not match the commitment"
        else:
            hands, rest = fairness.deal(
                game.pack(config),
                config.players,
                game.hand_size(config),
                seed,
                seeds[no],
                event.scheme if event.scheme in DEAL_SCHEMES else "round",
                game.seat_drawing_first(before, seed),
            )
            status = (
                "verified"
                if (hands, rest) == (event.hands, event.rest)
                else "the dealt hands do not follow from the seeds"
            )
        checks.append(DealCheck(no, status))
    return checks
