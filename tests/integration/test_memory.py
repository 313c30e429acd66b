"""memory.py: freed memory goes back to the system (glibc's malloc_trim), on a schedule; full garbage
collections come on a schedule too, and only then."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from paiju_services import memory

# run after the other tests, one at a time (make test): it counts the scheduled collections of a
# process kept busy
pytestmark = pytest.mark.alone

# A heap like a long-running gateway's: many frames of a few KB made and freed, a few kept
# among them, so the freed space is scattered and the C allocator keeps it.
FRAGMENTED = """
import random, sys
from paiju_services.memory import malloc_trim

def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])

rng, kept, churn = random.Random(1), [], []
for _ in range(300_000):
    frame = bytes(rng.randint(600, 8000))
    (kept if rng.random() < 0.05 else churn).append(frame)
    if len(churn) > 5000:
        churn.clear()
churn.clear()
before = rss_kb()
trim = malloc_trim()
trim()
print(before, rss_kb())
"""


def test_trimming_gives_a_fragmented_heap_back_to_the_system() -> None:
    out = subprocess.run(
        [sys.executable, "-c", FRAGMENTED], capture_output=True, text=True, check=True
    )
    before, after = map(int, out.stdout.split())
    assert after < before - 2_000, (before, after)  # at least 2 MB of 100+ given back


async def test_no_trimming_when_the_interval_is_zero() -> None:
    await asyncio.wait_for(memory.trim_forever(0), 1)  # returns at once, never loops


async def test_the_trimmer_trims_every_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(memory, "malloc_trim", lambda: lambda: calls.append(1) or 1)
    task = asyncio.create_task(memory.trim_forever(0.01))
    await asyncio.sleep(0.2)
    task.cancel()
    assert len(calls) >= 3


# The old generation grows by 400,000 containers kept: CPython alone runs full collections on it;
# with collect_forever, only its schedule does. Prints the full collections seen and the third
# threshold.
SCHEDULE = """
import asyncio, gc, sys
from paiju_services import memory

full = []
gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2 and full.append(1))

async def main(interval, seconds):
    task = asyncio.create_task(memory.collect_forever(interval))
    await asyncio.sleep(0)
    kept = []
    for i in range(400_000):
        kept.append([i])
    await asyncio.sleep(seconds)
    task.cancel()
    print(len(full), gc.get_threshold()[2])

asyncio.run(main(float(sys.argv[1]), float(sys.argv[2])))
"""


def full_collections(interval: float, seconds: float) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", SCHEDULE, str(interval), str(seconds)],
        capture_output=True,
        text=True,
        check=True,
    )
    full, threshold = map(int, out.stdout.split())
    return full, threshold


def test_cpython_runs_full_collections_on_its_own_without_a_schedule() -> None:
    full, _ = full_collections(0, 0)
    assert full >= 1


def test_with_a_schedule_no_full_collection_comes_between_two() -> None:
    full, threshold = full_collections(1000, 0)
    assert (full, threshold) == (0, memory.NEVER)


def test_with_a_schedule_a_full_collection_comes_every_interval() -> None:
    # a window of forty intervals, of which at least four see a full collection: each collection
    # of the 400,000 containers takes a while, more on a core the suite's other workers share
    # (a window of ten intervals saw three)
    full, _ = full_collections(0.05, 2.0)
    assert full >= 4
