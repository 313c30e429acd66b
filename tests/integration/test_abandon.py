"""Presence and abandoned tables against the real stack: the frames say which seats hold a socket
(on either of two gateway copies), and a seat whose socket closes leaves that list within a few
seconds; a table whose human stays connected is not ended; a table nobody is connected to for the
(short, test-set) ``abandon_after`` ends with ``table_abandoned`` (scores as they stand), the audit
finds the log sound and the table leaves the live list; two table service copies append the
abandonment once."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest

from integration.harness import (
    OWNERS,
    Socket,
    Stack,
    assert_clean_log,
    join,
    owner,
    raw_log,
    wait_status,
)
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju_services import subjects
from paiju_services.bus import ask
from paiju_services.views import presence_proof, presence_window, view_key

ABANDON_AFTER = 4.0
NO_CLOCK = {"play": 0, "bid": 0, "bury": 0, "continue": 0}  # a friends' table: nothing moves


def start(root: Path, tables: int, gateways: int) -> tuple[Stack, list[int]]:
    """NATS, ``tables`` table service copies with a short ``abandon_after``, the bots service and
    ``gateways`` gateway copies (their ports, in order) saying their presence often."""
    stack = Stack(root)
    stack.start_nats()
    ports: list[int] = []
    try:
        for _ in range(tables):
            stack.start("tables", "--abandon-after", str(ABANDON_AFTER))
        stack.start("bots")
        for _ in range(gateways):
            stack.start("gateway", "--presence-interval", "0.5")
            ports.append(stack.gateway_port)
    except Exception:
        stack.stop()
        raise
    return stack, ports


@pytest.fixture
def one_copy(tmp_path: Path) -> Iterator[tuple[Stack, list[int]]]:
    s, ports = start(tmp_path, tables=1, gateways=2)
    yield s, ports
    s.stop()


@pytest.fixture
def two_copies(tmp_path: Path) -> Iterator[tuple[Stack, list[int]]]:
    s, ports = start(tmp_path, tables=2, gateways=1)
    yield s, ports
    s.stop()


async def quiet_table(stack: Stack) -> str:
    """A two-hand guanpai table with no turn clock (a seat nobody plays for waits forever)."""
    nc = await nats.connect(stack.nats_url)
    try:
        body = {"game": "guanpai", "options": {"hands": 2}, "clock": NO_CLOCK}
        reply = await ask(nc, "paiju.tables.create", json.dumps(body).encode(), timeout=20)
    finally:
        await nc.close()
    data = json.loads(reply)
    assert data["error"] is None, data
    OWNERS[data["table"]] = data["owner_token"]
    return str(data["table"])


async def seated(http: httpx.AsyncClient, table: str) -> str:
    """Seat 0 for a person (its token), the others for bots."""
    token = await join(http, table, "Ann", seat=0)
    r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert r.status_code == 200, r.text
    return token


async def connected_becomes(sock: Socket, seats: list[int], timeout: float = 6.0) -> None:
    """Wait for a state frame whose ``connected`` is ``seats``."""
    deadline = time.monotonic() + timeout
    last = sock.frames[-1] if sock.frames else {}
    if last.get("type") == "state" and last.get("connected") == seats:
        return
    while time.monotonic() < deadline:
        frame = await sock.recv(max(0.1, deadline - time.monotonic()))
        if frame["type"] == "state" and frame.get("connected") == seats:
            return
    raise AssertionError(f"connected never became {seats}: {last}")


async def live_ids(http: httpx.AsyncClient) -> set[str]:
    r = await http.get("/api/tables", params={"status": "live"})
    assert r.status_code == 200, r.text
    return {t["id"] for t in r.json()}


def abandonments(raw: list[tuple[dict[str, str], dict[str, Any]]]) -> list[str]:
    return [h["Paiju-Command"] for h, e in raw[1:] if e["type"] == "table_abandoned"]


def test_presence_and_abandonment(one_copy: tuple[Stack, list[int]]) -> None:
    stack, (port_a, port_b) = one_copy

    async def run() -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_a}", timeout=20) as http:
            table = await quiet_table(stack)
            token = await seated(http, table)
            await wait_status(http, table, "playing")
            # Ann's socket on gateway A; a spectator on gateway B sees her connected
            ann = await Socket.open(f"ws://127.0.0.1:{port_a}", table, token)
            watcher = await Socket.open(f"ws://127.0.0.1:{port_b}", table)
            await connected_becomes(ann, [0])
            await connected_becomes(watcher, [0])
            # connected for longer than abandon_after: the table plays on
            await asyncio.sleep(ABANDON_AFTER + 2)
            assert (await http.get(f"/api/tables/{table}")).json()["status"] == "playing"
            assert table in await live_ids(http)
            assert not abandonments(await raw_log(stack.nats_url, table))
            # her socket closes: she is no longer connected, as the other copy's frames say
            await ann.close()
            await connected_becomes(watcher, [])
            # nobody connected for abandon_after: the table ends, scores as they stand
            body = await wait_status(http, table, "finished", timeout=ABANDON_AFTER + 15)
            over = await watcher.expect("over")
            assert over["totals"] == body["totals"] == [0, 0, 0]  # no hand was scored
            await watcher.close()
            assert table not in await live_ids(http)
            raw = await raw_log(stack.nats_url, table)
            assert_clean_log(raw)
            kinds = [e["type"] for _, e in raw[1:]]
            assert kinds[-2:] == ["table_abandoned", "match_ended"]
            assert len(abandonments(raw)) == 1
            r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
            lines = r.text.splitlines()
            report = audit(lines)
            assert report.verdict == "sound", describe(report)
            assert (
                "牌桌无人在线，已结束（按当前比分）",
                "Nobody was connected: the table ended (scores as they stand)",
            ) in describe(report)

    asyncio.run(run())


def test_two_copies_append_the_abandonment_once(two_copies: tuple[Stack, list[int]]) -> None:
    stack, (port,) = two_copies

    async def run() -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=20) as http:
            # a person who joined and never connected: counted from the seat taken
            tables = [await quiet_table(stack) for _ in range(3)]
            for table in tables:
                await seated(http, table)
            for table in tables:
                await wait_status(http, table, "finished", timeout=ABANDON_AFTER + 20)
            await asyncio.sleep(1.5)  # several sweeps of both copies after the end
            for table in tables:
                raw = await raw_log(stack.nats_url, table)
                assert_clean_log(raw)
                assert len(abandonments(raw)) == 1, abandonments(raw)
                assert [e["type"] for _, e in raw[1:]].count("match_ended") == 1
            assert not set(tables) & await live_ids(http)

    asyncio.run(run())


def test_presence_without_a_proof_of_the_seat_s_token_keeps_no_table_alive(
    one_copy: tuple[Stack, list[int]],
) -> None:
    """Anyone with the gateway's NATS credentials may publish on ``paiju.presence.<table>``: a
    seat said there counts only with a proof made with its token's view key, in the current time
    window (views.presence_proof). Proofs made with Ann's token keep her table alive with no
    socket at all (the control); a seat said with no proof, with another token's, or with hers
    of a long-gone window, keeps nothing: the table is abandoned."""
    stack, (port_a, _) = one_copy

    async def run() -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port_a}", timeout=20) as http:
            table = await quiet_table(stack)
            token = await seated(http, table)
            await wait_status(http, table, "playing")
            subject = subjects.presence_subject(table)
            key, other = view_key(token), view_key("not-ann-s-token")

            def said(*proofs: str) -> bytes:
                seats = [0] * len(proofs)
                return json.dumps({"instance": "forger", "seats": seats, "proofs": proofs}).encode()

            def proof(with_key: bytes, windows_ago: int = 0) -> str:
                window = presence_window(time.time()) - windows_ago
                return presence_proof(with_key, table, 0, window)

            forger = await nats.connect(stack.nats_url)
            try:
                deadline = time.monotonic() + ABANDON_AFTER + 2
                while time.monotonic() < deadline:  # proven: kept alive with no socket
                    await forger.publish(subject, said(proof(key)))
                    await asyncio.sleep(0.3)
                assert (await http.get(f"/api/tables/{table}")).json()["status"] == "playing"
                deadline = time.monotonic() + ABANDON_AFTER + 15
                while (await http.get(f"/api/tables/{table}")).json()["status"] != "finished":
                    assert time.monotonic() < deadline, "forged presence kept the table alive"
                    unproven = json.dumps({"instance": "forger", "seats": [0]}).encode()
                    await forger.publish(subject, unproven)
                    await forger.publish(subject, said(proof(other), "0" * 32, "ünïcode"))
                    await forger.publish(subject, said(proof(key, windows_ago=3)))
                    await asyncio.sleep(0.3)
            finally:
                await forger.close()
            raw = await raw_log(stack.nats_url, table)
            assert [e["type"] for _, e in raw[1:]][-2:] == ["table_abandoned", "match_ended"]

    asyncio.run(run())
