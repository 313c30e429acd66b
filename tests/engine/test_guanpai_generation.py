"""legal_moves is exact: for random hands and random plays on the table, the plays it lists are
precisely the sub-hands that classify as a combination and beat the table — checked against a
brute force over every sub-multiset of ranks."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.cards import rank_counts
from paiju.climbing import group_by_rank, take
from paiju.errors import RuleError
from paiju.games.guanpai import GAME, GuanpaiState, classify_cards


def brute_force(state: GuanpaiState, seat: int) -> set[tuple[int, ...]]:
    """Every sub-multiset of ranks that the rules accept now, as rank-count vectors."""
    hand = state.hands[seat]
    counts = rank_counts(hand)
    groups = group_by_rank(hand)
    options = state.config.options
    found = set()
    for pick in itertools.product(*(range(c + 1) for c in counts[:13])):
        if not any(pick):
            continue
        cards = take(groups, [(r, n) for r, n in enumerate(pick) if n])
        try:
            combos = classify_cards(options, cards, last_hand=len(cards) == len(hand))
        except RuleError:
            continue
        if state.lead is not None:
            combos = [c for c in combos if GAME.beats(c, state.lead)]
        if combos:
            found.add(tuple(pick))
    return found


def position(variant: str, hand_size: int, seed: int, lead_size: int) -> tuple[GuanpaiState, int]:
    """A random hand for seat 0 and, if ``lead_size``, a random combination on the table."""
    rng = random.Random(seed)
    config = GAME.config(variant)
    pack = list(GAME.pack(config))
    rng.shuffle(pack)
    mine = tuple(sorted(pack[:hand_size]))
    others = tuple(sorted(pack[hand_size : hand_size + 16]))
    rest = tuple(sorted(pack[hand_size + 16 : hand_size + 32]))
    base = dataclasses.replace(
        GAME.initial_state(config),
        phase="play",
        hand_no=1,
        hands=(mine, others, rest),
        turn=0,
        leader=0,
    )
    state = dataclasses.replace(base, **GAME.start_hand(base))
    if lead_size:
        plays = [
            p
            for p in GAME.candidates(dataclasses.replace(state, turn=1), 1)
            if len(p[0]) == lead_size
        ]
        if plays:
            cards, combo = rng.choice(plays)
            state = dataclasses.replace(state, lead=combo, lead_seat=1, actions=((), cards, None))
    return state, 0


@pytest.mark.parametrize("variant", ["boke", "mainstream", "suzhou"])
@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    hand_size=st.integers(1, 11),
    lead_size=st.sampled_from([0, 0, 1, 2, 3, 4, 5, 6, 8, 10]),
)
def test_legal_plays_are_exactly_the_brute_force_set(
    variant: str, seed: int, hand_size: int, lead_size: int
) -> None:
    state, seat = position(variant, hand_size, seed, lead_size)
    generated = [rank_counts(cards)[:13] for cards, _ in GAME.candidates(state, seat)]
    as_set = {tuple(c) for c in generated}
    assert len(as_set) == len(generated), "a play is listed twice"
    assert as_set == brute_force(state, seat)
