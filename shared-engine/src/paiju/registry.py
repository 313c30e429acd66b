"""The games Paiju knows, by id."""

from __future__ import annotations

from typing import Any

from paiju.games import banzipao, dabei, guanpai, tiaoshu
from paiju.table import TableGame

GAMES: dict[str, TableGame[Any]] = {
    guanpai.GAME.info.id: guanpai.GAME,
    dabei.GAME.info.id: dabei.GAME,
    tiaoshu.GAME.info.id: tiaoshu.GAME,
    banzipao.GAME.info.id: banzipao.GAME,
}


def get_game(game_id: str) -> TableGame[Any]:
    """The decider of a game.

    Raises:
        ValueError: no such game.
    """
    try:
        return GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; known: {sorted(GAMES)}") from None
