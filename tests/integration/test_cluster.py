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
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
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

from harness import BROTLI_QUALITY, STATIC_CACHE, free_port
from integration.harness import Socket
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju_services import bus, subjects
from paiju_services.config import Settings
from paiju_services.store import EventStore, Stored
from paiju_services.stored import line_types

# run after the other tests, one at a time (make test):
# it kills nats-server nodes and bounds how long tables stall
pytestmark = pytest.mark.alone

NODES = 3
STARTED = re.compile(r"started nats-(n\d) \(pid (\d+)\)")
TABLES_PER_GAME = 2
HANDS = 1
BOT_DELAY = 0.2  # seconds a bot thinks: the matches outlast the faults
FINISH_AFTER_FAULT = 60.0  # seconds: every table has finished this long after the last fault
FAULTS = (subjects.STREAM, "meta", subjects.TURNS_STREAM)  # whose leader is killed, in order


def write_cluster(
    root: Path,
    tls: bool = True,
    bot_delay: float = 0.0,
    sweep_interval: float = 0.5,
    tables: int = 2,
) -> tuple[Path, list[int], list[int], int]:
    """A launcher config for a 3-node cluster under ``root``: (config, client ports, monitoring
    ports, the gateway's port). ``tls``: as deploy/cluster.toml, TLS on the routes and the client
    ports (the launcher makes the CA and the certificates into ``root``/secrets)."""
    clients = [free_port() for _ in range(NODES)]
    monitors = [free_port() for _ in range(NODES)]
    routes = [free_port() for _ in range(NODES)]
    confs = []
    for i in range(NODES):
        conf = root / f"n{i + 1}.conf"
        conf.write_text(
            f"server_name: n{i + 1}\nlisten: 127.0.0.1:{clients[i]}\n"
            f"http: 127.0.0.1:{monitors[i]}\nmax_payload: 1MB\n"
            f'jetstream {{\n  store_dir: "{root / f"js{i + 1}"}"\n  max_file_store: 1GB\n'
            "  max_memory_store: 64MB\n}\n"
            f"cluster {{\n  name: paiju-test\n  listen: 127.0.0.1:{routes[i]}\n  routes: [\n"
            + "".join(f"    nats-route://127.0.0.1:{p}\n" for p in routes)
            + "  ]\n}\n"
        )
        confs.append(conf)
    http_port = free_port()
    url = ",".join(f"nats://127.0.0.1:{p}" for p in clients)
    config = root / "cluster.toml"
    config.write_text(
        f'logs = "{root / "log"}"\n\n'
        f'[nats]\ntls = {str(tls).lower()}\nurl = "{url}"\nservers = [{", ".join(json.dumps(str(c)) for c in confs)}]\n\n'
        f'[settings]\nreplicas = 3\nlog_level = "DEBUG"\nbot_delay = {bot_delay}\nsweep_interval = {sweep_interval}\n'
        f'static_cache = "{STATIC_CACHE}"\nbrotli_quality = {BROTLI_QUALITY}\n\n'
        f'[[process]]\nname = "tables"\nservice = "tables"\ncopies = {tables}\n\n'
        '[[process]]\nname = "bots"\nservice = "bots"\ncopies = 2\n\n'
        f'[[process]]\nname = "gateway"\nservice = "gateway"\ncopies = 1\nport = {http_port}\n'
    )
    return config, clients, monitors, http_port


def start_launcher(config: Path, log: Path) -> subprocess.Popen[bytes]:
    """``python -m paiju_services.launcher config``, its output into ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "paiju_services.launcher", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def node_pids(log: Path) -> dict[str, int]:
    """Each node's pid as the launcher last started it."""
    return {m[1]: int(m[2]) for m in STARTED.finditer(log.read_text())}


