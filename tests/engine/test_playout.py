"""The 高手 search's shortcuts play as the engine does: 打棒's fast play-out of the tricks
(``paiju.games.dabang_playout``) chooses every move the 普通 bot chooses and ends the hand the
same way, and 打拱's remembered plays (``dagong_combos.generate``) are the plays made afresh."""

from __future__ import annotations

from typing import Any

from paiju import levels
from paiju.duel import duel_config
from paiju.games import dagong_combos
from paiju.protocol import HandEnded
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
