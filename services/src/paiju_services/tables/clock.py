"""Turn clocks: the deadlines of a table, kept and fired by the table service (the deadline
itself, as data, is ``paiju_services.deadlines``: the gateway shows it too).

A deadline is never stored: it follows from the log. The seat to act, the kind of decision it
faces (``paiju.api.clock_kind``: a play, a bid, burying the kitty; ``continue`` between the hands
of a match) and the stream time of the event its wait began with (the JetStream message's time)
give it, with the table's clock (``TableMeta.clock``: seconds per kind, 0 for no limit):

- a seat to act: the last event's time + that kind's seconds; a seat in 托管: + the ``auto_delay`` setting;
- between hands: the time the hand ended (the last event other than a 继续 or a 托管 switch) +
  the ``continue`` seconds, unless every human seat has pressed 继续 (the deal follows at once).

Bots are never timed (the bots service plays them), nor are seats of a table without a limit for
that kind. A seat whose player left during the match is in 托管 for good: played after
``auto_delay``, and never waited for at the 继续 gate.

Every copy of the table service computes the pending deadline of each live table it
knows: at start and every ``sweep_interval`` (those in play, kept in an index), and after every
command or step it handles. When a deadline passes, the copy plays for the seat with the engine's
``AutoMove`` (``[auto_set (timeout) if not in 托管 yet] + auto_played + the events of the bot's
move``) as one command (id ``auto.<seat>.<version>``) with the expected last subject sequence of the log it
decided on: a seat that acted meanwhile makes the append fail (a lost race), and the copy decides
again on the new log, where the deadline is another one. Two copies firing the same deadline
append it once (the sequence, then the message id). A restarted copy computes every deadline
again from the log: none is lost, none doubled. docs/services.md ("Deadlines") tells the why.

Abandoned tables: the same sweep ends a playing table with human seats when none of them has been
seen connected for ``abandon_after`` seconds (the service's ``last_seen``: a gateway's presence
message, a seat's own command, the seat taken, or the copy's start), with the engine's ``abandon``
(``table_abandoned`` + ``match_ended``: the scores as they stand) as one command of id
``abandon.<version>``, appended like a deadline (expected last sequence, then the message id):
two copies append it once, and a table that moved meanwhile is looked at again at the next sweep.
A table of bots only is never abandoned: its bots play it to the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from paiju import api
from paiju.errors import RuleError
from paiju.protocol import Abandon, AutoMove, AutoPlay, Command, SeatBot, SetAuto
from paiju.table import TableState
from paiju_services import periodic
from paiju_services.deadlines import (
    Pending,
    abandon_since,
    humans,
    pending,
    present,
    table_clock,
    wait_start,
)
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.store import StoreError

if TYPE_CHECKING:
    from paiju_services.messages import TableMeta
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.publish import Publisher
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables.clock")

SWEEP_CONCURRENCY = 4  # tables whose deadlines a sweep computes at once


def client_check(command: Command) -> None:
    """What a seat may not send although the engine knows it: an automatic play, a 托管 switch
    for another reason than its own, and a bot's seat (the table service's to make).

    Raises:
        ServiceError: ``forbidden_command``.
    """
    if isinstance(command, AutoPlay | AutoMove | SeatBot) or (
        isinstance(command, SetAuto) and command.reason != "self"
    ):
        raise ServiceError("forbidden_command", command=command.TYPE)


class Clock:
    """One copy's timers: a task per live table with a pending deadline."""

    def __init__(
        self,
        writer: TableWriter,
        views: Publisher,
        last_seen: Callable[[str], float],
        steps: Callable[[str], Awaitable[None]],
    ) -> None:
        """``last_seen``: the last sign of a person at a table (the service's presence);
        ``steps``: run a table's own steps (the caller holds its lock), after a deadline fired."""
        self.writer = writer
        self.views = views
        self.last_seen = last_seen
        self.steps = steps
        self.timers: dict[str, tuple[Pending, asyncio.Task[None]]] = {}
        self.released: dict[str, int] = {}  # table: the hand whose 继续 deadline has passed
        # tables this copy saw end (``forget``): no deadline, and nothing to read to know it
        self.ended: dict[str, None] = {}
        self.busy: set[str] = set()
        self.again: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.loop_task: asyncio.Task[None] | None = None
        self.fired = 0
        # the sweeps' tables, computed a few at a time (``poke(hurry=False)``)
        self.backlog: asyncio.Queue[str] = asyncio.Queue()
        self.waiting: set[str] = set()
        self.workers: list[asyncio.Task[None]] = []

    @property
    def idle(self) -> bool:
        """No deadline being computed or waiting to be."""
        return not self.busy and not self.waiting

    async def start(self) -> None:
        interval = self.writer.settings.sweep_interval
        self.loop_task = asyncio.create_task(periodic.every(interval, (self.sweep,), logger))

    async def stop(self) -> None:
        tasks = [t for _, t in self.timers.values()] + list(self.tasks) + self.workers
        if self.loop_task is not None:
            tasks.append(self.loop_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.timers.clear()

    # --- the gate between hands --------------------------------------------------------------

    def holds(self, table_id: str, state: TableState) -> bool:
        """Whether the next hand's deal waits: a hand of the match has ended, the next deal is
        committed to (so that a 继续 may carry the player's seed for it), a human seat whose
        player is still there has not pressed 继续, and the ``continue`` deadline has not passed
        (a match's end is not held). The seats are the service's cached directory entry
        (the steps load it)."""
        if state.phase != "seeding" or state.last_hand is None:
            return False
        if self.released.get(table_id) == state.hand_no:
            return False
        entry = self.writer.metas.get(table_id)
        if entry is None:
            return False
        return not present(entry.meta) <= set(state.ready)

    def forget(self, table_id: str, meta: TableMeta | None = None) -> None:
        """The table's match is over and it left this copy's memory: a deadline computed for it
        from now on (the poke of the step that ended it, a sweep's) is none, without reading its
        log back. Bounded: a table forgotten here too is read once, and found over."""
        self.released.pop(table_id, None)
        if len(self.ended) >= 4 * self.writer.settings.cache_tables:
            del self.ended[next(iter(self.ended))]
        self.ended[table_id] = None

    def forgotten(self, table_id: str) -> bool:
        """Whether the table's match ended and it left this copy's memory since (``forget``):
        over for good, its directory entry written, nothing left to compute or step."""
        return table_id in self.ended and table_id not in self.writer.cache

    # --- computing deadlines -------------------------------------------------------------------

    def poke(self, table_id: str, hurry: bool = True) -> None:
        """Compute the table's deadline again: at once (after a command or a step), or, for a
        sweep (``hurry`` false), in turn, ``SWEEP_CONCURRENCY`` tables at a time — a sweep over
        thousands of tables must not hold up the commands (their pokes jump the queue)."""
        if table_id in self.busy:
            self.again.add(table_id)
            return
        if not hurry:
            if table_id not in self.waiting:
                self.waiting.add(table_id)
                self.backlog.put_nowait(table_id)
            if not self.workers:  # made at the first sweep's poke
                self.workers = [asyncio.create_task(self._work()) for _ in range(SWEEP_CONCURRENCY)]
            return
        self.busy.add(table_id)
        task = asyncio.create_task(self._watching(table_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _work(self) -> None:
        """One of the workers that compute the sweeps' deadlines, one table after another."""
        while True:
            table_id = await self.backlog.get()
            self.waiting.discard(table_id)
            if table_id in self.busy:
                self.again.add(table_id)
                continue
            self.busy.add(table_id)
            try:
                await self._watching(table_id)
            except Exception as exc:  # a worker outlives any table's failure
                log(
                    logger,
                    "deadline not computed",
                    logging.WARNING,
                    table=table_id,
                    error=repr(exc),
                )

    async def _watching(self, table_id: str) -> None:
        try:
            while True:  # ``compute`` clears ``again`` under the lock: a later poke sets it
                try:
                    await self.watch(table_id)
                except (ServiceError, RuleError, StoreError) as exc:
                    log(
                        logger,
                        "deadline not computed",
                        logging.WARNING,
                        table=table_id,
                        error=str(exc),
                    )
                if table_id not in self.again:
                    return
        finally:
            self.busy.discard(table_id)

    async def compute(self, table_id: str) -> Pending | None:
        """The table's pending deadline, from its log as the stream has it now."""
        writer = self.writer
        async with writer.lock(table_id):
            # a poke made while this waited for the lock (a command's steps poke twice) is
            # answered by what is read now, under the lock: it needs no computation of its own
            self.again.discard(table_id)
            if self.forgotten(table_id):
                return None
            table = await writer.table(table_id)
            if table.over:  # no deadline; nor a place in memory (it may have just been forgotten)
                writer.cache.pop(table_id, None)
                return None
            if writer.own_appends.pop(table_id, None) == table.last_seq:
                return await self._after_own_append(table)
            start = None
            for _ in range(5):
                start = await wait_start(writer.nc, table_id, writer.settings.request_timeout)
                if start is None or start[0] == table.last_seq:
                    break
                table = await writer.reload(table)
            if start is None or start[0] != table.last_seq or table.over:
                return None
            entry = await writer.meta_now(table_id)
            if self.released.get(table_id, table.state.hand_no) != table.state.hand_no:
                del self.released[table_id]  # the hand it released is dealt
            if not table.settled:
                return None
            meta = entry.meta
            return pending(
                table.state,
                table_clock(meta),
                humans(meta),
                start[1],
                writer.settings.auto_delay,
                present(meta),
            )

    async def _after_own_append(self, table: TableLog) -> Pending | None:
        """The deadline right after this copy's own append (the caller holds the lock): its
        memory knows the log and when the wait began, so nothing is read. Were another copy to
        append meanwhile, that copy computes the deadline of its own log; a timer set here on the
        older one fires into a lost race and is computed again (``fire``), and the sweeps compute
        from the stream."""
        since = await self.views.since(table)
        if since is None or not table.settled:
            return None
        meta = (await self.writer.meta(table.table_id)).meta
        if self.released.get(table.table_id, table.state.hand_no) != table.state.hand_no:
            del self.released[table.table_id]  # the hand it released is dealt
        return pending(
            table.state,
            table_clock(meta),
            humans(meta),
            since,
            self.writer.settings.auto_delay,
            present(meta),
        )

    async def watch(self, table_id: str) -> None:
        """Set the table's timer to its pending deadline (or none)."""
        due = await self.compute(table_id)
        old = self.timers.get(table_id)
        if old is not None and old[0] == due:
            return
        if old is not None:
            old[1].cancel()
            del self.timers[table_id]
        if due is not None:
            task = asyncio.create_task(self._wait(table_id, due))
            self.timers[table_id] = (due, task)

    async def _wait(self, table_id: str, due: Pending) -> None:
        await asyncio.sleep(max(0.0, due.at - time.time()))
        mine = self.timers.get(table_id)
        if mine is not None and mine[0] == due:
            del self.timers[table_id]  # firing: no longer a timer watch() may cancel
        try:
            await asyncio.shield(self.fire(table_id, due))
        except (ServiceError, RuleError, StoreError) as exc:
            log(logger, "deadline not fired", logging.WARNING, table=table_id, error=str(exc))
            await asyncio.sleep(self.writer.settings.auto_delay * (1 + random.random()))
        self.poke(table_id)

    # --- firing ----------------------------------------------------------------------------------

    async def fire(self, table_id: str, due: Pending) -> bool:
        """Act on a passed deadline: release the next deal, or play for the seat. True when this
        copy appended the automatic play (False: the seat acted first, or another copy fired)."""
        async with self.writer.lock(table_id):
            if due.seat is None:
                table = await self.writer.table(table_id)
                self.released[table_id] = table.state.hand_no
                log(logger, "continue deadline", table=table_id, hand=table.state.hand_no)
                await self.steps(table_id)
                return False
            seat = due.seat

            def plan(t: TableLog) -> tuple[str, Command] | None:
                state = t.state
                if t.version != due.version or not t.settled or api.to_move(state) != seat:
                    return None  # the seat acted (or the table moved on): another deadline
                return f"auto.{seat}.{t.version}", AutoMove(seat=seat)  # 托管's move: the engine's

            done = await self.writer.execute(table_id, plan)
            appended = done is not None and not done.duplicate
            if appended:
                self.fired += 1
                log(
                    logger,
                    "auto play",
                    table=table_id,
                    seat=seat,
                    kind=due.kind,
                    version=due.version,
                    late_ms=round((time.time() - due.at) * 1000),
                )
            await self.steps(table_id)
            return appended

    # --- every live table, at start and every sweep ------------------------------------------

    def _playing_here(self, table_id: str) -> bool:
        """Whether this copy's own entry of the table says it is in play (it may have started it
        a moment before the index heard of it: its timer stays)."""
        entry = self.writer.metas.get(table_id)
        return entry is not None and entry.meta.status == "playing"

    async def sweep(self) -> int:
        """Compute the deadline of every table in play (the service's index of them, kept from a
        watch of the directory: no listing, no read of a table not in play), and drop the timers
        of tables no longer in play; returns how many tables are in play."""
        playing = await self.writer.playing()
        ids = {listed.meta.id for listed in playing}
        for table_id in [t for t in self.timers if t not in ids and not self._playing_here(t)]:
            _, task = self.timers.pop(table_id)
            task.cancel()
        count = 0
        for listed in playing:
            table_id = listed.meta.id
            count += 1
            self.poke(table_id, hurry=False)
            since = abandon_since(listed.meta, self.last_seen(table_id))
            if since is not None and time.time() - since >= self.writer.settings.abandon_after:
                try:
                    await self.abandon(table_id)
                except (ServiceError, RuleError, StoreError) as exc:
                    log(logger, "abandon failed", logging.WARNING, table=table_id, error=str(exc))
        return count

    async def abandon(self, table_id: str) -> bool:
        """End a table nobody is connected to (``abandon``): True when this copy appended it
        (False: another copy did, or the match is over)."""
        async with self.writer.lock(table_id):
            table = await self.writer.table(table_id)
            version = table.version

            def plan(t: TableLog) -> tuple[str, Command] | None:
                if t.over or t.version != version:
                    return None  # over, or it moved meanwhile: the next sweep looks again
                return f"abandon.{version}", Abandon()

            done = await self.writer.execute(table_id, plan)
            appended = done is not None and not done.duplicate
            if appended:
                log(logger, "table abandoned", table=table_id, version=version)
            await self.steps(table_id)  # the directory: finished
            return appended
