"""The table service: the only writer of table logs.

It answers requests on ``paiju.tables.create`` and
``paiju.tables.<table>.{join,command,bots,close,leave,rematch}`` in the queue group
``paiju-tables``, so any number of copies can run; any copy serves any table. A table's creator
holds its owner token (only its sha256 is in the directory): only he may fill seats with bots or
close the table before it starts.
For a command it loads the table (from memory, or by replaying its subject), runs the engine's
``decide``, and appends the events with the subject's last sequence as the expected one. A lost
race (another copy appended first) reloads the table and decides again; a command id seen before
is answered as a duplicate and appends nothing.

After every command it runs the table's own steps (commit to a deal, deal, reveal the seed) with
``paiju.simulate.table_command``. Each table's secret lives in the ``paiju_secrets`` KV bucket,
never in the event stream, so any copy can deal and reveal. The seed of hand ``n`` is the
engine's ``hand_seed(secret, n)``, an HMAC of the secret: revealing one hand's seed tells nothing
of the next.

A sweeper finishes the table steps of any table a crashed copy left waiting (e.g. a hand scored
but its seed not yet revealed), at start and every ``sweep_interval`` seconds. It, and the clock's
sweep, go over the tables in play only: each copy keeps their directory entries in memory from a
watch of the ``paiju_tables`` bucket (``paiju_services.directory.InPlay``), so a sweep neither lists
the bucket nor reads the entry of a table that is open, finished or closed. The same index keeps
the open tables apart, for their expiry (``tables.expiry``: one nobody fills in ``open_expiry`` is
removed, leaving nothing); the retirement pass then deletes the retired tables kept
``keep_retired`` (``paiju_services.retention``).

A command whose events would leave no room under ``max_events`` for the match's ending ends the
match instead, with a result (``tables.limit``).

Presence: every copy listens to ``paiju.presence.>`` (the gateway copies say which seats hold a
socket, each with a proof made with its token's view key: an unproven one is ignored) and keeps,
in memory, when each human seat of a table was last seen connected; the clock's
sweep ends a playing table nobody has been connected to for ``abandon_after`` seconds
(``tables.clock``, "Abandoned tables").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import secrets
import time
from typing import Any

import msgspec
import nats.js.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from paiju import api
from paiju.errors import RuleError
from paiju.protocol import Close, Command, SetAuto, decode
from paiju.simulate import table_command
from paiju_services import metrics, subjects
from paiju_services.affinity import Announcer
from paiju_services.archive import ENDED, Retirement
from paiju_services.backoff import Backoff
from paiju_services.bus import Responder, refuse_if_late, request
from paiju_services.config import Settings
from paiju_services.deadlines import table_clock_of
from paiju_services.directory import InPlay
from paiju_services.errors import SERVICE_BUSY, RemoteError, ServiceError, short
from paiju_services.inputs import clean_name
from paiju_services.logs import log
from paiju_services.messages import (
    AddBots,
    Archived,
    ArchiveWanted,
    BotsAdded,
    BotTurn,
    CloseTable,
    CommandDone,
    CreateTable,
    FillSeats,
    HandsSoFar,
    HandsWanted,
    Health,
    Join,
    Joined,
    LeaveSeat,
    Presence,
    PublicState,
    RematchStarted,
    Reply,
    Seat,
    SeatCommand,
    SeatLeft,
    SeatsFilled,
    StartRematch,
    StateWanted,
    TableClosed,
    TableCreated,
    TableMeta,
    ViewNow,
    ViewWanted,
    encoder,
)
from paiju_services.store import EventStore, StoreError, ensure_bots_consumer
from paiju_services.tablelog import (
    LRU,
    TableLog,
    hands_so_far,
    public_state,
)
from paiju_services.tables import checks, ids
from paiju_services.tables import clock as clocks
from paiju_services.tables import expiry as expiries
from paiju_services.tables.publish import Publisher
from paiju_services.tables.writer import Entry, TableWriter, step_id
from paiju_services.tokens import token_hash
from paiju_services.views import view_key

logger = logging.getLogger("paiju.tables")

TURN_REOFFER = 15.0  # seconds: the sweep offers a bot's turn nobody took again after so long
# waits before a failed offer is made again, doubling from 0.2 s up to 5 s (then the sweep's
# re-offer takes over)
OFFER_RETRY = Backoff(base=0.2, cap=5.0)
OFFER_RETRIES = 6  # failed offers of one turn retried at once, before the sweep's turn
MAX_STEPS = 16  # table steps after one command (commit, deal, reveal, ... of a short match)


class TableService:
    """One copy of the table service: its writer of every table, and the parts that drive it."""

    retirement: Retirement | None = None  # of finished tables, made at first use

    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext) -> None:
        self.settings = settings
        self.nc = nc
        self.js = js
        self.writer = TableWriter(settings, nc, js)  # the tables' logs and entries (writer.py)
        self.responder = Responder(
            nc,
            subjects.TABLE_QUEUE,
            max_in_flight=settings.max_in_flight,
            max_wait=settings.max_wait,
        )
        self.announcer = Announcer(nc, settings.instance)
        self.sweeper: asyncio.Task[None] | None = None
        self.views = Publisher(self.writer)  # every audience's view after every append (views.py)
        self.clock = clocks.Clock(self.writer, self.views, self.last_seen, self._steps)
        self.expiry = expiries.Expiry(self.writer, self._retirement)  # open tables nobody joins
        # bot turns: table → (version, when this copy first saw the bot's turn there waiting);
        # a failed offer's retry, per table (``_offer_turn``)
        self.turns: dict[str, tuple[int, float]] = {}
        self.offer_retries: dict[str, asyncio.Task[None]] = {}
        # presence, in memory: table → seat → when a gateway copy last said it holds a socket
        # for it; table → when this copy last handled a seat's own command. A restart forgets
        # both and counts from its start (``started``): that only delays an abandonment.
        self.seen: dict[str, dict[int, float]] = {}
        self.acted: dict[str, float] = {}
        self.started = time.time()
        self.presence_sub: Any = None
        self.writer.on_append.append(self.views.appended)
        self.writer.on_over = self._finish
        self.writer.on_forget.append(self._forgot)

    @property
    def store(self) -> EventStore:
        return self.writer.store

    @property
    def cache(self) -> LRU:
        return self.writer.cache

    @property
    def in_play(self) -> InPlay | None:
        return self.writer.in_play

    def _forgot(self, table_id: str, meta: TableMeta | None) -> None:
        """What the service's parts keep of an ended table goes (``TableWriter.forget``)."""
        self.views.forget(table_id, meta)
        self.seen.pop(table_id, None)
        self.acted.pop(table_id, None)
        self.turns.pop(table_id, None)
        self.clock.forget(table_id)

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
        self.sweeper = asyncio.create_task(self._sweep_forever())
        self.presence_sub = await self.nc.subscribe(subjects.PRESENCE_ALL, cb=self._on_presence)
        await self.clock.start()
        log(logger, "table service ready", instance=self.settings.instance)

    async def stop(self) -> None:
        await self.announcer.stop()  # its tables go to the other copies at once
        if self.presence_sub is not None:
            with contextlib.suppress(Exception):
                await self.presence_sub.unsubscribe()
        await self.clock.stop()
        for task in list(self.offer_retries.values()):
            task.cancel()
        if self.sweeper:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        if self.writer.in_play is not None:
            await self.writer.in_play.stop()
        await self.responder.stop()
        log(logger, "table service stopped", instance=self.settings.instance)

    async def _on_presence(self, msg: Msg) -> None:
        """A gateway copy's presence message: its seats are seen connected now, each that comes
        with a proof made with its token's view key (``views.presence_proof``; anyone with the
        gateway's NATS credentials may publish here). Only a table in play is looked at."""
        table_id = subjects.table_of(msg.subject)
        try:
            said = msgspec.json.decode(msg.data, type=Presence)
        except msgspec.DecodeError:
            return
        listed = (
            self.writer.in_play.tables.get(table_id) if self.writer.in_play is not None else None
        )
        if listed is None or not said.seats:
            return
        if table_id not in self.seen and len(self.seen) > 16 * self.settings.cache_tables:
            self.seen.clear()  # bounded memory: forgetting only delays an abandonment
        now = time.time()
        seats = self.seen.setdefault(table_id, {})
        proofs = (said.proofs + [""] * len(said.seats))[: len(said.seats)]  # one a seat
        for seat, proof in list(zip(said.seats, proofs, strict=True))[:64]:
            if await self.views.proves(listed.meta, seat, proof, now):
                seats[seat] = now
            else:
                metrics.PRESENCE_UNPROVEN.inc()

    def last_seen(self, table_id: str) -> float:
        """The last sign of a person at the table that this copy knows: a seat seen connected,
        a seat's own command, or this copy's start."""
        seats = self.seen.get(table_id, {})
        return max([self.started, self.acted.get(table_id, 0.0), *seats.values()])

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
            return await self.add_bots(table_id, msgspec.json.decode(msg.data, type=AddBots))
        if verb == "close":
            return await self.close(table_id, msgspec.json.decode(msg.data, type=CloseTable))
        if verb == "leave":
            return await self.leave(table_id, msgspec.json.decode(msg.data, type=LeaveSeat))
        if verb == "rematch":
            return await self.rematch(table_id, msgspec.json.decode(msg.data, type=StartRematch))
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

    # --- create, join, bots --------------------------------------------------------------------

    async def create(self, req: CreateTable) -> TableCreated:
        """A new table. With a request id the table's id is derived from it, and every step is
        create-if-absent (the secret, the directory entry, the first append on an empty subject),
        so a retry, even one racing the first try on another copy, finishes and names one table."""
        try:
            config = api.make_config(req.game, req.variant, req.players, req.options)
        except (ValueError, TypeError) as exc:
            raise ServiceError("bad_config", detail=short(exc)) from exc
        hands = getattr(config.options, "hands", None)
        if isinstance(hands, int) and hands > self.settings.max_hands:
            raise ServiceError("too_many_hands", limit=self.settings.max_hands)
        checks.check_config(config, req.options)
        fingerprint = None if req.request_id is None else ids.request_digest(req)
        table_id = (
            secrets.token_hex(8) if req.request_id is None else ids.created_table_id(req.request_id)
        )
        secret = await self.writer.new_secret(table_id)
        meta = TableMeta(
            id=table_id,
            config=msgspec.to_builtins(config.to_dict()),
            created_at=time.time(),
            seats=[Seat() for _ in range(config.players)],
            request_digest=fingerprint,
            owner_sha256=token_hash(ids.owner_token(secret, table_id)),
            clock=table_clock_of(config.game, req.clock),
        )
        try:
            revision = await self.writer.tables_kv.create(table_id, encoder.encode(meta))
        except nats.js.errors.KeyWrongLastSequenceError:
            try:
                entry = await self.writer.meta(table_id, fresh=True)
            except ServiceError as exc:  # there, yet not found: a replica behind; retryable
                if exc.code != "table_not_found":
                    raise  # table_expired: a retry of a create whose table nobody joined
                raise StoreError(f"create {table_id}: {exc}") from exc
            if req.request_id is None:  # two random ids alike: never seen, but not a retry
                raise ServiceError("conflict") from None
            if entry.meta.request_digest != fingerprint:
                raise ServiceError("id_reused", id=req.request_id) from None
            meta, revision = entry.meta, entry.revision  # a retry: finish what the first began
        self.writer.metas[table_id] = Entry(meta, revision)
        await self.writer.append_first(table_id, config, secret, retry=req.request_id is not None)
        log(logger, "table created", table=table_id, config=meta.config)
        return TableCreated(table=table_id, owner_token=ids.owner_token(secret, table_id))

    async def join(self, table_id: str, req: Join) -> Joined:
        """A seat and its token. With a request id the seat records the id's hash and the token
        is derived from the id, so a retry finds its seat and answers the same seat and token."""
        name = clean_name(req.name)
        if req.seed is not None and not 1 <= len(req.seed) <= 128:
            raise RuleError("bad_seed")
        request_hash = fingerprint = None
        if req.request_id is None:
            token = secrets.token_urlsafe(24)
        else:
            request_hash = token_hash(f"{table_id}/{req.request_id}")
            fingerprint = ids.request_digest(req)
            try:
                token = ids.join_token(await self.writer.secret(table_id), req.request_id)
            except nats.js.errors.KeyNotFoundError:
                raise ServiceError("table_not_found", table=table_id) from None
        while True:
            entry = await self.writer.meta(table_id, fresh=True)
            seats = entry.meta.seats
            if entry.meta.status == "closed":
                raise ServiceError("table_closed")
            mine = [
                i for i, s in enumerate(seats) if request_hash and s.request_sha256 == request_hash
            ]
            if mine:  # a retry: the seat this request took the first time
                if seats[mine[0]].request_digest != fingerprint:
                    raise ServiceError("id_reused", id=req.request_id)
                seat = mine[0]
                log(logger, "join repeated", table=table_id, seat=seat)
                break
            if req.seat is not None:
                if not 0 <= req.seat < len(seats):
                    raise ServiceError("no_such_seat", seat=req.seat)
                if seats[req.seat].kind != "empty":
                    raise ServiceError("seat_taken", seat=req.seat)
                seat = req.seat
            else:
                free = [i for i, s in enumerate(seats) if s.kind == "empty"]
                if not free:
                    raise ServiceError("table_full")
                seat = free[0]
            seats[seat] = Seat(
                kind=req.kind,
                name=name,
                token_sha256=token_hash(token),
                joined_at=time.time(),
                request_sha256=request_hash,
                request_digest=fingerprint,
            )
            if ids.seats_ready(seats):
                entry.meta.status = "playing"
            if not await self.writer.update(entry):
                continue  # another join (or this one's retry) won: read the seats again
            log(logger, "seat taken", table=table_id, seat=seat, kind=req.kind)
            break
        if req.kind == "bot":  # the bots service reads it there, before the bot's first turn
            await self.writer.bot_tokens_kv.put(f"{table_id}.{seat}", token.encode())
        await self.views.remember(table_id, token)  # its views' key (a retry: the same)
        async with self.writer.lock(table_id):
            if req.seed is not None:
                seed = req.seed

                def add_seed(t: TableLog) -> tuple[str, Command] | None:
                    if t.state.phase != "seeding":
                        return None  # the deal came first (another seat filled the table)
                    return f"seed.{seat}", decode({"type": "add_seed", "seat": seat, "seed": seed})  # type: ignore[return-value]

                await self.writer.execute(table_id, add_seed)
            await self._steps(table_id)
        return Joined(seat=seat, token=token)

    async def add_bots(self, table_id: str, req: AddBots) -> BotsAdded:
        """Bots in empty seats: the owner's request only (``not_owner``, nothing changes)."""
        entry = await self.writer.meta(table_id, fresh=True)
        if not ids.is_owner(entry.meta, req.owner_token):
            raise ServiceError("not_owner", action="fill seats with bots")
        if entry.meta.status == "closed":
            raise ServiceError("table_closed")
        return await self._fill_bots(table_id, entry, req.seats)

    async def _fill_bots(self, table_id: str, entry: Entry, only: list[int] | None) -> BotsAdded:
        seats = entry.meta.seats
        empty = [i for i, s in enumerate(seats) if s.kind == "empty"]
        wanted = empty if only is None else sorted(set(only))
        for seat in wanted:
            if not 0 <= seat < len(seats):
                raise ServiceError("no_such_seat", seat=seat)
            if seat not in empty:
                raise ServiceError("seat_taken", seat=seat)
        if not wanted:
            raise ServiceError("table_full")
        filled = await request(
            self.nc,
            subjects.BOTS_FILL,
            FillSeats(table=table_id, seats=wanted),
            SeatsFilled,
            timeout=self.settings.request_timeout,
            unavailable="bots_unavailable",
        )
        return BotsAdded(seats=filled.seats)

    # --- owner, leave, rematch -----------------------------------------------------------------
    # These change the directory only, each as one compare-and-set of the table's entry (a race
    # with a join reads the seats again); the log has no event for a seat taken or left before
    # the deal, as it has none for a join.

    async def close(self, table_id: str, req: CloseTable) -> TableClosed:
        """The owner closes an open table before its match starts: ``table_closed`` and
        ``match_ended`` in its log, then status ``closed`` (it leaves the live list; nobody may
        join it any more). Closing a closed table answers the same."""
        for _ in range(self.settings.max_retries):
            entry = await self.writer.meta(table_id, fresh=True)
            meta = entry.meta
            if not ids.is_owner(meta, req.owner_token):
                raise ServiceError("not_owner", action="close the table")
            if meta.status == "closed":
                return TableClosed(status="closed")
            if meta.status != "open":
                raise ServiceError("match_started", action="it can no longer be closed")
            # the log says so first (table_closed, match_ended), then the directory
            await self.writer.execute(table_id, lambda t: None if t.over else ("close", Close()))
            await self.archive(table_id)
            meta.status = "closed"
            meta.finished_at = time.time()
            await self.schedule_retirement(table_id, meta.finished_at)
            if await self.writer.update(entry):
                log(logger, "table closed", table=table_id)
                return TableClosed(status="closed")
        raise ServiceError("conflict")

    async def leave(self, table_id: str, req: LeaveSeat) -> SeatLeft:
        """A seat given up. Before the match starts it is empty again (the directory only).
        During the match 托管 plays it to the end: the log gets ``set_auto`` on (``left``), then
        the directory marks the seat ``left`` and forgets its token. A retry of a leave that
        happened answers the same seat, as does a retry after a lost answer (the log's event is
        found by its command id, ``left.<seat>``). After the match the seat is marked left with no
        event (the log is closed): 再来一局 opens it again."""
        digest = token_hash(req.token)
        for _ in range(self.settings.max_retries):
            entry = await self.writer.meta(table_id, fresh=True)
            meta = entry.meta
            seat = meta.seat_holding(digest)
            if seat is None:
                for item in meta.left:
                    number, _, left = item.partition(":")
                    if hmac.compare_digest(left, digest):
                        return SeatLeft(seat=int(number))
                raise ServiceError("unauthorized")
            if meta.status == "closed":
                raise ServiceError("table_closed")
            started = meta.status != "open"
            if started:
                await self._leave_match(table_id, seat)
                meta.seats[seat].left = True
                meta.seats[seat].token_sha256 = None
                meta.seats[seat].waiting = False
            else:
                meta.seats[seat] = Seat()
            meta.left = [*meta.left, f"{seat}:{digest}"][-64:]
            if await self.writer.update(entry):
                log(logger, "seat left", table=table_id, seat=seat, started=started)
                if meta.status == "playing":
                    async with self.writer.lock(table_id):
                        await self._steps(table_id)  # the 继续 gate no longer waits for it
                return SeatLeft(seat=seat)
        raise ServiceError("conflict")

    async def _leave_match(self, table_id: str, seat: int) -> None:
        """The log's side of leaving during the match: ``set_auto`` on (``left``), once (command
        id ``left.<seat>``; a seat whose leave is in the log already appends nothing). A match
        already over appends nothing either: the seat's token is forgotten all the same."""

        def plan(t: TableLog) -> tuple[str, Command] | None:
            if t.over or seat in t.state.left:
                return None
            return f"left.{seat}", SetAuto(seat=seat, on=True, reason="left")

        async with self.writer.lock(table_id):
            await self.writer.execute(table_id, plan)

    async def rematch(self, table_id: str, req: StartRematch) -> RematchStarted:
        """再来一局: a new table linked to this finished one, with the same game, variant, players
        and options; its id is derived from this one's, so every player who presses lands at the
        same table. The humans keep their seats and their tokens (the new entry holds the same
        token hashes), bots sit where bots sat, and the deal waits until every human seat has
        pressed (``waiting``). Every step is create-if-absent or a compare-and-set: a retry, or
        two players pressing at once on two copies, finish one table."""
        old = await self.writer.meta(table_id, fresh=True)
        digest = token_hash(req.token)
        seat = old.meta.seat_holding(digest)
        if seat is None:
            raise ServiceError("unauthorized")
        if old.meta.status != "finished":
            table = await self.writer.snapshot(table_id)
            if not table.over:
                raise ServiceError("not_finished")
            await self._finish(table)  # the match's last event came before its directory entry
            old = await self.writer.meta(table_id, fresh=True)
        new_id = ids.rematch_table_id(table_id)
        secret = await self.writer.new_secret(new_id)
        now = time.time()
        meta = TableMeta(
            id=new_id,
            config=old.meta.config,
            created_at=now,
            seats=[
                Seat(kind="human", name=s.name, token_sha256=s.token_sha256, joined_at=now)
                if s.kind == "human" and not s.left
                else Seat()  # a bot's seat (its bot sits again below), or one whose player left
                for s in old.meta.seats
            ],
            owner_sha256=old.meta.owner_sha256,
            rematch_of=table_id,
            clock=old.meta.clock,  # the same turn clock as the match before
        )
        for s in meta.seats:
            s.waiting = s.kind == "human"
        with contextlib.suppress(nats.js.errors.KeyWrongLastSequenceError):  # pressed before
            await self.writer.tables_kv.create(new_id, encoder.encode(meta))
            log(logger, "rematch opened", table=new_id, rematch_of=table_id)
        config = api.config_from_dict(old.meta.config)
        await self.writer.append_first(new_id, config, secret, retry=True)
        for _ in range(self.settings.max_retries):  # the old table names its rematch
            if old.meta.rematch == new_id:
                break
            old.meta.rematch = new_id
            if await self.writer.update(old):
                break
            old = await self.writer.meta(table_id, fresh=True)
        entry = await self.writer.meta(new_id, fresh=True)
        bots = [
            i
            for i, s in enumerate(old.meta.seats)
            if s.kind == "bot" and entry.meta.seats[i].kind == "empty"
        ]
        if bots and entry.meta.status == "open":
            try:
                await self._fill_bots(new_id, entry, bots)
            except RemoteError as exc:  # another press seated them meanwhile
                if exc.error.code not in ("seat_taken", "table_full"):
                    raise
            except ServiceError as exc:
                if exc.code not in ("seat_taken", "table_full"):
                    raise
        waiting = await self._press(new_id, seat, digest, old.meta.seats[seat].name)
        await self.views.remember(new_id, req.token)  # the seat's views there, before the deal
        async with self.writer.lock(new_id):
            await self._steps(new_id)  # the deal, once nobody waits
        return RematchStarted(table=new_id, seat=seat, waiting=waiting)

    async def _press(self, table_id: str, seat: int, digest: str, name: str | None) -> list[int]:
        """The player of ``seat`` pressed 再来一局 at the rematch table: his seat stops waiting
        (or, if he left it and it is still empty, he sits there again). The seats still waiting.

        Raises:
            ServiceError: ``seat_taken`` (he left it and another took it), ``table_closed``.
        """
        for _ in range(self.settings.max_retries):
            entry = await self.writer.meta(table_id, fresh=True)
            meta = entry.meta
            if meta.status == "closed":
                raise ServiceError("table_closed")
            mine = meta.seats[seat]
            if mine.token_sha256 is None or not hmac.compare_digest(mine.token_sha256, digest):
                if mine.kind != "empty" or meta.status != "open":
                    raise ServiceError("seat_taken", seat=seat)
                meta.seats[seat] = Seat(
                    kind="human", name=name, token_sha256=digest, joined_at=time.time()
                )
            elif not mine.waiting:
                return [i for i, s in enumerate(meta.seats) if s.waiting]
            meta.seats[seat].waiting = False
            if meta.status == "open" and ids.seats_ready(meta.seats):
                meta.status = "playing"
            if await self.writer.update(entry):
                log(logger, "rematch pressed", table=table_id, seat=seat)
                return [i for i, s in enumerate(meta.seats) if s.waiting]
        raise ServiceError("conflict")

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
        if not await self._retirement().archive(table_id):
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
        clocks.client_check(message)  # an automatic play is the service's own
        command_id = f"seat{seat}.{req.id}"
        if table_id not in self.acted and len(self.acted) > 16 * self.settings.cache_tables:
            self.acted.clear()  # bounded memory: forgetting only delays an abandonment
        self.acted[table_id] = time.time()
        async with self.writer.lock(table_id):
            refuse_if_late()  # overloaded: it waited too long behind the table's other requests
            await self._steps(table_id)  # a table a crashed copy left waiting, first
            done = await self.writer.execute(
                table_id, lambda t: (command_id, message), client_id=req.id
            )
            assert done is not None
            if not done.duplicate:
                await self._steps(table_id)
        log(
            logger,
            "command",
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

    # --- the table's own steps ---------------------------------------------------------------

    def _step(self, table_id: str, table: TableLog, *, full: bool) -> tuple[str, Command] | None:
        state = table.state
        if state.phase == "seeding" and not full:
            return None  # the deal waits for every seat to be taken
        if self.clock.holds(table_id, state):
            return None  # the next hand waits for 继续 (or its deadline)
        command = table_command(state, self.writer.secrets[table_id])  # per-hand seeds: HMAC of it
        return None if command is None else (step_id(state, command), command)

    async def _steps(self, table_id: str, again: bool = False) -> None:
        """Run the table's steps until a seat is to act or the match is over (caller holds the
        table's lock); a bot seat to act is offered its turn (``again``: the sweep offers it once
        more, a minute on, if nobody took it)."""
        self.clock.poke(table_id, hurry=not again)  # its deadline, once the lock is free
        table = await self.writer.table(table_id)
        if table.over:
            await self._finish(table)
            return
        await self.writer.secret(table_id)
        await self.writer.meta(table_id)  # the seats, for the 继续 gate (clock.holds)
        for _ in range(MAX_STEPS):
            full = True
            if table.state.phase == "seeding":
                entry = await self.writer.meta(table_id, fresh=True)
                full = ids.seats_ready(entry.meta.seats)
            done = await self.writer.execute(
                table_id, functools.partial(self._step, table_id, full=full)
            )
            if done is None:
                break
            log(
                logger,
                "table step",
                table=table_id,
                index=done.index,
                events=done.count,
                version=done.version,
            )
            table = await self.writer.table(table_id)
        if table.over:
            await self._finish(table)
        else:
            await self._offer_turn(table, again)

    async def _offer_turn(self, table: TableLog, again: bool, attempt: int = 0) -> None:
        """If a bot seat is to act, offer its turn to the bots service (``paiju.turns.<table>``):
        the seat's view and nothing more, so the bots service reads no log and holds no card its
        seats may not see. Offered once per version (the message id ``<table>:turn:<version>``).

        A failed offer (the turn stream electing its leader: no responders, a timeout, "message
        id in process") is made again with the same id at once, backing off with jitter
        (``_offer_later``), up to ``OFFER_RETRIES`` times; the same id, because a timed-out offer
        may have been stored, and then the stream drops the repeat. The sweep (``again``) makes
        the offer once more, under an id of its own, when this copy has seen the turn waiting for
        ``TURN_REOFFER`` seconds (after reading the table's log: a copy's memory may be behind):
        an offer the bots took but did not play, or one lost with a node, is never lost for good.
        """
        seat = api.to_move(table.state)
        entry = self.writer.metas.get(table.table_id)
        if seat is None or entry is None or not table.settled:
            return
        if seat >= len(entry.meta.seats) or entry.meta.seats[seat].kind != "bot":
            return
        msg_id = f"{table.table_id}:turn:{table.version}"
        if again:
            if table.table_id in self.offer_retries:
                return  # a failed offer is being made again already
            waiting = self._turn_waiting(table)
            if waiting >= TURN_REOFFER:
                if await self.writer.store.last_seq(table.table_id) != table.last_seq:
                    await self.writer.reload(table)  # behind (a copy that does not hold the table)
                    return  # the next sweep looks at the table as it is
                msg_id += f":{int(time.time() // TURN_REOFFER)}"
                log(logger, "turn offered again", table=table.table_id, waited=round(waiting, 1))
        turn = BotTurn(
            table=table.table_id,
            seat=seat,
            version=table.version,
            config=table.config.to_dict(),
            view=table.view(seat),
        )
        try:
            await self.js.publish(
                subjects.turns_subject(table.table_id),
                encoder.encode(turn),
                timeout=self.settings.request_timeout,
                headers={"Nats-Msg-Id": msg_id},
            )
        except (nats.errors.Error, TimeoutError) as exc:
            log(
                logger,
                "turn not offered",
                logging.WARNING,
                table=table.table_id,
                version=table.version,
                attempt=attempt,
                error=short(f"{type(exc).__name__}: {exc}"),
            )
            if not again and attempt < OFFER_RETRIES:
                self._offer_later(table.table_id, table.version, attempt + 1)

    def _turn_waiting(self, table: TableLog) -> float:
        """Seconds this copy has seen the bot's turn at ``table``'s version waiting."""
        now = time.time()
        seen = self.turns.get(table.table_id)
        if seen is None or seen[0] != table.version:
            if len(self.turns) > 4 * self.settings.cache_tables:
                self.turns.clear()  # bounded: forgetting only delays a re-offer
            self.turns[table.table_id] = seen = (table.version, now)
        return now - seen[1]

    def _offer_later(self, table_id: str, version: int, attempt: int) -> None:
        """Offer the turn at ``version`` again after a back-off, if the table is still there."""

        async def later() -> None:
            await asyncio.sleep(OFFER_RETRY.delay(attempt - 1))
            async with self.writer.lock(table_id):
                table = self.writer.cache.get(table_id)
                if table is not None and table.version == version and not table.over:
                    await self._offer_turn(table, again=False, attempt=attempt)

        earlier = self.offer_retries.get(table_id)
        if earlier is not None and earlier is not asyncio.current_task() and not earlier.done():
            earlier.cancel()  # of an older version: this one replaces it
        self.offer_retries[table_id] = task = asyncio.create_task(later())
        task.add_done_callback(lambda t: self._offer_retried(table_id, t))

    def _offer_retried(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self.offer_retries.get(table_id) is task:
            del self.offer_retries[table_id]
        if not task.cancelled() and task.exception() is not None:
            log(
                logger,
                "turn not offered",
                logging.WARNING,
                table=table_id,
                error=short(repr(task.exception())),
            )

    async def _finish(self, table: TableLog) -> None:
        """The directory says the match is over: status ``finished``, its totals and when, once
        (a table another copy finished, or its owner closed, keeps its entry). Its retirement is
        scheduled first (paiju_services.archive): a crash between the two leaves a table the
        sweep finishes again, never one finished but missing from the schedule."""
        entry = await self.writer.meta(table.table_id)
        if entry.meta.status in ENDED:
            self.writer.forget(table.table_id)
            return
        await self.archive(table.table_id)
        for _ in range(10):
            entry = await self.writer.meta(table.table_id, fresh=True)
            if entry.meta.status in ENDED:
                return
            finished_at = time.time()
            await self.schedule_retirement(table.table_id, finished_at)
            entry.meta.status = "finished"
            entry.meta.totals = list(table.state.totals)
            entry.meta.finished_at = finished_at
            if not await self.writer.update(entry):
                continue
            log(logger, "table finished", table=table.table_id, totals=entry.meta.totals)
            self.writer.forget(table.table_id)
            return

    async def archive(self, table_id: str) -> None:
        """An ended table's log into the archive now (the gateway reads ended logs there); a
        failure is logged: the gateway asks again (``paiju.tables.<table>.archive``)."""
        try:
            await self._retirement().archive(table_id)
        except Exception as exc:
            log(logger, "archive failed", logging.WARNING, table=table_id, error=repr(exc))

    async def _sweep_forever(self) -> None:
        while True:
            for work in (
                self.sweep,
                self.retire_finished,
                self.keep_bots_consumer,
                self.expire_open,
            ):
                try:
                    await work()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log(
                        logger, "sweep failed", logging.WARNING, work=work.__name__, error=repr(exc)
                    )
            await asyncio.sleep(self.settings.sweep_interval)

    async def keep_bots_consumer(self) -> None:
        """The bots service's consumer of the turns, made again if it is gone (the bots user may
        not make or delete it: access.py); the bots back off until it is back."""
        if await ensure_bots_consumer(self.js, self.settings.bot_delay):
            log(logger, "bots consumer was gone: made again", logging.WARNING)

    # --- retirement (paiju_services.archive) ------------------------------------------------

    def _retirement(self) -> Retirement:
        if self.retirement is None:  # made at first use: it needs the bound directory
            self.retirement = Retirement(
                self.settings, self.writer.store, self.writer.tables_kv, self.writer.lock
            )
        return self.retirement

    async def schedule_retirement(self, table_id: str, finished_at: float) -> None:
        """The table's log leaves the stream for the archive ``retire_after`` seconds after
        ``finished_at`` (``_finish`` calls it as a table finishes)."""
        await self._retirement().schedule(table_id, finished_at)

    async def retire_finished(self) -> int:
        """Retire the tables finished ``retire_after`` seconds ago or more (what is scheduled,
        never a listing of the directory), then delete those retired ``keep_retired`` ago
        (paiju_services.retention); returns how many were retired."""
        return await self._retirement().run()

    async def expire_open(self) -> int:
        """End the open tables nobody joined for ``open_expiry`` seconds, and forget them
        (tables/expiry.py); returns how many were due."""
        return await self.expiry.run()

    async def sweep(self) -> int:
        """Run the steps of every table in play (``playing``: this copy's index of them, no
        listing of the directory); returns how many tables were looked at."""
        count = 0
        for listed in await self.writer.playing():
            table_id = listed.meta.id
            self.writer.refresh(listed)
            count += 1
            async with self.writer.lock(table_id):
                try:
                    await self._steps(table_id, again=True)
                except (ServiceError, RuleError, StoreError) as exc:
                    log(
                        logger,
                        "sweep of a table failed",
                        logging.WARNING,
                        table=table_id,
                        error=str(exc),
                    )
        return count
