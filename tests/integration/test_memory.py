"""memory.py: freed memory goes back to the system (glibc's malloc_trim), on a schedule."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from paiju_services import memory

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
