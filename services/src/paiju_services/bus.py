"""NATS plumbing shared by the services: connecting, serving requests in a queue group with one
task per request (so a handler may itself make requests, and a slow table does not hold up the
others), requesting with typed replies, and a clean stop.

**Load shedding.** A ``Responder`` may bound the requests it handles at once (``max_in_flight``)
and the time a request may wait before its work starts (``max_wait``): past either, the request
is refused at once with ``overloaded`` and a ``retry_after`` hint, never queued. A caller that
waits five seconds for an answer and then sends the request again makes an overloaded service
do each piece of work twice, and its queue grows without end: a refusal costs a publish, and the
caller backs off (``paiju_services.backoff``). A handler calls ``refuse_if_late`` before work it
cannot undo, after a wait of its own (a table's lock).

**Every reply is sealed for its requester alone.** A role's replies come to its inbox prefix
(``_INBOX_<role>``), and NATS cannot keep one connection of a user from reading the replies of
another connection of the same user: anyone holding the gateway's password could subscribe to
``_INBOX_gateway.>`` and read the join replies (seat tokens) and create replies (owner tokens) of
the real gateway. So each request (``ask``) carries a fresh random key in its ``Paiju-Reply-Key``
header, and the ``Responder`` encrypts the reply with it (AES-256-GCM, ``views.encrypt``): a
listener on the inbox reads ciphertext. The request itself, key included, travels on a subject only
the answering service may subscribe to (``paiju.tables.>``: the table service; ``paiju.bots.fill``:
the bots service; access.py). A request without a key is refused (``bad_request``) before its
handler runs — nothing is done whose answer others could read — except on the health subjects,
whose answers (an instance name and a count) hold nothing and which monitoring asks with any
client. A requester takes only a reply that opens with its key.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import contextvars
import logging
import os
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
from paiju_services import access, metrics, views
from paiju_services.backoff import Backoff, Streak
from paiju_services.config import Settings, nats_servers
from paiju_services.errors import UNAVAILABLE, RemoteError, ServiceError, error_body
from paiju_services.logs import Sparing, log
from paiju_services.messages import R, Reply, Request, decode_reply, encoder

logger = logging.getLogger("paiju.bus")

Handler = Callable[[Msg], Awaitable[Reply]]
REPLY_KEY = "Paiju-Reply-Key"  # header: the key the reply is sealed with (base64url, 32 bytes)
REPLY_AAD = b"paiju reply"
KEY_BYTES = 32
NO_KEY = "the request has no reply key (Paiju-Reply-Key): its answer would be readable by others"


def new_reply_key() -> tuple[bytes, dict[str, str]]:
    """A fresh reply key and the request headers that carry it."""
    key = os.urandom(KEY_BYTES)
    return key, {REPLY_KEY: base64.urlsafe_b64encode(key).decode()}


def reply_key(msg: Msg) -> bytes | None:
    """The reply key a request carries (None: none, or not a key)."""
    text = (msg.headers or {}).get(REPLY_KEY)
    if not text:
        return None
    try:
        key = base64.urlsafe_b64decode(text)
    except (binascii.Error, ValueError):
        return None
    return key if len(key) == KEY_BYTES else None


def open_reply(key: bytes, data: bytes) -> bytes:
    """A sealed reply's body.

    Raises:
        ServiceError: ``unavailable``: the reply does not open with the request's key (not the
            responder's: a forgery on the inbox, or a responder that does not seal).
    """
    try:
        return views.decrypt(key, REPLY_AAD, data)
    except views.SealBroken as exc:
        log(logger, "reply not sealed for this request", logging.WARNING, size=len(data))
        raise ServiceError("unavailable", detail="a reply that does not open") from exc


RECONNECT_CAP = 2.0  # seconds: the longest wait between two attempts to reach NATS again
# nats-py's first connect never returns once a TLS handshake has failed in it (its close waits for
# a transport that never closes: nats-io/nats.py#382 and #718; a CI run's bots copy hung so): each
# first attempt is bounded, and one that has not connected by then is dropped and made again
FIRST_CONNECT_WITHIN = 20.0  # seconds
RETRY_AFTER = 1  # seconds an overloaded service asks its callers to wait (HTTP Retry-After)
# when the request being handled must have started its work by (time.monotonic; None: no bound)
_start_by: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "paiju_start_by", default=None
)


async def connect(
    settings: Settings, name: str, reconnected: list[Callable[[], None]] | None = None
) -> Client:
    """A connection that reconnects for ever (services outlive a NATS restart), waiting longer
    after each failed attempt (the services' back-off, capped at ``RECONNECT_CAP``: nats-py reads
    its ``reconnect_time_wait`` option before each wait, and it is set anew after each failure).
    ``reconnected``: called after each reconnection (the list may be filled after the call)."""
    waits = Streak(Backoff(settings.retry_base, min(settings.retry_cap, RECONNECT_CAP)))
    conn: list[Client] = []

    async def on_error(exc: Exception) -> None:
        wait = None
        if conn and conn[0].is_reconnecting:  # an attempt to reach NATS again failed
            wait = conn[0].options["reconnect_time_wait"] = waits.failed()
        log(logger, "nats error", logging.WARNING, error=repr(exc), wait=wait)

    async def on_disconnect() -> None:
        closing = bool(conn) and (conn[0].is_draining or conn[0].is_closed)
        log(logger, "nats disconnected", logging.INFO if closing else logging.WARNING)

    async def on_reconnect() -> None:
        waits.succeeded()
        if conn:
            conn[0].options["reconnect_time_wait"] = waits.policy.delay(0)
        log(logger, "nats reconnected")
        for hook in reconnected or ():
            hook()

    credentials: dict[str, str] = {}
    if settings.nats_user:
        credentials["user"] = settings.nats_user
        credentials["password"] = Path(settings.nats_password_file).read_text().strip()
        # replies come to the role's own prefix: the only inboxes its user may read (access.py)
        credentials["inbox_prefix"] = access.inbox_prefix(settings.nats_user)
    while True:
        attempt = nats.connect(
            servers=nats_servers(settings),
            name=name,
            **credentials,
            **tls_options(settings),
            max_reconnect_attempts=-1,
            reconnect_time_wait=waits.policy.delay(0),
            connect_timeout=5,
            error_cb=on_error,
            disconnected_cb=on_disconnect,
            reconnected_cb=on_reconnect,
        )
        try:
            nc = await asyncio.wait_for(attempt, FIRST_CONNECT_WITHIN)
            break
        except TimeoutError:
            wait = waits.failed()
            log(logger, "nats not reached: a new first attempt", logging.WARNING, wait=wait)
            await asyncio.sleep(wait)
    waits.succeeded()
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
    reply's ``error``; anything else is logged and answered with ``internal``.

    Load shedding (0: none): past ``max_in_flight`` requests being handled, one more is refused
    at once with ``overloaded``; so is one whose handler would start more than ``max_wait``
    seconds after it arrived (the process too busy to start it), and, through
    ``refuse_if_late``, one whose handler is still waiting by then. Subjects served with
    ``shed=False`` (health) are never refused."""

    def __init__(
        self,
        nc: Client,
        queue: str,
        concurrency: int = 256,
        max_in_flight: int = 0,
        max_wait: float = 0.0,
    ) -> None:
        self.nc = nc
        self.queue = queue
        self.subs: list[Subscription] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(max(concurrency, max_in_flight + 1))
        self.max_in_flight = max_in_flight
        self.max_wait = max_wait
        self.in_flight = 0  # requests of shed subjects being handled
        self.refusals = Sparing(logger, "requests refused: overloaded", every=10.0)

    async def serve(
        self,
        subject: str,
        handler: Handler,
        queue: bool = True,
        shed: bool = True,
        keyless: bool = False,
    ) -> None:
        """Serve ``subject`` in the queue group, or (``queue`` false) this copy alone. ``shed``:
        refused past the responder's bounds. ``keyless``: a request without a reply key is
        answered in clear (only for answers that hold nothing: the health checks); else it is
        refused. Returns once the server has the subscription."""

        async def on_msg(msg: Msg) -> None:
            arrived = time.monotonic()
            if shed and self.max_in_flight and self.in_flight >= self.max_in_flight:
                await self._refuse(msg, "in_flight")
                return
            await self.slots.acquire()
            task = asyncio.create_task(self._run(handler, msg, arrived if shed else None, keyless))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            if shed:  # counted from now: the requests that came before it started count it
                self.in_flight += 1
                task.add_done_callback(self._finished)

        group = self.queue if queue else ""
        self.subs.append(await self.nc.subscribe(subject, queue=group, cb=on_msg))
        # the server has the subscription once this returns: a service that says it is ready
        # is asked (a SUB still in the client's buffer meets a request with "no responders")
        await self.nc.flush()

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.in_flight -= 1

    async def _refuse(self, msg: Msg, reason: str) -> None:
        """Answer ``overloaded`` without doing any of the request (sealed, if it has a key)."""
        metrics.REQUESTS_REFUSED.labels(reason).inc()
        self.refusals.log(reason=reason, in_flight=self.in_flight)
        if msg.reply:
            reply = Reply(error=ServiceError("overloaded", retry_after=RETRY_AFTER).body())
            await self._respond(msg, reply, reply_key(msg))

    @staticmethod
    async def _respond(msg: Msg, reply: Reply, key: bytes | None) -> None:
        data = encoder.encode(reply)
        if key is not None:
            data = views.encrypt(key, REPLY_AAD, data)
        with contextlib.suppress(nats.errors.Error):
            await msg.respond(data)

    async def _run(self, handler: Handler, msg: Msg, arrived: float | None, keyless: bool) -> None:
        """Handle one request (``arrived``: when, for a shed subject; None: never refused)."""
        t0 = time.perf_counter()
        try:
            if arrived is not None and self.max_wait:
                if time.monotonic() - arrived > self.max_wait:
                    await self._refuse(msg, "late")
                    return
                _start_by.set(arrived + self.max_wait)  # for refuse_if_late, in this task only
            key = reply_key(msg)
            if key is None and not keyless:
                reply = Reply(error=ServiceError("bad_request", detail=NO_KEY).body())
            else:
                reply = await self._answer(handler, msg)
            if msg.reply:
                await self._respond(msg, reply, key)
            log(
                logger,
                "request",
                logging.DEBUG,
                subject=msg.subject,
                ms=round((time.perf_counter() - t0) * 1000, 2),
            )
        finally:
            self.slots.release()

    async def _answer(self, handler: Handler, msg: Msg) -> Reply:
        """The handler's reply, or the error it raised as a reply."""
        try:
            return await handler(msg)
        except msgspec.ValidationError as exc:
            return Reply(error=ServiceError("bad_request", detail=str(exc)[:160]).body())
        except msgspec.DecodeError as exc:
            return Reply(error=ServiceError("bad_json", detail=str(exc)[:160]).body())
        except (ServiceError, RemoteError, RuleError) as exc:  # answers, not failures
            return Reply(error=error_body(exc))
        except UNAVAILABLE as exc:  # NATS or the store failed: retryable, "unavailable"
            log(logger, "dependency failed", logging.WARNING, subject=msg.subject, error=repr(exc))
            return Reply(error=error_body(exc))
        except Exception as exc:
            log(logger, "handler failed", logging.ERROR, subject=msg.subject, error=repr(exc))
            logger.exception("handler failed")
            return Reply(error=error_body(exc))

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking requests, then let the ones in flight finish (up to ``grace`` seconds)."""
        for sub in self.subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=grace)


def refuse_if_late() -> None:
    """In a handler, before work it cannot undo: refuse the request if it has waited past its
    responder's ``max_wait`` (for a lock, behind other requests).

    Raises:
        ServiceError: ``overloaded``, with ``retry_after``.
    """
    start_by = _start_by.get()
    if start_by is not None and time.monotonic() > start_by:
        metrics.REQUESTS_REFUSED.labels("late").inc()
        raise ServiceError("overloaded", retry_after=RETRY_AFTER)


async def request(
    nc: Client, subject: str, body: Request, kind: type[R], timeout: float, unavailable: str
) -> R:
    """A typed request. ``unavailable`` is the error code when nobody answers.

    Raises:
        ServiceError: ``unavailable`` (or the given code) when no service answers in time.
        RemoteError: the service answered with an error.
    """
    try:
        data = await ask(nc, subject, encoder.encode(body), timeout)
    except (nats.errors.Error, TimeoutError) as exc:  # no responder, a timeout, a lost connection
        raise ServiceError(unavailable) from exc
    return decode_reply(data, kind)


async def ask(nc: Client, subject: str, payload: bytes, timeout: float) -> bytes:
    """A request with a fresh reply key; the reply's body, opened (nobody else can read it).

    Raises:
        nats.errors.Error, TimeoutError: as ``Client.request`` (no responders, a timeout ...).
        ServiceError: ``unavailable``: the reply does not open with the key.
    """
    key, headers = new_reply_key()
    msg = await nc.request(subject, payload, timeout=timeout, headers=headers)
    return open_reply(key, msg.data)
