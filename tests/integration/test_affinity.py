"""Affinity (paiju_services.affinity): every caller picks the same table-service copy for a table,
the tables spread over the copies, a copy that comes or goes moves only its own share, and a
request to a copy that is gone goes to the queue group at once."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from collections.abc import Callable

import nats
import nats.errors
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from integration.harness import Stack
from paiju_services import subjects
from paiju_services.affinity import Announcement, Copies, copy_token, holder
from paiju_services.bus import REPLY_AAD, reply_key
from paiju_services.errors import ServiceError
from paiju_services.messages import HandsWanted, Health, encoder
from paiju_services.views import encrypt

TABLES = [hashlib.sha256(str(n).encode()).hexdigest()[:16] for n in range(3000)]


def test_every_caller_picks_the_same_copy_whatever_order_it_heard_them_in() -> None:
    for table in TABLES[:200]:
        assert holder(table, {"a", "b", "c"}) == holder(table, {"c", "b", "a"})
    assert holder(TABLES[0], set()) is None
    assert holder(TABLES[0], {"only"}) == "only"


def test_the_tables_spread_evenly_over_the_copies() -> None:
    shares = Counter(holder(table, {"tables-1", "tables-2", "tables-3"}) for table in TABLES)
    assert set(shares) == {"tables-1", "tables-2", "tables-3"}
    assert all(900 <= n <= 1100 for n in shares.values()), shares  # 1,000 each, ±10 %


def test_a_copy_that_comes_or_goes_moves_only_its_own_share() -> None:
    three = {t: holder(t, {"a", "b", "c"}) for t in TABLES}
    two = {t: holder(t, {"a", "b"}) for t in TABLES}  # c gone
    assert all(two[t] == three[t] for t in TABLES if three[t] != "c")
    four = {t: holder(t, {"a", "b", "c", "d"}) for t in TABLES}  # d came
    moved = [t for t in TABLES if four[t] != three[t]]
    assert all(four[t] == "d" for t in moved)
    assert 600 <= len(moved) <= 900  # a quarter of 3,000


def test_a_copy_s_name_becomes_one_subject_token() -> None:
    assert copy_token("tables-host.example.com-12") == "tables-host_example_com-12"
    assert copy_token("a b*c>d") == "a_b_c_d"
    assert copy_token("") == "_"
    assert len(copy_token("x" * 200)) == 64


async def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within {timeout}s: {what}"
        await asyncio.sleep(0.02)


async def announce(nc: Client, copies: Copies, *names: str) -> None:
    """Announce copies as a table service does, again and again (core NATS: one announcement may
    be lost; a copy says it every second), until ``copies`` heard them all."""
    deadline = time.monotonic() + 10
    while not set(names) <= copies.live():
        assert time.monotonic() < deadline, f"{names} never heard"
        for name in names:
            await nc.publish(subjects.COPIES_TABLES, encoder.encode(Announcement(copy=name)))
        await nc.flush()
        await asyncio.sleep(0.05)


async def answer_as(nc: Client, pattern: str, name: str, probe: str, queue: str = "") -> None:
    """Answer requests on ``pattern`` as ``name``; returns once the server has the subscription
    (a request to ``probe`` through the same connection is answered: nats-py's flush may overtake a
    subscription still in its buffer)."""

    async def reply(msg: Msg) -> None:
        key = reply_key(msg)  # sealed for the caller, as a Responder answers (bus.py)
        data = encoder.encode(Health(instance=name))
        await msg.respond(data if key is None else encrypt(key, REPLY_AAD, data))

    await nc.subscribe(pattern, queue=queue, cb=reply)
    await nc.request(probe, b"", timeout=5)


async def until_nobody_answers(nc: Client, subject: str) -> None:
    """Until the server has dropped a closed connection's subscriptions on ``subject``."""
    deadline = time.monotonic() + 10
    while True:
        try:
            await nc.request(subject, b"", timeout=0.2)
        except nats.errors.NoRespondersError:
            return
        except nats.errors.TimeoutError:
            pass
        assert time.monotonic() < deadline, f"{subject} still answered"
        await asyncio.sleep(0.02)


async def test_requests_go_to_the_holder_then_to_the_queue_group_when_it_is_gone(
    nats_only: Stack,
) -> None:
    caller, served = await nats.connect(nats_only.nats_url), await nats.connect(nats_only.nats_url)
    copies = Copies(caller)
    try:
        await copies.start()
        await announce(served, copies, "ca", "cb")
        table = TABLES[0]
        mine = copies.holder(table)
        assert mine is not None
        other = ({"ca", "cb"} - {mine}).pop()
        held = {copy: subjects.held_subject(table, "probe", copy) for copy in ("ca", "cb")}
        anyone = subjects.table_subject(table, "probe")
        await answer_as(served, subjects.held_requests(mine), mine, held[mine])
        await answer_as(served, subjects.held_requests(other), other, held[other])
        await answer_as(served, subjects.TABLE_REQUESTS, "queue", anyone, subjects.TABLE_QUEUE)

        async def ask() -> str:
            reply = await copies.request(table, "hands", HandsWanted(), Health, timeout=2)
            return reply.instance

        answers = [await ask() for _ in range(5)]
        assert answers == [mine] * 5, answers  # the holder, every time

        # the holder stops listening (killed): "no responders", the queue group answers at once
        await served.close()
        await until_nobody_answers(caller, held[mine])
        served = await nats.connect(nats_only.nats_url)
        await answer_as(served, subjects.TABLE_REQUESTS, "queue", anyone, subjects.TABLE_QUEUE)
        assert copies.live() == {"ca", "cb"}
        assert await ask() == "queue"
        assert copies.live() == {other}  # the gone copy forgotten at its first request
        # the other copy says it leaves: forgotten at once; then nobody holds the table
        leaving = Announcement(copy=other, leaving=True)
        await served.publish(subjects.COPIES_TABLES, encoder.encode(leaving))
        await until(lambda: copies.live() == set(), "the leaving copy forgotten")
        assert copies.holder(table) is None and await ask() == "queue"

        await served.close()  # nobody at all: unavailable, as before affinity
        await until_nobody_answers(caller, anyone)
        with pytest.raises(ServiceError) as refused:
            await ask()
        assert refused.value.code == "unavailable"
    finally:
        await copies.stop()
        await caller.close()
        if not served.is_closed:
            await served.close()


async def test_a_copy_not_heard_for_its_ttl_is_forgotten(nats_only: Stack) -> None:
    caller, copy = await nats.connect(nats_only.nats_url), await nats.connect(nats_only.nats_url)
    copies = Copies(caller, ttl=0.3)
    try:
        await copies.start()
        await announce(copy, copies, "quiet")
        await asyncio.sleep(0.4)
        assert copies.live() == set()
        # an announcement that is not a subject token is not a copy
        await copy.publish(subjects.COPIES_TABLES, encoder.encode(Announcement(copy="a.b")))
        await copy.publish(subjects.COPIES_TABLES, b"not json")
        await announce(copy, copies, "ok")
    finally:
        await copies.stop()
        await caller.close()
        await copy.close()
