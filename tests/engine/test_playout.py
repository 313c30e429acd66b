"""The 高手 search's shortcuts play as the engine does: 打棒's fast play-out of the tricks
(``paiju.games.dabang_playout``) chooses every move the 普通 bot chooses and ends the hand the
same way, and 打拱's remembered plays (``dagong_combos.generate``) are the plays made afresh."""

from __future__ import annotations

from typing import Any

import pytest

from paiju import levels
from paiju.duel import duel_config
from paiju.games import dabang_playout, dagong_combos
from paiju.protocol import HandEnded, Play
from paiju.registry import get_game
from paiju.simulate import table_command


def played_by_bots(game_id: str, seed: str) -> list[Any]:
    """Every state of one hand of ``game_id`` played by 普通 bots, up to its end."""
    game: Any = get_game(game_id)
    state = game.initial_state(duel_config(game_id))
    states: list[Any] = []
    while True:
        command = table_command(state, seed)
        if command is None:
            states.append(state)
            command = levels.choose(state, game.to_move(state), "normal")
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            return states


@pytest.mark.parametrize("seed", ["playout-1", "playout-2"])
def test_dabang_fast_play_out_moves_as_the_normal_bot_and_ends_the_hand_alike(seed: str) -> None:
    game: Any = get_game("dabang")
    states = [s for s in played_by_bots("dabang", seed) if s.phase == "play"]
    assert states
    table = dabang_playout.Table(states[0])
    for state in states:
        seat = game.to_move(state)
        move = game.bot_choice(state, seat, game.legal_moves(state, seat))
        assert isinstance(move, Play)
        counts = [0] * dabang_playout.SIZE
        for card in state.hands[seat]:
            counts[card] += 1
        if state.trick_leader is None:
            fast = dabang_playout.lead(table, counts)
        else:
            led = state.actions[state.trick_leader]
            partner_on_top = state.winning == (seat + 2) % 4
            rules = game.rules_of(state)
            fast = dabang_playout.follow(
                table, rules, counts, led[0], len(led), partner_on_top, state.winning_key
            )
        assert fast == tuple(sorted(move.cards))
    for state in states[:: len(states) // 5]:  # from the first trick, and from mid-trick states
        end, moves = dabang_playout.play_out(state, game.rules_of(state))
        truth = state
        while True:
            seat = game.to_move(truth)
            move = game.bot_choice(truth, seat, game.legal_moves(truth, seat))
            truth, events = game.apply(truth, move)
            ended = [e for e in events if isinstance(e, HandEnded)]
            if ended:
                break
        assert game.score(end) == ended[0]
        assert moves > 0


def test_dagong_remembered_plays_are_the_plays_made_afresh() -> None:
    game: Any = get_game("dagong")
    states = [s for s in played_by_bots("dagong", "playout") if s.phase == "play"]
    assert states
    fans = game.fans(states[0].config)
    for state in states:
        for hand in state.hands:
            assert dagong_combos.generate(hand, state.lead, fans) == dagong_combos._plays(
                hand, state.lead, fans
            )
            assert dagong_combos.generate(hand, None, fans) == dagong_combos._plays(
                hand, None, fans
            )
