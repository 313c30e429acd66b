"""Retirement (paiju_services.archive) on a system the launcher starts, with its NATS users: a table
finished for ``retire_after`` seconds leaves the event stream for the archive, and every reader
keeps reading it as before — the exported log is the same bytes and audits sound, ``/state?at=N``,
the hands and the replay's log answer the same — while its subject holds no message any more,
and its secrets (its base seed, its seats' view keys, its bots' seat tokens) are gone from their
buckets. A live table is never retired; a retirement interrupted between the archive and the
purge is finished by the next pass; a create retried with the same request id after the
retirement begins no second log. Only the table service may purge or write the archive; the
gateway reads it (the bots service reads no log at all). A stream made before retirement
(``deny_purge``) is left alone, said once."""

from __future__ import annotations

import json
import logging
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import nats
import nats.errors
import nats.js.errors
import pytest
from nats.aio.client import Client
from nats.js.api import StorageType, StreamConfig

from harness import Launched, start_launched
from integration import harness
from integration.harness import until
from paiju.log.replay import audit
from paiju_services import access, subjects, views
from paiju_services.config import Settings
from paiju_services.messages import TableMeta, encoder
from paiju_services.store import (
    ARCHIVE_BUCKET,
    ARCHIVE_STREAM,
    RETIRING_BUCKET,
    ArchiveError,
    Conflict,
    EventStore,
    Stored,
    StoreError,
    archive_meta_subject,
    decode_archive,
    encode_archive,
)
from paiju_services.stored import line_types
from paiju_services.streams import ensure
from paiju_services.tables.service import TableService

RETIRE_AFTER = 4.0  # seconds: time enough to read a finished table before it is retired


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launched]:
    with pytest.MonkeyPatch.context() as env:
        # every service reads these at start; one finished log cached by the gateway, so that
        # reading a second table's log makes it read the first one from the store again
        env.setenv("PAIJU_RETIRE_AFTER", str(RETIRE_AFTER))
        env.setenv("PAIJU_MAX_LOG_CACHE", "1")
        stack = start_launched(tmp_path_factory.mktemp("retire"), bot_delay=0)
    try:
        yield stack
    finally:
        stack.stop()


def nats_url(stack: Launched) -> str:
    conf = (stack.root / "nats.conf").read_text()
    return f"nats://127.0.0.1:{conf.split('listen: 127.0.0.1:')[1].split()[0]}"


async def connect(stack: Launched, role: str) -> Client:
    password = (stack.root / "secrets" / f"{role}.password").read_text().strip()
    return await nats.connect(
        nats_url(stack),
        user=role,
        password=password,
        allow_reconnect=False,
        inbox_prefix=access.inbox_prefix(role) if role != "operator" else "_INBOX",
    )


def bot_table(stack: Launched, request_id: str | None = None) -> str:
    """A 3-seat 关牌 table of bots only (they play it to the end at once)."""
    body: dict[str, Any] = {"game": "guanpai", "players": 3}
    if request_id is not None:
        body["request_id"] = request_id
    table = str(stack.api("/api/tables", body)["id"])
    stack.api(f"/api/tables/{table}/bots", {})
    return table


async def secrets_held(operator: Client, table_id: str) -> tuple[int, int, int]:
    """The messages the buckets hold of the table's secrets: its base seed, its seats' view keys,
    its bots' seat tokens (a purge marker counts too)."""
    js = operator.jetstream()
    counts = []
    for bucket, key in (
        (subjects.SECRETS_BUCKET, table_id),
        (subjects.SECRETS_BUCKET, views.key_name(table_id, "*")),
        (subjects.BOT_TOKENS_BUCKET, f"{table_id}.*"),
    ):
        info = await js.stream_info(f"KV_{bucket}", subjects_filter=f"$KV.{bucket}.{key}")
        counts.append(sum((info.state.subjects or {}).values()))
    return counts[0], counts[1], counts[2]


async def entry(operator: Client, table_id: str) -> TableMeta:
    kv = await operator.jetstream().key_value(subjects.TABLES_BUCKET)
    got = await kv.get(table_id)
    return msgspec.json.decode(got.value or b"", type=TableMeta)


async def finished(stack: Launched, table_id: str) -> None:
    async def done() -> bool:
        return bool(stack.api(f"/api/tables/{table_id}")["status"] == "finished")

    await until(f"{table_id} to finish", done)


