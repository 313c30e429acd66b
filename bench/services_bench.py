"""The services under load, for `make bench`: short runs of the load tool (bench/load.py), each
against a system of its own that the tool starts, each figure printed beside its target and the
raw JetStream acked publishes of the same run (nats-py at the same concurrency: the ceiling the
store alone would allow on this machine).

The runs (targets from the load issue):

- 1 table, closed loop: move → view p50 under 3 ms;
- 100 tables paced at 1 move/s each: p99 under 25 ms;
- the same among 100 tables of 高手 bots (their thinking time as deployed, 0.7 s): the people's
  p99 still under 25 ms (issue 30);
- 100 tables, closed loop: at least 2,000 accepted moves/s;
- the same with two copies of each service: more than with one;
- 2,000 tables paced at 0.1 move/s each: p99 under 50 ms, none stuck (measured over 300 s, a
  whole ``full_collection_interval``, so that a full garbage collection's pause is counted in the
  share it has of a player's moves);
- a restart with 1,000 live tables, all reconnecting at once: at least 10,000 events/s rebuilt
  (every service killed -9 after the run's window, which plays 1,000 tables at 0.5 move/s each).

Beside the two closed-loop figures, their floor (bench/floor.py, the same tables and copies):
the moves a second the same processes carry when they only pass each move along, no game — what
no version of the product on this machine could exceed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
LOAD = BENCH_DIR / "load.py"
FLOOR = BENCH_DIR / "floor.py"
FLOOR_REPEATS = 3


@dataclass(frozen=True)
class Run:
    name: str
    args: list[str]
    # runs made; the report takes the run whose figure is the median (a short closed-loop run
    # varies by a tenth, a restart's rebuild by half: it counts from the gateway answering, and
    # the table service may start a moment before or after it)
    repeats: int = 1


RUNS = {
    "one": Run("1 table, closed loop", ["--tables", "1", "--duration", "10", "--warmup", "2"]),
    "paced": Run(
        "100 tables, paced 1 move/s each",
        ["--tables", "100", "--pace", "1", "--duration", "20", "--warmup", "5"],
    ),
    "paced_bots": Run(
        "100 tables, paced 1 move/s each, among 100 tables of 高手 bots",
        [
            "--tables",
            "100",
            "--pace",
            "1",
            "--duration",
            "20",
            "--warmup",
            "5",
            "--bot-tables",
            "100",
            "--bot-level",
            "expert",
            "--setting",
            "bot_delay = 0.7",
        ],
    ),
    "closed": Run(
        "100 tables, closed loop",
        ["--tables", "100", "--duration", "15", "--warmup", "5"],
        repeats=3,
    ),
    "copies": Run(
        "100 tables, closed loop, two copies of each service",
        ["--tables", "100", "--duration", "15", "--warmup", "5", "--copies", "2"],
        repeats=3,
    ),
    "many": Run(
        "2,000 tables, paced 0.1 move/s each",
        [
            "--tables",
            "2000",
            "--pace",
            "0.1",
            "--duration",
            "300",  # one full_collection_interval: its full collection's pause is in the window
            "--warmup",
            "10",
            "--ramp",
            "30",
            "--stuck",
            "30",
        ],
    ),
    "restart": Run(
        "A restart with 1,000 live tables, all reconnecting at once",
        [
            "--tables",
            "1000",
            "--pace",
            "0.5",
            "--duration",
            "30",
            "--warmup",
            "5",
            "--ramp",
            "20",
            "--stuck",
            "30",
            "--restart",
        ],
        repeats=3,
    ),
}


def figure(key: str, out: dict[str, Any]) -> float:
    """The figure a run is judged by: events/s rebuilt for the restart, else moves/s."""
    if key == "restart":
        return float(out["restart"]["events_per_s"] or 0.0)
    return float(out["moves_per_s"])


def median_run(key: str, outs: list[dict[str, Any]]) -> dict[str, Any]:
    """Of a run's repeats, the one whose figure is the median (the middle one of an odd count)."""
    return sorted(outs, key=lambda out: figure(key, out))[(len(outs) - 1) // 2]


def load(run: Run) -> dict[str, Any]:
    return json_run(run.name, [str(LOAD), *run.args, "--raw", "3"])


def floor(key: str) -> dict[str, Any]:
    """The median of the floor's runs for a closed-loop run (bench/floor.py, the same tables
    and copies)."""
    args = RUNS[key].args
    same: list[str] = []  # the run's tables and copies
    for flag in ("--tables", "--copies"):
        if flag in args:
            same += [flag, args[args.index(flag) + 1]]
    runs = [
        json_run(f"the floor of {RUNS[key].name}", [str(FLOOR), *same])
        for _ in range(FLOOR_REPEATS)
    ]
    return median_run(key, runs)


def json_run(name: str, argv: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, *argv, "--json"], capture_output=True, text=True, timeout=900
    )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{name}: the tool printed nothing:\n{proc.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(lines[-1])
    return out


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1e3:.1f} ms"


