"""The whole Paiju system for end-to-end tests and the browser bench, started the way ``make run``
starts it: ``python -m paiju_services.launcher CONFIG``, with a config written here that puts
nats-server on a free port with JetStream in a temporary folder, and the gateway on a free port.

    with running_stack(tmp_dir) as stack:
        page.goto(stack.url)

Also: the Chromium that the tests drive (Debian's, never a downloaded one) and its launch flags.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import ROOT, free_port, wait_until, warm_static_cache

CHROMIUM = os.environ.get("PAIJU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
BOT_DELAY = 0.15  # seconds a bot waits before it plays: quick tests, yet every state is seen


@dataclass
class Stack:
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
        f"[settings]\nreplicas = 1\nbot_delay = {bot_delay}\nsweep_interval = 0.5\n\n"
        '[[process]]\nname = "tables"\nservice = "tables"\ncopies = 1\n\n'
        '[[process]]\nname = "bots"\nservice = "bots"\ncopies = 1\n\n'
        f'[[process]]\nname = "gateway"\nservice = "gateway"\ncopies = 1\nport = {http_port}\n'
    )
    return config


def start_stack(root: Path, bot_delay: float = BOT_DELAY, timeout: float = 90.0) -> Stack:
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
    stack = Stack(root, http_port, proc, log)

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
def running_stack(root: Path, bot_delay: float = BOT_DELAY) -> Iterator[Stack]:
    stack = start_stack(root, bot_delay)
    try:
        yield stack
    finally:
        stack.stop()


if __name__ == "__main__":  # a stack for looking at the pages by hand: Ctrl-C stops it
    import tempfile

    with (
        tempfile.TemporaryDirectory(prefix="paiju-e2e-") as tmp,
        running_stack(Path(tmp), 0.7) as s,
    ):
        print(f"Paiju is running: {s.url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            s.proc.wait()


# --- the lobby, as a person uses it ---------------------------------------------------------------


def open_lobby(page: Any, stack: Stack, game: str) -> None:
    """The lobby, with ``game`` listed and the rules engine loaded."""
    page.goto(stack.url)
    page.wait_for_selector(f".game-card[data-game='{game}']")
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)


def create_in_lobby(page: Any, game: str, variant: str, players: int = 4) -> str:
    """Create a table against bots with the lobby's form; the table's id."""
    page.select_option("#create-game", game)
    page.select_option("#create-variant", variant)
    page.select_option("#create-players", str(players))
    page.select_option("#create-opponents", "bots")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*#/table/[0-9a-f]+$"))
    return str(page.url.rsplit("/", 1)[1])


def sit_as(page: Any, stack: Stack, table: str, seat: int, token: str) -> None:
    """Open the table in ``page`` as ``seat``, with that seat's token in the page's storage as if
    this browser had joined it (a seat joined through the API, for test set-up)."""
    page.evaluate(
        """([table, seat, token]) => {
            const all = JSON.parse(localStorage.getItem("paiju.seats") || "{}");
            all[table] = { seat, token, at: Date.now() };
            localStorage.setItem("paiju.seats", JSON.stringify(all));
        }""",
        [table, seat, token],
    )
    page.goto(f"{stack.url}#/table/{table}")
