"""The event store: one JetStream stream (file storage) with a subject per table, and the KV
buckets beside it.

A table's subject holds its log exactly as docs/log-format.md writes it: the first message is the
log header (``{"type": "paiju_log", ...}``), every later message one engine event in the engine's
JSON form (``{"type": ..., "v": 1, ...}``), msgspec-encoded. An export is the subject's messages,
one per line, byte for byte.

An append holds all the events of one command, or none: one event (nearly every command) is one
acked publish, several are an atomic batch. Either carries ``Nats-Expected-Last-Subject-Sequence``
on the first message (optimistic concurrency: two writers cannot both append after the same event)
and a ``Nats-Msg-Id`` per message derived from the table, the command id and the event's place in
it (a retried command is not appended twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import (
    DiscardPolicy,
    KeyValueConfig,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.kv import KeyValue

from paiju_services import metrics, subjects
from paiju_services.errors import Unavailable
from paiju_services.logs import log

logger = logging.getLogger("paiju.store")

# JetStream error codes that mean "someone else appended first": reload and retry.
WRONG_LAST_SEQUENCE = 10071
WRONG_LAST_SEQUENCE_CLUSTERED = 10164  # another write to the subject is in flight (R3)
DUPLICATE_IN_BATCH = 10201  # an atomic batch with a message id seen before
RACE_CODES = frozenset({WRONG_LAST_SEQUENCE, WRONG_LAST_SEQUENCE_CLUSTERED, DUPLICATE_IN_BATCH})

MAX_MSG_SIZE = 64 * 1024
# what a direct get adds to a message's own headers
DIRECT_GET_HEADERS = frozenset(
    {
        "Nats-Stream",
        "Nats-Sequence",
        "Nats-Subject",
        "Nats-Time-Stamp",
        "Nats-Num-Pending",
        "Nats-Last-Sequence",
    }
)
READ_BATCH = 1024  # messages a batched direct get may return (bounds one answer's memory)
READ_TIMEOUT = 5.0  # seconds to wait for the next message of a batch
DUPLICATE_WINDOW = 120.0  # seconds: Nats-Msg-Id dedup; command ids in headers cover the rest


class StoreError(Unavailable):
    """The store could not be reached or refused an append for a reason other than a race."""


class Conflict(Exception):
    """The append lost a race: the subject's last sequence was not the expected one, or the
    batch's message ids were seen before (the command was appended already)."""


@dataclass(frozen=True, slots=True)
class Stored:
    seq: int
    data: bytes
    headers: dict[str, str]


class EventStore:
    def __init__(self, nc: Client, js: JetStreamContext, stream: str = subjects.STREAM) -> None:
        self.nc = nc
        self.js = js
        self.stream = stream

    async def last_seq(self, table_id: str) -> int:
        """The stream sequence of the table's last message, 0 when the table has none. Asks the
        stream leader (not a possibly lagging replica)."""
        try:
            msg = await self.js.get_last_msg(self.stream, subjects.events_subject(table_id))
        except nats.js.errors.NotFoundError:
            return 0
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError, TimeoutError) as exc:
            raise StoreError(f"last message of {table_id}: {exc!r}") from exc
        return int(msg.seq or 0)

    async def read(self, table_id: str, after: int = 0, until: int | None = None) -> list[Stored]:
        """The table's messages with a stream sequence above ``after``, up to ``until`` (default:
        the last one now), in order. Read by batched direct gets (up to ``READ_BATCH`` messages of
        the subject a request, nats-server 2.11+): a read leaves no consumer behind on the server,
        however often the services catch up, and costs a round trip per batch, not per event."""
        last = await self.last_seq(table_id) if until is None else until
        subject = subjects.events_subject(table_id)
        out: list[Stored] = []
        seq = after + 1
        while seq <= last:
            batch = await self._direct_batch(
                table_id, subject, seq, min(READ_BATCH, last - seq + 1)
            )
            if not batch:
                raise StoreError(f"read {table_id}: no message at or after {seq}")
            out.extend(m for m in batch if m.seq <= last)
            seq = batch[-1].seq + 1
        return out

    async def _direct_batch(
        self, table_id: str, subject: str, seq: int, count: int
    ) -> list[Stored]:
        """Up to ``count`` messages of ``subject`` from stream sequence ``seq`` on, in one batched
        direct get: the server answers with one message each, then an end-of-batch status."""
        inbox = self.nc.new_inbox()
        sub = await self.nc.subscribe(inbox)
        request = msgspec.json.encode({"seq": seq, "next_by_subj": subject, "batch": count})
        out: list[Stored] = []
        try:
            await self.nc.publish(f"$JS.API.DIRECT.GET.{self.stream}", request, reply=inbox)
            while True:
                msg = await sub.next_msg(timeout=READ_TIMEOUT)
                headers = msg.headers or {}
                status = headers.get("Status")
                if status == "204":  # end of the batch
                    return out
                if status == "404":  # nothing at or after seq
                    return out
                if status:
                    raise StoreError(f"read {table_id}: direct get answered {status}")
                number = headers.get("Nats-Sequence")
                if number is None:
                    raise StoreError(f"read {table_id}: a direct get without a sequence")
                own = {k: v for k, v in headers.items() if k not in DIRECT_GET_HEADERS}
                out.append(Stored(int(number), msg.data or b"", own))
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"read {table_id}: {exc!r}") from exc
        finally:
            with contextlib.suppress(nats.errors.Error):
                await sub.unsubscribe()

    async def append(
        self,
        table_id: str,
        messages: Sequence[tuple[bytes, dict[str, str]]],
        expected_last: int,
        msg_id_prefix: str,
        timeout: float = 5.0,
    ) -> int:
        """Append ``messages`` (payload, headers) after sequence ``expected_last`` (0: the
        subject must be empty), all or none. Returns the last message's sequence.

        One message (a command that caused one event: nearly all of them) is a plain acked
        publish; several are an atomic batch, which nats-server stages in a store of its own
        (several fsyncs a batch: about ten times the cost). Both carry the same checks.

        Raises:
            Conflict: the subject moved on, or the messages were appended before.
            StoreError: anything else (the outcome is then unknown: reload to find out).
        """
        started = time.perf_counter()
        try:
            seq = await self._append(table_id, messages, expected_last, msg_id_prefix, timeout)
        except Conflict:
            metrics.APPENDS.labels("conflict").inc()
            raise
        except StoreError:
            metrics.APPENDS.labels("unknown").inc()
            raise
        finally:
            metrics.APPEND_SECONDS.observe(time.perf_counter() - started)
        metrics.APPENDS.labels("appended").inc()
        metrics.APPENDED_MESSAGES.inc(len(messages))
        return seq

    async def _append(
        self,
        table_id: str,
        messages: Sequence[tuple[bytes, dict[str, str]]],
        expected_last: int,
        msg_id_prefix: str,
        timeout: float,
    ) -> int:
        subject = subjects.events_subject(table_id)
        batch = secrets.token_hex(12) if len(messages) > 1 else None
        last = len(messages) - 1
        try:
            for i, (payload, headers) in enumerate(messages):
                hdrs = dict(headers)
                hdrs["Nats-Msg-Id"] = f"{table_id}:{msg_id_prefix}:{i}"
                if batch is not None:
                    hdrs["Nats-Batch-Id"] = batch
                    hdrs["Nats-Batch-Sequence"] = str(i + 1)
                if i == 0:
                    hdrs["Nats-Expected-Last-Subject-Sequence"] = str(expected_last)
                    hdrs["Nats-Expected-Stream"] = self.stream
                if i < last:
                    await self.nc.publish(subject, payload, headers=hdrs)
                    continue
                if batch is not None:
                    hdrs["Nats-Batch-Commit"] = "1"
                reply = await self.nc.request(subject, payload, timeout=timeout, headers=hdrs)
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError, TimeoutError) as exc:
            raise StoreError(f"append to {table_id}: {exc!r}") from exc
        ack = msgspec.json.decode(reply.data)
        error = ack.get("error") if isinstance(ack, dict) else None
        if error:
            if error.get("err_code") in RACE_CODES:
                raise Conflict(str(error.get("description")))
            raise StoreError(f"append to {table_id}: {error}")
        if ack.get("duplicate"):
            raise Conflict("duplicate")
        return int(ack["seq"])