async def retired(operator: Client, table_id: str) -> TableMeta:
    async def done() -> bool:
        return (await entry(operator, table_id)).retired_at is not None

    await until(f"{table_id} to be retired", done, timeout=RETIRE_AFTER + 30)
    return await entry(operator, table_id)


def reads(stack: Launched, table_id: str) -> dict[str, Any]:
    """What the gateway answers of a finished table: the replay's log, the export, a state
    in the middle of the match, the hands."""
    log = stack.api(f"/api/tables/{table_id}/log")
    with urllib.request.urlopen(
        f"{stack.url}api/tables/{table_id}/log?format=jsonl", timeout=20
    ) as response:
        jsonl = response.read()
    middle = len(log["events"]) // 2
    return {
        "log": log,
        "jsonl": jsonl,
        "state": stack.api(f"/api/tables/{table_id}/state?at={middle}"),
        "hands": stack.api(f"/api/tables/{table_id}/hands"),
    }


async def subject_empty(operator: Client, table_id: str) -> bool:
    js = operator.jetstream()
    subject = subjects.events_subject(table_id)
    with pytest.raises(nats.js.errors.NotFoundError):
        await js.get_last_msg(subjects.STREAM, subject)
    with pytest.raises(nats.js.errors.NotFoundError):
        await js.get_msg(subjects.STREAM, seq=1, subject=subject, direct=True, next=True)
    info = await js.stream_info(subjects.STREAM, subjects_filter=subject)
    return not (info.state.subjects or {})


async def pending(operator: Client) -> set[str]:
    kv = await operator.jetstream().key_value(RETIRING_BUCKET)
    try:
        return set(await kv.keys())
    except nats.js.errors.NoKeysError:
        return set()


async def scheduled(operator: Client, table_id: str) -> bool:
    return table_id in await pending(operator)


async def unscheduled(operator: Client, table_id: str) -> None:
    """Until the table's key has left the retirement schedule: the retirement marks the table
    retired first and drops the key last (a copy that dies between leaves it for the next pass),
    so a reader may see the mark a moment before the key goes."""

    async def gone() -> bool:
        return table_id not in await pending(operator)

    await until(f"{table_id} to leave the retirement schedule", gone)


async def stock_archive(operator: Client, table_id: str) -> list[Stored]:
    """The archived object read with the NATS client's own Object Store (not the services')."""
    store = await operator.jetstream().object_store(ARCHIVE_BUCKET)
    return decode_archive(table_id, (await store.get(table_id)).data or b"")


def lines(msgs: list[Stored]) -> int:
    """The lines of a log (its header line and its events) its stored messages hold."""
    return sum(len(line_types(m.headers)) for m in msgs)


