"""The 3-node cluster under node faults: bot tables of every catalogued game play on, with two
copies of the table and bots services, while nats-server nodes are killed (-9) and restarted by
the launcher — the leader of the event stream, the JetStream meta leader, then the leader of the
bots' turn stream. What the cluster promises (docs/services.md, "The cluster under faults"):

- every table finishes within ``FINISH_AFTER_FAULT`` seconds of the last fault (no turn offered to
  the bots is lost for good, no table left waiting on a copy that went wrong);
- every stored log is whole (indexes contiguous, each command once, ``paiju audit`` sound) and a
  spectator of each table saw every index once, in order;
- no table-service copy ran ahead of its stream: every answer a copy gave (a command accepted or
  answered ``duplicate``, a table step) names events the stream holds, under that command's id
  (read from the copies' ``command`` and ``table step`` log lines);
- the turn stream ``PAIJU_TURNS`` drains: once the tables are over, it holds no turn and the
  ``paiju-bots`` consumer has none pending or unacknowledged.

The load reads no table through the table service's read verbs (``/state``, ``/hands``, the
archive): the test watches through spectators' sockets and reads the logs from JetStream itself.

The system is started the way `python -m paiju_services.launcher deploy/cluster.toml` starts it,
from a config written here with free ports and a temporary store — with its NATS users and TLS on
the routes and the client ports, so the kills and reconnections are made over TLS too. The test
prints its figures (tables, faults, the time to finish after the last fault, events).
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import signal
import statistics
import subprocess
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext

from integration.cluster import (
    kill_and_wait,
    meta_leader,
    start_launcher,
    stream_leader,
    wait_whole,
    write_cluster,
)
from integration.harness import (
    Socket,
    assert_clean_log,
    assert_every_index_once,
    log_lines,
    watch_to_the_end,
)
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju_services import bus, subjects
from paiju_services.config import Settings
from paiju_services.store import EventStore, Stored

# run after the other tests, one at a time (make test):
# it kills nats-server nodes and bounds how long tables stall
pytestmark = pytest.mark.alone

TABLES_PER_GAME = 2
HANDS = 1
BOT_DELAY = 0.2  # seconds a bot thinks: the matches outlast the faults
FINISH_AFTER_FAULT = 60.0  # seconds: every table has finished this long after the last fault
FAULTS = (subjects.STREAM, "meta", subjects.TURNS_STREAM)  # whose leader is killed, in order


def options_for(game: dict[str, Any]) -> dict[str, Any]:
    """``HANDS`` hands where the game has a match length to set."""
    names = {o["name"] for o in game["variants"][0].get("options", [])}
    return {"hands": HANDS} if "hands" in names else {}


def assert_clean_stored_log(table_id: str, msgs: list[Stored]) -> list[str]:
    """A stored log without loss or repeat (``assert_clean_log`` on its lines) whose ``paiju
    audit`` is sound; returns the command id of each event, by index."""
    lines = log_lines(msgs)
    assert_clean_log(lines)
    report = audit(line for m in msgs for line in m.data.decode().split("\n"))
    assert report.verdict == "sound", (table_id, describe(report))
    return [headers[subjects.H_COMMAND] for headers, _ in lines[1:]]


def service_lines(folder: Path, prefix: str) -> list[dict[str, Any]]:
    """Every JSON line the copies of a service logged (a restarted copy appends to its file)."""
    out = []
    for path in sorted(folder.glob(f"{prefix}-*.log")):
        for line in path.read_text(errors="replace").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def answers_beyond_the_stream(
    lines: Iterable[dict[str, Any]], stored: dict[str, list[str]]
) -> list[dict[str, Any]]:
    """The answers of the table-service copies (a seat's command, accepted or ``duplicate``, and
    a table step) that name events the stream does not hold under that command: what a copy whose
    memory ran ahead of its stream would answer."""
    wrong = []
    for line in lines:
        kind, table = line.get("msg"), line.get("table")
        if kind not in ("command", "table step") or table not in stored:
            continue
        commands, index, count = stored[table], line["index"], line["events"]
        held = commands[index : index + count]
        if kind == "command":
            ok = held == [f"seat{line['seat']}.{line['id']}"] * count
        else:
            ok = len(held) == count and len(set(held)) == 1 and held[0].startswith("table.")
        if not ok or count == 0:
            wrong.append(line)
    return wrong


@dataclass
class Fault:
    role: str  # the stream whose leader was killed, or "meta"
    node: str
    at: float  # seconds since the load began
    playing: int  # tables still playing when it was made


async def statuses(http: httpx.AsyncClient, tables: list[str]) -> dict[str, str]:
    """Each table's status in the directory, as the gateway answers it (a table it cannot answer
    for now counts as not finished)."""

    async def one(table_id: str) -> str:
        try:
            return str((await http.get(f"/api/tables/{table_id}")).json().get("status"))
        except (httpx.HTTPError, ValueError):
            return "unknown"

    return dict(zip(tables, await asyncio.gather(*(one(t) for t in tables)), strict=True))


async def wait_healthy(
    http: httpx.AsyncClient, launcher: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.monotonic() + 120
    while True:
        assert launcher.poll() is None, log.read_text()[-3000:]
        try:
            if (await http.get("/api/health")).json().get("status") == "ok":
                return
        except (httpx.HTTPError, ValueError):
            pass
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        await asyncio.sleep(0.3)


async def start_tables(http: httpx.AsyncClient, ws: str) -> dict[str, tuple[str, Socket]]:
    """``TABLES_PER_GAME`` bot tables of every game, each watched by a spectator from before its
    first move: table → (game, spectator)."""
    tables: dict[str, tuple[str, Socket]] = {}
    for game in (await http.get("/api/games")).json():
        for _ in range(TABLES_PER_GAME):
            created = await http.post(
                "/api/tables",
                json={
                    "game": game["id"],
                    "players": game["variants"][0]["players"][0],
                    "options": options_for(game),
                },
            )
            assert created.status_code == 201, created.text
            table = created.json()
            spectator = await Socket.open(ws, table["id"])
            headers = {"Authorization": f"Bearer {table['owner_token']}"}
            r = await http.post(f"/api/tables/{table['id']}/bots", json={}, headers=headers)
            assert r.status_code in (200, 201), r.text
            tables[table["id"]] = (game["id"], spectator)
    return tables


async def turns_drained(js: JetStreamContext, timeout: float = 30.0) -> None:
    """Wait until ``PAIJU_TURNS`` holds no turn and the bots' consumer none pending or
    unacknowledged: every turn offered was taken, none left behind a consumer that lost track."""
    deadline = time.monotonic() + timeout
    while True:
        stream = await js.stream_info(subjects.TURNS_STREAM)
        consumer = await js.consumer_info(subjects.TURNS_STREAM, subjects.BOTS_CONSUMER)
        figures = (stream.state.messages, consumer.num_pending, consumer.num_ack_pending)
        if figures == (0, 0, 0):
            return
        assert time.monotonic() < deadline, (
            "PAIJU_TURNS not drained: messages, pending, unacknowledged",
            figures,
        )
        await asyncio.sleep(0.5)


async def connect_operator(root: Path, clients: list[int]) -> Client:
    """A NATS connection with the operator's credentials the launcher generated, over TLS."""
    operator = (root / "secrets" / "operator.password").read_text().strip()
    tls = bus.tls_options(Settings(tls_ca=str(root / "secrets" / "ca.pem")))
    return await nats.connect(  # credentials as options: they go to the servers it discovers too
        [f"tls://127.0.0.1:{p}" for p in clients],
        user="operator",
        password=operator,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.2,
        **tls,
    )


