"""A table's live feed in one gateway copy: the views the table service publishes for each
audience of the table (``paiju_services.views``), forwarded to that audience's sockets.

**The gateway holds no card it could read on its own.** The authority publishes, after every
event, the spectators' view in clear and each human seat's view sealed with that seat's view key;
a feed opens a seat's views with the key it derives from the token the seat's socket said hello
with, and keeps a seat's audience only while such a socket is here (the views of a seat nobody
here holds are dropped unopened). Nothing is computed per socket: a frame is the audience's body
with the table, the event and the connected seats spliced in front (``views.frame``), made once
per audience and view.

**One subscription for all tables.** The gateway subscribes once to every table's views and once
to every stored event's headers (``Backend.start``) and hands each message to the feed that
follows its table (``Backend.following``), in the subscription's order. A feed holds no
subscription of its own: with thousands of tables a subscription per audience was thousands of
tasks and queues, each scanned by every full garbage collection. A view that comes in order, when
nothing else changes its audience, is taken at once; one that shows a gap, or comes while its
audience is being fetched, waits in a task of its own, so no table holds up another.

**No view is missed.** Views are core NATS messages; the stream republishes the headers of every
event it stores on ``paiju.stored.<table>`` (no body: the gateway reads no event). A feed that
learns there of a version its audiences have not seen within ``GRACE`` seconds (a view lost on a
reconnection, a table-service copy that crashed between its append and its publish) asks the
table service for those audiences' views now (``paiju.tables.<table>.view``, a seat's with its
token, answered sealed); so does a feed that starts, and every feed after NATS reconnects. A
fetch that fails is asked again later, each time later (``paiju_services.backoff``), so a table
service that is away or overloaded is not asked by every feed every second. A view
older than the one an audience has is dropped: the views are whole states, so a newer one
replaces any it skipped.

Every state frame carries the table's pending deadline (from the table service, which keeps the
clocks) and ``connected``: the seats whose players hold a socket (that said hello with the seat's
token) on any gateway copy: this copy's own watchers, and what the other copies said last on
``paiju.presence.<table>`` (``presence.PresenceBook``). When that set changes, every watcher gets a new
state frame (``event`` None).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

import msgspec
from nats.aio.msg import Msg

from paiju_services import metrics, views
from paiju_services.backoff import Streak, from_settings
from paiju_services.config import Settings
from paiju_services.errors import RemoteError, ServiceError
from paiju_services.gateway.presence import PresenceBook
from paiju_services.gateway.schemas import Over, encoder
from paiju_services.logs import log
from paiju_services.messages import ViewNow
from paiju_services.stored import next_index

logger = logging.getLogger("paiju.gateway.feed")
GRACE = 1.0  # seconds a stored event may wait for its views before the feed asks for them
LAST_EVENT = "match_ended"


class _Over(msgspec.Struct):
    """What the ``over`` frame takes from a view of the ended table."""

    totals: list[int]
    last_hand: dict[str, object] | None = None


class _Ended(msgspec.Struct):
    view: _Over


_ended = msgspec.json.Decoder(_Ended)


class _PhaseOf(msgspec.Struct):
    phase: str = ""


class _Phase(msgspec.Struct):
    view: _PhaseOf


_phase = msgspec.json.Decoder(_Phase)


class Watcher:
    """One WebSocket's outbox. A watcher too slow to keep up is dropped, not waited for."""

    def __init__(self, seat: int | None, limit: int = 512) -> None:
        self.seat = seat
        self.key: bytes | None = None  # the seat's view key, from its token (views.view_key)
        self.token: str | None = None
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


