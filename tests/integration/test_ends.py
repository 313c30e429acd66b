"""How tables end when nobody ends them, on a real stack with short settings: a match whose length
is a score limit (跳数 with a limit no table reaches, ``hands: 0``) played by bots ends at the
table service's bound on events with a result (``table_at_limit``, scores as they stand), is
finished, archived and retired, and its exported log audits sound. An open table nobody fills
expires after ``open_expiry`` and leaves nothing: no message in the event stream, no directory
entry, seed, view key or bot token, no line in the gateway's lobby; the person waiting at it is
told ``table_expired`` and her socket closed. A join racing the expiry on
another copy either takes its seat at a live table or is refused (``table_expired``), never both:
no half-table. A retired table can be exported for ``keep_retired``, then its directory entry and
archive are deleted, and it is unknown."""

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
import websockets
from nats.aio.client import Client

from integration.harness import (
    OWNERS,
    Socket,
    Stack,
    assert_clean_log,
    join,
    new_table,
    owner,
    raw_log,
)
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju_services import subjects, views
from paiju_services.config import Settings
from paiju_services.errors import ServiceError
from paiju_services.messages import CreateTable, Join, TableMeta
from paiju_services.store import (
    ARCHIVE_BUCKET,
    ARCHIVE_STREAM,
    RETIRED_BUCKET,
    EventStore,
    archive_meta_subject,
)
from paiju_services.tables import TableService

MAX_EVENTS = 300  # a few hands of 跳数 played by bots
RETIRE_AFTER = 1.0
OPEN_EXPIRY = 3.0  # seconds an open table waits for its players on the stack
KEEP_RETIRED = 6.0  # seconds a retired table is kept (time enough to export it once retired)


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """NATS, a table service copy with a small bound on events, a short retirement, retention
    and expiry of open tables, the bots service and a gateway."""
    stack = Stack(Path(tmp_path_factory.mktemp("ends")))
    stack.start_nats()
    try:
        stack.start(
            "tables",
            *("--max-events", str(MAX_EVENTS), "--retire-after", str(RETIRE_AFTER)),
            *("--open-expiry", str(OPEN_EXPIRY), "--keep-retired", str(KEEP_RETIRED)),
        )
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


async def held(nc: Client, table_id: str) -> dict[str, int]:
    """The messages JetStream holds of the table, where each kind is kept: its log, its directory
    entry, its base seed, its seats' view keys, its bots' seat tokens (a marker counts too)."""
    js = nc.jetstream()
    places = {
        "log": (subjects.STREAM, subjects.events_subject(table_id)),
        "entry": (f"KV_{subjects.TABLES_BUCKET}", f"$KV.{subjects.TABLES_BUCKET}.{table_id}"),
        "seed": (f"KV_{subjects.SECRETS_BUCKET}", f"$KV.{subjects.SECRETS_BUCKET}.{table_id}"),
        "view keys": (
            f"KV_{subjects.SECRETS_BUCKET}",
            f"$KV.{subjects.SECRETS_BUCKET}.{views.key_name(table_id, '*')}",
        ),
        "bot tokens": (
            f"KV_{subjects.BOT_TOKENS_BUCKET}",
            f"$KV.{subjects.BOT_TOKENS_BUCKET}.{table_id}.*",
        ),
    }
    counts = {}
    for kind, (stream, subject) in places.items():
        info = await js.stream_info(stream, subjects_filter=subject)
        counts[kind] = sum((info.state.subjects or {}).values())
    return counts


async def test_an_open_table_nobody_fills_expires_and_leaves_nothing(system: Stack) -> None:
    async with httpx.AsyncClient(base_url=system.http, timeout=20) as http:
        table = await new_table(http)  # 关牌 of three: one person and one bot come, not a third
        token = await join(http, table, "Ann", seat=0)
        ann = await Socket.open(system.ws, table, token)  # she waits at the table
        r = await http.post(f"/api/tables/{table}/bots", json={"seats": [1]}, headers=owner(table))
        assert r.status_code == 200, r.text

        async def lobby() -> set[str]:
            r = await http.get("/api/tables", params={"status": "open"})
            assert r.status_code == 200, r.text
            return {t["id"] for t in r.json()}

        nc = await nats.connect(system.nats_url)
        try:
            before = await held(nc, table)
            assert all(before.values()), before  # every kind is there while it is open
            assert table in await lobby()

            async def gone() -> bool:
                r = await http.get(f"/api/tables/{table}")
                return r.status_code == 404 and r.json()["code"] == "table_not_found"

            told = await ann.expect("error", timeout=OPEN_EXPIRY + 30)  # told, then closed
            assert told["code"] == "table_expired" and told["zh"] and told["en"], told
            with pytest.raises(websockets.ConnectionClosed):
                await ann.recv(timeout=10)
            await until("the open table to be gone", gone, timeout=30)
            assert await held(nc, table) == dict.fromkeys(before, 0)
            assert table not in await lobby()
            r = await http.post(f"/api/tables/{table}/seats", json={"name": "Late"})
            assert r.status_code == 404 and r.json()["code"] == "table_not_found", r.text
        finally:
            await nc.close()
    OWNERS.pop(table, None)


