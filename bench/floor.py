"""The floor of the crossings: the moves a second this machine carries when the product's
processes do nothing but pass a move along — no game, no view computed, nothing sealed or logged.

    python bench/floor.py --tables 100 --duration 15             # one copy of each service
    python bench/floor.py --tables 100 --duration 15 --copies 2  # two of the table service and gateway
    python bench/floor.py --tables 100 --pace 1 --duration 20    # each table 1 move a second

A move here makes the crossings a move makes in the product (docs/services.md, "The write path"
and "The fan-out"), through the same programs and libraries: the seat's command frame over a
WebSocket (the ``websockets`` client the load tool uses) to a gateway (Litestar on uvicorn and
uvloop), its NATS request (nats-py) to the table-service copy that holds the table, that copy's
JetStream acked append (a file stream with the expected-last-subject-sequence and message-id
headers, its stored headers republished as ``PAIJU_EVENTS`` republishes on ``paiju.stored.>``), one
views message of the product's size on core NATS (every gateway copy subscribes to all), the
reply, the ack frame to the seat, and a state frame to each of the table's three sockets, the next
seat to move named in it. Every seat plays as soon as it is its turn (closed loop), or, with
``--pace R``, each table R moves a second, as the load tool paces its tables.

Measured as the load tool (bench/load.py) measures the product, over the window after the warm-up:
accepted moves a second (acks), move → view latency (from a seat sending its command frame to the
next state frame on its own socket) at p50, p95, p99 and max, errors by code (``unavailable``: the
table copy did not answer; ``socket_lost``), stuck tables (no state frame for ``--stuck`` seconds as
the window ends), and the CPU of each process, the players' own as ``load-tool``. ``--json`` prints
it as one JSON line (bench/services_bench.py reads it).

What the product does besides, and this leaves out: the engine (deciding, applying, the legal
moves), each audience's view and its sealing, the logs, the metrics, the directory. So no
version of the product on this machine carries more moves than this, nor answers a move sooner;
``make bench`` prints the floor's figures, measured in the same run, beside the product's targets.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import socket as net  # (a parameter of the socket handler is named socket)
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import uvloop
from litestar import Litestar, WebSocket, websocket

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_report import latency_summary  # sibling modules
from load_system import cpu_seconds

from paiju_services.launcher import nats_binary, nats_env
from paiju_services.ports import free_port

SEATS = 3  # the load tool's game, 关牌 boke, seats three
AUDIENCE_BYTES = 600  # the median sealed seat view of 关牌 boke in play; a message holds four
EVENT = b'{"type":"played","seat":0,"cards":["3D"]}'


# --- a table-service copy: the append, the views message, the reply --------------------------


async def table_copy(nats_url: str, copy: int) -> None:
    import nats

    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    last: dict[str, int] = {}  # table → the sequence of its last event
    moves: dict[str, int] = {}
    views = b"v" * (AUDIENCE_BYTES * (SEATS + 1))
    reply = b'{"duplicate":false,"index":1,"count":1,"version":1,"retries":0,"error":null}'

    async def command(msg: Any) -> None:
        table = msg.subject.split(".")[2]
        request = json.loads(msg.data)
        headers = {
            "Nats-Expected-Last-Subject-Sequence": str(last.get(table, 0)),
            "Nats-Msg-Id": f"{table}:{request['id']}",
            "Paiju-Command": request["id"],
            "Paiju-Index": str(moves.get(table, 0)),
        }
        ack = await js.publish(f"floor.events.{table}", EVENT, headers=headers)
        last[table] = ack.seq
        moves[table] = turn = moves.get(table, 0) + 1
        await nc.publish(f"floor.views.{table}", b"%d\n" % (turn % SEATS) + views)
        await msg.respond(reply)

    await nc.subscribe(f"floor.tables.*.command.{copy}", cb=command)
    await asyncio.Event().wait()


# --- a gateway copy: sockets, one request a command, every table's views fanned out -----------


def gateway_copy(nats_url: str, port: int, copies: int) -> None:
    import nats
    import uvicorn
    from nats.errors import NoRespondersError

    class Command(msgspec.Struct, tag_field="type", tag="command"):
        id: str
        command: dict[str, Any]

    class Hello(msgspec.Struct, tag_field="type", tag="hello"):
        token: str

    frames = msgspec.json.Decoder(Command | Hello)
    sockets: dict[str, list[asyncio.Queue[str]]] = {}
    bus: dict[str, Any] = {}

    @websocket("/ws/{table:str}")
    async def table_socket(socket: WebSocket[Any, Any, Any], table: str) -> None:
        ws = socket  # Litestar wants the parameter named so
        await ws.accept()
        outbox: asyncio.Queue[str] = asyncio.Queue()
        sockets.setdefault(table, []).append(outbox)

        async def write() -> None:
            while True:
                await ws.send_text(await outbox.get())

        writer = asyncio.create_task(write())
        holder = int(table, 16) % copies
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = frames.decode(message.get("text") or message.get("bytes") or b"")
                if isinstance(frame, Command):
                    request = msgspec.json.encode({"id": frame.id, "command": frame.command})
                    try:
                        answer = await bus["nc"].request(
                            f"floor.tables.{table}.command.{holder}", request, timeout=5
                        )
                    except (TimeoutError, NoRespondersError):
                        refused = {"type": "error", "id": frame.id, "code": "unavailable"}
                        outbox.put_nowait(msgspec.json.encode(refused).decode())
                        continue
                    done = msgspec.json.decode(answer.data)
                    outbox.put_nowait(
                        msgspec.json.encode({"type": "ack", "id": frame.id, **done}).decode()
                    )
        finally:
            writer.cancel()
            sockets[table].remove(outbox)

    async def connect(app: Litestar) -> None:
        nc = bus["nc"] = await nats.connect(nats_url)

        async def views(msg: Any) -> None:
            outboxes = sockets.get(msg.subject.split(".")[2])
            if not outboxes:
                return
            turn, _, body = msg.data.partition(b"\n")
            view = body[:AUDIENCE_BYTES].decode()
            frame = f'{{"type":"state","turn":{turn.decode()},"view":"{view}"}}'
            for outbox in outboxes:
                outbox.put_nowait(frame)

        async def stored(msg: Any) -> None:
            return None

        await nc.subscribe("floor.views.>", cb=views)
        await nc.subscribe("floor.stored.>", cb=stored)

    app = Litestar([table_socket], on_startup=[connect])
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, ws_per_message_deflate=False
    )
    uvloop.run(uvicorn.Server(config).serve())


# --- the players and the run ---------------------------------------------------------------


class _Frame(msgspec.Struct):
    type: str
    turn: int = -1
    code: str | None = None


@dataclass
class FloorTable:
    """A table of the floor: when it may move next (paced) and when a state frame last came."""

    next_move: float = 0.0
    last_event: float = field(default_factory=time.monotonic)


@dataclass
class Played:
    """What the players counted over the measured window."""

    accepted: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stuck: int = 0  # tables without a state frame for ``--stuck`` seconds as the window ends
    measuring: bool = False

    def error(self, code: str) -> None:
        if self.measuring:
            self.errors[code] = self.errors.get(code, 0) + 1


async def play(args: argparse.Namespace, ports: list[int], measuring: Callable[[], None]) -> Played:
    """Every seat of ``args.tables`` tables played for ``args.duration`` seconds after
    ``args.warmup`` (``measuring`` is called as the window starts); ``args.pace`` moves a second a
    table, or as soon as a seat may (0). Move → view as the load tool measures it: from a seat
    sending its command to the next state frame on its own socket."""
    import websockets

    decode = msgspec.json.Decoder(_Frame).decode
    ids = itertools.count()
    played = Played()
    start = asyncio.Event()
    tables = {f"{t:016x}": FloorTable() for t in range(args.tables)}

    async def seat(table_id: str, number: int) -> None:
        table = tables[table_id]
        port = ports[(int(table_id, 16) + number) % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/{table_id}"
        sent_at: float | None = None  # when this seat's last command went, until a view came
        async with websockets.connect(url, max_size=None) as ws:

            async def move() -> None:
                nonlocal sent_at
                if args.pace:
                    now = time.monotonic()
                    wait = table.next_move - now
                    table.next_move = max(now, table.next_move) + 1.0 / args.pace
                    if wait > 0:
                        await asyncio.sleep(wait)
                command = {"type": "play", "seat": number, "cards": ["3D"]}
                frame = {"type": "command", "id": f"f{next(ids)}", "command": command}
                sent_at = time.monotonic()
                await ws.send(msgspec.json.encode(frame).decode())

            await start.wait()
            if number == 0:
                await move()
            while True:
                frame = decode(await ws.recv())
                if frame.type == "ack":
                    if played.measuring:
                        played.accepted += 1
                elif frame.type == "error":
                    played.error(frame.code or "?")
                elif frame.type == "state":
                    table.last_event = now = time.monotonic()
                    if sent_at is not None and played.measuring:
                        played.latencies.append(now - sent_at)
                    sent_at = None
                    if frame.turn == number:
                        await move()

    async def seat_counting_loss(table_id: str, number: int) -> None:
        try:
            await seat(table_id, number)
        except (OSError, websockets.ConnectionClosed):
            played.error("socket_lost")

    players = [
        asyncio.create_task(seat_counting_loss(table_id, number))
        for table_id in tables
        for number in range(SEATS)
    ]
    await asyncio.sleep(2)  # every socket open
    if args.pace:  # the tables' moves spread over one period, as the load tool's ramp spreads them
        began = time.monotonic()
        for number, table in enumerate(tables.values()):
            table.next_move = began + number / (args.tables * args.pace)
    start.set()
    await asyncio.sleep(args.warmup)
    measuring()
    played.measuring = True
    await asyncio.sleep(args.duration)
    played.measuring = False
    now = time.monotonic()
    played.stuck = sum(1 for t in tables.values() if now - t.last_event > args.stuck)
    for player in players:
        player.cancel()
    return played


async def make_stream(nats_url: str) -> None:
    import nats
    from nats.js.api import RePublish, StorageType, StreamConfig

    nc = await nats.connect(nats_url)
    await nc.jetstream().add_stream(
        StreamConfig(
            name="FLOOR_EVENTS",
            subjects=["floor.events.>"],
            storage=StorageType.FILE,
            duplicate_window=120,
            allow_direct=True,
            republish=RePublish(src="floor.events.>", dest="floor.stored.>", headers_only=True),
        )
    )
    await nc.close()


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            net.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="paiju-floor-")
    nats_port = free_port()
    nats_url = f"nats://127.0.0.1:{nats_port}"
    me = [sys.executable, __file__]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        procs["nats-server"] = subprocess.Popen(
            [nats_binary(), "-js", "-sd", folder, "-a", "127.0.0.1", "-p", str(nats_port)],
            env={**os.environ, **nats_env()},  # run as the launcher runs the product's
            **quiet,
        )
        wait_port(nats_port)
        asyncio.run(make_stream(nats_url))
        ports = [free_port() for _ in range(args.copies)]
        for copy, port in enumerate(ports):
            procs[f"tables-{copy}"] = subprocess.Popen(
                [*me, "--role", "tables", "--nats-url", nats_url, "--copy", str(copy)], **quiet
            )
            gateway = ["--role", "gateway", "--port", str(port), "--copies", str(args.copies)]
            procs[f"gateway-{copy}"] = subprocess.Popen(
                [*me, *gateway, "--nats-url", nats_url], **quiet
            )
        for port in ports:
            wait_port(port)
        time.sleep(1)  # the gateways' subscriptions made
        before: dict[str, float] = {}

        def measuring() -> None:  # CPU over the measured window only
            before.update({name: cpu_seconds(p.pid) for name, p in procs.items()})
            before["load-tool"] = cpu_seconds(os.getpid())
            before["at"] = time.monotonic()

        played = uvloop.run(play(args, ports, measuring))
        elapsed = time.monotonic() - before["at"]
        now = {name: cpu_seconds(p.pid) for name, p in procs.items()}
        now["load-tool"] = cpu_seconds(os.getpid())
        cpu = {name: (now[name] - before[name]) / elapsed for name in now}
    finally:
        for proc in procs.values():
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "tables": args.tables,
        "copies": args.copies,
        "pace": args.pace,
        "moves_per_s": played.accepted / args.duration,
        "latency_s": latency_summary(played.latencies),
        "samples": len(played.latencies),
        "stuck": played.stuck,
        "errors": played.errors,
        "cpu_cores": {name: round(cores, 3) for name, cores in sorted(cpu.items())},
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--pace", type=float, default=0.0, help="moves/s per table (0: closed loop)"
    )
    parser.add_argument("--stuck", type=float, default=10.0, help="seconds without an event")
    parser.add_argument("--copies", type=int, default=1, help="table-service and gateway copies")
    parser.add_argument("--json", action="store_true", help="the report as one JSON line")
    parser.add_argument("--role", choices=("tables", "gateway"), help=argparse.SUPPRESS)
    parser.add_argument("--nats-url", help=argparse.SUPPRESS)
    parser.add_argument("--copy", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.role == "tables":
        uvloop.run(table_copy(args.nats_url, args.copy))
        return 0
    if args.role == "gateway":
        gateway_copy(args.nats_url, args.port, args.copies)
        return 0
    out = run(args)
    if args.json:
        print(json.dumps(out))
    else:
        cores = ", ".join(f"{name} {used:.2f}" for name, used in out["cpu_cores"].items())
        pace = f"paced {args.pace} moves/s each" if args.pace else "closed loop"
        latency = " · ".join(
            "–" if out["latency_s"][k] is None else f"{k} {out['latency_s'][k] * 1000:.1f} ms"
            for k in ("p50", "p95", "p99", "max")
        )
        print(
            f"the crossings alone, {out['tables']} tables ({pace}), copies of each service:"
            f" {out['copies']}: {out['moves_per_s']:,.0f} moves/s\nmove → view: {latency}\n"
            f"stuck tables: {out['stuck']}; errors: {out['errors'] or 'none'}\nCPU (cores): {cores}"
        )
    return 1 if out["stuck"] else 0


if __name__ == "__main__":
    sys.exit(main())
