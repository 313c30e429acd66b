"""The games Paiju knows, by id: one line per game. ``register`` adds a game from outside the
package (a test's own game), ``unregister`` takes it away again."""

from __future__ import annotations

from typing import Any

from paiju.errors import RuleError
from paiju.games import banzipao, dabang, dabei, dagong, guanpai, tiaoshu
from paiju.table import TableGame

GAMES: dict[str, TableGame[Any]] = {
    guanpai.GAME.info.id: guanpai.GAME,
    dabei.GAME.info.id: dabei.GAME,
    tiaoshu.GAME.info.id: tiaoshu.GAME,
    banzipao.GAME.info.id: banzipao.GAME,
    dagong.GAME.info.id: dagong.GAME,
    dabang.GAME.info.id: dabang.GAME,
}


def register(game: TableGame[Any]) -> TableGame[Any]:
    """Make ``game`` known by its id (its module has registered its own commands, events and
    error messages on import).

    Raises:
        ValueError: another game has this id.
    """
    known = GAMES.get(game.info.id)
    if known is not None and known is not game:
        raise ValueError(f"a game {game.info.id!r} is already registered")
    GAMES[game.info.id] = game
    return game


def unregister(game_id: str) -> None:
    """Forget a game registered with ``register``."""
    GAMES.pop(game_id, None)


def get_game(game_id: str) -> TableGame[Any]:
    """The decider of a game.

    Raises:
        RuleError: ``unknown_game`` (a ValueError).
    """
    try:
        return GAMES[game_id]
    except KeyError:
        raise RuleError("unknown_game", game=str(game_id), known=", ".join(sorted(GAMES))) from None
