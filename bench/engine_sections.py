"""The engine sections of the bench (bench/run.py): RLCard's reference, each engine's random
games and calls on CPython and in Pyodide, 打拱's hardest decision, and today's engine beside the
one before the core change.

Pyodide runs bench/engine_bench.py where players run the engine: in a module worker of Debian's
headless Chromium (bench/pyodide_browser.py). The same games are also timed under node
(tools/pyodide/run.mjs), whose older V8 runs Pyodide slower; the notes give that figure too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_rows import (
    PYODIDE_MAX_SLOWDOWN,
    Bench,
    Row,
    fmt_rate,
    fmt_ratio,
    fmt_time,
    log,
    mark,
    node_version,
    timed_row,
)
from pyodide_browser import BrowserPyodide, chromium_version

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "bench"
HARNESS = ROOT / "tools" / "pyodide" / "run.mjs"
BENCH_VENV = ROOT / ".venv-bench"
# numpy is RLCard's own dependency; named so that the report can tell which one was measured.
BENCH_REQUIREMENTS = ["rlcard==1.2.0", "numpy"]

GAME = "guanpai"
GAMES_PER_S_VS_RLCARD = 2.0  # Guanpai CPython games/s must be at least this times RLCard's


# --- RLCard reference ---------------------------------------------------------------------


def ensure_bench_venv() -> Path:
    """The separate venv for reference engines; (re)built when its requirements change.

    It uses the interpreter running this script, so both engines run on the same CPython."""
    python = BENCH_VENV / "bin" / "python"
    stamp = BENCH_VENV / ".installed"
    wanted = json.dumps({"python": sys.version, "requirements": BENCH_REQUIREMENTS})
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    log(f"creating {BENCH_VENV.name} with {' '.join(BENCH_REQUIREMENTS)} (first run only)")
    shutil.rmtree(BENCH_VENV, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *BENCH_REQUIREMENTS], check=True)
    stamp.write_text(wanted)
    return python


def rlcard_section(bench: Bench) -> list[Row]:
    python = ensure_bench_venv()
    log("RLCard doudizhu: random games")
    script = BENCH_DIR / "rlcard_doudizhu.py"
    proc = subprocess.run(
        [str(python), str(script), "--budget", str(bench.budget), "--batches", str(bench.batches)],
        capture_output=True,
        text=True,
        timeout=120 + 10 * bench.budget,
    )
    if proc.returncode:
        raise RuntimeError(f"rlcard_doudizhu.py failed:\n{proc.stderr}")
    ref = json.loads(proc.stdout)
    bench.facts["rlcard_games_per_s"] = ref["games_per_s"]
    bench.notes.append(
        f"RLCard {ref['rlcard']} (numpy {ref['numpy']}, CPython {ref['python']}) in "
        f"{BENCH_VENV.name}: `DoudizhuGame` stepping uniformly random actions from "
        f"`state['actions']` until `is_over()`; {ref['games']} games, "
        f"{ref['decisions_per_game']:.1f} decisions per game."
    )
    return [
        Row(
            "RLCard doudizhu: random games/s (engine alone)",
            cpython=fmt_rate(ref["games_per_s"]),
            target="reference",
        )
    ]


# --- Guanpai engine: CPython and Pyodide ---------------------------------------------------


def find_wheel() -> Path:
    wheels = sorted((ROOT / "dist").glob("paiju-*.whl"), key=lambda p: p.stat().st_mtime)
    if not wheels:
        raise FileNotFoundError("no dist/paiju-*.whl: run `make wheel`")
    return wheels[-1]


def variants_of(game_id: str) -> list[str | None]:
    from paiju.api import list_games

    for game in list_games():
        if game["id"] == game_id:
            return [v["id"] for v in game["variants"]] or [None]
    raise LookupError(f"paiju.api.list_games() has no {game_id!r}")


def run_in_pyodide(script: Path, arg: Any, timeout: float) -> Any:
    """``script`` run in Pyodide under node (tools/pyodide/run.mjs)."""
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("node is not on PATH")
    cmd = [node, str(HARNESS), "--wheel", str(find_wheel()), "--script", str(script)]
    proc = subprocess.run(
        [*cmd, "--arg", json.dumps(arg)], capture_output=True, text=True, timeout=timeout
    )
    if proc.returncode:
        raise RuntimeError(f"Pyodide run of {script.name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def guanpai_section(bench: Bench) -> list[Row]:
    return engine_section(bench, GAME, against_rlcard=True)


def banzipao_section(bench: Bench) -> list[Row]:
    return engine_section(bench, "banzipao", against_rlcard=False)


def dagong_section(bench: Bench) -> list[Row]:
    return engine_section(bench, "dagong", against_rlcard=False)


DAGONG_LEAD_TARGET = 0.020  # seconds: median legal_moves in Pyodide, a 27-card hand with 4 jokers


def dagong_leads_section(bench: Bench) -> list[Row]:
    return leads_section(bench, "dagong", DAGONG_LEAD_TARGET)


def dabang_section(bench: Bench) -> list[Row]:
    """Dabang's random games are whole matches (levels 3 past 10)."""
    return engine_section(bench, "dabang", against_rlcard=False)


