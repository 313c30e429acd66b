"""The event store: one JetStream stream (file storage) with a subject per table, and the KV
buckets beside it (made at start by ``paiju_services.streams``).

A table's subject holds its log exactly as docs/log-format.md writes it, as JSON lines: each
message holds the lines one append added, in the engine's JSON form (``{"type": ..., "v": 1,
...}``), msgspec-encoded, separated by ``\n`` (JSON text never holds a raw newline). The first
message starts with the log header (``{"type": "paiju_log", ...}``), followed by the commitment to
the first deal; every later one holds the events of one command, nearly always one event. An
export is the subject's messages, one after the other, each ended by a newline, byte for byte.
Logs written before a command's events shared a message hold one line a message (a command of
several events an atomic batch of them); they are read the same way.

An append is one message, so it holds all the events of one command or none: one acked publish
with ``Nats-Expected-Last-Subject-Sequence`` (optimistic concurrency: two writers cannot both
append after the same event) and a ``Nats-Msg-Id`` derived from the table and the command id (a
retried command is not appended twice).

Retired tables (paiju_services.archive): a table finished for ``retire_after`` seconds leaves the
stream for the archive, an Object Store bucket holding one object per table, its messages exactly
as ``EventStore.read`` returns them. ``read`` falls back to the archive when the table's subject is
empty (or emptied while it read), so every reader gets the very same ``Stored`` list from a retired
table as from a hot one.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import (
    ObjectMeta,
)
from nats.js.object_store import ObjectStore

from paiju_services import metrics, subjects
from paiju_services.stored import ArchiveError as ArchiveError
from paiju_services.stored import Conflict as Conflict
from paiju_services.stored import PurgeDenied as PurgeDenied
from paiju_services.stored import Stored as Stored
from paiju_services.stored import StoreError as StoreError
from paiju_services.stored import decode_archive as decode_archive
from paiju_services.stored import encode_archive as encode_archive
from paiju_services.stored import next_index, stamped

logger = logging.getLogger("paiju.store")

# JetStream error codes that mean "someone else appended first": reload and retry.
WRONG_LAST_SEQUENCE = 10071
WRONG_LAST_SEQUENCE_CLUSTERED = 10164  # another write to the subject is in flight (R3)
RACE_CODES = frozenset({WRONG_LAST_SEQUENCE, WRONG_LAST_SEQUENCE_CLUSTERED})

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
PURGE_DENIED = 10110  # "stream purge not permitted": a stream made with deny_purge

# the archive of retired tables: an Object Store bucket, one object per table (named by its id)
ARCHIVE_BUCKET = "paiju_archive"
ARCHIVE_STREAM = f"OBJ_{ARCHIVE_BUCKET}"
# finished tables waiting for retirement: key <table>, value the time it finished (text)
RETIRING_BUCKET = "paiju_retiring"
# retired tables kept until ``keep_retired`` is up (retention.py): key <table>, value when it
# retired (text), in the order they retired
RETIRED_BUCKET = "paiju_retired"
H_LAST_SEQ = "Paiju-Last-Seq"  # on an archived object: the stream sequence of its last message
H_MESSAGES = "Paiju-Messages"  # on an archived object: how many messages it holds
CHUNK_BATCH = 32  # archive chunks (128 KiB each) a batched direct get may return


class _ObjectInfo(msgspec.Struct):
    """What an Object Store's meta message says of an object (the fields the archive reads)."""

    nuid: str = ""
    size: int = 0
    chunks: int = 0
    digest: str = ""
    deleted: bool = False
    headers: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ArchiveInfo:
    """An archived table's object: where its chunks are, and what it holds."""

    nuid: str
    size: int
    chunks: int
    digest: str
    last_seq: int  # the stream sequence of the table's last message
    messages: int


def archive_meta_subject(table_id: str) -> str:
    """The subject of a table's object's meta message in the archive bucket."""
    return f"$O.{ARCHIVE_BUCKET}.M.{base64.urlsafe_b64encode(table_id.encode()).decode()}"


