"""The card room around a match, against the real stack: the owner token (only its holder fills
seats with bots or closes a table; anyone else is refused and nothing changes), leaving a seat
before the start, 再来一局 at a linked table with the same seats and tokens, the hand-by-hand
results of a table, and the searchable, paged history of finished tables."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import uuid
from typing import Any

import httpx
import nats
import pytest

from integration.harness import (
    Socket,
    Stack,
    join,
    new_table,
    owner,
    play_seat,
    raw_log,
    until,
    wait_status,
)
from paiju.games.guanpai import GAME
from paiju.log.file import decode_event
from paiju.log.prose import event_lines
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju.protocol import Event
from paiju_services import subjects, views
from paiju_services.bus import ask
from paiju_services.config import Settings
from paiju_services.messages import CloseTable, CreateTable
from paiju_services.tables import TableService


def report_events(jsonl: str) -> list[Event]:
    """The events of an exported log (its header line skipped)."""
    return [decode_event(line) for line in jsonl.splitlines()[1:]]


async def directory_entry(stack: Stack, table_id: str) -> tuple[int, bytes]:
    """The table's entry in the directory bucket as stored: (revision, bytes)."""
    nc = await nats.connect(stack.nats_url)
    try:
        kv = await nc.jetstream().key_value(subjects.TABLES_BUCKET)
        entry = await kv.get(table_id)
        return entry.revision or 0, entry.value or b""
    finally:
        await nc.close()


