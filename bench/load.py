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

This module is the command line and the measured window; the players are in bench/load_players.py
(their HTTP client in bench/load_http.py), the report in bench/load_report.py, the raw JetStream
reference in bench/raw_jetstream.py.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
import time
from typing import Any

import uvloop
from load_players import Load
from load_report import latency_summary, report
from load_system import System, cpu_seconds, kill_services, processes_of, sample_processes
from raw_jetstream import raw_jetstream

from paiju_services import memory


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
            "latency_s": latency_summary(latencies),
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
