"""Bad input over HTTP and over the WebSocket: each gets a clear error (a stable code and a message
in Chinese and English) and the table's log stays exactly as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from integration.harness import Socket, Stack, join, new_table, raw_log

CARD_CODES = [r + s for r in "3456789TJQKA2" for s in "SHCD"]


class Table:
    """A dealt table of three people (nothing moves unless a test makes it)."""

    def __init__(self, table_id: str, tokens: list[str], turn: int, hands: dict[int, list[str]]):
        self.id = table_id
        self.tokens = tokens
        self.turn = turn
        self.hands = hands


@pytest.fixture
async def table(stack: Stack, http: httpx.AsyncClient) -> Table:
    table_id = await new_table(http)
    tokens = [await join(http, table_id, f"P{seat}", seat=seat) for seat in range(3)]
    hands = {}
    turn = -1
    for seat, token in enumerate(tokens):
        sock = await Socket.open(stack.ws, table_id, token)
        view = sock.frames[-1]["view"]
        hands[seat], turn = view["hand"], view["turn"]
        await sock.close()
    return Table(table_id, tokens, turn, hands)


def is_error(body: dict[str, Any], code: str) -> None:
    assert body["code"] == code, body
    assert body["zh"] and body["en"], body


async def snapshot(stack: Stack, table_id: str) -> list[Any]:
    return await raw_log(stack.nats_url, table_id)


async def test_bad_http_requests_get_clear_errors_and_change_nothing(
    stack: Stack, http: httpx.AsyncClient, table: Table
) -> None:
    before = await snapshot(stack, table.id)
    url = f"/api/tables/{table.id}/commands"
    me = table.turn
    other = (me + 1) % 3
    auth = {"Authorization": f"Bearer {table.tokens[me]}"}
    not_mine = next(c for c in CARD_CODES if c not in table.hands[me])
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        (
            "malformed JSON",
            {"content": b'{"id": "x", "command": {', "headers": auth},
            400,
            "bad_json",
        ),
        ("not an object", {"content": b"[1, 2]", "headers": auth}, 400, "bad_request"),
        (
            "an unknown field",
            {"json": {"id": "x", "command": {}, "extra": 1}, "headers": auth},
            400,
            "bad_request",
        ),
        (
            "no token",
            {"json": {"id": "x", "command": {"type": "pass", "seat": me}}},
            401,
            "unauthorized",
        ),
        (
            "a forged token",
            {
                "json": {"id": "x", "command": {"type": "pass", "seat": me}},
                "headers": {"Authorization": "Bearer forged-token"},
            },
            401,
            "unauthorized",
        ),
        (
            "another seat's seat",
            {"json": {"id": "x", "command": {"type": "pass", "seat": other}}, "headers": auth},
            403,
            "not_your_seat",
        ),
        (
            "a table command",
            {"json": {"id": "x", "command": {"type": "reveal_seed", "seed": "x"}}, "headers": auth},
            403,
            "forbidden_command",
        ),
        (
            "an unknown command type",
            {"json": {"id": "x", "command": {"type": "cheat", "seat": me}}, "headers": auth},
            422,
            "unknown_command",
        ),
        (
            "a bad card code",
            {
                "json": {"id": "x", "command": {"type": "play", "seat": me, "cards": ["ZZ"]}},
                "headers": auth,
            },
            422,
            "bad_command",
        ),
        (
            "a card not in hand",
            {
                "json": {"id": "x", "command": {"type": "play", "seat": me, "cards": [not_mine]}},
                "headers": auth,
            },
            422,
            "not_in_hand",
        ),
        (
            "a play out of turn",
            {
                "json": {
                    "id": "x",
                    "command": {"type": "play", "seat": other, "cards": table.hands[other][:1]},
                },
                "headers": {"Authorization": f"Bearer {table.tokens[other]}"},
            },
            422,
            "not_your_turn",
        ),
        (
            "a bad command id",
            {
                "json": {"id": "no spaces!", "command": {"type": "pass", "seat": me}},
                "headers": auth,
            },
            400,
            "bad_request",
        ),
        (
            "a body over the size limit",
            {"content": b'{"id": "' + b"x" * 40_000 + b'"}', "headers": auth},
            413,
            "too_large",
        ),
    ]
    for name, kwargs, status, code in cases:
        headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
        r = await http.post(url, headers=headers, **kwargs)
        assert r.status_code == status, (name, r.status_code, r.text)
        is_error(r.json(), code)

    other_requests = [
        (
            http.post(
                "/api/tables", content=b"{nope", headers={"Content-Type": "application/json"}
            ),
            400,
            "bad_json",
        ),
        (http.post("/api/tables", json={"game": "mahjong"}), 422, "bad_config"),
        (http.post("/api/tables", json={"game": "guanpai", "players": 7}), 422, "bad_config"),
        (
            http.post("/api/tables", json={"game": "guanpai", "options": {"hands": "many"}}),
            422,
            "bad_config",
        ),
        (
            http.post("/api/tables", json={"game": "guanpai", "options": {"nope": 1}}),
            422,
            "bad_config",
        ),
        (http.get("/api/tables/0000000000000000"), 404, "table_not_found"),
        (http.get("/api/tables/../../etc"), 404, "not_found"),
        (http.get(f"/api/tables/{table.id}/log"), 409, "not_finished"),
        (http.get(f"/api/tables/{table.id}/state", params={"at": 10_000}), 400, "bad_index"),
        (http.get(f"/api/tables/{table.id}/state", params={"at": "x"}), 400, "bad_request"),
        (http.post(f"/api/tables/{table.id}/seats", json={"name": "late"}), 409, "table_full"),
        (http.post(f"/api/tables/{table.id}/bots", json={}), 409, "table_full"),
        (http.delete(f"/api/tables/{table.id}"), 405, "method_not_allowed"),
    ]
    for request, status, code in other_requests:
        r = await request
        assert r.status_code == status, (code, r.status_code, r.text)
        is_error(r.json(), code)

    assert await snapshot(stack, table.id) == before


async def test_bad_websocket_frames_get_error_frames_and_change_nothing(
    stack: Stack, table: Table
) -> None:
    before = await snapshot(stack, table.id)
    me = table.turn
    other = (me + 1) % 3
    not_mine = next(c for c in CARD_CODES if c not in table.hands[me])

    spectator = await Socket.open(stack.ws, table.id)
    spectator_cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "command", "id": "a", "command": {"type": "pass", "seat": me}}, "not_seated"),
        ({"type": "hello", "token": "forged-token"}, "unauthorized"),
        ({"type": "hello", "token": "x" * 10_000}, "too_large"),
    ]
    for frame, code in spectator_cases:
        await spectator.send(frame)
        is_error(await spectator.expect("error"), code)
    await spectator.close()

    seat = await Socket.open(stack.ws, table.id, table.tokens[me])
    cases: list[tuple[Any, str]] = [
        ('{"type": "command", "id": ', "bad_json"),
        (b"\xff\xfe not json", "bad_json"),
        ("[1, 2, 3]", "unknown_frame"),
        ({"type": "launch_missiles"}, "unknown_frame"),
        ({"type": "command", "id": "a"}, "bad_frame"),
        (
            {"type": "command", "id": "a", "command": {"type": "pass", "seat": me}, "x": 1},
            "bad_frame",
        ),
        ({"type": "hello", "token": 42}, "bad_frame"),
        (
            {"type": "command", "id": "a", "command": {"type": "cheat", "seat": me}},
            "unknown_command",
        ),
        (
            {
                "type": "command",
                "id": "a",
                "command": {"type": "play", "seat": me, "cards": [not_mine]},
            },
            "not_in_hand",
        ),
        (
            {
                "type": "command",
                "id": "a",
                "command": {"type": "play", "seat": me, "cards": ["3X"]},
            },
            "bad_command",
        ),
        (
            {"type": "command", "id": "a", "command": {"type": "pass", "seat": other}},
            "not_your_seat",
        ),
        (
            {"type": "command", "id": "a", "command": {"type": "deal", "seed": "mine"}},
            "forbidden_command",
        ),
        (
            {"type": "command", "id": "a b c", "command": {"type": "pass", "seat": me}},
            "bad_request",
        ),
        (
            {
                "type": "command",
                "id": "big",
                "command": {"type": "play", "seat": me, "cards": ["3S"] * 2000},
            },
            "too_large",
        ),
    ]
    for frame, code in cases:
        await seat.send(frame)
        is_error(await seat.expect("error"), code)
    # the other seat, with its own token, playing out of turn
    sock = await Socket.open(stack.ws, table.id, table.tokens[other])
    await sock.send(
        {
            "type": "command",
            "id": "early",
            "command": {"type": "play", "seat": other, "cards": table.hands[other][:1]},
        }
    )
    error = await sock.expect("error")
    is_error(error, "not_your_turn")
    assert error["id"] == "early"
    await sock.close()
    # the connection is still good after all that
    await seat.send({"type": "ping", "nonce": 7})
    assert (await seat.expect("pong"))["nonce"] == 7
    await seat.close()

    assert await snapshot(stack, table.id) == before


async def test_a_flood_of_frames_is_rate_limited(stack: Stack, table: Table) -> None:
    sock = await Socket.open(stack.ws, table.id)
    for i in range(120):
        await sock.send({"type": "ping", "nonce": i})
    frames = [await sock.recv() for _ in range(120)]
    assert any(f["type"] == "error" and f["code"] == "rate_limited" for f in frames)
    await sock.close()


async def test_a_client_over_the_http_rate_limit_is_refused_and_nothing_it_sent_is_applied(
    stack: Stack, http: httpx.AsyncClient, table: Table
) -> None:
    """A burst past the API's limit (100 requests, then 50 a second, per client address) gets
    ``rate_limited`` (429) and changes nothing: 160 copies of one legal command at once append
    it exactly once. Once the client slows down it is served again; static files are never
    limited."""
    me = table.turn
    auth = {"Authorization": f"Bearer {table.tokens[me]}"}
    before = await snapshot(stack, table.id)
    url = f"/api/tables/{table.id}/commands"
    play = {"type": "play", "seat": me, "cards": [table.hands[me][0]]}
    command = {"id": "burst-1", "command": play}
    burst = await asyncio.gather(*(http.post(url, json=command, headers=auth) for _ in range(160)))
    statuses = [r.status_code for r in burst]
    assert statuses.count(429) >= 20 and set(statuses) <= {200, 429}, statuses
    is_error(next(r for r in burst if r.status_code == 429).json(), "rate_limited")
    after = await snapshot(stack, table.id)
    added = [event for _, event in after[len(before) :]]
    assert after[: len(before)] == before
    assert [(e["type"], e["seat"]) for e in added] == [("played", me)]  # once, not 160 times
    assert (await http.get("/index.html")).status_code == 200  # static files are not limited
    for _ in range(100):  # slow down: the bucket refills at 50 a second
        await asyncio.sleep(0.05)
        reply = await http.get(f"/api/tables/{table.id}")
        if reply.status_code != 429:
            break
    assert reply.status_code == 200, reply.text
