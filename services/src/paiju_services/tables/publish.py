"""The table service's side of ``paiju_services.views``: after every append, each human seat's
view (sealed with its view key) and the spectators' view, all in one message per event, on core
NATS; and the answer to a reader that asks for an audience's view now.

A seat's view key is kept in the secrets bucket under ``view.<table>.<sha256 of its token>`` when
the token is issued, and again for the rematch table when its player presses 再来一局 with it
(``remember``): the directory holds the token's hash, so any copy finds the key of any seat, and
the retirement drops the table's keys with its other secrets. A seat with no key (a token issued
before views were published) gets no pushed view; its reader asks (``answer``), with the token,
and opens the answer with the key it derives.

The deadline in a view is the turn clock's (``deadlines.pending``), counted from when the
table's current wait began: the time this copy appended the last event that is not ``QUIET``, or,
when another copy did, the stream time of that event (``deadlines.wait_start``, one read).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import nats.errors
import nats.js.errors

from paiju import api
from paiju.protocol import Event
from paiju.table import TableState
from paiju.table_life import QUIET
from paiju_services import metrics, views
from paiju_services.deadlines import (
    humans,
    pending,
    present,
    table_clock,
    wait_start,
    wait_version,
)
from paiju_services.logs import log
from paiju_services.messages import TableMeta, ViewAt
from paiju_services.store import StoreError
from paiju_services.tokens import token_hash

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables.views")
MAX_KEYS = 100_000  # view keys one copy keeps in memory


class Publisher:
    """One copy's views: pushed after every append (``appended``, the writer's hook) and
    answered to a reader (``answer``)."""

    def __init__(self, writer: TableWriter) -> None:
        self.writer = writer
        self.keys: OrderedDict[str, bytes] = OrderedDict()  # token sha256 → view key
        # table → (the version its current wait began at, and when): the deadline's start
        self.waits: dict[str, tuple[int, float]] = {}

    # --- view keys -----------------------------------------------------------------------------

    async def remember(self, table_id: str, token: str) -> None:
        """Keep the view key of a token that holds a seat at the table (a retry writes the same
        value)."""
        digest = token_hash(token)
        key = views.view_key(token)
        await self.writer.secrets_kv.put(views.key_name(table_id, digest), key.hex().encode())
        self._keep(digest, key)

    def _keep(self, digest: str, key: bytes) -> None:
        self.keys[digest] = key
        self.keys.move_to_end(digest)
        while len(self.keys) > MAX_KEYS:
            self.keys.popitem(last=False)

    async def _key(self, table_id: str, digest: str) -> bytes | None:
        key = self.keys.get(digest)  # the same for every table its token holds a seat at
        if key is None:
            for name in (views.key_name(table_id, digest), views.legacy_key_name(digest)):
                try:
                    entry = await self.writer.secrets_kv.get(name)
                except nats.js.errors.KeyNotFoundError:
                    continue
                key = bytes.fromhex((entry.value or b"").decode())
                self._keep(digest, key)
                break
        return key

    async def proves(self, meta: TableMeta, seat: int, proof: str, now: float) -> bool:
        """Whether a presence entry's ``proof`` was made with the view key of the token that holds
        ``seat`` (``views.presence_proof``): a human seat's, in this window or the next to it.
        A key that cannot be read now counts as no proof (the next presence message comes within
        seconds)."""
        if not 0 <= seat < len(meta.seats):
            return False
        held = meta.seats[seat]
        if held.kind != "human" or not held.token_sha256:
            return False
        try:
            key = await self._key(meta.id, held.token_sha256)
        except (nats.errors.Error, TimeoutError):
            return False
        return key is not None and views.proves(key, meta.id, seat, proof, now)

    # --- pushing -------------------------------------------------------------------------------

    async def appended(
        self, table: TableLog, first: int, events: Sequence[Event], states: Sequence[TableState]
    ) -> None:
        """Publish every audience's view after each of the events just appended (the first at
        index ``first``). A failure is logged: readers ask for what they missed."""
        try:
            await self._appended(table, first, events, states)
        except Exception as exc:
            log(logger, "views not sent", logging.WARNING, table=table.table_id, error=repr(exc))

    async def _appended(
        self, table: TableLog, first: int, events: Sequence[Event], states: Sequence[TableState]
    ) -> None:
        table_id = table.table_id
        now = time.time()
        for offset, event in enumerate(events):
            if event.TYPE not in QUIET:
                self._wait_began(table_id, first + offset + 1, now)
        entry = self.writer.metas.get(table_id)
        meta = entry.meta if entry is not None else (await self.writer.meta(table_id)).meta
        seats = [
            (seat, await self._key(table_id, s.token_sha256))
            for seat, s in enumerate(meta.seats)
            if s.kind == "human" and s.token_sha256
        ]
        since = await self.since(table)
        nc = self.writer.nc
        last = len(events) - 1
        for offset, (event, state) in enumerate(zip(events, states, strict=True)):
            version = first + offset + 1
            settled = offset == last and not api.passing(state)
            due = (
                _due(state, meta, since, self.writer.settings.auto_delay)
                if settled and since is not None
                else None
            )
            parts: list[tuple[int | None, bytes]] = [
                (None, body(state, None, version, settled, due))
            ]
            for seat, key in seats:
                if key is not None:
                    sealed = views.seal(
                        key, table_id, seat, body(state, seat, version, settled, due)
                    )
                    parts.append((seat, sealed))
            await nc.publish(views.views_subject(table_id), views.pack(version, event.TYPE, parts))
            metrics.VIEWS_OUT.inc(len(parts))

    async def since(self, table: TableLog) -> float | None:
        """When the table's current wait began: known here if nothing but ``QUIET`` events came
        after the last wait this copy saw begin, else read from the stream."""
        known = self.waits.get(table.table_id)
        if known is not None and all(e.TYPE in QUIET for e in table.events[known[0] :]):
            return known[1]
        try:
            start = await wait_start(
                self.writer.nc, table.table_id, self.writer.settings.request_timeout
            )
        except StoreError:
            return None
        if start is None or start[0] != table.last_seq:
            return None  # the stream moved on meanwhile: the next append says it
        self._wait_began(table.table_id, wait_version(table.events), start[1])
        return start[1]

    def _wait_began(self, table_id: str, version: int, when: float) -> None:
        """Keep when the table's current wait began (bounded: forgetting costs one read)."""
        if table_id not in self.waits and len(self.waits) > 4 * self.writer.settings.cache_tables:
            self.waits.clear()
        self.waits[table_id] = (version, when)

    def forget(self, table_id: str, meta: TableMeta | None = None) -> None:
        """An ended table: its wait, and its seats' keys (read again if its players rematch)."""
        self.waits.pop(table_id, None)
        for seat in meta.seats if meta is not None else ():
            if seat.token_sha256:
                self.keys.pop(seat.token_sha256, None)

    # --- answering -----------------------------------------------------------------------------

    async def answer(
        self, table: TableLog, seat: int | None, key: bytes | None, after: int | None
    ) -> tuple[list[ViewAt], ViewAt]:
        """The audience's view now (a seat's sealed with ``key``), and before it the views of the
        versions after ``after`` (those a reader missed: states past, nobody acts on them)."""
        entry = await self.writer.meta(table.table_id)
        settled = table.settled and not api.passing(table.state)
        since = await self.since(table) if settled else None
        due = (
            _due(table.state, entry.meta, since, self.writer.settings.auto_delay)
            if since is not None
            else None
        )

        def at(version: int, data: bytes) -> ViewAt:
            if seat is not None and key is not None:
                data = views.seal(key, table.table_id, seat, data)
            event = table.events[version - 1].TYPE if version else None
            return ViewAt(index=version, event=event, data=data)

        missed = []
        if after is not None and 0 <= after < table.version - 1 <= after + views.MAX_FILL:
            state = table.state_at(after)
            for version in range(after + 1, table.version):
                state = api.evolve(state, table.events[version - 1])
                missed.append(at(version, body(state, seat, version, False, None)))
        now = body(table.state, seat, table.version, settled, due)
        return missed, at(table.version, now)


def _due(
    state: TableState, meta: TableMeta, since: float, auto_delay: float
) -> tuple[int, int | None] | None:
    due = pending(state, table_clock(meta), humans(meta), since, auto_delay, present(meta))
    return None if due is None else (due.at_ms, due.seat)


def body(
    state: TableState,
    seat: int | None,
    version: int,
    settled: bool,
    due: tuple[int, int | None] | None,
) -> bytes:
    moves = None
    if settled and seat is not None and api.to_move(state) == seat:
        moves = api.legal_moves_json(state, seat)
    return views.encoder.encode(
        views.ViewBody(
            index=version,
            view=api.view(state, seat),
            settled=settled,
            moves=moves,
            deadline=None if due is None else due[0],
            deadline_seat=None if due is None else due[1],
        )
    )
