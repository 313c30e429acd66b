"""Open tables nobody joins expire, and leave nothing behind.

A table is open until its last seat is taken (a rematch's, until every player has pressed). One
that has been open for ``open_expiry`` seconds (default 1800) since the later of its creation and
its last seat taken (``open_since``) is ended by a pass of any copy of the table service
(``Expiry.run``, at every sweep), in steps that are each idempotent, so copies passing at once, or
one dying half way, leave the same end:

1. the directory entry says ``expired`` (``finished_at``: when), written as a compare-and-set of
   the entry the pass read: a join (or a rematch press, a leave, the owner's close) that wrote
   the entry first makes it fail, and the table is looked at again at the next pass, its new seat
   counted; a join after it reads ``expired`` and is refused with ``table_expired`` (the service's
   ``directory.refuse_expired`` refuses every request on such an entry), so no seat is ever taken at an expired table;
2. its log's subject is purged from the event stream (the header and the deal's commitment: no
   hand was dealt), and its secrets from their buckets (its base seed, its seats' view keys, its
   bots' seat tokens: ``Retirement.drop_secrets``), leaving no marker;
3. once the entry has said ``expired`` for ``forget_after`` (min(``open_expiry``, 60 s): time for
   every index that watches the directory, each gateway's lobby and each copy's, to hear of it
   and drop the table), the entry itself is purged from the directory's stream, leaving no marker:
   nothing of the table is left, and any request about it answers ``table_not_found``.

The pass costs what is open: each copy's index of the directory (``directory.InPlay``) keeps the
open and expired entries beside those in play, so a pass reads no listing, and reads only the
entries of the tables due (at most ``PASS_LIMIT``, in random order so that copies sharing a backlog
mostly take different tables).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec
import nats.errors
import nats.js.errors

from paiju_services import subjects
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.messages import TableMeta, encoder
from paiju_services.store import StoreError

if TYPE_CHECKING:
    from paiju_services.archive import Retirement
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables.expiry")

# tables one pass takes a step further at most (a backlog is worked off pass by pass): 1.5 to 6 ms
# each measured, so a pass of 256 takes a copy a second or so every ``sweep_interval``, and works
# off about what one client address may create (``http_rate``, 50/s)
PASS_LIMIT = 256
FORGET_AFTER = 60.0  # seconds an expired entry stays at most, so that every index hears of it


class Expiry:
    """One copy's passes over the open tables: ``run`` at every sweep."""

    def __init__(self, writer: TableWriter, retirement: Callable[[], Retirement]) -> None:
        """``retirement``: the service's (it drops an expired table's secrets)."""
        self.writer = writer
        self.retirement = retirement
        self.cleaned: set[str] = set()  # expired tables whose log and secrets this copy purged

    @property
    def forget_after(self) -> float:
        return min(self.writer.settings.open_expiry, FORGET_AFTER)

    def due(self, meta: TableMeta, now: float) -> bool:
        """Whether a pass has something to do for the table: an open one waited long enough, an
        expired one this copy has not purged yet, or whose entry may go now."""
        if meta.status == "open":
            return meta.open_since() + self.writer.settings.open_expiry <= now
        if meta.status != "expired":
            return False
        return meta.id not in self.cleaned or (meta.finished_at or 0.0) + self.forget_after <= now

    async def run(self, now: float | None = None) -> int:
        """One pass; returns how many tables it looked at.

        Raises:
            ServiceError: ``unavailable`` before the copy's index has read the directory once.
        """
        writer = self.writer
        if writer.in_play is None:
            raise ServiceError("unavailable", detail="the directory is not bound (open)")
        now = time.time() if now is None else now
        due = [x.meta.id for x in await writer.in_play.unplayed() if self.due(x.meta, now)]
        random.shuffle(due)
        for table_id in due[:PASS_LIMIT]:
            try:
                async with writer.lock(table_id):
                    await self.end(table_id, now)
            except (
                ServiceError,
                StoreError,
                nats.errors.Error,
                TimeoutError,
                msgspec.DecodeError,  # an entry not as written: left as it is
            ) as exc:
                log(logger, "expiry failed", logging.WARNING, table=table_id, error=repr(exc))
        return len(due)

    async def end(self, table_id: str, now: float) -> str:
        """Take the table one step further (the module's steps, from its entry as the directory
        holds it now): what was done, ``expired``, ``forgotten`` or ``kept`` (it was joined, or
        is not due yet, or was forgotten by another copy already)."""
        writer = self.writer
        assert writer.in_play is not None
        try:
            got = await writer.tables_kv.get(table_id)
        except nats.js.errors.KeyNotFoundError:  # another copy forgot it
            writer.in_play.drop(table_id)
            self.cleaned.discard(table_id)
            return "kept"
        meta = msgspec.json.decode(got.value or b"", type=TableMeta)
        if not self.due(meta, now):
            return "kept"
        done = "kept"
        if meta.status == "open":
            meta.status = "expired"
            meta.finished_at = now
            try:
                await writer.tables_kv.update(table_id, encoder.encode(meta), last=got.revision)
            except nats.js.errors.KeyWrongLastSequenceError:
                return "kept"  # a join (or another copy's expiry) came first: the next pass
            log(logger, "table expired", table=table_id, open_since=meta.open_since())
            done = "expired"
        if table_id not in self.cleaned:
            await self._purge(table_id)
            if len(self.cleaned) > 4 * writer.settings.cache_tables:
                self.cleaned.clear()  # bounded: forgetting costs a repeated purge, nothing more
            self.cleaned.add(table_id)
            writer.forget(table_id)
        if (meta.finished_at or now) + self.forget_after <= now:
            # again: a rematch pressed meanwhile may have written its secret and first append
            await self._purge(table_id)
            await self._purge_entry(table_id)
            writer.in_play.drop(table_id)
            self.cleaned.discard(table_id)
            log(logger, "expired table forgotten", table=table_id)
            done = "forgotten"
        return done

    async def _purge(self, table_id: str) -> None:
        """The table's log leaves the event stream, and its secrets their buckets (step 2)."""
        store = self.writer.store
        last = await store.last_seq(table_id)
        if last:
            await store.purge(table_id, through=last)
        await self.retirement().drop_secrets(table_id)

    async def _purge_entry(self, table_id: str) -> None:
        """The directory entry leaves the bucket's stream, every revision of it and no marker."""
        bucket = subjects.TABLES_BUCKET
        try:
            await self.writer.js.purge_stream(f"KV_{bucket}", subject=f"$KV.{bucket}.{table_id}")
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"forget {table_id}: {exc!r}") from exc
