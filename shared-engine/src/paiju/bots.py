"""The bots: a simple, sensible move for a seat, deterministic (the same state gives the same
move). Each core chooses for its own kind of play (``TableGame.bot_choice``: the climbing core sheds
low cards first, keeps bombs for when they matter, goes out when it can, lets a known ally's play
stand and plays high against a player about to go out; outside play a seat speaks cautiously).
"""

from __future__ import annotations

from typing import Any

from paiju.protocol import Command
from paiju.registry import get_game
from paiju.table import TableState


def choose(state: TableState, seat: int) -> Command:
    """The bot's move for ``seat`` (whose turn it must be).

    Raises:
        ValueError: the seat has nothing to do now.
    """
    game: Any = get_game(state.config.game)
    moves: list[Command] = game.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    choice: Command = game.bot_choice(state, seat, moves)
    return choice