def describe(out: dict[str, Any]) -> str:
    """The run's own figures: moves/s, latencies, errors, stuck tables, raw JetStream."""
    lat = out.get("latency_s") or {}
    raw = out.get("raw_acks_per_s")
    parts = [
        f"{out['moves_per_s']:,.0f} moves/s",
        f"p50/p95/p99 {ms(lat.get('p50'))}/{ms(lat.get('p95'))}/{ms(lat.get('p99'))}",
        f"stuck {out['stuck']}",
        f"errors {sum((out.get('errors') or {}).values())}",
        f"raw JetStream {raw:,.0f} acks/s" if raw else "raw JetStream —",
    ]
    return "; ".join(parts)


def services_section(bench: Any) -> list[Any]:
    """The section for bench/run.py: each run's figure (CPython column) against its target, and
    the run's whole line (moves/s, latencies, stuck, errors, raw JetStream) in the report's
    notes."""
    from run import Row, log, mark

    outs: dict[str, dict[str, Any]] = {}
    for key, run in RUNS.items():
        repeats = []
        for number in range(run.repeats):
            log(f"services: {run.name} ({number + 1} of {run.repeats})")
            repeats.append(load(run))
        outs[key] = median_run(key, repeats)
        bench.notes.append(f"Services, {run.name}: {describe(outs[key])}.")
        if run.repeats > 1:
            figures = ", ".join(f"{figure(key, out):,.0f}" for out in repeats)
            bench.notes.append(
                f"Services, {run.name}: the median of {run.repeats} runs ({figures})."
            )
    bench.facts["services"] = outs
    floors = {}
    for key in ("closed", "copies"):
        log(f"services: the floor of {RUNS[key].name} ({FLOOR_REPEATS} runs)")
        floors[key] = floor(key)
        cores = ", ".join(f"{name} {used:.2f}" for name, used in floors[key]["cpu_cores"].items())
        bench.notes.append(
            f"Services, the floor of {RUNS[key].name} (bench/floor.py, the median of"
            f" {FLOOR_REPEATS}): {floors[key]['moves_per_s']:,.0f} moves/s; CPU (cores): {cores}."
        )
    bench.facts["services_floor"] = floors

    def latency(key: str, which: str) -> float | None:
        value = (outs[key].get("latency_s") or {}).get(which)
        return None if value is None else float(value)

    def raw(key: str) -> str:
        value = outs[key].get("raw_acks_per_s")
        same = f"raw JetStream same run {value:,.0f} acks/s" if value else "raw JetStream —"
        if key in floors:  # what the same processes carry with no game
            same += f"; floor, no game: {floors[key]['moves_per_s']:,.0f} moves/s"
        return same

    p50, p99, many = latency("one", "p50"), latency("paced", "p99"), latency("many", "p99")
    among_bots = latency("paced_bots", "p99")
    bots = outs["paced_bots"]
    closed, copies = outs["closed"]["moves_per_s"], outs["copies"]["moves_per_s"]
    stuck = outs["many"]["stuck"]
    # (run, what is measured, the figure, the target, met)
    checks = [
        ("one", "move → view p50", ms(p50), "< 3 ms", p50 is not None and p50 < 0.003),
        ("paced", "move → view p99", ms(p99), "< 25 ms", p99 is not None and p99 < 0.025),
        (
            "paced_bots",
            f"move → view p99 (the bots: {bots['bot_events_per_s']:.0f} events/s, "
            f"{bots['cpu_cores'].get('bots-1', 0.0):.2f} cores)",
            ms(among_bots),
            f"< 25 ms, as without them ({ms(p99)})",
            among_bots is not None and among_bots < 0.025,
        ),
        ("closed", "accepted moves/s", f"{closed:,.0f}/s", "≥ 2,000/s", closed >= 2000),
        (
            "copies",
            "accepted moves/s",
            f"{copies:,.0f}/s",
            f"> one copy's {closed:,.0f}/s",
            copies > closed,
        ),
        (
            "many",
            "move → view p99, stuck tables",
            f"{ms(many)}, {stuck} stuck",
            "< 50 ms, none stuck",
            many is not None and many < 0.05 and stuck == 0,
        ),
    ]
    rows = [
        Row(f"{RUNS[key].name}: {what} ({raw(key)})", figure, target=f"{target} {mark(ok)}", met=ok)
        for key, what, figure, target, ok in checks
    ]
    restart = outs["restart"]["restart"]
    rate = restart["events_per_s"]
    rebuilt = rate is not None and rate >= 10_000
    rows.append(
        Row(
            f"{RUNS['restart'].name}: events/s rebuilt ({restart['events']:,} events,"
            f" {restart['tables_back']} of {restart['tables']} tables back"
            f" {restart['rebuild_s']:.1f} s after the gateway answered again)",
            "–" if rate is None else f"{rate:,.0f}/s",
            target=f"≥ 10,000/s {mark(rebuilt)}",
            met=rebuilt,
        )
    )
    return rows
