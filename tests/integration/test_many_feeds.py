"""Watched tables are not bounded by JetStream consumers (gateway/feeds.py): a feed follows its
table with a plain subscription to what the stream republishes of it (and batched direct gets on
a gap), so a gateway
watching many tables holds no consumer of the event stream (a stream allows 1,000 by default, the
cap every watched table used to count against). Feeds of many tables start at once, and a
spectator of a table played by bots sees every event's index once, in order, to the end."""

from __future__ import annotations

import asyncio

import httpx
import nats

from integration.harness import Socket, Stack, new_table, owner
from integration.test_cluster import assert_every_index_once, watch_to_the_end
from paiju_services import subjects

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
