"""The services under load, for `make bench`: short runs of the load tool (bench/load.py), each
against a system of its own that the tool starts, and runs of the floor (bench/floor.py: the same
processes passing a move along with no game work) in the same bench run as the rows measured
against it. Each figure is printed beside its target; the runs' whole lines go to the notes.

The rows (issue 28, "A move costs little more than its crossings", unless named otherwise):

- 1 table, closed loop: move → view p50 under 3 ms;
- 100 tables, closed loop: accepted moves a second at least 60% of the floor's, the median of three
  runs of each, alternating (product, floor, product, floor, ...) so that a change in the
  machine's other load falls on both; and from the product's median run, the CPU a move of the
  table service (≤ 0.35 ms), the gateway (≤ 0.30 ms) and nats-server (≤ 0.20 ms): its cores over
  the accepted moves a second, the floor's own figure beside each. The load tool's CPU a move,
  the product's and the floor's, is in the text: it shares the two cores (issue 28 asks it to be
  cheap too);
- 100 tables, closed loop, 10 hands a match: moves a second and CPU a move beside the game's
  default of one hand (informational: a match's tables are created and filled over HTTP, which
  weighs less over ten hands);
- 100 tables paced at 1 move/s each: move → view p99 at most twice the floor's paced p99, measured
  in the same bench run, and the figure itself under 25 ms (the target on an idle machine);
- the same among 100 tables of 高手 bots (their thinking time as deployed, 0.7 s): the people's
  p99 still under 25 ms (issue 30);
- 2,000 tables paced at 0.1 move/s each: no table stuck, no error, p99 under 100 ms (measured
  over 300 s, a whole ``full_collection_interval``, so that a full garbage collection's pause is
  counted in the share it has of a player's moves);
- a restart with 1,000 live tables, all reconnecting at once: every table back (each of its seats
  served a view) within 60 s of the kill, the median of three runs; the events a second rebuilt
  beside it, with its old target of 10,000/s (every service killed -9 after the run's window,
  which plays 1,000 tables at 0.5 move/s each).

The closed-loop run with two copies of each service, which the load issue compared with one copy,
is not run: issue 28 sets it no target, and its six runs cost two minutes of `make bench`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
LOAD = BENCH_DIR / "load.py"
FLOOR = BENCH_DIR / "floor.py"
CLOSED_REPEATS = 3  # runs of the product and of the floor, alternating
MOVES_VS_FLOOR = 0.60  # the product's closed-loop moves/s at least this share of the floor's
CPU_MS_PER_MOVE = {"table service": 0.35, "gateway": 0.30, "nats-server": 0.20}
PACED_P99_VS_FLOOR = 2.0  # the paced p99 at most this many times the floor's
PACED_P99_IDLE = 0.025  # and under this on an idle machine
MANY_P99 = 0.100
RESTART_WITHIN_S = 60.0
RESTART_EVENTS_PER_S = 10_000  # the load issue's target, kept as a second figure


@dataclass(frozen=True)
class Run:
    name: str
    args: list[str]
    # runs made; the report takes the run whose figure is the median (a restart's rebuild varies
    # by half: it counts from the kill, and the table service may start a moment before or after
    # the gateway)
    repeats: int = 1


CLOSED = ["--tables", "100", "--duration", "15", "--warmup", "5"]
PACED = ["--tables", "100", "--pace", "1", "--duration", "20", "--warmup", "5"]
RUNS = {
    "one": Run("1 table, closed loop", ["--tables", "1", "--duration", "10", "--warmup", "2"]),
    "paced": Run("100 tables, paced 1 move/s each", PACED),
    "paced_bots": Run(
        "100 tables, paced 1 move/s each, among 100 tables of 高手 bots",
        [*PACED, "--bot-tables", "100", "--bot-level", "expert", "--setting", "bot_delay = 0.7"],
    ),
    "hands10": Run("100 tables, closed loop, 10 hands a match", [*CLOSED, "--hands", "10"]),
    "many": Run(
        "2,000 tables, paced 0.1 move/s each",
        [
            *("--tables", "2000", "--pace", "0.1"),
            # one full_collection_interval: its full collection's pause is in the window
            *("--duration", "300", "--warmup", "10", "--ramp", "30", "--stuck", "30"),
        ],
    ),
    "restart": Run(
        "A restart with 1,000 live tables, all reconnecting at once",
        [
            *("--tables", "1000", "--pace", "0.5", "--duration", "30", "--warmup", "5"),
            *("--ramp", "20", "--stuck", "30", "--restart"),
        ],
        repeats=3,
    ),
}
CLOSED_NAME = "100 tables, closed loop"


def json_run(name: str, argv: list[str]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, *argv, "--json"], capture_output=True, text=True, timeout=900
    )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{name}: the tool printed nothing:\n{proc.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(lines[-1])
    return out


def load(run: Run) -> dict[str, Any]:
    return json_run(run.name, [str(LOAD), *run.args, "--raw", "3"])


def floor(name: str, args: list[str]) -> dict[str, Any]:
    return json_run(f"the floor of {name}", [str(FLOOR), *args])


def back_within_s(out: dict[str, Any]) -> float:
    """Seconds from the kill to the last live table served again; infinite if one never was."""
    restart = out["restart"]
    if restart["tables_back"] < restart["tables"]:
        return float("inf")
    return float(restart["services_up_s"] + restart["rebuild_s"])


def median_run(
    outs: list[dict[str, Any]], figure: Callable[[dict[str, Any]], float]
) -> dict[str, Any]:
    """Of a run's repeats, the one whose ``figure`` is the median (the middle one of an odd
    count)."""
    return sorted(outs, key=figure)[(len(outs) - 1) // 2]


def moves_per_s(out: dict[str, Any]) -> float:
    return float(out["moves_per_s"])


def cpu_ms_per_move(out: dict[str, Any]) -> dict[str, float]:
    """Each process kind's CPU a move, in ms: its cores (every copy's) over the accepted moves a
    second; the product's copies are named ``tables-1``, the floor's ``tables-0``."""
    kinds = {
        "tables": "table service",
        "gateway": "gateway",
        "nats-server": "nats-server",
        "load-tool": "load tool",
    }
    per_move: dict[str, float] = {}
    for process, cores in out["cpu_cores"].items():
        kind = kinds.get(process.rstrip("0123456789").rstrip("-"))
        if kind is not None and out["moves_per_s"]:
            per_move[kind] = per_move.get(kind, 0.0) + 1e3 * cores / out["moves_per_s"]
    return per_move


def ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1e3:.1f} ms"


def p99(out: dict[str, Any]) -> float | None:
    value = (out.get("latency_s") or {}).get("p99")
    return None if value is None else float(value)


def describe(out: dict[str, Any]) -> str:
    """A run's own figures: moves/s, latencies, errors, stuck tables, CPU a move, raw JetStream."""
    lat = out.get("latency_s") or {}
    raw = out.get("raw_acks_per_s")
    cpu = ", ".join(f"{kind} {value:.2f}" for kind, value in cpu_ms_per_move(out).items())
    parts = [
        f"{out['moves_per_s']:,.0f} moves/s",
        f"p50/p95/p99 {ms(lat.get('p50'))}/{ms(lat.get('p95'))}/{ms(lat.get('p99'))}",
        f"stuck {out['stuck']}",
        f"errors {sum((out.get('errors') or {}).values())}",
        f"CPU a move (ms): {cpu}",
    ]
    if "raw_acks_per_s" in out:  # the load tool's; the floor has none
        parts.append(f"raw JetStream {raw:,.0f} acks/s" if raw else "raw JetStream —")
    return "; ".join(parts)


