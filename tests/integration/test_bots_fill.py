"""Bots filling a table: however the joins and the deal interleave, every bot seat plays. (A bots
copy once took a partial list of its seats for the table's whole list when the last bot's join
dealt the cards, and the game stalled with that bot to move.)"""

from __future__ import annotations

import asyncio

import httpx

from integration.harness import new_table, owner, wait_status


async def test_tables_filled_only_by_bots_all_play_to_the_end(http: httpx.AsyncClient) -> None:
    tables = [await new_table(http, game="guanpai", variant="boke") for _ in range(6)]
    for table in tables:
        filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert filled.status_code == 200, filled.text
        assert filled.json()["seats"] == [0, 1, 2]
    finished = await asyncio.gather(*(wait_status(http, t, "finished", timeout=90) for t in tables))
    assert all(sum(body["totals"]) == 0 for body in finished)
