"""The browser client, measured in Debian's headless Chromium against the real stack (started as
``make run`` starts it, on free ports): the time from page load to "engine ready" (Pyodide and
the engine wheel loaded in the worker), and the time of one local validation of a selection.

- Engine ready: ``performance.now()`` at the worker's "ready" (ms since navigation start), in
  fresh browser contexts (an empty HTTP cache each), median over ``RUNS`` loads; with its parts
  (Pyodide, the wheel, the import) from the worker.
- One validation: at a real table, on the seat's turn, ``window.paiju.table.benchValidate(N)``
  checks N selections of 1 to 5 cards of the seat's hand one after the other: the round trip
  page → worker (``paiju.client`` rebuilt state, ``decide``) → page, and the part spent in Python.

Run alone: ``.venv/bin/python bench/browser_bench.py`` prints the figures as JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from e2e.stack import CHROMIUM, CHROMIUM_ARGS, running_stack  # noqa: E402

RUNS = 3  # page loads for the engine-ready time
CHECKS = 400  # validations timed
VALIDATION_TARGET_MS = 5.0  # median round trip of one validation


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def measure(runs: int = RUNS, checks: int = CHECKS) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"loads": [], "checks": checks}
    with (
        tempfile.TemporaryDirectory(prefix="paiju-bench-") as tmp,
        running_stack(Path(tmp), bot_delay=0.05) as stack,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        out["chromium"] = browser.version
        try:
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.goto(stack.url)
                page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)
                out["loads"].append(
                    page.evaluate(
                        "({ready: window.paiju.engine.readyAt, parts: window.paiju.engine.timings,"
                        " python: window.paiju.engine.python})"
                    )
                )
                context.close()
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(stack.url)
            page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)
            page.click("#create-submit")  # 关牌 with two bots (the form's defaults)
            page.wait_for_function("document.body.dataset.myTurn === '1'")
            timed = page.evaluate(f"window.paiju.table.benchValidate({checks})")
            out["hand"] = page.evaluate("window.paiju.table.state.hand.length")
            context.close()
        finally:
            browser.close()
    out["round_trip_ms"] = timed["roundTrip"]
    out["worker_ms"] = timed["worker"]
    out["update_ms"] = timed["updates"]
    out["total_ms"] = timed["totalMs"]
    return out


def summary(raw: dict[str, Any]) -> dict[str, Any]:
    ready = [load["ready"] for load in raw["loads"]]
    parts = raw["loads"][0]["parts"] if raw["loads"] else {}
    rt = raw["round_trip_ms"]
    py = raw["worker_ms"]
    return {
        "chromium": raw.get("chromium"),
        "python": raw["loads"][0]["python"] if raw["loads"] else None,
        "engine_ready_ms": {
            "median": statistics.median(ready),
            "runs": ready,
            "pyodide_ms": [load["parts"]["pyodide"] for load in raw["loads"]],
            "wheel_ms": [load["parts"]["wheel"] for load in raw["loads"]],
            "import_ms": [load["parts"]["import"] for load in raw["loads"]],
            "first_parts": parts,
        },
        "validation_ms": {
            "count": len(rt),
            "hand": raw.get("hand"),
            "round_trip_median": statistics.median(rt),
            "round_trip_p99": percentile(rt, 0.99),
            "round_trip_mean": raw["total_ms"] / len(rt),
            "worker_median": statistics.median(py),
            "worker_p99": percentile(py, 0.99),
        },
        "view_update_ms": {
            "median": statistics.median(raw["update_ms"]),
            "p99": percentile(raw["update_ms"], 0.99),
        },
    }


def browser_section(bench: Any) -> list[Any]:
    """The section for bench/run.py: rows with the Chromium figures in the Pyodide column."""
    from run import Row, fmt_time, log, mark

    log("browser: Chromium against the stack (engine ready, local validation)")
    figures = summary(measure())
    bench.facts["browser"] = figures
    ready = figures["engine_ready_ms"]
    check = figures["validation_ms"]
    ok = check["round_trip_median"] < VALIDATION_TARGET_MS
    bench.notes.append(
        f"Browser: Chromium {figures['chromium']} (Debian, headless), Pyodide Python "
        f"{figures['python']} in a module worker, everything served by the gateway. Engine ready "
        f"over {len(ready['runs'])} fresh loads: "
        + ", ".join(f"{ms:.0f} ms" for ms in ready["runs"])
        + f" (first load: Pyodide {ready['first_parts'].get('pyodide', 0):.0f} ms, wheel "
        f"{ready['first_parts'].get('wheel', 0):.0f} ms, import "
        f"{ready['first_parts'].get('import', 0):.0f} ms). Validation: {check['count']} "
        f"selections of 1–5 cards from a {check['hand']}-card 关牌 hand on the seat's turn; "
        "round trip = postMessage to the worker, `decide` on the state rebuilt from the last "
        f"view, reply; mean over the whole run {check['round_trip_mean']:.3f} ms (Chromium's "
        "`performance.now()` is coarsened to 0.1 ms without cross-origin isolation, so medians "
        "read in steps of 0.1 ms)."
    )
    return [
        Row(
            "Browser: page load → engine ready (median)",
            pyodide=fmt_time(ready["median"] / 1000),
            target="reported",
        ),
        Row(
            "Browser: one local validation, round trip (median)",
            pyodide=fmt_time(check["round_trip_median"] / 1000),
            target=f"< {VALIDATION_TARGET_MS:g} ms {mark(ok)}",
            met=ok,
        ),
        Row(
            "Browser: one local validation, round trip (p99)",
            pyodide=fmt_time(check["round_trip_p99"] / 1000),
            target="reported",
        ),
        Row(
            "Browser: a state frame's engine work, rebuild from the view + legal moves (median / p99)",
            pyodide=f"{fmt_time(figures['view_update_ms']['median'] / 1000)} / "
            f"{fmt_time(figures['view_update_ms']['p99'] / 1000)}",
            target="reported",
        ),
        Row(
            "Browser: one validation inside the worker (median / p99)",
            pyodide=f"{fmt_time(check['worker_median'] / 1000)} / "
            f"{fmt_time(check['worker_p99'] / 1000)}",
            target="reported",
        ),
    ]


if __name__ == "__main__":
    print(json.dumps(summary(measure()), indent=2))
