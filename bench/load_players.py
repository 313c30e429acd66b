"""The load tool's players (bench/load.py): the tables it keeps live, a WebSocket player at each
seat, the bot tables beside them, and the restart of every service while the tables are live.

A player reads of each frame only what it acts on (``_Frame``, ``_ViewHead``): the tool runs on
the same cores as the system it measures, so what it spends a move is counted against the system.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import websockets
from load_http import JsonClient

from paiju_services.backoff import Backoff

RESEND = Backoff(base=0.3, cap=5.0)  # the web client's (web-client/js/backoff.js)
RESEND_CODES = frozenset({"unavailable", "overloaded", "conflict"})
BOT_POLL = 10.0  # seconds between reads of a bot table's log length (its /hands)
HTTP_AT_ONCE = 8  # requests in flight (creating and filling tables); the rest wait their turn


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    matches: int = 0
    measuring: bool = False
    bot_events: int = 0  # events the bot tables' logs grew by while measured
    bot_matches: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


@dataclass
class Table:
    """A live table and when it last moved."""

    id: str = ""
    last_event: float = field(default_factory=time.monotonic)
    next_move: float = 0.0
    over: bool = False
    index: int = -1  # the last event's index any seat saw: the log holds index + 1 events
    players: int = 0


@dataclass
class Restart:
    """The services killed while N tables are live, and every seat's socket back: when each
    live table had all its seats served a view again."""

    killed_at: float
    tables: dict[str, int]  # live table → its players
    events: int  # what their logs held when the services were killed
    back: dict[str, set[int]] = field(default_factory=dict)
    tables_back: int = 0
    all_back: asyncio.Event = field(default_factory=asyncio.Event)

    def seat_back(self, table_id: str, seat: int) -> None:
        if table_id not in self.tables:
            return
        seats = self.back.setdefault(table_id, set())
        if seat in seats:
            return
        seats.add(seat)
        if len(seats) == self.tables[table_id]:
            self.tables_back += 1
            if self.tables_back == len(self.tables):
                self.all_back.set()


class _ViewHead(msgspec.Struct):
    """What a player reads of a view: whose turn, and the phase (the rest is skipped unread)."""

    turn: Any = None
    phase: Any = None
    hand_no: int = 0
    ready: list[int] = []  # the seats that pressed 继续 since the last hand ended
    last_hand: Any = None  # decoded only between hands (null in play)


class _Frame(msgspec.Struct):
    """What a player reads of a frame (msgspec skips the rest: the tool decodes every frame of
    every seat on the same cores as the system it measures)."""

    type: str
    index: int = -1
    settled: bool = True
    view: _ViewHead | None = None
    # each legal move left as its JSON text: the player sends one back as it came, and builds
    # no Python object for the others
    moves: list[msgspec.Raw] | None = None
    code: str | None = None
    id: str | None = None
    retry_after: int = 0


_frames = msgspec.json.Decoder(_Frame)
_encode = msgspec.json.encode


async def _send_later(ws: Any, text: str, wait: float) -> None:
    """A refused move sent again, the same frame (the same id), after ``wait`` seconds."""
    await asyncio.sleep(wait)
    with contextlib.suppress(websockets.ConnectionClosed):
        await ws.send(text)


class Load:
    def __init__(self, args: argparse.Namespace, gateways: list[str]) -> None:
        self.args = args
        self.gateway = gateways[0]  # creates and joins
        # each seat's socket goes to a gateway copy, as a load balancer spreads them: a table's
        # seats over several copies (each copy then says to the others who is connected)
        self.ws_bases = [g.replace("http", "ws", 1) for g in gateways]
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        self.ids = itertools.count()
        self.tables: list[Table] = []
        self.stop = asyncio.Event()
        self.restart: Restart | None = None
        self.measured: Callable[[], None] = lambda: None  # called as the measured window ends

    async def new_table(self, http: JsonClient, hands: int) -> dict[str, Any]:
        """A table of the run's game and variant (``hands``: its ``hands`` option, 0: the game's)."""
        body: dict[str, Any] = {"game": self.args.game, "options": {}}
        if self.args.variant:
            body["variant"] = self.args.variant
        if hands:
            body["options"]["hands"] = hands
        table: dict[str, Any] = await http.post("/api/tables", body)
        return table

    async def create(self, http: JsonClient) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        table = await self.new_table(http, self.args.hands)
        seats = []
        for seat in range(table["players"]):
            body = {"name": f"load{seat}", "seat": seat}
            seats.append(await http.post(f"/api/tables/{table['id']}/seats", body))
        return table, seats

    async def run_bot_table(self, http: JsonClient, slot: Table) -> None:
        """Keep a table of bots at ``--bot-level`` live: created, every seat filled by the bots
        service (the owner's request), a finished match replaced; its log's length is read every
        ``BOT_POLL`` seconds (``/hands``: events so far), and the events added while the window is
        measured are the bots' (``Stats.bot_events``)."""
        while not self.stop.is_set():
            try:
                table = await self.new_table(http, self.args.bot_hands)
                owner = {"Authorization": f"Bearer {table['owner_token']}"}
                level = {"level": self.args.bot_level}
                await http.post(f"/api/tables/{table['id']}/bots", level, headers=owner)
            except OSError as exc:
                self.stats.error(f"bot_table:{type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            slot.id, slot.index = table["id"], 0
            while not self.stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stop.wait(), BOT_POLL)
                try:
                    hands = await http.get(f"/api/tables/{slot.id}/hands")
                except OSError as exc:
                    self.stats.error(f"bot_table:{type(exc).__name__}")
                    continue
                if self.stats.measuring:
                    self.stats.bot_events += hands["version"] - slot.index
                slot.index = hands["version"]
                if hands["finished"]:
                    self.stats.bot_matches += 1
                    break

    async def run_table(self, http: JsonClient, slot: Table) -> None:
        """Play tables in this slot one after another until the run ends."""
        while not self.stop.is_set():
            try:
                table, seats = await self.create(http)
            except OSError as exc:
                self.stats.error(f"create:{type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            slot.id, slot.over, slot.last_event = table["id"], False, time.monotonic()
            slot.index, slot.players = -1, table["players"]
            config = {k: table[k] for k in ("game", "variant", "players", "options")}
            players = [self.play_seat(slot, config, seat) for seat in seats]
            await asyncio.gather(*players)
            if slot.over:
                self.stats.matches += 1

    async def play_seat(self, slot: Table, config: dict[str, Any], seat: dict[str, Any]) -> None:
        """Play a seat; when its socket is lost (the gateway killed), open it again at once, as a
        player's browser would."""
        acted = [-1]  # the version this seat last moved at
        while not self.stop.is_set() and not slot.over:
            opened = time.monotonic()
            try:
                await self.play_socket(slot, config, seat, acted, opened)
            except (OSError, websockets.ConnectionClosedError, websockets.InvalidStatus):
                if self.restart is None:  # else lost to the kill, on purpose
                    self.stats.error("socket_lost")
                await asyncio.sleep(0.05 + 0.1 * self.rng.random())

    @staticmethod
    def continues(view: _ViewHead, seat: int, continued: int) -> bool:
        """Whether the seat presses 继续 now: a hand of the match has ended, the next is not
        dealt (the web client's sheet), and the seat has not pressed it for this hand."""
        between = view.last_hand is not None and view.phase in ("reveal", "commit", "seeding")
        return between and seat not in view.ready and continued != view.hand_no

    async def play_socket(
        self,
        slot: Table,
        config: dict[str, Any],
        seat: dict[str, Any],
        acted: list[int],
        opened: float,
    ) -> None:
        engine: Any = None
        sent: dict[str, float] = {}
        unanswered: dict[str, tuple[str, int]] = {}  # a move's frame, and its resends so far
        resends: set[asyncio.Future[None]] = set()
        continued = -1  # the hand this seat last pressed 继续 after
        table_id = slot.id
        base = self.ws_bases[(int(table_id, 16) + seat["seat"]) % len(self.ws_bases)]
        # no proxy: websockets would read the environment's proxy settings for every socket
        connecting = websockets.connect(base + seat["ws"], max_size=None, proxy=None)
        async with connecting as ws:
            await ws.send(_encode({"type": "hello", "token": seat["token"]}).decode())
            while not self.stop.is_set() and not slot.over:
                # no timeout here: thousands of sockets each waking every second cost the tool a
                # core at 2,000 tables; the run's end cancels the players
                raw = await ws.recv(decode=False)  # bytes: msgspec reads them as they come
                frame = _frames.decode(raw)
                kind = frame.type
                now = time.monotonic()
                if kind in ("state", "over") and self.restart and opened > self.restart.killed_at:
                    self.restart.seat_back(table_id, seat["seat"])
                if kind == "over":
                    slot.over = True
                    return
                if kind == "error":
                    self.stats.error(frame.code or "?")
                    pending = unanswered.pop(frame.id or "", None)
                    if pending is not None and frame.code in RESEND_CODES:
                        text, tries = pending
                        unanswered[frame.id or ""] = (text, tries + 1)
                        wait = max(RESEND.delay(tries), float(frame.retry_after))
                        resend = asyncio.ensure_future(_send_later(ws, text, wait))
                        resends.add(resend)
                        resend.add_done_callback(resends.discard)
                    else:
                        sent.pop(frame.id or "", None)
                    continue
                if kind == "ack":
                    unanswered.pop(frame.id or "", None)
                    if self.stats.measuring:
                        self.stats.accepted += 1
                    continue
                if kind != "state":
                    continue
                slot.last_event = now
                slot.index = max(slot.index, frame.index)
                for command_id, started in list(sent.items()):
                    if self.stats.measuring:
                        self.stats.latencies.append(now - started)
                    del sent[command_id]
                view = frame.view
                if (
                    frame.settled
                    and view is not None
                    and self.continues(view, seat["seat"], continued)
                ):
                    continued = view.hand_no  # 继续, once a hand, as a player presses it
                    press = {"type": "continue", "seat": seat["seat"]}
                    command = {"type": "command", "id": f"l{next(self.ids)}", "command": press}
                    await ws.send(_encode(command).decode())
                    continue
                if not frame.settled or view is None or view.turn != seat["seat"]:
                    continue
                if frame.index <= acted[0]:
                    continue  # the same state again (who is connected changed): acted on it
                if view.phase in (None, "over", "finished"):
                    continue
                moves: list[Any] | None = frame.moves  # (the engine's are dicts)
                if moves is None:
                    if engine is None:
                        from paiju.client import SeatClient

                        engine = SeatClient(json.dumps(config))
                    whole = json.loads(raw)["view"]
                    moves = json.loads(engine.update(json.dumps(whole)))["moves"]
                if not moves:
                    continue
                if self.args.pace:
                    wait = slot.next_move - now
                    slot.next_move = max(now, slot.next_move) + 1.0 / self.args.pace
                    if wait > 0:
                        await asyncio.sleep(wait)
                acted[0] = frame.index
                command_id = f"l{next(self.ids)}"
                sent[command_id] = time.monotonic()
                move = self.rng.choice(moves)
                command = {"type": "command", "id": command_id, "command": move}
                unanswered[command_id] = (text := _encode(command).decode(), 0)
                await ws.send(text)

    async def run(self, kill: Callable[[], None] | None = None) -> dict[str, Any]:
        http = JsonClient(self.gateway, HTTP_AT_ONCE)
        try:
            self.tables = [Table() for _ in range(self.args.tables)]
            tasks = []
            bot_tables = [Table() for _ in range(self.args.bot_tables)]
            for slot in bot_tables:  # the bots' load first, then the players' tables among it
                tasks.append(asyncio.create_task(self.run_bot_table(http, slot)))
            for slot in self.tables:
                tasks.append(asyncio.create_task(self.run_table(http, slot)))
                await asyncio.sleep(self.args.ramp / max(1, self.args.tables))
            await asyncio.sleep(self.args.warmup)
            self.stats.measuring = True
            started = time.monotonic()
            await asyncio.sleep(self.args.duration)
            self.stats.measuring = False
            self.measured()
            elapsed = time.monotonic() - started
            now = time.monotonic()
            stuck = sum(
                1
                for t in self.tables
                if t.id and not t.over and now - t.last_event > self.args.stuck
            )
            restart = await self.restart_services(kill) if kill is not None else None
            self.stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            http.close()
        return {"elapsed_s": elapsed, "stuck": stuck, "restart": restart}

    async def restart_services(self, kill: Callable[[], None]) -> dict[str, Any]:
        """Kill every service process (-9) while the tables are live; the launcher starts them
        again, every player's socket opens again at once, and the new table service rebuilds each
        table from its log as its players come back. Events rebuilt a second: the events the live
        tables' logs held, over the time from the gateway answering again to the last table with
        all its seats served a view."""
        live = {t.id: t.players for t in self.tables if t.id and not t.over and t.index >= 0}
        events = sum(t.index + 1 for t in self.tables if t.id in live)
        self.restart = restart = Restart(time.monotonic(), live, events)
        if not live:
            restart.all_back.set()
        kill()
        up = None
        async with httpx.AsyncClient(base_url=self.gateway, timeout=2) as http:
            while up is None:
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        up = time.monotonic()
                        break
                await asyncio.sleep(0.05)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(restart.all_back.wait(), self.args.restart_timeout)
        back = restart.tables_back
        done = time.monotonic()
        rebuild = max(1e-9, done - up)
        return {
            "tables": len(live),
            "events": events,
            "tables_back": back,
            "services_up_s": up - restart.killed_at,
            "rebuild_s": rebuild,
            "events_per_s": events / rebuild if back == len(live) else None,
        }
