"""The table service crashes in the middle of a game and a new copy takes over; of two copies, each
table is served by the one that holds it, and the other takes over when that one is killed. Either
way the log has no lost and no duplicated event and audits clean."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from integration.harness import (
    Socket,
    Stack,
    assert_clean_log,
    join,
    new_table,
    owner,
    play_seat,
    raw_log,
    start_stack,
    wait_status,
)
from paiju.log.replay import audit
from paiju_services import affinity


@pytest.fixture
def two_copies(tmp_path: Path) -> Iterator[Stack]:
    s = start_stack(tmp_path, tables=2)
    yield s
    s.stop()


@pytest.fixture
def one_copy(tmp_path: Path) -> Iterator[Stack]:
    s = start_stack(tmp_path, tables=1)
    yield s
    s.stop()


async def _audited(http: httpx.AsyncClient, table: str) -> list[str]:
    r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
    assert r.status_code == 200, r.text
    lines = r.text.splitlines()
    report = audit(lines)
    assert report.ok, report.error
    return lines


async def test_a_new_copy_takes_over_from_a_killed_table_service(one_copy: Stack) -> None:
    stack = one_copy
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await new_table(http, options={"hands": 2})  # a two-hand match
        token = await join(http, table, "Alice", seat=0)
        await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        sock = await Socket.open(stack.ws, table, token)
        game = asyncio.create_task(play_seat(sock, 0, retry_unavailable=True))

        while sum(f["type"] == "ack" for f in sock.frames) < 3:  # well into the first hand
            await asyncio.sleep(0.01)
        assert not game.done()
        old = stack.procs[0]
        old.kill()  # SIGKILL, whatever it was doing
        killed_at = max(f["index"] for f in sock.frames if f["type"] == "state")
        await asyncio.sleep(1.0)  # the game stalls: nobody serves the table
        new = stack.start("tables")

        over = await asyncio.wait_for(game, 60)
        await sock.close()
        assert over["totals"] and sum(over["totals"]) == 0

        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        assert max(f["index"] for f in sock.frames if f["type"] == "state") > killed_at + 10
        assert any(line.get("msg") == "command" for line in new.lines())
        lines = await _audited(http, table)
        assert len(lines) == len(raw)
        # every move the person's seat had acknowledged is in the log exactly once
        # (the match may end on the person's own last move: its ack can come after "over")
        acked = {f["id"] for f in sock.frames if f["type"] == "ack"}
        sent = {f"s0-v{f['index']}" for f in sock.frames if f["type"] == "state" and f.get("moves")}
        # and the 继续 it pressed on each hand's score sheet
        sent |= {
            f"s0-c{f['view']['hand_no']}"
            for f in sock.frames
            if f["type"] == "state" and f["view"].get("last_hand")
        }
        mine = {
            h["Paiju-Command"].removeprefix("seat0.")
            for h, _ in raw[1:]
            if h["Paiju-Command"].startswith("seat0.")
        }
        assert acked <= mine <= sent
        assert len(mine - acked) <= 1


def commands_by_copy(stack: Stack, table: str) -> dict[str, int]:
    """The seat commands each table-service copy handled for ``table`` (its ``command`` lines)."""
    return {
        p.name: sum(
            1 for line in p.lines() if line.get("msg") == "command" and line.get("table") == table
        )
        for p in stack.procs
        if p.name.startswith("tables")
    }


async def test_each_table_is_served_by_the_copy_that_holds_it(two_copies: Stack) -> None:
    stack = two_copies
    copies = {p.name for p in stack.procs if p.name.startswith("tables")}
    await asyncio.sleep(1.5 * affinity.ANNOUNCE)  # the gateway and the bots have heard both
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        tables = [await new_table(http, options={"hands": 1}) for _ in range(8)]
        for table in tables:  # bots at every seat: the bots service plays every command
            r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
            assert r.status_code == 200, r.text
        for table in tables:
            await wait_status(http, table, "finished")
            assert_clean_log(await raw_log(stack.nats_url, table))
            await _audited(http, table)
    for table in tables:
        served = commands_by_copy(stack, table)
        holder = affinity.holder(table, copies)
        assert served[holder] > 0 and sum(served.values()) == served[holder], (table, served)


async def test_the_other_copy_takes_over_a_killed_holders_table_at_once(two_copies: Stack) -> None:
    stack = two_copies
    copies = {p.name: p for p in stack.procs if p.name.startswith("tables")}
    await asyncio.sleep(1.5 * affinity.ANNOUNCE)
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await new_table(http, options={"hands": 2})
        token = await join(http, table, "Alice", seat=0)
        await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        sock = await Socket.open(stack.ws, table, token)
        game = asyncio.create_task(play_seat(sock, 0, retry_unavailable=True))
        while sum(f["type"] == "ack" for f in sock.frames) < 3:  # well into the first hand
            await asyncio.sleep(0.01)
        holder = affinity.holder(table, set(copies))
        assert holder is not None
        before = commands_by_copy(stack, table)
        copies[holder].kill()  # SIGKILL: no word to anyone; nobody restarts it
        over = await asyncio.wait_for(game, 60)
        await sock.close()
        assert sum(over["totals"]) == 0
        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        await _audited(http, table)
    (survivor,) = set(copies) - {holder}
    after = commands_by_copy(stack, table)
    assert before[survivor] == 0 and before[holder] > 0  # the holder alone, while it lived
    assert after[survivor] > 0  # then the other copy, without a restart
