"""Create and join are as safe to retry as commands: a client's request id makes a retry answer
what the first try did (the same table; the same seat and token), even when the first reply was
lost because the table service hung past the gateway's request timeout. A reused id with another
request is refused. And when NATS itself is gone, every request says ``unavailable`` (503,
retryable), never ``internal``."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from integration.harness import Socket, Stack, assert_clean_log, new_table, raw_log

TIMEOUT = "1.5"  # the gateway's request timeout here (5 s by default)


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A stack of its own (its table service is paused and its NATS killed), with a short
    request timeout."""
    stack = Stack(Path(tmp_path_factory.mktemp("idempotency")))
    stack.start_nats()
    try:
        stack.start("tables", "--request-timeout", TIMEOUT)
        stack.start("gateway", "--request-timeout", TIMEOUT)
    except Exception:
        stack.stop()
        raise
    yield stack
    stack.stop()


@pytest.fixture
async def client(slow: Stack) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=slow.http, timeout=20.0) as http:
        yield http


def table_service(stack: Stack) -> Any:
    return next(p for p in stack.procs if p.name.startswith("tables"))


async def all_tables(http: httpx.AsyncClient) -> set[str]:
    ids: set[str] = set()
    for status in ("open", "playing", "finished"):
        r = await http.get("/api/tables", params={"status": status})
        assert r.status_code == 200, r.text
        ids |= {t["id"] for t in r.json()}
    return ids


async def lost_replies(stack: Stack, send: Any, tries: int = 2) -> list[httpx.Response]:
    """``send()`` ``tries`` times while the table service hangs: each waits past the gateway's
    timeout and is answered 503 ``unavailable``; the table service then wakes up and handles
    every one of them, its replies going nowhere."""
    service = table_service(stack)
    service.pause()
    try:
        answers = [await send() for _ in range(tries)]
    finally:
        service.resume()
    for r in answers:
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "unavailable"
    await asyncio.sleep(1.0)  # the woken service works through what it was sent
    return answers


async def test_a_retried_create_after_lost_replies_makes_one_table(
    slow: Stack, client: httpx.AsyncClient
) -> None:
    before = await all_tables(client)
    body = {"game": "guanpai", "request_id": str(uuid.uuid4())}
    await lost_replies(slow, lambda: client.post("/api/tables", json=body))

    first = await client.post("/api/tables", json=body)
    again = await client.post("/api/tables", json=body)
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    table = first.json()["id"]
    assert again.json()["id"] == table
    assert await all_tables(client) - before == {table}  # one table, not three
    raw = await raw_log(slow.nats_url, table)
    assert [e["type"] for _, e in raw].count("paiju_log") == 1
    assert_clean_log(raw)

    # the same id with another request is refused, and makes nothing
    other = await client.post("/api/tables", json={**body, "options": {"hands": 2}})
    assert other.status_code == 409, other.text
    assert other.json()["code"] == "id_reused" and body["request_id"] in other.json()["en"]
    assert await all_tables(client) - before == {table}
    assert await raw_log(slow.nats_url, table) == raw


async def test_a_retried_join_after_lost_replies_takes_one_seat(
    slow: Stack, client: httpx.AsyncClient
) -> None:
    table = await new_table(client)
    before = await raw_log(slow.nats_url, table)
    body = {"name": "Alice", "request_id": str(uuid.uuid4())}
    url = f"/api/tables/{table}/seats"
    await lost_replies(slow, lambda: client.post(url, json=body))

    first = await client.post(url, json=body)
    again = await client.post(url, json=body)
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    seat, token = first.json()["seat"], first.json()["token"]
    assert (again.json()["seat"], again.json()["token"]) == (seat, token)
    seats = (await client.get(f"/api/tables/{table}")).json()["seats"]
    assert [s["kind"] for s in seats].count("human") == 1, seats  # one seat, not three
    assert seats[seat]["name"] == "Alice"
    sock = await Socket.open(slow.ws, table, token)  # the token answered is the seat's
    assert sock.frames[-2] == {
        "type": "welcome",
        "table": table,
        "seat": seat,
        "max_frame": sock.frames[-2]["max_frame"],
    }
    await sock.close()

    # the same id with another request (another name, another seat) is refused
    for changed in ({"name": "Mallory"}, {"seat": (seat + 1) % 3}):
        r = await client.post(url, json={**body, **changed})
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "id_reused"
    seats_after = (await client.get(f"/api/tables/{table}")).json()["seats"]
    assert seats_after == seats
    assert await raw_log(slow.nats_url, table) == before  # a join of a seat appends nothing

    # the last seat joined twice with one id fills the table once: the deal follows, once
    last = {"name": "Bob", "request_id": str(uuid.uuid4())}
    other = {"name": "Carol", "request_id": str(uuid.uuid4())}
    answers = await asyncio.gather(
        client.post(url, json=other), client.post(url, json=last), client.post(url, json=last)
    )
    assert [r.status_code for r in answers] == [201, 201, 201], [r.text for r in answers]
    assert answers[1].json() == answers[2].json()
    final = (await client.get(f"/api/tables/{table}")).json()
    assert final["status"] == "playing"
    assert sorted(s["name"] for s in final["seats"]) == ["Alice", "Bob", "Carol"]
    raw = await raw_log(slow.nats_url, table)
    assert [e["type"] for _, e in raw].count("dealt") == 1
    assert_clean_log(raw)


async def test_a_request_id_must_be_hard_to_guess(client: httpx.AsyncClient) -> None:
    for body in ({"game": "guanpai", "request_id": "short"}, {"game": "guanpai", "request_id": 7}):
        r = await client.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "bad_request"


async def test_without_nats_every_request_says_unavailable(
    slow: Stack, client: httpx.AsyncClient
) -> None:
    """Last in this module: it kills the module's NATS."""
    table = await new_table(client)
    token = (await client.post(f"/api/tables/{table}/seats", json={"name": "Ann"})).json()["token"]
    unwatched = await new_table(client)  # nobody opens its feed before the outage
    sock = await Socket.open(slow.ws, table)
    assert slow.nats is not None
    slow.nats.kill()
    auth = {"Authorization": f"Bearer {token}"}
    requests = [
        client.get(f"/api/tables/{table}"),
        client.get("/api/tables"),
        client.post("/api/tables", json={"game": "guanpai"}),
        client.post(f"/api/tables/{table}/seats", json={"name": "Ben"}),
        client.post(
            f"/api/tables/{table}/commands",
            json={"id": "c1", "command": {"type": "pass", "seat": 0}},
            headers=auth,
        ),
    ]
    for request in requests:
        r = await request
        assert r.status_code == 503, (r.request.url, r.status_code, r.text)
        assert r.json()["code"] == "unavailable", r.text
    await sock.send({"type": "hello", "token": token})
    error = await sock.expect("error")
    assert error["code"] == "unavailable"
    await sock.send({"type": "ping", "nonce": 1})  # the socket stays open
    assert (await sock.expect("pong"))["nonce"] == 1
    await sock.close()
    # a table nobody watched yet: its feed cannot open; the socket is told so and closed with
    # "try again later" (1013), and the gateway's log says why
    conn = await websockets.connect(f"{slow.ws}/ws/tables/{unwatched}")
    frame = json.loads(await conn.recv())
    assert frame["type"] == "error" and frame["code"] == "unavailable", frame
    with pytest.raises(websockets.ConnectionClosed):
        await conn.recv()
    assert conn.close_code == 1013
    gateway = next(p for p in slow.procs if p.name.startswith("gateway"))
    assert any(line.get("msg") == "feed failed" for line in gateway.lines())
