"""The practice table's time (``paiju.practice``): what the table does next by itself, and when.

As at a server table (the table service's ``deadlines.pending`` and ``Clock.holds``, the bots
service's ``bot_delay``), every time counts from when the table's current wait began, the last
event that is not ``QUIET``:

- a bot to act plays ``bot_delay_ms`` after it (bots are not timed: no frame shows a deadline);
- the person to act has the seconds the clock gives that kind of decision (``api.clock_kind``;
  0: no limit), then the table plays for the seat (``AutoMove``); in 托管, ``auto_delay_ms``;
- between two hands the deal waits for the person's 继续, or the ``continue`` seconds.

Nothing here reads a clock: the caller says when the wait began, and decides when is now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from paiju import api
from paiju.table import TableState

BOT_DELAY_MS = 800  # a bot "thinks" this long before it plays (the bots service's bot_delay)
AUTO_DELAY_MS = 1000  # a seat in 托管 is played after this (the table service's auto_delay)
MAX_CLOCK = 3600  # seconds: the longest a clock may give one decision (as at a server table)


@dataclass(frozen=True, slots=True)
class Due:
    """What the table does next by itself, and when (epoch ms): ``kind`` ``bot`` (a bot's move
    for ``seat``), a kind of the clock (the person's deadline passed: ``AutoMove`` for ``seat``),
    ``auto`` (the person's seat in 托管 is played) or ``continue`` (the 继续 gate opens: the next
    deal goes ahead; ``seat`` None)."""

    at: int
    seat: int | None
    kind: str

    @property
    def shown(self) -> bool:
        """Whether a frame shows it as the deadline: a bot's move is not timed."""
        return self.kind != "bot"


def holds(state: TableState, person: int, released: int | None) -> bool:
    """Whether the next hand's deal waits for the person's 继续: a hand of the match has ended,
    the next deal is committed to, the person (still at the table) has not pressed 继续, and the
    gate of this hand was not ``released`` (its deadline passed)."""
    if state.phase != "seeding" or state.last_hand is None:
        return False
    if released == state.hand_no or person in state.left:
        return False
    return person not in state.ready


@dataclass(frozen=True, slots=True)
class Clock:
    """A practice table's clock: ``seconds`` per kind of decision (0: no limit), and the delays
    of a bot's move and of a seat in 托管."""

    seconds: Mapping[str, int] = field(default_factory=dict)
    bot_delay_ms: int = BOT_DELAY_MS
    auto_delay_ms: int = AUTO_DELAY_MS

    @classmethod
    def of(cls, game: str, seconds: Mapping[str, Any] | None = None, **delays: int) -> Clock:
        """The game's defaults (``api.clock_defaults``) with the kinds ``seconds`` sets.

        Raises:
            ValueError: a kind the game does not time, or seconds out of 0 … ``MAX_CLOCK``.
        """
        out = api.clock_defaults(game)
        for kind, value in (seconds or {}).items():
            if kind not in out:
                raise ValueError(f"clock: no kind {kind!r} (kinds: {sorted(out)})")
            if type(value) is not int or not 0 <= value <= MAX_CLOCK:
                raise ValueError(f"clock {kind}: whole seconds from 0 (no limit) to {MAX_CLOCK}")
            out[kind] = value
        return cls(out, **delays)

    def due(
        self, state: TableState, person: int, since_ms: int, released: int | None
    ) -> Due | None:
        """What the table does next by itself, its wait begun at ``since_ms`` (None: the match
        is over, the table's own step comes at once, or it waits for the person without a
        limit). ``released``: the hand whose 继续 gate is open."""
        if state.phase == "over" or api.passing(state):
            return None
        kind = api.clock_kind(state)
        if kind == "continue":
            limit = self.seconds.get("continue", 0)
            if limit <= 0 or not holds(state, person, released):
                return None
            return Due(since_ms + limit * 1000, None, "continue")
        seat = api.to_move(state)
        if seat is None or kind is None:
            return None
        if seat != person:
            return Due(since_ms + self.bot_delay_ms, seat, "bot")
        if seat in state.auto:
            return Due(since_ms + self.auto_delay_ms, seat, "auto")
        limit = self.seconds.get(kind, 0)
        return Due(since_ms + limit * 1000, seat, kind) if limit > 0 else None
