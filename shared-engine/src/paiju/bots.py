"""A simple, sensible bot for climbing games: shed low cards first, keep bombs for when they
matter, go out when it can, let a known ally's play stand, and play high against a player about to
go out. Deterministic: the
same state gives the same move.
"""

from __future__ import annotations

from typing import Any

from paiju.climbing import Candidate, ClimbingGame, ClimbState
from paiju.protocol import Bid, Command, Pass, Play
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
    if state.phase != "play" or not isinstance(game, ClimbingGame):
        return _speak(state, seat, moves)
    assert isinstance(state, ClimbState)
    plays: list[Candidate] = game.candidates(state, seat)
    can_pass = any(isinstance(m, Pass) for m in moves)
    hand = state.hands[seat]
    for cards, _ in plays:
        if len(cards) == len(hand):
            return Play(seat=seat, cards=cards)  # going out
    if can_pass and state.lead_seat in game.allies(state, seat):
        return Pass(seat=seat)  # an ally's play stands
    danger = min((len(h) for s, h in enumerate(state.hands) if s != seat and h), default=99) <= 2
    ordinary = [p for p in plays if p[1].kind not in game.bomb_kinds]
    bombs = [p for p in plays if p[1].kind in game.bomb_kinds]
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


STRONG_RANKS = frozenset({11, 12})  # A and 2 in the notation's ranks


def _speak(state: TableState, seat: int, moves: list[Command]) -> Command:
    """Outside play (an auction, a call): games list the cautious word first and the strongest
    call first; the bot takes the first, except that with four or more aces and twos it bids
    (包, 反包: the first bid that is not a pass)."""
    strong = sum(1 for c in state.hands[seat] if c >> 2 in STRONG_RANKS) if state.hands else 0
    if strong >= 4:
        for move in moves:
            if isinstance(move, Bid) and move.bid != "pass":
                return move
    return moves[0]
