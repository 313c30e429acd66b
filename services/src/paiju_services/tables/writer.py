"""The table writer: the one way a table's log and its directory entry change.

Every part of the table service that changes a table goes through it: the room (create, join,
leave, rematch, close), the table's own steps, the turn clock, the ending at the bound on events
and the expiry of open tables. It keeps, in memory, each table's log (an LRU of ``TableLog``, the
hot projection), its directory entry with the entry's revision, its secret and its lock, and
offers:

- ``lock``: the table's lock; every change of a table's log is made under it (the caller holds it
  around ``execute``, and around a read of the log it then acts on);
- ``table``, ``reload``, ``snapshot``: the log, as the writer holds it, caught up from the stream,
  or as a reader may see it (a snapshot is never changed);
- ``meta``, ``meta_now``, ``update``: the directory entry, read (the cached one, a fresh read, the
  index's) and written as a compare-and-set;
- ``execute``: decide one command on the log and append its events with the subject's last
  sequence as the expected one. A lost race reloads and decides again; a command id seen before is
  answered as a duplicate and appends nothing; a command that would leave no room under
  ``max_events`` for the match's ending ends the match instead (``tables.limit``);
- ``forget``: an ended table leaves this copy's memory.

The other parts hear of what the writer does through its hooks, so that the writer imports none
of them: ``on_append`` (the publisher sends every audience's view), ``on_over`` (the ending says
in the directory that the match is over) and ``on_forget`` (each part drops what it keeps of an
ended table).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from paiju import api
from paiju.errors import RuleError
from paiju.log.file import HEADER_TYPE
from paiju.protocol import Command, Event, encode
from paiju.simulate import table_command
from paiju.table import Config, TableState
from paiju_services import metrics, subjects
from paiju_services.backoff import Backoff
from paiju_services.config import Settings
from paiju_services.directory import InPlay, Listed, refuse_expired
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.messages import CommandDone, TableMeta, encoder
from paiju_services.store import Conflict, EventStore, StoreError
from paiju_services.tablelog import LRU, CorruptLog, TableLog, event_line, header_line, load
from paiju_services.tables import ids, limit
from paiju_services.tokens import token_hash

logger = logging.getLogger("paiju.tables")

# what to do on a table: a command id and a command, planned from the log as it is (None: nothing)
Plan = Callable[[TableLog], tuple[str, Command] | None]
AppendHook = Callable[[TableLog, int, Sequence[Event], Sequence[TableState]], Awaitable[None]]
OverHook = Callable[[TableLog], Awaitable[None]]
ForgetHook = Callable[[str, TableMeta | None], None]
# waits between appends whose outcome is unknown (the store away): within one request's time
APPEND_RETRY = Backoff(base=0.05, cap=1.0)


@dataclasses.dataclass
class Entry:
    """A table's directory entry and the revision it was read at (for a compare-and-set)."""

    meta: TableMeta
    revision: int


def step_id(state: TableState, command: Command) -> str:
    """The command id of a table's own step (commit, deal, reveal): one per hand, so that two
    copies that take the same step append it once."""
    hand_no = state.hand_no + 1 if state.phase == "commit" else state.hand_no
    return f"table.{command.TYPE}.{hand_no}"


def message(
    command_id: str, events: list[Event], index: int, fingerprint: str | None = None
) -> tuple[bytes, dict[str, str]]:
    """The stream message of one command's events (their JSON lines, the first at log index
    ``index``), with its headers: one message, so the command's events are stored all or none."""
    headers = {
        subjects.H_COMMAND: command_id,
        subjects.H_INDEX: str(index),
        subjects.H_TYPE: " ".join(event.TYPE for event in events),
    }
    if fingerprint is not None:
        headers[subjects.H_DIGEST] = fingerprint
    return b"\n".join(event_line(e) for e in events), headers


