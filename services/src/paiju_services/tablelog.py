"""A table's log replayed into engine state: the projection every service keeps of a table.

``TableLog.load`` reads a table's subject from the store (all of it, or only what came after the
copy it already has) and applies each message: the header gives the config, every event goes
through the engine's ``evolve``. It also remembers which command ids caused which events (from
the ``Paiju-Command`` header), so a command is recognised as a duplicate at any time, not only
within JetStream's deduplication window.

A cached ``TableLog`` is the writer's: only the command path changes it, under the table's lock
(``apply`` while it catches up, ``applied`` after its own append). A reader works on the cached
log as it is, or on a ``fork`` that it catches up alone: a read never changes the writer's state
(a read that caught the cache up in place, between a command's append and its ``applied``,
applied that command's events twice and shifted every later index).

A message holds the JSON lines of one append (``paiju_services.store``): the header and the first
deal's commitment, or the events of one command. Every message applied is checked against the
``Paiju-Index`` it was stored with and the types its ``Paiju-Type`` names: a log whose stored index
is not its place (a hole, or an event stored twice) or whose lines are not what its headers say
raises ``CorruptLog``, never a state silently decided on.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import msgspec

from paiju import api
from paiju.cards import card_codes
from paiju.log.file import HEADER_TYPE, header
from paiju.protocol import Event, HandEnded, decode, encode
from paiju.table import Config, TableState
from paiju_services import metrics, subjects
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.messages import HandsSoFar, PublicState
from paiju_services.store import EventStore, Stored
from paiju_services.stored import line_types

_json = msgspec.json.Encoder()
logger = logging.getLogger("paiju.tablelog")
_headers_encoder = msgspec.msgpack.Encoder()
_headers_decoder = msgspec.msgpack.Decoder(dict[str, str])


class CorruptLog(Exception):
    """A stored message is not what a table log may hold (a bug or tampering: never ignored)."""


def header_line(config: Config[Any], table_id: str) -> bytes:
    return _json.encode(header(config, table_id))


def event_line(event: Event) -> bytes:
    return _json.encode(encode(event))


@dataclass
class TableLog:
    table_id: str
    config: Config[Any]
    state: TableState
    last_seq: int  # stream sequence of the last message applied
    events: list[Event] = field(default_factory=list)
    lines: list[bytes] = field(default_factory=list)  # each message's JSON lines, as stored
    # and each message's stream sequence and stored headers (msgpack: a dict each would take three
    # times the room), so that the log can be archived as the stream holds it without a read
    seqs: list[int] = field(default_factory=list)
    headers: list[bytes] = field(default_factory=list)
    commands: dict[str, tuple[int, int]] = field(default_factory=dict)  # id: (index, count)
    digests: dict[str, str] = field(default_factory=dict)  # command id: its command's digest
    # False between the events of one command (e.g. a last card played, the hand not yet
    # scored): such a state is not one a seat can act in
    settled: bool = True
    nbytes: int = 0  # the stored bytes of its messages (header and events): what caches count

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def head(self) -> bytes:
        """The log's header line, as stored (the first line of its first message)."""
        return self.lines[0].split(b"\n", 1)[0]

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @classmethod
    def start(cls, first: Stored, table_id: str) -> TableLog:
        """A log from its first message: the header line, and the events the message holds after
        it (the first deal's commitment; none in a log written a message an event)."""
        head, *rest = first.data.split(b"\n")
        try:
            data = msgspec.json.decode(head)
            if data.get("type") != HEADER_TYPE:
                raise ValueError(f"first message is {data.get('type')!r}, not a header")
            config = api.config_from_dict(data["config"])
        except (ValueError, KeyError, TypeError, AttributeError, msgspec.DecodeError) as exc:
            raise CorruptLog(f"{table_id}: bad header at seq {first.seq}: {exc}") from exc
        table = cls(table_id, config, api.initial_state(config), first.seq)
        table._play(first, rest, -1, [HEADER_TYPE])
        return table

    def _keep(self, msg: Stored) -> None:
        """A message applied: its bytes, sequence and headers kept, its size counted."""
        self.lines.append(msg.data)
        self.seqs.append(msg.seq)
        self.headers.append(_headers_encoder.encode(msg.headers))
        self.nbytes += len(msg.data)
        self.last_seq = msg.seq

    def ends_at(self, seq: int, index: int | None) -> bool:
        """Whether the stream's last message (its sequence and ``Paiju-Index``: ``store.tip``) is
        this log's last: then the stream holds this log and no more, as every append was made
        after the message before it."""
        return seq == self.last_seq and index == self.version - 1

    def stored(self) -> list[Stored]:
        """The log's messages as a read of the stream returns them, from memory (the caller
        checks that the stream holds what this log does: ``catch_up``)."""
        return [
            Stored(seq, data, _headers_decoder.decode(headers))
            for seq, data, headers in zip(self.seqs, self.lines, self.headers, strict=True)
        ]

    def apply(self, msg: Stored) -> list[Event]:
        """Apply a stored message of events (after the first): its events, in order."""
        return self._play(msg, msg.data.split(b"\n"), len(self.events), [])

    def _play(self, msg: Stored, lines: list[bytes], first: int, before: list[str]) -> list[Event]:
        """Check a message against its headers (``first``: the index of its first line;
        ``before``: the types of the lines it holds before ``lines``), apply its events and keep
        it."""
        stored = msg.headers.get(subjects.H_INDEX)
        if stored is not None and stored != str(first):
            raise CorruptLog(
                f"{self.table_id}: the message at seq {msg.seq} was stored at index {stored},"
                f" replayed at {first}"
            )
        events: list[Event] = []
        for line in lines:
            try:
                event = decode(msgspec.json.decode(line))
            except (ValueError, msgspec.DecodeError) as exc:
                raise CorruptLog(f"{self.table_id}: bad event at seq {msg.seq}: {exc}") from exc
            if not isinstance(event, Event):
                raise CorruptLog(f"{self.table_id}: a command in the log at seq {msg.seq}")
            events.append(event)
        types = before + [event.TYPE for event in events]
        if subjects.H_TYPE in msg.headers and line_types(msg.headers) != types:
            raise CorruptLog(
                f"{self.table_id}: the message at seq {msg.seq} holds {types},"
                f" its headers say {line_types(msg.headers)}"
            )
        index = len(self.events)
        for event in events:
            self.state = api.evolve(self.state, event)
            self.events.append(event)
        self._keep(msg)
        position, _, size = msg.headers.get(subjects.H_BATCH, "1/1").partition("/")
        self.settled = position == size  # a message of an atomic batch, in an older log
        command = msg.headers.get(subjects.H_COMMAND)
        if command is not None and events:
            start, count = self.commands.get(command, (index, 0))
            self.commands[command] = (start, count + len(events))
            digest = msg.headers.get(subjects.H_DIGEST)
            if digest is not None:
                self.digests.setdefault(command, digest)
        return events

    def applied(
        self,
        events: list[Event],
        stored: Stored,
        command: str,
        digest: str | None = None,
    ) -> list[TableState]:
        """Record events this copy appended itself, as the append stored them (no need to read
        them back); the state after each event, in order.

        Raises:
            CorruptLog: the message is not after the last one applied (an append this log did
                not follow): the caller reloads from the stream.
        """
        if stored.seq <= self.last_seq:
            raise CorruptLog(
                f"{self.table_id}: appended at seq {stored.seq}, not after {self.last_seq}"
            )
        self.commands[command] = (len(self.events), len(events))
        if digest is not None:
            self.digests[command] = digest
        states = []
        for event in events:
            self.state = api.evolve(self.state, event)
            states.append(self.state)
            self.events.append(event)
        self._keep(stored)
        self.settled = True
        return states

    def fork(self) -> TableLog:
        """A copy that a reader may catch up (``load``) without changing this one: the state is
        immutable, the lists and maps are copied."""
        return dataclasses.replace(
            self,
            events=list(self.events),
            lines=list(self.lines),
            seqs=list(self.seqs),
            headers=list(self.headers),
            commands=dict(self.commands),
            digests=dict(self.digests),
        )

    def state_at(self, index: int) -> TableState:
        """The state after the first ``index`` events (0: the initial state)."""
        return api.replay(self.config, self.events[:index])

    def view(self, seat: int | None) -> dict[str, Any]:
        return api.view(self.state, seat)


