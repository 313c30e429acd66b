"""What every section of the bench (bench/run.py) shares: its context (``Bench``), the report's
rows (``Row``), the formatting of their figures, and the progress log on stderr."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PYODIDE_MAX_SLOWDOWN = 2.0  # Pyodide may be at most this many times slower than CPython


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


def timed_row(
    metric: str, cpython_s: float, pyodide_s: float, target: str, met: bool | None = None
) -> Row:
    """A row of one call's time in CPython and in Pyodide, with Pyodide's slowdown."""
    return Row(
        metric,
        fmt_time(cpython_s),
        fmt_time(pyodide_s),
        fmt_ratio(pyodide_s / cpython_s),
        target,
        met,
    )


def mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return "absent"
    return subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
