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

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paiju.errors import RuleError
from paiju.protocol import ENDING_EVENTS, Command, EndAtLimit, Event, MatchEnded
from paiju_services.logs import log

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.service import TableService

logger = logging.getLogger("paiju.tables.limit")


def fits(version: int, events: Sequence[Event], bound: int) -> bool:
    """Whether a command's events may follow the log's first ``version``: a batch that ends the
    match always may (every other leaves room for it); any other must leave ``ENDING_EVENTS``
    of the bound unused."""
    if events and isinstance(events[-1], MatchEnded):
        return True
    return version + len(events) + ENDING_EVENTS <= bound


async def end_at_limit(service: TableService, table_id: str) -> bool:
    """End the table's match at the bound (the caller holds the table's lock), then say so in the
    directory (``finished``). True when this copy appended the ending (False: another copy did,
    or the match was over). A log longer than the bound already (one stored before this rule) ends
    with a ``limit`` of its own length plus the ending, so that it ends all the same.

    Raises:
        ServiceError, StoreError: as ``TableService._execute``.
    """

    def plan(t: TableLog) -> tuple[str, Command] | None:
        if t.over:
            return None
        bound = max(service.settings.max_events, t.version + ENDING_EVENTS)
        return f"limit.{t.version}", EndAtLimit(limit=bound)

    try:
        done = await service._execute(table_id, plan)
    except RuleError as exc:  # a command of LIMIT_MARGIN events or more: none is known
        log(logger, "end at the limit refused", logging.ERROR, table=table_id, error=str(exc))
        return False
    appended = done is not None and not done.duplicate
    if done is not None and appended:
        log(logger, "table at its limit of events", table=table_id, events=done.version)
    table = await service._table(table_id)
    if table.over:
        await service._finish(table)
    return appended
