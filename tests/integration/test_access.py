"""NATS users and permissions (paiju_services.access) on a system the launcher starts: each
service's credentials allow only its own work. The internet-facing gateway cannot append to a
table's log, change a bucket or read the table secrets or the bots' tokens; the bots service
cannot append either; a client without credentials is refused."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import nats
import nats.errors
import nats.js.errors
import pytest
from nats.aio.client import Client
from nats.js.api import AckPolicy, ConsumerConfig

from harness import Launched, running_launched
from integration.harness import (
    OWNERS,
    Socket,
    join,
    logged_states,
    new_table,
    owner,
    play_seat,
)
from paiju import api
from paiju.api import list_games
from paiju.registry import get_game
from paiju.selfcheck import codes_in, without_hidden_hands
from paiju_services import access, bus, subjects
from paiju_services.store import ARCHIVE_STREAM
from paiju_services.tables.ids import created_table_id
from paiju_services.views import (
    VIEWS_PREFIX,
    unpack,
    unseal,
    view_key,
)


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launched]:
    with running_launched(tmp_path_factory.mktemp("access"), bot_delay=0) as stack:
        yield stack


def nats_port(stack: Launched) -> int:
    conf = (stack.root / "nats.conf").read_text()
    return int(conf.split("listen: 127.0.0.1:")[1].split()[0])


async def connect(stack: Launched, role: str | None) -> Client:
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


async def told(client: Client, notice: str, timeout: float = 5.0) -> list[str]:
    """The client's errors, once nats-server's notice containing ``notice`` (any case) has
    reached it: polled, with a deadline."""
    deadline = time.monotonic() + timeout
    while True:
        said = [str(e).lower() for e in client.errors]  # type: ignore[attr-defined]
        if any(notice.lower() in e for e in said) or time.monotonic() > deadline:
            return said
        await asyncio.sleep(0.02)


async def a_table(stack: Launched) -> str:
    created = stack.api("/api/tables", {"game": "guanpai", "players": 3})
    stack.api(f"/api/tables/{created['id']}/seats", {"name": "甲"})
    return str(created["id"])


async def last_seq(operator: Client, table_id: str) -> int:
    msg = await operator.jetstream().get_last_msg(
        subjects.STREAM, subjects.events_subject(table_id)
    )
    return int(msg.seq or 0)


async def test_without_credentials_nats_refuses_the_connection(system: Launched) -> None:
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await connect(system, None)


@pytest.mark.parametrize("role", ["gateway", "bots"])
async def test_only_the_table_service_may_append_to_a_log(system: Launched, role: str) -> None:
    table_id = await a_table(system)
    operator = await connect(system, "operator")
    client = await connect(system, role)
    try:
        before = await last_seq(operator, table_id)
        forged = json.dumps({"type": "passed", "v": 1, "seat": 0}).encode()
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await client.jetstream(timeout=1.0).publish(subjects.events_subject(table_id), forged)
        refused = f'permissions violation for publish to "{subjects.events_subject(table_id)}"'
        said = await told(client, refused)
        assert any(refused.lower() in e for e in said), said
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
async def test_secrets_are_out_of_reach(system: Launched, role: str, bucket: str) -> None:
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


async def test_the_gateway_reads_no_log(system: Launched) -> None:
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
        refused_inbox = f'permissions violation for subscription to "{access.inbox("bots")}"'
        said = await told(client, refused_inbox)
        assert any(refused_inbox.lower() in e for e in said), said
        entry = await (await js.key_value(subjects.TABLES_BUCKET)).get(table_id)
        assert json.loads(entry.value or b"{}")["id"] == table_id
        info = await js.stream_info(subjects.STREAM)
        assert info.config.republish is not None and info.config.republish.headers_only
    finally:
        await client.close()


async def test_the_bots_service_reads_no_log(system: Launched) -> None:
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
# Shorter matches than the games' own: 跳数 to 40 points (as test_every_game: the match end is the
# same rule), 打棒 two hands rather than until a side has climbed every level (test_every_game
# plays that match end; two hands give this test every kind of frame: the hands, the sheet between
# them, the next deal's commitment and seeding).
SHORTER = {"tiaoshu": {"limit": 40}, "dabang": {"hands": 2}}


async def play_with_bots(
    http: httpx.AsyncClient, ws: str, game: str, variant: str
) -> tuple[str, str]:
    """A match of ``game``: a person at seat 0 (a WebSocket through the gateway), bots at the
    others, played to the end; the table and the person's seat token."""
    table = await new_table(http, game=game, variant=variant, options=SHORTER.get(game, {}))
    token = await join(http, table, "玩家", seat=0)
    filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert filled.status_code == 200, filled.text
    sock = await Socket.open(ws, table, token)
    try:
        await play_seat(sock, 0, pace=0.05)
    finally:
        await sock.close()
    return table, token