async def test_a_finished_table_is_retired_and_reads_the_same(system: Launched) -> None:
    operator = await connect(system, "operator")
    try:
        store = EventStore(operator, operator.jetstream())
        # a live table, wrongly scheduled (as if long finished): the pass must leave it alone
        live = str(system.api("/api/tables", {"game": "guanpai", "players": 3})["id"])
        system.api(f"/api/tables/{live}/seats", {"name": "甲"})
        kv = await operator.jetstream().key_value(RETIRING_BUCKET)
        await kv.put(live, b"0.0")
        live_log = await store.read(live)

        request_id = f"retire-test-{time.time_ns()}"
        tables = [bot_table(system, request_id), bot_table(system)]
        before: dict[str, dict[str, Any]] = {}
        stored: dict[str, list[Stored]] = {}
        for table in tables:
            await finished(system, table)
            stored[table] = await store.read(table)
            # archived as the match ended, from the table service's memory: as the stream holds it
            assert await stock_archive(operator, table) == stored[table]
            before[table] = reads(system, table)
            assert (await entry(operator, table)).retired_at is None  # read while still hot
            assert table in await pending(operator)
            # its base seed, its three seats' view keys, its three bots' seat tokens
            assert await secrets_held(operator, table) == (1, 3, 3)

        for table in tables:
            meta = await retired(operator, table)
            assert meta.status == "finished" and meta.retired_at is not None
            assert meta.finished_at is not None and meta.retired_at >= meta.finished_at
            assert await subject_empty(operator, table)
            assert await secrets_held(operator, table) == (0, 0, 0)  # not even a purge marker
            # the archive holds the messages exactly as the stream held them
            assert await stock_archive(operator, table) == stored[table]
            assert await store.read(table) == stored[table]
            last = stored[table][-1].seq
            assert await store.read(table, after=stored[table][5].seq) == stored[table][6:]
            assert await store.read(table, after=last) == []
        assert not set(tables) & await pending(operator)

        # the gateway reads them from the archive (its one cached log is the last one read)
        for table in tables:
            after = reads(system, table)
            assert after == before[table]
            report = audit(after["jsonl"].decode().splitlines())
            assert report.verdict == "sound", report.error
            assert len(after["log"]["events"]) == lines(stored[table]) - 1

        # a socket on a retired table gets its last state
        sock = await harness.Socket.open(f"ws://127.0.0.1:{system.port}", tables[1])
        try:
            state = next(f for f in sock.frames if f["type"] == "state")
            assert state["index"] == lines(stored[tables[1]]) - 1
            assert state["view"]["phase"] == "over"
        finally:
            await sock.close()

        # the gateway's own credentials read the archive (and no live log); the bots', which
        # read no log, read neither
        client = await connect(system, "gateway")
        try:
            mine = EventStore(client, client.jetstream(timeout=2.0))
            assert await mine.read_archive(tables[0]) == stored[tables[0]]
            with pytest.raises(StoreError):
                await mine.read(live)
        finally:
            await client.close()
        client = await connect(system, "bots")
        try:
            with pytest.raises(StoreError):
                await EventStore(client, client.jetstream(timeout=1.0)).read_archive(tables[0])
        finally:
            await client.close()

        # a first append on a retired table's empty subject is refused: a create retried after
        # JetStream's two-minute deduplication of its message ids (new ids here) begins no log
        header = {subjects.H_TYPE: "paiju_log", subjects.H_INDEX: "-1"}
        with pytest.raises(Conflict, match="retired"):
            await store.append(tables[0], stored[tables[0]][0].data, header, 0, "create.late")
        # the create retried with its request id: the same table, its log still the archived one
        again = system.api(
            "/api/tables", {"game": "guanpai", "players": 3, "request_id": request_id}
        )
        assert again["id"] == tables[0]
        assert await subject_empty(operator, tables[0])
        assert await store.read(tables[0]) == stored[tables[0]]

        # the live table, scheduled by mistake, is never retired
        assert (await entry(operator, live)).retired_at is None
        assert (await entry(operator, live)).status == "open"
        assert await store.read_subject(live) == live_log
        assert await store.archived(live) is None
        # still on the schedule (asked again: a KV key listing under load can come back empty)
        await until(f"{live} still scheduled", lambda: scheduled(operator, live), 10)
        await kv.purge(live)
    finally:
        await operator.close()


