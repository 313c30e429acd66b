"""NATS users and permissions (paiju_services.access) on a system the launcher starts: each
service's credentials allow only its own work. The internet-facing gateway cannot append to a
table's log, change a bucket or read the table secrets or the bots' tokens; the bots service
cannot append either; a client without credentials is refused."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import nats
import nats.errors
import nats.js.errors
import pytest
from e2e.stack import Stack, running_stack
from nats.aio.client import Client
from nats.js.api import AckPolicy, ConsumerConfig

from integration.harness import Socket, join, logged_states, new_table, owner, play_seat
from paiju import api
from paiju.api import list_games
from paiju.registry import get_game
from paiju.selfcheck import codes_in, without_hidden_hands
from paiju_services import access, subjects
from paiju_services.store import ARCHIVE_STREAM
from paiju_services.views import (
    VIEWS_ALL,
    VIEWS_PREFIX,
    SealBroken,
    unpack,
    unseal,
    view_key,
)


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
        if role != "operator":  # replies come to the role's own inbox prefix, as bus.connect does
            credentials["inbox_prefix"] = access.inbox_prefix(role)
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


async def assert_reads_no_log(client: Client, table_id: str) -> None:
    """Neither a direct get nor a message get nor a consumer of the table's log is allowed."""
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


async def test_the_gateway_reads_no_log(system: Stack) -> None:
    """The gateway serves views the table service writes: it may not read a table's log, which
    holds every hand as dealt. The positive control: the same credentials read the table's
    directory entry and the stream's information (so the refusals are permissions)."""
    table_id = await a_table(system)
    client = await connect(system, "gateway")
    try:
        js = client.jetstream(timeout=1.0)
        await assert_reads_no_log(client, table_id)
        # nor another role's replies (the bots' joins carry their seats' tokens)
        await client.subscribe(f"{access.inbox_prefix('bots')}.>")
        await asyncio.sleep(0.2)  # the server's violation notice reaches the client
        refused_inbox = f'permissions violation for subscription to "{access.inbox("bots")}"'
        said = [str(e).lower() for e in client.errors]  # type: ignore[attr-defined]
        assert any(refused_inbox.lower() in e for e in said), said
        entry = await (await js.key_value(subjects.TABLES_BUCKET)).get(table_id)
        assert json.loads(entry.value or b"{}")["id"] == table_id
        info = await js.stream_info(subjects.STREAM)
        assert info.config.republish is not None and info.config.republish.headers_only
    finally:
        await client.close()


async def test_the_bots_service_reads_no_log(system: Stack) -> None:
    """The bots service plays from the turns offered to its seats (their views only): it may not
    read a table's log, which holds every hand as dealt, nor the archive of finished logs."""
    table_id = await a_table(system)
    client = await connect(system, "bots")
    try:
        js = client.jetstream(timeout=1.0)
        await assert_reads_no_log(client, table_id)
        # what it may read: the turns stream's own information
        info = await js.stream_info(subjects.TURNS_STREAM)
        assert info.config.subjects == [subjects.TURNS_ALL]
    finally:
        await client.close()


GAMES = [(game["id"], game["variants"][0]["id"]) for game in list_games()]
SHORTER = {"tiaoshu": {"limit": 40}}  # as test_every_game: the match end is the same rule


async def play_with_bots(http: httpx.AsyncClient, ws: str, game: str, variant: str) -> str:
    """A match of ``game``: a person at seat 0 (a WebSocket through the gateway), bots at the
    others, played to the end."""
    table = await new_table(http, game=game, variant=variant, options=SHORTER.get(game, {}))
    token = await join(http, table, "玩家", seat=0)
    filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert filled.status_code == 200, filled.text
    sock = await Socket.open(ws, table, token)
    try:
        await play_seat(sock, 0, pace=0.05)
    finally:
        await sock.close()
    return table