def secret_forms(token: str) -> list[bytes]:
    """A token as it could travel: as text, and its view key raw, in hex and in base64."""
    key = view_key(token)
    return [
        token.encode(),
        key,
        key.hex().encode(),
        base64.b64encode(key),
        base64.urlsafe_b64encode(key).rstrip(b"="),
    ]


async def test_the_gateway_s_credentials_never_read_a_token_nor_a_hidden_card(
    system: Launched,
) -> None:
    """Issue 26's test: a process holding the gateway's credentials subscribes to every subject
    they let it (the views of every table, the headers the stream republishes, presence, the
    table-service copies' announcements, and the gateway's inbox, where every gateway copy's
    replies arrive) while a person creates a table, joins it and plays a match of every game
    through the gateway (HTTP and WebSocket; bots at the other seats). No received byte holds a
    seat's or the owner's token or a view key (the join and create replies are sealed for the
    real gateway: bus.py); every view it can read in clear is the spectators' and shows no
    hidden card; every seat's view is sealed, and opens only with that seat's token."""
    received: list[tuple[str, dict[str, str], bytes]] = []

    async def record(msg: Any) -> None:
        headers = dict(msg.headers or {})
        if (msg.reply or "").startswith(f"$JS.ACK.KV_{subjects.TABLES_BUCKET}."):
            headers["Nats-Stream"] = f"KV_{subjects.TABLES_BUCKET}"  # the lobby's watch
        received.append((msg.subject, headers, msg.data))

    spy = await connect(system, "gateway")
    try:
        _, may_subscribe = access.ROLES["gateway"]
        for subject in may_subscribe:  # everything the gateway's user may subscribe to
            await spy.subscribe(subject, cb=record)
        await spy.flush()
        base = f"127.0.0.1:{system.port}"
        async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30) as http:
            played = await asyncio.gather(
                *(play_with_bots(http, f"ws://{base}", g, v) for g, v in GAMES)
            )
            await asyncio.sleep(0.5)
            tables = [table for table, _ in played]
            states = {t: (await logged_states(http, t))[1] for t in tables}
        assert not spy.errors  # type: ignore[attr-defined]
    finally:
        await spy.close()
    operator = await connect(system, "operator")
    try:
        bot_tokens = await operator.jetstream().key_value(subjects.BOT_TOKENS_BUCKET)
        bots = [
            (await bot_tokens.get(f"{table}.{seat}")).value or b""
            for table in tables
            for seat in range(1, states[table][0].config.players)
        ]
    finally:
        await operator.close()

    # no token, nor any form of a view key, in any byte the spy received
    tokens = [token for _, token in played] + [OWNERS[t] for t in tables]
    tokens += [b.decode() for b in bots]
    assert len(tokens) == 2 * len(tables) + len(bots) and all(tokens)
    forms = [form for token in tokens for form in secret_forms(token)]
    for subject, headers, data in received:
        blob = b"\0".join([subject.encode(), json.dumps(headers).encode(), data])
        assert not any(form in blob for form in forms), subject

    def check(table: str, index: int, seat: int | None, body: bytes) -> None:
        view = json.loads(body)["view"]
        state = states[table][index]
        assert view == api.view(state, seat), (table, index, seat)
        if state.phase not in get_game(state.config.game).seat_phases:
            return  # between hands: the ended hand is shown whole, to all
        public = codes_in(api.view(without_hidden_hands(state, seat), seat))
        assert not codes_in(view) - public, (table, index, seat)

    keys = {table: view_key(token) for table, token in played}
    counts = {"spectators": 0, "seats": 0, "sealed replies": 0}
    for subject, headers, data in received:
        if subject.startswith(subjects.STORED_PREFIX):
            assert data == b""  # the stream republishes headers only: no event reaches it
            digest = headers.get("Paiju-Digest")  # keyed: nothing to test guesses against
            assert digest is None or digest.startswith("hmac-sha256:"), digest
            continue
        if subject.startswith(subjects.PRESENCE_PREFIX) or subject == subjects.COPIES_TABLES:
            assert not codes_in(json.loads(data))
            continue
        if subject.startswith(VIEWS_PREFIX):  # every audience's view after an event
            table = subject.split(".")[2]
            index, _, parts = unpack(data)
            for seat, part in parts.items():
                if seat is None:
                    check(table, index, None, part)
                    counts["spectators"] += 1
                    continue
                assert seat == 0  # a bot's seat is never published
                with pytest.raises(ValueError):
                    json.loads(part)  # sealed: no card in clear
                check(table, index, seat, unseal(keys[table], table, seat, part))
                counts["seats"] += 1
            continue
        stream = headers.get("Nats-Stream")
        if stream is not None or not data:  # a read of the directory, or an ended log
            assert stream in (None, f"KV_{subjects.TABLES_BUCKET}", ARCHIVE_STREAM), stream
            continue
        assert subject.startswith(access.inbox_prefix("gateway")), subject
        try:
            clear = json.loads(data)
        except ValueError:  # a reply of the table service (create, join, command ...): sealed
            counts["sealed replies"] += 1
            continue
        # in clear: JetStream's answers (stream information, the lobby's consumer) and the
        # health checks' (an instance and a count), nothing else
        jetstream = str(clear.get("type", "")).startswith("io.nats.jetstream.api.")
        assert jetstream or clear.keys() <= {"error", "instance", "tables"}, clear
        assert not codes_in(clear)
    assert counts["spectators"] > 100 and counts["seats"] > 100, counts
    assert counts["sealed replies"] > 3 * len(tables), counts  # create, join, bots, commands