async def test_an_interrupted_retirement_is_finished_by_the_next_pass(
    system: Launched, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy writes the archive and dies before its purge: the table stays readable from the
    stream, and the service's next pass finishes the retirement with the object it finds."""
    operator = await connect(system, "operator")
    try:
        js = operator.jetstream()
        table = bot_table(system)
        await finished(system, table)
        copy = TableService(Settings(nats_url=nats_url(system), retire_after=0.0), operator, js)
        await copy.open()
        stored = await copy.store.read(table)

        async def crash(table_id: str, through: int) -> None:
            raise StoreError("the copy died before its purge")

        monkeypatch.setattr(copy.store, "purge", crash)
        with pytest.raises(StoreError, match="died"):
            await copy.ending.retirement().retire(table)
        archived = await copy.store.archived(table)
        assert archived is not None and archived.last_seq == stored[-1].seq
        assert (await entry(operator, table)).retired_at is None  # read before the service's pass
        assert await copy.store.read_subject(table) == stored  # nothing purged
        assert table in await pending(operator)

        await retired(operator, table)
        assert await subject_empty(operator, table)
        again = await copy.store.archived(table)
        assert again is not None and again.nuid == archived.nuid  # its object, not written again
        assert await copy.store.read(table) == stored
        await unscheduled(operator, table)  # CI on b28497f: read between the two
        with urllib.request.urlopen(
            f"{system.url}api/tables/{table}/log?format=jsonl", timeout=20
        ) as response:
            lines = response.read().decode().splitlines()
        assert "\n".join(lines).encode() == b"\n".join(m.data for m in stored)
        assert audit(lines).verdict == "sound"
    finally:
        await operator.close()


async def test_a_table_its_owner_closes_is_retired_too(system: Launched) -> None:
    operator = await connect(system, "operator")
    try:
        table = str(system.api("/api/tables", {"game": "guanpai", "players": 3})["id"])
        assert system.api(f"/api/tables/{table}/close", {})["status"] == "closed"
        before = reads(system, table)["jsonl"]
        meta = await retired(operator, table)
        assert meta.status == "closed" and await subject_empty(operator, table)
        assert reads(system, table)["jsonl"] == before
        await unscheduled(operator, table)  # CI on b28497f: read between the two
    finally:
        await operator.close()


@pytest.mark.parametrize("role", ["gateway", "bots"])
async def test_only_the_table_service_purges_or_writes_the_archive(
    system: Launched, role: str
) -> None:
    operator = await connect(system, "operator")
    client = await connect(system, role)
    try:
        store = EventStore(operator, operator.jetstream())
        table = str(system.api("/api/tables", {"game": "guanpai", "players": 3})["id"])
        stored = await store.read(table)
        js = client.jetstream(timeout=0.5)
        refused = (nats.errors.TimeoutError, nats.errors.NoRespondersError)
        with pytest.raises(refused):
            await js.purge_stream(subjects.STREAM, subject=subjects.events_subject(table))
        with pytest.raises(refused):
            await js.purge_stream(ARCHIVE_STREAM)
        forged = encode_archive(table, stored[:1])
        with pytest.raises(refused):
            await js.publish(f"$O.{ARCHIVE_BUCKET}.C.forged", forged)
        meta = {"name": table, "nuid": "forged", "size": len(forged), "chunks": 1}
        with pytest.raises(refused):
            await js.publish(archive_meta_subject(table), json.dumps(meta).encode())
        with pytest.raises(refused):
            await (await js.key_value(RETIRING_BUCKET)).put(table, b"0.0")
        assert await store.read_subject(table) == stored
        assert await store.archived(table) is None
    finally:
        await client.close()
        await operator.close()


async def test_a_stream_that_denies_purges_is_left_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """nats-server refuses to turn ``deny_purge`` off on an existing stream: the table service
    starts on it all the same, says once that retirement is off, and retires nothing."""
    server = harness.Stack(tmp_path)
    server.start_nats()
    nc = await nats.connect(server.nats_url)
    try:
        js = nc.jetstream()
        await js.add_stream(
            StreamConfig(
                name=subjects.STREAM,
                subjects=[subjects.EVENTS_ALL],
                storage=StorageType.FILE,
                allow_direct=True,
                deny_delete=True,
                deny_purge=True,  # as streams were made before retirement
            )
        )
        await ensure(js)
        assert (await js.stream_info(subjects.STREAM)).config.deny_purge
        store = EventStore(nc, js)
        table = "00000000000000aa"
        header = {subjects.H_TYPE: "paiju_log", subjects.H_INDEX: "-1"}
        made = await store.append(table, b'{"type":"paiju_log"}', header, 0, "create")
        end = {subjects.H_TYPE: "match_ended", subjects.H_INDEX: "0"}
        await store.append(table, b'{"type":"match_ended"}', end, made.seq, "end")
        tables_kv = await js.key_value(subjects.TABLES_BUCKET)
        meta = TableMeta(id=table, config={}, created_at=0.0, status="finished", finished_at=0.0)
        await tables_kv.put(table, encoder.encode(meta))
        copy = TableService(Settings(nats_url=server.nats_url, retire_after=0.0), nc, js)
        await copy.open()
        await copy.ending.schedule_retirement(table, 0.0)
        with caplog.at_level(logging.WARNING, logger="paiju.archive"):
            assert await copy.retire_finished() == 0
            assert await copy.retire_finished() == 0
        said = [r for r in caplog.records if r.getMessage().startswith("retirement off")]
        assert len(said) == 1
        assert len(await store.read_subject(table)) == 2
        assert await store.archived(table) is None
    finally:
        await nc.close()
        server.stop()


def test_an_archive_is_its_table_s_and_whole() -> None:
    msgs = [
        Stored(7, b'{"type":"paiju_log"}', {subjects.H_TYPE: "paiju_log"}),
        Stored(9, b'{"type":"match_ended"}', {subjects.H_TYPE: "match_ended", "Nats-Msg-Id": "x"}),
    ]
    blob = encode_archive("00000000000000aa", msgs)
    assert decode_archive("00000000000000aa", blob) == msgs
    with pytest.raises(ArchiveError, match="of table"):
        decode_archive("00000000000000bb", blob)
    with pytest.raises(ArchiveError, match="unreadable"):
        decode_archive("00000000000000aa", blob[:-5])
    with pytest.raises(ArchiveError, match="order"):
        decode_archive("00000000000000aa", encode_archive("00000000000000aa", msgs[::-1]))
