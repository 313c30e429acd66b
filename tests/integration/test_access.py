"""NATS users and permissions (paiju_services.access) on a system the launcher starts: each
service's credentials allow only its own work. The internet-facing gateway cannot append to a
table's log, change a bucket or read the table secrets or the bots' tokens; the bots service
cannot append either; a client without credentials is refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import nats
import nats.errors
import pytest
from e2e.stack import Stack, running_stack
from nats.aio.client import Client

from paiju_services import subjects


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("access"), bot_delay=0) as stack:
        yield stack


def nats_port(stack: Stack) -> int:
    conf = (stack.root / "nats.conf").read_text()
    return int(conf.split("listen: 127.0.0.1:")[1].split()[0])


async def connect(stack: Stack, role: str | None) -> Client:
    errors: list[Exception] = []

    async def on_error(exc: Exception) -> None:
        errors.append(exc)

    credentials = {}
    if role is not None:
        password = (stack.root / "secrets" / f"{role}.password").read_text().strip()
        credentials = {"user": role, "password": password}
    nc = await nats.connect(
        f"nats://127.0.0.1:{nats_port(stack)}",
        allow_reconnect=False,
        error_cb=on_error,
        **credentials,
    )
    nc.errors = errors  # type: ignore[attr-defined]
    return nc


async def a_table(stack: Stack) -> str:
    created = stack.api("/api/tables", {"game": "guanpai", "players": 3})
    stack.api(f"/api/tables/{created['id']}/seats", {"name": "甲"})
    return str(created["id"])


async def last_seq(operator: Client, table_id: str) -> int:
    msg = await operator.jetstream().get_last_msg(
        subjects.STREAM, subjects.events_subject(table_id)
    )
    return int(msg.seq or 0)


async def test_without_credentials_nats_refuses_the_connection(system: Stack) -> None:
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await connect(system, None)


@pytest.mark.parametrize("role", ["gateway", "bots"])
async def test_only_the_table_service_may_append_to_a_log(system: Stack, role: str) -> None:
    table_id = await a_table(system)
    operator = await connect(system, "operator")
    client = await connect(system, role)
    try:
        before = await last_seq(operator, table_id)
        forged = json.dumps({"type": "passed", "v": 1, "seat": 0}).encode()
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await client.jetstream(timeout=1.0).publish(subjects.events_subject(table_id), forged)
        await asyncio.sleep(0.2)  # the server's violation notice reaches the client
        refused = f'permissions violation for publish to "{subjects.events_subject(table_id)}"'
        assert any(refused in str(e) for e in client.errors)  # type: ignore[attr-defined]
        assert await last_seq(operator, table_id) == before
    finally:
        await client.close()
        await operator.close()


@pytest.mark.parametrize(
    ("role", "bucket"),
    [
        ("gateway", subjects.SECRETS_BUCKET),
        ("gateway", subjects.BOT_TOKENS_BUCKET),
        ("bots", subjects.SECRETS_BUCKET),
    ],
)
async def test_secrets_are_out_of_reach(system: Stack, role: str, bucket: str) -> None:
    table_id = await a_table(system)
    client = await connect(system, role)
    try:
        js = client.jetstream(timeout=1.0)
        # a direct get of the key, as KeyValue.get does it
        subject = f"$JS.API.DIRECT.GET.KV_{bucket}.$KV.{bucket}.{table_id}"
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await client.request(subject, b"", timeout=1.0)
        # a message get through the stream API
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await js.get_msg(f"KV_{bucket}", subject=f"$KV.{bucket}.{table_id}")
        # nor may it write there
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await js.publish(f"$KV.{bucket}.{table_id}", b"forged")
    finally:
        await client.close()


async def test_the_gateway_reads_what_it_serves(system: Stack) -> None:
    """The positive control: the same credentials do read a table's log and its directory
    entry (so the refusals above are permissions, not a broken connection)."""
    table_id = await a_table(system)
    client = await connect(system, "gateway")
    try:
        js = client.jetstream(timeout=2.0)
        first = await js.get_msg(
            subjects.STREAM,
            seq=1,
            subject=subjects.events_subject(table_id),
            direct=True,
            next=True,
        )
        assert json.loads(first.data)["type"] == "paiju_log"
        entry = await (await js.key_value(subjects.TABLES_BUCKET)).get(table_id)
        assert json.loads(entry.value or b"{}")["id"] == table_id
    finally:
        await client.close()


async def test_the_bots_service_reads_no_log(system: Stack) -> None:
    """The bots service plays from the turns offered to its seats (their views only): it may not
    read a table's log, which holds every hand as dealt, nor the archive of finished logs."""
    table_id = await a_table(system)
    client = await connect(system, "bots")
    try:
        js = client.jetstream(timeout=1.0)
        refused = (nats.errors.TimeoutError, nats.errors.NoRespondersError)
        with pytest.raises(refused):
            await js.get_msg(
                subjects.STREAM,
                seq=1,
                subject=subjects.events_subject(table_id),
                direct=True,
                next=True,
            )
        with pytest.raises(refused):
            await js.get_last_msg(subjects.STREAM, subjects.events_subject(table_id))
        with pytest.raises(refused):
            await js.subscribe(subjects.events_subject(table_id), ordered_consumer=True)
        # what it may read: the turns stream's own information
        info = await js.stream_info(subjects.TURNS_STREAM)
        assert info.config.subjects == [subjects.TURNS_ALL]
    finally:
        await client.close()
