"""A simple, sensible bot for climbing games: shed low cards first, keep bombs for when they
matter, go out when it can, and play high against a player about to go out. Deterministic: the
same state gives the same move.
"""

from __future__ import annotations

from typing import Any

from paiju.climbing import Candidate, ClimbingGame, ClimbState
from paiju.protocol import Command, Pass, Play
from paiju.registry import get_game
from paiju.table import TableState

BOMB_KINDS = frozenset({"bomb"})


def choose(state: TableState, seat: int) -> Command:
    """The bot's move for ``seat`` (whose turn it must be).

    Raises:
        ValueError: the seat has nothing to do now.
    """
    game: Any = get_game(state.config.game)
    moves: list[Command] = game.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    if not isinstance(game, ClimbingGame) or not isinstance(state, ClimbState):
        return moves[0]
    plays: list[Candidate] = game.candidates(state, seat)
    can_pass = any(isinstance(m, Pass) for m in moves)
    hand = state.hands[seat]
    for cards, _ in plays:
        if len(cards) == len(hand):
            return Play(seat=seat, cards=cards)  # going out
    danger = min((len(h) for s, h in enumerate(state.hands) if s != seat and h), default=99) <= 2
    ordinary = [p for p in plays if p[1].kind not in BOMB_KINDS]
    bombs = [p for p in plays if p[1].kind in BOMB_KINDS]
    if ordinary:
        if danger:  # an opponent is about to go out: play as high as possible
            cards, _ = max(ordinary, key=lambda p: (p[1].key, len(p[0])))
        else:  # shed the lowest combination, the longer the better
            cards, _ = min(ordinary, key=lambda p: (p[1].key, -len(p[0]), p[0]))
        return Play(seat=seat, cards=cards)
    if bombs and (danger or not can_pass):
        cards, _ = min(bombs, key=lambda p: p[1].key)
        return Play(seat=seat, cards=cards)
    return Pass(seat=seat) if can_pass else moves[0]