async def test_the_gateway_s_credentials_never_read_a_hidden_card(system: Stack) -> None:
    """A process holding the gateway's credentials listens to everything they let it, while a
    match of every game is played (a person through the gateway, bots at the other seats): the
    views of every table, the headers the stream republishes, presence, and the gateway's own
    replies. It reads the spectators' views in clear, and nothing in them is hidden; a seat's
    views are sealed, and open only with that seat's token — which the gateway sees only for the
    players it serves (their join's reply). So it reads no card but the public ones and the hands
    of the seats whose players it serves; never a bot's, never a card still hidden from them."""
    received: list[tuple[str, dict[str, str], bytes]] = []

    async def record(msg: Any) -> None:
        headers = dict(msg.headers or {})
        if (msg.reply or "").startswith(f"$JS.ACK.KV_{subjects.TABLES_BUCKET}."):
            headers["Nats-Stream"] = f"KV_{subjects.TABLES_BUCKET}"  # the lobby's watch
        received.append((msg.subject, headers, msg.data))

    spy = await connect(system, "gateway")
    try:
        for subject in (VIEWS_ALL, subjects.STORED_ALL, subjects.PRESENCE_ALL):
            await spy.subscribe(subject, cb=record)
        await spy.subscribe(access.inbox("gateway"), cb=record)  # every copy's replies
        await spy.flush()
        base = f"127.0.0.1:{system.port}"
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
            tables = await asyncio.gather(
                *(play_with_bots(http, f"ws://{base}", g, v) for g, v in GAMES)
            )
            await asyncio.sleep(0.5)
            states = {t: (await logged_states(http, t))[1] for t in tables}
        assert not spy.errors  # type: ignore[attr-defined]
    finally:
        await spy.close()

    # the seat tokens the spy saw pass: the join replies of the players the gateway serves
    keys = [
        view_key(reply["token"])
        for subject, headers, data in received
        if subject.startswith(access.inbox_prefix("gateway"))
        and data
        and "Nats-Stream" not in headers
        and {"seat", "token"} <= (reply := json.loads(data)).keys()
    ]
    assert len(keys) == len(tables)

    def opened(candidates: list[str], seat: int, data: bytes) -> tuple[str, bytes]:
        """The table and the body of a sealed view, opened with a key the spy holds."""
        with pytest.raises(ValueError):
            json.loads(data)  # sealed: no card in clear
        for table in candidates:
            for key in keys:
                with contextlib.suppress(SealBroken):
                    return table, unseal(key, table, seat, data)
        raise AssertionError(f"a sealed view of seat {seat} that no token the gateway saw opens")

    def check(table: str, index: int, seat: int | None, body: bytes) -> None:
        view = json.loads(body)["view"]
        state = states[table][index]
        assert view == api.view(state, seat), (table, index, seat)
        if state.phase not in get_game(state.config.game).seat_phases:
            return  # between hands: the ended hand is shown whole, to all
        public = codes_in(api.view(without_hidden_hands(state, seat), seat))
        assert not codes_in(view) - public, (table, index, seat)

    counts = {"spectators": 0, "seats": 0}
    audiences: list[tuple[list[str], int, int | None, bytes]] = []
    for subject, headers, data in received:
        if subject.startswith(subjects.STORED_PREFIX):
            assert data == b""  # the stream republishes headers only: no event reaches it
            continue
        if subject.startswith(subjects.PRESENCE_PREFIX):
            assert not codes_in(json.loads(data))
            continue
        if subject.startswith(VIEWS_PREFIX):  # every audience's view after an event
            index, _, parts = unpack(data)
            audiences += [([subject.split(".")[2]], index, s, part) for s, part in parts.items()]
            continue
        # a reply: only a view's carries cards; the others (create, join, acks) none
        if not data:
            continue  # a JetStream status (the lobby's watch of the directory): no body
        stream = headers.get("Nats-Stream")
        if stream is not None:  # a read: the directory, or an ended table's archived log
            assert stream in (f"KV_{subjects.TABLES_BUCKET}", ARCHIVE_STREAM), stream
            continue
        reply = json.loads(data)
        if "data" not in reply:
            assert not codes_in(reply), reply
            continue
        seat, index, data = reply["seat"], reply["index"], base64.b64decode(reply["data"])
        candidates = list(tables)
        if seat is None:  # the spectators' view now, in clear: of one of the tables
            view = json.loads(data)["view"]
            candidates = [
                t
                for t in tables
                if index < len(states[t]) and view == api.view(states[t][index], None)
            ]
            assert candidates, view
        audiences.append((candidates, index, seat, data))
    for candidates, index, seat, data in audiences:
        if seat is None:
            check(candidates[0], index, None, data)
            counts["spectators"] += 1
        else:
            assert seat == 0  # a bot's seat is never published
            table, body = opened(candidates, seat, data)
            check(table, index, seat, body)
            counts["seats"] += 1
    assert counts["spectators"] > 100 and counts["seats"] > 100, counts


