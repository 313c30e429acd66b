"""legal_moves is exact: for random hands and random plays on the table, the plays it lists are
precisely the sub-hands that classify as a combination and beat the table — checked against a
brute force over every sub-multiset of ranks."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from story import Table

from paiju.cards import rank_counts
from paiju.errors import RuleError
from paiju.games.guanpai import GAME, GuanpaiState
from paiju.games.guanpai_combos import classify_cards
from paiju.rank_patterns import group_by_rank, take


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


# 苏州 "从1（A）-A，5张起": a straight may end in the high ace, also when the hand holds every rank
# (then the ranks A 2 3 … K A run on through both aces, and the windows ending in the high one were
# lost: issue 33, defect 1)
EVERY_RANK = "3S 3C 4H 5S 6D 7H 7D 8D 9C TH JC JD QS KD AC 2S"


def test_a_suzhou_lead_may_be_a_straight_to_the_high_ace_from_a_hand_of_every_rank(
    table: Callable[..., Table],
) -> None:
    t = table("suzhou", "3H 3D 4S 4C 4D 5H 5C 5D 6S 6H 6C 7S 7C 8S 8H 8C", EVERY_RANK, leader=1)
    plays = t.legal_plays(1)
    assert {"TH JC QS KD AC", "3S 4H 5S 6D 7H 8D 9C TH JC QS KD AC"} <= plays
    assert "3S 4H 5S AC 2S" in plays  # the low ace still counts
    t.play(1, "TH JC QS KD AC")


def test_a_suzhou_follower_may_beat_a_straight_with_one_to_the_high_ace(
    table: Callable[..., Table],
) -> None:
    t = table("suzhou", "4S 5H 6S 7S 8S 9S TS JS QH KS 3H 3D 4C 4D 5C 5D", EVERY_RANK, leader=0)
    t.play(0, "4S 5H 6S 7S 8S 9S TS JS QH KS")
    # one play per rank pattern (suits never matter in 关牌): the JD, listed as JC
    assert "5S 6D 7H 8D 9C TH JC QS KD AC" in t.legal_plays(1)
    t.play(1, "5S 6D 7H 8D 9C TH JD QS KD AC")


WHOLE_RANGE = "3S 4H 5S 6D 7H 8D 9C TH JC QS KD AH AC 2S"  # A 2 3 … K A: the ace at both ends


@pytest.mark.parametrize("ace_twice", [False, True])
def test_the_straight_over_the_whole_suzhou_range_is_an_option(
    table: Callable[..., Table], ace_twice: bool
) -> None:
    """「从1（A）-A」: the range of a straight, each rank once (the default), or also the one run
    over all of it, A 2 3 … K A, with two aces (``straight_ace_twice``)."""
    t = table(
        "suzhou",
        "3H 3D 4S 4C 4D 5H 5C 5D 6S 6H 6C 7S 7C 8S 8H 8C",
        f"{WHOLE_RANGE} 3C 7D",
        leader=1,
        straight_ace_twice=ace_twice,
    )
    assert (WHOLE_RANGE in t.legal_plays(1)) is ace_twice
    if ace_twice:
        t.play(1, WHOLE_RANGE)
    else:
        t.refuses_play(1, WHOLE_RANGE, "invalid_combination")
