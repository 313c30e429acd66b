"""Bot turns: the table service offers a bot seat's turn to the bots service.

When a bot seat is to act, its turn goes on ``paiju.turns.<table>`` (stream PAIJU_TURNS): the
seat's view and nothing more (and the level the owner chose for it), so the bots service reads no
log and holds no card its seats may not see; it answers with the seat's command, like a person. docs/services.md ("Bots") tells why.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import nats.errors

from paiju import api
from paiju.levels import DEFAULT_LEVEL
from paiju_services import subjects
from paiju_services.backoff import Backoff
from paiju_services.deadlines import wait_version
from paiju_services.errors import short
from paiju_services.logs import log
from paiju_services.messages import BotTurn, TableMeta, encoder

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables")

TURN_REOFFER = 15.0  # seconds: the sweep offers a bot's turn nobody took again after so long
# waits before a failed offer is made again, doubling from 0.2 s up to 5 s (then the sweep's
# re-offer takes over)
OFFER_RETRY = Backoff(base=0.2, cap=5.0)
OFFER_RETRIES = 6  # failed offers of one turn retried at once, before the sweep's turn


class TurnOffers:
    """One copy's offers of bot turns."""

    def __init__(self, writer: TableWriter) -> None:
        self.writer = writer
        # table → (version, when this copy first saw the bot's turn there waiting)
        self.turns: dict[str, tuple[int, float]] = {}
        self.retries: dict[str, asyncio.Task[None]] = {}  # a failed offer's retry, per table

    def stop(self) -> None:
        for task in list(self.retries.values()):
            task.cancel()

    def forget(self, table_id: str, meta: TableMeta | None = None) -> None:
        """An ended table (``TableWriter.forget``'s hook)."""
        self.turns.pop(table_id, None)

    async def offer(self, table: TableLog, again: bool, attempt: int = 0) -> None:
        """If a bot seat is to act, offer its turn to the bots service (``paiju.turns.<table>``):
        the seat's view and nothing more, so the bots service reads no log and holds no card its
        seats may not see. Offered once per turn: the message id ``<table>:turn:<version>`` and
        the turn's ``version`` are those the turn began at (``wait_version``), so table talk
        while a bot thinks (a quiet event) offers nothing again, and the bot answers once.

        A failed offer (the turn stream electing its leader: no responders, a timeout, "message
        id in process") is made again with the same id at once, backing off with jitter
        (``_later``), up to ``OFFER_RETRIES`` times; the same id, because a timed-out offer
        may have been stored, and then the stream drops the repeat. The sweep (``again``) makes
        the offer once more, under an id of its own, when this copy has seen the turn waiting for
        ``TURN_REOFFER`` seconds (after reading the table's log: a copy's memory may be behind):
        an offer the bots took but did not play, or one lost with a node, is never lost for good.
        """
        seat = api.to_move(table.state)
        entry = self.writer.metas.get(table.table_id)
        if seat is None or entry is None or not table.settled:
            return
        if seat >= len(entry.meta.seats) or entry.meta.seats[seat].kind != "bot":
            return
        version = wait_version(table.events)
        msg_id = f"{table.table_id}:turn:{version}"
        if again:
            if table.table_id in self.retries:
                return  # a failed offer is being made again already
            waiting = self._waiting(table.table_id, version)
            if waiting >= TURN_REOFFER:
                if await self.writer.store.last_seq(table.table_id) != table.last_seq:
                    await self.writer.reload(table)  # behind (a copy that does not hold the table)
                    return  # the next sweep looks at the table as it is
                msg_id += f":{int(time.time() // TURN_REOFFER)}"
                log(logger, "turn offered again", table=table.table_id, waited=round(waiting, 1))
        turn = BotTurn(
            table=table.table_id,
            seat=seat,
            version=version,
            config=table.config.to_dict(),
            view=table.view(seat),
            level=entry.meta.seats[seat].level or DEFAULT_LEVEL,
        )
        try:
            await self.writer.js.publish(
                subjects.turns_subject(table.table_id),
                encoder.encode(turn),
                timeout=self.writer.settings.request_timeout,
                headers={"Nats-Msg-Id": msg_id},
            )
        except (nats.errors.Error, TimeoutError) as exc:
            log(
                logger,
                "turn not offered",
                logging.WARNING,
                table=table.table_id,
                version=version,
                attempt=attempt,
                error=short(f"{type(exc).__name__}: {exc}"),
            )
            if not again and attempt < OFFER_RETRIES:
                self._later(table.table_id, version, attempt + 1)

    def _waiting(self, table_id: str, version: int) -> float:
        """Seconds this copy has seen the bot's turn that began at ``version`` waiting."""
        now = time.time()
        seen = self.turns.get(table_id)
        if seen is None or seen[0] != version:
            if len(self.turns) > 4 * self.writer.settings.cache_tables:
                self.turns.clear()  # bounded: forgetting only delays a re-offer
            self.turns[table_id] = seen = (version, now)
        return now - seen[1]

    def _later(self, table_id: str, version: int, attempt: int) -> None:
        """Offer the turn at ``version`` again after a back-off, if the table is still there."""

        async def later() -> None:
            await asyncio.sleep(OFFER_RETRY.delay(attempt - 1))
            async with self.writer.lock(table_id):
                table = self.writer.cache.get(table_id)
                if table is not None and wait_version(table.events) == version and not table.over:
                    await self.offer(table, again=False, attempt=attempt)

        earlier = self.retries.get(table_id)
        if earlier is not None and earlier is not asyncio.current_task() and not earlier.done():
            earlier.cancel()  # of an older version: this one replaces it
        self.retries[table_id] = task = asyncio.create_task(later())
        task.add_done_callback(lambda t: self._retried(table_id, t))

    def _retried(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self.retries.get(table_id) is task:
            del self.retries[table_id]
        if not task.cancelled() and task.exception() is not None:
            log(
                logger,
                "turn not offered",
                logging.WARNING,
                table=table_id,
                error=short(repr(task.exception())),
            )
