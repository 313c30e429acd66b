"""How tables end when nobody ends them, on a real stack with short settings: a match whose length
is a score limit (跳数 with a limit no table reaches, ``hands: 0``) played by bots ends at the
table service's bound on events with a result (``table_at_limit``, scores as they stand), is
finished, archived and retired, and its exported log audits sound."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import nats
import pytest
from nats.aio.client import Client

from integration.harness import OWNERS, Stack, assert_clean_log, new_table, owner, raw_log
from paiju.log import audit, describe
from paiju_services import subjects
from paiju_services.messages import TableMeta

MAX_EVENTS = 300  # a few hands of 跳数 played by bots
RETIRE_AFTER = 1.0


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """NATS, a table service copy with a small bound on events and a short retirement, the bots
    service and a gateway."""
    stack = Stack(Path(tmp_path_factory.mktemp("ends")))
    stack.start_nats()
    try:
        stack.start("tables", "--max-events", str(MAX_EVENTS), "--retire-after", str(RETIRE_AFTER))
        stack.start("bots")
        stack.start("gateway")
    except Exception:
        stack.stop()
        raise
    yield stack
    stack.stop()


async def until(what: str, check: Callable[[], Awaitable[Any]], timeout: float = 60.0) -> Any:
    """Poll ``check`` until it answers something true (which is returned), or fail."""
    deadline = time.monotonic() + timeout
    while not (found := await check()):
        assert time.monotonic() < deadline, f"waited {timeout:.0f}s for {what}"
        await asyncio.sleep(0.1)
    return found


async def entry(nc: Client, table_id: str) -> TableMeta | None:
    """The table's directory entry, or None when the bucket holds none."""
    kv = await nc.jetstream().key_value(subjects.TABLES_BUCKET)
    try:
        got = await kv.get(table_id)
    except nats.js.errors.KeyNotFoundError:
        return None
    return msgspec.json.decode(got.value or b"", type=TableMeta)


async def test_a_score_limit_match_at_the_bound_ends_with_a_result_and_is_retired(
    system: Stack,
) -> None:
    async with httpx.AsyncClient(base_url=system.http, timeout=20) as http:
        table = await new_table(http, game="tiaoshu", options={"limit": 1_000_000, "hands": 0})
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text

        async def finished() -> dict[str, Any] | None:
            body: dict[str, Any] = (await http.get(f"/api/tables/{table}")).json()
            return body if body["status"] == "finished" else None

        meta = await until("the match to end at the bound", finished, timeout=90)
        raw = await raw_log(system.nats_url, table)
        assert_clean_log(raw)
        assert len(raw) - 1 <= MAX_EVENTS
        ending = raw[-2:]
        assert [e["type"] for _, e in ending] == ["table_at_limit", "match_ended"]
        assert ending[0][1]["limit"] == MAX_EVENTS
        assert ending[0][1]["totals"] == ending[1][1]["totals"] == meta["totals"]

        nc = await nats.connect(system.nats_url)
        try:

            async def retired() -> bool:
                found = await entry(nc, table)
                return found is not None and found.retired_at is not None

            await until("the table to be retired", retired, timeout=30)
        finally:
            await nc.close()
        r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
        assert r.status_code == 200, r.text
        report = audit(r.text.splitlines())
        assert report.verdict == "sound", describe(report)
        told = [en for _, en in describe(report)]
        assert "The table reached its limit of events: the match ended (scores as they stand)" in (
            told
        )
    OWNERS.pop(table, None)