async def test_every_table_finishes_soon_after_cluster_nodes_are_killed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, clients, monitors, http_port = write_cluster(tmp_path, bot_delay=BOT_DELAY)
    launcher_log = tmp_path / "launcher.log"
    launcher = start_launcher(config, launcher_log)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{http_port}", timeout=20) as http:
            await wait_healthy(http, launcher, launcher_log)
            nc = await connect_operator(tmp_path, clients)
            try:
                tables, faults, finished_at = await play_through_faults(
                    http, nc.jetstream(), monitors, launcher_log, http_port
                )
                stored = await check_what_was_stored(tmp_path, nc, tables)
            finally:
                await nc.close()
        with capsys.disabled():
            report(tables, faults, finished_at, stored, tmp_path / "log")
        assert all(f.playing for f in faults), "a fault came after every table had finished"
        assert launcher.poll() is None, "the launcher stopped"
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(60)
        except subprocess.TimeoutExpired:
            launcher.kill()


async def play_through_faults(
    http: httpx.AsyncClient,
    js: JetStreamContext,
    monitors: list[int],
    launcher_log: Path,
    http_port: int,
) -> tuple[dict[str, tuple[str, Socket]], list[Fault], dict[str, float]]:
    """Bot tables of every game, the faults (``FAULTS``, each once the cluster is whole again),
    then every table finished within ``FINISH_AFTER_FAULT`` of the last: (tables, faults, each
    table's finish in seconds after the last fault)."""
    await wait_whole(js, monitors)
    began = time.monotonic()
    tables = await start_tables(http, f"ws://127.0.0.1:{http_port}")
    ids = list(tables)
    watchers = [asyncio.create_task(watch_to_the_end(s, 3600)) for _, s in tables.values()]
    faults: list[Fault] = []
    for role in FAULTS:
        await asyncio.sleep(1.0)  # the tables play on the whole cluster a while
        leader = meta_leader(monitors) if role == "meta" else await stream_leader(js, role)
        assert leader, f"no leader of {role}"
        playing = sum(s != "finished" for s in (await statuses(http, ids)).values())
        faults.append(Fault(role, leader, time.monotonic() - began, playing))
        await kill_and_wait(launcher_log, leader)
        await wait_whole(js, monitors)
    last_fault = began + faults[-1].at
    finished_at: dict[str, float] = {}
    while len(finished_at) < len(ids):
        now = time.monotonic()
        for table_id, status in (await statuses(http, ids)).items():
            if status == "finished" and table_id not in finished_at:
                finished_at[table_id] = now - last_fault
        late = [t for t in ids if t not in finished_at]
        assert not late or now - last_fault < FINISH_AFTER_FAULT, (
            f"{len(late)} of {len(ids)} tables not finished {FINISH_AFTER_FAULT:.0f}s after the "
            f"last fault: {[(t, tables[t][0]) for t in late]}"
        )
        await asyncio.sleep(0.5)
    await asyncio.wait_for(asyncio.gather(*watchers), 30)
    return tables, faults, finished_at


