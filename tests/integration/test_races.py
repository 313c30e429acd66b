"""Optimistic concurrency: two copies of the table service that decide on the same state cannot
both append; a command id is appended once however often, and wherever, it is sent; a copy that
lost a race reloads and retries instead of failing; the last seats joining on two copies at once
each bring their seed into the first deal."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import nats
import pytest

from integration.harness import Socket, Stack, assert_clean_log, join, new_table, raw_log
from paiju import api
from paiju.errors import RuleError
from paiju.protocol import encode
from paiju_services.config import Settings
from paiju_services.messages import CommandDone, Join, SeatCommand
from paiju_services.tables import TableService


@pytest.fixture
async def copies(stack: Stack) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two more copies of the table service in this process, with their own connections and
    caches; the test calls them directly, so it chooses which copy gets which command."""
    services = []
    conns = []
    for name in ("copy-a", "copy-b"):
        nc = await nats.connect(stack.nats_url)
        conns.append(nc)
        svc = TableService(Settings(nats_url=stack.nats_url, instance=name), nc, nc.jetstream())
        await svc.open()
        services.append(svc)
    yield services[0], services[1]
    for nc in conns:
        await nc.close()


async def three_people(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    table = await new_table(http)
    tokens = [await join(http, table, f"P{seat}", seat=seat) for seat in range(3)]
    return table, tokens


async def seat_commands(svc: TableService, table: str) -> tuple[int, list[dict[str, Any]]]:
    log = await svc.writer.table(table)
    seat = api.to_move(log.state)
    assert seat is not None
    return seat, [encode(m) for m in api.legal_moves(log.state, seat)]


def seat_events(raw: list[tuple[dict[str, str], dict[str, Any]]]) -> int:
    return sum(
        1 for _, e in raw[1:] if e.get("seat") is not None and e["type"] in ("played", "passed")
    )


async def test_two_conflicting_commands_at_once_append_exactly_one(
    stack: Stack, http: httpx.AsyncClient, copies: tuple[TableService, TableService]
) -> None:
    a, b = copies
    table, tokens = await three_people(http)
    await a.writer.table(table), await b.writer.table(table)  # both copies hot, at the same version
    seat, moves = await seat_commands(a, table)
    first, second = moves[0], moves[1]
    before = await raw_log(stack.nats_url, table)

    results = await asyncio.gather(
        a.command(table, SeatCommand(id="left", token=tokens[seat], command=first)),
        b.command(table, SeatCommand(id="right", token=tokens[seat], command=second)),
        return_exceptions=True,
    )
    done = [r for r in results if isinstance(r, CommandDone)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(done) == 1 and len(refused) == 1, results
    assert refused[0].code == "not_your_turn"
    after = await raw_log(stack.nats_url, table)
    assert seat_events(after) == seat_events(before) + 1
    assert_clean_log(after)


async def test_the_same_command_id_twice_is_appended_once_and_the_second_answer_says_so(
    stack: Stack, http: httpx.AsyncClient, copies: tuple[TableService, TableService]
) -> None:
    a, b = copies
    table, tokens = await three_people(http)
    await a.writer.table(table), await b.writer.table(table)

    # one after the other, to two copies (b's copy of the table is stale when it gets it)
    seat, moves = await seat_commands(a, table)
    req = SeatCommand(id="once", token=tokens[seat], command=moves[0])
    one = await a.command(table, req)
    two = await b.command(table, req)
    assert not one.duplicate and two.duplicate
    assert (two.index, two.count) == (one.index, one.count)

    # at the same moment, to two copies
    seat, moves = await seat_commands(a, table)
    req = SeatCommand(id="twice", token=tokens[seat], command=moves[0])
    before = await raw_log(stack.nats_url, table)
    x, y = await asyncio.gather(a.command(table, req), b.command(table, req))
    assert sorted([x.duplicate, y.duplicate]) == [False, True]
    after = await raw_log(stack.nats_url, table)
    assert len(after) == len(before) + x.count
    assert_clean_log(after)

    # and over the gateway's WebSocket
    seat, moves = await seat_commands(a, table)
    sock = await Socket.open(stack.ws, table, tokens[seat])
    frame = {"type": "command", "id": "ws-twice", "command": moves[0]}
    await sock.send(frame)
    first_ack = await sock.expect("ack")
    await sock.send(frame)
    second_ack = await sock.expect("ack")
    await sock.close()
    assert not first_ack["duplicate"] and second_ack["duplicate"]
    assert first_ack["index"] == second_ack["index"]
    assert_clean_log(await raw_log(stack.nats_url, table))


async def test_a_copy_that_lost_a_race_reloads_and_retries(
    stack: Stack, http: httpx.AsyncClient, copies: tuple[TableService, TableService]
) -> None:
    a, b = copies
    table, tokens = await three_people(http)
    await a.writer.table(table)
    seat, moves = await seat_commands(a, table)
    await b.command(table, SeatCommand(id="by-b", token=tokens[seat], command=moves[0]))
    # a's copy is one event behind: it decides the next seat's move on its stale copy (where it is
    # not that seat's turn yet), finds the log moved on, reloads, and decides again
    stale = await a.writer.table(table)
    fresh_seat, fresh_moves = await seat_commands(b, table)
    assert api.to_move(stale.state) == seat != fresh_seat
    done = await a.command(
        table, SeatCommand(id="by-a", token=tokens[fresh_seat], command=fresh_moves[0])
    )
    assert not done.duplicate and done.count >= 1 and done.retries == 1
    assert_clean_log(await raw_log(stack.nats_url, table))


async def test_concurrent_http_commands_for_one_seat(stack: Stack, http: httpx.AsyncClient) -> None:
    """The same race through the public API: many different commands for the seat to move, sent
    at once; exactly one is appended, every other is refused with a rule error."""
    table, tokens = await three_people(http)
    sock = await Socket.open(stack.ws, table)
    view = sock.frames[-1]["view"]
    await sock.close()
    seat = view["turn"]
    seat_sock = await Socket.open(stack.ws, table, tokens[seat])
    moves = seat_sock.frames[-1]["moves"]
    await seat_sock.close()
    before = await raw_log(stack.nats_url, table)
    replies = await asyncio.gather(
        *(
            http.post(
                f"/api/tables/{table}/commands",
                json={"id": f"burst-{i}", "command": move},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            for i, move in enumerate(moves[:6])
        )
    )
    codes = sorted(r.status_code for r in replies)
    assert codes.count(200) == 1 and set(codes) <= {200, 422}, [r.text for r in replies]
    assert {r.json()["code"] for r in replies if r.status_code == 422} <= {"not_your_turn"}
    after = await raw_log(stack.nats_url, table)
    assert seat_events(after) == seat_events(before) + 1


async def test_the_last_two_seats_joined_on_two_copies_at_once_both_seed_the_first_deal(
    stack: Stack, http: httpx.AsyncClient, copies: tuple[TableService, TableService]
) -> None:
    """Either join may fill the table and run its deal: a seed is in the deal all the same (it
    used to be dropped when the other copy dealt first)."""
    a, b = copies
    for attempt in range(6):
        table = await new_table(http)
        await join(http, table, "P0", seat=0)
        await a.writer.table(table), await b.writer.table(table)
        await asyncio.gather(
            a.join(table, Join(name="P1", seat=1, seed=f"one-{attempt}")),
            b.join(table, Join(name="P2", seat=2, seed=f"two-{attempt}")),
        )
        events = [e for _, e in (await raw_log(stack.nats_url, table))[1:]]
        dealt = next(i for i, e in enumerate(events) if e["type"] == "dealt")
        seeds = sorted((e["seat"], e["seed"]) for e in events[:dealt] if e["type"] == "seed_added")
        assert seeds == [(1, f"one-{attempt}"), (2, f"two-{attempt}")], (attempt, seeds)
        assert_clean_log(await raw_log(stack.nats_url, table))
