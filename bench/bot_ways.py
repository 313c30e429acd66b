"""What a bot's move costs on each of the two ways the services can play a seat, for the choice
written down in docs/services.md ("Bots: one way to play a seat"):

- **bots service**: a bot seat's turn is offered on ``PAIJU_TURNS`` with the seat's view; the bots
  service rebuilds the seat's state from that view, chooses, and sends the move back as a command
  (with the bot's token) — the way every bot seat plays;
- **table service in process**: a seat in 托管 (or past its deadline) is played by the table
  service's clock, which chooses with the engine on the table's whole state and appends
  ``auto_played`` and the move in one append.

Each way plays the same number of tables of one game to the end on a system of its own (started by
the launcher, as the load tool does); the figure is the CPU every process of the system spent
(nats-server, table service, bots service, gateway), less what it spends at rest (measured for
``--idle`` seconds first), divided by the moves made — from the creation of the tables to their
last event. The 托管 way is paced by the clock's one second
(``AUTO_DELAY``), and the bots by a thinking time of the same second (``--bot-delay``), so that
what a live table costs while it waits weighs the same on both. Prints a JSON object (``--json``) or a short report.

    python bench/bot_ways.py --tables 40 --game guanpai --variant mainstream --players 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_system import System, cpu_seconds, processes_of

# what a seat decides (the events that are a move), as opposed to the table's own steps and the
# 托管 markers the in-process way adds
NOT_MOVES = frozenset(
    {
        "table_created",
        "seat_taken",
        "seed_committed",
        "seed_added",
        "dealt",
        "seed_revealed",
        "hand_scored",
        "match_ended",
        "auto_set",
        "auto_played",
        "continued",
    }
)


def cpu_by_process(root: int) -> dict[str, float]:
    used: dict[str, float] = {}
    for pid, name in processes_of(root).items():
        key = name.rsplit("-", 1)[0] if name[-1:].isdigit() else name
        used[key] = used.get(key, 0.0) + cpu_seconds(pid)
    return used


async def create(http: httpx.AsyncClient, args: argparse.Namespace) -> tuple[str, str]:
    body = {
        "game": args.game,
        "variant": args.variant,
        "players": args.players,
        "request_id": uuid.uuid4().hex,
        "clock": {"play": 0, "bid": 0, "bury": 0, "continue": 0},
    }
    reply = await http.post("/api/tables", json=body)
    reply.raise_for_status()
    created = reply.json()
    return created["id"], created["owner_token"]


async def by_bots(http: httpx.AsyncClient, args: argparse.Namespace) -> str:
    table, owner = await create(http, args)
    reply = await http.post(
        f"/api/tables/{table}/bots", headers={"Authorization": f"Bearer {owner}"}
    )
    reply.raise_for_status()
    return table


async def by_auto(http: httpx.AsyncClient, args: argparse.Namespace) -> str:
    table, _ = await create(http, args)
    for seat in range(args.players):
        joined = await http.post(
            f"/api/tables/{table}/seats",
            json={"name": f"p{seat}", "seat": seat, "request_id": uuid.uuid4().hex},
        )
        joined.raise_for_status()
        token = joined.json()["token"]
        for attempt in range(50):  # the deal follows the last join: 托管 needs a dealt hand
            reply = await http.post(
                f"/api/tables/{table}/commands",
                headers={"Authorization": f"Bearer {token}"},
                json={
                    "id": f"auto-{seat}-{attempt}",
                    "command": {"type": "set_auto", "seat": seat, "on": True},
                },
            )
            if reply.status_code == 200:
                break
            await asyncio.sleep(0.1)
    return table


async def moves_of(http: httpx.AsyncClient, table: str, deadline: float) -> int:
    """The moves of ``table`` once it has finished (polls its log until then)."""
    while time.monotonic() < deadline:
        reply = await http.get(f"/api/tables/{table}/log")
        if reply.status_code == 200:
            events = reply.json()["events"]
            return sum(1 for e in events if e["type"] not in NOT_MOVES)
        await asyncio.sleep(0.5)
    raise SystemExit(f"{table} did not finish in time")


async def measure(way: str, args: argparse.Namespace) -> dict[str, Any]:
    system = System.start(1, [f"bot_delay = {args.bot_delay}"])
    try:
        async with httpx.AsyncClient(base_url=system.gateway, timeout=30) as http:
            # the system's own CPU at rest (heartbeats, sweeps), taken off the run's: a paced run
            # lasts a minute, a closed one a second
            idle_from, idle_start = cpu_by_process(system.proc.pid), time.monotonic()
            await asyncio.sleep(args.idle)
            before = cpu_by_process(system.proc.pid)
            start = time.monotonic()
            idle_rate = {
                n: (before[n] - idle_from.get(n, before[n])) / (start - idle_start) for n in before
            }
            seat_tables = by_bots if way == "bots" else by_auto
            gate = asyncio.Semaphore(8)  # a lobby's pace of creation, not a thundering herd

            async def seated() -> str:
                async with gate:
                    return await seat_tables(http, args)

            tables = await asyncio.gather(*(seated() for _ in range(args.tables)))
            deadline = start + args.timeout
            moves = sum(await asyncio.gather(*(moves_of(http, t, deadline) for t in tables)))
            seconds = time.monotonic() - start
            after = cpu_by_process(system.proc.pid)
    finally:
        system.stop()
    cpu = {
        name: max(0.0, after[name] - before.get(name, 0.0) - idle_rate.get(name, 0.0) * seconds)
        for name in after
    }
    return {
        "way": way,
        "tables": args.tables,
        "moves": moves,
        "seconds": round(seconds, 1),
        "cpu_ms_per_move": {n: round(1000 * c / moves, 3) for n, c in sorted(cpu.items())},
        "total_cpu_ms_per_move": round(1000 * sum(cpu.values()) / moves, 3),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--game", default="guanpai")
    parser.add_argument("--variant", default="mainstream")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds at rest measured first")
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        help="the bots' thinking time: 1 s paces them as the clock paces 托管 (AUTO_DELAY)",
    )
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = [asyncio.run(measure(way, args)) for way in ("bots", "auto")]
    if args.json:
        print(json.dumps(results))
        return 0
    for r in results:
        parts = ", ".join(f"{n} {ms}" for n, ms in r["cpu_ms_per_move"].items())
        print(
            f"{r['way']:5} {r['tables']} tables, {r['moves']} moves in {r['seconds']} s: "
            f"{r['total_cpu_ms_per_move']} ms CPU a move ({parts})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