REFUSED = (nats.errors.TimeoutError, nats.errors.NoRespondersError)


async def test_the_bots_may_not_touch_their_consumer_nor_another_table_s_tokens(
    system: Stack,
) -> None:
    """The bots' consumer is made by the table service: the bots user may pull and acknowledge
    through it, read it, and nothing else (deleting it stopped every bot for good; a create with
    its name changes it). The bots' seat tokens are written by the table service as it seats a
    bot: the bots user reads them and may not overwrite one (that stopped the table's bots)."""
    table_id = str(system.api("/api/tables", {"game": "guanpai", "players": 3})["id"])
    system.api(f"/api/tables/{table_id}/bots", {"seats": [1]})
    operator = await connect(system, "operator")
    bots = await connect(system, "bots")
    try:
        ojs, bjs = operator.jetstream(timeout=2.0), bots.jetstream(timeout=1.0)
        before = await ojs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        # what it may: read its consumer's information, and its bots' tokens
        mine = await bjs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        assert mine.config.durable_name == subjects.BOTS_CONSUMER
        tokens = await bjs.key_value(subjects.BOT_TOKENS_BUCKET)
        token = (await tokens.get(f"{table_id}.1")).value
        assert token
        # what it may not: delete, change or make a consumer, or write a token
        with pytest.raises(REFUSED):
            await bjs.delete_consumer(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        changed = ConsumerConfig(
            durable_name=subjects.BOTS_CONSUMER, filter_subject="paiju.turns.none", max_deliver=1
        )
        with pytest.raises(REFUSED):
            await bjs.add_consumer(subjects.TURNS_STREAM, changed)
        with pytest.raises(REFUSED):
            await bjs.add_consumer(subjects.TURNS_STREAM, ConsumerConfig(durable_name="mine"))
        with pytest.raises(REFUSED):
            await bjs.publish(f"$KV.{subjects.BOT_TOKENS_BUCKET}.{table_id}.1", b"forged")
        with pytest.raises(REFUSED):
            await tokens.put(f"{table_id}.2", b"forged")
        after = await ojs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        assert after.config == before.config and after.created == before.created
        kv = await ojs.key_value(subjects.BOT_TOKENS_BUCKET)
        assert (await kv.get(f"{table_id}.1")).value == token
        with pytest.raises(nats.js.errors.KeyNotFoundError):
            await kv.get(f"{table_id}.2")
    finally:
        await bots.close()
        await operator.close()


async def test_a_deleted_bots_consumer_is_made_again_and_the_bots_play_on(
    system: Stack,
) -> None:
    """The consumer deleted (by an operator: no service may): the table service's sweep makes it
    again, the bots, backing off meanwhile, take their turns from it, and a table of bots plays
    to its end."""
    operator = await connect(system, "operator")
    try:
        ojs = operator.jetstream(timeout=2.0)
        await ojs.delete_consumer(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        created = system.api("/api/tables", {"game": "guanpai", "players": 3})
        system.api(f"/api/tables/{created['id']}/bots", {})
        deadline = time.monotonic() + 60
        while system.api(f"/api/tables/{created['id']}")["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' table did not finish"
            await asyncio.sleep(0.2)
        info = await ojs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        assert info.config.ack_policy == AckPolicy.EXPLICIT
    finally:
        await operator.close()
