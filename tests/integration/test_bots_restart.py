"""The bots service neither makes nor deletes its consumer (the table service makes it, and makes
it again if it is gone; paiju_services.access keeps the bots user from touching it) and writes no
seat token (the table service does, as it seats a bot). So a bots service stopped in the middle of
a match and started again only binds to the consumer and reads the tokens, and the table plays
on to its end. (A bots service killed with -9 holds its turn in flight until the consumer's
``ack_wait``, 30 s, delivers it again: the same path, only slower.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from integration.harness import Stack, new_table, owner, wait_status


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[Stack]:
    s = Stack(tmp_path)
    s.start_nats()
    try:
        s.start("tables")
        # slow enough that the match is far from over when the test stops it, on a loaded machine
        s.start("bots", "--bot-delay", "0.5")
        s.start("gateway")
    except Exception:
        s.stop()
        raise
    yield s
    s.stop()


async def test_a_table_of_bots_plays_on_after_the_bots_service_restarts(slow_bots: Stack) -> None:
    async with httpx.AsyncClient(base_url=slow_bots.http, timeout=20.0) as http:
        table = await new_table(http, game="guanpai")
        filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert filled.status_code == 200, filled.text
        seated = (await http.get(f"/api/tables/{table}/state")).json()["index"]
        deadline = time.monotonic() + 30
        while (await http.get(f"/api/tables/{table}/state")).json()["index"] < seated + 3:
            assert time.monotonic() < deadline, "the bots did not start playing"
            await asyncio.sleep(0.05)
        bots = next(p for p in slow_bots.procs if p.name.startswith("bots"))
        bots.stop()
        moved = (await http.get(f"/api/tables/{table}/state")).json()["index"]
        status = (await http.get(f"/api/tables/{table}")).json()["status"]
        assert status != "finished", "the match ended before the bots were stopped"
        slow_bots.start("bots", "--bot-delay", "0.05")
        finished = await wait_status(http, table, "finished", timeout=60)
        assert sum(finished["totals"]) == 0
        state = (await http.get(f"/api/tables/{table}/state")).json()
        assert state["index"] > moved  # the new copy played the rest
