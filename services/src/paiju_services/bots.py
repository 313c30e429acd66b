"""The bots service: takes the seats a table asks it to fill, and plays them through the same
command path as a person (a NATS request to the table service with the seat's token), choosing
each move at the seat's level (``paiju.levels.choose``: 入门, 普通 or 高手, as the owner chose when
he filled the seat; the turn names it). A choice runs off the event loop, so that the other
tables' turns, the fetches and the requests go on meanwhile: the quick levels' (a few
milliseconds) in one thread, the searching levels' (``Level.searches``: 高手, a tenth of a second
or more of CPU each) in another, one search at a time, so that a quick decision — a bot at a
people's table — never waits behind a queue of searches. A copy holds at most ``bot_searches``
searching turns (thinking or searching); one more is offered again later with back-off, like any
turn that cannot be played now, and leaves the quick turns' room free.

It learns that a bot is to move from the table service, which offers each bot seat's turn on
``paiju.turns.<table>`` (the work-queue stream PAIJU_TURNS, ``messages.BotTurn``): the seat's view
at the table's version and nothing more. The bots service reads no log and holds no card its
seats may not see: it rebuilds a state of its own from the view (``paiju.client.state_from_view``,
as the browser does) and chooses in it. A durable pull consumer (``paiju-bots``) is shared by all
copies. The command id is the table's version (``bot.v<N>``), so two copies (or a turn offered
twice) append one move. A turn is acknowledged only once its move is accepted (or is not to be
made): a move that could not be sent (the table service restarting) is retried, and a turn lost
on the way is offered again by the table service's sweep, so a bot never stalls a game.

Seat tokens are kept in the ``paiju_bot_tokens`` KV bucket, so any copy can play any bot seat;
the table service writes each as it seats the bot, and makes the consumer: this service's NATS
user only reads the tokens and pulls and acknowledges turns (paiju_services.access), so it can
neither stop the bots of every table (deleting the consumer) nor of another table (overwriting its
tokens). When the consumer is gone, the fetches back off until the table service's sweep has made
it again.

Every retry backs off (``paiju_services.backoff``): a turn to be tried again is naked with a wait
that grows with its deliveries, and the table service as a whole has a ``Gate``: once it answers
``unavailable`` or ``overloaded``, no turn of any table is sent until the gate's wait is over,
then one at a time until one is taken. A table service away for a minute sees a few dozen
attempts from a bots copy, not one per table every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.kv import KeyValue

from paiju import api, levels, search
from paiju.client import state_from_view
from paiju.protocol import Command, encode
from paiju_services import metrics, subjects
from paiju_services.affinity import Copies
from paiju_services.backoff import Backoff, Streak, from_settings
from paiju_services.bus import Responder
from paiju_services.config import Settings
from paiju_services.errors import SERVICE_BUSY, RemoteError, ServiceError
from paiju_services.logs import log
from paiju_services.messages import (
    BotTurn,
    CommandDone,
    FillSeats,
    Health,
    Join,
    Joined,
    Reply,
    SeatCommand,
    SeatsFilled,
    TableMeta,
)

logger = logging.getLogger("paiju.bots")

RETRY_CODES = SERVICE_BUSY | {"conflict", "unauthorized"}


def yield_cores(niceness: int) -> None:
    """Lower the calling thread's CPU priority by ``niceness`` (Linux gives each thread its own
    nice value): the searching thread then takes the cores the table service, the gateway and
    nats-server leave idle, and yields them when those wake for a move. Elsewhere, or refused,
    the thread runs as it is."""
    if niceness and hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)


class Gate:
    """The table service as the bots see it. While it answers, every turn goes; after an answer
    that says it is away or overloaded, no turn goes until the back-off's wait is over, then one
    turn (a probe) while the others wait for its answer: a failure waits longer, a success opens
    the gate to all. The failures of requests sent before the last change count once: forty
    turns refused together are one failure, not forty doublings."""

    def __init__(self, policy: Backoff, probe_time: float) -> None:
        self.streak = Streak(policy)
        self.probe_time = probe_time  # the longest a probe's answer may take (a request's timeout)
        self.until = 0.0  # no turn goes before this time (time.monotonic)
        self.epoch = 0  # changes with each failure counted and each recovery

    def wait(self, now: float) -> float:
        """Seconds before a turn may be sent (0: now; the caller then is the probe, if any)."""
        if not self.streak.failures:
            return 0.0
        if now < self.until:
            return self.until - now
        self.until = now + self.probe_time  # the others wait for the probe's answer
        return 0.0

    def remaining(self, now: float) -> float:
        """Seconds the gate stays closed from ``now`` (0: open, or a probe may go)."""
        return max(0.0, self.until - now) if self.streak.failures else 0.0

    def failed(self, epoch: int, now: float, retry_after: float = 0.0) -> None:
        """A request sent in ``epoch`` met ``unavailable`` or ``overloaded`` (``retry_after``:
        the service's own hint, a floor for the wait)."""
        if epoch != self.epoch:
            return  # sent before the gate last changed: already counted
        self.epoch += 1
        self.until = now + max(retry_after, self.streak.failed())

    def succeeded(self) -> None:
        if self.streak.failures:
            self.epoch += 1
            self.streak.succeeded()
            self.until = 0.0


def deliveries(msg: Msg) -> int:
    """How many times JetStream has delivered this turn (1 the first time)."""
    try:
        return max(1, msg.metadata.num_delivered or 1)
    except Exception:  # not a JetStream message (no metadata to read)
        return 1


class BotService:
    def __init__(self, settings: Settings, nc: Client, js: JetStreamContext) -> None:
        self.settings = settings
        self.nc = nc
        self.js = js
        self.seats: dict[str, dict[int, str | None]] = {}  # table: {bot seat: token}
        self.responder = Responder(nc, subjects.BOTS_QUEUE)
        self.copies = Copies(nc)  # the table-service copies, each table's holder (affinity.py)
        self.tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(64)
        # decisions run off the event loop: the quick levels' in one thread, the searching
        # levels' (高手, a tenth of a second or more each) in another, so that a quick decision
        # never waits behind a search; ``search_room`` bounds the searching turns held at once
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="bot-quick")
        self.searcher = ThreadPoolExecutor(
            1,
            thread_name_prefix="bot-search",
            initializer=yield_cores,
            initargs=(settings.bot_search_nice,),
        )
        self.search_room = asyncio.Semaphore(settings.bot_searches)
        self.search = search.scaled(settings.bot_search_scale)  # the searching levels' chooser
        self.consumer: asyncio.Task[None] | None = None
        self.sub: JetStreamContext.PullSubscription | None = None
        self.tables_kv: KeyValue
        self.tokens_kv: KeyValue
        self.moves = 0
        self.backoff = from_settings(settings)
        self.gate = Gate(self.backoff, settings.request_timeout)

    async def start(self) -> None:
        self.tables_kv = await self.js.key_value(subjects.TABLES_BUCKET)
        self.tokens_kv = await self.js.key_value(subjects.BOT_TOKENS_BUCKET)
        await self.copies.start()
        # the table service makes the consumer (streams.ensure_bots_consumer): until it has, or
        # while it is gone, a fetch fails and _consume waits (a bound subscription needs no
        # consumer yet, and takes its messages again once it is back)
        sub = await self.js.pull_subscribe_bind(
            durable=subjects.BOTS_CONSUMER, stream=subjects.TURNS_STREAM
        )
        self.sub = sub
        self.consumer = asyncio.create_task(self._consume(sub))
        await self.responder.serve(subjects.BOTS_FILL, self._fill)
        await self.responder.serve(subjects.HEALTH_BOTS, self._health, keyless=True)
        log(logger, "bots service ready", instance=self.settings.instance)

    async def stop(self) -> None:
        await self.responder.stop()
        if self.consumer:
            self.consumer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.consumer
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=5.0)
        if self.sub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.sub.unsubscribe(), 2.0)
        await self.copies.stop()
        for pool in (self.quick, self.searcher):
            pool.shutdown(wait=False, cancel_futures=True)
        log(logger, "bots service stopped", instance=self.settings.instance, moves=self.moves)

    async def _health(self, msg: Msg) -> Reply:
        return Health(instance=self.settings.instance, tables=len(self.seats))

    # --- taking seats -----------------------------------------------------------------------------

    async def _fill(self, msg: Msg) -> Reply:
        req = msgspec.json.decode(msg.data, type=FillSeats)
        if not subjects.is_table_id(req.table):
            raise ServiceError("table_not_found", table=req.table[:20])
        taken: list[int] = []
        for i, seat in enumerate(req.seats):
            level = req.levels[i] if i < len(req.levels) else levels.DEFAULT_LEVEL
            # the table service keeps the seat's token in paiju_bot_tokens as it seats the bot
            # (this user may not write there: access.py)
            joined = await self._join(req.table, seat, level)
            # no local note of the seat here: a partial note (the first bot of two) would pass for
            # the table's full list when the last join deals; _bot_seats reads the directory
            self.seats.pop(req.table, None)
            taken.append(joined.seat)
            log(logger, "bot seated", table=req.table, seat=joined.seat, bot_level=level)
        return SeatsFilled(seats=taken)

    async def _join(self, table_id: str, seat: int, level: str) -> Joined:
        """Take a seat for a bot at ``level``. The join carries a fresh request id and is sent once
        more if its answer is lost, so one lost reply leaves no bot seat whose token nobody has."""
        join = Join(
            name=f"Bot {seat + 1} 机器人",
            kind="bot",
            seat=seat,
            request_id=secrets.token_hex(16),
            level=level,
        )
        timeout = self.settings.request_timeout
        try:
            return await self.copies.request(table_id, "join", join, Joined, timeout)
        except ServiceError as exc:
            if exc.code != "unavailable":
                raise
        return await self.copies.request(table_id, "join", join, Joined, timeout)  # same id

    async def _bot_seats(self, table_id: str) -> dict[int, str | None]:
        known = self.seats.get(table_id)
        if known is not None and all(token for token in known.values()):
            return known
        try:
            entry = await self.tables_kv.get(table_id)
        except nats.js.errors.KeyNotFoundError:
            return {}
        meta = msgspec.json.decode(entry.value or b"", type=TableMeta)
        seats: dict[int, str | None] = {}
        for seat, info in enumerate(meta.seats):
            if info.kind != "bot":
                continue
            try:
                token = await self.tokens_kv.get(f"{table_id}.{seat}")
                seats[seat] = (token.value or b"").decode() or None
            except nats.js.errors.KeyNotFoundError:
                seats[seat] = None  # seated, its token not stored yet
        if meta.status != "open":  # the seats are final once the table is full
            if len(self.seats) >= 4 * self.settings.cache_tables:
                self.seats.clear()  # bounded: a table's seats are read again when needed
            self.seats[table_id] = seats
        return seats

    # --- playing ----------------------------------------------------------------------------------

    async def _consume(self, sub: JetStreamContext.PullSubscription) -> None:
        failures = Streak(self.backoff)
        while True:
            try:
                msgs = await sub.fetch(batch=32, timeout=1.0)
            except (nats.errors.TimeoutError, TimeoutError):  # nothing to do within the second
                failures.succeeded()  # (nats-py raises either, depending on where it ran out)
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                wait = failures.failed()
                log(logger, "fetch failed", logging.WARNING, error=repr(exc), wait=round(wait, 2))
                await asyncio.sleep(wait)
                continue
            failures.succeeded()
            for msg in msgs:
                await self.slots.acquire()
                task = asyncio.create_task(self._on_event(msg))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)

    async def _on_event(self, msg: Msg) -> None:
        try:
            retry = await self._turn(msg)
            if retry is None:
                await msg.ack()
            else:
                await msg.nak(delay=retry)
        except Exception as exc:
            log(logger, "bot turn failed", logging.ERROR, subject=msg.subject, error=repr(exc))
            with contextlib.suppress(Exception):
                await msg.nak(delay=self._turn_wait(msg))
        finally:
            self.slots.release()

    def _turn_wait(self, msg: Msg) -> float:
        """The wait before a turn is offered again: longer with each of its deliveries."""
        return self.backoff.delay(deliveries(msg) - 1)

    async def _decide(
        self, pool: ThreadPoolExecutor, level: levels.Level, state: api.State, seat: int
    ) -> tuple[Command, float]:
        """The bot's move after its thinking time (``bot_delay``), chosen in ``pool``'s thread,
        and the milliseconds the choice took there."""
        if self.settings.bot_delay:
            await asyncio.sleep(self.settings.bot_delay)
        start = time.perf_counter()
        choose = self.search if level.searches else level.choose
        command = await asyncio.get_running_loop().run_in_executor(pool, choose, state, seat)
        return command, round((time.perf_counter() - start) * 1000, 2)

    async def _turn(self, msg: Msg) -> float | None:
        """Play the offered turn if its seat is a bot's. None: done (or not to be done); a
        number: retry in that many seconds."""
        try:
            turn = msgspec.json.decode(msg.data, type=BotTurn)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            log(logger, "unreadable turn", logging.ERROR, subject=msg.subject, error=str(exc))
            return None
        table_id, seat = turn.table, turn.seat
        seats = await self._bot_seats(table_id)
        if seat not in seats:
            return None
        token = seats[seat]
        if token is None:
            self.seats.pop(table_id, None)
            return self._turn_wait(msg)  # the seat was just taken: its token is on its way
        try:
            state = state_from_view(turn.config, turn.view)
        except (ValueError, KeyError, TypeError) as exc:
            log(logger, "turn not readable", logging.ERROR, table=table_id, error=repr(exc))
            return None
        if api.to_move(state) != seat:
            return None
        level = levels.LEVELS.get(turn.level or "", levels.LEVELS[levels.DEFAULT_LEVEL])
        if level.searches and self.search_room.locked():
            # as many searching turns as may be held are: this one is offered again later, and
            # the quick levels' turns go on meanwhile
            log(logger, "search deferred", logging.DEBUG, table=table_id, seat=seat)
            return self._turn_wait(msg)
        if level.searches:
            async with self.search_room:  # taken at once: it was not locked, and nothing awaited
                command, choice_ms = await self._decide(self.searcher, level, state, seat)
        else:
            command, choice_ms = await self._decide(self.quick, level, state, seat)
        # asked just before the request: a turn that was thinking when the service went away
        # waits too, instead of adding one more attempt
        closed = self.gate.wait(time.monotonic())
        if closed:  # the table service is away or overloaded: nothing is sent until it is back
            return max(closed, self._turn_wait(msg))
        t0 = time.perf_counter()
        epoch = self.gate.epoch
        try:
            done = await self.copies.request(
                table_id,
                "command",
                SeatCommand(id=f"bot.v{turn.version}", token=token, command=encode(command)),
                CommandDone,
                self.settings.request_timeout,
            )
        except (ServiceError, RemoteError) as exc:
            body = exc.body() if isinstance(exc, ServiceError) else exc.error
            log(
                logger,
                "bot move not taken",
                logging.WARNING,
                table=table_id,
                seat=seat,
                code=body.code,
                delivered=deliveries(msg),
            )
            metrics.BOT_MOVES.labels(body.code).inc()
            if body.code in SERVICE_BUSY:  # away or overloaded: every table waits (Gate)
                retry_after = body.retry_after or 0.0
                self.gate.failed(epoch, time.monotonic(), retry_after)
                return max(self.gate.remaining(time.monotonic()), self._turn_wait(msg))
            self.gate.succeeded()  # it answered: it is there
            return self._turn_wait(msg) if body.code in RETRY_CODES else None
        self.gate.succeeded()
        self.moves += 1
        metrics.BOT_MOVES.labels("duplicate" if done.duplicate else "accepted").inc()
        log(  # every move: DEBUG (the metric paiju_bot_moves counts them)
            logger,
            "bot moved",
            logging.DEBUG,
            table=table_id,
            seat=seat,
            type=command.TYPE,
            bot_level=level.id,
            choice_ms=choice_ms,
            version=turn.version,
            duplicate=done.duplicate,
            ms=round((time.perf_counter() - t0) * 1000, 2),
        )
        return None
