"""Paiju benchmarks (`make bench`): measure, print and write bench/report.md.

Each section is a function that takes the shared Bench context and returns report rows; to add
one (browser timings, services, ...) write such a function and list it in SECTIONS. Sections run
in order and may read what earlier ones left in `bench.facts`.

Sections now:
- RLCard reference: RLCard's Dou Dizhu engine alone, random games/s, in a separate venv
  (.venv-bench, created here on first use) so RLCard never enters the project's venv.
- Guanpai, Banzipao, Dagong and Dabang engines: random games/s (Dabang: whole matches) and median
  and p99 legal_moves / median decide times per variant, on CPython in-process and in Pyodide under
  node (tools/pyodide/run.mjs running bench/engine_bench.py).
- Dagong's hardest decision: legal_moves at a hand's first lead with all four jokers in the
  leader's 27 cards, median and p99 (target: Pyodide median under 20 ms).
- Engines before and after the core change: Guanpai and Banzipao random games/s of today's engine
  beside the engine of the commit before it (git archive), in alternating fresh processes.
- Bot levels (bench/duel_bench.py): `paiju duel`, 普通 among 入门 and 高手 among 普通 over
  duplicate deals, per game, the hero's mean score a hand with its 95% confidence interval
  (target: above 0, 400 hands), its decision time (高手: ≤ 300 ms at p95) and 高手's bids.
- Browser client (bench/browser_bench.py): one local validation of a selection, in Debian's
  headless Chromium against the real stack.
- Practice (bench/practice_bench.py): per game, a practice table's bot move in the page's engine
  worker, p50/p95: 普通's beside the target of a move shown within 1 s (the pace's delay
  included), 高手's beside its bound of 1.5 s at p95 in Pyodide.
- First visit (bench/browser_bench.py): bytes on the wire and page load to "engine ready", on a
  cold visit (empty cache) and a warm one (reload), in Chromium against the real stack.
- Services under load (bench/services_bench.py): short runs of the load tool and of the floor (the
  same processes passing a move with no game work, bench/floor.py), each figure beside its target,
  which issue 28 sets against the floor's figure measured in the same run.

Targets: Guanpai CPython games/s >= 2x RLCard doudizhu games/s; every engine measured in Pyodide
within 2x of CPython; Guanpai and Banzipao games/s within 5% of the engine before the core change;
a cold first visit under 7 MB on the wire, and the engine ready within 3 s of page load on a warm
one (`python bench/browser_bench.py --visits` runs that section alone).
Exit status 1 if a section failed to measure; unmet targets are reported, not an error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = ROOT / "bench"
REPORT = BENCH_DIR / "report.md"
HARNESS = ROOT / "tools" / "pyodide" / "run.mjs"
PYODIDE_DIR = ROOT / "web-client" / "node_modules" / "pyodide"
BENCH_VENV = ROOT / ".venv-bench"
# numpy is RLCard's own dependency; named so that the report can tell which one was measured.
BENCH_REQUIREMENTS = ["rlcard==1.2.0", "numpy"]

GAME = "guanpai"
GAMES_PER_S_VS_RLCARD = 2.0  # Guanpai CPython games/s must be at least this times RLCard's
PYODIDE_MAX_SLOWDOWN = 2.0  # Pyodide may be at most this many times slower than CPython

sys.path.insert(0, str(BENCH_DIR))
from browser_bench import browser_section, first_visit_section  # noqa: E402  (a sibling module)
from duel_bench import duel_section  # noqa: E402  (a sibling module)
from practice_bench import practice_section  # noqa: E402  (a sibling module)
from services_bench import services_section  # noqa: E402  (a sibling module)


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


@dataclass
class Row:
    metric: str
    cpython: str = "—"
    pyodide: str = "—"
    slowdown: str = "—"  # Pyodide / CPython
    target: str = ""
    met: bool | None = None


@dataclass
class Bench:
    budget: float  # seconds per measurement (per variant and kind)
    batches: int  # games/s is the median over this many batches of budget / batches seconds
    facts: dict[str, Any] = field(default_factory=dict)  # measurements for later sections
    notes: list[str] = field(default_factory=list)  # lines for the report's notes


Section = Callable[[Bench], list[Row]]


# --- formatting ---------------------------------------------------------------------------


def fmt_rate(per_s: float | None) -> str:
    if per_s is None:
        return "—"
    return f"{per_s:,.0f}/s" if per_s >= 100 else f"{per_s:,.1f}/s"


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.1f} µs"
    return f"{seconds * 1e9:.0f} ns"


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return "—"
    text = f"{ratio:.2f}"
    if float(text) == PYODIDE_MAX_SLOWDOWN:  # so that 2.004 (missed) does not read as 2.00
        text = f"{ratio:.3f}"
    return f"{text}×"


def mark(ok: bool) -> str:
    return "✓" if ok else "✗"


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
    variant. Every game must stay within ``PYODIDE_MAX_SLOWDOWN``; Guanpai is also held to
    ``GAMES_PER_S_VS_RLCARD``."""
    import engine_bench  # bench/engine_bench.py: the same code runs in Pyodide

    variants = variants_of(game)
    arg = {"game": game, "variants": variants, "budget": bench.budget, "batches": bench.batches}
    log(f"{game} on CPython: variants {variants}")
    cpy = engine_bench.measure(**arg)
    log(f"{game} in Pyodide under node: variants {variants}")
    started = time.perf_counter()
    pyo = run_in_pyodide(
        BENCH_DIR / "engine_bench.py", arg, timeout=300 + 4 * len(variants) * bench.budget
    )
    wall = time.perf_counter() - started
    if pyo["python"] != cpy["python"]:
        bench.notes.append(
            f"Interpreters differ: CPython {cpy['python']} here, Python {pyo['python']} in "
            "Pyodide; the slowdown column compares the two as they are."
        )
    bench.notes.append(
        f"Pyodide: Python {pyo['python']} on {pyo['platform']}, node {node_version()}; "
        f"the whole node run took {wall:.1f} s. Clock overhead per timed call: "
        f"{fmt_time(cpy['clock_overhead_s'])} CPython, {fmt_time(pyo['clock_overhead_s'])} "
        "Pyodide (included in the times below, not subtracted)."
    )

    rlcard = bench.facts.get("rlcard_games_per_s")
    rows = []
    for variant in variants:
        c = cpy["variants"][str(variant)]
        p = pyo["variants"][str(variant)]
        name = f"{game}/{variant}" if variant else game
        bench.notes.append(
            f"{name}: {c['games']} + {p['games']} games for games/s (CPython + Pyodide), "
            f"{c['legal_moves_calls'] / c['games']:.1f} decisions and "
            f"{c['decide_calls'] / c['games']:.1f} plays per game."
        )

        slowdown = c["games_per_s"] / p["games_per_s"]
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
                f"{name}: random games/s",
                fmt_rate(c["games_per_s"]),
                fmt_rate(p["games_per_s"]),
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
            if c[key] is None or p[key] is None:
                rows.append(Row(f"{name}: {label}", target="no calls measured"))
                continue
            slowdown = p[key] / c[key]
            ok = slowdown <= PYODIDE_MAX_SLOWDOWN
            rows.append(
                Row(
                    f"{name}: {label}",
                    fmt_time(c[key]),
                    fmt_time(p[key]),
                    fmt_ratio(slowdown),
                    f"Pyodide ≤ {PYODIDE_MAX_SLOWDOWN:g}× slower {mark(ok)}",
                    ok,
                )
            )
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
    pyo = run_in_pyodide(BENCH_DIR / "engine_bench.py", arg, timeout=600)
    rows = []
    for variant in variants:
        c, p = cpy["variants"][str(variant)], pyo["variants"][str(variant)]
        name = f"{game}/{variant}" if variant else game
        what = f"{c['hand_size']}-card lead holding {c['jokers']} jokers, {deals} deals"
        ok = p["median_s"] < target_s
        rows.append(
            Row(
                f"{name}: median `legal_moves`, {what}",
                fmt_time(c["median_s"]),
                fmt_time(p["median_s"]),
                fmt_ratio(p["median_s"] / c["median_s"]),
                f"Pyodide median < {fmt_time(target_s)} {mark(ok)}",
                ok,
            )
        )
        rows.append(
            Row(
                f"{name}: p99 `legal_moves`, {what}",
                fmt_time(c["p99_s"]),
                fmt_time(p["p99_s"]),
                fmt_ratio(p["p99_s"] / c["p99_s"]),
                "reported",
            )
        )
    return rows


