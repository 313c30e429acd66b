"""The lobby's index of the table directory: one watch of the ``paiju_tables`` bucket per gateway
copy keeps every live table's entry (and the most recent finished ones) in memory as the table
service writes them, so a listing is a filter over memory — no request to NATS, whatever the number
of tables or of clients asking. (Reading every entry on each listing cost one KV get per table
ever made: with a few hundred tables the lobby's listings timed out into ``unavailable``.)

The watch (``paiju_services.directory.Watch``, which the table service's index of the tables in
play shares) is an ordered consumer: it sees every put in order, starts with the current value of
every key, and is made again after a failure (the entries already known stay until overwritten).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from nats.js.kv import KeyValue

from paiju_services.directory import Watch
from paiju_services.messages import TableMeta

FINISHED = frozenset({"finished", "closed"})
KEEP_FINISHED = 5000  # finished tables listed in the history (the most recent ones)


def when(meta: TableMeta) -> float:
    """The time a list sorts a table by: when it ended (finished, closed), else when it was made."""
    if meta.status in FINISHED and meta.finished_at is not None:
        return meta.finished_at
    return meta.created_at


class Directory(Watch):
    logger = logging.getLogger("paiju.gateway.directory")

    def __init__(self, kv: KeyValue, keep_finished: int = KEEP_FINISHED) -> None:
        super().__init__(kv)
        self.keep_finished = keep_finished
        self.entries: dict[str, TableMeta] = {}
        # told of every table whose entry left the bucket (deleted once kept its retention, or
        # expired): the gateway forgets what it cached of it
        self.on_drop: Callable[[str], None] | None = None
        # told of every finished table whose players go on to a rematch (its entry names it):
        # the gateway tells the table's sockets at once
        self.on_rematch: Callable[[str, str], None] | None = None

    def put(self, key: str, meta: TableMeta, revision: int) -> None:
        if meta.status == "expired":  # nobody joined it in time: nothing to list (tables.expiry)
            self.drop(key)
            return
        before = self.entries.get(key)
        self.entries[key] = meta
        rematch = meta.rematch
        news = before is None or before.rematch != rematch
        if rematch is not None and news and self.on_rematch is not None:
            self.on_rematch(key, rematch)
        if meta.status in FINISHED:
            self._trim()

    def drop(self, key: str) -> None:
        self.entries.pop(key, None)
        if self.on_drop is not None:
            self.on_drop(key)

    def keys(self) -> set[str]:
        return set(self.entries)

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
        await self.ready()
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
