"""The load tool: real WebSocket players at every seat of N tables, against a running system.

    python bench/load.py --tables 100 --pace 1 --duration 20          # starts its own system
    python bench/load.py --tables 10 --gateway http://127.0.0.1:8000  # an already running one

Each table is created and filled over HTTP; every seat opens the table's WebSocket, says hello with
its token and, whenever its view says it is to move, plays one of its legal moves at random (the
moves of the state frame, or the engine's own ``SeatClient`` when a frame carries none); between
the hands of a match (``--hands``) it presses 继续 once, as the web client's button does. A move
refused as ``unavailable``, ``overloaded`` or ``conflict`` is sent again with the same id after
the web client's back-off (``paiju_services.backoff``, at least the answer's ``retry_after``). A table
whose match ends is replaced by a new one, so N tables stay live. Closed loop (the default) plays
as soon as it may; ``--pace R`` makes each table play R moves a second.

Measured while the run lasts, after a warm-up: accepted moves a second, move → view latency (from
sending a command to receiving the state frame of its first event on the same socket) at p50, p95,
p99 and max, errors by code, stuck tables (live, but no event for ``--stuck`` seconds at the end),
the CPU each process of the system used (from /proc), and, as the reference, raw JetStream acked
publishes from nats-py at the same concurrency in the same run. ``--json`` prints the report as
JSON (bench/run.py reads it).

``--bot-tables N --bot-level L``: N more tables, of bots only, at level L (their owner fills every
seat: the bots service plays them at its own pace) while the players' tables are measured, so
the report's latencies are the people's among the bots' work; it adds the events a second the
bot tables' logs grew by.

``--restart``: after the measured window, every service process is killed (-9) while the tables
are live; the launcher starts them again, every player's socket opens again at once (as a
browser's does) and says hello, and the report adds the events the live tables' logs held over
the time from the gateway answering again to the last table with every seat served a view: the
events a second the system rebuilt. ``--sample S``: each process's memory and CPU every S seconds
(a soak, ``make soak-services``).

When no ``--gateway`` is given the tool starts a system with the project's launcher on free ports
and a store in a temporary folder, with the gateway's per-client rate limits raised (the load comes
from one address), and stops it at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import uvloop
import websockets
from load_system import System, cpu_seconds, kill_services, processes_of, sample_processes

from paiju_services import memory
from paiju_services.backoff import Backoff

RESEND = Backoff(base=0.3, cap=5.0)  # the web client's (web-client/js/backoff.js)
RESEND_CODES = frozenset({"unavailable", "overloaded", "conflict"})
BOT_POLL = 10.0  # seconds between reads of a bot table's log length (its /hands)


# --- players -----------------------------------------------------------------------------------


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
    moves: list[Any] | None = None
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

    async def new_table(self, http: httpx.AsyncClient, hands: int) -> dict[str, Any]:
        """A table of the run's game and variant (``hands``: its ``hands`` option, 0: the game's)."""
        body: dict[str, Any] = {"game": self.args.game, "options": {}}
        if self.args.variant:
            body["variant"] = self.args.variant
        if hands:
            body["options"]["hands"] = hands
        table: dict[str, Any] = (
            (await http.post("/api/tables", json=body)).raise_for_status().json()
        )
        return table

    async def create(self, http: httpx.AsyncClient) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        table = await self.new_table(http, self.args.hands)
        seats = []
        for seat in range(table["players"]):
            reply = await http.post(
                f"/api/tables/{table['id']}/seats", json={"name": f"load{seat}", "seat": seat}
            )
            seats.append(reply.raise_for_status().json())
        return table, seats

    async def run_bot_table(self, http: httpx.AsyncClient, slot: Table) -> None:
        """Keep a table of bots at ``--bot-level`` live: created, every seat filled by the bots
        service (the owner's request), a finished match replaced; its log's length is read every
        ``BOT_POLL`` seconds (``/hands``: events so far), and the events added while the window is
        measured are the bots' (``Stats.bot_events``)."""
        while not self.stop.is_set():
            try:
                table = await self.new_table(http, self.args.bot_hands)
                owner = {"Authorization": f"Bearer {table['owner_token']}"}
                level = {"level": self.args.bot_level}
                filled = await http.post(
                    f"/api/tables/{table['id']}/bots", json=level, headers=owner
                )
                filled.raise_for_status()
            except (httpx.HTTPError, OSError) as exc:
                self.stats.error(f"bot_table:{type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            slot.id, slot.index = table["id"], 0
            while not self.stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stop.wait(), BOT_POLL)
                try:
                    reply = await http.get(f"/api/tables/{slot.id}/hands")
                    hands = reply.raise_for_status().json()
                except (httpx.HTTPError, OSError) as exc:
                    self.stats.error(f"bot_table:{type(exc).__name__}")
                    continue
                if self.stats.measuring:
                    self.stats.bot_events += hands["version"] - slot.index
                slot.index = hands["version"]
                if hands["finished"]:
                    self.stats.bot_matches += 1
                    break

    async def run_table(self, http: httpx.AsyncClient, slot: Table) -> None:
        """Play tables in this slot one after another until the run ends."""
        while not self.stop.is_set():
            try:
                table, seats = await self.create(http)
            except (httpx.HTTPError, OSError) as exc:
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
        async with websockets.connect(base + seat["ws"], max_size=None) as ws:
            await ws.send(_encode({"type": "hello", "token": seat["token"]}).decode())
            while not self.stop.is_set() and not slot.over:
                # no timeout here: thousands of sockets each waking every second cost the tool a
                # core at 2,000 tables; the run's end cancels the players
                raw = await ws.recv()
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
                moves = frame.moves
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
        # a small pool: httpx looks over every pooled connection on each request
        limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
        async with httpx.AsyncClient(base_url=self.gateway, timeout=30, limits=limits) as http:
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


# --- the raw JetStream reference ----------------------------------------------------------------


async def raw_jetstream(nats_url: str, writers: int, seconds: float) -> float:
    """Acked publishes a second to a scratch file stream, ``writers`` at once, each on its own
    subject with the expected-last-subject-sequence and message-id headers a command carries."""
    import nats

    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    stream = f"LOADREF{os.getpid()}"
    await js.add_stream(name=stream, subjects=[f"loadref{os.getpid()}.>"], storage="file")
    count = 0
    deadline = time.monotonic() + seconds
    payload = b'{"type":"played","seat":0,"cards":["3D"]}'

    async def writer(n: int) -> None:
        nonlocal count
        last = 0
        for i in itertools.count():
            if time.monotonic() >= deadline:
                return
            headers = {
                "Nats-Expected-Last-Subject-Sequence": str(last),
                "Nats-Msg-Id": f"{n}-{i}",
            }
            ack = await js.publish(f"loadref{os.getpid()}.{n}", payload, headers=headers)
            last = ack.seq
            count += 1

    started = time.monotonic()
    await asyncio.gather(*(writer(n) for n in range(writers)))
    rate = count / (time.monotonic() - started)
    await js.delete_stream(stream)
    await nc.close()
    return rate


# --- the report --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(args: argparse.Namespace, out: dict[str, Any]) -> str:
    def ms(value: float | None) -> str:
        return "–" if value is None else f"{value * 1000:.1f} ms"

    lines = [
        f"tables {args.tables} ({'paced ' + str(args.pace) + ' moves/s each' if args.pace else 'closed loop'}),"
        f" {out['elapsed_s']:.1f} s measured",
        f"accepted moves/s: {out['moves_per_s']:.0f}",
        "move → view: p50 {} · p95 {} · p99 {} · max {}".format(
            *(ms(out["latency_s"][k]) for k in ("p50", "p95", "p99", "max"))
        ),
        f"matches finished: {out['matches']}; stuck tables: {out['stuck']}",
        *(
            [
                f"bot tables: {out['bot_tables']} at {out['bot_level']}, "
                f"{out['bot_events_per_s']:.1f} events/s while measured, "
                f"{out['bot_matches']} matches finished"
            ]
            if out.get("bot_tables")
            else []
        ),
        f"errors: {out['errors'] or 'none'}",
        "CPU (cores): "
        + ", ".join(f"{name} {cores:.2f}" for name, cores in sorted(out["cpu_cores"].items())),
    ]
    if out.get("series"):
        lines.append(soak_report(out["series"]))
    if out.get("restart"):
        r = out["restart"]
        rate = "–" if r["events_per_s"] is None else f"{r['events_per_s']:,.0f}"
        lines.append(
            f"restart: {r['tables']} live tables ({r['events']:,} events), services killed -9;"
            f" gateway up after {r['services_up_s']:.1f} s; {r['tables_back']} tables with every"
            f" seat served again {r['rebuild_s']:.1f} s later: {rate} events/s rebuilt"
        )
    if out.get("raw_acks_per_s") is not None:
        ratio = out["moves_per_s"] / out["raw_acks_per_s"] if out["raw_acks_per_s"] else 0
        lines.append(
            f"raw JetStream acked publishes/s at {args.tables} writers: "
            f"{out['raw_acks_per_s']:.0f} (moves are {ratio:.1%} of it)"
        )
    return "\n".join(lines)


def soak_report(series: list[dict[str, Any]]) -> str:
    """Each process's resident memory over the run (MB at each sample), its growth over the second
    half (a plateau grows little), and its cores at rest once the players are gone (the last
    sample)."""
    lines = ["memory (MB) at each sample; growth over the second half; cores at rest:"]
    half = series[len(series) // 2 : -1] or series
    for name in sorted(series[0]["rss_mb"]):
        values = [s["rss_mb"].get(name, 0.0) for s in series[:-1]] or [0.0]
        second = [s["rss_mb"].get(name, 0.0) for s in half]
        growth = (second[-1] - second[0]) / second[0] if second and second[0] else 0.0
        rest = series[-1]["cores"].get(name, 0.0)
        lines.append(
            f"  {name}: {' → '.join(f'{v:.0f}' for v in values)}; "
            f"{growth:+.1%}; at rest {rest:.3f} cores"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    system = None if args.gateway else System.start(args.copies, args.setting)
    try:
        gateways = args.gateway.split(",") if args.gateway else system.gateways  # type: ignore[union-attr]
        root = system.proc.pid if system else None
        load = Load(args, gateways)
        pids: dict[int, str] = {}
        cpu_before: dict[int, float] = {}
        own_before = 0.0
        window_start = time.monotonic()
        kill = None
        if args.restart and root is not None:
            kill = functools.partial(kill_services, root)
        cpu: dict[str, float] = {}

        def measured() -> None:  # CPU over the measured window only (before any restart)
            window = time.monotonic() - window_start
            for pid, name in pids.items():
                used = cpu_seconds(pid) - cpu_before.get(pid, 0.0)
                cpu[name] = cpu.get(name, 0.0) + used / window
            # the players themselves share the machine: their process's cores too
            cpu["load-tool"] = (cpu_seconds(os.getpid()) - own_before) / window

        load.measured = measured
        run_task = asyncio.create_task(load.run(kill))
        await asyncio.sleep(args.ramp + args.warmup)
        pids = processes_of(root) if root else {}
        cpu_before = {pid: cpu_seconds(pid) for pid in pids}
        own_before = cpu_seconds(os.getpid())
        window_start = time.monotonic()
        series: list[dict[str, Any]] = []
        sampled = asyncio.Event()
        sampler = (
            asyncio.create_task(sample_processes(root, args.sample, series, sampled))
            if root and args.sample
            else None
        )
        result = await run_task
        if sampler is not None:
            # one more sample with every player gone: the system at rest after the soak
            await asyncio.sleep(args.sample)
            sampled.set()
            await sampler
        stats = load.stats
        latencies = stats.latencies
        out: dict[str, Any] = {
            "tables": args.tables,
            "pace": args.pace,
            "elapsed_s": result["elapsed_s"],
            "moves_per_s": stats.accepted / result["elapsed_s"],
            "latency_s": {
                "p50": statistics.median(latencies) if latencies else None,
                "p95": percentile(latencies, 0.95),
                "p99": percentile(latencies, 0.99),
                "max": max(latencies) if latencies else None,
            },
            "samples": len(latencies),
            "errors": stats.errors,
            "matches": stats.matches,
            "bot_tables": args.bot_tables,
            "bot_level": args.bot_level,
            "bot_events_per_s": stats.bot_events / result["elapsed_s"],
            "bot_matches": stats.bot_matches,
            "stuck": result["stuck"],
            "cpu_cores": cpu,
            "raw_acks_per_s": None,
            "series": series,
            "restart": result["restart"],
        }
        if args.raw and system is not None:
            out["raw_acks_per_s"] = await raw_jetstream(system.operator_url, args.tables, args.raw)
        return out
    finally:
        if system is not None:
            system.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--pace", type=float, default=0.0, help="moves/s per table (0: closed loop)"
    )
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds to start every table")
    parser.add_argument("--stuck", type=float, default=10.0, help="seconds without an event")
    parser.add_argument("--game", default="guanpai")
    parser.add_argument("--variant", default="boke")
    parser.add_argument("--hands", type=int, default=0, help="hands per match (0: the game's)")
    parser.add_argument("--copies", type=int, default=1, help="copies of each service")
    parser.add_argument(
        "--gateway", default="", help="running gateway copies' URLs, comma-separated (else start)"
    )
    parser.add_argument("--raw", type=float, default=5.0, help="seconds of raw JetStream (0: none)")
    parser.add_argument(
        "--sample",
        type=float,
        default=0.0,
        help="seconds between samples of each process's memory and CPU (0: none), for a soak",
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        help="a line of the system's [settings] (e.g. 'history_size = 1000'), may be repeated",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="after the measured window, kill every service (-9) and time the rebuild",
    )
    parser.add_argument(
        "--restart-timeout", type=float, default=300.0, help="seconds the rebuild may take"
    )
    parser.add_argument(
        "--bot-tables",
        type=int,
        default=0,
        help="tables of bots only, besides the players' (their owner fills every seat)",
    )
    parser.add_argument("--bot-level", default="normal", help="the bot tables' level")
    parser.add_argument(
        "--bot-hands", type=int, default=20, help="hands per match of a bot table (0: the game's)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # the players' process measures every latency: its own collector pauses would be counted as
    # the system's, so it is tuned as the services are
    memory.tune_gc()
    out = uvloop.run(main_async(args))
    print(json.dumps(out) if args.json else report(args, out))
    return 1 if out["stuck"] else 0


if __name__ == "__main__":
    sys.exit(main())
