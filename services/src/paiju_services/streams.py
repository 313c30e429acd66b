"""The streams, buckets and consumer the services use, made at start when they do not exist.

Every service calls ``ensure`` at its start (the table service creates; the others, whose NATS
users may not, wait until it has: paiju_services.access): the event stream (``store.EventStore``
reads and appends it), the directory, secrets and bots' tokens buckets, the retirement's buckets,
the archive and the stream of bot turns. The table service keeps the bots' consumer
(``ensure_bots_consumer``, at start and every sweep). An existing stream's settings are the
operator's, but for its republishing of the stored headers (``REPUBLISH``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import nats.errors
import nats.js.errors
from nats.js import JetStreamContext
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    KeyValueConfig,
    ObjectStoreConfig,
    RePublish,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.kv import KeyValue

from paiju_services import subjects
from paiju_services.backoff import Backoff, Streak
from paiju_services.logs import log
from paiju_services.store import (
    ARCHIVE_BUCKET,
    DUPLICATE_WINDOW,
    MAX_MSG_SIZE,
    RETIRED_BUCKET,
    RETIRING_BUCKET,
    StoreError,
)

logger = logging.getLogger("paiju.store")


async def ensure(
    js: JetStreamContext, replicas: int = 1, stream: str = subjects.STREAM, create: bool = True
) -> None:
    """Create the stream, the KV buckets and the archive when they do not exist (every service
    calls this at start; it is idempotent, and leaves an existing stream's settings to the
    operator: nats-server refuses to turn ``deny_purge`` off on a stream made before retirement,
    whose tables then stay in it — the table service says so once).
    ``create=False``: a service whose NATS user may not create them (paiju_services.access) waits
    until the table service has.

    Raises:
        StoreError: JetStream was not ready, or the stream not made, within ``START_WINDOW``.
    """
    if not create:
        await until_ready(lambda: js.stream_info(stream), f"the stream {stream}")
        return
    await until_ready(lambda: _make_all(js, replicas, stream), "JetStream")


T = TypeVar("T")
START_RETRY = Backoff(base=0.25, cap=2.0)
START_WINDOW = 60.0  # seconds a service waits at its start for JetStream, then gives up
# a cluster still electing its meta leader; or a stream or bucket that another copy (or this one)
# has just made and whose raft group has not formed yet: nats-server answers "not found" meanwhile
NOT_READY = (
    nats.errors.TimeoutError,
    nats.js.errors.ServiceUnavailableError,
    nats.js.errors.NotFoundError,
)


async def until_ready(
    attempt: Callable[[], Awaitable[T]], what: str, window: float = START_WINDOW
) -> T:
    """``attempt()``'s result, tried again after a jittered back-off while JetStream answers
    ``NOT_READY``, for at most ``window`` seconds.

    Raises:
        StoreError: still not ready after ``window`` seconds.
    """
    waits = Streak(START_RETRY)
    deadline = asyncio.get_running_loop().time() + window
    while True:
        try:
            return await attempt()
        except NOT_READY as exc:
            wait = waits.failed()
            if asyncio.get_running_loop().time() + wait > deadline:
                raise StoreError(f"{what}: not ready after {window:.0f}s ({exc!r})") from exc
            log(logger, "waiting for JetStream", logging.INFO, what=what, error=repr(exc))
            await asyncio.sleep(wait)


async def _make_all(js: JetStreamContext, replicas: int, stream: str) -> None:
    config = StreamConfig(
        name=stream,
        description="Paiju table logs: one subject per table, header then engine events",
        subjects=[subjects.EVENTS_ALL],
        storage=StorageType.FILE,
        retention=RetentionPolicy.LIMITS,
        discard=DiscardPolicy.NEW,  # full: refuse new appends, never drop history
        max_msg_size=MAX_MSG_SIZE,
        duplicate_window=DUPLICATE_WINDOW,
        num_replicas=replicas,
        allow_direct=True,
        allow_atomic=True,
        deny_delete=True,  # an event log is append-only: no message is ever deleted alone
        deny_purge=False,  # a retired table's subject is purged, once its archive is read back
        republish=REPUBLISH,  # each stored message on paiju.stored.<table>: the gateway's feeds
    )
    # the buckets first: a service that waits for the stream then finds them too
    for bucket, history, description in (
        (subjects.TABLES_BUCKET, 5, "Paiju table directory"),
        (subjects.SECRETS_BUCKET, 1, "Paiju table secrets (base seeds)"),
        (subjects.BOT_TOKENS_BUCKET, 1, "Paiju bots' seat tokens"),
    ):
        await _ensure_bucket(js, bucket, history, description, replicas)
    # read by batched direct gets (the retirement pass), never by a consumer
    await _ensure_bucket(
        js, RETIRING_BUCKET, 1, "Paiju tables waiting for retirement", replicas, direct=True
    )
    await _ensure_bucket(
        js, RETIRED_BUCKET, 1, "Paiju retired tables, until deleted", replicas, direct=True
    )
    await _ensure_archive(js, replicas)
    await _ensure_turns(js, replicas)
    try:
        info = await js.stream_info(stream)
    except nats.js.errors.NotFoundError:
        with contextlib.suppress(nats.js.errors.BadRequestError):
            await js.add_stream(config)
            log(logger, "stream created", stream=stream, replicas=replicas)
    else:
        await _ensure_republish(js, info.config)


# headers only: the gateway learns that (and which version) a table stored, never what
REPUBLISH = RePublish(src=subjects.EVENTS_ALL, dest=subjects.STORED_ALL, headers_only=True)


async def _ensure_republish(js: JetStreamContext, config: StreamConfig) -> None:
    """A stream made before the feeds followed its republished messages gets them (the one
    setting of an existing stream this changes: without it a gateway's feeds would only catch up
    at their safety check)."""
    if config.republish == REPUBLISH:
        return
    config.republish = REPUBLISH
    try:
        await js.update_stream(config)
        log(logger, "stream republishes", stream=config.name)
    except nats.js.errors.APIError as exc:
        log(logger, "stream does not republish", logging.ERROR, stream=config.name, error=str(exc))


TURNS_MAX_AGE = 24 * 3600.0  # seconds a bot's turn nobody took stays offered


async def _ensure_turns(js: JetStreamContext, replicas: int) -> None:
    """The stream of bot seats' turns (``messages.BotTurn``): a work queue — a turn is removed
    once the bots service acknowledges it — deduplicated by message id (the table service offers
    a turn again on each sweep while it is not taken)."""
    try:
        await js.stream_info(subjects.TURNS_STREAM)
        return
    except nats.js.errors.NotFoundError:
        pass
    config = StreamConfig(
        name=subjects.TURNS_STREAM,
        description="Paiju bot seats' turns: the seat's view only",
        subjects=[subjects.TURNS_ALL],
        storage=StorageType.FILE,
        retention=RetentionPolicy.WORK_QUEUE,
        max_age=TURNS_MAX_AGE,
        max_msg_size=MAX_MSG_SIZE,
        duplicate_window=DUPLICATE_WINDOW,
        num_replicas=replicas,
    )
    with contextlib.suppress(nats.js.errors.BadRequestError):
        await js.add_stream(config)
        log(logger, "stream created", stream=subjects.TURNS_STREAM, replicas=replicas)


def bots_consumer(bot_delay: float) -> ConsumerConfig:
    """The bots service's durable pull consumer of the turns (``paiju-bots``), shared by all its
    copies: a turn not acknowledged within ``ack_wait`` (a bot thinks ``bot_delay`` seconds) is
    delivered again."""
    return ConsumerConfig(
        durable_name=subjects.BOTS_CONSUMER,
        description="Paiju bots: the turns of bot seats (their views only)",
        filter_subject=subjects.TURNS_ALL,
        deliver_policy=DeliverPolicy.ALL,
        ack_policy=AckPolicy.EXPLICIT,
        ack_wait=max(30.0, 4 * bot_delay + 10),
        max_ack_pending=1000,
        max_deliver=100,
    )


async def ensure_bots_consumer(js: JetStreamContext, bot_delay: float) -> bool:
    """Make the bots' consumer if it is missing (the table service, at its start and on every
    sweep: the bots user may only pull from it and acknowledge, never make, change or delete it,
    paiju_services.access); True when it was made now.

    Raises:
        nats.errors.Error: JetStream did not answer (the next sweep tries again).
    """
    try:
        await js.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        return False
    except nats.js.errors.NotFoundError:
        pass
    with contextlib.suppress(nats.js.errors.BadRequestError):  # made meanwhile by another copy
        await js.add_consumer(subjects.TURNS_STREAM, bots_consumer(bot_delay))
    log(logger, "consumer created", stream=subjects.TURNS_STREAM, consumer=subjects.BOTS_CONSUMER)
    return True


async def _ensure_bucket(
    js: JetStreamContext,
    bucket: str,
    history: int,
    description: str,
    replicas: int,
    direct: bool | None = None,
) -> KeyValue:
    try:
        return await js.key_value(bucket)
    except nats.js.errors.BucketNotFoundError:
        pass
    with contextlib.suppress(nats.js.errors.BadRequestError):
        await js.create_key_value(
            KeyValueConfig(
                bucket=bucket,
                description=description,
                history=history,
                storage=StorageType.FILE,
                replicas=replicas,
                direct=direct,
            )
        )
        log(logger, "bucket created", bucket=bucket, replicas=replicas)
    return await js.key_value(bucket)


async def _ensure_archive(js: JetStreamContext, replicas: int) -> None:
    """The archive: an Object Store bucket (file storage, direct gets allowed)."""
    try:
        await js.object_store(ARCHIVE_BUCKET)
        return
    except nats.js.errors.BucketNotFoundError:
        pass
    with contextlib.suppress(nats.js.errors.BadRequestError):
        await js.create_object_store(
            ARCHIVE_BUCKET,
            ObjectStoreConfig(
                description="Paiju retired table logs: one object per table",
                storage=StorageType.FILE,
                replicas=replicas,
            ),
        )
        log(logger, "bucket created", bucket=ARCHIVE_BUCKET, replicas=replicas)