def measure(bench: Any) -> dict[str, dict[str, Any]]:
    """Every run, the closed loop's alternating with its floor's, and the paced floor; each run's
    line in the notes. Keys: the runs' and ``closed``, ``closed_floor``, ``paced_floor``."""
    from bench_rows import log

    def note(name: str, out: dict[str, Any]) -> None:
        bench.notes.append(f"Services, {name}: {describe(out)}.")

    outs: dict[str, dict[str, Any]] = {}
    for key, run in RUNS.items():
        repeats = []
        for number in range(run.repeats):
            log(f"services: {run.name} ({number + 1} of {run.repeats})")
            repeats.append(load(run))
        outs[key] = median_run(repeats, back_within_s if key == "restart" else moves_per_s)
        note(run.name, outs[key])
        if key == "paced":  # its floor at once after it, in the same conditions
            log(f"services: the floor of {run.name}")
            outs["paced_floor"] = floor(run.name, PACED)
            note(f"the floor of {run.name} (bench/floor.py)", outs["paced_floor"])
    products, floors = [], []
    for number in range(CLOSED_REPEATS):
        log(f"services: {CLOSED_NAME}, product and floor ({number + 1} of {CLOSED_REPEATS})")
        products.append(load(Run(CLOSED_NAME, CLOSED)))
        floors.append(floor(CLOSED_NAME, CLOSED))
    outs["closed"] = median_run(products, moves_per_s)
    outs["closed_floor"] = median_run(floors, moves_per_s)
    for name, runs in (("", products), ("the floor of ", floors)):
        figures = ", ".join(f"{moves_per_s(out):,.0f}" for out in runs)
        bench.notes.append(
            f"Services, {name}{CLOSED_NAME}: the median of {CLOSED_REPEATS} runs ({figures}),"
            f" alternating product and floor: {describe(median_run(runs, moves_per_s))}."
        )
    bench.facts["services"] = outs
    return outs


