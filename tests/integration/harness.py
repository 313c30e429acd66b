"""The integration tests' clients of a real Paiju system: HTTP and WebSocket players, the table's log
read straight from JetStream, and checks of it. The system itself (``Stack``, ``start_stack``,
``Proc``, ``free_port``) is the shared harness's, ``tests/harness.py``, re-exported here."""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
import websockets

from harness import Proc, Stack, free_port, start_stack
from paiju import api
from paiju.log.file import decode_event, read_header
from paiju.protocol import Event
from paiju.table import TableState
from paiju_services.stored import Stored

__all__ = ["Proc", "Stack", "free_port", "start_stack"]  # the harness's, for the tests' imports

# --- clients ------------------------------------------------------------------------------------


OWNERS: dict[str, str] = {}  # the owner token of every table new_table made


async def until(
    what: str, check: Callable[[], Any], timeout: float = 30.0, every: float = 0.05
) -> None:
    """Poll ``check`` (a function, or a coroutine function) every ``every`` seconds until it is
    true; fail after ``timeout`` seconds saying what was waited for."""
    deadline = time.monotonic() + timeout
    while not await _value(check()):
        assert time.monotonic() < deadline, f"waited {timeout:.0f}s for {what}"
        await asyncio.sleep(every)


async def _value(result: Any) -> Any:
    return await result if inspect.isawaitable(result) else result


async def new_table(http: httpx.AsyncClient, **body: Any) -> str:
    body.setdefault("game", "guanpai")
    r = await http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    OWNERS[table_id] = r.json()["owner_token"]
    return table_id


def owner(table_id: str) -> dict[str, str]:
    """The headers of the owner's requests (bots, close) at a table new_table made."""
    return {"Authorization": f"Bearer {OWNERS[table_id]}"}


async def join(http: httpx.AsyncClient, table_id: str, name: str, seat: int | None = None) -> str:
    r = await http.post(f"/api/tables/{table_id}/seats", json={"name": name, "seat": seat})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


class Socket:
    """A WebSocket client that records every frame it receives."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, ws_base: str, table_id: str, token: str | None = None) -> Socket:
        conn = await websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**20)
        sock = cls(conn)
        await sock.expect("welcome")
        await sock.expect("state")
        if token is not None:
            await sock.send({"type": "hello", "token": token})
            await sock.expect("welcome")
            await sock.expect("state")
        return sock

    async def send(self, frame: dict[str, Any] | str | bytes) -> None:
        await self.conn.send(frame if isinstance(frame, str | bytes) else json.dumps(frame))

    async def recv(self, timeout: float = 15.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.conn.recv(), timeout)
        frame: dict[str, Any] = json.loads(raw)
        self.frames.append(frame)
        return frame

    async def expect(self, kind: str, timeout: float = 15.0) -> dict[str, Any]:
        """The next frame of this type (frames of other types in between are kept in ``frames``)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.1, deadline - time.monotonic()))
            if frame["type"] == kind:
                return frame

    async def close(self) -> None:
        await self.conn.close()


