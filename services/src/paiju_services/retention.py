"""Retention: a retired table's directory entry and archived log are kept ``keep_retired`` seconds
(default 365 days; 0: for ever), then deleted by the table service's sweep. Until then nothing
changes for a reader: the export, the replay, ``/state?at=N`` and the hands read the archive (an
auditor may export and check the log all along); after, the table is unknown
(``table_not_found``), and nothing of it is left.

**The schedule costs what is due.** As a table is retired (paiju_services.archive, before its
directory entry gets ``retired_at``) the key ``<table>`` (value: when, text) is put into the KV
bucket ``paiju_retired``. Keys are written in the order tables retire, so a pass reads the bucket's
stream from its first message, by one batched direct get of at most ``PASS_LIMIT`` messages (no
consumer), deletes the tables due and stops at the first one that is not: a pass over a year of
retired tables reads a batch, not the year. A deleted table's key is purged (no marker), so the
stream's first message is always the oldest table still kept.

**A deletion**, in this order, each step idempotent (a pass that dies half way is finished by the
next; two copies deleting one table at once purge twice, which removes nothing the second time):

1. the directory entry, if there, says ``retired_at`` ``keep_retired`` seconds ago or more (else
   the key waits: a table not retired yet is never deleted);
2. the archived object's chunks are purged from the archive's stream, then its meta (readers find
   no object: a reader between the two gets ``unavailable`` and then ``table_not_found``);
3. the directory entry is purged with a marker that tells every index watching the directory (each
   gateway's lobby history) to drop it, and that the server removes after ``marker_ttl``
   (min(``keep_retired``, 60 s)); a bucket made without per-message TTLs gets no marker (a purge
   by subject: the indexes drop it when their watch is made again);
4. the key leaves ``paiju_retired``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import msgspec
import nats.errors
import nats.js.errors
from nats.js.kv import KeyValue

from paiju_services import subjects
from paiju_services.config import Settings
from paiju_services.logs import log
from paiju_services.messages import TableMeta
from paiju_services.store import (
    ARCHIVE_BUCKET,
    ARCHIVE_STREAM,
    RETIRED_BUCKET,
    ArchiveError,
    EventStore,
    StoreError,
    archive_meta_subject,
)

logger = logging.getLogger("paiju.retention")

PASS_LIMIT = 64  # tables one pass deletes at most (a backlog is worked off pass by pass)
MARKER_TTL = 60.0  # seconds a deleted entry's marker stays at most, so that every index hears
TTL_DISABLED = 10166  # JetStream: "per-message TTL is disabled" (a bucket made without it)
_PREFIX = f"$KV.{RETIRED_BUCKET}."


class Retention:
    """The deletion of retired tables once kept ``keep_retired``: ``remember`` as a table
    retires, ``run`` once a sweep (every copy may run it; they agree)."""

    def __init__(
        self,
        settings: Settings,
        store: EventStore,
        tables_kv: KeyValue,
        lock: Callable[[str], asyncio.Lock],
    ) -> None:
        self.settings = settings
        self.store = store
        self.tables_kv = tables_kv
        self.lock = lock  # the table service's lock of a table
        self.kv: KeyValue | None = None

    @property
    def marker_ttl(self) -> float:
        return max(1.0, min(self.settings.keep_retired, MARKER_TTL))

    async def _kv(self) -> KeyValue:
        if self.kv is None:
            try:
                self.kv = await self.store.js.key_value(RETIRED_BUCKET)
            except (nats.errors.Error, TimeoutError) as exc:
                raise StoreError(f"bucket {RETIRED_BUCKET}: {exc!r}") from exc
        return self.kv

    async def remember(self, table_id: str, retired_at: float) -> None:
        """The table retired at ``retired_at``: deleted ``keep_retired`` seconds later.

        Raises:
            StoreError: NATS failed.
        """
        kv = await self._kv()
        try:
            await kv.put(table_id, repr(retired_at).encode())
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"schedule the deletion of {table_id}: {exc!r}") from exc

    async def due(self, now: float) -> list[str]:
        """The oldest retired tables whose time is up (at most ``PASS_LIMIT``), in the order they
        retired: the bucket's first messages, up to the first one not due."""
        await self._kv()
        batch = await self.store.direct_batch(
            RETIRED_BUCKET, f"KV_{RETIRED_BUCKET}", f"{_PREFIX}>", 1, PASS_LIMIT, raw=True
        )
        out: list[str] = []
        for msg in batch:
            table_id = msg.headers.get("Nats-Subject", "").removeprefix(_PREFIX)
            if msg.headers.get("KV-Operation") or not subjects.is_table_id(table_id):
                continue  # a marker (none are written), or a stranger
            try:
                retired_at = float(msg.data)
            except ValueError:
                continue
            if retired_at + self.settings.keep_retired > now:
                break  # this one, and those retired after it, are kept for now
            out.append(table_id)
        return out

    async def run(self, now: float | None = None) -> int:
        """One pass: delete the retired tables kept ``keep_retired`` (none when it is 0). Returns
        how many were deleted."""
        if self.settings.keep_retired <= 0:
            return 0
        now = time.time() if now is None else now
        done = 0
        for table_id in await self.due(now):
            try:
                async with self.lock(table_id):
                    done += await self.delete(table_id, now)
            except Exception as exc:  # NATS, or an entry not as written: tried next pass
                log(logger, "deletion failed", logging.WARNING, table=table_id, error=repr(exc))
        return done

    async def delete(self, table_id: str, now: float) -> bool:
        """Delete one retired table (the steps in the module's docs); False when it may not be.

        Raises:
            StoreError: NATS failed (the next pass tries again).
        """
        try:
            got = await self.tables_kv.get(table_id)
        except nats.js.errors.KeyNotFoundError:
            got = None
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"directory entry of {table_id}: {exc!r}") from exc
        if got is not None:
            meta = msgspec.json.decode(got.value or b"", type=TableMeta)
            if meta.retired_at is None or meta.retired_at + self.settings.keep_retired > now:
                return False  # not retired yet (the retirement finishes it), or kept
        await self._drop_archive(table_id)
        if got is not None:
            await self._drop_entry(table_id)
        await self._purge(f"KV_{RETIRED_BUCKET}", f"{_PREFIX}{table_id}")
        log(logger, "retired table deleted", table=table_id)
        return True

    async def _drop_archive(self, table_id: str) -> None:
        """The archived object leaves the archive's stream: its chunks, then its meta."""
        info = None
        with contextlib.suppress(ArchiveError):  # unreadable: its meta goes all the same
            info = await self.store.archived(table_id)
        if info is not None:
            await self._purge(ARCHIVE_STREAM, f"$O.{ARCHIVE_BUCKET}.C.{info.nuid}")
        await self._purge(ARCHIVE_STREAM, archive_meta_subject(table_id))

    async def _drop_entry(self, table_id: str) -> None:
        """The directory entry is purged, leaving a marker that expires (module docs, step 3)."""
        try:
            await self.tables_kv.purge(table_id, msg_ttl=self.marker_ttl)
            return
        except nats.js.errors.APIError as exc:
            if exc.err_code != TTL_DISABLED:
                raise StoreError(f"delete the entry of {table_id}: {exc}") from exc
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"delete the entry of {table_id}: {exc!r}") from exc
        bucket = subjects.TABLES_BUCKET
        await self._purge(f"KV_{bucket}", f"$KV.{bucket}.{table_id}")

    async def _purge(self, stream: str, subject: str) -> None:
        try:
            await self.store.js.purge_stream(stream, subject=subject)
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"purge {subject}: {exc!r}") from exc
