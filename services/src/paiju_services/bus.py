"""NATS plumbing shared by the services: connecting, serving requests in a queue group with one
task per request (so a handler may itself make requests, and a slow table does not hold up the
others), requesting with typed replies, and a clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import nats
import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from paiju.errors import RuleError
from paiju_services import access
from paiju_services.config import Settings, nats_servers
from paiju_services.errors import UNAVAILABLE, RemoteError, ServiceError, error_body
from paiju_services.logs import log
from paiju_services.messages import R, Reply, Request, decode_reply, encoder

logger = logging.getLogger("paiju.bus")

Handler = Callable[[Msg], Awaitable[Reply]]


async def connect(
    settings: Settings, name: str, reconnected: list[Callable[[], None]] | None = None
) -> Client:
    """A connection that reconnects for ever (services outlive a NATS restart). ``reconnected``:
    called after each reconnection (the list may be filled after the call)."""

    async def on_error(exc: Exception) -> None:
        log(logger, "nats error", logging.WARNING, error=repr(exc))

    conn: list[Client] = []

    async def on_disconnect() -> None:
        closing = bool(conn) and (conn[0].is_draining or conn[0].is_closed)
        log(logger, "nats disconnected", logging.INFO if closing else logging.WARNING)

    async def on_reconnect() -> None:
        log(logger, "nats reconnected")
        for hook in reconnected or ():
            hook()

    credentials: dict[str, str] = {}
    if settings.nats_user:
        credentials["user"] = settings.nats_user
        credentials["password"] = Path(settings.nats_password_file).read_text().strip()
        # replies come to the role's own prefix: the only inboxes its user may read (access.py)
        credentials["inbox_prefix"] = access.inbox_prefix(settings.nats_user)
    nc = await nats.connect(
        servers=nats_servers(settings),
        name=name,
        **credentials,
        **tls_options(settings),
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.5,
        connect_timeout=5,
        error_cb=on_error,
        disconnected_cb=on_disconnect,
        reconnected_cb=on_reconnect,
    )
    conn.append(nc)
    return nc


def tls_options(settings: Settings) -> dict[str, Any]:
    """TLS for the connection when ``tls_ca`` is set: the node's certificate is checked against
    that CA (and its name against the URL's host), and TLS starts before the server's first line
    is read (``handshake_first``), so a server that does not offer TLS, or one in the middle, never
    gets the password in clear. nats-py alone would follow the server's word on whether TLS is
    required, even for a ``tls://`` URL."""
    if not settings.tls_ca:
        return {}
    context = ssl.create_default_context(cafile=settings.tls_ca)
    return {"tls": context, "tls_handshake_first": True}


class Responder:
    """Serves request subjects in a queue group: each request runs in its own task (at most
    ``concurrency`` at once); a handler's ``ServiceError`` or engine ``RuleError`` becomes the
    reply's ``error``; anything else is logged and answered with ``internal``."""

    def __init__(self, nc: Client, queue: str, concurrency: int = 256) -> None:
        self.nc = nc
        self.queue = queue
        self.subs: list[Subscription] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(concurrency)

    async def serve(self, subject: str, handler: Handler, queue: bool = True) -> None:
        """Serve ``subject`` in the queue group, or (``queue`` false) this copy alone."""

        async def on_msg(msg: Msg) -> None:
            await self.slots.acquire()
            task = asyncio.create_task(self._run(handler, msg))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        group = self.queue if queue else ""
        self.subs.append(await self.nc.subscribe(subject, queue=group, cb=on_msg))

    async def _run(self, handler: Handler, msg: Msg) -> None:
        t0 = time.perf_counter()
        try:
            try:
                reply = await handler(msg)
            except msgspec.ValidationError as exc:
                reply = Reply(error=ServiceError("bad_request", detail=str(exc)[:160]).body())
            except msgspec.DecodeError as exc:
                reply = Reply(error=ServiceError("bad_json", detail=str(exc)[:160]).body())
            except (ServiceError, RemoteError, RuleError) as exc:  # answers, not failures
                reply = Reply(error=error_body(exc))
            except UNAVAILABLE as exc:  # NATS or the store failed: retryable, "unavailable"
                log(
                    logger,
                    "dependency failed",
                    logging.WARNING,
                    subject=msg.subject,
                    error=repr(exc),
                )
                reply = Reply(error=error_body(exc))
            except Exception as exc:
                log(logger, "handler failed", logging.ERROR, subject=msg.subject, error=repr(exc))
                logger.exception("handler failed")
                reply = Reply(error=error_body(exc))
            if msg.reply:
                with contextlib.suppress(nats.errors.Error):
                    await msg.respond(encoder.encode(reply))
            log(
                logger,
                "request",
                logging.DEBUG,
                subject=msg.subject,
                ms=round((time.perf_counter() - t0) * 1000, 2),
            )
        finally:
            self.slots.release()

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking requests, then let the ones in flight finish (up to ``grace`` seconds)."""
        for sub in self.subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=grace)


async def request(
    nc: Client, subject: str, body: Request, kind: type[R], timeout: float, unavailable: str
) -> R:
    """A typed request. ``unavailable`` is the error code when nobody answers.

    Raises:
        ServiceError: ``unavailable`` (or the given code) when no service answers in time.
        RemoteError: the service answered with an error.
    """
    try:
        msg = await nc.request(subject, encoder.encode(body), timeout=timeout)
    except (nats.errors.Error, TimeoutError) as exc:  # no responder, a timeout, a lost connection
        raise ServiceError(unavailable) from exc
    return decode_reply(msg.data, kind)
