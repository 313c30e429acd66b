"""The load tool (bench/load.py) itself, briefly: real players at every seat of a few tables
against a system it starts with the launcher, then every service killed -9 and the tables
rebuilt as the players come back. ``make bench`` runs it at scale; here it must work at all."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from harness import BROTLI_QUALITY, STATIC_CACHE
from paiju_services.config import REPO

# the test stacks' static cache (warm, at a quick quality): the tool makes every copy its system's
# gateway lacks before a run, and at the default quality 11 a fresh clone's would take minutes
CACHE = (
    *("--setting", f"static_cache = {json.dumps(STATIC_CACHE)}"),
    *("--setting", f"brotli_quality = {BROTLI_QUALITY}"),
)


def run_tool(script: str, *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / script), *args, "--json"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def test_the_load_tool_plays_measures_and_times_a_restart() -> None:
    out = run_tool(
        "load.py",
        *("--tables", "3", "--pace", "2", "--duration", "4", "--warmup", "1"),
        *("--ramp", "1", "--raw", "1", "--restart", "--restart-timeout", "60"),
        *CACHE,
    )
    assert out["moves_per_s"] > 0 and out["samples"] > 0
    assert out["latency_s"]["p50"] is not None
    assert out["errors"] == {} and out["stuck"] == 0
    assert out["raw_acks_per_s"] > 0
    assert set(out["cpu_cores"]) >= {"nats-server", "gateway-1", "tables-1", "bots-1"}
    assert all(cores >= 0 for cores in out["cpu_cores"].values())
    restart = out["restart"]
    assert restart["tables"] == 3 and restart["tables_back"] == 3
    assert restart["events"] > 3 * 4  # each log: its header, seats, the deal, some moves
    assert restart["events_per_s"] > 0


def test_the_load_tool_presses_continue_between_the_hands_of_a_match() -> None:
    # the next hand's deal waits for every seat's 继续 (or a deadline of many seconds): a tool
    # that did not press it would finish no match of two hands in this window
    out = run_tool(
        "load.py",
        *("--tables", "2", "--hands", "2", "--duration", "8", "--warmup", "1", "--raw", "0"),
        *CACHE,
    )
    assert out["matches"] >= 1
    assert out["errors"] == {} and out["stuck"] == 0


def test_the_floor_passes_moves_through_the_same_processes_with_no_game() -> None:
    out = run_tool("floor.py", "--tables", "2", "--duration", "2", "--warmup", "1")
    assert out["moves_per_s"] > 0
    assert set(out["cpu_cores"]) == {"nats-server", "tables-0", "gateway-0", "load-tool"}
    assert all(cores > 0 for cores in out["cpu_cores"].values())


def test_the_paced_floor_measures_move_to_view_as_the_load_tool_does() -> None:
    out = run_tool(
        "floor.py", *("--tables", "2", "--pace", "2", "--duration", "3", "--warmup", "1")
    )
    assert 0 < out["moves_per_s"] <= 2 * 2 * 1.5  # two tables, two moves a second each
    assert out["samples"] > 0 and out["latency_s"]["p50"] is not None
    assert out["errors"] == {} and out["stuck"] == 0
