"""A view does not grow with the number of hands a match has played: what a frame carries of the
past is the last hand (its score sheet and its revealed seed); every earlier hand is in the log.
Checked for every game's first variant over a 30-hand match of bots."""

from __future__ import annotations

import json
import random

import pytest

from paiju import api
from paiju.simulate import play_game, random_chooser

GAMES = [(game["id"], game["variants"][0]) for game in api.list_games()]
HANDS = 30
SLACK = 48  # bytes: totals with more digits, a longer score sheet of one hand


@pytest.mark.parametrize(("game", "variant"), GAMES, ids=[g for g, _ in GAMES])
def test_a_view_at_the_last_deal_is_no_larger_than_at_the_second(
    game: str, variant: dict[str, object]
) -> None:
    players = variant["players"]
    assert isinstance(players, (list, tuple))
    config = api.config_from_dict(
        {"game": game, "variant": variant["id"], "players": players[0], "options": {"hands": HANDS}}
    )
    _, events = play_game(config, "view-size", random_chooser(random.Random(7)))
    state = api.initial_state(config)
    sizes: dict[int, list[int]] = {}
    for event in events:
        state = api.evolve(state, event)
        if event.TYPE == "dealt":
            views = [api.view(state, seat) for seat in (None, *range(config.players))]
            sizes[state.hand_no] = [len(json.dumps(v, ensure_ascii=False)) for v in views]
    last = max(sizes)
    assert last >= 8, f"the match ended after {last} hands"
    for second, at_last in zip(sizes[2], sizes[last], strict=True):
        assert at_last <= second + SLACK, (sizes[2], sizes[last])
