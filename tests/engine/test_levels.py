"""The bots' levels (paiju.levels): 入门 slips now and then, 普通 is the sensible bot; both play
only legal moves, whole matches of every game, and the same state always gives the same move."""

from __future__ import annotations

import pytest

from paiju import api, bots, levels
from paiju.protocol import Command
from paiju.simulate import play_game
from paiju.table import TableState

GAMES = [(game["id"], game["variants"][0]["id"]) for game in api.list_games()]


@pytest.mark.parametrize(("game", "variant"), GAMES)
def test_a_beginner_plays_whole_matches_legally_and_slips_now_and_then(
    game: str, variant: str
) -> None:
    config = api.make_config(game, variant)
    decisions: list[tuple[Command, Command]] = []

    def beginner(state: TableState, seat: int, moves: list[Command]) -> Command:
        move = levels.choose(state, seat, "basic")
        assert move in moves  # legal: one of the seat's moves now
        assert levels.choose(state, seat, "basic") == move  # the same state, the same move
        if len(moves) > 1:
            decisions.append((move, bots.choose(state, seat)))
        return move

    state, _ = play_game(config, f"levels-{game}", beginner)
    assert state.phase == "over"
    slips = sum(move != sensible for move, sensible in decisions)
    # about one choice in three is drawn at random (and a draw may hit the sensible move)
    assert 0 < slips < len(decisions) * 0.6, (slips, len(decisions))


def test_normal_is_the_sensible_bot_and_the_default() -> None:
    assert levels.DEFAULT_LEVEL == "normal"
    assert levels.level("normal").choose is bots.choose


def test_an_unknown_level_is_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match="basic, normal"):
        levels.level("grandmaster")


def test_the_catalogue_names_every_level_the_default_first() -> None:
    for game in api.list_games():
        assert game["levels"] == [
            {"id": "normal", "name_zh": "普通", "name_en": "Normal"},
            {"id": "basic", "name_zh": "入门", "name_en": "Beginner"},
            {"id": "expert", "name_zh": "高手", "name_en": "Expert"},
        ]
