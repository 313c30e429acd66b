"""The one harness of every test that runs the real system: a nats-server with JetStream on a free
port in a temporary folder, and the services as real processes, each logging JSON lines to a file
the tests can read. Two ways to start them:

- ``Stack`` / ``start_stack``: nats-server and each service started one by one
  (``python -m paiju_services SERVICE``), so that a test can add copies, kill, pause or restart any
  of them (the integration tests);
- ``Launched`` / ``start_launched`` / ``running_launched``: the whole system started the way
  ``make run`` starts it, ``python -m paiju_services.launcher CONFIG``, with a config written here
  (the browser tests, the launcher's own tests, the browser bench).

``integration.harness`` adds the HTTP and WebSocket clients, ``e2e.stack`` the pages' helpers and
Chromium. Also here: free ports, polling with a deadline, and the gateway's static cache made once
before the first gateway starts.

Why the cache: a gateway compresses the files it serves (Pyodide, the wheel, the web client) into
``var/static/`` once per content, the brotli copy of Pyodide's 9.6 MB wasm taking some 30 s of a
core in a background thread. A test's gateway lives a few seconds: each one started that copy and
was stopped before it finished, so on a fresh clone every stack of the suite burned most of a core
on it for its whole life (measured: 16 s of CPU in a 45 s test). ``warm_static_cache`` makes every
copy once, to the end, before the first gateway of the process starts; later gateways (of this
process or another sharing the folder) find them all and compress nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from paiju_services.config import Settings
from paiju_services.gateway.static import StaticFiles
from paiju_services.launcher import nats_env
from paiju_services.ports import free_port

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("PAIJU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
BOT_DELAY = 0.15  # seconds a bot waits before it plays: quick tests, yet every state is seen
AUTO_DELAY = 0.2  # seconds before the server plays a seat in 托管 (1 s in a product)
# the test stacks' compressed static copies: a folder of their own, at a brotli quality that makes
# Pyodide's in a second rather than 30 s of CPU (what a test checks is the coding, not the ratio)
STATIC_CACHE = str(ROOT / "var" / "static-test")
BROTLI_QUALITY = 5
T = TypeVar("T")
_warmed: set[str] = set()


def wait_until(
    condition: Callable[[], T | None], timeout: float, what: str, interval: float = 0.05
) -> T:
    """Ask ``condition`` every ``interval`` seconds until it gives something (returned); after
    ``timeout`` seconds a ``TimeoutError`` names ``what`` was awaited. For conditions only a poll
    can see (a server's state over HTTP); a page's own state is awaited with Playwright.

    Raises:
        TimeoutError: ``condition`` gave nothing within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"waited {timeout:.0f}s for {what}")
        time.sleep(interval)


def warm_static_cache(timeout: float = 600.0) -> None:
    """Every compressed copy the test stacks' gateways would make, made now in their cache folder
    (``STATIC_CACHE``, at ``BROTLI_QUALITY``) by the gateway's own code; once per process. A copy
    that another process is making meanwhile is left to it (the gateway's lock files), as a
    gateway would.

    Raises:
        TimeoutError: the copies were not all made within ``timeout`` seconds.
    """
    settings = Settings(static_cache=STATIC_CACHE, brotli_quality=BROTLI_QUALITY)
    if settings.static_cache in _warmed:
        return
    files = StaticFiles.of(settings)
    if not files.make_every_copy(timeout):
        raise TimeoutError(f"the static copies were not made in {timeout:.0f}s")
    _warmed.add(settings.static_cache)


# --- services one by one ------------------------------------------------------------------------


