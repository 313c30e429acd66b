"""Passes run again and again: a service's sweeps, each run every few seconds for as long as the
service runs. A pass that fails is logged (``sweep failed``, with the pass's name) and run again
at the next interval: a sweep depends on nothing it kept in memory, so the next one does the work
the failed one left."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from paiju_services.logs import log

Pass = Callable[[], Awaitable[object]]


async def every(seconds: float, passes: tuple[Pass, ...], logger: logging.Logger) -> None:
    """Run ``passes`` one after the other, then wait ``seconds``, for ever (until cancelled)."""
    while True:
        for work in passes:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                name = getattr(work, "__name__", repr(work))
                log(logger, "sweep failed", logging.WARNING, work=name, error=repr(exc))
        await asyncio.sleep(seconds)