async def ensure(
    js: JetStreamContext, replicas: int = 1, stream: str = subjects.STREAM, create: bool = True
) -> None:
    """Create the stream and the KV buckets when they do not exist (every service calls this at
    start; it is idempotent, and leaves an existing stream's settings to the operator).
    ``create=False``: a service whose NATS user may not create them (paiju_services.access) waits
    until the table service has."""
    if not create:
        for attempt in range(60):
            try:
                await js.stream_info(stream)
                return
            except (
                nats.js.errors.NotFoundError,
                nats.errors.TimeoutError,
                nats.js.errors.ServiceUnavailableError,
            ) as exc:
                log(
                    logger, "waiting for the stream", logging.INFO, attempt=attempt, error=repr(exc)
                )
                await asyncio.sleep(1.0)
        raise StoreError(f"the stream {stream} was not created")
    config = StreamConfig(
        name=stream,
        description="Paiju table logs: one subject per table, header then engine events",
        subjects=[subjects.EVENTS_ALL],
        storage=StorageType.FILE,
        retention=RetentionPolicy.LIMITS,
        discard=DiscardPolicy.NEW,  # full: refuse new appends, never drop history
        max_msg_size=MAX_MSG_SIZE,
        duplicate_window=DUPLICATE_WINDOW,
        num_replicas=replicas,
        allow_direct=True,
        allow_atomic=True,
        deny_delete=True,  # an event log is append-only
        deny_purge=True,
    )
    for attempt in range(30):
        try:
            # the buckets first: a service that waits for the stream then finds them too
            for bucket, history, description in (
                (subjects.TABLES_BUCKET, 5, "Paiju table directory"),
                (subjects.SECRETS_BUCKET, 1, "Paiju table secrets (base seeds)"),
                (subjects.BOT_TOKENS_BUCKET, 1, "Paiju bots' seat tokens"),
            ):
                await _ensure_bucket(js, bucket, history, description, replicas)
            try:
                await js.stream_info(stream)
            except nats.js.errors.NotFoundError:
                with contextlib.suppress(nats.js.errors.BadRequestError):
                    await js.add_stream(config)
                    log(logger, "stream created", stream=stream, replicas=replicas)
            return
        except (nats.errors.TimeoutError, nats.js.errors.ServiceUnavailableError) as exc:
            # a cluster still electing its JetStream meta leader
            log(logger, "jetstream not ready", logging.WARNING, attempt=attempt, error=repr(exc))
            await asyncio.sleep(1.0)
    raise StoreError("JetStream did not become ready")


async def _ensure_bucket(
    js: JetStreamContext, bucket: str, history: int, description: str, replicas: int
) -> KeyValue:
    try:
        return await js.key_value(bucket)
    except nats.js.errors.BucketNotFoundError:
        pass
    with contextlib.suppress(nats.js.errors.BadRequestError):
        await js.create_key_value(
            KeyValueConfig(
                bucket=bucket,
                description=description,
                history=history,
                storage=StorageType.FILE,
                replicas=replicas,
            )
        )
        log(logger, "bucket created", bucket=bucket, replicas=replicas)
    return await js.key_value(bucket)
