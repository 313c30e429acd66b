"""A 3-node cluster started the way ``python -m paiju_services.launcher deploy/cluster.toml``
starts one, from a config written with free ports and a temporary store, and what a test asks of
its nodes: their pids as the launcher last started them, a kill -9 and the restart, the JetStream
meta leader and each stream's, and whether the cluster is whole again after a fault."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import nats
from nats.js import JetStreamContext

from harness import BROTLI_QUALITY, STATIC_CACHE, free_port
from integration.harness import until
from paiju_services import subjects

NODES = 3
STARTED = re.compile(r"started nats-(n\d) \(pid (\d+)\)")


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
    await until(
        f"the launcher to restart {node}",
        lambda: node_pids(log).get(node) != before,
        timeout,
        every=0.2,
    )


async def wait_whole(js: JetStreamContext, monitors: list[int], timeout: float = 60.0) -> None:
    """Wait until the cluster is whole again: a meta leader, and each of the two streams with a
    leader and both its other replicas current (a node back from a kill has caught up), so the
    next fault takes one node of three, never a second one while the first is still away."""

    async def whole() -> bool:
        try:
            return meta_whole(monitors) and all(
                [await _stream_whole(js, s) for s in (subjects.STREAM, subjects.TURNS_STREAM)]
            )
        except (nats.errors.Error, TimeoutError):
            return False

    await until("the cluster to become whole again", whole, timeout, every=0.3)


async def _stream_whole(js: JetStreamContext, stream: str) -> bool:
    cluster = (await js.stream_info(stream)).cluster
    replicas = (cluster.replicas or []) if cluster else []
    return bool(
        cluster
        and cluster.leader
        and len(replicas) == NODES - 1
        and all(r.current and not r.offline for r in replicas)
    )