def closed_rows(outs: dict[str, dict[str, Any]]) -> list[Any]:
    """Moves a second against the floor's, and each process's CPU a move against its bound."""
    from bench_rows import Row, mark

    product, floor_out = outs["closed"], outs["closed_floor"]
    share = moves_per_s(product) / moves_per_s(floor_out) if floor_out["moves_per_s"] else 0.0
    ours, floors = cpu_ms_per_move(product), cpu_ms_per_move(floor_out)
    tool = (
        f"the load tool's CPU a move {ours.get('load tool', 0.0):.2f} ms,"
        f" the floor's players' {floors.get('load tool', 0.0):.2f} ms"
    )
    met = share >= MOVES_VS_FLOOR
    rows = [
        Row(
            f"{CLOSED_NAME}: accepted moves/s against the floor's {moves_per_s(floor_out):,.0f}/s"
            f" (medians of {CLOSED_REPEATS} alternating runs each; {tool})",
            f"{moves_per_s(product):,.0f}/s = {share:.0%}",
            target=f"≥ {MOVES_VS_FLOOR:.0%} of the floor's {mark(met)}",
            met=met,
        )
    ]
    for kind, bound in CPU_MS_PER_MOVE.items():
        used = ours.get(kind)
        met = used is not None and used <= bound
        rows.append(
            Row(
                f"{CLOSED_NAME}: CPU a move of the {kind}, the product's median run"
                f" (the floor's: {floors.get(kind, 0.0):.2f} ms)",
                "—" if used is None else f"{used:.2f} ms",
                target=f"≤ {bound:.2f} ms {mark(met)}",
                met=met,
            )
        )
    ten = outs["hands10"]
    cpu = ", ".join(f"{kind} {value:.2f}" for kind, value in cpu_ms_per_move(ten).items())
    rows.append(
        Row(
            f"{RUNS['hands10'].name} (informational): accepted moves/s; CPU a move (ms): {cpu}",
            f"{moves_per_s(ten):,.0f}/s",
            target=f"none; one hand a match: {moves_per_s(product):,.0f}/s",
        )
    )
    return rows