def _object_digest(data: bytes) -> str:
    """An Object Store digest: ``SHA-256=`` and the URL-safe base64 of the sha256."""
    return "SHA-256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode()


def _header(headers: dict[str, Any] | None, name: str) -> str | None:
    """A header of an object's meta: Go clients write lists of values, so both are read."""
    value = (headers or {}).get(name)
    if isinstance(value, list):
        value = value[0] if value else None
    return value if isinstance(value, str) else None


class EventStore:
    def __init__(self, nc: Client, js: JetStreamContext, stream: str = subjects.STREAM) -> None:
        self.nc = nc
        self.js = js
        self.stream = stream
        self._archive: ObjectStore | None = None  # bound at the first write

    async def last_seq(self, table_id: str) -> int:
        """The stream sequence of the table's last message, 0 when its subject holds none (a
        table not yet made, or one retired to the archive). Asks the stream leader (not a
        possibly lagging replica)."""
        try:
            msg = await self.js.get_last_msg(self.stream, subjects.events_subject(table_id))
        except nats.js.errors.NotFoundError:
            return 0
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError, TimeoutError) as exc:
            raise StoreError(f"last message of {table_id}: {exc!r}") from exc
        return int(msg.seq or 0)

    async def tip(self, table_id: str) -> tuple[int, int | None]:
        """The stream sequence of the table's last message and the log index of its last line
        (``stored.next_index`` less one), from the stream leader: (0, None) when its subject
        holds none. What a copy's memory is checked against when in doubt (``tablelog.load``)."""
        try:
            msg = await self.js.get_last_msg(self.stream, subjects.events_subject(table_id))
        except nats.js.errors.NotFoundError:
            return 0, None
        except (nats.errors.Error, TimeoutError) as exc:  # a stream electing its leader too
            raise StoreError(f"last message of {table_id}: {exc!r}") from exc
        after = next_index(msg.headers or {})
        return int(msg.seq or 0), None if after is None else after - 1

    async def read(self, table_id: str, after: int = 0, until: int | None = None) -> list[Stored]:
        """The table's messages with a stream sequence above ``after``, up to ``until`` (default:
        the last one now), in order. Read by batched direct gets (up to ``READ_BATCH`` messages of
        the subject a request, nats-server 2.11+): a read leaves no consumer behind on the server,
        however often the services catch up, and costs a round trip per batch, not per event.

        A retired table's subject is empty: its messages come from the archive, the same list
        (a read that finds the subject emptied under it, by a retirement, reads the archive too).
        """
        last = await self.last_seq(table_id) if until is None else until
        if until is None and last == 0:
            return await self.read_archive(table_id, after)
        subject = subjects.events_subject(table_id)
        out: list[Stored] = []
        seq = after + 1
        while seq <= last:
            batch = await self.direct_batch(
                table_id, self.stream, subject, seq, min(READ_BATCH, last - seq + 1)
            )
            if not batch:
                archived = await self.read_archive(table_id, after, last)
                if archived and archived[-1].seq == last:
                    return archived  # retired while we read
                raise StoreError(f"read {table_id}: no message at or after {seq}")
            out.extend(m for m in batch if m.seq <= last)
            seq = batch[-1].seq + 1
        return out

    async def read_subject(self, table_id: str) -> list[Stored]:
        """The messages the table's subject holds now, never the archive's."""
        last = await self.last_seq(table_id)
        return [] if last == 0 else await self.read(table_id, until=last)

    async def direct_batch(
        self, table_id: str, stream: str, subject: str, seq: int, count: int, raw: bool = False
    ) -> list[Stored]:
        """Up to ``count`` messages of ``subject`` (a wildcard matches any subject under it) from
        stream sequence ``seq`` on, in one batched direct get: the server answers with one
        message each, then an end-of-batch status. ``raw``: keep the headers the direct get adds
        (``Nats-Subject`` ...)."""
        inbox = self.nc.new_inbox()
        sub = await self.nc.subscribe(inbox)
        request = msgspec.json.encode({"seq": seq, "next_by_subj": subject, "batch": count})
        out: list[Stored] = []
        try:
            await self.nc.publish(f"$JS.API.DIRECT.GET.{stream}", request, reply=inbox)
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
                own = {k: v for k, v in headers.items() if raw or k not in DIRECT_GET_HEADERS}
                out.append(Stored(int(number), msg.data or b"", own))
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"read {table_id}: {exc!r}") from exc
        finally:
            with contextlib.suppress(nats.errors.Error):
                await sub.unsubscribe()

    # --- the archive ---------------------------------------------------------------------------

    async def archived(self, table_id: str) -> ArchiveInfo | None:
        """The table's object in the archive (its meta, from the archive stream's leader); None
        when the table is not archived (or the archive bucket does not exist yet)."""
        try:
            msg = await self.js.get_last_msg(ARCHIVE_STREAM, archive_meta_subject(table_id))
        except nats.js.errors.NotFoundError:
            return None
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError, TimeoutError) as exc:
            raise StoreError(f"archive of {table_id}: {exc!r}") from exc
        try:
            info = msgspec.json.decode(msg.data or b"", type=_ObjectInfo)
            last = int(_header(info.headers, H_LAST_SEQ) or "")
            count = int(_header(info.headers, H_MESSAGES) or "")
        except (msgspec.DecodeError, ValueError) as exc:
            raise ArchiveError(f"archive of {table_id}: bad meta: {exc}") from exc
        if info.deleted:
            return None
        return ArchiveInfo(info.nuid, info.size, info.chunks, info.digest, last, count)

    async def read_archive(
        self, table_id: str, after: int = 0, until: int | None = None
    ) -> list[Stored]:
        """The table's archived messages with a stream sequence above ``after`` (up to
        ``until``); [] when it is not archived. Its chunks are read by batched direct gets, like
        a subject (no consumer); a read past the last archived message costs only the meta.

        Raises:
            StoreError: the archive could not be read (retryable).
            ArchiveError: the object is not a sound archive of this table.
        """
        for _ in range(3):  # an object written again meanwhile: its meta names new chunks
            info = await self.archived(table_id)
            if info is None or info.last_seq <= after:
                return []
            blob = await self._object(table_id, info)
            if blob is not None:
                break
        else:
            raise StoreError(f"archive of {table_id}: chunks missing")
        msgs = decode_archive(table_id, blob)
        if len(msgs) != info.messages or (msgs and msgs[-1].seq != info.last_seq):
            raise ArchiveError(f"archive of {table_id}: not the messages its meta says")
        return [m for m in msgs if m.seq > after and (until is None or m.seq <= until)]

    async def _object(self, table_id: str, info: ArchiveInfo) -> bytes | None:
        """An object's bytes, checked against its digest; None when its chunks are not all there
        (a replica behind, or the object written again under new chunks)."""
        subject = f"$O.{ARCHIVE_BUCKET}.C.{info.nuid}"
        parts: list[bytes] = []
        seq = 1
        while len(parts) < info.chunks:
            count = min(CHUNK_BATCH, info.chunks - len(parts))
            batch = await self.direct_batch(table_id, ARCHIVE_STREAM, subject, seq, count)
            if not batch:
                return None
            parts.extend(m.data for m in batch)
            seq = batch[-1].seq + 1
        blob = b"".join(parts)
        if len(blob) != info.size or _object_digest(blob) != info.digest:
            return None
        return blob

    async def write_archive(self, table_id: str, msgs: Sequence[Stored]) -> None:
        """Put the table's messages into the archive (replacing an object of the same name).
        Every chunk and the meta are acknowledged by JetStream (stored, on a quorum of replicas)
        before this returns; read it back (``read_archive``) before relying on it."""
        if not msgs:
            raise ValueError(f"archive of {table_id}: no messages")
        blob = encode_archive(table_id, msgs)
        meta = ObjectMeta(
            name=table_id,
            description="Paiju table log (retired)",
            headers={H_LAST_SEQ: [str(msgs[-1].seq)], H_MESSAGES: [str(len(msgs))]},
        )
        try:
            if self._archive is None:
                self._archive = await self.js.object_store(ARCHIVE_BUCKET)
            await self._archive.put(table_id, blob, meta=meta)
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"archive {table_id}: {exc!r}") from exc

    async def purge(self, table_id: str, through: int) -> None:
        """Remove the table's messages up to stream sequence ``through`` from the stream (a later
        one, if any, stays).

        Raises:
            PurgeDenied: the stream denies purges.
            StoreError: anything else.
        """
        try:
            await self.js.purge_stream(
                self.stream, seq=through + 1, subject=subjects.events_subject(table_id)
            )
        except nats.js.errors.APIError as exc:
            if exc.err_code == PURGE_DENIED:
                raise PurgeDenied(f"purge {table_id}: {exc}") from exc
            raise StoreError(f"purge {table_id}: {exc}") from exc
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"purge {table_id}: {exc!r}") from exc

    async def may_purge(self) -> bool:
        """Whether the stream allows purges (one made before retirement does not)."""
        try:
            info = await self.js.stream_info(self.stream)
        except (nats.errors.Error, TimeoutError) as exc:
            raise StoreError(f"stream info: {exc!r}") from exc
        return not info.config.deny_purge

    async def append(
        self,
        table_id: str,
        payload: bytes,
        headers: dict[str, str],
        expected_last: int,
        msg_id: str,
        timeout: float = 5.0,
    ) -> Stored:
        """Append one message (``payload``: the JSON lines of one append, ``headers``: its own)
        after sequence ``expected_last`` (0: the subject must be empty). Returns it as the stream
        stores it (``stamped``, at its sequence): what a read of it would return.

        One acked publish, whatever the lines: a command's events are in the log all or none
        because they are one message. (An atomic batch of a message an event did the same at
        about ten times the cost: on a stream of one replica in a file, nats-server stages each
        batch in a file store of its own, made and removed with several fsyncs; docs/performance.md.)

        A table's first append (``expected_last`` 0) is also refused when the table was retired
        (its subject is empty again, its log in the archive): a create retried long after the
        match ended must not begin a second log under the same id. It is checked before, and
        after too (a retirement that ran in between is undone: the new message purged).

        Raises:
            Conflict: the subject moved on, or the message was appended before, or the table
                was retired.
            StoreError: anything else (the outcome is then unknown: reload to find out).
        """
        started = time.perf_counter()
        try:
            if expected_last == 0 and await self.archived(table_id) is not None:
                raise Conflict("retired: the log is in the archive")
            stored = await self._append(table_id, payload, headers, expected_last, msg_id, timeout)
            if expected_last == 0 and await self.archived(table_id) is not None:
                await self.purge(table_id, through=stored.seq)
                raise Conflict("retired meanwhile: the log is in the archive")
        except Conflict:
            metrics.APPENDS.labels("conflict").inc()
            raise
        except StoreError:
            metrics.APPENDS.labels("unknown").inc()
            raise
        finally:
            metrics.APPEND_SECONDS.observe(time.perf_counter() - started)
        metrics.APPENDS.labels("appended").inc()
        metrics.APPENDED_MESSAGES.inc()
        return stored

    async def _append(
        self,
        table_id: str,
        payload: bytes,
        headers: dict[str, str],
        expected_last: int,
        msg_id: str,
        timeout: float,
    ) -> Stored:
        subject = subjects.events_subject(table_id)
        data, sent = stamped(table_id, payload, headers, expected_last, msg_id, self.stream)
        try:
            reply = await self.nc.request(subject, data, timeout=timeout, headers=sent)
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
        return Stored(int(ack["seq"]), data, sent)
