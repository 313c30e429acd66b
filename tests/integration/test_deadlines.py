"""Turn clocks against the real stack: a seat that stops acting is played for when its (short,
test-set) deadline passes and goes to 托管, and the match ends; a deadline survives a kill -9 of
the table service copy that held it and fires once; two copies fire each deadline once; a seat
that acts at the last moment is never also played for; the next hand waits for 继续."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest

from integration.harness import (
    OWNERS,
    Socket,
    Stack,
    assert_clean_log,
    choose,
    join,
    owner,
    raw_log,
    start_stack,
)
from paiju.log.replay import audit
from paiju_services.bus import ask

Raw = list[tuple[dict[str, str], dict[str, Any]]]


@pytest.fixture
def one_copy(tmp_path: Path) -> Iterator[Stack]:
    s = start_stack(tmp_path, tables=1)
    yield s
    s.stop()


@pytest.fixture
def two_copies(tmp_path: Path) -> Iterator[Stack]:
    s = start_stack(tmp_path, tables=2)
    yield s
    s.stop()


async def clocked_table(stack: Stack, clock: dict[str, int], hands: int = 1) -> str:
    """A guanpai table with its own clock, asked of the table service over NATS (as any client
    of it may)."""
    nc = await nats.connect(stack.nats_url)
    try:
        body = {"game": "guanpai", "options": {"hands": hands}, "clock": clock}
        reply = await ask(nc, "paiju.tables.create", json.dumps(body).encode(), timeout=20)
    finally:
        await nc.close()
    data = json.loads(reply)
    assert data["error"] is None, data
    OWNERS[data["table"]] = data["owner_token"]
    return str(data["table"])


async def seated(stack: Stack, http: httpx.AsyncClient, table: str) -> str:
    """Seat 0 for a person (its token), the others for bots."""
    token = await join(http, table, "Idle", seat=0)
    r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert r.status_code == 200, r.text
    return token


def commands(raw: Raw) -> list[tuple[str, list[dict[str, Any]]]]:
    """The log's commands in order: (command id, its events)."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for headers, event in raw[1:]:
        command = headers["Paiju-Command"]
        if not out or out[-1][0] != command:
            out.append((command, []))
        out[-1][1].append(event)
    return out


