"""The bots' levels: what a bot seat plays, by level id.

- ``basic`` (入门): a beginner. Most of the time the sensible move (``paiju.bots.choose``), but one
  decision in three is a legal move drawn at random, as a new player's slips are.
- ``normal`` (普通): the sensible move, every time (``paiju.bots.choose``). 托管 plays at this level.
- ``expert`` (高手): a search (``paiju.search``): it deals the hidden cards again in ways its view
  cannot tell from the truth (``paiju.sampling``), plays each of a few candidate moves on each
  deal and the hand out with ``normal`` for every seat, and keeps the move with the best mean
  score; within a bounded budget (``search.Budget``), deterministic like the others.

A level decides from the state a seat's view rebuilds (``paiju.client.state_from_view``) and
nothing more. Each is deterministic: the same state and seat give the same move (the slips are
drawn, and the expert's deals dealt, from a generator seeded by the table's version, hand and
seat), so a duel or a practice match can be played again exactly. Their names reach the page through the catalogue
(``paiju.api.list_games``: ``levels``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paiju import bots, search
from paiju.protocol import Command
from paiju.registry import get_game
from paiju.table import TableState
from paiju.words import LEVEL_NAMES

BASIC_SLIPS = 3  # a beginner plays a random legal move once in this many decisions


def _basic(state: TableState, seat: int) -> Command:
    moves: list[Command] = get_game(state.config.game).legal_moves(state, seat)
    draw = random.Random(f"basic:{state.hand_no}:{state.version}:{seat}")
    if len(moves) > 1 and draw.randrange(BASIC_SLIPS) == 0:
        return moves[draw.randrange(len(moves))]
    return bots.choose(state, seat)


@dataclass(frozen=True, slots=True)
class Level:
    """A level: its id, its names, how it chooses, and whether a decision is a search (a tenth of
    a second of CPU or more, where the others take a few milliseconds: the bots service gives
    searches a thread and a queue of their own, so that no cheap decision waits behind one)."""

    id: str
    name_zh: str
    name_en: str
    choose: Callable[[TableState, int], Command]
    searches: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name_zh": self.name_zh, "name_en": self.name_en}


# the names live with the other words (``words.LEVEL_NAMES``: the log's ``bot_seated`` says them)
LEVELS: dict[str, Level] = {
    level_id: Level(level_id, *LEVEL_NAMES[level_id], choose, searches)
    for level_id, choose, searches in (
        ("basic", _basic, False),
        ("normal", bots.choose, False),
        ("expert", search.choose, True),
    )
}
DEFAULT_LEVEL = "normal"  # a bot seat's level unless chosen, and 托管's


def level(level_id: str) -> Level:
    """The level ``level_id``.

    Raises:
        KeyError: no such level (its message names the known ones).
    """
    try:
        return LEVELS[level_id]
    except KeyError:
        raise KeyError(f"no bot level {level_id!r}: known {', '.join(LEVELS)}") from None


def choose(state: TableState, seat: int, level_id: str = DEFAULT_LEVEL) -> Command:
    """The move of a bot of level ``level_id`` for ``seat`` (whose turn it must be)."""
    return level(level_id).choose(state, seat)