def first_message(
    config: Config[Any], table_id: str, command_id: str, events: list[Event]
) -> tuple[bytes, dict[str, str]]:
    """A log's first message: its header line, then the events of its first command (the
    commitment to the first deal)."""
    payload, headers = message(command_id, events, 0)
    headers[subjects.H_INDEX] = "-1"  # its first line is the header
    headers[subjects.H_TYPE] = f"{HEADER_TYPE} {headers[subjects.H_TYPE]}"
    return header_line(config, table_id) + b"\n" + payload, headers


async def _nothing_over(table: TableLog) -> None:
    return None


class TableWriter:
    """One copy's writer of every table (see the module's docstring)."""

    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext) -> None:
        self.settings = settings
        self.nc = nc
        self.js = js
        self.store = EventStore(nc, js)
        self.cache = LRU(settings.cache_tables, settings.cache_bytes)
        self.metas: dict[str, Entry] = {}
        self.secrets: dict[str, str] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.loop_tasks: set[asyncio.Task[None]] = set()  # small chores in flight (_drop_lock)
        self.own_appends: dict[str, int] = {}  # table → the sequence of this copy's last append
        self.tables_kv: KeyValue
        self.secrets_kv: KeyValue
        self.bot_tokens_kv: KeyValue  # bot seats' tokens, written here as a bot is seated
        self.in_play: InPlay | None = None  # the tables the sweeps go over (``open`` makes it)
        self.on_append: list[AppendHook] = []
        self.on_over: OverHook = _nothing_over
        self.on_forget: list[ForgetHook] = []

    async def open(self) -> None:
        """Bind the KV buckets and make the index of the tables in play (its watch starts with
        the service, or the test's)."""
        self.tables_kv = await self.js.key_value(subjects.TABLES_BUCKET)
        self.secrets_kv = await self.js.key_value(subjects.SECRETS_BUCKET)
        self.bot_tokens_kv = await self.js.key_value(subjects.BOT_TOKENS_BUCKET)
        self.in_play = InPlay(self.tables_kv)

    # --- the log ------------------------------------------------------------------------------

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock in this copy (bounded: unlocked ones are dropped past a bound)."""
        lock = self.locks.get(table_id)
        if lock is None:
            if len(self.locks) > 4 * self.settings.cache_tables:
                for key in [k for k, v in self.locks.items() if not v.locked()]:
                    del self.locks[key]
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    async def table(self, table_id: str) -> TableLog:
        """The writer's log of the table (the caller holds its lock): the cached one, or the
        stream's read into the cache."""
        table = self.cache.get_fresh(table_id)
        if table is None:
            table = await self.load_whole(table_id)
            self.cache.put(table_id, table)
        return table

    async def load_whole(self, table_id: str) -> TableLog:
        """The table's log read from the stream (not cached).

        Raises:
            ServiceError: ``table_not_found`` (the directory does not know it), ``table_corrupt``.
            StoreError: the directory knows the table but the replica that answered holds none of
                its log yet (a lagging follower of a clustered stream): retryable, never final.
        """
        loaded = await self._load(table_id, None)
        if loaded is None:
            await self.meta(table_id)  # table_not_found when the directory does not know it
            raise StoreError(f"load {table_id}: the log is not on this replica yet")
        return loaded

    async def reload(self, table: TableLog) -> TableLog:
        """The writer's log caught up from the stream (the caller holds the table's lock)."""
        loaded = await self._load(table.table_id, table)
        if loaded is None:  # a replica behind the one that served it before: retryable
            raise StoreError(f"reload {table.table_id}: no messages")
        if loaded is not table:  # read again whole: the cached copy was ahead of the stream
            self.cache.put(table.table_id, loaded)
        return loaded

    async def snapshot(self, table_id: str) -> TableLog:
        """The table as the stream holds it now, for a reader, who must not change it: the
        cached log when it is up to date (or over), else a fork of it caught up from the stream,
        or, for a table this copy does not hold, a log read for this answer alone. Another copy
        may have appended since this one last did: a reader's answer is never a stale one."""
        cached = self.cache.get(table_id)
        if cached is None:
            return await self.load_whole(table_id)
        if cached.over or await self.store.last_seq(table_id) == cached.last_seq:
            return cached
        caught_up = await self._load(table_id, cached.fork())
        if caught_up is None:  # a replica behind the one that served it before: retryable
            raise StoreError(f"read {table_id}: no messages")
        return caught_up

    async def _load(self, table_id: str, base: TableLog | None) -> TableLog | None:
        """``tablelog.load``; a log that fails its replay check is marked (metric, an error in the
        log) and refused, never decided on: the table's cached log is dropped, and the table
        answers ``table_corrupt`` until an operator has looked.

        Raises:
            ServiceError: ``table_corrupt``.
        """
        try:
            return await load(self.store, table_id, base)
        except CorruptLog as exc:
            self.cache.pop(table_id, None)
            metrics.CORRUPT_LOGS.inc()
            log(logger, "table log corrupt", logging.ERROR, table=table_id, error=str(exc))
            raise ServiceError("table_corrupt", table=table_id) from exc

    # --- the directory entry and the secret ---------------------------------------------------

    async def meta(self, table_id: str, fresh: bool = False) -> Entry:
        """The table's directory entry: this copy's (unless ``fresh``), else read from the bucket.

        Raises:
            ServiceError: ``table_not_found``, ``table_expired``.
        """
        entry = None if fresh else self.metas.get(table_id)
        if entry is None:
            try:
                kv = await self.tables_kv.get(table_id)
            except nats.js.errors.KeyNotFoundError:
                raise ServiceError("table_not_found", table=table_id) from None
            entry = Entry(msgspec.json.decode(kv.value or b"", type=TableMeta), kv.revision or 0)
            refuse_expired(entry.meta)  # its entry is soon gone: nothing may change it
            if len(self.metas) > 4 * self.settings.cache_tables:
                self.metas.clear()  # bounded memory: entries are re-read from the bucket
                self.secrets.clear()
            self.metas[table_id] = entry
        return entry

    async def meta_now(self, table_id: str) -> Entry:
        """The table's entry as the directory holds it now: for a table in play, the index's (its
        watch delivers every write within moments: no read), else a read of the bucket."""
        listed = self.in_play.tables.get(table_id) if self.in_play is not None else None
        if listed is None:
            return await self.meta(table_id, fresh=True)
        self.refresh(listed)
        return await self.meta(table_id)

    def refresh(self, listed: Listed) -> None:
        """This copy's cached entry of a table in play, brought up to the index's (what a fresh
        read would have given, without the read): the steps (the 继续 gate's seats) use it."""
        table_id = listed.meta.id
        cached = self.metas.get(table_id)
        if cached is not None and cached.revision >= listed.revision:
            return
        if cached is None and len(self.metas) > 4 * self.settings.cache_tables:
            self.metas.clear()  # bounded memory, as ``meta`` keeps it
            self.secrets.clear()
        # a copy: a cached entry may be changed and written back, the index's is read only
        meta = msgspec.json.decode(encoder.encode(listed.meta), type=TableMeta)
        self.metas[table_id] = Entry(meta, listed.revision)

    async def update(self, entry: Entry) -> bool:
        """Write a table's entry if nobody changed it since it was read (False: read it again)."""
        try:
            entry.revision = await self.tables_kv.update(
                entry.meta.id, encoder.encode(entry.meta), last=entry.revision
            )
        except nats.js.errors.KeyWrongLastSequenceError:
            return False
        self.metas[entry.meta.id] = entry
        return True

    async def playing(self) -> list[Listed]:
        """The tables in play, as this copy's index of the directory holds them now (no request to
        NATS once the index has read the directory); the sweeps' tables.

        Raises:
            ServiceError: ``unavailable`` before the index has read the directory once.
        """
        if self.in_play is None:
            raise ServiceError("unavailable", detail="the directory is not bound (open)")
        return await self.in_play.listed()

    async def authenticate(self, table_id: str, token: str) -> int:
        """The seat ``token`` holds (this copy's entry, then a fresh read).

        Raises:
            ServiceError: ``unauthorized``.
        """
        digest = token_hash(token)
        for fresh in (False, True):
            seat = (await self.meta(table_id, fresh=fresh)).meta.seat_holding(digest)
            if seat is not None:
                return seat
        raise ServiceError("unauthorized")

    async def secret(self, table_id: str) -> str:
        """The table's secret (this copy's, else the secrets bucket's)."""
        secret = self.secrets.get(table_id)
        if secret is None:
            entry = await self.secrets_kv.get(table_id)
            secret = self.secrets[table_id] = (entry.value or b"").decode()
        return secret

    async def new_secret(self, table_id: str) -> str:
        """The table's secret: made now, or the one a first try of the same create made."""
        secret = secrets.token_hex(32)
        try:
            await self.secrets_kv.create(table_id, secret.encode())
        except nats.js.errors.KeyWrongLastSequenceError:
            entry = await self.secrets_kv.get(table_id)
            secret = (entry.value or b"").decode()
        self.secrets[table_id] = secret
        return secret

    # --- appending ----------------------------------------------------------------------------

    async def append_first(
        self, table_id: str, config: Config[Any], secret: str, *, retry: bool
    ) -> None:
        """The log's header and the commitment to the first deal, as one message on an empty
        subject. ``retry``: the subject may hold them already (a retried create, or a rematch
        another player pressed first), which is then no error."""
        self.secrets[table_id] = secret  # for the first step (the cache may have been cleared)
        state = api.initial_state(config)
        command = table_command(state, secret)
        assert command is not None  # a new table commits to its first deal
        events = api.decide(state, command)
        payload, headers = first_message(config, table_id, step_id(state, command), events)
        try:
            first = await self.store.append(table_id, payload, headers, 0, "create")
        except Conflict:  # the subject is not empty: a retry of this create appended first
            if not retry:
                raise
            if await load(self.store, table_id) is None:
                raise StoreError(f"create {table_id}: appended, yet not readable") from None
            log(logger, "table create repeated", table=table_id)
            return
        self.cache.put(table_id, TableLog.start(first, table_id))

    async def execute(
        self, table_id: str, plan: Plan, client_id: str | None = None
    ) -> CommandDone | None:
        """Decide and append one command, retrying lost races (the caller holds the table's
        lock); None when ``plan`` has nothing to do. The command id and the command are planned
        afresh on every try, from the table as it then is. ``client_id``: a seat's own command,
        whose id, once used, names only its command (the same id with another command is refused
        as ``id_reused``, not a duplicate), and which switches the seat's 托管 off first.

        Raises:
            RuleError: the engine refuses the command on the table as the stream holds it.
            ServiceError: ``id_reused``, ``table_too_long`` (the match was ended instead),
                ``conflict`` or ``unavailable`` after ``max_retries`` lost races or doubts.
        """
        table = await self.table(table_id)
        fresh = False
        attempted: set[str] = set()
        retries = 0
        while True:
            planned = plan(table)
            if planned is None:
                return None
            command_id, command = planned
            # a client's command only: a table step's (a deal's seed ...) stays out of the stream
            secret = None if client_id is None else await self.secret(table_id)
            fingerprint = None if secret is None else ids.command_mac(secret, encode(command))
            if command_id in table.commands and not fresh:
                # answered from the stream, never from memory alone: a copy's memory may hold
                # events the stream lost through a failover (tablelog.catch_up)
                table, fresh = await self.reload(table), True
                continue
            if command_id in table.commands:
                earlier = table.digests.get(command_id)
                if secret and earlier and not ids.same_command(earlier, secret, encode(command)):
                    raise ServiceError("id_reused", id=client_id)
                index, count = table.commands[command_id]
                mine = command_id in attempted  # an append whose answer was lost, then found
                return CommandDone(
                    duplicate=not mine,
                    index=index,
                    count=count,
                    version=table.version,
                    retries=retries,
                )
            decide = api.decide if client_id is None else api.decide_own  # 托管 off first
            try:
                events = decide(table.state, command)
            except RuleError:
                if not fresh and await self.store.last_seq(table_id) != table.last_seq:
                    retries += 1
                    metrics.RETRIES.inc()
                    table, fresh = await self.reload(table), True
                    continue  # refused on a stale copy: decide again on the real table
                raise
            if not limit.fits(table.version, events, self.settings.max_events):
                await self.end_at_limit(table_id)  # the match ends with a result
                raise ServiceError("table_too_long", limit=self.settings.max_events)
            index = table.version
            try:
                stored = await self.store.append(
                    table_id,
                    *message(command_id, events, index, fingerprint),
                    table.last_seq,
                    command_id,
                    timeout=self.settings.request_timeout,
                )
            except (Conflict, StoreError) as exc:
                metrics.RETRIES.inc()
                if isinstance(exc, StoreError):
                    attempted.add(command_id)
                    log(
                        logger,
                        "append outcome unknown",
                        logging.WARNING,
                        table=table_id,
                        error=str(exc),
                    )
                    await asyncio.sleep(APPEND_RETRY.delay(retries))
                retries += 1
                if retries > self.settings.max_retries:
                    raise ServiceError(
                        "unavailable" if isinstance(exc, StoreError) else "conflict"
                    ) from exc
                table, fresh = await self.reload(table), True
                continue
            try:
                states = table.applied(events, stored, command_id, fingerprint)
            except CorruptLog as exc:  # memory not what the stream confirmed: read it again
                self.cache.pop(table_id, None)
                metrics.CORRUPT_LOGS.inc()
                log(logger, "table memory reloaded", logging.ERROR, table=table_id, error=str(exc))
                attempted.add(command_id)
                table, fresh = await self.table(table_id), True
                continue
            if len(self.own_appends) > 4 * self.settings.cache_tables:
                self.own_appends.clear()  # bounded: the clock then reads the stream once
            self.own_appends[table_id] = stored.seq  # the clock computes from memory (clock.py)
            for hook in self.on_append:
                await hook(table, index, events, states)
            return CommandDone(
                index=index, count=len(events), version=table.version, retries=retries
            )

    async def end_at_limit(self, table_id: str) -> bool:
        """End the table's match at the bound on events (the caller holds the table's lock), then
        say so in the directory (``on_over``): ``tables.limit``. True when this copy appended the
        ending (False: another copy did, or the match was over).

        Raises:
            ServiceError, StoreError: as ``execute``.
        """
        try:
            done = await self.execute(table_id, limit.ending(self.settings.max_events))
        except RuleError as exc:  # a command of LIMIT_MARGIN events or more: none is known
            log(logger, "end at the limit refused", logging.ERROR, table=table_id, error=str(exc))
            return False
        appended = done is not None and not done.duplicate
        if done is not None and appended:
            log(logger, "table at its limit of events", table=table_id, events=done.version)
        table = await self.table(table_id)
        if table.over:
            await self.on_over(table)
        return appended

    # --- forgetting ---------------------------------------------------------------------------

    def forget(self, table_id: str) -> None:
        """An ended table leaves this copy's memory (its log is read again if anybody asks): the
        hot tables are the live ones, so memory follows the tables in play, not those played.
        Every part hooked (``on_forget``) drops what it keeps of it too."""
        self.cache.pop(table_id, None)
        self.secrets.pop(table_id, None)
        entry = self.metas.pop(table_id, None)
        self.own_appends.pop(table_id, None)
        for hook in self.on_forget:
            hook(table_id, entry.meta if entry is not None else None)
        lock = self.locks.get(table_id)
        if lock is not None:  # held, nearly always (the step that finished the table holds it)
            self.loop_tasks.add(task := asyncio.create_task(self._drop_lock(table_id, lock)))
            task.add_done_callback(self.loop_tasks.discard)

    async def _drop_lock(self, table_id: str, lock: asyncio.Lock) -> None:
        """An ended table's lock leaves memory once its holder (and anyone waiting) is done."""
        async with lock:
            pass
        if self.locks.get(table_id) is lock and not lock.locked():
            del self.locks[table_id]
