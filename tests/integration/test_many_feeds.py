"""Watched tables are not bounded by JetStream consumers (gateway/feeds.py): a feed follows its
table with plain subscriptions to the views the table service publishes (and asks for what it
missed), so a gateway watching many tables holds no consumer of the event stream (a stream allows
1,000 by default, the cap every watched table used to count against). Feeds of many tables start
at once, and a spectator of a table played by bots sees every event's index once, in order, to the
end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import nats
import pytest

from integration.harness import (
    Socket,
    Stack,
    assert_every_index_once,
    new_table,
    owner,
    start_stack,
    watch_to_the_end,
)
from paiju_services import subjects
from paiju_services.bus import request
from paiju_services.messages import CreateTable, TableCreated

# run after the other tests, one at a time (make test):
# it opens 2,000 tables' feeds at once
pytestmark = pytest.mark.alone

IDLE_TABLES = 40  # watched, not started: their feeds stay open
PLAYED_TABLES = 3  # watched while bots play them to the end


async def consumers(stack: Stack) -> int:
    nc = await nats.connect(stack.nats_url)
    try:
        info = await nc.jetstream().stream_info(subjects.STREAM)
        return int(info.state.consumer_count)
    finally:
        await nc.close()


async def test_a_gateway_watches_many_tables_with_no_consumer_per_table(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    before = await consumers(stack)
    idle = [await new_table(http, game="guanpai", players=3) for _ in range(IDLE_TABLES)]
    played = [await new_table(http, game="guanpai", players=3) for _ in range(PLAYED_TABLES)]
    # every socket at once: the feeds start concurrently, each loading its own table
    socks = await asyncio.gather(*(Socket.open(stack.ws, t) for t in [*idle, *played]))
    assert len(socks) == IDLE_TABLES + PLAYED_TABLES
    assert await consumers(stack) == before  # no consumer for any of the feeds

    for table in played:
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text
    spectators = socks[IDLE_TABLES:]
    await asyncio.gather(*(watch_to_the_end(s, 120) for s in spectators))
    for sock in spectators:
        assert_every_index_once(sock.frames)
        over = next(f for f in sock.frames if f["type"] == "over")
        assert sum(over["totals"]) == 0 and any(over["totals"])
    assert await consumers(stack) == before
    for sock in socks:
        await sock.close()


WATCHED = 2_001  # beyond the 1,000 consumers a stream allows by default (the 999 of before)
# creates sent at once: each waits for its copy's turn, and 250 at once left the last of them
# past the request's 30 s on a busy machine (answered unavailable)
BATCH = 50


async def test_a_gateway_watches_more_than_two_thousand_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One gateway copy watches more than two thousand tables at once (a stack of its own, so that
    the lobby of the other tests is not flooded): every socket gets its table's state, no
    consumer of the event stream is made for any, and a table played by bots among them is seen
    to its end, every index once. (Every socket comes from this one address: the gateway's limit
    of sockets opened per address is lifted.)"""
    monkeypatch.setenv("PAIJU_WS_RATE", "100000")
    monkeypatch.setenv("PAIJU_WS_BURST", str(10 * WATCHED))
    stack = start_stack(tmp_path, bots=True)
    nc = await nats.connect(stack.nats_url)
    try:
        before = await consumers(stack)
        made: list[TableCreated] = []
        for start in range(0, WATCHED, BATCH):  # a burst past max_in_flight would be refused
            made += await asyncio.gather(
                *(
                    request(
                        nc,
                        subjects.TABLES_CREATE,
                        CreateTable(game="guanpai"),
                        TableCreated,
                        30,
                        "unavailable",
                    )
                    for _ in range(min(BATCH, WATCHED - start))
                )
            )
        tables = [m.table for m in made]
        socks: list[Socket] = []
        for start in range(0, WATCHED, 100):  # a hundred sockets at a time
            socks += await asyncio.gather(
                *(Socket.open(stack.ws, t) for t in tables[start : start + 100])
            )
        states = [next(f for f in s.frames if f["type"] == "state") for s in socks]
        assert [s["table"] for s in states] == tables
        assert all(s["view"]["phase"] == "seeding" for s in states)
        assert await consumers(stack) == before

        played, owner_token = made[-1].table, made[-1].owner_token
        async with httpx.AsyncClient(base_url=stack.http, timeout=20) as http:
            r = await http.post(
                f"/api/tables/{played}/bots",
                json={},
                headers={"Authorization": f"Bearer {owner_token}"},
            )
            assert r.status_code == 200, r.text
        await watch_to_the_end(socks[-1], 120)
        assert_every_index_once(socks[-1].frames)
        for sock in socks:
            await sock.close()
    finally:
        await nc.close()
        stack.stop()