async def check_what_was_stored(
    root: Path, nc: Client, tables: dict[str, tuple[str, Socket]]
) -> dict[str, list[str]]:
    """Each table's stored log whole and seen whole by its spectator, every copy's answer in the
    stream, the turns drained, no permission violated: each table's command ids, by index."""
    store = EventStore(nc, nc.jetstream())
    stored = {}
    for table_id, (_, spectator) in tables.items():
        await spectator.close()
        assert_every_index_once(spectator.frames)
        stored[table_id] = assert_clean_stored_log(table_id, await store.read(table_id))
    wrong = answers_beyond_the_stream(service_lines(root / "log", "tables"), stored)
    assert not wrong, f"answers naming events the stream does not hold: {wrong[:5]}"
    await turns_drained(nc.jetstream())
    for node_log in (root / "log").glob("nats-*.log"):  # every service within its permissions
        violations = [line for line in node_log.read_text().splitlines() if "Violation" in line]
        assert not violations, violations[:5]
    return stored


def longest_stops(lines: list[dict[str, Any]], tables: set[str]) -> dict[str, float]:
    """Each table's longest wait between two of its commands or steps, in seconds (from the
    times the table-service copies logged them)."""
    times: dict[str, list[float]] = {t: [] for t in tables}
    for line in lines:
        if line.get("msg") in ("command", "table step") and line.get("table") in tables:
            times[line["table"]].append(datetime.datetime.fromisoformat(line["ts"]).timestamp())
    return {
        t: max((b - a for a, b in itertools.pairwise(sorted(v))), default=0.0)
        for t, v in times.items()
    }


def report(
    tables: dict[str, tuple[str, Socket]],
    faults: list[Fault],
    finished_at: dict[str, float],
    stored: dict[str, list[str]],
    logs: Path,
) -> None:
    """The run's figures, on the test's output."""
    copies, bots = service_lines(logs, "tables"), service_lines(logs, "bots")
    after = sorted(finished_at.values())
    said = Counter(line.get("msg") for line in copies + bots)
    print()
    print(
        f"cluster faults: {len(tables)} bot tables ({len({g for g, _ in tables.values()})} "
        f"games), {sum(map(len, stored.values()))} events"
    )
    for fault in faults:
        print(
            f"  kill -9 {fault.node} (leader of {fault.role}) at {fault.at:.1f}s, "
            f"{fault.playing} tables playing"
        )
    print(
        f"  finished after the last fault: median {statistics.median(after):.1f}s, "
        f"last {after[-1]:.1f}s (bound {FINISH_AFTER_FAULT:.0f}s); longest stop of a table "
        f"{max(longest_stops(copies, set(tables)).values()):.1f}s"
    )
    print(
        "  "
        + ", ".join(
            f"{msg}: {said[msg]}"
            for msg in (
                "append outcome unknown",
                "turn not offered",
                "copy ahead of the stream",
                "bot move not taken",
                "fetch failed",
            )
        )
    )
