"""The lobby's index of the table directory: one watch of the ``paiju_tables`` bucket per gateway
copy keeps every live table's entry (and the most recent finished ones) in memory as the table
service writes them, so a listing is a filter over memory — no request to NATS, whatever the number
of tables or of clients asking. (Reading every entry on each listing cost one KV get per table
ever made: with a few hundred tables the lobby's listings timed out into ``unavailable``.)

The watch is an ordered consumer: it sees every put in order, starts with the current value of
every key, and is made again after a failure (the entries already known stay until overwritten).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import msgspec
from nats.js.kv import KeyValue

from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.messages import TableMeta

logger = logging.getLogger("paiju.gateway.directory")

FINISHED = frozenset({"finished", "closed"})
KEEP_FINISHED = 5000  # finished tables listed in the history (the most recent ones)
SYNC_TIMEOUT = 10.0  # seconds a listing waits for the index's first full read


def when(meta: TableMeta) -> float:
    """The time a list sorts a table by: when it ended (finished, closed), else when it was made."""
    if meta.status in FINISHED and meta.finished_at is not None:
        return meta.finished_at
    return meta.created_at


class Directory:
    def __init__(self, kv: KeyValue, keep_finished: int = KEEP_FINISHED) -> None:
        self.kv = kv
        self.keep_finished = keep_finished
        self.entries: dict[str, TableMeta] = {}
        self.synced = asyncio.Event()  # the first full read is done
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _follow(self) -> None:
        while True:
            try:
                watcher = await self.kv.watchall()
                async for entry in watcher:
                    if entry is None:  # every current value has been read
                        self.synced.set()
                        continue
                    self._apply(entry.key, entry.value, entry.operation)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log(logger, "directory watch failed", logging.WARNING, error=repr(exc))
                await asyncio.sleep(1.0)

    def _apply(self, key: str, value: bytes | None, operation: str | None) -> None:
        if operation in ("DEL", "PURGE") or not value:
            self.entries.pop(key, None)
            return
        try:
            meta = msgspec.json.decode(value, type=TableMeta)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log(logger, "unreadable directory entry", logging.WARNING, table=key, error=str(exc))
            return
        self.entries[key] = meta
        if meta.status in FINISHED:
            self._trim()

    def _trim(self) -> None:
        """Forget the oldest finished tables beyond ``keep_finished`` (a tenth more first, so
        that trimming is rare): the index's memory is bounded by the live tables."""
        done = [m for m in self.entries.values() if m.status in FINISHED]
        if len(done) <= self.keep_finished * 1.1:
            return
        done.sort(key=when)
        for meta in done[: len(done) - self.keep_finished]:
            del self.entries[meta.id]

    async def tables(
        self,
        statuses: frozenset[str],
        limit: int,
        *,
        game: str | None = None,
        player: str | None = None,
        before: float | None = None,
    ) -> list[TableMeta]:
        """Tables of these statuses, newest first (see ``when``); ``game``: that game only;
        ``player``: a seat's name contains it (case-insensitive); ``before``: only tables older
        than this time (the last one of the previous page: the next page).

        Raises:
            ServiceError: ``unavailable`` before the index has read the directory once.
        """
        if not self.synced.is_set():
            try:
                await asyncio.wait_for(self.synced.wait(), SYNC_TIMEOUT)
            except TimeoutError:
                raise ServiceError("unavailable") from None
        needle = player.strip().casefold() if player and player.strip() else None
        found = [
            meta
            for meta in self.entries.values()
            if meta.status in statuses
            and (not game or meta.config.get("game") == game)
            and (not needle or any(needle in (s.name or "").casefold() for s in meta.seats))
            and (before is None or when(meta) < before)
        ]
        found.sort(key=lambda m: (when(m), m.id), reverse=True)
        return found[:limit]
