"""The load tool's report (bench/load.py): latencies summed up as percentiles, and the text it
prints without ``--json``."""

from __future__ import annotations

import argparse
import statistics
from typing import Any


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_summary(latencies: list[float]) -> dict[str, float | None]:
    """Move → view latencies as the report gives them: p50, p95, p99 and max (None without any)."""
    return {
        "p50": statistics.median(latencies) if latencies else None,
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "max": max(latencies) if latencies else None,
    }


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
