"""The bound on a table's log (``max_events``): a match that reaches it ends with a result.

A game whose length is a score limit (跳数's ``limit`` with ``hands: 0``) can go on past any bound.
Refusing the next command alone left such a table ``playing`` for good: never finished, never
retired, its bots offered a turn they could not play at every sweep. So every append but one that
ends the match leaves ``ENDING_EVENTS`` of the bound unused, and the command that would use them
ends the match instead: the engine's ``end_at_limit`` (``table_at_limit`` + ``match_ended``, the
scores as they stand, as for an abandoned table) as one command of id ``limit.<version>``, appended
like any table step (the expected last sequence, then the message id: two copies append it once).
The table is then finished, archived and retired like any other, and the command that hit the
bound is refused with ``table_too_long``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paiju.protocol import ENDING_EVENTS, Command, EndAtLimit, Event, MatchEnded

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog


def fits(version: int, events: Sequence[Event], bound: int) -> bool:
    """Whether a command's events may follow the log's first ``version``: a batch that ends the
    match always may (every other leaves room for it); any other must leave ``ENDING_EVENTS``
    of the bound unused."""
    if events and isinstance(events[-1], MatchEnded):
        return True
    return version + len(events) + ENDING_EVENTS <= bound


def ending(bound: int) -> Callable[[TableLog], tuple[str, Command] | None]:
    """The plan that ends a match at the bound on events (``TableWriter.end_at_limit`` executes
    it, then finishes the table): nothing for a match over already. A log longer than the bound
    already (one stored before this rule) ends with a ``limit`` of its own length plus the ending,
    so that it ends all the same."""

    def plan(t: TableLog) -> tuple[str, Command] | None:
        if t.over:
            return None
        return f"limit.{t.version}", EndAtLimit(limit=max(bound, t.version + ENDING_EVENTS))

    return plan
