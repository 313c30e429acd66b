"""Presence: which human seats of a table a person is at, as this copy of the table service knows.

Every copy listens to ``paiju.presence.>`` (the gateway copies say which seats hold a socket, each
with a proof made with its token's view key: an unproven one is ignored) and keeps, in memory,
when each human seat of a table in play was last seen connected, and when this copy last handled
a seat's own command. The clock's sweep ends a playing table nobody has been connected to for
``abandon_after`` seconds (``tables.clock``, "Abandoned tables"). A restart forgets both and
counts from its start (``started``): that only delays an abandonment.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import msgspec
from nats.aio.msg import Msg

from paiju_services import metrics, subjects
from paiju_services.messages import Presence, TableMeta

if TYPE_CHECKING:
    from paiju_services.tables.publish import Publisher
    from paiju_services.tables.writer import TableWriter


class Seen:
    """One copy's memory of the people at its tables (see the module's docstring)."""

    def __init__(self, writer: TableWriter, views: Publisher) -> None:
        self.writer = writer
        self.views = views  # the seats' view keys, which prove a presence entry
        self.seen: dict[str, dict[int, float]] = {}  # table → seat → when seen connected
        self.acted: dict[str, float] = {}  # table → when a seat's own command came
        self.started = time.time()
        self.sub: Any = None

    async def start(self) -> None:
        self.sub = await self.writer.nc.subscribe(subjects.PRESENCE_ALL, cb=self.on_presence)

    async def stop(self) -> None:
        if self.sub is not None:
            with contextlib.suppress(Exception):
                await self.sub.unsubscribe()

    async def on_presence(self, msg: Msg) -> None:
        """A gateway copy's presence message: its seats are seen connected now, each that comes
        with a proof made with its token's view key (``views.presence_proof``; anyone with the
        gateway's NATS credentials may publish here). Only a table in play is looked at."""
        table_id = subjects.table_of(msg.subject)
        try:
            said = msgspec.json.decode(msg.data, type=Presence)
        except msgspec.DecodeError:
            return
        in_play = self.writer.in_play
        listed = in_play.tables.get(table_id) if in_play is not None else None
        if listed is None or not said.seats:
            return
        if table_id not in self.seen and len(self.seen) > 16 * self.writer.settings.cache_tables:
            self.seen.clear()  # bounded memory: forgetting only delays an abandonment
        now = time.time()
        seats = self.seen.setdefault(table_id, {})
        proofs = (said.proofs + [""] * len(said.seats))[: len(said.seats)]  # one a seat
        for seat, proof in list(zip(said.seats, proofs, strict=True))[:64]:
            if await self.views.proves(listed.meta, seat, proof, now):
                seats[seat] = now
            else:
                metrics.PRESENCE_UNPROVEN.inc()

    def last_seen(self, table_id: str) -> float:
        """The last sign of a person at the table that this copy knows: a seat seen connected,
        a seat's own command, or this copy's start."""
        seats = self.seen.get(table_id, {})
        return max([self.started, self.acted.get(table_id, 0.0), *seats.values()])

    def act(self, table_id: str) -> None:
        """A seat of the table sent a command of its own now."""
        if table_id not in self.acted and len(self.acted) > 16 * self.writer.settings.cache_tables:
            self.acted.clear()  # bounded memory: forgetting only delays an abandonment
        self.acted[table_id] = time.time()

    def forget(self, table_id: str, meta: TableMeta | None = None) -> None:
        """An ended table (``TableWriter.forget``'s hook)."""
        self.seen.pop(table_id, None)
        self.acted.pop(table_id, None)
