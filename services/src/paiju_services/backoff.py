"""One back-off policy for every retry loop of the services: a call that failed because a
dependency is away or overloaded is tried again after a wait that doubles with each failure in a
row, up to a cap, with jitter; a success starts the count again.

The policy is data (``Backoff(base, cap)``; the services' own comes from the ``retry_base`` and
``retry_cap`` settings, ``from_settings``), and ``Streak`` is one loop's run of failures.

The jitter is "equal jitter": the wait after the n-th failure in a row (n from 0) is drawn
uniformly from ``[d/2, d]``, ``d = min(cap, base * 2**n)``. Full jitter (``[0, d]``) spreads a
crowd a little wider, but its draws can come near zero, and then a loop's worst case is no
back-off at all: with a floor of half a step, the most attempts that fit in any window is bounded
for every draw (``most_attempts``), which is what lets a caller that meets a dead table service
for a minute promise a few dozen attempts, not a few hundred. The random half still spreads
callers that failed together over a window half a step wide.

>>> policy = Backoff(base=0.5, cap=8.0)
>>> [policy.ceiling(n) for n in range(6)]
[0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
>>> policy.delay(3, random=lambda: 0.0), policy.delay(3, random=lambda: 1.0)
(2.0, 4.0)
>>> policy.most_attempts(60.0)
19
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

MAX_DOUBLINGS = 62  # 2**62 times the base is past any cap: no float overflow however long it runs


class RetrySettings(Protocol):
    retry_base: float
    retry_cap: float


@dataclass(frozen=True)
class Backoff:
    """Exponential back-off with equal jitter: ``base`` seconds after the first failure (before
    jitter), doubling, never above ``cap``."""

    base: float
    cap: float

    def __post_init__(self) -> None:
        if not 0 < self.base <= self.cap:
            raise ValueError(f"a back-off needs 0 < base <= cap, not {self.base}, {self.cap}")

    def ceiling(self, failures: int) -> float:
        """The longest wait after ``failures + 1`` failures in a row (``failures`` from 0)."""
        return min(self.cap, self.base * 2.0 ** min(failures, MAX_DOUBLINGS))

    def delay(self, failures: int, random: Callable[[], float] = _random.random) -> float:
        """The wait after ``failures + 1`` failures in a row: between half the ceiling and all of
        it. ``random``: a draw from [0, 1) (a test's fixed one)."""
        ceiling = self.ceiling(failures)
        return ceiling / 2 + random() * ceiling / 2

    def most_attempts(self, window: float) -> int:
        """The most attempts a loop that fails every time makes in ``window`` seconds, whatever
        the draws: the first at once, each next one at least half a ceiling later."""
        attempts, elapsed = 1, 0.0
        while True:
            elapsed += self.ceiling(attempts - 1) / 2
            if elapsed > window:
                return attempts
            attempts += 1


class Streak:
    """One retry loop's failures in a row: ``failed`` gives the wait before the next attempt,
    ``succeeded`` starts the count again."""

    def __init__(self, policy: Backoff) -> None:
        self.policy = policy
        self.failures = 0

    def failed(self) -> float:
        wait = self.policy.delay(self.failures)
        self.failures += 1
        return wait

    def succeeded(self) -> None:
        self.failures = 0


def from_settings(settings: RetrySettings) -> Backoff:
    """The services' policy: ``retry_base`` and ``retry_cap`` (config.py)."""
    return Backoff(settings.retry_base, settings.retry_cap)