async def nats_request(stack: Stack, subject: str, body: dict[str, Any]) -> dict[str, Any]:
    """A request straight to the table service, as any NATS client may send it."""
    nc = await nats.connect(stack.nats_url)
    try:
        reply = await ask(nc, subject, json.dumps(body).encode(), timeout=10)  # sealed reply
        answer: dict[str, Any] = json.loads(reply)
        return answer
    finally:
        await nc.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_only_the_owner_fills_seats_with_bots_and_a_refusal_changes_nothing(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    seat_token = await join(http, table, "Ann", seat=0)
    log_before = await raw_log(stack.nats_url, table)
    entry_before = await directory_entry(stack, table)
    listed_before = (await http.get(f"/api/tables/{table}")).json()

    refusals = [
        await http.post(f"/api/tables/{table}/bots", json={}),  # no token at all
        await http.post(f"/api/tables/{table}/bots", json={}, headers=bearer(seat_token)),
        await http.post(f"/api/tables/{table}/bots", json={}, headers=bearer("x" * 43)),
        await http.post(
            f"/api/tables/{table}/bots", json={"seats": [1]}, headers={"Authorization": "Basic abc"}
        ),
    ]
    for r in refusals:
        assert r.status_code == 403, r.text
        body = r.json()
        assert body["code"] == "not_owner"
        assert "owner" in body["en"] and "房主" in body["zh"]
    # the NATS request behind the endpoint is guarded the same way
    answer = await nats_request(stack, subjects.table_subject(table, "bots"), {"seats": [1, 2]})
    assert answer["error"]["code"] == "not_owner"

    assert await raw_log(stack.nats_url, table) == log_before
    assert await directory_entry(stack, table) == entry_before
    assert (await http.get(f"/api/tables/{table}")).json() == listed_before

    filled = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert filled.status_code == 200, filled.text
    assert filled.json()["seats"] == [1, 2]
    playing = await wait_status(http, table, "playing")
    assert [s["kind"] for s in playing["seats"]] == ["human", "bot", "bot"]


async def test_a_retried_create_answers_the_same_owner_token(http: httpx.AsyncClient) -> None:
    body = {"game": "guanpai", "request_id": str(uuid.uuid4())}
    first = await http.post("/api/tables", json=body)
    again = await http.post("/api/tables", json=body)
    assert first.status_code == again.status_code == 201
    assert first.json()["owner_token"] == again.json()["owner_token"]
    other = (await http.post("/api/tables", json={"game": "guanpai"})).json()
    assert other["owner_token"] != first.json()["owner_token"]
    # the table's public record never shows it
    shown = (await http.get(f"/api/tables/{first.json()['id']}")).json()
    assert "owner_token" not in shown and first.json()["owner_token"] not in json.dumps(shown)


async def test_a_close_writes_the_log_under_the_tables_lock(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner's close appends its events as every writer of a table's log must: holding the
    table's lock (a join's steps, which hold it, may run at the same time)."""
    made = await svc.create(CreateTable(game="guanpai"))
    held: list[bool] = []
    execute = svc.writer.execute

    async def watched(table_id: str, *args: Any, **kwargs: Any) -> Any:
        held.append(svc.writer.lock(table_id).locked())
        return await execute(table_id, *args, **kwargs)

    monkeypatch.setattr(svc.writer, "execute", watched)
    closed = await svc.room.close(made.table, CloseTable(owner_token=made.owner_token))
    assert closed.status == "closed"
    assert held == [True]


async def test_the_owner_closes_an_open_table_and_nobody_else_can(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    await join(http, table, "Ann", seat=0)
    entry_before = await directory_entry(stack, table)
    refused = await http.post(f"/api/tables/{table}/close")
    assert refused.status_code == 403 and refused.json()["code"] == "not_owner"
    assert await directory_entry(stack, table) == entry_before

    closed = await http.post(f"/api/tables/{table}/close", headers=owner(table))
    assert closed.status_code == 200, closed.text
    assert closed.json() == {"table": table, "status": "closed"}
    again = await http.post(f"/api/tables/{table}/close", headers=owner(table))
    assert again.status_code == 200 and again.json()["status"] == "closed"
    record = (await http.get(f"/api/tables/{table}")).json()
    assert record["status"] == "closed" and record["finished_at"]
    live = [t["id"] for t in (await http.get("/api/tables")).json()]
    assert table not in live
    assert table in [t["id"] for t in (await http.get("/api/tables?status=closed")).json()]
    late = await http.post(f"/api/tables/{table}/seats", json={"name": "Bob"})
    assert late.status_code == 409 and late.json()["code"] == "table_closed"
    bots = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert bots.status_code == 409 and bots.json()["code"] == "table_closed"
    log = await raw_log(stack.nats_url, table)
    # never dealt, and the log says it was closed (the audit replays the close like a command)
    assert [e["type"] for _, e in log] == [
        "paiju_log",
        "deal_committed",
        "table_closed",
        "match_ended",
    ]
    report = audit([json.dumps(e) for _, e in log])
    assert report.ok and report.bad_index is None, describe(report)

    started = await new_table(http, game="guanpai", variant="boke")
    await http.post(f"/api/tables/{started}/bots", json={}, headers=owner(started))
    await wait_status(http, started, "playing")
    late_close = await http.post(f"/api/tables/{started}/close", headers=owner(started))
    assert late_close.status_code == 409 and late_close.json()["code"] == "match_started"


async def test_a_player_leaves_his_seat_before_the_start_and_it_opens_again(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    ann = await join(http, table, "Ann", seat=0)
    await join(http, table, "Bob", seat=1)
    left = await http.post(f"/api/tables/{table}/leave", headers=bearer(ann))
    assert left.status_code == 200, left.text
    assert left.json() == {"table": table, "seat": 0}
    record = (await http.get(f"/api/tables/{table}")).json()
    assert record["status"] == "open"
    assert record["seats"][0] == {
        "seat": 0,
        "kind": "empty",
        "name": None,
        "waiting": False,
        "left": False,
        "level": None,
    }
    assert record["seats"][1]["name"] == "Bob"
    entry = await directory_entry(stack, table)
    # a retry answers the same, and changes nothing more
    again = await http.post(f"/api/tables/{table}/leave", headers=bearer(ann))
    assert again.status_code == 200 and again.json()["seat"] == 0
    assert await directory_entry(stack, table) == entry
    # the old token no longer plays here; a stranger's token leaves nothing
    stale = await Socket.open(stack.ws, table)
    await stale.send({"type": "hello", "token": ann})
    assert (await stale.expect("error"))["code"] == "unauthorized"
    await stale.close()
    nobody = await http.post(f"/api/tables/{table}/leave", headers=bearer("y" * 32))
    assert nobody.status_code == 401 and nobody.json()["code"] == "unauthorized"
    # the seat is taken again and the table fills: it deals to Cid
    cid = await join(http, table, "Cid", seat=0)
    await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    await wait_status(http, table, "playing")
    seated = await Socket.open(stack.ws, table, cid)
    await seated.close()


async def test_a_player_who_leaves_during_the_match_is_played_by_auto_play_to_its_end(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    """Ann leaves once dealt: the log says so (``auto_set`` on, ``left``), her token is refused
    from then on, the clock plays her seat (after the short 托管 delay; Bob plays himself, well
    within his clock), and the 继续 gate between the hands no longer waits for her: it has no deadline here, so a gate that
    waited for her would hold the match forever."""
    table = await new_table(
        http,
        game="guanpai",
        variant="boke",
        options={"hands": 2},
        clock={"play": 20, "continue": 0},
    )
    ann = await join(http, table, "Ann", seat=0)
    bob = await join(http, table, "Bob", seat=1)
    ann_sock = await Socket.open(stack.ws, table, ann)
    bob_sock = await Socket.open(stack.ws, table, bob)
    await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    while True:  # dealt
        frame = await ann_sock.expect("state")
        if frame["view"]["phase"] not in ("commit", "seeding"):
            break
    left = await http.post(f"/api/tables/{table}/leave", headers=bearer(ann))
    assert left.status_code == 200, left.text
    assert left.json() == {"table": table, "seat": 0}
    record = (await http.get(f"/api/tables/{table}")).json()
    assert record["status"] == "playing"
    assert record["seats"][0] | {"kind": "human", "name": "Ann", "left": True} == record["seats"][0]
    assert not record["seats"][1]["left"]
    # a retry answers the same seat and appends nothing more
    again = await http.post(f"/api/tables/{table}/leave", headers=bearer(ann))
    assert again.status_code == 200 and again.json()["seat"] == 0
    # her token is gone: her open socket's commands and a new hello are refused
    await ann_sock.send(
        {"type": "command", "id": "after-leave", "command": {"type": "continue", "seat": 0}}
    )
    assert (await ann_sock.expect("error"))["code"] == "unauthorized"
    await ann_sock.close()
    stale = await Socket.open(stack.ws, table)
    await stale.send({"type": "hello", "token": ann})
    assert (await stale.expect("error"))["code"] == "unauthorized"
    await stale.close()
    # Bob plays (and presses 继续); the clock plays Ann's seat to the end of both hands
    over = await asyncio.wait_for(play_seat(bob_sock, 1), 120)
    assert over["type"] == "over"
    await bob_sock.close()
    done = await wait_status(http, table, "finished")
    assert done["seats"][0]["left"] is True
    raw = [
        (h, {k: v for k, v in e.items() if k != "v"})
        for h, e in await raw_log(stack.nats_url, table)
    ]
    leaves = [(h, e) for h, e in raw if e["type"] == "auto_set" and e["reason"] == "left"]
    assert [e for _, e in leaves] == [{"type": "auto_set", "seat": 0, "on": True, "reason": "left"}]
    assert leaves[0][0]["Paiju-Command"] == "left.0"
    events = [e for _, e in raw[1:]]
    first_leave = events.index(leaves[0][1])
    # from then on seat 0 is only ever played for, never by itself, and never leaves 托管
    after = events[first_leave + 1 :]
    mine = [
        i for i, e in enumerate(after) if e.get("seat") == 0 and e["type"] in ("played", "passed")
    ]
    assert mine, "seat 0 never played after leaving"
    for i in mine:
        assert after[i - 1] == {"type": "auto_played", "seat": 0, "reason": "auto"}
    assert not [e for e in after if e["type"] == "auto_set" and e["seat"] == 0]
    assert [e["seat"] for e in events if e["type"] == "continued"] == [1]
    assert sum(1 for e in events if e["type"] == "dealt") == 2
    lines = (await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})).text
    report = audit(lines.splitlines())
    assert report.verdict == "sound", describe(report)
    told = event_lines(report_events(lines), GAME.words)
    assert ("1号位离座，由托管代打", "Seat 1 left; auto-play takes over") in told


async def test_rematch_seats_the_same_players_with_the_same_tokens_once_all_pressed(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    ann = await join(http, table, "Ann", seat=0)
    bob = await join(http, table, "Bob", seat=1)
    early = await http.post(f"/api/tables/{table}/rematch", headers=bearer(ann))
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    socks = [await Socket.open(stack.ws, table, tok) for tok in (ann, bob)]
    await asyncio.wait_for(asyncio.gather(*(play_seat(s, i) for i, s in enumerate(socks))), 60)
    await socks[0].close()
    watching = socks[1]  # Bob's page stays on the finished table
    await wait_status(http, table, "finished")

    stranger = await http.post(f"/api/tables/{table}/rematch", headers=bearer("z" * 32))
    assert stranger.status_code == 401
    first = await http.post(f"/api/tables/{table}/rematch", headers=bearer(ann))
    assert first.status_code == 200, first.text
    new = first.json()["table"]
    assert new != table and first.json()["seat"] == 0 and first.json()["waiting"] == [1]
    again = await http.post(f"/api/tables/{table}/rematch", headers=bearer(ann))
    assert again.json() == first.json()  # idempotent: the same table, nothing new
    # Bob's socket on the finished table is told at once, unasked
    told = await watching.expect("rematch")
    assert told == {"type": "rematch", "table": table, "rematch": new}
    await watching.close()

    record = await wait_status(http, new, "open")
    # the offer lapses as an open table does: open_expiry (the stack's is the default) after
    # its last seat taken, which is after its creation
    open_expiry = Settings().open_expiry
    assert record["created_at"] + open_expiry <= record["expires_at"] <= time.time() + open_expiry
    assert record["rematch_of"] == table
    assert (await http.get(f"/api/tables/{table}")).json()["rematch"] == new
    assert (record["game"], record["variant"], record["players"]) == ("guanpai", "boke", 3)
    assert [(s["kind"], s["name"], s["waiting"]) for s in record["seats"]][:2] == [
        ("human", "Ann", False),
        ("human", "Bob", True),
    ]
    for _ in range(100):  # the bot takes its seat through the bots service
        record = (await http.get(f"/api/tables/{new}")).json()
        if record["seats"][2]["kind"] == "bot":
            break
        await asyncio.sleep(0.1)
    assert record["seats"][2]["kind"] == "bot"
    assert record["status"] == "open"  # Bob has not pressed: no deal yet
    assert record["seats"][2]["level"] == "normal"  # the bot sits again at its level

    async def bot_recorded() -> bool:  # by the table's steps, just after the bot sits; no deal
        recorded = [e["type"] for _, e in await raw_log(stack.nats_url, new)]
        assert recorded in (
            ["paiju_log", "deal_committed"],
            ["paiju_log", "deal_committed", "bot_seated"],
        )
        return recorded[-1] == "bot_seated"

    await until("the bot's seat and level in the log", bot_recorded)

    # 不了: Bob gives up his seat at the rematch table with his token (the same there); it is
    # empty, the deal still waits; then he changes his mind and presses 再来一局 after all
    declined = await http.post(f"/api/tables/{new}/leave", headers=bearer(bob))
    assert declined.status_code == 200 and declined.json()["seat"] == 1, declined.text
    seats = (await http.get(f"/api/tables/{new}")).json()["seats"]
    assert (seats[1]["kind"], seats[1]["waiting"]) == ("empty", False)
    both = await asyncio.gather(
        http.post(f"/api/tables/{table}/rematch", headers=bearer(bob)),
        http.post(f"/api/tables/{table}/rematch", headers=bearer(bob)),
    )
    assert all(r.status_code == 200 and r.json()["table"] == new for r in both)
    assert both[0].json()["waiting"] == []
    playing = await wait_status(http, new, "playing")
    assert playing["expires_at"] is None and playing["seats"][1]["name"] == "Bob"
    # each press kept its seat's view key for the new table (the old table's go when it retires)
    nc = await nats.connect(stack.nats_url)
    try:
        secrets = await nc.jetstream().key_value(subjects.SECRETS_BUCKET)
        for tok in (ann, bob):
            digest = hashlib.sha256(tok.encode()).hexdigest()
            kept = await secrets.get(views.key_name(new, digest))
            assert kept.value == views.view_key(tok).hex().encode()
    finally:
        await nc.close()
    # the old tokens are the new table's seats: both play the new match to its end
    socks = [await Socket.open(stack.ws, new, tok) for tok in (ann, bob)]
    assert [s.frames[-2]["seat"] for s in socks] == [0, 1]
    overs = await asyncio.wait_for(
        asyncio.gather(*(play_seat(s, i) for i, s in enumerate(socks))), 60
    )
    assert overs[0]["table"] == new
    for s in socks:
        await s.close()
    await wait_status(http, new, "finished")
    tables_made = [
        t
        for t in (await http.get("/api/tables?status=finished")).json()
        if t["rematch_of"] == table
    ]
    assert [t["id"] for t in tables_made] == [new]  # one rematch table, however many presses


async def test_hands_lists_every_scored_hand_with_running_totals(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    waiting = await new_table(http, game="guanpai", variant="boke")
    await join(http, waiting, "Ann", seat=0)
    empty = (await http.get(f"/api/tables/{waiting}/hands")).json()
    assert empty == {
        "table": waiting,
        "version": 1,
        "finished": False,
        "hands": [],
        "totals": [0, 0, 0],
    }

    table = await new_table(http, game="guanpai", variant="boke", options={"hands": 3})
    await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    finished = await wait_status(http, table, "finished")
    body = (await http.get(f"/api/tables/{table}/hands")).json()
    assert body["finished"] is True
    assert [hand["hand_no"] for hand in body["hands"]] == [1, 2, 3]
    running = [0, 0, 0]
    for hand in body["hands"]:
        running = [t + s for t, s in zip(running, hand["scores"], strict=True)]
        assert hand["totals"] == running
        assert hand["type"] == "hand_ended" and "lines" in hand
    assert body["totals"] == running == finished["totals"]
    logged = [e for _, e in await raw_log(stack.nats_url, table) if e["type"] == "hand_ended"]
    assert [{k: v for k, v in h.items() if k != "totals"} for h in body["hands"]] == logged
    missing = await http.get("/api/tables/0123456789abcdef/hands")
    assert missing.status_code == 404 and missing.json()["code"] == "table_not_found"


async def test_finished_tables_are_searched_by_game_and_player_and_paged(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    tag = uuid.uuid4().hex[:8]
    made = []
    for i, (variant, players) in enumerate([("boke", 3), ("mainstream", 2), ("boke", 3)]):
        table = await new_table(http, game="guanpai", variant=variant, players=players)
        token = await join(http, table, f"Hist{tag}-{i}", seat=0)
        await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        sock = await Socket.open(stack.ws, table, token)
        await asyncio.wait_for(play_seat(sock, 0), 60)
        await sock.close()
        await wait_status(http, table, "finished")
        made.append(table)
    newest_first = made[::-1]

    async def listed(**params: Any) -> list[dict[str, Any]]:
        r = await http.get("/api/tables", params={"status": "finished", **params})
        assert r.status_code == 200, r.text
        found: list[dict[str, Any]] = r.json()
        return found

    found = await listed(player=f"hist{tag}")  # case-insensitive, part of a name
    assert [t["id"] for t in found] == newest_first
    ended = [t["finished_at"] for t in found]
    assert ended == sorted(ended, reverse=True)
    assert [t["id"] for t in await listed(player=f"Hist{tag}-1")] == [made[1]]
    assert [t["id"] for t in await listed(player=f"Hist{tag}", game="guanpai")] == newest_first
    assert await listed(player=f"Hist{tag}", game="dabei") == []
    page1 = await listed(player=f"Hist{tag}", page_size=2)
    assert [t["id"] for t in page1] == newest_first[:2]
    page2 = await listed(player=f"Hist{tag}", page_size=2, before=page1[-1]["finished_at"])
    assert [t["id"] for t in page2] == newest_first[2:]
    assert await listed(player=f"Hist{tag}", before=found[-1]["finished_at"]) == []
    live = [
        t["id"] for t in (await http.get("/api/tables", params={"player": f"Hist{tag}"})).json()
    ]
    assert live == []  # finished tables are not live
    bad = await http.get("/api/tables", params={"status": "finished", "page_size": 0})
    assert bad.status_code == 400
