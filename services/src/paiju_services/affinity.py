"""Affinity: each table's requests go to one table-service copy, the one that holds it.

Any copy can serve any table (the log in JetStream is the truth, and an append that lost a race
to another copy is reloaded and retried), but a copy that serves a table it did not serve last
must first reload it, and two copies serving one table at once race on every command. So each
copy announces itself every ``ANNOUNCE`` seconds on ``paiju.copies.tables``, and the callers (the
gateway and the bots service) send a table's requests to the copy that **rendezvous hashing**
picks among the copies heard within ``TTL`` seconds: the highest ``hash(copy, table)``. Every
caller that heard the same copies picks the same one; a copy that comes or goes moves only the
tables it wins or held.

A copy listens, besides the queue group on ``paiju.tables.<table>.<verb>``, on its own
``paiju.tables.<table>.<verb>.<copy>``. A request to a copy that is gone gets NATS's "no
responders" at once: the caller forgets that copy and sends the request to the queue group, which
any live copy serves. A copy that stops says so (``leaving``), so callers move its tables at
once; a killed one is forgotten at its first request or after ``TTL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import time

import msgspec
import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from paiju_services import subjects
from paiju_services.bus import ask, request
from paiju_services.errors import ServiceError
from paiju_services.messages import R, Request, decode_reply, encoder

ANNOUNCE = 1.0  # seconds between a copy's announcements
TTL = 3.5  # seconds after its last announcement that a copy counts as gone


class Announcement(msgspec.Struct, frozen=True):
    copy: str  # the copy's subject token
    leaving: bool = False


_announcement = msgspec.json.Decoder(Announcement)


def copy_token(instance: str) -> str:
    """A copy's name as one subject token (an instance name may hold dots: a host name)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", instance)[:64] or "_"


def _weight(copy: str, table_id: str) -> int:
    digest = hashlib.blake2b(f"{copy}\0{table_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def holder(table_id: str, copies: frozenset[str] | set[str]) -> str | None:
    """The copy that holds the table among ``copies`` (rendezvous hashing), None when none."""
    return max(copies, key=lambda copy: (_weight(copy, table_id), copy), default=None)


class Announcer:
    """A table-service copy's side: its announcements, from ``start`` until ``stop``."""

    def __init__(self, nc: Client, instance: str) -> None:
        self.nc = nc
        self.copy = copy_token(instance)
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._announce_forever())

    async def _announce_forever(self) -> None:
        body = encoder.encode(Announcement(copy=self.copy))
        while True:
            with contextlib.suppress(nats.errors.Error):
                await self.nc.publish(subjects.COPIES_TABLES, body)
            await asyncio.sleep(ANNOUNCE)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        with contextlib.suppress(nats.errors.Error):
            await self.nc.publish(
                subjects.COPIES_TABLES, encoder.encode(Announcement(copy=self.copy, leaving=True))
            )
            await self.nc.flush(timeout=1)


class Copies:
    """A caller's side: the table-service copies heard lately, and requests sent to a table's
    holder (to the queue group when none is known or the holder is gone)."""

    def __init__(self, nc: Client, ttl: float = TTL) -> None:
        self.nc = nc
        self.ttl = ttl
        self.heard: dict[str, float] = {}  # copy → when it last announced itself
        self.sub: Subscription | None = None

    async def start(self) -> None:
        self.sub = await self.nc.subscribe(subjects.COPIES_TABLES, cb=self._on_announcement)

    async def stop(self) -> None:
        if self.sub is not None:
            with contextlib.suppress(Exception):
                await self.sub.unsubscribe()

    async def _on_announcement(self, msg: Msg) -> None:
        try:
            said = _announcement.decode(msg.data)
        except msgspec.DecodeError:
            return
        if said.copy != copy_token(said.copy):
            return  # not a subject token: never a subject of ours
        if said.leaving:
            self.heard.pop(said.copy, None)
        else:
            self.heard[said.copy] = time.monotonic()

    def live(self) -> set[str]:
        now = time.monotonic()
        for copy in [c for c, at in self.heard.items() if now - at > self.ttl]:
            del self.heard[copy]
        return set(self.heard)

    def holder(self, table_id: str) -> str | None:
        live = self.live()
        if len(live) <= 1:  # one copy (or none) holds every table: no hashing per request
            return next(iter(live), None)
        return holder(table_id, live)

    async def request(
        self, table_id: str, verb: str, body: Request, kind: type[R], timeout: float
    ) -> R:
        """The table's request to its holder, or to the queue group.

        Raises:
            ServiceError: ``unavailable`` when no copy answers in time.
            RemoteError: the service answered with an error.
        """
        copy = self.holder(table_id)
        if copy is not None:
            subject = subjects.held_subject(table_id, verb, copy)
            try:
                data = await ask(self.nc, subject, encoder.encode(body), timeout)
            except nats.errors.NoRespondersError:
                self.heard.pop(copy, None)  # gone (killed): the queue group serves it
            except (nats.errors.Error, TimeoutError) as exc:
                raise ServiceError("unavailable") from exc
            else:
                return decode_reply(data, kind)
        subject = subjects.table_subject(table_id, verb)
        return await request(self.nc, subject, body, kind, timeout, "unavailable")