def engine_section(bench: Bench, game: str, against_rlcard: bool) -> list[Row]:
    """A game's engine on CPython and in Pyodide: random games/s and median call times per
    variant. The slowdown is of the same games in both (a count CPython plays in a quarter of the
    budget), timed whole twice in each runtime, taking turns, each runtime's quickest round, with
    Pyodide in Chromium, where players run it. Single calls take a few µs, finer than Chromium's
    clock: their rows are timed under node. Every game must stay within
    ``PYODIDE_MAX_SLOWDOWN``; Guanpai is also held to ``GAMES_PER_S_VS_RLCARD``."""
    import engine_bench  # bench/engine_bench.py: the same code runs in Pyodide

    variants = variants_of(game)
    arg = {"game": game, "variants": variants, "budget": bench.budget, "batches": bench.batches}
    script = BENCH_DIR / "engine_bench.py"
    timeout = 300 + 8 * len(variants) * bench.budget
    log(f"{game} on CPython: variants {variants}")
    cpy = engine_bench.measure(**arg)  # before Chromium starts: none of its threads beside it
    # the very games CPython timed as a whole, timed again in Pyodide: the slowdown's measure
    same = {str(v): cpy["variants"][str(v)]["same_games"] for v in variants}
    with BrowserPyodide([find_wheel()]) as browser:
        log(f"{game} in Pyodide in Chromium: variants {variants}")
        started = time.perf_counter()
        pyo = browser.run(script, {**arg, "same": same}, timeout)
        wall = time.perf_counter() - started
        log(f"{game} in Pyodide under node: variants {variants}")
        node = run_in_pyodide(script, {**arg, "same": same}, timeout)
        log(f"{game}: the same games again in each runtime, taking turns")
        again = {"game": game, "same": same}
        rounds = [
            (cpy, engine_bench.time_same(**again)),
            (pyo, browser.run(script, {"same_again": again}, timeout)),
            (node, run_in_pyodide(script, {"same_again": again}, timeout)),
        ]
    for runtime, runtime_again in rounds:
        for variant, seconds in runtime_again.items():
            times = runtime["variants"][variant]
            times["same_games_s"] = min(times["same_games_s"], seconds)
    if pyo["python"] != cpy["python"]:
        bench.notes.append(
            f"Interpreters differ: CPython {cpy['python']} here, Python {pyo['python']} in "
            "Pyodide; the slowdown column compares the two as they are."
        )
    bench.notes.append(
        f"Pyodide: Python {pyo['python']} on {pyo['platform']}, in a module worker of Chromium "
        f"{chromium_version()} (the whole run {wall:.1f} s), its clock in steps of 5 µs; the call "
        f"rows under node {node_version()}. Clock overhead per timed call: "
        f"{fmt_time(cpy['clock_overhead_s'])} CPython, {fmt_time(node['clock_overhead_s'])} "
        "Pyodide under node (included in the times below, not subtracted)."
    )

    rlcard = bench.facts.get("rlcard_games_per_s")
    rows = []
    for variant in variants:
        c = cpy["variants"][str(variant)]
        p = pyo["variants"][str(variant)]
        n = node["variants"][str(variant)]
        name = f"{game}/{variant}" if variant else game
        games = c["same_games"]
        bench.notes.append(
            f"{name}: the same {games} games (seeds {c['same_seed']}–{c['same_seed'] + games - 1}) timed "
            f"whole twice in each runtime, taking turns, the quickest of "
            f"{2 * engine_bench.SAME_GAMES_ROUNDS} rounds: "
            f"{c['same_games_s']:.2f} s CPython, {p['same_games_s']:.2f} s Pyodide in Chromium "
            f"({n['same_games_s']:.2f} s under node: "
            f"{fmt_ratio(n['same_games_s'] / c['same_games_s'])}); games/s over "
            f"{bench.budget:g} s of other games, median of {bench.batches} batches: "
            f"{fmt_rate(c['games_per_s'])} CPython ({c['rate_games']} games), "
            f"{fmt_rate(p['games_per_s'])} Pyodide ({p['rate_games']}); "
            f"{c['legal_moves_calls'] / c['games']:.1f} decisions and "
            f"{c['decide_calls'] / c['games']:.1f} plays per game."
        )

        slowdown = p["same_games_s"] / c["same_games_s"]
        pyodide_ok = slowdown <= PYODIDE_MAX_SLOWDOWN
        target = f"Pyodide ≤ {PYODIDE_MAX_SLOWDOWN:g}× slower {mark(pyodide_ok)}"
        met: bool | None = pyodide_ok
        if against_rlcard and rlcard is None:
            target = f"CPython ≥ {GAMES_PER_S_VS_RLCARD:g}× RLCard: RLCard unmeasured; " + target
        elif against_rlcard and rlcard is not None:
            need = GAMES_PER_S_VS_RLCARD * rlcard
            cpython_ok = c["games_per_s"] >= need
            ratio = c["games_per_s"] / rlcard
            target = (
                f"CPython ≥ {GAMES_PER_S_VS_RLCARD:g}× RLCard = {fmt_rate(need)} "
                f"(is {ratio:.1f}×) {mark(cpython_ok)}; " + target
            )
            met = cpython_ok and pyodide_ok
        rows.append(
            Row(
                f"{name}: random games/s (the same {games} games in both)",
                fmt_rate(games / c["same_games_s"]),
                fmt_rate(games / p["same_games_s"]),
                fmt_ratio(slowdown),
                target,
                met,
            )
        )
        for key, label in [
            ("legal_moves_median_s", "median `legal_moves` per decision"),
            ("legal_moves_p99_s", "p99 `legal_moves` per decision"),
            ("decide_median_s", "median `decide` per play"),
        ]:
            label = f"{label} (Pyodide under node)"
            if c[key] is None or n[key] is None:
                rows.append(Row(f"{name}: {label}", target="no calls measured"))
                continue
            ok = n[key] / c[key] <= PYODIDE_MAX_SLOWDOWN
            target = f"Pyodide ≤ {PYODIDE_MAX_SLOWDOWN:g}× slower {mark(ok)}"
            rows.append(timed_row(f"{name}: {label}", c[key], n[key], target, ok))
    return rows