class Audience:
    """A seat's sockets, or the spectators': and the last view they got."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.watchers: set[Watcher] = set()
        self.index = -1  # the version of ``body``
        self.event: str | None = None  # the event ``body`` follows (None: a snapshot)
        self.body: bytes | None = None  # the views.ViewBody, in clear
        # one change at a time: a pushed view that shows a gap waits for the missed ones
        self.lock = asyncio.Lock()

    def openers(self) -> list[tuple[bytes, str]]:
        """The view keys and tokens of its sockets (a seat's player may have several)."""
        return [(w.key, w.token) for w in self.watchers if w.key is not None and w.token]


class FeedHost(Protocol):
    """What a feed needs of the gateway copy that holds it (``backend.Backend`` is one): its
    settings and presence book, to be told when the feed follows its table, stops, idles or its
    seats change, and a view asked of the table service. A protocol, so that this module and the
    backend do not import each other."""

    settings: Settings
    presence: PresenceBook

    def follow(self, feed: TableFeed) -> None: ...

    def unfollow(self, feed: TableFeed) -> None: ...

    def feed_idle(self, feed: TableFeed) -> None: ...

    def seats_changed(self, feed: TableFeed) -> None: ...

    async def view_now(self, table_id: str, token: str | None, after: int | None) -> ViewNow: ...


class TableFeed:
    def __init__(self, backend: FeedHost, table_id: str, grace: float = GRACE) -> None:
        self.backend = backend
        self.table_id = table_id
        self.grace = grace  # seconds a stored version's views may take before they are asked for
        self.audiences: dict[int | None, Audience] = {None: Audience(None)}
        self.watchers: set[Watcher] = set()
        self.stored_version = 0  # the newest version the stream said it holds
        # the versions the stream stored, and when, that no check has looked at yet; and the newest
        # one stored ``grace`` ago or more, whose views every audience should have by now
        self.heard: collections.deque[tuple[float, int]] = collections.deque()
        self.checking = 0
        self.checker: asyncio.TimerHandle | None = None
        self.fetch_failures = Streak(from_settings(backend.settings))  # of views asked for
        self.tasks: set[asyncio.Future[None]] = set()
        self.over = False
        self.over_frame: bytes | None = None
        self.closed = False
        self.closer: asyncio.TimerHandle | None = None
        self.connected: frozenset[int] = frozenset()  # as the last frames said

    async def start(self) -> None:
        self.connected = self.backend.presence.seats(self.table_id, time.time())
        spectators = self.audiences[None]
        self.backend.follow(self)
        try:
            async with spectators.lock:  # the view now: followed from before, none is missed
                await self._fetch(spectators)
        except BaseException:
            self._stop_following()
            raise
        log(logger, "feed started", table=self.table_id, version=spectators.index)

    async def close(self) -> None:
        self.closed = True
        self.cancel_close()
        self._stop_following()
        for watcher in self.watchers:
            watcher.push(b"")  # an empty frame: the writer closes the socket
        self.backend.feed_idle(self)

    def gone(self, frame: bytes) -> None:
        """The table is gone while live (it expired, nobody having filled it): every socket gets
        ``frame`` (the error that says so), then the feed closes them."""
        self.tell(frame)
        self._spawn(self.close())

    def tell(self, frame: bytes) -> None:
        """Every socket of the table gets ``frame``."""
        for watcher in self.watchers:
            watcher.push(frame)

    # --- watchers ------------------------------------------------------------------------------

    def add(self, watcher: Watcher) -> None:
        """A new socket, a spectator until it says hello with a seat's token."""
        if len(self.watchers) >= self.backend.settings.max_watchers:
            raise ServiceError("unavailable")
        self.watchers.add(watcher)
        self.audiences[None].watchers.add(watcher)
        self.cancel_close()

    async def sit(self, watcher: Watcher, seat: int, token: str) -> None:
        """The socket holds ``seat`` (its token checked): it gets that seat's views from now on.

        Raises:
            ServiceError: the seat's view could not be had (``unavailable``) or its token no
                longer holds it (``unauthorized``).
        """
        self._leave_audience(watcher)
        watcher.seat, watcher.token, watcher.key = seat, token, views.view_key(token)
        mine = self.audiences.get(seat)
        if mine is None:
            mine = self.audiences[seat] = Audience(seat)
        mine.watchers.add(watcher)
        if mine.body is None or mine.index < self.audiences[None].index:
            async with mine.lock:
                await self._fetch(mine)

    def add_spectator(self, watcher: Watcher) -> None:
        """A socket whose seat could not be taken watches as a spectator again."""
        self._leave_audience(watcher)
        watcher.seat = watcher.token = watcher.key = None
        self.audiences[None].watchers.add(watcher)

    def remove(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)
        self._leave_audience(watcher)
        if watcher.seat is not None:
            self.backend.seats_changed(self)
        if not self.watchers and not self.closed:
            loop = asyncio.get_running_loop()
            self.closer = loop.call_later(
                self.backend.settings.feed_idle_close,
                lambda: asyncio.ensure_future(self.close_if_idle()),
            )

    def _leave_audience(self, watcher: Watcher) -> None:
        audience = self.audiences.get(watcher.seat)
        if audience is None:
            return
        audience.watchers.discard(watcher)
        if audience.seat is not None and not audience.watchers:
            del self.audiences[audience.seat]  # nobody here may see that seat's cards now

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

    def local_keys(self) -> dict[int, bytes]:
        """The view key of each seat this copy holds a socket for (its presence proofs')."""
        return {w.seat: w.key for w in self.watchers if w.seat is not None and w.key is not None}

    def presence(self) -> frozenset[int]:
        """The seats whose players hold a socket on any gateway copy."""
        return self.local_seats() | self.backend.presence.seats(self.table_id, time.time())

    def presence_changed(self) -> None:
        """Send every watcher a new state frame if the connected seats changed."""
        now = self.presence()
        if now != self.connected and not self.closed:
            self.connected = now
            for audience in self.audiences.values():
                self._broadcast(audience, None)

    def snapshot(self, watcher: Watcher) -> list[bytes]:
        """The frames a watcher gets on joining (or resuming): its audience's view now, and the
        result when the table is over."""
        audience = self.audiences.get(watcher.seat)
        if audience is None or audience.body is None:
            return []
        frames = [self._frame(audience, None)]
        if self.over_frame is not None:
            frames.append(self.over_frame)
        return frames

    # --- views ---------------------------------------------------------------------------------

    def poke(self) -> None:
        """Ask for every audience's view now (NATS reconnected: some may have been missed)."""
        for audience in list(self.audiences.values()):
            self._spawn(self._refetch(audience))

    def stored(self, msg: Msg) -> None:
        """The stream stored a message (its headers, republished): if the views of its events
        do not follow within ``grace``, they are asked for."""
        version = next_index(msg.headers or {})
        if version is None:
            return
        if version > self.stored_version:
            self.stored_version = version
            self.heard.append((asyncio.get_running_loop().time(), version))
        self._arm()

    def _arm(self, delay: float | None = None) -> None:
        """Look in ``delay`` seconds (default: when the oldest version heard of is ``grace`` old)
        whether an audience is behind a version stored ``grace`` ago or more. Only such a
        version: one stored a moment before has its views on their way still (in a closed loop,
        asking for the newest version at every check was one view request to the table service
        every 50 moves)."""
        if self.checker is None and not self.closed:
            loop = asyncio.get_running_loop()
            if delay is None:
                if not self.heard:
                    return
                delay = max(0.0, self.heard[0][0] + self.grace - loop.time())
            self.checker = loop.call_later(delay, self._check)

    def _check(self) -> None:
        self.checker = None
        now = asyncio.get_running_loop().time()
        while self.heard and self.heard[0][0] + self.grace <= now:
            self.checking = self.heard.popleft()[1]
        for audience in list(self.audiences.values()):
            if audience.index < self.checking and (audience.watchers or audience.seat is None):
                self._spawn(self._refetch(audience))
        self._arm()

    def view(self, index: int, event: str, parts: dict[int | None, bytes]) -> None:
        """The views of every audience after an event, as the table service published them: each
        audience followed here takes its part, at once if it follows the audience's last view and
        nothing is changing that audience, else in a task of its own (``_on_view``)."""
        for seat, audience in list(self.audiences.items()):
            data = parts.get(seat)
            if data is None or index <= audience.index:
                continue
            if audience.lock.locked() or index != audience.index + 1:
                self._spawn(self._on_view(audience, index, event, data))
                continue
            opened = data if seat is None else self._open(audience, data)
            if opened is None:  # no key of ours opens it: the seat's token changed
                self._spawn(self._on_view(audience, index, event, data))
                continue
            self._take(audience, index, event, opened)

    async def _on_view(self, audience: Audience, index: int, event: str, data: bytes) -> None:
        async with audience.lock:
            if self.audiences.get(audience.seat) is not audience or index <= audience.index:
                return  # nobody here sees that audience any more, or a newer view came first
            if 0 <= audience.index < index - 1:  # a view missed: every one since, in order
                await self._refetch(audience, locked=True)
                if index <= audience.index:
                    return
            if audience.seat is not None:
                opened = self._open(audience, data)
                if opened is None:  # no key of ours opens it: the seat's token changed
                    await self._refetch(audience, locked=True)
                    return
                data = opened
            self._take(audience, index, event, data)

    def _open(self, audience: Audience, data: bytes) -> bytes | None:
        assert audience.seat is not None
        for key, _ in audience.openers():
            with contextlib.suppress(views.SealBroken):
                return views.unseal(key, self.table_id, audience.seat, data)
        return None

    async def _refetch(self, audience: Audience, locked: bool = False) -> None:
        try:
            if locked:
                await self._fetch(audience)
            else:
                async with audience.lock:
                    await self._fetch(audience)
        except Exception as exc:  # NATS or the table service away: asked again, backing off
            wait = self.fetch_failures.failed()
            log(
                logger,
                "view not read",
                logging.WARNING,
                table=self.table_id,
                error=repr(exc),
                wait=round(wait, 2),
            )
            if not self.over:
                self._arm(max(self.grace, wait))
        else:
            self.fetch_failures.succeeded()

    async def _fetch(self, audience: Audience) -> None:
        """The audience's view now, from the table service (a seat's with one of its tokens)."""
        if self.closed:
            return
        after = audience.index if audience.index >= 0 else None
        if audience.seat is None:
            answer = await self.backend.view_now(self.table_id, None, after)
            self._take_all(audience, answer, None)
            return
        for key, token in audience.openers():
            try:
                answer = await self.backend.view_now(self.table_id, token, after)
            except RemoteError as exc:
                if exc.error.code == "unauthorized":
                    continue  # this socket's token no longer holds the seat
                raise
            if answer.seat != audience.seat:
                continue
            self._take_all(audience, answer, key)
            return
        raise ServiceError("unauthorized")

    def _take_all(self, audience: Audience, answer: ViewNow, key: bytes | None) -> None:
        """The views a fetch brought: those the audience missed, in order, then the latest."""
        for view in [*answer.missed, *([answer.now] if answer.now else [])]:
            data = view.data
            if key is not None and audience.seat is not None:
                data = views.unseal(key, self.table_id, audience.seat, data)
            # a view fetched at start is a snapshot (no event); one that fills a gap is the event
            event = view.event if audience.index >= 0 else None
            self._take(audience, view.index, event, data, fetched=True)

    def _take(
        self,
        audience: Audience,
        index: int,
        event: str | None,
        body: bytes,
        fetched: bool = False,
    ) -> None:
        if index < audience.index or (index == audience.index and not fetched):
            return
        if index == audience.index and audience.body is not None:
            return  # the same view, fetched: those who have it need it not again
        audience.index, audience.event, audience.body = index, event, body
        self._broadcast(audience, event)
        if not self.over and (event == LAST_EVENT or (fetched and _is_over(body))):
            self._ended(body)

    def _ended(self, body: bytes) -> None:
        """The match is over: every socket gets the result, and nothing is followed any more."""
        self.over = True
        ended = _ended.decode(body).view
        self.over_frame = encoder.encode(
            Over(
                table=self.table_id,
                totals=ended.totals,
                result=ended.last_hand,
                log=f"/api/tables/{self.table_id}/log",
            )
        )
        for watcher in self.watchers:
            watcher.push(self.over_frame)
        self._stop_following()

    def _stop_following(self) -> None:
        if self.checker is not None:
            self.checker.cancel()
            self.checker = None
        self.backend.unfollow(self)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _broadcast(self, audience: Audience, event: str | None) -> None:
        if audience.body is None or not audience.watchers:
            return
        frame = self._frame(audience, event)
        for watcher in audience.watchers:
            watcher.push(frame)

    def _frame(self, audience: Audience, event: str | None) -> bytes:
        metrics.FRAME_ENCODINGS.inc()
        assert audience.body is not None
        return views.frame(self.table_id, event, sorted(self.connected), audience.body)


def _is_over(body: bytes) -> bool:
    return _phase.decode(body).view.phase == "over"
