"""What the gateway knows of the rest of the system: the NATS connection, the event store (read
only), the table directory, the table service (requests), and the live feeds of tables being
watched. It never reads the secrets bucket and never appends."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
from typing import Any

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from paiju import api
from paiju.cards import card_codes
from paiju.log import verify_deal
from paiju.protocol import HandEnded, encode
from paiju_services import metrics, subjects
from paiju_services.bus import request
from paiju_services.config import Settings
from paiju_services.errors import ServiceError
from paiju_services.gateway.feeds import TableFeed
from paiju_services.gateway.schemas import (
    LogOut,
    SeatOut,
    StateOut,
    TableOut,
)
from paiju_services.logs import log
from paiju_services.messages import (
    AddBots,
    BotsAdded,
    CommandDone,
    CreateTable,
    Health,
    Join,
    Joined,
    SeatCommand,
    TableCreated,
    TableMeta,
)
from paiju_services.store import EventStore, StoreError
from paiju_services.tablelog import LRU, CorruptLog, TableLog, load

logger = logging.getLogger("paiju.gateway")


class Backend:
    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext, tables_kv: KeyValue):
        self.settings = settings
        self.nc = nc
        self.js = js
        self.store = EventStore(nc, js)
        self.tables_kv = tables_kv
        self.finished = LRU(settings.max_log_cache)  # finished tables never change
        self.feeds: dict[str, TableFeed] = {}
        self.feed_lock = asyncio.Lock()

    async def close(self) -> None:
        for feed in list(self.feeds.values()):
            await feed.close()
        self.feeds.clear()

    # --- requests to the table service ----------------------------------------------------------

    async def create_table(self, body: CreateTable) -> str:
        reply = await request(
            self.nc,
            subjects.TABLES_CREATE,
            body,
            TableCreated,
            self.settings.request_timeout,
            "unavailable",
        )
        return reply.table

    async def join(self, table_id: str, body: Join) -> Joined:
        self.check_id(table_id)
        return await request(
            self.nc,
            subjects.table_subject(table_id, "join"),
            body,
            Joined,
            self.settings.request_timeout,
            "unavailable",
        )

    async def add_bots(self, table_id: str, body: AddBots) -> BotsAdded:
        self.check_id(table_id)
        return await request(
            self.nc,
            subjects.table_subject(table_id, "bots"),
            body,
            BotsAdded,
            2 * self.settings.request_timeout,
            "unavailable",
        )

    async def command(
        self, table_id: str, token: str, command_id: str, command: dict[str, Any]
    ) -> CommandDone:
        self.check_id(table_id)
        return await request(
            self.nc,
            subjects.table_subject(table_id, "command"),
            SeatCommand(id=command_id, token=token, command=command),
            CommandDone,
            self.settings.request_timeout,
            "unavailable",
        )

    async def health(self) -> dict[str, bool]:
        out = {"nats": self.nc.is_connected, "jetstream": False}
        with contextlib.suppress(Exception):
            await self.js.stream_info(subjects.STREAM)
            out["jetstream"] = True
        for name, subject in (
            ("table_service", subjects.HEALTH_TABLES),
            ("bots_service", subjects.HEALTH_BOTS),
        ):
            try:
                msg = await self.nc.request(subject, b"{}", timeout=1.0)
                out[name] = msgspec.json.decode(msg.data, type=Health).error is None
            except (nats.errors.Error, msgspec.DecodeError):
                out[name] = False
        return out

    # --- the directory -------------------------------------------------------------------------

    @staticmethod
    def check_id(table_id: str) -> None:
        if not subjects.is_table_id(table_id):
            raise ServiceError("table_not_found", table=table_id[:40])

    async def meta(self, table_id: str) -> TableMeta:
        self.check_id(table_id)
        try:
            entry = await self.tables_kv.get(table_id)
        except nats.js.errors.KeyNotFoundError:
            raise ServiceError("table_not_found", table=table_id) from None
        return msgspec.json.decode(entry.value or b"", type=TableMeta)

    async def tables(self, statuses: frozenset[str], limit: int = 200) -> list[TableOut]:
        try:
            keys = await self.tables_kv.keys()
        except nats.js.errors.NoKeysError:
            return []
        out: list[TableOut] = []
        for key in keys:
            with contextlib.suppress(nats.js.errors.KeyNotFoundError, ServiceError):
                meta = await self.meta(key)
                if meta.status in statuses:
                    out.append(table_out(meta))
        out.sort(key=lambda t: t.created_at, reverse=True)
        return out[:limit]

    async def seat_of(self, table_id: str, token: str) -> int:
        """The seat a token holds at a table.

        Raises:
            ServiceError: ``unauthorized``.
        """
        digest = hashlib.sha256(token.encode()).hexdigest()
        meta = await self.meta(table_id)
        for seat, info in enumerate(meta.seats):
            if info.token_sha256 and hmac.compare_digest(info.token_sha256, digest):
                return seat
        raise ServiceError("unauthorized")

    # --- logs ----------------------------------------------------------------------------------

    async def table_log(self, table_id: str) -> TableLog:
        """The table's log as it is now (a finished one from memory)."""
        self.check_id(table_id)
        cached = self.finished.get_fresh(table_id)
        if cached is not None:
            return cached
        try:
            table = await load(self.store, table_id)
        except (StoreError, CorruptLog) as exc:
            log(logger, "log not readable", logging.ERROR, table=table_id, error=str(exc))
            raise ServiceError("unavailable") from exc
        if table is None:
            raise ServiceError("table_not_found", table=table_id)
        if table.over:
            self.finished.put(table_id, table)
        return table

    async def finished_log(self, table_id: str) -> TableLog:
        table = await self.table_log(table_id)
        if not table.over:
            raise ServiceError("not_finished")
        return table

    def log_out(self, table: TableLog) -> LogOut:
        header = msgspec.json.decode(table.lines[0])
        return LogOut(
            table=table.table_id,
            header=header,
            events=[encode(e) for e in table.events],
            result={
                "totals": list(table.state.totals),
                "hands": [encode(e) for e in table.events if isinstance(e, HandEnded)],
            },
            deals=[
                {"hand_no": d.hand_no, "status": d.status}
                for d in verify_deal(table.config, table.events)
            ],
        )

    async def state_at(self, table_id: str, at: int | None) -> StateOut:
        table = await self.table_log(table_id)
        index = table.version if at is None else at
        if not 0 <= index <= table.version:
            raise ServiceError("bad_index", max=table.version)
        state = table.state if index == table.version else table.state_at(index)
        return StateOut(
            table=table_id,
            index=index,
            events=table.version,
            finished=table.over,
            view=api.view(state, None),
            hands=[card_codes(h) for h in state.hands] if table.over else None,
        )

    # --- live feeds ----------------------------------------------------------------------------

    async def feed(self, table_id: str) -> TableFeed:
        self.check_id(table_id)
        async with self.feed_lock:
            feed = self.feeds.get(table_id)
            if feed is None or feed.closed:
                feed = TableFeed(self, table_id)
                await feed.start()
                self.feeds[table_id] = feed
                metrics.FEEDS.set(len(self.feeds))
            feed.cancel_close()
            return feed

    def feed_idle(self, feed: TableFeed) -> None:
        if self.feeds.get(feed.table_id) is feed:
            del self.feeds[feed.table_id]
            metrics.FEEDS.set(len(self.feeds))


def table_out(meta: TableMeta) -> TableOut:
    config = meta.config
    return TableOut(
        id=meta.id,
        game=config["game"],
        variant=config["variant"],
        players=config["players"],
        options=config["options"],
        status=meta.status,
        seats=[SeatOut(seat=i, kind=s.kind, name=s.name) for i, s in enumerate(meta.seats)],
        created_at=meta.created_at,
        finished_at=meta.finished_at,
        totals=meta.totals,
        ws=f"/ws/tables/{meta.id}",
    )
