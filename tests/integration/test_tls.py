"""TLS where the services cross hosts (paiju_services.tls): the launcher, given ``[nats] tls =
true``, makes a CA and a certificate per node at every start and runs a 3-node cluster whose routes
and client ports speak only TLS. The services connect with the CA (``--tls-ca``) and a match plays
to the end; a plain connection and one that trusts another CA are refused; the routes between the
nodes are TLS, verified both ways (a route without a certificate of the CA, or in clear, is turned
away, and the nodes are routed to each other all the same).

The cluster is the one test_cluster.py starts (its config, with ``tls = true`` added).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
import signal
import socket
import ssl
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import nats
import nats.errors
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from nats.aio.client import Client

from integration.cluster import start_launcher, write_cluster
from integration.harness import assert_clean_log, log_lines, until
from paiju_services import bus, subjects, tls
from paiju_services.config import Settings
from paiju_services.store import EventStore


@dataclass
class Cluster:
    root: Path
    clients: list[int]  # the nodes' client ports
    monitors: list[int]  # their monitoring ports
    routes: list[int]  # their route ports
    http: str  # the gateway
    launcher: subprocess.Popen[bytes]
    log: Path

    @property
    def secrets(self) -> Path:
        return self.root / "secrets"

    def monitor(self, node: int, path: str) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.monitors[node]}/{path}"
        with urllib.request.urlopen(url, timeout=5) as response:
            data: dict[str, Any] = json.loads(response.read())
        return data

    def node_log(self, node: int) -> str:
        return (self.root / "log" / f"nats-n{node + 1}.log").read_text(errors="replace")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    root = tmp_path_factory.mktemp("tls")
    config, clients, monitors, http_port = write_cluster(root, tls=True)
    routes = [route_port(conf) for conf in sorted(root.glob("n*.conf"))]
    log = root / "launcher.log"
    launcher = start_launcher(config, log)
    system = Cluster(
        root, clients, monitors, routes, f"http://127.0.0.1:{http_port}", launcher, log
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert launcher.poll() is None, log.read_text()[-3000:]
            try:
                if httpx.get(f"{system.http}/api/health", timeout=2).json()["status"] == "ok":
                    break
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        yield system
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(60)
        except subprocess.TimeoutExpired:
            launcher.kill()


def route_port(conf: Path) -> int:
    match = re.search(r"cluster \{[^}]*?listen: [\d.]+:(\d+)", conf.read_text())
    assert match, conf.read_text()
    return int(match[1])


@pytest.fixture
async def operator(cluster: Cluster) -> AsyncIterator[Client]:
    """A connection as the operator, the way the services connect (bus.tls_options)."""
    settings = Settings(tls_ca=str(cluster.secrets / "ca.pem"))
    password = (cluster.secrets / "operator.password").read_text().strip()
    nc = await nats.connect(
        [f"tls://127.0.0.1:{p}" for p in cluster.clients],
        user="operator",
        password=password,
        allow_reconnect=False,
        **bus.tls_options(settings),
    )
    yield nc
    await nc.close()


def foreign_node(folder: Path) -> tls.NodeFiles:
    """A node certificate for 127.0.0.1 from a CA of its own (not the cluster's)."""
    folder.mkdir(exist_ok=True)
    return tls.write_tls(folder, {"stranger": ["127.0.0.1", "localhost"]})["stranger"]


async def logged(cluster: Cluster, node: int, text: str, before: int) -> None:
    """Wait (a few seconds at most) for ``text`` to be in the node's log more than ``before``
    times."""
    deadline = time.monotonic() + 5
    while cluster.node_log(node).count(text) <= before:
        assert time.monotonic() < deadline, f"n{node + 1} did not log {text!r}"
        await asyncio.sleep(0.05)


def route_hello(port: int, context: ssl.SSLContext | None) -> bytes:
    """What a node's route port sends a newcomer (over TLS with ``context``, else in clear, after
    a plain CONNECT): its INFO line once it accepts the route, b"" when it closes the connection.

    Raises:
        ssl.SSLError: the node refused the TLS handshake.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        if context is None:
            raw.sendall(b'CONNECT {"verbose":false}\r\nPING\r\n')
            return raw.recv(4096)
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as conn:
            return conn.recv(4096)  # TLS 1.3: a refused certificate shows on the first read


# --- the certificates, as files ------------------------------------------------------------------


def test_the_launcher_writes_a_ca_and_a_short_lived_p256_certificate_per_node(
    cluster: Cluster,
) -> None:
    assert "TLS certificates for 3 NATS node(s)" in cluster.log.read_text()
    folder = cluster.secrets
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    names = {p.name for p in folder.iterdir()}
    assert {"ca.pem", "n1-cert.pem", "n1-key.pem", "n3-key.pem"} <= names
    assert not any("ca-key" in n or n == "ca.key" for n in names), names  # never written
    for path in folder.glob("*.pem"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    ca = x509.load_pem_x509_certificate((folder / "ca.pem").read_bytes())
    cert = x509.load_pem_x509_certificate((folder / "n2-cert.pem").read_bytes())
    key = serialization.load_pem_private_key((folder / "n2-key.pem").read_bytes(), None)
    assert isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name == "secp256r1"
    assert cert.issuer == ca.subject
    cert.verify_directly_issued_by(ca)
    lifetime = cert.not_valid_after_utc - cert.not_valid_before_utc
    assert lifetime <= datetime.timedelta(days=tls.VALID_DAYS) + tls.SKEW
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "localhost" in san.get_values_for_type(x509.DNSName)
    assert [str(ip) for ip in san.get_values_for_type(x509.IPAddress)] == ["127.0.0.1"]


# --- the services, over TLS ----------------------------------------------------------------------


async def test_the_services_connect_over_tls_and_a_match_plays_to_the_end(
    cluster: Cluster, operator: Client
) -> None:
    async with httpx.AsyncClient(base_url=cluster.http, timeout=20) as http:
        created = await http.post("/api/tables", json={"game": "guanpai", "players": 3})
        assert created.status_code == 201, created.text
        table = created.json()
        headers = {"Authorization": f"Bearer {table['owner_token']}"}
        r = await http.post(f"/api/tables/{table['id']}/bots", json={}, headers=headers)
        assert r.status_code in (200, 201), r.text
        deadline = time.monotonic() + 60
        while (await http.get(f"/api/tables/{table['id']}")).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not finish"
            await asyncio.sleep(0.3)
    msgs = await EventStore(operator, operator.jetstream()).read(table["id"])
    assert_clean_log(log_lines(msgs))
    info = await operator.jetstream().stream_info(subjects.STREAM)
    assert info.config.num_replicas == 3

    # every connection on every node, the five services' included, is TLS 1.3 (a copy whose first
    # attempt failed may connect a little later: bus.connect's bound). A connection still in its
    # handshake is listed without a TLS version yet: asked again, until none is (a plain one
    # stays so, and the wait fails)
    def names() -> set[str]:
        found: set[str] = set()
        for node in range(3):
            for conn in cluster.monitor(node, "connz?limit=1024")["connections"]:
                if conn.get("tls_version") is None:
                    return set()  # not known yet
                assert conn["tls_version"] == "1.3", conn
                found.add(conn.get("name", ""))
        return found

    services = {"tables-1", "tables-2", "bots-1", "bots-2", "gateway-1"}
    await until(f"the five services on the nodes: {services}", lambda: services <= names(), 60)


async def test_a_plain_connection_is_refused(cluster: Cluster) -> None:
    port = cluster.clients[0]
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        info = json.loads(raw.recv(4096).split(b" ", 1)[1])
        assert info["tls_required"] is True
        password = (cluster.secrets / "operator.password").read_text().strip()
        connect = {"verbose": True, "user": "operator", "pass": password}
        raw.sendall(f"CONNECT {json.dumps(connect)}\r\nPING\r\n".encode())
        assert raw.recv(4096) == b"", "the node answered a client in clear"
        mine = raw.getsockname()[1]

    def closed() -> dict[str, Any] | None:
        conns = cluster.monitor(0, "connz?state=closed&limit=1024")["connections"]
        return next((c for c in conns if c["port"] == mine), None)

    deadline = time.monotonic() + 5
    while (conn := closed()) is None:
        assert time.monotonic() < deadline, "the node did not list the connection as closed"
        await asyncio.sleep(0.05)
    assert conn["reason"] == "TLS Handshake Failure", conn
    assert not conn.get("authorized_user"), conn  # the password was never read


async def test_a_tls_connection_that_trusts_another_ca_is_refused(
    cluster: Cluster, tmp_path: Path
) -> None:
    stranger = foreign_node(tmp_path / "other")
    password = (cluster.secrets / "operator.password").read_text().strip()
    for handshake_first in (True, False):
        context = ssl.create_default_context(cafile=str(stranger.ca))
        with pytest.raises(ssl.SSLCertVerificationError):
            await nats.connect(
                f"tls://127.0.0.1:{cluster.clients[1]}",
                user="operator",
                password=password,
                tls=context,
                tls_handshake_first=handshake_first,
                allow_reconnect=False,
                connect_timeout=3,
            )
    # and the services' way with the right CA but no password: TLS is not a password
    settings = Settings(tls_ca=str(cluster.secrets / "ca.pem"))
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await nats.connect(
            f"tls://127.0.0.1:{cluster.clients[1]}",
            allow_reconnect=False,
            connect_timeout=3,
            **bus.tls_options(settings),
        )


# --- the routes ----------------------------------------------------------------------------------


async def test_the_routes_are_tls_and_verified_both_ways(cluster: Cluster, tmp_path: Path) -> None:
    for node in range(3):
        varz = cluster.monitor(node, "varz")["cluster"]
        assert varz["tls_required"] is True and varz["tls_verify"] is True, varz
        remotes = {r["remote_name"] for r in cluster.monitor(node, "routez")["routes"]}
        assert remotes == {f"n{i + 1}" for i in range(3)} - {f"n{node + 1}"}, remotes

    port = cluster.routes[0]
    # in clear: the node expects a TLS handshake and hangs up
    before = cluster.node_log(0).count("TLS route handshake error")
    assert route_hello(port, None) == b""
    await logged(cluster, 0, "TLS route handshake error", before)
    # TLS that trusts the cluster's CA but shows no certificate, or one of another CA
    context = ssl.create_default_context(cafile=str(cluster.secrets / "ca.pem"))
    with pytest.raises(ssl.SSLError, match="CERTIFICATE_REQUIRED"):
        route_hello(port, context)
    stranger = foreign_node(tmp_path / "other")
    context.load_cert_chain(stranger.cert, stranger.key)
    with pytest.raises(ssl.SSLError):
        route_hello(port, context)
    # a node's own certificate is let in: the route protocol starts, inside TLS
    context = ssl.create_default_context(cafile=str(cluster.secrets / "ca.pem"))
    context.load_cert_chain(cluster.secrets / "n2-cert.pem", cluster.secrets / "n2-key.pem")
    hello = route_hello(port, context)
    assert hello.startswith(b"INFO "), hello
    assert json.loads(hello.split(b" ", 1)[1])["server_name"] == "n1"


# --- the config the launcher writes ----------------------------------------------------------------


def test_server_conf_puts_tls_in_the_cluster_block_and_keeps_includes(tmp_path: Path) -> None:
    base_dir = tmp_path / "base"
    base_dir.mkdir()
    (base_dir / "limits.conf").write_text("max_payload: 1MB\n")
    base = base_dir / "node.conf"
    base.write_text(
        "listen: 10.1.2.3:4222\ninclude limits.conf\n"
        "cluster {\n  name: c\n  listen: 0.0.0.0:6222\n}\n"
    )
    secrets = tmp_path / "secrets"
    hosts = tls.node_hosts(base.read_text())
    assert hosts[:3] == ["127.0.0.1", "localhost", "10.1.2.3"]
    assert hosts[3] == socket.gethostname()  # the wildcard route address
    files = tls.write_tls(secrets, {"node": hosts})["node"]
    conf = tls.server_conf(secrets, base, files, auth=True).read_text()
    in_cluster = re.search(r"^cluster \{\n\s*tls (\{.*\})$", conf, re.M)
    assert in_cluster, conf
    routes = json.loads(in_cluster[1])
    assert routes["verify"] is True and routes["ca_file"] == str(files.ca.resolve())
    on_clients = re.search(r"^tls (\{.*\})$", conf, re.M)
    assert on_clients, conf
    clients = json.loads(on_clients[1])
    assert clients["handshake_first"] == "auto" and "verify" not in clients
    assert clients["cert_file"] == str(files.cert.resolve())
    assert 'include "../base/limits.conf"' in conf  # nats-server reads it beside the config
    assert conf.rstrip().endswith('include "auth.conf"')
    nats_server = Path(sys.executable).parent / "nats-server"
    (secrets / "auth.conf").write_text("")
    checked = subprocess.run(
        [str(nats_server), "-c", str(secrets / "node.conf"), "-t"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

    base.write_text('listen: 127.0.0.1:4222\ntls { cert_file: "mine.pem" }\n')
    with pytest.raises(ValueError, match="its own tls block"):
        tls.server_conf(secrets, base, files, auth=False)