REFUSED = (nats.errors.TimeoutError, nats.errors.NoRespondersError)


async def test_the_bots_may_not_touch_their_consumer_nor_another_table_s_tokens(
    system: Launched,
) -> None:
    """The bots' consumer is made by the table service: the bots user may pull and acknowledge
    through it, read it, and nothing else (deleting it stopped every bot for good; a create with
    its name changes it). The bots' seat tokens are written by the table service as it seats a
    bot: the bots user reads them and may not overwrite one (that stopped the table's bots)."""
    table_id = str(system.api("/api/tables", {"game": "guanpai", "players": 3})["id"])
    system.api(f"/api/tables/{table_id}/bots", {"seats": [1]})
    operator = await connect(system, "operator")
    bots, gateway = await connect(system, "bots"), await connect(system, "gateway")
    try:
        ojs, bjs = operator.jetstream(timeout=2.0), bots.jetstream(timeout=1.0)
        gjs = gateway.jetstream(timeout=1.0)
        before = await ojs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        # what it may: read its consumer's information, and its bots' tokens
        mine = await bjs.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        assert mine.config.durable_name == subjects.BOTS_CONSUMER
        tokens = await bjs.key_value(subjects.BOT_TOKENS_BUCKET)
        token = (await tokens.get(f"{table_id}.1")).value
        assert token
        # what it may not (nor may the gateway): delete, change or make a consumer, or write a
        # token
        for js in (bjs, gjs):
            with pytest.raises(REFUSED):
                await js.delete_consumer(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
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
        await gateway.close()
        await bots.close()
        await operator.close()


async def test_a_deleted_bots_consumer_is_made_again_and_the_bots_play_on(
    system: Launched,
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


async def test_a_request_without_a_reply_key_is_refused_and_does_nothing(system: Launched) -> None:
    """Its answer would cross NATS in clear, readable by anyone with the requester's credentials
    (bus.py): refused before anything is done. The same create with a key makes the table."""
    client = await connect(system, "gateway")
    try:
        request_id = f"keyless-{time.time_ns()}"
        body = json.dumps({"game": "guanpai", "request_id": request_id}).encode()
        reply = await client.request(subjects.TABLES_CREATE, body, timeout=10)
        error = json.loads(reply.data)["error"]
        assert error["code"] == "bad_request" and "Paiju-Reply-Key" in error["en"], error
        table_id = created_table_id(request_id)
        kv = await client.jetstream().key_value(subjects.TABLES_BUCKET)
        with pytest.raises(nats.js.errors.KeyNotFoundError):
            await kv.get(table_id)
        made = json.loads(await bus.ask(client, subjects.TABLES_CREATE, body, timeout=10))
        assert made["table"] == table_id and made["owner_token"]
        assert json.loads((await kv.get(table_id)).value or b"")["id"] == table_id
        # the health checks alone answer without a key: their answers hold nothing
        health = await client.request(subjects.HEALTH_TABLES, b"{}", timeout=5)
        assert json.loads(health.data)["error"] is None
    finally:
        await client.close()


@pytest.mark.parametrize(
    ("role", "subject"),
    [
        ("gateway", subjects.TABLES_ALL),
        ("gateway", "paiju.tables.*.join"),
        ("gateway", subjects.BOTS_FILL),
        ("bots", subjects.TABLES_ALL),
        ("bots", "paiju.tables.*.command.*"),
    ],
)
async def test_requests_reach_only_the_service_that_answers_them(
    system: Launched, role: str, subject: str
) -> None:
    """A request carries its reply key (and a command its seat token) on a subject only its
    answering service may subscribe to: the table service's (``paiju.tables.>``), the bots
    service's (``paiju.bots.fill``). Any other role's subscription there is refused."""
    client = await connect(system, role)
    try:
        await client.subscribe(subject)
        said = await told(client, f'subscription to "{subject}"')
        assert any(f'subscription to "{subject}"' in e for e in said), said
    finally:
        await client.close()