def seat_moves(raw: Raw, seat: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """The commands holding a play or a pass of ``seat``."""
    return [
        (cid, events)
        for cid, events in commands(raw)
        if any(e["type"] in ("played", "passed") and e.get("seat") == seat for e in events)
    ]


async def audited(http: httpx.AsyncClient, table: str, raw: Raw) -> None:
    r = await http.get(f"/api/tables/{table}/log", params={"format": "jsonl"})
    assert r.status_code == 200, r.text
    report = audit(r.text.splitlines())
    assert report.verdict == "sound", report.error
    assert len(r.text.splitlines()) == len(raw)


def check_automatic(raw: Raw, seat: int) -> list[str]:
    """Every move of an idle seat is an automatic play: its command holds the marker (and, the
    first time, the switch to 托管), once per turn. Returns the automatic commands' ids."""
    moves = seat_moves(raw, seat)
    assert moves
    for n, (cid, events) in enumerate(moves):
        types = [e["type"] for e in events]
        assert cid.startswith(f"auto.{seat}."), cid
        expected = ["auto_set", "auto_played"] if n == 0 else ["auto_played"]
        assert types[: len(expected)] == expected
        marker = events[len(expected) - 1]
        assert marker["reason"] == ("timeout" if n == 0 else "auto")
        assert types.count("auto_played") == 1
    switches = [e for _, e in raw[1:] if e["type"] == "auto_set"]
    assert switches == [{"type": "auto_set", "v": 1, "seat": seat, "on": True, "reason": "timeout"}]
    return [cid for cid, _ in moves]


async def test_an_idle_seat_is_played_for_and_the_match_ends(one_copy: Stack) -> None:
    stack = one_copy
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await clocked_table(stack, {"play": 2, "continue": 2}, hands=2)
        info = (await http.get(f"/api/tables/{table}")).json()
        assert info["status"] == "open"
        watcher = await Socket.open(stack.ws, table)
        await seated(stack, http, table)
        over = await watcher.expect("over", timeout=120)
        assert sum(over["totals"]) == 0
        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        check_automatic(raw, 0)
        await audited(http, table, raw)
        states = [f for f in watcher.frames if f["type"] == "state"]
        # the seat to move is shown its deadline; between the hands the deal's own
        timed = [f for f in states if f["settled"] and f["view"]["turn"] == 0]
        assert timed and all(f["deadline_seat"] == 0 and f["deadline"] for f in timed)
        gate = [
            f
            for f in states
            if f["settled"] and f["view"]["phase"] == "seeding" and f["view"]["last_hand"]
        ]
        assert gate and all(f["deadline"] and f["deadline_seat"] is None for f in gate)
        assert states[-1]["deadline"] is None  # the match is over: nobody is timed
        assert states[-1]["view"]["auto"] == [0]
        await watcher.close()


async def test_a_deadline_survives_a_kill_and_fires_once(one_copy: Stack) -> None:
    stack = one_copy
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await clocked_table(stack, {"play": 3})
        watcher = await Socket.open(stack.ws, table)
        await seated(stack, http, table)
        while True:  # the idle seat's first turn: its deadline is pending
            frame = await watcher.expect("state", timeout=30)
            if frame["settled"] and frame["deadline_seat"] == 0:
                break
        old = stack.procs[0]
        old.kill()  # SIGKILL, with the deadline pending in its memory only
        await asyncio.sleep(0.5)
        new = stack.start("tables")
        await watcher.expect("over", timeout=120)
        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        fired = check_automatic(raw, 0)
        assert not any(line.get("msg") == "auto play" for line in old.lines())
        plays = [line for line in new.lines() if line.get("msg") == "auto play"]
        assert len(plays) == len(fired)
        assert plays[0]["kind"] == "play"
        await audited(http, table, raw)
        await watcher.close()


async def test_two_copies_fire_each_deadline_once(two_copies: Stack) -> None:
    stack = two_copies
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await clocked_table(stack, {"play": 2})
        watcher = await Socket.open(stack.ws, table)
        await seated(stack, http, table)
        await watcher.expect("over", timeout=120)
        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        fired = check_automatic(raw, 0)
        copies = [p for p in stack.procs if p.name.startswith("tables")]
        plays = [line for p in copies for line in p.lines() if line.get("msg") == "auto play"]
        # each copy fired every deadline it computed; one append each, the other lost the race
        assert len(plays) == len(fired)
        assert sorted(f"auto.0.{line['version']}" for line in plays) == sorted(fired)
        await audited(http, table, raw)
        await watcher.close()


async def test_a_seat_acting_at_the_last_moment_is_never_also_played_for(one_copy: Stack) -> None:
    stack = one_copy
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await clocked_table(stack, {"play": 2})
        token = await join(http, table, "Late", seat=0)
        sock = await Socket.open(stack.ws, table, token)
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text
        answers: dict[str, str] = {}  # command id: "ack" or the refusal's code
        offsets = [-0.12, -0.04, 0.0, 0.03, 0.08]  # seconds from the deadline, in turn
        turn = 0
        while True:
            frame = await sock.recv(60)
            if frame["type"] == "over":
                break
            if frame["type"] in ("ack", "error") and frame.get("id"):
                answers[frame["id"]] = "ack" if frame["type"] == "ack" else frame["code"]
                continue
            if frame["type"] != "state" or not frame.get("moves") or not frame["deadline"]:
                continue
            at = frame["deadline"] / 1000 + offsets[turn % len(offsets)]
            await asyncio.sleep(max(0.0, at - time.time()))
            command_id = f"late-{frame['index']}"
            answers[command_id] = "sent"
            move = choose(frame["moves"])
            await sock.send({"type": "command", "id": command_id, "command": move})
            turn += 1
        await sock.close()
        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        logged = {cid: events for cid, events in commands(raw)}
        assert turn >= 3
        assert "ack" in answers.values()  # some moves were in time
        for command_id, answer in answers.items():
            if answer == "ack":  # acted in time: in the log, and not played for
                events = logged[f"seat0.{command_id}"]
                assert "auto_played" not in [e["type"] for e in events]
            elif answer != "sent":  # too late: the server had played that turn (and maybe the
                # cards the move held): the rules refuse it, and it is not in the log
                assert answer not in ("unavailable", "conflict", "internal"), answer
                assert f"seat0.{command_id}" not in logged
        # one move per turn: every move of seat 0 is its own or an automatic one, never both
        for cid, events in seat_moves(raw, 0):
            automatic = [e for e in events if e["type"] == "auto_played"]
            assert len(automatic) == (1 if cid.startswith("auto.0.") else 0)
        await audited(http, table, raw)


async def test_the_next_hand_waits_for_continue(one_copy: Stack) -> None:
    stack = one_copy
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await clocked_table(stack, {"play": 0, "continue": 600}, hands=2)
        token = await join(http, table, "Ann", seat=0)
        sock = await Socket.open(stack.ws, table, token)
        r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        assert r.status_code == 200, r.text
        sent: set[int] = set()
        waited: dict[str, Any] | None = None
        while True:
            frame = await sock.recv(60)
            if frame["type"] == "over":
                break
            if frame["type"] == "error":
                raise AssertionError(frame)
            if frame["type"] != "state" or not frame["settled"] or frame["index"] in sent:
                continue
            view = frame["view"]
            if frame.get("moves"):
                sent.add(frame["index"])
                move = choose(frame["moves"])
                await sock.send({"type": "command", "id": f"m{frame['index']}", "command": move})
            elif view["phase"] == "seeding" and view["last_hand"] and 0 not in view["ready"]:
                waited = frame
                sent.add(frame["index"])
                continue_ = {"type": "continue", "seat": 0, "seed": "ann-hand-2"}
                await sock.send({"type": "command", "id": "cont-1", "command": continue_})
        await sock.close()
        assert waited is not None and waited["deadline_seat"] is None and waited["deadline"]
        raw = await raw_log(stack.nats_url, table)
        types = [e["type"] for _, e in raw[1:]]
        first_end = types.index("hand_ended")
        # the next deal is committed to at once; it waits for the 继续, which carries a seed
        assert types[first_end : first_end + 6] == [
            "hand_ended",
            "seed_revealed",
            "deal_committed",
            "continued",
            "seed_added",
            "dealt",
        ]
        assert "auto_played" not in types  # no play clock: nobody was played for
        await audited(http, table, raw)