# The engine before "the engine carries every game as one module" (the core's hooks, words,
# readings, the deal as drawn): its games/s are measured beside today's in the same run.
BEFORE_CORE_CHANGE = "b586c85"
MAX_FALL = 0.05  # today's games/s may be at most this much below the engine before the change
COMPARE_ROUNDS = 3  # alternating before/now subprocesses per variant; the median of each is kept

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
    core change, in alternating fresh processes (so that neither gets a warmer machine)."""
    import statistics

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
            b, n = statistics.median(before), statistics.median(now)
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
        f"{COMPARE_ROUNDS} rounds of {bench.budget:g} s per variant; medians."
    )
    return rows


# --- report ---------------------------------------------------------------------------------

SECTIONS: list[tuple[str, Section]] = [
    ("Reference: RLCard", rlcard_section),
    ("Guanpai engine: CPython vs Pyodide", guanpai_section),
    ("Banzipao engine: CPython vs Pyodide", banzipao_section),
    ("Dagong engine: CPython vs Pyodide", dagong_section),
    ("Dagong: the hardest decision, a first lead holding every joker", dagong_leads_section),
    ("Dabang engine (a game is a whole match): CPython vs Pyodide", dabang_section),
    ("Engines before and after the core change (CPython)", before_and_after_section),
    (
        "Bot levels: 普通 among 入门, 高手 among 普通, in duplicate duels (paiju duel, CPython)",
        duel_section,
    ),
    ("Browser client: Chromium", browser_section),
    ("Practice: a bot's move in Pyodide (Chromium)", practice_section),
    (
        "First visit: bytes on the wire and engine ready, cold and warm (Chromium)",
        first_visit_section,
    ),
    (
        "Services under load: the load tool's short runs beside the floor's (bench/load.py, floor.py)",
        services_section,
    ),
]


def node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return "absent"
    return subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()


def pyodide_version() -> str:
    try:
        return str(json.loads((PYODIDE_DIR / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return "absent"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def render(bench: Bench, results: list[tuple[str, list[Row], str | None]]) -> str:
    lines = [
        "# Paiju benchmark report",
        "",
        f"- Date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
        f"- Machine: {cpu_model()}, {os.cpu_count()} CPUs",
        f"- CPython {platform.python_version()} ({sys.executable})",
        f"- Pyodide {pyodide_version()} (npm) under node {node_version()}",
        f"- Budget: {bench.budget:g} s per measurement; games/s is the median of "
        f"{bench.batches} batches; call times are medians over all calls in the budget.",
        "",
    ]
    header = "| Metric | CPython | Pyodide (node) | Pyodide slowdown | Reference / target | Met |"
    for title, rows, error in results:
        lines += [f"## {title}", ""]
        if error:
            lines += ["**Not measured:**", "", "```", error.rstrip(), "```", ""]
        if rows:
            lines += [header, "|---|---:|---:|---:|---|:-:|"]
            for r in rows:
                met = "" if r.met is None else ("yes" if r.met else "**no**")
                cells = [r.metric, r.cpython, r.pyodide, r.slowdown, r.target, met]
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
    checked = [r for _, rows, _ in results for r in rows if r.met is not None]
    failed = [r.metric for r in checked if not r.met]
    errors = [title for title, _, error in results if error]
    lines += ["## Summary", ""]
    lines.append(
        f"{len(checked) - len(failed)} of {len(checked)} targets met"
        + (f"; not met: {', '.join(failed)}" if failed else "")
        + (f"; not measured: {', '.join(errors)}" if errors else "")
        + "."
    )
    if bench.notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in bench.notes]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--batches", type=int, default=6, help="batches per games/s figure")
    parser.add_argument("--report", type=Path, default=REPORT, help="markdown output")
    parser.add_argument(
        "--only", default="", help="run the sections whose title contains this text alone"
    )
    args = parser.parse_args(argv)

    bench = Bench(budget=args.budget, batches=args.batches)
    started = time.perf_counter()
    results: list[tuple[str, list[Row], str | None]] = []
    for title, section in SECTIONS:
        if args.only and args.only.lower() not in title.lower():
            continue
        try:
            results.append((title, section(bench), None))
        except Exception:
            log(f"section {title!r} failed")
            results.append((title, [], traceback.format_exc()))
    bench.notes.append(f"Whole bench run: {time.perf_counter() - started:.0f} s.")
    report = render(bench, results)
    args.report.write_text(report, encoding="utf-8")
    print(report)
    log(f"wrote {args.report}")
    return 1 if any(error for _, _, error in results) else 0


if __name__ == "__main__":
    sys.exit(main())
