"""Giving freed memory back to the system, in every service process.

Memory CPython frees for objects larger than its own small-object arenas (frames of a few KB, the
buffers of messages and sockets) goes back to the C allocator, which keeps it for reuse rather
than returning it: after hours of tables opening and closing, sockets coming and going, a process's
resident size is its high-water mark plus fragmentation, not what it holds. Measured in a
30-minute soak of 300 tables: the gateway grew 0.85 MB a minute to 145 MB, and glibc's
``malloc_trim(0)`` brought it back to 126 MB twice, four minutes apart — the same floor, so nothing
was held, only kept. Every ``trim_interval`` seconds each process calls it (under a millisecond for
a heap of 160 MB); where the C library has no ``malloc_trim`` (not glibc) nothing is done.

**Full collections on a schedule.** CPython's cyclic collector stops the process while it scans,
and a full collection scans every tracked object: a gateway holding 6,000 sockets holds about a
million (22,000 tasks and their coroutines, queues, closures), and each full collection stopped it
0.5–0.8 s. CPython starts one whenever the old generation has grown by a quarter since the last,
which under load was every 10–17 s: a move's view waited for one of them often enough to take the
2,000-table p99 to 0.6 s. Each process now runs its full collections itself, every
``full_collection_interval`` seconds, and CPython's own are off (the young and middle generations
are collected as before: most garbage dies there). The cost is memory: cyclic garbage that
reached the old generation (a closed socket's, mostly) waits for the next full collection.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from paiju_services import metrics
from paiju_services.logs import log

logger = logging.getLogger("paiju.memory")
YOUNG = 20_000  # allocations between two collections of the young generation (CPython: 700)
LONG_PAUSE = 0.05  # seconds: a collector pause logged (every pause is counted in the metrics)


def malloc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library lacks it."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: int(trim(0))


async def trim_forever(interval: float) -> None:
    """Return freed memory to the system every ``interval`` seconds (0: never)."""
    trim = malloc_trim()
    if trim is None or interval <= 0:
        return
    while True:
        await asyncio.sleep(interval)
        trim()


NEVER = 1 << 30  # a threshold the old generation's count never reaches


async def collect_forever(interval: float) -> None:
    """Run a full collection every ``interval`` seconds, and none at CPython's own initiative
    (0: leave it to CPython)."""
    if interval <= 0:
        return
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    while True:
        await asyncio.sleep(interval)
        gc.collect()


class PauseWatch:
    """Times every pause of the cyclic garbage collector (``gc.callbacks``): into the metrics
    (``paiju_gc_pause_seconds``), and into the log when longer than ``LONG_PAUSE``. Every
    coroutine of the process waits while the collector runs: a long pause is latency for all."""

    def __init__(self) -> None:
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        pause = time.perf_counter() - self.started
        generation = info.get("generation", -1)
        metrics.GC_PAUSE_SECONDS.labels(str(generation)).observe(pause)
        if pause >= LONG_PAUSE:
            log(
                logger,
                "gc pause",
                logging.WARNING,
                generation=generation,
                ms=round(pause * 1000, 1),
                collected=info.get("collected"),
            )


def watch_gc() -> None:
    """Time the collector's pauses in this process (once)."""
    if not any(isinstance(cb, PauseWatch) for cb in gc.callbacks):
        gc.callbacks.append(PauseWatch())


def tune_gc() -> None:
    """Fewer full collections, for the load tool (whose own pauses would be counted as the
    system's latency): the objects made while starting are frozen out of every later scan, and
    the young generation is collected every ``YOUNG`` allocations rather than 700, so that what a
    request holds for a few milliseconds dies young instead of being promoted to the old
    generation, whose growth by a quarter triggers a full collection. Not in the services: in the
    gateway it took the 2,000-table p99 from 0.6 s to 30 ms, but its memory then climbed about
    6 MB a minute through a soak (docs/services.md, "Garbage-collector pauses")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
