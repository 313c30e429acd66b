"""Bot levels through the real services: the owner fills seats with bots at a level (one for all,
or per seat); the directory's seats and the log record each bot's level (``bot_seated``, before
the first deal); an unknown level is refused and fills nothing; the bots service plays each seat
at its level, every move the one that level chooses from the seat's view; a seat may not claim a
bot's level for itself."""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from integration.harness import Socket, Stack, join, new_table, owner, play_seat, raw_log
from paiju import api, levels
from paiju.client import state_from_view
from paiju.protocol import AutoPlayed, BotSeated, Event, decode
from paiju_services.bots import yield_cores
from paiju_services.config import Settings


async def test_an_unknown_level_is_refused_and_fills_no_seat(http: httpx.AsyncClient) -> None:
    table = await new_table(http, game="guanpai", variant="boke")
    for body in ({"level": "grandmaster"}, {"seats": [1], "levels": {"1": "nope"}}):
        r = await http.post(f"/api/tables/{table}/bots", json=body, headers=owner(table))
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "unknown_level" and "expert" in r.json()["en"]
    stray = {"seats": [1], "levels": {"2": "expert"}}  # a level for a seat not filled
    r = await http.post(f"/api/tables/{table}/bots", json=stray, headers=owner(table))
    assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
    seats = (await http.get(f"/api/tables/{table}")).json()["seats"]
    assert [s["kind"] for s in seats] == ["empty"] * 3


def bot_moves(events: list[Event], seat: int) -> list[int]:
    """The indexes of the moves ``seat`` chose itself (none 托管 made for it)."""
    out = []
    for i, event in enumerate(events):
        after_auto = i > 0 and isinstance(events[i - 1], AutoPlayed)
        moved = event.as_command() is not None and getattr(event, "seat", None) == seat
        if moved and not after_auto and event.TYPE in ("played", "passed", "bid_made"):
            out.append(i)
    return out


async def test_bots_seated_at_their_levels_are_recorded_and_play_at_them(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="boke", options={"hands": 1})
    body: dict[str, Any] = {"seats": [1, 2], "level": "expert", "levels": {"2": "basic"}}
    r = await http.post(f"/api/tables/{table}/bots", json=body, headers=owner(table))
    assert r.status_code == 200 and r.json()["seats"] == [1, 2], r.text
    seats = (await http.get(f"/api/tables/{table}")).json()["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [
        ("empty", None),
        ("bot", "expert"),
        ("bot", "basic"),
    ]
    sock = await Socket.open(stack.ws, table, await join(http, table, "P1", seat=0))
    await sock.send(
        {
            "type": "command",
            "id": "claim",
            "command": {"type": "seat_bot", "seat": 0, "level": "expert"},
        }
    )
    refused = await sock.expect("error")
    assert refused["code"] == "forbidden_command"
    over = await asyncio.wait_for(play_seat(sock, 0, pace=0.05), 120)
    await sock.close()
    assert sum(over["totals"]) == 0

    raw = await raw_log(stack.nats_url, table)
    config = api.config_from_dict(raw[0][1]["config"])
    events: list[Event] = [decode(e) for _, e in raw[1:]]  # type: ignore[misc]
    seated = [e for e in events if isinstance(e, BotSeated)]
    assert sorted(seated, key=lambda e: e.seat) == [
        BotSeated(seat=1, level="expert"),
        BotSeated(seat=2, level="basic"),
    ]
    dealt = next(i for i, e in enumerate(events) if e.TYPE == "dealt")
    assert all(events.index(e) < dealt for e in seated)  # before the first deal
    final = api.replay(config, events)
    assert api.view(final, None)["bots"] == [None, "expert", "basic"]
    # each bot's every move is the one its level chooses from the seat's view at that point
    for seat, level in ((1, "expert"), (2, "basic")):
        moves = bot_moves(events, seat)
        assert moves, f"seat {seat} never moved"
        for i in moves:
            state = api.replay(config, events[:i])
            seen = state_from_view(config.to_dict(), api.view(state, seat))
            chosen = await asyncio.to_thread(levels.choose, seen, seat, level)
            assert api.decide(state, chosen)[0] == events[i], (seat, level, i)


def test_the_searching_thread_yields_the_cores_to_the_services() -> None:
    """The bots service's searches (高手) run in a thread of lower CPU priority (``yield_cores``,
    the setting ``bot_search_nice``): the thread's nice value rises, the caller's does not."""
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def niceness() -> int:
        yield_cores(Settings().bot_search_nice)
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(niceness).result() == min(19, before + Settings().bot_search_nice)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before
