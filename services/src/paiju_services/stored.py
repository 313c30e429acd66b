"""A table's messages as the event store holds them (``Stored``: stream sequence, bytes,
headers), what the store raises, and the two forms a message takes besides: the headers an append
adds to a message's own (``stamped``: the stream keeps them as published), and the archive's
encoding of a whole log (``encode_archive``, ``decode_archive``). paiju_services.store, which
reads and writes them, re-exports these names."""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from paiju_services import subjects
from paiju_services.errors import Unavailable

ARCHIVE_FORMAT = 1  # the version of an archived object's encoding (``encode_archive``)


class StoreError(Unavailable):
    """The store could not be reached or refused an append for a reason other than a race."""


class PurgeDenied(StoreError):
    """The stream was made with ``deny_purge`` (before retirement existed): nats-server refuses
    to purge it, and refuses to turn ``deny_purge`` off on an existing stream."""


class ArchiveError(StoreError):
    """An archived object that is not a table's log as the archive writes it (cut short, of
    another table, of an unknown format)."""


class Conflict(Exception):
    """The append lost a race: the subject's last sequence was not the expected one, or the
    message id was seen before (the command was appended already)."""


@dataclass(frozen=True, slots=True)
class Stored:
    seq: int
    data: bytes
    headers: dict[str, str]


class _Message(msgspec.Struct, array_like=True, frozen=True):
    seq: int
    data: bytes
    headers: dict[str, str]


class _Archived(msgspec.Struct, array_like=True, frozen=True):
    format: int
    table: str
    messages: list[_Message]


def stamped(
    table_id: str,
    payload: bytes,
    headers: dict[str, str],
    expected_last: int,
    msg_id: str,
    stream: str,
) -> tuple[bytes, dict[str, str]]:
    """An append's message with the headers JetStream acts on added to its own: its message id,
    the expected last sequence and the stream. The stream keeps every header as published, so
    this is the message as a read returns it."""
    hdrs = dict(headers)
    # ":0", as a batch's first message had: a command sent again across the upgrade is seen
    hdrs["Nats-Msg-Id"] = f"{table_id}:{msg_id}:0"
    hdrs["Nats-Expected-Last-Subject-Sequence"] = str(expected_last)
    hdrs["Nats-Expected-Stream"] = stream
    return payload, hdrs


def line_types(headers: dict[str, str]) -> list[str]:
    """The type of each line a stored message holds, in order (its ``Paiju-Type``)."""
    return headers.get(subjects.H_TYPE, "").split()


def next_index(headers: dict[str, str]) -> int | None:
    """The log index after a stored message's last line (its ``Paiju-Index`` plus the lines it
    holds): the table's version once it is applied. None: the headers do not say."""
    index = headers.get(subjects.H_INDEX)
    try:
        return None if index is None else int(index) + max(1, len(line_types(headers)))
    except ValueError:
        return None


# --- the archive's encoding ----------------------------------------------------------------------


_archive_decoder = msgspec.msgpack.Decoder(_Archived)


def encode_archive(table_id: str, msgs: Sequence[Stored]) -> bytes:
    """A table's messages as one archived object: msgpack (``[format, table, [[seq, data,
    headers], ...]]``), zlib-compressed (a log's JSON lines and headers repeat a lot: about a
    tenth of their size)."""
    body = _Archived(ARCHIVE_FORMAT, table_id, [_Message(m.seq, m.data, m.headers) for m in msgs])
    return zlib.compress(msgspec.msgpack.encode(body), 6)


def decode_archive(table_id: str, blob: bytes) -> list[Stored]:
    """The messages of an archived object, checked: ``table_id``'s, of a known format, in
    increasing stream sequence.

    Raises:
        ArchiveError: the object is none of that.
    """
    try:
        body = _archive_decoder.decode(zlib.decompress(blob))
    except (zlib.error, msgspec.DecodeError) as exc:
        raise ArchiveError(f"archive of {table_id}: unreadable: {exc}") from exc
    if body.format != ARCHIVE_FORMAT or body.table != table_id:
        raise ArchiveError(f"archive of {table_id}: format {body.format} of table {body.table!r}")
    seqs = [m.seq for m in body.messages]
    if any(b <= a for a, b in itertools.pairwise(seqs)):
        raise ArchiveError(f"archive of {table_id}: sequences out of order")
    return [Stored(m.seq, m.data, dict(m.headers)) for m in body.messages]
