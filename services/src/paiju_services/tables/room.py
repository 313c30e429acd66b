"""The room: who sits at a table, before, during and after its match.

It answers ``create``, ``join``, ``bots``, ``close``, ``leave`` and ``rematch`` (再来一局). A
table's creator holds its owner token (only its sha256 is in the directory): only he may fill
seats with bots or close the table before it starts. A create, a join and a rematch with a request
id derive their table, token and fingerprint from it (``tables.ids``), and every step is
create-if-absent or a compare-and-set of the table's directory entry, so a retry, even one racing
the first try on another copy, finishes and names one table, one seat. The log has no event for a
seat taken or left before the deal, but for a bot's (``bot_seated``, with its level, which the
table's own steps add from the directory before the first deal); once the seats are full they deal
(``tables.steps``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import msgspec
import nats.js.errors

from paiju import api
from paiju.errors import RuleError
from paiju.levels import DEFAULT_LEVEL, LEVELS
from paiju.protocol import Close, Command, SetAuto
from paiju.simulate import hand_problem
from paiju.table import Config
from paiju_services import subjects
from paiju_services.bus import request
from paiju_services.deadlines import table_clock_of
from paiju_services.errors import RemoteError, ServiceError, short
from paiju_services.inputs import clean_name
from paiju_services.logs import log
from paiju_services.messages import (
    AddBots,
    BotsAdded,
    CloseTable,
    CreateTable,
    FillSeats,
    Join,
    Joined,
    LeaveSeat,
    RematchStarted,
    Seat,
    SeatLeft,
    SeatsFilled,
    StartRematch,
    TableClosed,
    TableCreated,
    TableMeta,
    encoder,
)
from paiju_services.store import StoreError
from paiju_services.tables import ids
from paiju_services.tables.writer import Entry, TableWriter
from paiju_services.tokens import token_hash

if TYPE_CHECKING:
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.ending import Ending
    from paiju_services.tables.publish import Publisher
    from paiju_services.tables.steps import TableSteps

logger = logging.getLogger("paiju.tables")
CHECKED_SETTINGS = 256  # settings whose check hand's answer a copy keeps


class Room:
    """One copy's answers to the seats' and the owner's requests about a table's room."""

    def __init__(
        self, writer: TableWriter, steps: TableSteps, views: Publisher, ending: Ending
    ) -> None:
        self.writer = writer
        self.steps = steps
        self.views = views  # a seat's view key, kept as its token is issued
        self.ending = ending
        # settings whose check hand was played here, and its answer (``settings_problem``)
        self.checked: OrderedDict[Config[Any], str | None] = OrderedDict()

    # --- create, join, bots --------------------------------------------------------------------

    async def create(self, req: CreateTable) -> TableCreated:
        """A new table. With a request id the table's id is derived from it, and every step is
        create-if-absent (the secret, the directory entry, the first append on an empty subject),
        so a retry, even one racing the first try on another copy, finishes and names one table."""
        self._refuse_long(req.options.get("hands"))  # asked: before the engine's own bounds
        try:
            config = api.make_config(req.game, req.variant, req.players, req.options)
        except (ValueError, TypeError) as exc:
            raise ServiceError("bad_config", detail=short(exc)) from exc
        self._refuse_long(getattr(config.options, "hands", None))  # the variant's own
        problem = await self.settings_problem(config)
        if problem is not None:
            raise ServiceError("bad_config", detail=short(problem))
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

    async def settings_problem(self, config: Config[Any]) -> str | None:
        """Why ``config``'s options play wrongly together (None: they don't): the engine's check
        hand, played off the event loop the first time a copy sees these settings, then answered
        from memory (the ``CHECKED_SETTINGS`` seen most recently). A lobby creates tables of the
        same few settings: a thread's hand-off for each create was 3% of the table service's CPU
        in the load tool's closed loop, for an answer the engine had kept."""
        if config in self.checked:
            self.checked.move_to_end(config)
            return self.checked[config]
        problem = await asyncio.to_thread(hand_problem, config)
        self.checked[config] = problem
        if len(self.checked) > CHECKED_SETTINGS:
            self.checked.popitem(last=False)
        return problem

    def _refuse_long(self, hands: object) -> None:
        """Refuse a match of more hands than ``max_hands``.

        Raises:
            ServiceError: ``too_many_hands``.
        """
        if isinstance(hands, int) and hands > self.writer.settings.max_hands:
            raise ServiceError("too_many_hands", limit=self.writer.settings.max_hands)

    async def join(self, table_id: str, req: Join) -> Joined:
        """A seat and its token. With a request id the seat records the id's hash and the token
        is derived from the id, so a retry finds its seat and answers the same seat and token."""
        name = clean_name(req.name)
        if req.seed is not None and not 1 <= len(req.seed) <= 128:
            raise RuleError("bad_seed")
        if req.kind != "bot" and req.level is not None:
            raise ServiceError("bad_request", detail="only a bot seat has a level")
        level = None if req.kind != "bot" else known_level(req.level or DEFAULT_LEVEL)
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
                seed=req.seed,
                level=level,
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
            await self.steps.run(table_id)  # its seed (Seat.seed) first, then the deal if full
        return Joined(seat=seat, token=token)

    async def add_bots(self, table_id: str, req: AddBots) -> BotsAdded:
        """Bots in empty seats, each at its level (``req.levels``, else ``req.level``, else the
        default): the owner's request only (``not_owner``); an unknown level is refused
        (``unknown_level``) and nothing changes."""
        entry = await self.writer.meta(table_id, fresh=True)
        if not ids.is_owner(entry.meta, req.owner_token):
            raise ServiceError("not_owner", action="fill seats with bots")
        if entry.meta.status == "closed":
            raise ServiceError("table_closed")
        level = known_level(req.level or DEFAULT_LEVEL)
        levels = {seat: known_level(one) for seat, one in (req.levels or {}).items()}
        return await self._fill_bots(table_id, entry, req.seats, levels, level)

    async def _fill_bots(
        self,
        table_id: str,
        entry: Entry,
        only: list[int] | None,
        levels: dict[int, str],
        level: str = DEFAULT_LEVEL,
    ) -> BotsAdded:
        """Ask the bots service to seat bots in ``only`` (None: every empty seat), each at its
        level in ``levels``, else at ``level``."""
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
        stray = sorted(set(levels) - set(wanted))
        if stray:
            raise ServiceError("bad_request", detail=f"a level for seat {stray[0]}, not filled")
        filled = await request(
            self.writer.nc,
            subjects.BOTS_FILL,
            FillSeats(table=table_id, seats=wanted, levels=[levels.get(s, level) for s in wanted]),
            SeatsFilled,
            timeout=self.writer.settings.request_timeout,
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
        for _ in range(self.writer.settings.max_retries):
            entry = await self.writer.meta(table_id, fresh=True)
            meta = entry.meta
            if not ids.is_owner(meta, req.owner_token):
                raise ServiceError("not_owner", action="close the table")
            if meta.status == "closed":
                return TableClosed(status="closed")
            if meta.status != "open":
                raise ServiceError("match_started", action="it can no longer be closed")
            # the log says so first (table_closed, match_ended), then the directory; under the
            # table's lock, as the writer asks of every caller (a join's steps may run meanwhile)
            async with self.writer.lock(table_id):
                await self.writer.execute(
                    table_id, lambda t: None if t.over else ("close", Close())
                )
                await self.ending.archive(await self.writer.table(table_id))
            meta.status = "closed"
            meta.finished_at = time.time()
            await self.ending.schedule_retirement(table_id, meta.finished_at)
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
        for _ in range(self.writer.settings.max_retries):
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
                        await self.steps.run(table_id)  # the 继续 gate no longer waits for it
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
            await self.ending.finish(
                table
            )  # the match's last event came before its directory entry
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
        entry = await self.writer.meta(new_id, fresh=True)
        bots = {
            i: s.level or DEFAULT_LEVEL  # each bot at its level again
            for i, s in enumerate(old.meta.seats)
            if s.kind == "bot" and entry.meta.seats[i].kind == "empty"
        }
        if bots and entry.meta.status == "open":
            try:
                await self._fill_bots(new_id, entry, list(bots), bots)
            except RemoteError as exc:  # another press seated them meanwhile
                if exc.error.code not in ("seat_taken", "table_full"):
                    raise
            except ServiceError as exc:
                if exc.code not in ("seat_taken", "table_full"):
                    raise
        waiting = await self._press(new_id, seat, digest, old.meta.seats[seat].name)
        # then the old table names its rematch: the others are told of it (gateway), and the
        # press they read there is already made
        for _ in range(self.writer.settings.max_retries):
            if old.meta.rematch == new_id:
                break
            old.meta.rematch = new_id
            if await self.writer.update(old):
                break
            old = await self.writer.meta(table_id, fresh=True)
        await self.views.remember(new_id, req.token)  # the seat's views there, before the deal
        async with self.writer.lock(new_id):
            await self.steps.run(new_id)  # the deal, once nobody waits
        return RematchStarted(table=new_id, seat=seat, waiting=waiting)

    async def _press(self, table_id: str, seat: int, digest: str, name: str | None) -> list[int]:
        """The player of ``seat`` pressed 再来一局 at the rematch table: his seat stops waiting
        (or, if he left it and it is still empty, he sits there again). The seats still waiting.

        Raises:
            ServiceError: ``seat_taken`` (he left it and another took it), ``table_closed``.
        """
        for _ in range(self.writer.settings.max_retries):
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


def known_level(level: str) -> str:
    """``level`` if the bots play at it (``paiju.levels``).

    Raises:
        RuleError: ``unknown_level``.
    """
    if level not in LEVELS:
        raise RuleError("unknown_level", level=str(level)[:20], known=", ".join(LEVELS))
    return level
