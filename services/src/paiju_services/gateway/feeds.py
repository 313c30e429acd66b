"""A table's live feed in one gateway copy: the table's log replayed into engine state, kept up
to date by reading what the stream holds after it, and every watcher of the table sent its own
``view`` after every event.

**No consumer per table.** The stream republishes every message it stores on a core subject,
``paiju.stored.<table>`` (the stream's ``republish``), with its stream sequence and the sequence
of the subject's message before it (``Nats-Last-Sequence``). A feed holds a plain subscription on
its table's: a message whose previous sequence is the feed's last is applied as it comes, with no
read; one that shows a gap (a message the feed did not get: it subscribed after it, NATS
reconnected, the stream's leader changed) makes the feed read what the stream holds after its
last sequence, by batched direct gets, in order — so no event is missed or applied twice. A
reconnection to NATS, and a slow safety check, read too. So a gateway copy watches any number of
tables with no JetStream consumer at all (a stream allows 1,000 by default, and creating one is a
cluster-wide step), and a stored event reaches the feed in one hop.

The one place that turns state into frames: a seat gets ``view(state, seat)`` (and its legal moves
when it is to move), a spectator ``view(state, None)``. Raw events never leave a live table.
Every state frame also carries the table's pending deadline (``tables.clock.pending``: from the
stream time of the event its wait began with and the table's clock), so a browser can count down,
and ``connected``: the seats whose players hold a socket (that said hello with the seat's token) on
any gateway copy: this copy's own watchers, and what the other copies said last on
``paiju.presence.<table>`` (``PresenceBook``). When that set changes, every watcher gets a new
state frame (``event`` None).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from paiju import api
from paiju.protocol import Event
from paiju_services import metrics, subjects
from paiju_services.errors import ServiceError
from paiju_services.gateway.schemas import Over, StateFrame, encoder
from paiju_services.logs import log
from paiju_services.store import READ_BATCH, Stored, StoreError
from paiju_services.tablelog import CorruptLog, TableLog, load
from paiju_services.tables.clock import (
    QUIET,
    humans,
    pending,
    stream_time,
    table_clock,
    wait_start,
)

if TYPE_CHECKING:
    from paiju_services.gateway.backend import Backend

logger = logging.getLogger("paiju.gateway.feed")
SAFETY_CHECK = 30.0  # seconds: a feed reads anyway after so long without a stored message


class ClockedState(StateFrame, tag="state"):
    """A state frame with the table's pending deadline: ``deadline`` (epoch ms, None when nobody
    is timed) and ``deadline_seat`` (the seat that must act by then; None with a deadline: the
    next hand is dealt then, 继续 or not)."""

    deadline: int | None = None
    deadline_seat: int | None = None
    connected: list[int] | None = None  # the seats whose players hold a socket (any copy)


class PresenceBook:
    """What the other gateway copies said last of each table (``paiju.presence.<table>``): the
    seats they hold sockets for. A copy not heard of for ``ttl`` seconds counts as gone."""

    def __init__(self, instance: str, ttl: float) -> None:
        self.instance = instance
        self.ttl = ttl
        self.tables: dict[str, dict[str, tuple[frozenset[int], float]]] = {}

    def heard(self, table_id: str, instance: str, seats: frozenset[int], now: float) -> None:
        if instance == self.instance:
            return  # this copy's own word: it knows its watchers
        copies = self.tables.setdefault(table_id, {})
        if seats:
            copies[instance] = (seats, now)
        else:
            copies.pop(instance, None)
            if not copies:
                del self.tables[table_id]

    def seats(self, table_id: str, now: float) -> frozenset[int]:
        """The seats the other copies hold sockets for, as they said within ``ttl``."""
        out: frozenset[int] = frozenset()
        for seats, at in self.tables.get(table_id, {}).values():
            if now - at <= self.ttl:
                out |= seats
        return out

    def forget_old(self, now: float) -> None:
        for table_id in list(self.tables):
            copies = self.tables[table_id]
            for instance in [i for i, (_, at) in copies.items() if now - at > self.ttl]:
                del copies[instance]
            if not copies:
                del self.tables[table_id]


class Watcher:
    """One WebSocket's outbox. A watcher too slow to keep up is dropped, not waited for."""

    def __init__(self, seat: int | None, limit: int = 512) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(limit)
        self.dropped = False

    def push(self, frame: bytes) -> None:
        if self.dropped:
            return
        if frame:  # b"" only tells the writer to close the socket
            metrics.FRAMES_OUT.inc()
            metrics.BYTES_OUT.inc(len(frame))
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.get_nowait()
                self.outbox.put_nowait(None)  # tells the writer to close the socket


