"""The raw JetStream reference of the load tool (bench/load.py): acked publishes a second from
nats-py at the players' concurrency, in the same run, on the same machine: the ceiling the store
alone would allow."""

from __future__ import annotations

import asyncio
import itertools
import os
import time


async def raw_jetstream(nats_url: str, writers: int, seconds: float) -> float:
    """Acked publishes a second to a scratch file stream, ``writers`` at once, each on its own
    subject with the expected-last-subject-sequence and message-id headers a command carries."""
    import nats

    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    stream = f"LOADREF{os.getpid()}"
    await js.add_stream(name=stream, subjects=[f"loadref{os.getpid()}.>"], storage="file")
    count = 0
    deadline = time.monotonic() + seconds
    payload = b'{"type":"played","seat":0,"cards":["3D"]}'

    async def writer(n: int) -> None:
        nonlocal count
        last = 0
        for i in itertools.count():
            if time.monotonic() >= deadline:
                return
            headers = {
                "Nats-Expected-Last-Subject-Sequence": str(last),
                "Nats-Msg-Id": f"{n}-{i}",
            }
            ack = await js.publish(f"loadref{os.getpid()}.{n}", payload, headers=headers)
            last = ack.seq
            count += 1

    started = time.monotonic()
    await asyncio.gather(*(writer(n) for n in range(writers)))
    rate = count / (time.monotonic() - started)
    await js.delete_stream(stream)
    await nc.close()
    return rate
