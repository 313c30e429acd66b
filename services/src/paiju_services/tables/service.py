"""The table service: the only writer of table logs.

It answers requests on ``paiju.tables.create`` and ``paiju.tables.<table>.<verb>`` in the queue
group ``paiju-tables``, so any number of copies can run; any copy serves any table. This module
is the copy's process: its requests, its sweeps, and the parts that do the work, each in a module
of its own, all of which change a table through one writer:

- ``tables.writer``: the table's lock, its log (loaded, caught up, decided on, appended to: a
  lost race reloads and decides again, a command id seen before appends nothing), its directory
  entry and its secret; the one way a table changes;
- ``tables.room``: create, join, bots, close, leave, rematch (the seats, the owner);
- ``tables.steps``: the table's own steps after every command (commit to a deal, deal, reveal the
  seed: each table's secret lives in the ``paiju_secrets`` bucket, never in the event stream, and
  the seed of hand ``n`` is the engine's ``hand_seed(secret, n)``, an HMAC of it), and the sweep
  that finishes the steps of any table a crashed copy left waiting;
- ``tables.offers``: a bot seat's turn offered to the bots service;
- ``tables.ending``: a match over, in the directory, the archive and the retirement's schedule;
- ``tables.clock``: the turn clocks (deadlines, 托管, the 继续 gate) and abandoned tables;
- ``tables.publish``: every audience's view after every append, and a reader's view now;
- ``tables.presence``: which seats a person is at (``paiju.presence.>``);
- ``tables.expiry``: open tables nobody fills in ``open_expiry``, removed, leaving nothing;
- ``tables.limit``: a command that would leave no room under ``max_events`` for the match's
  ending ends the match instead.

The sweeps go over the tables in play only: each copy keeps their directory entries in memory
from a watch of the ``paiju_tables`` bucket (``paiju_services.directory.InPlay``), so a sweep
neither lists the bucket nor reads the entry of a table that is open, finished or closed; the
retirement pass then deletes the retired tables kept ``keep_retired``
(``paiju_services.retention``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import msgspec
import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from paiju.errors import RuleError
from paiju.protocol import Command, decode
from paiju_services import metrics, periodic, subjects
from paiju_services.affinity import Announcer
from paiju_services.bus import Responder, refuse_if_late
from paiju_services.config import Settings
from paiju_services.directory import InPlay
from paiju_services.errors import SERVICE_BUSY, ServiceError
from paiju_services.logs import log
from paiju_services.messages import (
    AddBots,
    Archived,
    ArchiveWanted,
    CloseTable,
    CommandDone,
    CreateTable,
    HandsSoFar,
    HandsWanted,
    Health,
    Join,
    Joined,
    LeaveSeat,
    PublicState,
    Reply,
    SeatCommand,
    StartRematch,
    StateWanted,
    TableCreated,
    ViewNow,
    ViewWanted,
)
from paiju_services.store import EventStore
from paiju_services.streams import ensure_bots_consumer
from paiju_services.tablelog import LRU, hands_so_far, public_state
from paiju_services.tables.clock import Clock, client_check
from paiju_services.tables.ending import Ending
from paiju_services.tables.expiry import Expiry
from paiju_services.tables.offers import TurnOffers
from paiju_services.tables.presence import Seen
from paiju_services.tables.publish import Publisher
from paiju_services.tables.room import Room
from paiju_services.tables.steps import TableSteps
from paiju_services.tables.writer import TableWriter
from paiju_services.views import view_key

logger = logging.getLogger("paiju.tables")


class TableService:
    """One copy of the table service: its writer of every table, and the parts that drive it."""

    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext) -> None:
        self.settings = settings
        self.nc = nc
        self.js = js
        self.writer = writer = TableWriter(settings, nc, js)  # the tables' logs and entries
        self.responder = Responder(
            nc,
            subjects.TABLE_QUEUE,
            max_in_flight=settings.max_in_flight,
            max_wait=settings.max_wait,
        )
        self.announcer = Announcer(nc, settings.instance)
        self.sweeper: asyncio.Task[None] | None = None
        self.views = Publisher(writer)  # every audience's view after every append
        self.presence = Seen(writer, self.views)  # who is at which table
        self.ending = Ending(writer)  # the directory's ``finished``, the archive, the retirement
        self.offers = TurnOffers(writer)  # bot turns, to the bots service
        # turn clocks: deadlines, 托管, the 继续 gate; a fired deadline runs the table's steps
        self.clock = Clock(writer, self.views, self.presence.last_seen, self._run_steps)
        self.steps = TableSteps(writer, self.clock, self.offers, self.ending)
        self.room = Room(writer, self.steps, self.views, self.ending)
        self.expiry = Expiry(writer, self.ending.retirement)  # open tables nobody joins
        writer.on_append.append(self.views.appended)
        writer.on_over = self.ending.finish
        writer.on_forget.extend(
            [self.views.forget, self.presence.forget, self.offers.forget, self.clock.forget]
        )

    async def _run_steps(self, table_id: str) -> None:
        await self.steps.run(table_id)

    @property
    def store(self) -> EventStore:
        return self.writer.store

    @property
    def cache(self) -> LRU:
        return self.writer.cache

    @property
    def in_play(self) -> InPlay | None:
        return self.writer.in_play

    # --- lifecycle --------------------------------------------------------------------------------

    async def open(self) -> None:
        """Bind the KV buckets (``start`` does this; a test may use a copy without serving)."""
        await self.writer.open()

    async def start(self) -> None:
        await self.open()
        assert self.writer.in_play is not None
        await self.writer.in_play.start()  # before the sweeps, which wait for its first full read
        try:
            await ensure_bots_consumer(self.js, self.settings.bot_delay)  # the sweep keeps it
        except (nats.errors.Error, TimeoutError) as exc:  # the sweep makes it, then
            log(logger, "bots consumer not made", logging.WARNING, error=repr(exc))
        await self.responder.serve(subjects.TABLES_CREATE, self._dispatch)
        await self.responder.serve(subjects.TABLE_REQUESTS, self._dispatch)
        await self.responder.serve(
            subjects.held_requests(self.announcer.copy), self._dispatch, False
        )
        await self.responder.serve(subjects.HEALTH_TABLES, self._health, shed=False, keyless=True)
        self.announcer.start()  # the callers send this copy the tables it holds (affinity.py)
        passes = (self.sweep, self.retire_finished, self.keep_bots_consumer, self.expire_open)
        self.sweeper = asyncio.create_task(
            periodic.every(self.settings.sweep_interval, passes, logger)
        )
        await self.presence.start()
        await self.clock.start()
        log(logger, "table service ready", instance=self.settings.instance)

    async def stop(self) -> None:
        await self.announcer.stop()  # its tables go to the other copies at once
        await self.presence.stop()
        await self.clock.stop()
        self.offers.stop()
        if self.sweeper:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        if self.writer.in_play is not None:
            await self.writer.in_play.stop()
        await self.responder.stop()
        log(logger, "table service stopped", instance=self.settings.instance)

    async def _health(self, msg: Msg) -> Reply:
        return Health(instance=self.settings.instance, tables=len(self.writer.cache))

    async def _dispatch(self, msg: Msg) -> Reply:
        if msg.subject == subjects.TABLES_CREATE:
            return await self.create(msgspec.json.decode(msg.data, type=CreateTable))
        parts = msg.subject.split(".")  # paiju.tables.<table>.<verb>[.<this copy>]
        if len(parts) not in (4, 5) or not subjects.is_table_id(parts[2]):
            raise ServiceError("bad_request", detail=f"no such subject {msg.subject}")
        table_id, verb = parts[2], parts[3]
        if verb == "command":
            return await self.command(table_id, msgspec.json.decode(msg.data, type=SeatCommand))
        if verb == "join":
            return await self.join(table_id, msgspec.json.decode(msg.data, type=Join))
        if verb == "bots":
            return await self.room.add_bots(table_id, msgspec.json.decode(msg.data, type=AddBots))
        if verb == "close":
            return await self.room.close(table_id, msgspec.json.decode(msg.data, type=CloseTable))
        if verb == "leave":
            return await self.room.leave(table_id, msgspec.json.decode(msg.data, type=LeaveSeat))
        if verb == "rematch":
            return await self.room.rematch(
                table_id, msgspec.json.decode(msg.data, type=StartRematch)
            )
        if verb == "view":
            return await self.view(table_id, msgspec.json.decode(msg.data, type=ViewWanted))
        if verb == "state":
            return await self.public_state(
                table_id, msgspec.json.decode(msg.data, type=StateWanted)
            )
        if verb == "archive":
            msgspec.json.decode(msg.data, type=ArchiveWanted)
            return await self.archive_ended(table_id)
        if verb == "hands":
            msgspec.json.decode(msg.data, type=HandsWanted)
            return await self.hands(table_id)
        raise ServiceError("bad_request", detail=f"no such verb {verb!r}")

    # --- the room (tables/room.py) ------------------------------------------------------------

    async def create(self, req: CreateTable) -> TableCreated:
        return await self.room.create(req)

    async def join(self, table_id: str, req: Join) -> Joined:
        return await self.room.join(table_id, req)

    # --- what a reader may see -----------------------------------------------------------------
    # A read works on a snapshot (``snapshot``) and changes nothing: neither the cached log, which
    # only the command path changes under the table's lock, nor which tables are cached.

    async def view(self, table_id: str, req: ViewWanted) -> ViewNow:
        """An audience's view now: a seat's (its token's) sealed with its view key, else the
        spectators'. What a gateway asks when it starts a feed or missed a pushed view."""
        seat = None if req.token is None else await self.writer.authenticate(table_id, req.token)
        key = None if req.token is None else view_key(req.token)
        async with self.writer.lock(table_id):  # the writer's memory of what it published
            table = await self.writer.snapshot(table_id)
            missed, now = await self.views.answer(table, seat, key, req.after)
        return ViewNow(seat=seat, missed=missed, now=now)

    async def public_state(self, table_id: str, req: StateWanted) -> PublicState:
        """A spectator's view of the table after its first ``at`` events, from this copy's
        memory (the log replayed up to there)."""
        if req.at is not None and not 0 <= req.at <= self.settings.max_events:
            raise ServiceError("bad_index", max=self.settings.max_events)
        return public_state(await self.writer.snapshot(table_id), req.at)

    async def hands(self, table_id: str) -> HandsSoFar:
        """Every hand scored so far, with the running totals (public as each hand ends)."""
        return hands_so_far(await self.writer.snapshot(table_id))

    async def archive_ended(self, table_id: str) -> Archived:
        """An ended table's log into the archive now (a gateway asks when it finds none there).

        Raises:
            ServiceError: ``not_finished``; ``unavailable`` when the archive could not be written.
        """
        table = await self.writer.snapshot(table_id)
        if not table.over:
            raise ServiceError("not_finished")
        if not await self.ending.retirement().archive(table_id):
            raise ServiceError("unavailable")
        return Archived(events=table.version)

    # --- commands ------------------------------------------------------------------------------

    async def command(self, table_id: str, req: SeatCommand) -> CommandDone:
        t0 = time.perf_counter()
        outcome = "failed"
        try:
            done = await self._command(table_id, req, t0)
            outcome = "duplicate" if done.duplicate else "accepted"
            return done
        except (RuleError, ServiceError) as exc:
            refused = not isinstance(exc, ServiceError) or exc.code not in SERVICE_BUSY
            outcome = "refused" if refused else "failed"
            raise
        finally:
            metrics.COMMANDS.labels(outcome).inc()
            metrics.COMMAND_SECONDS.observe(time.perf_counter() - t0)
            metrics.HOT_TABLES.set(len(self.writer.cache))

    async def _command(self, table_id: str, req: SeatCommand, t0: float) -> CommandDone:
        if not subjects.COMMAND_ID.fullmatch(req.id):
            raise ServiceError("bad_request", detail="a command id is 1-64 of A-Z a-z 0-9 _ . : -")
        seat = await self.writer.authenticate(table_id, req.token)
        message = decode(req.command)  # RuleError: unknown_command, bad_command
        if not isinstance(message, Command) or getattr(message, "seat", None) is None:
            raise ServiceError("forbidden_command", command=message.TYPE)
        if message.seat != seat:  # type: ignore[attr-defined]
            raise ServiceError("not_your_seat", seat=message.seat)  # type: ignore[attr-defined]
        client_check(message)  # an automatic play is the service's own
        command_id = f"seat{seat}.{req.id}"
        self.presence.act(table_id)
        async with self.writer.lock(table_id):
            refuse_if_late()  # overloaded: it waited too long behind the table's other requests
            await self.steps.run(table_id)  # a table a crashed copy left waiting, first
            done = await self.writer.execute(
                table_id, lambda t: (command_id, message), client_id=req.id
            )
            assert done is not None
            if not done.duplicate:
                await self.steps.run(table_id)
        log(
            logger,
            "command",
            logging.DEBUG if done.retries == 0 else logging.INFO,  # a line per move: DEBUG
            table=table_id,
            id=req.id,
            seat=seat,
            type=message.TYPE,
            duplicate=done.duplicate,
            index=done.index,
            events=done.count,
            retries=done.retries,
            ms=round((time.perf_counter() - t0) * 1000, 2),
        )
        return done

    async def keep_bots_consumer(self) -> None:
        """The bots service's consumer of the turns, made again if it is gone (the bots user may
        not make or delete it: access.py); the bots back off until it is back."""
        if await ensure_bots_consumer(self.js, self.settings.bot_delay):
            log(logger, "bots consumer was gone: made again", logging.WARNING)

    async def retire_finished(self) -> int:
        """Retire the tables finished ``retire_after`` seconds ago or more (what is scheduled,
        never a listing of the directory), then delete those retired ``keep_retired`` ago
        (paiju_services.retention); returns how many were retired."""
        return await self.ending.retire_finished()

    async def expire_open(self) -> int:
        """End the open tables nobody joined for ``open_expiry`` seconds, and forget them
        (tables/expiry.py); returns how many were due."""
        return await self.expiry.run()

    async def sweep(self) -> int:
        """Run the steps of every table in play (``tables.steps``); returns how many tables were
        looked at."""
        return await self.steps.sweep()