def meta_cluster(port: int) -> dict[str, Any] | None:
    """What a node's ``/jsz`` says of the JetStream meta group (None: it does not answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/jsz", timeout=2) as r:
            meta: dict[str, Any] = json.loads(r.read()).get("meta_cluster", {})
            return meta
    except (OSError, ValueError):
        return None


def meta_leader(monitors: list[int]) -> str | None:
    """The JetStream meta leader, as the first node that answers its ``/jsz`` says."""
    for port in monitors:
        leader = (meta_cluster(port) or {}).get("leader")
        if leader:
            return str(leader)
    return None


def meta_whole(monitors: list[int]) -> bool:
    """Every node answers its ``/jsz`` and names the same meta leader (a node back from a kill
    has rejoined the meta group)."""
    leaders = {(meta_cluster(port) or {}).get("leader") for port in monitors}
    return len(leaders) == 1 and None not in leaders and "" not in leaders


async def stream_leader(js: JetStreamContext, stream: str) -> str | None:
    info = await js.stream_info(stream)
    return info.cluster.leader if info.cluster else None


async def kill_and_wait(log: Path, node: str, timeout: float = 30.0) -> None:
    """kill -9 a node; return once the launcher has started it again."""
    before = node_pids(log)[node]
    os.kill(before, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while node_pids(log).get(node) == before:
        assert time.monotonic() < deadline, f"the launcher did not restart {node}"
        await asyncio.sleep(0.2)


async def wait_whole(js: JetStreamContext, monitors: list[int], timeout: float = 60.0) -> None:
    """Wait until the cluster is whole again: a meta leader, and each of the two streams with a
    leader and both its other replicas current (a node back from a kill has caught up), so the
    next fault takes one node of three, never a second one while the first is still away."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if meta_whole(monitors) and all(
                [await _stream_whole(js, s) for s in (subjects.STREAM, subjects.TURNS_STREAM)]
            ):
                return
        except (nats.errors.Error, TimeoutError):
            pass
        assert time.monotonic() < deadline, "the cluster did not become whole again"
        await asyncio.sleep(0.3)


async def _stream_whole(js: JetStreamContext, stream: str) -> bool:
    cluster = (await js.stream_info(stream)).cluster
    replicas = (cluster.replicas or []) if cluster else []
    return bool(
        cluster
        and cluster.leader
        and len(replicas) == NODES - 1
        and all(r.current and not r.offline for r in replicas)
    )


def options_for(game: dict[str, Any]) -> dict[str, Any]:
    """``HANDS`` hands where the game has a match length to set."""
    names = {o["name"] for o in game["variants"][0].get("options", [])}
    return {"hands": HANDS} if "hands" in names else {}


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


def assert_clean_stored_log(table_id: str, msgs: list[Stored]) -> list[str]:
    """A stored log without loss or repeat (the header line, then lines at ``Paiju-Index``
    0..N-1, a message's lines the types its ``Paiju-Type`` names, each command once), whose
    ``paiju audit`` is sound; returns the command id of each event, by index."""
    lines = [line for m in msgs for line in m.data.decode().split("\n")]
    assert lines and json.loads(lines[0])["type"] == "paiju_log", table_id
    assert [json.loads(line)["type"] for line in lines] == [
        t for m in msgs for t in line_types(m.headers)
    ], table_id
    starts = [int(m.headers[subjects.H_INDEX]) for m in msgs]
    sizes = [len(line_types(m.headers)) for m in msgs]
    assert starts == [sum(sizes[:i]) - 1 for i in range(len(msgs))], (table_id, starts)
    commands = [m.headers[subjects.H_COMMAND] for m in msgs[1:]]
    repeated = [c for c, n in Counter(commands).items() if n > 1]
    assert not repeated, (table_id, f"commands appended twice: {repeated}")
    commands = [
        m.headers[subjects.H_COMMAND]
        for m in msgs
        for t in line_types(m.headers)
        if t != "paiju_log"
    ]
    report = audit(lines)
    assert report.verdict == "sound", (table_id, describe(report))
    return commands


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