def choose(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A test player's move: the first play it may make, else a pass."""
    plays = [m for m in moves if m["type"] != "pass"]
    return plays[0] if plays else moves[0]


async def play_seat(
    sock: Socket, seat: int, retry_unavailable: bool = False, pace: float = 0.0
) -> dict[str, Any]:
    """Play ``seat`` to the end of the match through its socket; returns the ``over`` frame.
    Each move has its own command id; an ``unavailable`` answer is retried with the same id.
    ``pace``: seconds to wait before each move (a long match against instant bots would otherwise
    outrun the gateway's per-socket frame rate, as no person does)."""
    pending: dict[str, Any] | None = None
    states = [f for f in sock.frames if f["type"] == "state"]
    latest: dict[str, Any] | None = states[-1] if states else None
    acted = -1
    continued = 0  # the hand whose score sheet this seat has pressed 继续 on
    while True:
        view = latest["view"] if latest else {}
        if (
            pending is None
            and latest
            and latest.get("settled", True)
            and view.get("last_hand")
            and view["phase"] in ("reveal", "commit", "seeding")
            and seat not in view.get("ready", [])
            and view["last_hand"]["hand_no"] > continued
        ):
            continued = view["last_hand"]["hand_no"]  # the next deal waits for every 继续
            command = {"type": "continue", "seat": seat}
            if view["phase"] == "seeding":  # committed to the next deal: add a seed, as players do
                command["seed"] = f"seat{seat}-hand{continued + 1}"
            pending = {"type": "command", "id": f"s{seat}-c{continued}", "command": command}
            await sock.send(pending)
        if pending is None and latest and latest.get("moves") and latest["index"] > acted:
            acted = latest["index"]
            move = choose(latest["moves"])
            assert move["seat"] == seat
            pending = {"type": "command", "id": f"s{seat}-v{acted}", "command": move}
            await asyncio.sleep(pace)
            await sock.send(pending)
        frame = await sock.recv(30.0)
        kind = frame["type"]
        if kind == "over":
            return frame
        if kind == "error":
            mine = pending is not None and frame.get("id") == pending["id"]
            if mine and pending and pending["command"]["type"] == "continue":
                pending = None  # the match ended (or the deal came) before this 继续: no matter
                continue
            if (
                mine
                and pending
                and retry_unavailable
                and frame["code"] in ("unavailable", "conflict")
            ):
                await asyncio.sleep(0.3)
                await sock.send(pending)
                continue
            raise AssertionError(f"command refused: {frame}")
        if kind == "ack" and pending is not None and frame["id"] == pending["id"]:
            pending = None
        elif kind == "state":
            latest = frame


async def raw_log(
    nats_url: str, table_id: str, **options: Any
) -> list[tuple[dict[str, str], dict[str, Any]]]:
    """The table's subject read straight from JetStream: (its message's headers, event) per line
    of the log (the header line first). ``options``: of ``nats.connect`` (TLS)."""
    return log_lines(await raw_messages(nats_url, table_id, **options))


async def raw_messages(nats_url: str, table_id: str, **options: Any) -> list[Stored]:
    """The table's stored messages read straight from JetStream. ``options``: of
    ``nats.connect`` (TLS)."""
    import nats

    from paiju_services.store import EventStore

    nc = await nats.connect(nats_url, **options)
    try:
        return await EventStore(nc, nc.jetstream()).read(table_id)
    finally:
        await nc.close()


def log_lines(msgs: Sequence[Stored]) -> list[tuple[dict[str, str], dict[str, Any]]]:
    """A table's stored messages as (its message's headers, the line's JSON) per line of the log:
    a message holds the JSON lines of one append."""
    return [(m.headers or {}, json.loads(line)) for m in msgs for line in m.data.split(b"\n")]


def assert_clean_log(raw: list[tuple[dict[str, str], dict[str, Any]]]) -> None:
    """No lost and no duplicated event: the header, then indexes 0..N-1 in order, each line
    where its message's ``Paiju-Index`` and ``Paiju-Type`` place it, each command's events
    contiguous and each command id once."""
    assert raw[0][1]["type"] == "paiju_log"
    for index, (headers, line) in enumerate(raw, start=-1):
        first, types = int(headers["Paiju-Index"]), headers["Paiju-Type"].split()
        assert first <= index < first + len(types), (index, headers)
        assert types[index - first] == line["type"], (index, headers)
    seen: list[str] = []
    for headers, _ in raw[1:]:
        command = headers["Paiju-Command"]
        if not seen or seen[-1] != command:
            assert command not in seen, f"command {command} appended twice"
            seen.append(command)


async def wait_status(
    http: httpx.AsyncClient, table_id: str, status: str, timeout: float = 60.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = (await http.get(f"/api/tables/{table_id}")).json()
        if body["status"] == status:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table_id} not {status} in {timeout}s")


async def play_watched(
    stack: Stack, http: httpx.AsyncClient, table_id: str, players: int
) -> tuple[Socket, list[Socket]]:
    """A spectator watching from before the deal and ``players`` people seated one by one, each
    playing with ``play_seat`` to the end of the match; returns (spectator, seats), every frame
    they received kept."""
    spectator = await Socket.open(stack.ws, table_id)
    tokens = [await join(http, table_id, f"P{seat}", seat=seat) for seat in range(players)]
    seats = [await Socket.open(stack.ws, table_id, token) for token in tokens]
    await asyncio.wait_for(asyncio.gather(*(play_seat(s, i) for i, s in enumerate(seats))), 60)
    await spectator.expect("over")
    return spectator, seats


async def logged_states(
    http: httpx.AsyncClient, table_id: str
) -> tuple[list[Event], list[TableState]]:
    """A table's events from its exported log, and the state after each prefix of them:
    ``states[i]`` is the state after the first ``i`` events (a frame's ``index``)."""
    lines = (
        await http.get(f"/api/tables/{table_id}/log", params={"format": "jsonl"})
    ).text.splitlines()
    config = read_header(lines[0])
    events = [decode_event(line) for line in lines[1:]]
    states = [api.initial_state(config)]
    for event in events:
        states.append(api.evolve(states[-1], event))
    return events, states


def assert_every_index_once(frames: list[dict[str, Any]]) -> None:
    """The indexes a spectator was sent after events run one by one, without gap or repeat."""
    seen = [f["index"] for f in frames if f["type"] == "state" and f.get("event")]
    assert seen, "the spectator saw no event"
    assert seen == list(range(seen[0], seen[0] + len(seen))), seen


async def watch_to_the_end(sock: Socket, timeout: float) -> None:
    """Record a socket's frames until the match is over."""
    deadline = time.monotonic() + timeout
    while not any(f["type"] == "over" for f in sock.frames):
        await sock.recv(max(0.1, deadline - time.monotonic()))