def public_state(table: TableLog, at: int | None) -> PublicState:
    """What anybody may see of the table after its first ``at`` events (None: all of them).

    Raises:
        ServiceError: ``bad_index``.
    """
    index = table.version if at is None else at
    if not 0 <= index <= table.version:
        raise ServiceError("bad_index", max=table.version)
    state = table.state if index == table.version else table.state_at(index)
    return PublicState(
        table=table.table_id,
        index=index,
        events=table.version,
        finished=table.over,
        view=api.view(state, None),
        hands=[card_codes(h) for h in state.hands] if table.over else None,
    )


def hands_so_far(table: TableLog) -> HandsSoFar:
    """Every hand scored so far (public: each hand_ended is shown to all as it happens) with the
    running totals after it: the log replayed once."""
    state = api.initial_state(table.config)
    rows = []
    for event in table.events:
        state = api.evolve(state, event)
        if isinstance(event, HandEnded):
            rows.append({**encode(event), "totals": list(state.totals)})
    return HandsSoFar(
        table=table.table_id,
        version=table.version,
        finished=table.over,
        hands=rows,
        totals=list(table.state.totals),
    )


def from_messages(table_id: str, msgs: list[Stored]) -> TableLog | None:
    """A table's log from its stored messages, header first (None: no message).

    Raises:
        CorruptLog: a message is not what a log holds there.
    """
    if not msgs:
        return None
    table = TableLog.start(msgs[0], table_id)
    for msg in msgs[1:]:
        table.apply(msg)
    return table


