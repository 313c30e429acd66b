"""What must always hold, over thousands of random games: they end scored and never raise, every
card stays in exactly one place, no view shows a card of another seat's hand, and replaying the
events (also through their JSON form) rebuilds the very same state."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import reduce
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju import api
from paiju.cards import card_codes
from paiju.protocol import Play, decode, encode
from paiju.registry import get_game
from paiju.simulate import play_game

CONFIGS = [
    ("guanpai", "boke", 3),
    ("guanpai", "mainstream", 3),
    ("guanpai", "mainstream", 2),
    ("guanpai", "suzhou", 3),
    ("guanpai", "suzhou", 2),
]


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def check_step(game: Any, state: Any) -> None:
    pack = Counter(game.pack(state.config))
    held = Counter(c for hand in state.hands for c in hand)
    assert held + Counter(state.rest) + Counter(state.discards) == pack, "cards not conserved"
    if state.phase != "play":
        return
    for seat in [None, *range(state.config.players)]:
        seen = strings_in(api.view(state, seat))
        for other, hand in enumerate(state.hands):
            if other != seat:
                assert not (seen & set(card_codes(hand))), f"seat {seat} sees cards of seat {other}"


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_end_scored_conserve_cards_and_replay(
    game_id: str, variant: str, players: int, seed: int
) -> None:
    game = get_game(game_id)
    config = game.config(variant, players, hands=2)
    rng = random.Random(seed)
    checked = {"steps": 0}

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        assert moves, "a seat to move always has a legal move"
        if checked["steps"] % 7 == 0:  # views are costly: check every seventh decision
            check_step(game, state)
        checked["steps"] += 1
        return rng.choice(moves)

    state, events = play_game(config, f"prop-{seed}", choose)
    assert state.phase == "over"
    assert state.last_hand is not None and sum(state.last_hand.scores) == 0
    assert sum(state.totals) == 0 and state.hand_no == 2
    replayed = reduce(game.evolve, events, game.initial_state(config))
    assert replayed == state
    via_json = [decode(json.loads(json.dumps(encode(e)))) for e in events]
    assert via_json == events


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_views_never_leak_at_any_step(game_id: str, variant: str, players: int) -> None:
    game = get_game(game_id)
    rng = random.Random(0)

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        check_step(game, state)
        return rng.choice(moves)

    for seed in range(40):
        play_game(game.config(variant, players), f"leak-{seed}", choose)


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_every_legal_move_is_accepted_and_a_random_play_is_legal(
    game_id: str, variant: str, players: int
) -> None:
    """decide accepts every move legal_moves offers; a refused play is never offered."""
    game = get_game(game_id)
    rng = random.Random(7)
    offered = refused = 0

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        nonlocal offered, refused
        for move in moves:
            game.decide(state, move)
            offered += 1
        hand = state.hands[seat]
        pick = tuple(sorted(rng.sample(hand, rng.randint(1, min(5, len(hand))))))
        legal = {m.cards for m in moves if isinstance(m, Play)}
        try:
            game.decide(state, Play(seat=seat, cards=pick))
        except ValueError:
            refused += 1
            assert pick not in legal
        return rng.choice(moves)

    for seed in range(30):
        play_game(game.config(variant, players), f"accept-{seed}", choose)
    assert offered > 1000 and refused > 100
