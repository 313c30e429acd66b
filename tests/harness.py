"""What every test that runs the real system shares (the integration tests' ``integration.harness``
and the browser tests' ``e2e.stack`` build on it): free ports, polling with a deadline, and the
gateway's static cache made once before the first gateway starts.

Why the cache: a gateway compresses the files it serves (Pyodide, the wheel, the web client) into
``var/static/`` once per content, the brotli copy of Pyodide's 9.6 MB wasm taking some 30 s of a
core in a background thread. A test's gateway lives a few seconds: each one started that copy and
was stopped before it finished, so on a fresh clone every stack of the suite burned most of a core
on it for its whole life (measured: 16 s of CPU in a 45 s test). ``warm_static_cache`` makes every
copy once, to the end, before the first gateway of the process starts; later gateways (of this
process or another sharing the folder) find them all and compress nothing.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from paiju_services.config import Settings
from paiju_services.gateway.static import StaticFiles

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")
_warmed: set[str] = set()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
    """Every compressed copy the gateway would make, made now in the gateway's own cache folder
    (``Settings().static_cache``) by the gateway's own code; once per process. A copy that another
    process is making meanwhile is left to it (the gateway's lock files), as a gateway would.

    Raises:
        TimeoutError: the copies were not all made within ``timeout`` seconds.
    """
    settings = Settings()
    if settings.static_cache in _warmed:
        return
    files = StaticFiles(
        pyodide=settings.pyodide,
        wheels=settings.wheels,
        web_client=settings.web_client,
        cache=settings.static_cache,
    )
    files.store.prepare([folder.root for folder in files.folders.values()])
    if not files.store.settle(timeout):
        raise TimeoutError(f"the static copies were not made in {timeout:.0f}s")
    _warmed.add(settings.static_cache)