async def load(store: EventStore, table_id: str, cached: TableLog | None = None) -> TableLog | None:
    """The table's log brought up to date (None: no such table). ``cached`` is caught up in place
    (the writer's own, under the table's lock, or a reader's ``fork``), unless it is ahead of the
    stream: then the log is read again whole (``catch_up``) and a new log returned.

    Raises:
        CorruptLog: a stored message is not what the log holds at its place.
    """
    if cached is not None:
        msgs = await catch_up(store, cached)
        if msgs is not None:
            metrics.REBUILDS.inc()
            metrics.REBUILD_EVENTS.inc(sum(len(cached.apply(msg)) for msg in msgs))
            return cached
    table = from_messages(table_id, await store.read(table_id))
    metrics.REBUILDS.inc()
    metrics.REBUILD_EVENTS.inc(0 if table is None else table.version)
    return table


async def catch_up(store: EventStore, cached: TableLog) -> list[Stored] | None:
    """The messages that follow a cached log, or None when the cached log holds events its stream
    does not: the subject's last message comes before the cached one's, or is at the cached one's
    sequence under another index, or the next message read is not the cached log's next index.

    A copy records the events it appended from the append's acknowledgement; through a stream
    leader's failover an acknowledged message has been lost (issue 26: two copies held 417
    events of a log of 415, refused every append as a lost race and answered ``duplicate`` to a
    move never stored). Catching up such a copy would read nothing (or apply the stream's events
    on its ghost ones): it is dropped and the log read again whole. Logged, counted
    (``paiju_copies_ahead``).

    Raises:
        StoreError: the stream could not be read.
    """
    seq, index = await store.tip(cached.table_id)
    if seq == 0:  # retired to the archive meanwhile (or not on this replica yet)
        return await store.read(cached.table_id, after=cached.last_seq)
    if cached.ends_at(seq, index):
        return []
    if seq > cached.last_seq:
        msgs = await store.read(cached.table_id, after=cached.last_seq, until=seq)
        first = msgs[0].headers.get(subjects.H_INDEX) if msgs else None
        if first == str(cached.version):
            return msgs
    metrics.COPIES_AHEAD.inc()
    log(
        logger,
        "copy ahead of the stream",
        logging.ERROR,
        table=cached.table_id,
        version=cached.version,
        last_seq=cached.last_seq,
        stream_seq=seq,
        stream_index=index,
    )
    return None


class LRU(OrderedDict[str, TableLog]):
    """Hot tables, least recently used dropped first, bounded in count (``size``) and in the
    stored bytes of their logs (``max_bytes``; 0: no bound). The bytes are counted as a table is
    put (loaded), so a table that grows while cached counts in full at its next load; the table
    just put always stays, however long its log. What a cached log takes in memory is a few times
    its stored bytes (decoded events, the state)."""

    def __init__(self, size: int, max_bytes: int = 0) -> None:
        super().__init__()
        self.size = size
        self.max_bytes = max_bytes

    def get_fresh(self, key: str) -> TableLog | None:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: str, value: TableLog) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        if self.max_bytes:
            total = self.stored_bytes()
            while total > self.max_bytes and len(self) > 1:
                total -= self.popitem(last=False)[1].nbytes

    def stored_bytes(self) -> int:
        """The stored bytes of the logs held now."""
        return sum(t.nbytes for t in self.values())
