"""Back-off and load shedding: every retry loop waits longer after each failure in a row, and a
table service refuses at once (``overloaded``, 503 with ``Retry-After``) what it cannot start in
time, instead of queueing it for minutes.

The schedule's bounds are checked as pure functions; the bots service's attempts against a table
service that is gone are counted from its log, against the bound the schedule gives for the
outage; the refusals are made by a real table-service copy whose every slot is held by requests
waiting on a hung (SIGSTOP) bots service, and read through the gateway over HTTP and WebSocket.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import nats
import pytest
import websockets

from integration.harness import Proc, Stack, new_table, owner, until, wait_status
from paiju_services import bus
from paiju_services.backoff import Backoff, Streak, from_settings
from paiju_services.bots import Gate
from paiju_services.bus import RETRY_AFTER, Responder, refuse_if_late
from paiju_services.config import Settings
from paiju_services.messages import Reply
from paiju_services.store import StoreError
from paiju_services.streams import until_ready

# run after the other tests, one at a time (make test):
# it floods a table service to see it shed load
pytestmark = pytest.mark.alone

# --- the schedule ---------------------------------------------------------------------------------


def shortest_run(policy: Backoff, window: float) -> int:
    """Attempts of a loop that fails every time and always draws the shortest wait."""
    attempts, elapsed = 1, 0.0
    while True:
        elapsed += policy.delay(attempts - 1, random=lambda: 0.0)
        if elapsed > window:
            return attempts
        attempts += 1


@pytest.mark.parametrize(("base", "cap"), [(0.25, 10.0), (0.2, 2.0), (0.05, 1.0), (1.0, 1.0)])
def test_the_waits_double_up_to_the_cap_within_the_upper_half(base: float, cap: float) -> None:
    policy = Backoff(base, cap)
    rng = random.Random(7)
    for failures in range(40):
        ceiling = min(cap, base * 2**failures)
        assert policy.ceiling(failures) == ceiling
        for _ in range(20):
            assert ceiling / 2 <= policy.delay(failures, random=rng.random) <= ceiling
    assert policy.ceiling(10_000) == cap  # no overflow however long a loop fails
    assert policy.most_attempts(60.0) == shortest_run(policy, 60.0)


def test_a_minute_of_failures_costs_a_few_dozen_attempts_with_the_default_settings() -> None:
    policy = from_settings(Settings())
    assert policy.most_attempts(60.0) <= 24
    # the fixed half second the bots waited before (waits of 0.5 to 1 s: at worst 0.5), a turn
    assert Backoff(1.0, 1.0).most_attempts(60.0) == 121


def test_a_success_starts_the_waits_again() -> None:
    streak = Streak(Backoff(1.0, 8.0))
    waits = [streak.failed() for _ in range(5)]
    assert [round(w) for w in waits] != [1] * 5 and waits[-1] >= 4.0
    streak.succeeded()
    assert streak.failed() <= 1.0


def test_a_bad_policy_is_refused() -> None:
    for base, cap in ((0.0, 1.0), (2.0, 1.0), (-1.0, 1.0)):
        with pytest.raises(ValueError, match="back-off"):
            Backoff(base, cap)


def test_the_gate_counts_requests_refused_together_once_and_lets_one_probe_through() -> None:
    gate = Gate(Backoff(1.0, 8.0), probe_time=5.0)
    assert gate.wait(0.0) == 0.0  # open: every turn goes
    epoch = gate.epoch
    for _ in range(40):  # forty turns sent together, all refused
        gate.failed(epoch, now=0.0)
    assert gate.streak.failures == 1 and 0.5 <= gate.remaining(0.0) <= 1.0
    assert gate.wait(0.1) > 0  # closed until the wait is over
    assert gate.wait(1.0) == 0.0  # the probe
    assert gate.wait(1.0) > 4.0  # the others wait for its answer
    gate.failed(gate.epoch, now=1.1, retry_after=RETRY_AFTER)
    assert gate.streak.failures == 2 and 1.0 <= gate.remaining(1.1) <= 2.0
    gate.succeeded()
    assert gate.wait(1.2) == 0.0 and gate.wait(1.2) == 0.0  # open to all again


# --- load shedding in the responder, against a real nats-server -------------------------------------


async def test_a_responder_refuses_past_its_bounds_and_what_waited_too_long(bare: Stack) -> None:
    nc = await nats.connect(bare.nats_url)
    client = await nats.connect(bare.nats_url)
    release = asyncio.Event()
    lock = asyncio.Lock()

    async def held(msg: object) -> Reply:
        await release.wait()
        return Reply()

    async def in_turn(msg: object) -> Reply:
        async with lock:  # one at a time, as a table's commands are
            refuse_if_late()
            await asyncio.sleep(0.1)
        return Reply()

    async def ask(subject: str) -> tuple[str | None, int | None]:
        data = await bus.ask(client, subject, b"{}", 10)  # with a reply key, as every caller
        error = msgspec.json.decode(data, type=Reply).error
        return (error.code, error.retry_after or None) if error else (None, None)

    try:
        responder = Responder(nc, "test", max_in_flight=3, max_wait=0.35)
        await responder.serve("test.held", held)
        await responder.serve("test.health", held, shed=False)
        await nc.flush()

        holding = [asyncio.ensure_future(ask("test.held")) for _ in range(3)]
        deadline = time.monotonic() + 10
        while responder.in_flight < 3:
            assert time.monotonic() < deadline, f"{responder.in_flight} of 3 requests held"
            await asyncio.sleep(0.01)
        refused = await asyncio.gather(*(ask("test.held") for _ in range(15)))
        assert all(code == "overloaded" and after == RETRY_AFTER for code, after in refused)
        # at once, not after the three: every refusal came while the three were still held
        assert not any(h.done() for h in holding)
        health = asyncio.ensure_future(ask("test.health"))  # never shed
        await asyncio.sleep(0.1)
        assert not health.done()
        release.set()
        assert [code for code, _ in await asyncio.gather(*holding, health)] == [None] * 4

        # twelve at once, one at a time (0.1 s each): those still waiting for the lock after
        # 0.35 s are refused before they do anything; the first is done
        one_by_one = Responder(nc, "test-turn", max_wait=0.35)
        await one_by_one.serve("test.turn", in_turn)
        await nc.flush()
        await answering(client, "test.turn")
        answers = await asyncio.gather(*(ask("test.turn") for _ in range(12)))
        codes = [code for code, _ in answers]
        assert codes.count(None) >= 1 and codes.count("overloaded") >= 6, codes
        assert set(codes) <= {None, "overloaded"}
    finally:
        await client.close()
        await nc.close()


# --- a service's start, while JetStream is not ready -----------------------------------------------


async def test_a_start_waits_for_a_bucket_another_copy_is_making_and_gives_up_in_time(
    bare: Stack,
) -> None:
    """In a cluster, a bucket just made answers "not found" until its group forms (a copy that
    lost the race to make it meets the same): the start waits and tries again, and gives up with
    a clear error when the bucket never comes."""
    nc = await nats.connect(bare.nats_url)
    try:
        js = nc.jetstream()
        attempts = 0

        async def late_bucket() -> Any:
            nonlocal attempts
            attempts += 1
            return await js.key_value("late")

        waiting = asyncio.create_task(until_ready(late_bucket, "the bucket late"))
        # the other copy's create comes once this one has been told "not found" and tried again
        await until("a second attempt at the bucket", lambda: attempts >= 2)
        assert not waiting.done()
        await js.create_key_value(bucket="late")
        bucket = await asyncio.wait_for(waiting, 10)
        assert (await bucket.status()).bucket == "late"
        with pytest.raises(StoreError, match="the bucket never: not ready after 2s"):
            await until_ready(lambda: js.key_value("never"), "the bucket never", window=2.0)
    finally:
        await nc.close()


# --- the bots service against a table service that is gone ------------------------------------------

OUTAGE = 6.0  # seconds without any table-service copy
SHORT = ["--retry-base", "0.2", "--retry-cap", "2"]


def bot_attempts(bots: Proc) -> int:
    """The moves the bots service sent that the table service did not take (its log)."""
    return sum(1 for line in bots.lines() if line.get("msg") == "bot move not taken")


async def test_a_bots_service_backs_off_while_no_table_service_answers(tmp_path: Path) -> None:
    stack = Stack(tmp_path)
    stack.start_nats()
    try:
        tables = stack.start("tables")
        bots = stack.start("bots", *SHORT, "--bot-delay", "0.05")
        stack.start("gateway")
        async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
            ids = [await new_table(http) for _ in range(3)]
            for table in ids:
                r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
                assert r.status_code == 200, r.text
            for table in ids:
                await wait_status(http, table, "playing", timeout=30)
            before = bot_attempts(bots)
            tables.kill()  # no copy left: every move is answered "no responders" at once
            await asyncio.sleep(OUTAGE)  # the outage itself
            attempts = bot_attempts(bots) - before
            stack.start("tables")  # a copy again: the bots take up every table
            for table in ids:
                body = await wait_status(http, table, "finished", timeout=120)
                assert body["totals"] is not None
        # the moves in flight when the copy went (a table's turn, and at most one stale offer of
        # it), then one probe at a time; at the fixed half second of before, each of them was
        # tried every half second (3 tables: 36 to 72)
        policy = Backoff(0.2, 2.0)
        bound = 2 * len(ids) + policy.most_attempts(OUTAGE + 1.0)
        assert 1 <= attempts <= bound, (attempts, bound)
    finally:
        stack.stop()


# --- an overloaded table service, through the gateway ---------------------------------------------

SLOTS = 4  # the copy's max_in_flight in this test: five times as many requests are sent


async def test_an_overloaded_table_service_is_answered_503_at_once(tmp_path: Path) -> None:
    stack = Stack(tmp_path)
    stack.start_nats()
    try:
        # the fills held by the paused bots service keep their slots for as long as the copy
        # waits for an answer: longer than a busy machine may take to see them all held
        stack.start("tables", "--max-in-flight", str(SLOTS), "--request-timeout", "30")
        bots = stack.start("bots")
        stack.start("gateway")
        async with httpx.AsyncClient(base_url=stack.http, timeout=30.0) as http:
            ids = [await new_table(http) for _ in range(SLOTS + 1)]
            table = ids[-1]
            token = (await http.post(f"/api/tables/{table}/seats", json={"name": "Ann"})).json()[
                "token"
            ]
            bots.pause()  # hung: each request to fill seats holds a slot of the copy meanwhile
            try:
                filling = [
                    asyncio.ensure_future(
                        http.post(f"/api/tables/{t}/bots", json={}, headers=owner(t))
                    )
                    for t in ids[:SLOTS]
                ]
                await until_overloaded(http, table)
                requests = [
                    lambda: http.get(f"/api/tables/{table}/hands"),
                    lambda: http.get(f"/api/tables/{table}/state"),
                    lambda: http.post(f"/api/tables/{table}/seats", json={"name": "Ben"}),
                    lambda: http.post(
                        f"/api/tables/{table}/commands",
                        json={"id": "c1", "command": {"type": "pass", "seat": 0}},
                        headers={"Authorization": f"Bearer {token}"},
                    ),
                ]
                for i in range(5 * SLOTS):
                    r = await requests[i % len(requests)]()
                    # refused at once, not queued for a slot: every slot is still held
                    assert not any(f.done() for f in filling)
                    assert r.status_code == 503, r.text
                    assert r.json()["code"] == "overloaded" and r.json()["retry_after"] == 1
                    assert r.headers["Retry-After"] == "1"
                # a socket whose feed cannot start is told so, and to come back (1013)
                conn = await websockets.connect(f"{stack.ws}/ws/tables/{table}")
                frame = json.loads(await asyncio.wait_for(conn.recv(), 5))
                assert frame["type"] == "error" and frame["code"] == "overloaded", frame
                assert frame["retry_after"] == 1
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(conn.recv(), 5)
                assert conn.close_code == 1013
            finally:
                bots.resume()
            # the held requests are answered: their bots' joins came while every slot was still
            # held by the requests that asked for them, and were refused (a refusal, not a wait
            # for a slot, so nothing waits for itself)
            for r in await asyncio.gather(*filling):
                assert r.status_code in (200, 503), r.text
                assert r.status_code == 200 or r.json()["code"] == "overloaded", r.text
            # and the copy takes work again: the seats are filled, a request refused as
            # overloaded (its bots' joins meeting the copy's four slots) being sent again after
            # its retry_after, as a client does
            for t in ids[:SLOTS]:
                deadline = time.monotonic() + 30
                while True:
                    r = await http.post(f"/api/tables/{t}/bots", json={}, headers=owner(t))
                    if r.status_code != 503 or time.monotonic() > deadline:
                        break
                    assert r.json()["code"] == "overloaded", r.text
                    await asyncio.sleep(r.json()["retry_after"])
                assert r.status_code == 200 or r.json()["code"] == "table_full", r.text
                await wait_status(http, t, "playing", timeout=30)
            assert (await http.get(f"/api/tables/{table}/hands")).status_code == 200
            health = (await http.get("/api/health")).json()
            assert health["table_service"] is True
    finally:
        stack.stop()


async def answering(client: nats.aio.client.Client, subject: str, timeout: float = 10.0) -> None:
    """Wait until ``subject`` has a responder the server knows of (a subscription reaches the
    server a moment after it is made: on a busy machine, later than its client's flush)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await bus.ask(client, subject, b"{}", timeout)
            return
        except nats.errors.NoRespondersError:
            assert time.monotonic() < deadline, f"nobody answers {subject}"
            await asyncio.sleep(0.05)


async def until_overloaded(http: httpx.AsyncClient, table: str, timeout: float = 30.0) -> None:
    """Wait until the copy refuses a request: every slot is held."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await http.get(f"/api/tables/{table}/hands")
        if r.status_code == 503 and r.json()["code"] == "overloaded":
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the copy never refused a request")


# --- a service's connection to NATS ------------------------------------------------------------------


async def test_a_service_waits_longer_between_attempts_to_reach_nats_again(
    tmp_path: Path,
) -> None:
    """nats-py waits ``reconnect_time_wait`` between two attempts; bus.connect sets it anew after
    each failed one: the waits it set while nats-server was away are read as they change."""
    stack = Stack(tmp_path)
    stack.start_nats()
    settings = Settings(nats_url=stack.nats_url, retry_base=0.2, retry_cap=10.0)
    nc = await bus.connect(settings, "probe")
    try:
        assert stack.nats is not None
        waits = [nc.options["reconnect_time_wait"]]  # the one set at connection
        stack.nats.stop()
        outage = time.monotonic() + 5.0
        while time.monotonic() < outage:
            if nc.options["reconnect_time_wait"] != waits[-1]:  # a draw: never the same twice
                waits.append(nc.options["reconnect_time_wait"])
            await asyncio.sleep(0.02)
        stack.start_nats(again=True)
        deadline = time.monotonic() + 10
        while not nc.is_connected and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert nc.is_connected
    finally:
        await nc.close()
        stack.stop()
    policy = Backoff(0.2, bus.RECONNECT_CAP)
    failed = waits[1:]
    assert 2 <= len(failed) <= policy.most_attempts(5.0), waits
    for failures, wait in enumerate(failed):  # each within its step's upper half
        assert policy.ceiling(failures) / 2 <= wait <= policy.ceiling(failures), waits