def latency_rows(outs: dict[str, dict[str, Any]]) -> list[Any]:
    """The 1-table p50, the paced p99 against its floor's, among bots, and at 2,000 tables."""
    from bench_rows import Row, mark

    one = (outs["one"].get("latency_s") or {}).get("p50")
    paced, paced_floor = p99(outs["paced"]), p99(outs["paced_floor"])
    among_bots, many = p99(outs["paced_bots"]), p99(outs["many"])
    within_floor = bool(
        paced is not None and paced_floor is not None and paced <= PACED_P99_VS_FLOOR * paced_floor
    )
    idle = paced is not None and paced < PACED_P99_IDLE
    bots = outs["paced_bots"]
    stuck, errors = outs["many"]["stuck"], sum((outs["many"].get("errors") or {}).values())
    many_met = many is not None and many < MANY_P99 and stuck == 0 and errors == 0
    # (run, what is measured, the figure, the target with its marks, met)
    checks = [
        (
            "one",
            "move → view p50",
            ms(one),
            f"< 3 ms {mark(one is not None and one < 0.003)}",
            one is not None and one < 0.003,
        ),
        (
            "paced",
            f"move → view p99 (the floor's paced p99 in the same run: {ms(paced_floor)})",
            ms(paced),
            f"≤ {PACED_P99_VS_FLOOR:g}× the floor's {mark(within_floor)};"
            f" < {ms(PACED_P99_IDLE)} on an idle machine {mark(idle)}",
            within_floor and idle,
        ),
        (
            "paced_bots",
            f"move → view p99 (the bots: {bots['bot_events_per_s']:.0f} events/s, "
            f"{bots['cpu_cores'].get('bots-1', 0.0):.2f} cores; issue 30)",
            ms(among_bots),
            f"< 25 ms, as without them ({ms(paced)}) {mark(among_bots is not None and among_bots < 0.025)}",
            among_bots is not None and among_bots < 0.025,
        ),
        (
            "many",
            "move → view p99, stuck tables, errors",
            f"{ms(many)}, {stuck} stuck, {errors} errors",
            f"< {ms(MANY_P99)}, 0 stuck, 0 errors {mark(many_met)}",
            many_met,
        ),
    ]
    return [
        Row(f"{RUNS[key].name}: {what}", figure, target=target, met=ok)
        for key, what, figure, target, ok in checks
    ]


def restart_row(outs: dict[str, dict[str, Any]]) -> Any:
    """Every live table back within a minute of the kill; the events a second rebuilt beside."""
    from bench_rows import Row, mark

    restart = outs["restart"]["restart"]
    seconds = back_within_s(outs["restart"])
    back = seconds <= RESTART_WITHIN_S
    rate = restart["events_per_s"]
    fast = rate is not None and rate >= RESTART_EVENTS_PER_S
    return Row(
        f"{RUNS['restart'].name}: tables back (every seat served a view) and seconds from the"
        f" kill, the median of {RUNS['restart'].repeats} runs ({restart['events']:,} events,"
        f" {'–' if rate is None else f'{rate:,.0f}'} events/s rebuilt after the gateway"
        f" answered again, {restart['services_up_s']:.1f} s after the kill)",
        f"{restart['tables_back']:,} / {restart['tables']:,} in"
        f" {restart['services_up_s'] + restart['rebuild_s']:.1f} s",
        target=f"all within {RESTART_WITHIN_S:.0f} s {mark(back)};"
        f" ≥ {RESTART_EVENTS_PER_S:,} events/s rebuilt {mark(fast)}",
        met=back,
    )


def services_section(bench: Any) -> list[Any]:
    """The section for bench/run.py: each row's figure (CPython column) against its target, each
    run's whole line in the report's notes."""
    outs = measure(bench)
    one, *paced = latency_rows(outs)
    return [one, *closed_rows(outs), *paced, restart_row(outs)]
