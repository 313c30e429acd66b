"""A service process: connect to NATS, make sure the stream and buckets exist, start, wait for
SIGINT or SIGTERM, stop cleanly (finish the requests in flight, drain the connection)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Protocol

import uvloop
from nats.aio.client import Client
from nats.js import JetStreamContext

from paiju_services import bus, logs, memory, metrics, streams, subjects
from paiju_services.config import Settings
from paiju_services.logs import log

logger = logging.getLogger("paiju.runner")


class Service(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...


Factory = Callable[[Settings, Client, JetStreamContext], Service]


async def run_service(name: str, settings: Settings, factory: Factory) -> None:
    nc = await bus.connect(settings, settings.instance)
    js = nc.jetstream(timeout=settings.request_timeout)
    # the table service creates the streams and buckets; the others may not (access.ROLES), and
    # wait for theirs: the bots service reads the turns offered to its seats, not the logs
    stream = subjects.TURNS_STREAM if name == "bots" else subjects.STREAM
    await streams.ensure(js, settings.replicas, stream=stream, create=name == "tables")
    service = factory(settings, nc, js)
    metrics.serve(settings.metrics_port)
    await service.start()
    await wait_for_signal()
    log(logger, "stopping", service=name)
    await service.stop()
    await close(nc)


async def close(nc: Client, timeout: float = 3.0) -> None:
    """Drain the connection (flush what is pending), but never hang a shutdown on it."""
    try:
        await asyncio.wait_for(nc.drain(), timeout)
    except Exception:
        with contextlib.suppress(Exception):
            await nc.close()


async def wait_for_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


def main(name: str, settings: Settings, run: Callable[[], Awaitable[None]]) -> None:
    logs.setup(name, settings.instance, settings.log_level)

    memory.watch_gc()

    async def with_upkeep() -> None:
        upkeep = [
            asyncio.create_task(memory.trim_forever(settings.trim_interval)),
            asyncio.create_task(memory.collect_forever(settings.full_collection_interval)),
        ]
        try:
            await run()
        finally:
            for task in upkeep:
                task.cancel()

    with contextlib.suppress(KeyboardInterrupt):
        uvloop.run(with_upkeep())  # libuv's event loop: less CPU per socket read and write