BIN = Path(sys.executable).parent
NATS_SERVER = BIN / "nats-server"


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    """Return once something listens on ``port``.

    Raises:
        RuntimeError: ``proc`` exited, or nothing listened within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


@dataclass
class Proc:
    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL: a crash, no cleanup."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def pause(self) -> None:
        """SIGSTOP: the process hangs (it keeps its connections; nothing it was sent is lost)."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a paused process cannot stop
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def lines(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out


@dataclass
class Stack:
    """nats-server plus services; ``start_*`` adds a process, every process stops at the end."""

    root: Path
    nats_port: int = 0
    gateway_port: int = 0
    procs: list[Proc] = field(default_factory=list)
    nats: Proc | None = None
    count: int = 0

    @property
    def nats_url(self) -> str:
        return f"nats://127.0.0.1:{self.nats_port}"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.gateway_port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.gateway_port}"

    def start_nats(self, again: bool = False) -> None:
        """nats-server with JetStream in the stack's store; ``again``: on the port it had (a
        restart), logging to a file of its own."""
        if not again:
            self.nats_port = free_port()
        store = self.root / "jetstream"
        store.mkdir(parents=True, exist_ok=True)
        log = self.root / ("nats-again.log" if again else "nats.log")
        proc = subprocess.Popen(
            [
                str(NATS_SERVER),
                "-js",
                "-sd",
                str(store),
                "-p",
                str(self.nats_port),
                "-a",
                "127.0.0.1",
            ],
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            env={**os.environ, **nats_env()},  # as the launcher runs it
        )
        self.nats = Proc("nats", proc, log)
        wait_port(self.nats_port, proc)

    def start(self, service: str, *flags: str) -> Proc:
        self.count += 1
        name = f"{service}-{self.count}"
        log = self.root / f"{name}.log"
        argv = [
            sys.executable,
            "-m",
            "paiju_services",
            service,
            "--nats-url",
            self.nats_url,
            "--instance",
            name,
            "--sweep-interval",
            "0.5",
            *flags,
        ]
        if service == "tables":  # its line per command, which tests count (test_failover)
            argv += ["--auto-delay", str(AUTO_DELAY), "--log-level", "DEBUG"]
        if service == "gateway":
            warm_static_cache()
            self.gateway_port = free_port()
            argv += ["--port", str(self.gateway_port), "--static-cache", STATIC_CACHE]
            argv += ["--brotli-quality", str(BROTLI_QUALITY)]
        proc = subprocess.Popen(
            argv, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=os.environ.copy()
        )
        p = Proc(name, proc, log)
        self.procs.append(p)
        self.wait_ready(p)
        return p

    def wait_ready(self, p: Proc, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if p.proc.poll() is not None:
                raise RuntimeError(f"{p.name} exited: {p.log.read_text()[-2000:]}")
            if any(line.get("msg", "").endswith("ready") for line in p.lines()):
                if not p.name.startswith("gateway"):
                    return
                with (
                    contextlib.suppress(OSError),
                    urllib.request.urlopen(f"{self.http}/api/games", timeout=1),
                ):
                    return
            time.sleep(0.05)
        raise RuntimeError(f"{p.name} not ready: {p.log.read_text()[-2000:]}")

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.stop()
        if self.nats is not None:
            self.nats.stop()


def start_stack(root: Path, tables: int = 1, bots: bool = True) -> Stack:
    stack = Stack(root)
    stack.start_nats()
    try:
        for _ in range(tables):
            stack.start("tables")
        if bots:
            stack.start("bots")
        stack.start("gateway")
    except Exception:
        stack.stop()
        raise
    return stack


# --- the system as `make run` starts it ----------------------------------------------------------


@dataclass
class Launched:
    root: Path
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    owners: dict[str, str] = field(default_factory=dict)  # table: owner token (tables api() made)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def api(
        self, path: str, body: Any = None, method: str | None = None, token: str | None = None
    ) -> Any:
        """A JSON request to the gateway (for test set-up and checks, never for what the page
        does). The owner token of a table it created goes with the owner's requests to it
        (``.../bots``, ``.../close``) unless ``token`` is given (sent as the bearer)."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        owned = re.fullmatch(r"/api/tables/([0-9a-f]{16})/(bots|close)", path)
        if token is None and owned:
            token = self.owners.get(owned.group(1))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=data,
            method=method or ("POST" if data is not None else "GET"),
            headers=headers,
        )
        with urllib.request.urlopen(request, timeout=20) as response:
            out = json.loads(response.read())
        if path == "/api/tables" and data is not None and isinstance(out, dict):
            self.owners[out["id"]] = out["owner_token"]
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the launcher stops its children in order
            try:
                self.proc.wait(40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def write_config(root: Path, nats_port: int, http_port: int, bot_delay: float) -> Path:
    nats_conf = root / "nats.conf"
    nats_conf.write_text(
        f"server_name: paiju-e2e\nlisten: 127.0.0.1:{nats_port}\nmax_payload: 1MB\n"
        f'jetstream {{\n  store_dir: "{root / "jetstream"}"\n  max_file_store: 1GB\n'
        "  max_memory_store: 64MB\n}\n"
    )
    config = root / "stack.toml"
    config.write_text(
        f'logs = "{root / "log"}"\n\n'
        f'[nats]\nurl = "nats://127.0.0.1:{nats_port}"\nservers = ["{nats_conf}"]\n\n'
        f"[settings]\nreplicas = 1\nbot_delay = {bot_delay}\nauto_delay = {AUTO_DELAY}\n"
        f'static_cache = "{STATIC_CACHE}"\nbrotli_quality = {BROTLI_QUALITY}\n'
        "sweep_interval = 0.5\n\n"
        '[[process]]\nname = "tables"\nservice = "tables"\ncopies = 1\n\n'
        '[[process]]\nname = "bots"\nservice = "bots"\ncopies = 1\n\n'
        f'[[process]]\nname = "gateway"\nservice = "gateway"\ncopies = 1\nport = {http_port}\n'
    )
    return config


def start_launched(root: Path, bot_delay: float = BOT_DELAY, timeout: float = 90.0) -> Launched:
    """The launcher on a config of free ports under ``root``; returns once the gateway is healthy.

    Raises:
        RuntimeError: the launcher exited or the gateway did not become healthy in time.
    """
    root.mkdir(parents=True, exist_ok=True)
    warm_static_cache()
    http_port = free_port()
    config = write_config(root, free_port(), http_port, bot_delay)
    log = root / "launcher.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "paiju_services.launcher", str(config)],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    stack = Launched(root, http_port, proc, log)

    def healthy() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the launcher exited ({proc.returncode}):\n{log.read_text()[-3000:]}"
            )
        with contextlib.suppress(OSError, ValueError):
            return bool(stack.api("/api/health").get("status") == "ok")
        return False

    try:
        wait_until(healthy, timeout, "the stack to become healthy")
    except TimeoutError as exc:
        stack.stop()
        raise RuntimeError(f"{exc}:\n{log.read_text()[-3000:]}") from None
    return stack


@contextlib.contextmanager
def running_launched(root: Path, bot_delay: float = BOT_DELAY) -> Iterator[Launched]:
    stack = start_launched(root, bot_delay)
    try:
        yield stack
    finally:
        stack.stop()
