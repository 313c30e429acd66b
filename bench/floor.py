"""The floor of the crossings: the moves a second this machine carries when the product's
processes do nothing but pass a move along — no game, no view computed, nothing sealed or logged.

    python bench/floor.py --tables 100 --duration 15             # one copy of each service
    python bench/floor.py --tables 100 --duration 15 --copies 2  # two of the table service and gateway

A move here makes the crossings a move makes in the product (docs/services.md, "The write path"
and "The fan-out"), through the same programs and libraries: the seat's command frame over a
WebSocket (the ``websockets`` client the load tool uses) to a gateway (Litestar on uvicorn and
uvloop), its NATS request (nats-py) to the table-service copy that holds the table, that copy's
JetStream acked append (a file stream with the expected-last-subject-sequence and message-id
headers, its stored headers republished as ``PAIJU_EVENTS`` republishes on ``paiju.stored.>``), one
views message of the product's size on core NATS (every gateway copy subscribes to all), the
reply, the ack frame to the seat, and a state frame to each of the table's three sockets, the next
seat to move named in it. Every seat plays as soon as it is its turn (closed loop).

What the product does besides, and this leaves out: the engine (deciding, applying, the legal
moves), each audience's view and its sealing, the logs, the metrics, the directory. So no
version of the product on this machine carries more moves than this; ``make bench`` prints the
figure beside the closed-loop targets.
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
from pathlib import Path
from typing import Any

import msgspec
import uvloop
from litestar import Litestar, WebSocket, websocket

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_system import cpu_seconds  # a sibling module

from paiju_services.launcher import nats_binary
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
                    answer = await bus["nc"].request(
                        f"floor.tables.{table}.command.{holder}", request, timeout=5
                    )
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


async def play(
    ports: list[int], tables: int, warmup: float, duration: float, measuring: Callable[[], None]
) -> float:
    """Moves a second over ``duration`` after ``warmup`` (``measuring`` is called as it starts)."""
    import websockets

    decode = msgspec.json.Decoder(_Frame).decode
    ids = itertools.count()
    counted = [0]
    counting = [False]
    start = asyncio.Event()

    async def seat(table: str, number: int) -> None:
        port = ports[(int(table, 16) + number) % len(ports)]
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table}", max_size=None) as ws:

            async def move() -> None:
                command = {"type": "play", "seat": number, "cards": ["3D"]}
                frame = {"type": "command", "id": f"f{next(ids)}", "command": command}
                await ws.send(msgspec.json.encode(frame).decode())

            await start.wait()
            if number == 0:
                await move()
            while True:
                frame = decode(await ws.recv())
                if frame.type == "ack" and counting[0]:
                    counted[0] += 1
                elif frame.type == "state" and frame.turn == number:
                    await move()

    players = [
        asyncio.create_task(seat(f"{t:016x}", number))
        for t in range(tables)
        for number in range(SEATS)
    ]
    await asyncio.sleep(2)  # every socket open
    start.set()
    await asyncio.sleep(warmup)
    measuring()
    counting[0] = True
    await asyncio.sleep(duration)
    counting[0] = False
    for player in players:
        player.cancel()
    return counted[0] / duration


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
            [nats_binary(), "-js", "-sd", folder, "-a", "127.0.0.1", "-p", str(nats_port)], **quiet
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

        rate = uvloop.run(play(ports, args.tables, args.warmup, args.duration, measuring))
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
        "moves_per_s": rate,
        "cpu_cores": {name: round(cores, 3) for name, cores in sorted(cpu.items())},
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0)
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
        print(
            f"the crossings alone, {out['tables']} tables, copies of each service: {out['copies']}: "
            f"{out['moves_per_s']:,.0f} moves/s\nCPU (cores): {cores}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