def leads_section(bench: Bench, game: str, target_s: float, deals: int = 60) -> list[Row]:
    """``legal_moves`` at a hand's first lead with every joker of the deal in the leader's hand
    (a wildcard game's hardest decision), median and p99 on CPython and in Pyodide; the Pyodide
    median is held to ``target_s``."""
    import engine_bench

    variants = variants_of(game)
    arg = {"leads": {"game": game, "variants": variants, "deals": deals}}
    log(f"{game} heavy leads on CPython and in Pyodide: variants {variants}")
    cpy = engine_bench.measure_leads(**arg["leads"])
    with BrowserPyodide([find_wheel()]) as browser:
        pyo = browser.run(BENCH_DIR / "engine_bench.py", arg, timeout=600)
    rows = []
    for variant in variants:
        c, p = cpy["variants"][str(variant)], pyo["variants"][str(variant)]
        name = f"{game}/{variant}" if variant else game
        what = f"{c['hand_size']}-card lead holding {c['jokers']} jokers, {deals} deals"
        ok = p["median_s"] < target_s
        target = f"Pyodide median < {fmt_time(target_s)} {mark(ok)}"
        rows.append(
            timed_row(
                f"{name}: median `legal_moves`, {what}", c["median_s"], p["median_s"], target, ok
            )
        )
        rows.append(
            timed_row(f"{name}: p99 `legal_moves`, {what}", c["p99_s"], p["p99_s"], "reported")
        )
    return rows