async def test_a_join_racing_the_expiry_joins_a_live_table_or_is_refused(bare: Stack) -> None:
    """Two copies of the table service on one NATS: one joins each table as the other's expiry
    pass ends it, at once. Each table ends one way: joined (its entry open, the seat taken, its
    log and seed there, the expiry kept it) or expired (the join refused, nothing of it left once
    forgotten)."""
    tables = 16
    expiry = 1.0
    settings = {"nats_url": bare.nats_url, "open_expiry": expiry}
    connections = [await nats.connect(bare.nats_url) for _ in range(3)]
    try:
        joiner, expirer = (
            TableService(Settings(instance=name, **settings), nc, nc.jetstream())
            for name, nc in zip(("joiner", "expirer"), connections, strict=False)
        )
        for service in (joiner, expirer):
            await service.open()
            assert service.in_play is not None
            await service.in_play.start()
        made = [(await joiner.create(CreateTable(game="guanpai"))).table for _ in range(tables)]
        await asyncio.sleep(expiry)  # every table is due now

        async def race(table_id: str, join_after: float, end_after: float) -> tuple[str, str]:
            async def seat() -> str:
                await asyncio.sleep(join_after)
                try:
                    await joiner.join(table_id, Join(name="Racer"))
                except ServiceError as exc:
                    return exc.code
                return "joined"

            async def end() -> str:
                assert expirer.in_play is not None
                await until("the index to hold the table", _holds(expirer, table_id), 10)
                await asyncio.sleep(end_after)
                return await expirer.expiry.end(table_id, time.time())

            joined, ended = await asyncio.gather(seat(), end())
            return joined, ended

        outcomes = await asyncio.gather(
            *(race(t, 0.002 * (i % 4), 0.002 * (i // 4)) for i, t in enumerate(made))
        )
        operator = connections[2]
        for table_id, (joined, ended) in zip(made, outcomes, strict=True):
            found = await entry(operator, table_id)
            assert found is not None
            if joined == "joined":
                assert ended == "kept", (table_id, joined, ended)
                assert found.status == "open" and found.seats[0].name == "Racer"
                counts = await held(operator, table_id)
                assert counts["log"] and counts["seed"] and counts["view keys"], counts
            else:
                assert joined == "table_expired" and ended == "expired", (joined, ended)
                assert found.status == "expired"
                assert await expirer.expiry.end(table_id, time.time() + 60) == "forgotten"
                assert await held(operator, table_id) == {
                    "log": 0,
                    "entry": 0,
                    "seed": 0,
                    "view keys": 0,
                    "bot tokens": 0,
                }
        print("joins that won the race:", sum(j == "joined" for j, _ in outcomes), "of", tables)
        for service in (joiner, expirer):
            assert service.in_play is not None
            await service.in_play.stop()
    finally:
        for nc in connections:
            await nc.close()


def _holds(service: TableService, table_id: str) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        assert service.in_play is not None
        return table_id in service.in_play.waiting

    return check


async def messages_on(nc: Client, stream: str, subject: str) -> int:
    info = await nc.jetstream().stream_info(stream, subjects_filter=subject)
    return sum((info.state.subjects or {}).values())


async def test_a_retired_table_is_kept_for_its_retention_then_deleted(system: Stack) -> None:
    async with httpx.AsyncClient(base_url=system.http, timeout=20) as http:
        table = await new_table(http)
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text
        nc = await nats.connect(system.nats_url)
        try:

            async def retired() -> TableMeta | None:
                found = await entry(nc, table)
                return found if found is not None and found.retired_at is not None else None

            await until("the table to be retired", retired, timeout=60)
            # kept: the auditor's export, the history, the archive
            r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
            assert r.status_code == 200, r.text
            assert audit(r.text.splitlines()).verdict == "sound"
            r = await http.get("/api/tables", params={"status": "finished"})
            assert table in {t["id"] for t in r.json()}
            archived = await EventStore(nc, nc.jetstream()).archived(table)
            assert archived is not None
            chunks = f"$O.{ARCHIVE_BUCKET}.C.{archived.nuid}"
            places = [
                (ARCHIVE_STREAM, chunks),
                (ARCHIVE_STREAM, archive_meta_subject(table)),
                (f"KV_{RETIRED_BUCKET}", f"$KV.{RETIRED_BUCKET}.{table}"),
                (f"KV_{subjects.TABLES_BUCKET}", f"$KV.{subjects.TABLES_BUCKET}.{table}"),
            ]
            assert all([await messages_on(nc, *place) for place in places])

            async def deleted() -> bool:
                r = await http.get(f"/api/tables/{table}")
                return r.status_code == 404 and r.json()["code"] == "table_not_found"

            await until("the table to be deleted", deleted, timeout=KEEP_RETIRED + 30)
            r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
            assert r.status_code == 404, r.text
            r = await http.get("/api/tables", params={"status": "finished"})
            assert table not in {t["id"] for t in r.json()}

            async def nothing_left() -> bool:  # the entry's marker expires too
                return not any([await messages_on(nc, *place) for place in places])

            await until("nothing of the table to be left", nothing_left, timeout=30)
            assert await held(nc, table) == dict.fromkeys(await held(nc, table), 0)
        finally:
            await nc.close()
    OWNERS.pop(table, None)
