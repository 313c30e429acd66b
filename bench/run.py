"""Paiju benchmarks (`make bench`): measure, print and write bench/report.md.

Each section is a function that takes the shared Bench context and returns report rows
(bench/bench_rows.py); to add one (browser timings, services, ...) write such a function and list
it in SECTIONS. The engine sections are in bench/engine_sections.py, the others in the modules
named below. Sections run
in order and may read what earlier ones left in `bench.facts`.

Sections now:
- RLCard reference: RLCard's Dou Dizhu engine alone, random games/s, in a separate venv
  (.venv-bench, created here on first use) so RLCard never enters the project's venv.
- Guanpai, Banzipao, Dagong and Dabang engines: random games/s (Dabang: whole matches) and median
  and p99 legal_moves / median decide times per variant, on CPython in-process and in Pyodide in a
  module worker of Debian's headless Chromium, where players run it (bench/pyodide_browser.py
  running bench/engine_bench.py); the same games under node (tools/pyodide/run.mjs) in the notes.
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
import sys
import time
import traceback
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPORT = BENCH_DIR / "report.md"
PYODIDE_DIR = BENCH_DIR.parent / "web-client" / "node_modules" / "pyodide"

sys.path.insert(0, str(BENCH_DIR))
from bench_rows import Bench, Row, Section, log, node_version  # noqa: E402  (a sibling module)
from browser_bench import browser_section, first_visit_section  # noqa: E402
from duel_bench import duel_section  # noqa: E402
from engine_sections import (  # noqa: E402
    banzipao_section,
    before_and_after_section,
    dabang_section,
    dagong_leads_section,
    dagong_section,
    guanpai_section,
    rlcard_section,
)
from practice_bench import practice_section  # noqa: E402
from pyodide_browser import chromium_version  # noqa: E402
from services_bench import services_section  # noqa: E402

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
        f"- Pyodide {pyodide_version()} (npm) in a module worker of Chromium {chromium_version()} "
        f"(Debian's, headless); the same games under node {node_version()} in the notes",
        f"- Budget: {bench.budget:g} s per measurement; games/s is the median of "
        f"{bench.batches} batches, except in the CPython-vs-Pyodide rows, which time the same "
        "games in both runtimes (their notes say how); call times are medians over all calls in "
        "the budget.",
        "",
    ]
    header = (
        "| Metric | CPython | Pyodide (Chromium) | Pyodide slowdown | Reference / target | Met |"
    )
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
