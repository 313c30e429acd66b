"""What the gateway knows of the rest of the system: the NATS connection, the event store (read
only), the table directory, the table service (requests), and the live feeds of tables being
watched. It never reads the secrets bucket and never appends.

Presence: every ``presence_interval`` seconds, and at once when a socket says hello with a seat's
token or closes, this copy publishes on ``paiju.presence.<table>`` the seats it holds sockets for
(``messages.Presence``; core NATS, nothing stored), each with a proof made with the seat's view key
(``views.presence_proof``: the table service ignores a seat said without one); it listens there too, so that its feeds know
the seats the other copies hold (``presence.PresenceBook``) and the table service knows who is
connected (an abandoned table ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from typing import Any

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from paiju.log.deals import verify_deal
from paiju.protocol import HandEnded, encode
from paiju_services import metrics, subjects, views
from paiju_services.affinity import Copies
from paiju_services.archive import ENDED
from paiju_services.bus import request
from paiju_services.config import Settings
from paiju_services.directory import refuse_expired
from paiju_services.errors import RemoteError, ServiceError, error_body
from paiju_services.gateway.directory import Directory
from paiju_services.gateway.feeds import TableFeed
from paiju_services.gateway.presence import PresenceBook
from paiju_services.gateway.schemas import (
    ErrorFrame,
    HandsOut,
    LogOut,
    RematchOpened,
    StateOut,
    TableOut,
    answer_out,
    encoder,
    table_out,
)
from paiju_services.logs import Sparing, log
from paiju_services.messages import (
    AddBots,
    Archived,
    ArchiveWanted,
    BotsAdded,
    CloseTable,
    CommandDone,
    CreateTable,
    HandsSoFar,
    HandsWanted,
    Health,
    Join,
    Joined,
    LeaveSeat,
    Presence,
    PublicState,
    R,
    RematchStarted,
    SeatCommand,
    SeatLeft,
    StartRematch,
    StateWanted,
    TableClosed,
    TableCreated,
    TableMeta,
    ViewNow,
    ViewWanted,
)
from paiju_services.store import ArchiveError, EventStore, StoreError
from paiju_services.tablelog import (
    LRU,
    CorruptLog,
    TableLog,
    from_messages,
    hands_so_far,
    public_state,
)
from paiju_services.tokens import token_hash

logger = logging.getLogger("paiju.gateway")
PRESENCE_ROUNDS = 20  # rounds a presence interval is spread over (Backend._presence_forever)


class Backend:
    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext, tables_kv: KeyValue):
        self.settings = settings
        self.nc = nc
        self.js = js
        self.store = EventStore(nc, js)
        self.tables_kv = tables_kv
        # the lobby's listings (gateway/directory.py)
        self.directory = Directory(tables_kv, settings.history_size)
        # views messages in a format this copy cannot read (a table service of another version)
        self.unreadable_views = Sparing(logger, "views message dropped")
        self.finished = LRU(
            settings.max_log_cache, settings.cache_bytes
        )  # finished tables never change
        self.feeds: dict[str, TableFeed] = {}
        # the feeds that take their table's views and stored headers (from their start to the
        # match's end), from this copy's two subscriptions for all tables (gateway/feeds.py)
        self.following: dict[str, TableFeed] = {}
        # the other copies' presence, every table's views and stored headers (one each)
        self.subs: list[Any] = []
        self.starting: dict[str, asyncio.Future[TableFeed]] = {}  # feeds being started, by table
        self.hand_rows: OrderedDict[str, HandsOut] = OrderedDict()  # ended tables' hands
        self.directory.on_drop = self._forget_table  # a table deleted is read no more
        self.directory.on_rematch = self._rematch_opened
        self.presence = PresenceBook(settings.instance, 3 * settings.presence_interval)
        self.presence_task: asyncio.Task[None] | None = None
        self.publishing: set[asyncio.Future[None]] = set()
        self.copies = Copies(nc)  # the table-service copies, each table's holder

    async def start(self) -> None:
        await self.copies.start()
        await self.directory.start()
        self.subs = [
            await self.nc.subscribe(subjects.PRESENCE_ALL, cb=self._on_presence),
            await self.nc.subscribe(views.VIEWS_ALL, cb=self._on_view),
            await self.nc.subscribe(subjects.STORED_ALL, cb=self._on_stored),
        ]
        self.presence_task = asyncio.create_task(self._presence_forever())

    async def close(self) -> None:
        if self.presence_task is not None:
            self.presence_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.presence_task
        for sub in self.subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        for feed in list(self.feeds.values()):
            if feed.local_seats():
                await self._publish(feed.table_id, {})  # this copy holds none now
        await self.directory.stop()
        await self.copies.stop()
        for feed in list(self.feeds.values()):
            await feed.close()
        self.feeds.clear()

    # --- requests to the table service ----------------------------------------------------------

    async def create_table(self, body: CreateTable) -> TableCreated:
        return await request(
            self.nc,
            subjects.TABLES_CREATE,
            body,
            TableCreated,
            self.settings.request_timeout,
            "unavailable",
        )

    async def join(self, table_id: str, body: Join) -> Joined:
        return await self._ask(table_id, "join", body, Joined)

    async def add_bots(self, table_id: str, body: AddBots) -> BotsAdded:
        return await self._ask(table_id, "bots", body, BotsAdded, slow=True)

    async def close_table(self, table_id: str, body: CloseTable) -> TableClosed:
        return await self._ask(table_id, "close", body, TableClosed)

    async def leave(self, table_id: str, body: LeaveSeat) -> SeatLeft:
        return await self._ask(table_id, "leave", body, SeatLeft)

    async def rematch(self, table_id: str, body: StartRematch) -> RematchStarted:
        # it may seat bots, as POST .../bots does
        return await self._ask(table_id, "rematch", body, RematchStarted, slow=True)

    async def command(
        self, table_id: str, token: str, command_id: str, command: dict[str, Any]
    ) -> CommandDone:
        body = SeatCommand(id=command_id, token=token, command=command)
        return await self._ask(table_id, "command", body, CommandDone)

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
        meta = msgspec.json.decode(entry.value or b"", type=TableMeta)
        refuse_expired(meta)  # nobody joined it in time: its entry is soon gone
        return meta

    async def tables(
        self,
        statuses: frozenset[str],
        limit: int = 200,
        *,
        game: str | None = None,
        player: str | None = None,
        before: float | None = None,
    ) -> list[TableOut]:
        """Tables of these statuses, newest first: a finished (or closed) one by the time it
        ended, any other by the time it was made. ``game``: that game only; ``player``: a seat's
        name contains it (case-insensitive); ``before``: only tables older than this time (the
        last one of the previous page: the next page).

        Raises:
            ServiceError: ``unavailable`` while NATS is out of reach (the index, kept from the
                directory's changes, could be stale: no listing is answered from it then).
        """
        if not self.nc.is_connected:
            raise ServiceError("unavailable")
        metas = await self.directory.tables(
            statuses, limit, game=game, player=player, before=before
        )
        return [table_out(meta, self.settings.open_expiry) for meta in metas]

    async def seat_of(self, table_id: str, token: str) -> int:
        """The seat a token holds at a table.

        Raises:
            ServiceError: ``unauthorized``.
        """
        digest = token_hash(token)
        # the lobby's index first (no read: a reconnecting crowd costs the directory nothing),
        # then the directory itself (a seat taken a moment ago). The table service checks the
        # token again for every view and command it answers: a stale index grants nothing.
        known = self.directory.entries.get(table_id)
        seat = None if known is None else known.seat_holding(digest)
        if seat is None:
            seat = (await self.meta(table_id)).seat_holding(digest)
        if seat is None:
            raise ServiceError("unauthorized")
        return seat

    # --- logs and public states --------------------------------------------------------------
    # The gateway reads no event of a live table: an ended table's log comes from the archive
    # (the table service writes it there as the match ends), a live table's public state and
    # hands from the table service.

    async def ended_log(self, table_id: str) -> TableLog | None:
        """The log of an ended table (finished or closed), from the archive; None while the
        table is live. One the table service has not archived yet (it failed, or the table ended
        before archives were written at the end) it archives when asked."""
        self.check_id(table_id)
        cached = self.finished.get_fresh(table_id)
        if cached is not None:
            return cached
        try:
            msgs = await self.store.read_archive(table_id)
        except (StoreError, ArchiveError) as exc:
            log(logger, "log not readable", logging.ERROR, table=table_id, error=str(exc))
            raise ServiceError("unavailable") from exc
        if not msgs:
            try:
                await self._ask(table_id, "archive", ArchiveWanted(), Archived)
            except RemoteError as exc:
                if exc.error.code == "not_finished":
                    return None
                raise
            msgs = await self.store.read_archive(table_id)
        try:
            table = from_messages(table_id, msgs)
        except CorruptLog as exc:
            log(logger, "log not readable", logging.ERROR, table=table_id, error=str(exc))
            raise ServiceError("unavailable") from exc
        if table is None or not table.over:
            raise ServiceError("unavailable")
        self.finished.put(table_id, table)
        return table

    def _forget_table(self, table_id: str) -> None:
        """A table whose directory entry left the bucket (deleted: paiju_services.retention) or
        expired (tables.expiry): what this copy cached of it goes too, so that it is answered
        ``table_not_found`` like elsewhere, and the sockets watching an expired one are told
        ``table_expired`` and closed."""
        self.finished.pop(table_id, None)
        self.hand_rows.pop(table_id, None)
        feed = self.feeds.get(table_id)
        if feed is not None and not feed.over and not feed.closed:
            body = error_body(ServiceError("table_expired"))
            feed.gone(encoder.encode(ErrorFrame(code=body.code, zh=body.zh, en=body.en)))

    def _rematch_opened(self, table_id: str, rematch: str) -> None:
        """A player of this finished table pressed 再来一局: the table's sockets here are told at
        once, so the others see the offer without asking (each gateway copy tells its own, from
        its own watch of the directory)."""
        feed = self.feeds.get(table_id)
        if feed is not None and not feed.closed:
            feed.tell(encoder.encode(RematchOpened(table=table_id, rematch=rematch)))

    async def finished_log(self, table_id: str) -> TableLog:
        table = await self.ended_log(table_id)
        if table is None:
            raise ServiceError("not_finished")
        return table

    async def _ended(self, table_id: str) -> TableLog | None:
        """The ended table's log, if the directory says it ended (a live table costs no read of
        the archive, and no read of the directory: the lobby's index holds its entry)."""
        if self.finished.get_fresh(table_id) is None:
            meta = self.directory.entries.get(table_id) or await self.meta(table_id)
            if meta.status not in ENDED:
                return None
        return await self.ended_log(table_id)

    def log_out(self, table: TableLog) -> LogOut:
        header = msgspec.json.decode(table.head)
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

    async def hands(self, table_id: str) -> HandsOut:
        """Every hand scored so far at a table, live or ended, with the running totals after
        each (public: every hand_ended is shown to all as it happens)."""
        table = await self._ended(table_id)
        if table is None:
            return answer_out(
                await self._ask(table_id, "hands", HandsWanted(), HandsSoFar), HandsOut
            )
        rows = self.hand_rows.get(table_id)
        if rows is None:
            rows = self.hand_rows[table_id] = answer_out(hands_so_far(table), HandsOut)
            while len(self.hand_rows) > self.settings.max_log_cache:
                self.hand_rows.popitem(last=False)
        return rows

    async def state_at(self, table_id: str, at: int | None) -> StateOut:
        table = await self._ended(table_id)
        if table is None:
            return answer_out(
                await self._ask(table_id, "state", StateWanted(at=at), PublicState), StateOut
            )
        return answer_out(public_state(table, at), StateOut)

    async def view_now(self, table_id: str, token: str | None, after: int | None) -> ViewNow:
        """An audience's view now, and those after version ``after`` it missed (a seat's sealed
        with its view key): a feed's start or catch-up."""
        return await self._ask(table_id, "view", ViewWanted(token=token, after=after), ViewNow)

    async def _ask(
        self, table_id: str, verb: str, body: Any, reply: type[R], slow: bool = False
    ) -> R:
        """The table service's answer, from the copy that holds the table (affinity.py); a slow
        request (one that seats bots) may take twice the usual time."""
        self.check_id(table_id)
        timeout = self.settings.request_timeout * (2 if slow else 1)
        return await self.copies.request(table_id, verb, body, reply, timeout)

    # --- live feeds ----------------------------------------------------------------------------

    async def feed(self, table_id: str) -> TableFeed:
        """The table's live feed, started on first use. Feeds of different tables start at once
        (each loads its table's log); the sockets of one table wait for its one start."""
        self.check_id(table_id)
        feed = self.feeds.get(table_id)
        if feed is None or feed.closed:
            starting = self.starting.get(table_id)
            if starting is None:
                starting = asyncio.ensure_future(self._start_feed(table_id))
                self.starting[table_id] = starting
                starting.add_done_callback(lambda _: self.starting.pop(table_id, None))
            feed = await asyncio.shield(starting)
        feed.cancel_close()
        return feed

    async def _start_feed(self, table_id: str) -> TableFeed:
        feed = TableFeed(self, table_id)
        await feed.start()
        self.feeds[table_id] = feed
        metrics.FEEDS.set(len(self.feeds))
        return feed

    def follow(self, feed: TableFeed) -> None:
        self.following[feed.table_id] = feed

    def unfollow(self, feed: TableFeed) -> None:
        if self.following.get(feed.table_id) is feed:
            del self.following[feed.table_id]

    async def _on_view(self, msg: Any) -> None:
        """A views message: opened only if a feed here follows its table."""
        if feed := self.following.get(subjects.table_of(msg.subject)):
            try:
                index, event, parts = views.unpack(msg.data)
            except ValueError as exc:  # not the table service's: dropped, the feed asks later
                self.unreadable_views.log(error=str(exc))
                return
            feed.view(index, event, parts)

    async def _on_stored(self, msg: Any) -> None:
        if feed := self.following.get(subjects.table_of(msg.subject)):
            feed.stored(msg)

    def reconnected(self) -> None:
        """NATS is back: a feed may have missed the signs of what was appended meanwhile."""
        for feed in list(self.feeds.values()):
            feed.poke()

    # --- presence ------------------------------------------------------------------------------

    def seats_changed(self, feed: TableFeed) -> None:
        """A socket said hello with a seat's token, or a seat's socket closed: the feed's frames
        and the other copies hear of it now."""
        feed.presence_changed()
        future = asyncio.ensure_future(self._publish(feed.table_id, feed.local_keys()))
        self.publishing.add(future)
        future.add_done_callback(self.publishing.discard)

    async def _publish(self, table_id: str, keys: dict[int, bytes]) -> None:
        """The seats this copy holds sockets for (``keys``: each one's view key), each with its
        proof for the table service (``views.presence_proof``)."""
        seats = sorted(keys)
        window = views.presence_window(time.time())
        proofs = [views.presence_proof(keys[seat], table_id, seat, window) for seat in seats]
        body = Presence(instance=self.settings.instance, seats=seats, proofs=proofs)
        try:
            await self.nc.publish(subjects.presence_subject(table_id), msgspec.json.encode(body))
        except Exception as exc:  # NATS away: the next round says it again
            log(logger, "presence not sent", logging.WARNING, table=table_id, error=repr(exc))

    async def _presence_forever(self) -> None:
        """Every feed says its seats again each ``presence_interval``, and hears whether another
        copy went quiet; the feeds take their turns in ``PRESENCE_ROUNDS`` rounds spread over
        the interval (2,000 feeds at once stopped the copy about 50 ms every 2 s: a move's view
        waiting behind them)."""
        pause = self.settings.presence_interval / PRESENCE_ROUNDS
        while True:
            feeds = list(self.feeds.values())
            self.presence.forget_old(time.time())
            for turn in range(PRESENCE_ROUNDS):
                await asyncio.sleep(pause)
                for feed in feeds[turn::PRESENCE_ROUNDS]:
                    if feed.closed:
                        continue
                    keys = feed.local_keys()
                    if keys and not feed.over:
                        await self._publish(feed.table_id, keys)
                    feed.presence_changed()  # another copy gone quiet

    async def _on_presence(self, msg: Any) -> None:
        table_id = subjects.table_of(msg.subject)
        try:
            said = msgspec.json.decode(msg.data, type=Presence)
        except msgspec.DecodeError:
            return
        self.presence.heard(table_id, said.instance, frozenset(said.seats), time.time())
        feed = self.feeds.get(table_id)
        if feed is not None and not feed.closed:
            feed.presence_changed()

    def feed_idle(self, feed: TableFeed) -> None:
        if self.feeds.get(feed.table_id) is feed:
            del self.feeds[feed.table_id]
            metrics.FEEDS.set(len(self.feeds))
