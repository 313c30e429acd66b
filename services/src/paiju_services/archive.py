"""Retirement: a table finished for ``retire_after`` seconds leaves the hot event stream for the
archive, and stays readable and exportable exactly as before.

**The archive** is an Object Store bucket, ``paiju_archive`` (store.ARCHIVE_BUCKET), holding one
object per retired table, named by its id: its messages as ``EventStore.read`` returns them
(stream sequence, bytes, headers), msgpack then zlib (store.encode_archive). ``EventStore.read``
falls back to it when the table's subject is empty, so the table service and the gateway (log,
export, ``/state?at=N``, the replay, hands) read a retired table as they read a hot one, and get
the very same ``Stored`` list.

**The schedule** costs what is pending, not what ever existed: the table service writes the key
``<table>`` (value: when it finished) into the KV bucket ``paiju_retiring`` as the table finishes
(``TableService._finish``, before the directory says ``finished``), and each pass reads that bucket
alone — by batched direct gets, no consumer — and purges a key once its table is retired (a purge,
not a delete, so no marker is left behind: the bucket holds the pending tables and nothing else).

**A retirement**, in this order (a crash at any point leaves the table readable, from the stream or
the archive, and the next pass does what is left; every step is idempotent):

1. the directory entry says ``finished`` or ``closed`` (else the key waits), and the subject's last
   message is ``match_ended``: a live table is never retired;
2. the subject's messages are written to the archive — unless an earlier pass's object holds
   them already — and read back through the readers' own path, and compared, message by message;
3. only then is the subject purged, up to the last archived sequence (a later message, were there
   one, would stay);
4. the table's secrets are purged from their buckets (``drop_secrets``): its base seed, its seats'
   view keys and its bots' seat tokens — nothing needs them once the match is over;
5. the table is put on the schedule of its deletion, ``keep_retired`` seconds on
   (paiju_services.retention), then the directory entry gets ``retired_at`` (so readers and
   operators can tell), and the key is purged from ``paiju_retiring``.

A pass that finds the subject empty already (a pass interrupted after its purge) checks the
archive holds the ended log and does steps 4 and 5. Two copies retiring one table at once both
write the same object (the Object Store swaps it whole: a reader between them reads one or the
other) and the second purge removes nothing.

**An old stream** made with ``deny_purge`` (before retirement) cannot be purged, and nats-server
2.15 refuses to turn ``deny_purge`` off on an existing stream (``stream configuration update can
not cancel deny purge``, 10052): the pass then says so once and retires nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable

import msgspec
import nats.errors
import nats.js.errors
from nats.js.kv import KeyValue

from paiju.log.file import HEADER_TYPE
from paiju_services import subjects, views
from paiju_services.config import Settings
from paiju_services.logs import log
from paiju_services.messages import TableMeta, encoder
from paiju_services.retention import Retention
from paiju_services.store import (
    RETIRING_BUCKET,
    ArchiveError,
    EventStore,
    PurgeDenied,
    Stored,
    StoreError,
)
from paiju_services.stored import line_types

logger = logging.getLogger("paiju.archive")

ENDED = frozenset({"finished", "closed"})  # directory statuses of a table whose log is over
LAST_EVENT = "match_ended"  # the type of an ended log's last event
PASS_LIMIT = 64  # tables one pass retires at most (a backlog is worked off pass by pass)
SCAN_BATCH = 1024  # pending keys a batched direct get returns
_RETIRING_PREFIX = f"$KV.{RETIRING_BUCKET}."


def ended(msgs: list[Stored]) -> bool:
    """Whether a table's messages are a whole log whose match is over: a header first and
    ``match_ended`` last (the engine takes no command after it)."""
    return (
        len(msgs) >= 2
        and line_types(msgs[0].headers)[:1] == [HEADER_TYPE]
        and line_types(msgs[-1].headers)[-1:] == [LAST_EVENT]
    )


class Retirement:
    """The table service's retirement of finished tables: ``schedule`` as a table finishes,
    ``run`` once a sweep (every copy may run it; they agree)."""

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
        self.enabled: bool | None = None  # None: the stream not asked yet
        self.retention = Retention(settings, store, tables_kv, lock)  # then its deletion

    async def _kv(self) -> KeyValue:
        if self.kv is None:
            try:
                self.kv = await self.store.js.key_value(RETIRING_BUCKET)
            except (nats.errors.Error, TimeoutError) as exc:
                raise StoreError(f"bucket {RETIRING_BUCKET}: {exc!r}") from exc
        return self.kv

    async def schedule(self, table_id: str, finished_at: float) -> None:
        """The table is to be retired ``retire_after`` seconds after ``finished_at``."""
        kv = await self._kv()
        try:
            await kv.put(table_id, repr(finished_at).encode())
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"schedule the retirement of {table_id}: {exc!r}") from exc

    async def pending(self) -> dict[str, float]:
        """Every table waiting for retirement, and when it finished: the bucket's messages read
        by batched direct gets (it holds one per pending table: retired keys are purged)."""
        await self._kv()
        out: dict[str, float] = {}
        stream = f"KV_{RETIRING_BUCKET}"
        seq = 1
        while True:
            batch = await self.store.direct_batch(
                RETIRING_BUCKET, stream, f"{_RETIRING_PREFIX}>", seq, SCAN_BATCH, raw=True
            )
            if not batch:  # nothing at or after seq (a batch may stop short of SCAN_BATCH)
                return out
            for msg in batch:
                subject = msg.headers.get("Nats-Subject", "")
                table_id = subject.removeprefix(_RETIRING_PREFIX)
                if msg.headers.get("KV-Operation") or not subjects.is_table_id(table_id):
                    continue  # a delete or purge marker (none are written), or a stranger
                with contextlib.suppress(ValueError):
                    out[table_id] = float(msg.data)
            seq = batch[-1].seq + 1

    async def forget(self, table_id: str) -> None:
        """Take the table off the schedule, leaving nothing behind in the bucket."""
        try:
            await self.store.js.purge_stream(
                f"KV_{RETIRING_BUCKET}", subject=f"{_RETIRING_PREFIX}{table_id}"
            )
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"unschedule {table_id}: {exc!r}") from exc

    async def may_run(self) -> bool:
        """Whether the stream may be purged; an old one that may not is said once."""
        if self.enabled is None:
            self.enabled = await self.store.may_purge()
            if not self.enabled:
                log(
                    logger,
                    "retirement off: the stream denies purges (made before retirement); "
                    "finished tables stay in it",
                    logging.WARNING,
                    stream=self.store.stream,
                )
        return self.enabled

    async def run(self, now: float | None = None) -> int:
        """One pass: retire the tables that finished ``retire_after`` seconds ago or more (at
        most ``PASS_LIMIT``, in random order so that copies sharing a backlog mostly take
        different tables). Returns how many were retired."""
        if not await self.may_run():
            return 0
        now = time.time() if now is None else now
        pending = await self.pending()
        due = [t for t, at in pending.items() if at + self.settings.retire_after <= now]
        random.shuffle(due)
        done = 0
        for table_id in due[:PASS_LIMIT]:
            try:
                async with self.lock(table_id):
                    done += await self.retire(table_id)
            except PurgeDenied as exc:
                self.enabled = None  # the stream was made anew meanwhile? asked again next pass
                log(logger, "retirement refused", logging.WARNING, table=table_id, error=str(exc))
                break
            except Exception as exc:  # NATS, or an entry not as written: tried next pass
                log(logger, "retirement failed", logging.WARNING, table=table_id, error=repr(exc))
        try:
            await self.retention.run(now)  # the retired tables kept long enough are deleted
        except StoreError as exc:
            log(logger, "deletion pass failed", logging.WARNING, error=str(exc))
        return done

    async def retire(self, table_id: str) -> bool:
        """Retire one table (the steps in the module's docs); False when it may not be yet.

        Raises:
            StoreError: NATS failed, or the archive did not read back as written (nothing is
                purged then; the next pass tries again).
        """
        started = time.perf_counter()
        try:
            kv_entry = await self.tables_kv.get(table_id)
        except nats.js.errors.KeyNotFoundError:
            log(logger, "retirement of an unknown table", logging.WARNING, table=table_id)
            await self.forget(table_id)
            return False
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"directory entry of {table_id}: {exc!r}") from exc
        meta = msgspec.json.decode(kv_entry.value or b"", type=TableMeta)
        if meta.retired_at is not None:
            await self.forget(table_id)
            return False
        if meta.status not in ENDED:
            return False  # not finished yet (or its directory entry not yet written): wait
        msgs = await self.store.read_subject(table_id)
        if msgs:
            if not await self.archive(table_id, msgs):
                log(logger, "retirement of a log not ended", logging.WARNING, table=table_id)
                return False
            await self.store.purge(table_id, through=msgs[-1].seq)
            if await self.store.last_seq(table_id) != 0:
                log(logger, "retired log still has messages", logging.ERROR, table=table_id)
                return False
        else:
            msgs = await self.store.read_archive(table_id)
            if not ended(msgs):  # neither in the stream nor archived whole: never purge it
                log(logger, "retirement: no ended log", logging.ERROR, table=table_id)
                return False
        await self.drop_secrets(table_id)
        await self.retention.remember(table_id, time.time())  # before retired_at: never missed
        await self._mark(table_id)
        await self.forget(table_id)
        log(
            logger,
            "table retired",
            table=table_id,
            events=len(msgs) - 1,
            bytes=sum(len(m.data) for m in msgs),
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return True

    async def archive(self, table_id: str, msgs: list[Stored] | None = None) -> bool:
        """Write the table's ended log to the archive, unless it holds it already, and read it
        back to compare (step 2 of a retirement; the table service does it as the match ends, so
        the gateway reads ended logs from the archive alone). False: the log is not ended.

        Raises:
            StoreError: NATS failed, or the archive did not read back as written.
        """
        if msgs is None:
            msgs = await self.store.read_subject(table_id)
            if not msgs:  # retired already: the archive holds it, or nothing does
                return ended(await self.store.read_archive(table_id))
        if not ended(msgs):
            return False
        if not await self._holds(table_id, msgs):
            await self.store.write_archive(table_id, msgs)
            if await self.store.read_archive(table_id) != msgs:
                raise StoreError(f"archive of {table_id}: read back differs from the log")
        return True

    async def _holds(self, table_id: str, msgs: list[Stored]) -> bool:
        """Whether the archive holds these messages already (an earlier pass wrote them, or the
        table service as the match ended); an object that is not a sound archive of the table, or
        holds other messages, is written again, and said."""
        try:
            archived = await self.store.read_archive(table_id)
        except ArchiveError as exc:
            log(logger, "archive written again", logging.WARNING, table=table_id, error=str(exc))
            return False
        if archived and archived != msgs:
            log(logger, "archive written again", logging.WARNING, table=table_id, error="differs")
        return archived == msgs

    async def drop_secrets(self, table_id: str) -> None:
        """The table's secrets leave their buckets, leaving no marker (step 4): its base seed
        (each hand's seed, an HMAC of it, is in the log since that hand ended; a hand cut short
        by an abandonment was never scored), its seats' view keys (none of its views is sent
        again; a rematch has its own, written as its players press) and its bots' seat tokens
        (it takes no command)."""
        purges = [
            (subjects.SECRETS_BUCKET, table_id),
            (subjects.SECRETS_BUCKET, views.key_name(table_id, "*")),
            (subjects.BOT_TOKENS_BUCKET, f"{table_id}.*"),
        ]
        for bucket, key in purges:
            try:
                await self.store.js.purge_stream(f"KV_{bucket}", subject=f"$KV.{bucket}.{key}")
            except (nats.errors.Error, TimeoutError) as exc:
                raise StoreError(f"drop the secrets of {table_id}: {exc!r}") from exc

    async def _mark(self, table_id: str) -> None:
        """``retired_at`` in the table's directory entry (a compare-and-set, read again on a
        lost race)."""
        for _ in range(self.settings.max_retries):
            try:
                entry = await self.tables_kv.get(table_id)
                meta = msgspec.json.decode(entry.value or b"", type=TableMeta)
                if meta.retired_at is not None:
                    return
                meta.retired_at = time.time()
                await self.tables_kv.update(table_id, encoder.encode(meta), last=entry.revision)
                return
            except nats.js.errors.KeyWrongLastSequenceError:
                continue
            except (nats.errors.Error, TimeoutError) as exc:
                raise StoreError(f"mark {table_id} retired: {exc!r}") from exc
        raise StoreError(f"mark {table_id} retired: the entry kept changing")
