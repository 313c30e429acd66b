"""The table directory (the ``paiju_tables`` bucket) followed by a watch, for the indexes kept from
it: the gateway's lobby listing (``gateway.directory.Directory``) and the table service's tables in
play (``InPlay``, which its sweeps iterate).

A ``Watch`` is one ordered consumer per index: it starts with the current value of every key, then
sees every put in order. The client keeps it across NATS reconnects: an ordered consumer that
misses two of its 5 s heartbeats is made again from the next stream sequence (after a restart of
nats-server an index catches up within 10 to 20 s); ``_follow`` makes the watch again if making it
fails (what is known stays until overwritten, or dropped when the new watch's first read does not
deliver it: an entry purged with no marker meanwhile). Each subclass keeps, of every entry, only what it
needs (``put`` and ``drop``): the watch delivers the latest value of every table ever made at
start, so an index that kept them all would grow with the history, not with what is live.

Listing the bucket instead (``KeyValue.keys()``) makes a consumer on the server at each call and
then costs one get per table ever made: with a few thousand finished tables a sweep every few
seconds kept the services and nats-server busy at rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

import msgspec
from nats.js.kv import KeyValue

from paiju_services.backoff import Backoff, Streak
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.messages import TableMeta

SYNC_TIMEOUT = 10.0  # seconds a reader waits for the index's first full read
WATCH_RETRY = Backoff(base=0.25, cap=10.0)  # waits before a failed watch is made again
UNPLAYED = frozenset({"open", "expired"})  # statuses of a table never dealt, nor closed


class Watch:
    """One index of the directory, kept from a watch of the bucket: ``start`` it, wait for
    ``ready``, read what the subclass keeps; ``put`` and ``drop`` are called in the order of the
    bucket's changes."""

    logger = logging.getLogger("paiju.directory")

    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv
        self.synced = asyncio.Event()  # the first full read is done
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def ready(self) -> None:
        """Return once the index has read the whole directory once.

        Raises:
            ServiceError: ``unavailable`` after ``SYNC_TIMEOUT`` seconds without that read.
        """
        if not self.synced.is_set():
            try:
                await asyncio.wait_for(self.synced.wait(), SYNC_TIMEOUT)
            except TimeoutError:
                raise ServiceError("unavailable") from None

    async def _follow(self) -> None:
        failures = Streak(WATCH_RETRY)
        while True:
            try:
                watcher = await self.kv.watchall()
                failures.succeeded()
                current: set[str] | None = set()  # the keys of the first read (None: done)
                async for entry in watcher:
                    if entry is None:  # every current value has been read
                        if current is not None:
                            self._forget_all_but(current)
                            current = None
                        self.synced.set()
                        continue
                    if current is not None:
                        current.add(entry.key)
                    self._apply(entry.key, entry.value, entry.operation, entry.revision or 0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                wait = failures.failed()
                log(
                    self.logger,
                    "directory watch failed",
                    logging.WARNING,
                    error=repr(exc),
                    wait=round(wait, 2),
                )
                await asyncio.sleep(wait)

    def _forget_all_but(self, current: set[str]) -> None:
        """A watch made again read the directory anew: an entry it did not deliver is gone from
        the bucket (purged with no marker while the watch was down: an expired table's), so the
        index drops it too."""
        for key in self.keys() - current:
            self.drop(key)

    def _apply(self, key: str, value: bytes | None, operation: str | None, revision: int) -> None:
        if operation in ("DEL", "PURGE") or not value:
            self.drop(key)
            return
        try:
            meta = msgspec.json.decode(value, type=TableMeta)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log(
                self.logger,
                "unreadable directory entry",
                logging.WARNING,
                table=key,
                error=str(exc),
            )
            return
        self.put(key, meta, revision)

    def put(self, key: str, meta: TableMeta, revision: int) -> None:
        """The table's entry is now ``meta`` (the bucket's ``revision`` of it)."""
        raise NotImplementedError

    def drop(self, key: str) -> None:
        """The table's entry was deleted or purged."""
        raise NotImplementedError

    def keys(self) -> set[str]:
        """The tables the index holds."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Listed:
    """A table's directory entry as the watch delivered it, and its revision in the bucket (the
    one a compare-and-set of the entry expects)."""

    meta: TableMeta
    revision: int


class InPlay(Watch):
    """The tables in play (status ``playing``), for the table service's sweeps: the steps a
    crashed copy left, the deadlines, the abandoned tables; and, apart, the tables not yet in play
    (``open``, and ``expired`` until their entry is gone), for the expiry of those nobody joins
    (``tables.expiry``). A table enters as it is made, goes into play as its last seat is taken
    (on whichever copy) and leaves as it finishes; finished and closed tables are not kept (no
    sweep looks at them), so the memory and a sweep's work follow the live tables, not the
    directory's size."""

    logger = logging.getLogger("paiju.tables.directory")

    def __init__(self, kv: KeyValue) -> None:
        super().__init__(kv)
        self.tables: dict[str, Listed] = {}
        self.waiting: dict[str, Listed] = {}  # open and expired: not in play yet, or ever

    def put(self, key: str, meta: TableMeta, revision: int) -> None:
        self.drop(key)
        if meta.status == "playing":
            self.tables[key] = Listed(meta, revision)
        elif meta.status in UNPLAYED:
            self.waiting[key] = Listed(meta, revision)

    def drop(self, key: str) -> None:
        self.tables.pop(key, None)
        self.waiting.pop(key, None)

    def keys(self) -> set[str]:
        return self.tables.keys() | self.waiting.keys()

    async def listed(self) -> list[Listed]:
        """The tables in play now (a copy: the watch goes on changing the index meanwhile).

        Raises:
            ServiceError: ``unavailable`` before the index has read the directory once.
        """
        await self.ready()
        return list(self.tables.values())

    async def unplayed(self) -> list[Listed]:
        """The tables open (or expired, their entry not yet gone) now.

        Raises:
            ServiceError: ``unavailable`` before the index has read the directory once.
        """
        await self.ready()
        return list(self.waiting.values())


def refuse_expired(meta: TableMeta) -> None:
    """Refuse any request on an expired table (its entry is soon gone: ``table_not_found``).

    Raises:
        ServiceError: ``table_expired``.
    """
    if meta.status == "expired":
        raise ServiceError("table_expired")
