"""The 3-node cluster holds: every catalogued game plays to the end with bots, with two copies of
the table and bots services, while nats-server nodes are killed (-9) and restarted by the launcher
— first the stream's leader, then the JetStream meta leader. Every log is then clean (no gap, no
repeat, each command once), audits sound, and a spectator of each table saw every index once, in
order.

The system is started the way `python -m paiju_services.launcher deploy/cluster.toml` starts it,
from a config written here with free ports and a temporary store — with its NATS users and TLS on
the routes and the client ports, so the kills and reconnections are made over TLS too.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx
import nats
from e2e.stack import free_port

from integration.harness import Socket, assert_clean_log, raw_log
from paiju import log as paiju_log
from paiju_services import bus, subjects
from paiju_services.config import Settings

NODES = 3
STARTED = re.compile(r"started nats-(n\d) \(pid (\d+)\)")


def write_cluster(root: Path, tls: bool = True) -> tuple[Path, list[int], list[int], int]:
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
        "[settings]\nreplicas = 3\nbot_delay = 0\nsweep_interval = 0.5\n\n"
        '[[process]]\nname = "tables"\nservice = "tables"\ncopies = 2\n\n'
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


def meta_leader(monitors: list[int]) -> str | None:
    for port in monitors:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/jsz", timeout=2) as r:
                leader = json.loads(r.read()).get("meta_cluster", {}).get("leader")
        except OSError:
            continue
        if leader:
            return str(leader)
    return None


async def stream_leader(urls: list[str], **options: Any) -> str | None:
    nc = await nats.connect(urls, **options)
    try:
        info = await nc.jetstream().stream_info(subjects.STREAM)
        return info.cluster.leader if info.cluster else None
    finally:
        await nc.close()


async def kill_and_wait(log: Path, node: str, timeout: float = 30.0) -> None:
    """kill -9 a node; return once the launcher has started it again."""
    before = node_pids(log)[node]
    os.kill(before, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while node_pids(log).get(node) == before:
        assert time.monotonic() < deadline, f"the launcher did not restart {node}"
        await asyncio.sleep(0.2)


def options_for(game: dict[str, Any]) -> dict[str, Any]:
    """One hand where the game has a match length to set."""
    names = {o["name"] for o in game["variants"][0].get("options", [])}
    return {"hands": 1} if "hands" in names else {}


async def watch_to_the_end(sock: Socket, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not any(f["type"] == "over" for f in sock.frames):
        await sock.recv(max(0.1, deadline - time.monotonic()))


def assert_every_index_once(frames: list[dict[str, Any]]) -> None:
    """The indexes a spectator was sent after events run one by one, without gap or repeat."""
    seen = [f["index"] for f in frames if f["type"] == "state" and f.get("event")]
    assert seen, "the spectator saw no event"
    assert seen == list(range(seen[0], seen[0] + len(seen))), seen


async def test_every_game_plays_to_the_end_while_cluster_nodes_are_killed(tmp_path: Path) -> None:
    config, clients, monitors, http_port = write_cluster(tmp_path)
    launcher_log = tmp_path / "launcher.log"
    launcher = start_launcher(config, launcher_log)
    base = f"http://127.0.0.1:{http_port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=20) as http:
            deadline = time.monotonic() + 120
            while True:
                assert launcher.poll() is None, launcher_log.read_text()[-3000:]
                try:
                    if (await http.get("/api/health")).json().get("status") == "ok":
                        break
                except (httpx.HTTPError, ValueError):
                    pass
                assert time.monotonic() < deadline, launcher_log.read_text()[-3000:]
                await asyncio.sleep(0.3)

            # the test checks as an operator, with the credentials the launcher generated
            operator = (tmp_path / "secrets" / "operator.password").read_text().strip()
            urls = [f"tls://operator:{operator}@127.0.0.1:{p}" for p in clients]
            tls = bus.tls_options(Settings(tls_ca=str(tmp_path / "secrets" / "ca.pem")))
            games = (await http.get("/api/games")).json()
            ws = f"ws://127.0.0.1:{http_port}"
            tables = []
            for game in games:
                # the spectator is there before the first move, so it sees every index
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
                owner = table.get("owner_token")
                headers = {"Authorization": f"Bearer {owner}"} if owner else {}
                r = await http.post(f"/api/tables/{table['id']}/bots", json={}, headers=headers)
                assert r.status_code in (200, 201), r.text
                tables.append((table["id"], spectator))

            await asyncio.sleep(1.0)  # the tables are playing
            leader = await stream_leader(urls, **tls)
            assert leader, "the stream has no leader"
            await kill_and_wait(launcher_log, leader)
            meta = meta_leader(monitors)
            assert meta, "the cluster has no meta leader"
            await kill_and_wait(launcher_log, meta)

            await asyncio.gather(*(watch_to_the_end(s, 240) for _, s in tables))
            for table_id, spectator in tables:
                await spectator.close()
                assert_every_index_once(spectator.frames)
                assert_clean_log(await raw_log(urls[0], table_id, **tls))
                text = (
                    await http.get(f"/api/tables/{table_id}/log", params={"format": "jsonl"})
                ).text
                report = paiju_log.audit(text.splitlines())
                assert report.verdict == "sound", (table_id, paiju_log.describe(report))
            assert launcher.poll() is None, "the launcher stopped"
            # every service did its work within its NATS permissions (paiju_services.access)
            for node_log in (tmp_path / "log").glob("nats-*.log"):
                violations = [
                    line for line in node_log.read_text().splitlines() if "Violation" in line
                ]
                assert not violations, violations[:5]
            assert "restarting (#1)" in launcher_log.read_text()
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(60)
        except subprocess.TimeoutExpired:
            launcher.kill()