class TableFeed:
    def __init__(self, backend: Backend, table_id: str) -> None:
        self.backend = backend
        self.table_id = table_id
        self.table: TableLog
        self.watchers: set[Watcher] = set()
        self.sub: Subscription | None = None
        self.follower: asyncio.Task[None] | None = None
        self.poked = asyncio.Event()
        # republished messages not applied yet, by the sequence of the subject's message before
        # each; ``must_read``: a gap, a reconnection or the safety check asks for a read
        self.pushed: dict[int, Stored] = {}
        self.must_read = False
        self.closed = False
        self.closer: asyncio.TimerHandle | None = None
        # the turn clock: the table's seconds per kind, its human seats, and the stream time
        # the current wait began at (``tables.clock``)
        self.clock: dict[str, int] = {}
        self.people: frozenset[int] = frozenset()
        self.since = 0.0
        self.connected: frozenset[int] = frozenset()  # as the last frames said

    async def start(self) -> None:
        table = await load(self.backend.store, self.table_id)
        if table is None:
            raise ServiceError("table_not_found", table=self.table_id)
        self.table = table
        self.connected = self.backend.presence.seats(self.table_id, time.time())
        if not table.over:
            await self._read_clock(since=True)
            self.sub = await self.backend.nc.subscribe(
                subjects.stored_subject(self.table_id), cb=self._on_stored
            )
            self.follower = asyncio.create_task(self._follow())
            self.poke()  # what was appended between the load and the subscription
        log(logger, "feed started", table=self.table_id, version=table.version)

    async def _read_clock(self, since: bool = False) -> None:
        """The table's clock and human seats from its directory entry, and (``since``) when its
        current wait began; a feed that cannot read them shows no deadline, nothing else fails."""
        try:
            meta = await self.backend.meta(self.table_id)
            self.clock, self.people = table_clock(meta), humans(meta)
            if since:
                start = await wait_start(self.backend.nc, self.table_id)
                if start is not None and start[0] == self.table.last_seq:
                    self.since = start[1]
        except Exception as exc:
            log(logger, "clock not read", logging.WARNING, table=self.table_id, error=repr(exc))

    async def close(self) -> None:
        self.closed = True
        self.cancel_close()
        await self._stop_following()
        for watcher in self.watchers:
            watcher.push(b"")  # an empty frame: the writer closes the socket
        self.backend.feed_idle(self)

    # --- watchers ------------------------------------------------------------------------------

    def add(self, watcher: Watcher) -> None:
        if len(self.watchers) >= self.backend.settings.max_watchers:
            raise ServiceError("unavailable")
        self.watchers.add(watcher)
        self.cancel_close()

    def remove(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        if watcher.seat is not None:
            self.backend.seats_changed(self)
        if not self.watchers and not self.closed:
            loop = asyncio.get_running_loop()
            self.closer = loop.call_later(
                self.backend.settings.feed_idle_close,
                lambda: asyncio.ensure_future(self.close_if_idle()),
            )

    async def close_if_idle(self) -> None:
        """The idle timer's end: close, unless a watcher joined after the timer fired (its task
        runs after the join; without this check the new socket was closed after its welcome)."""
        if not self.watchers and not self.closed:
            await self.close()

    def cancel_close(self) -> None:
        if self.closer is not None:
            self.closer.cancel()
            self.closer = None

    def local_seats(self) -> frozenset[int]:
        """The seats this copy holds a socket for (a watcher that said hello with its token)."""
        return frozenset(w.seat for w in self.watchers if w.seat is not None)

    def presence(self) -> frozenset[int]:
        """The seats whose players hold a socket on any gateway copy."""
        return self.local_seats() | self.backend.presence.seats(self.table_id, time.time())

    def presence_changed(self) -> None:
        """Send every watcher a new state frame if the connected seats changed."""
        now = self.presence()
        if now != self.connected and not self.closed:
            self.connected = now
            self._broadcast(None)

    def snapshot(self, watcher: Watcher) -> list[bytes]:
        """The frames a watcher gets on joining (or resuming): the current view, and the result
        when the table is over."""
        frames = [self._state(watcher.seat, None)]
        if self.table.over:
            frames.append(self._over())
        return frames

    # --- events --------------------------------------------------------------------------------

    def poke(self) -> None:
        """Read what the stream holds after the feed (a reconnection to NATS calls it too)."""
        self.must_read = True
        self.poked.set()

    async def _on_stored(self, msg: Msg) -> None:
        """A message the stream stored, republished: kept for the follower, in order."""
        headers = dict(msg.headers or {})
        try:
            seq = int(headers["Nats-Sequence"])
            before = int(headers.get("Nats-Last-Sequence", "0"))
        except (KeyError, ValueError):
            self.poke()
            return
        if seq > self.table.last_seq:
            self.pushed[before] = Stored(seq, msg.data, headers)
            self.poked.set()

    async def _follow(self) -> None:
        """Apply what the stream stored whenever it says so, until the match is over or the feed
        closes."""
        while not self.closed and not self.table.over:
            try:
                await asyncio.wait_for(self.poked.wait(), SAFETY_CHECK)
            except TimeoutError:
                self.must_read = True
            self.poked.clear()
            try:
                await self._catch_up()
            except StoreError as exc:
                log(
                    logger, "feed read failed", logging.WARNING, table=self.table_id, error=str(exc)
                )
                await asyncio.sleep(0.5)
                self.poke()
            except Exception as exc:  # a bug: logged, and the feed goes on with the next message
                log(logger, "feed failed", logging.ERROR, table=self.table_id, error=repr(exc))
                await asyncio.sleep(0.5)

    async def _catch_up(self) -> None:
        """Apply the republished messages that follow on from the feed's last; on a gap (or when
        asked) read and apply every message after it, then go on with those that follow."""
        while not self.closed and not self.table.over:
            while (stored := self.pushed.pop(self.table.last_seq, None)) is not None:
                await self._apply(stored)
                if self.closed or self.table.over:
                    return
            stale = [before for before in self.pushed if before < self.table.last_seq]
            for before in stale:
                del self.pushed[before]
            if not (self.pushed or self.must_read):
                return
            self.must_read = False
            await self._read_after()

    async def _read_after(self) -> None:
        """Every message the stream holds after the feed's last, by batched direct gets."""
        while not self.closed and not self.table.over:
            batch = await self.backend.store.direct_batch(
                self.table_id,
                subjects.STREAM,
                subjects.events_subject(self.table_id),
                self.table.last_seq + 1,
                READ_BATCH,
                raw=True,
            )
            for stored in batch:
                await self._apply(stored)
            if not batch or batch[-1].headers.get("Nats-Num-Pending", "0") == "0":
                return

    async def _apply(self, raw: Stored) -> None:
        if raw.seq <= self.table.last_seq:
            return  # already applied
        headers = {k: v for k, v in raw.headers.items() if not k.startswith("Nats-")}
        try:
            event = self.table.apply(Stored(raw.seq, raw.data, headers))
        except CorruptLog as exc:
            log(logger, "corrupt event", logging.ERROR, table=self.table_id, error=str(exc))
            return
        stamp = raw.headers.get("Nats-Time-Stamp")
        if headers.get(subjects.H_TYPE) not in QUIET:
            self.since = stream_time(stamp) if stamp else time.time()
        if event.TYPE == "dealt":
            await self._read_clock()  # the seats are final once a hand is dealt
        self._broadcast(event)
        if self.table.over:
            over = self._over()
            for watcher in self.watchers:
                watcher.push(over)
            if self.sub is not None:
                with contextlib.suppress(Exception):
                    await self.sub.unsubscribe()
                self.sub = None

    async def _stop_following(self) -> None:
        if self.sub is not None:
            with contextlib.suppress(Exception):
                await self.sub.unsubscribe()
            self.sub = None
        if self.follower is not None and self.follower is not asyncio.current_task():
            self.follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.follower
        self.follower = None

    def _broadcast(self, event: Event | None) -> None:
        frames: dict[int | None, bytes] = {}
        tag = None if event is None else event.TYPE
        for watcher in self.watchers:
            frame = frames.get(watcher.seat)
            if frame is None:
                frame = frames[watcher.seat] = self._state(watcher.seat, tag)
            watcher.push(frame)

    def _state(self, seat: int | None, event: str | None) -> bytes:
        metrics.FRAME_ENCODINGS.inc()
        state = self.table.state
        moves: list[dict[str, Any]] | None = None
        # a state the table leaves at once by its own step (api.passing) is shown, not settled:
        # a seat acts (a 继续 with its seed) on the state after it
        settled = self.table.settled and not api.passing(state)
        if settled and seat is not None and api.to_move(state) == seat:
            moves = api.legal_moves_json(state, seat)
        due = (
            pending(state, self.clock, self.people, self.since) if settled and self.since else None
        )
        return encoder.encode(
            ClockedState(
                table=self.table_id,
                index=self.table.version,
                event=event,
                view=api.view(state, seat),
                settled=settled,
                moves=moves,
                deadline=None if due is None else due.at_ms,
                deadline_seat=None if due is None else due.seat,
                connected=sorted(self.connected),
            )
        )

    def _over(self) -> bytes:
        view = api.view(self.table.state, None)
        return encoder.encode(
            Over(
                table=self.table_id,
                totals=list(self.table.state.totals),
                result=view.get("last_hand"),
                log=f"/api/tables/{self.table_id}/log",
            )
        )
