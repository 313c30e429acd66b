"""A table's end in the directory, and what follows: the archive and the retirement.

When a match is over (its last event appended by any part of the service), its directory entry
says so (``finished``, its totals and when) once, its log goes into the archive, and its
retirement is scheduled (``paiju_services.archive``): the log leaves the stream ``retire_after``
later, and is deleted with its entry ``keep_retired`` after that (``paiju_services.retention``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from paiju_services.archive import ENDED, Retirement
from paiju_services.logs import log

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables")


class Ending:
    """One copy's endings of tables (the writer's ``on_over`` hook is ``finish``)."""

    def __init__(self, writer: TableWriter) -> None:
        self.writer = writer
        self.retired: Retirement | None = None

    async def finish(self, table: TableLog) -> None:
        """The directory says the match is over: status ``finished``, its totals and when, once
        (a table another copy finished, or its owner closed, keeps its entry). Its retirement is
        scheduled first (paiju_services.archive): a crash between the two leaves a table the
        sweep finishes again, never one finished but missing from the schedule."""
        entry = await self.writer.meta(table.table_id)
        if entry.meta.status in ENDED:
            self.writer.forget(table.table_id)
            return
        await self.archive(table)
        for _ in range(10):
            entry = await self.writer.meta(table.table_id, fresh=True)
            if entry.meta.status in ENDED:
                return
            finished_at = time.time()
            await self.schedule_retirement(table.table_id, finished_at)
            entry.meta.status = "finished"
            entry.meta.totals = list(table.state.totals)
            entry.meta.finished_at = finished_at
            if not await self.writer.update(entry):
                continue
            log(logger, "table finished", table=table.table_id, totals=entry.meta.totals)
            self.writer.forget(table.table_id)
            return

    async def archive(self, table: TableLog) -> None:
        """An ended table's log into the archive now (the gateway reads ended logs there); a
        failure is logged: the gateway asks again (``paiju.tables.<table>.archive``).

        The messages are this copy's memory of them when the stream's last message is the one
        the memory holds last (``TableLog.ends_at``, the check ``tablelog.catch_up`` decides
        on), else the stream's, read. Reading a log of a hundred messages back at every match's
        end cost about a sixth of the table service's CPU per move (docs/performance.md); the
        retirement compares the archive with the stream again before it purges anything."""
        table_id = table.table_id
        try:
            held = table.ends_at(*await self.writer.store.tip(table_id))
            await self.retirement().archive(table_id, table.stored() if held else None)
        except Exception as exc:
            log(logger, "archive failed", logging.WARNING, table=table_id, error=repr(exc))

    def retirement(self) -> Retirement:
        """The retirement of finished tables (paiju_services.archive), made at first use: it
        needs the bound directory."""
        if self.retired is None:
            writer = self.writer
            self.retired = Retirement(writer.settings, writer.store, writer.tables_kv, writer.lock)
        return self.retired

    async def schedule_retirement(self, table_id: str, finished_at: float) -> None:
        """The table's log leaves the stream for the archive ``retire_after`` seconds after
        ``finished_at`` (``finish`` calls it as a table finishes)."""
        await self.retirement().schedule(table_id, finished_at)

    async def retire_finished(self) -> int:
        """Retire the tables finished ``retire_after`` seconds ago or more (what is scheduled,
        never a listing of the directory), then delete those retired ``keep_retired`` ago
        (paiju_services.retention); returns how many were retired."""
        return await self.retirement().run()