# The engine before "the engine carries every game as one module" (the core's hooks, words,
# readings, the deal as drawn): its games/s are measured beside today's in the same run.
BEFORE_CORE_CHANGE = "b586c85"
MAX_FALL = 0.05  # today's games/s may be at most this much below the engine before the change
COMPARE_ROUNDS = 3  # alternating before/now subprocesses per variant; the quickest of each is kept

_GAMES_PER_S = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import engine_bench
r = engine_bench.games_per_second(sys.argv[2], sys.argv[3] or None, float(sys.argv[4]), 3, 1,
                                  time.perf_counter)
print(json.dumps(r["games_per_s"]))
"""


def engine_source_at(commit: str) -> Path:
    """The engine's source of ``commit``, extracted from git into a folder of its own."""
    target = ROOT / ".bench-engines" / commit
    if not (target / "shared-engine" / "src" / "paiju").exists():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "shared-engine/src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target / "shared-engine" / "src"


def games_per_s_in(source: Path, game: str, variant: str | None, budget: float) -> float:
    """Random games/s of the engine in ``source``, in a fresh CPython process."""
    out = subprocess.run(
        [sys.executable, "-c", _GAMES_PER_S, str(BENCH_DIR), game, variant or "", str(budget)],
        env=os.environ | {"PYTHONPATH": str(source)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rate: float = json.loads(out.strip().splitlines()[-1])
    return rate


def before_and_after_section(bench: Bench) -> list[Row]:
    """Guanpai and Banzipao random games/s on CPython: today's engine and the engine before the
    core change, in alternating fresh processes (so that neither gets a warmer machine), each
    engine's quickest round kept: the machine's other work only ever slows a round down, so the
    quickest is the one it disturbed least (``timeit``'s rule)."""
    before_src = engine_source_at(BEFORE_CORE_CHANGE)
    now_src = ROOT / "shared-engine" / "src"
    rows = []
    for game in (GAME, "banzipao"):
        for variant in variants_of(game):
            name = f"{game}/{variant}" if variant else game
            log(f"{name}: before ({BEFORE_CORE_CHANGE}) and now, {COMPARE_ROUNDS} rounds")
            before, now = [], []
            for _ in range(COMPARE_ROUNDS):
                before.append(games_per_s_in(before_src, game, variant, bench.budget))
                now.append(games_per_s_in(now_src, game, variant, bench.budget))
            b, n = max(before), max(now)
            ok = n >= (1 - MAX_FALL) * b
            rows.append(
                Row(
                    f"{name}: random games/s, now (before: {fmt_rate(b)})",
                    fmt_rate(n),
                    target=f"now ≥ {1 - MAX_FALL:.0%} of before = {fmt_rate((1 - MAX_FALL) * b)} "
                    f"(is {n / b:.0%}) {mark(ok)}",
                    met=ok,
                )
            )
    bench.notes.append(
        f"Before/now: the engine of commit {BEFORE_CORE_CHANGE} (extracted with git archive into "
        f".bench-engines/) and today's, each in a fresh CPython process, alternating, "
        f"{COMPARE_ROUNDS} rounds of {bench.budget:g} s per variant (each the median of 3 batches); "
        "the quickest round of each engine."
    )
    return rows
