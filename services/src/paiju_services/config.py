"""Settings of every service: defaults, overridden by ``PAIJU_*`` environment variables and then
by command-line flags (the launcher passes flags from a deploy/ config)."""

from __future__ import annotations

import argparse
import functools
import os
import socket
from pathlib import Path
from typing import Any

import msgspec

REPO = Path(__file__).resolve().parents[3]


class Settings(msgspec.Struct, kw_only=True):
    nats_url: str = "nats://127.0.0.1:4222"  # comma-separated for a cluster
    nats_user: str = ""  # the service's NATS user (paiju_services.access; "": none)
    nats_password_file: str = ""  # a file holding that user's password (the launcher writes it)
    # the CA (PEM file) that signed the NATS nodes' certificates: connect with TLS, check the node
    # against it, and start TLS before anything is read (paiju_services.tls; "": plain TCP)
    tls_ca: str = ""
    replicas: int = 1  # of the stream and the KV buckets (3 on the cluster)
    instance: str = ""  # a name for logs; default: <service>-<host>-<pid>
    request_timeout: float = 5.0  # seconds, for NATS requests between services
    metrics_port: int = 0  # Prometheus /metrics on 127.0.0.1:<port> (0: none)
    # the lowest level of the log lines written; DEBUG adds the table service's line per command
    # and per table step (off by default: 18 µs of a move's 720 in a py-spy profile, and a write)
    log_level: str = "INFO"
    # every retry loop's back-off (paiju_services.backoff): seconds after the first failure in a
    # row, doubling with each next one up to the cap, each wait drawn from its upper half
    retry_base: float = 0.25
    retry_cap: float = 10.0
    # table service
    cache_tables: int = 10_000  # tables kept hot in memory per copy (cache_bytes bounds them too)
    # the stored bytes of the logs one cache of a copy may hold (the table and bots services' hot
    # tables, each of the gateway's two log caches); the memory they take is a few times that
    cache_bytes: int = 64 * 1024 * 1024
    sweep_interval: float = 5.0  # seconds between checks for tables waiting on a table step
    max_retries: int = 20  # lost races retried per command before answering "conflict"
    # load shedding (bus.Responder): requests a copy handles at once, one more refused at once
    # with "overloaded" (0: no bound); and the seconds a request may wait before its work starts
    max_in_flight: int = 512
    max_wait: float = 1.0
    max_hands: int = 100  # hands per match a table may be created with ("hands" option)
    max_events: int = 25_000  # events one table's log may hold (a match of max_hands fits)
    # seconds a playing table with human seats may go with none of them connected before it ends
    # (``table_abandoned``, scores as they stand); tables of bots only are never abandoned
    abandon_after: float = 600.0
    # seconds a table stays in the event stream once finished (or closed); then its log moves to
    # the archive (paiju_services.archive) and its subject is purged: readers see no difference
    retire_after: float = 3600.0
    # seconds an open table may wait for its players (since it was made, or since its last seat
    # was taken) before it expires and is removed, leaving nothing behind (tables.expiry)
    open_expiry: float = 1800.0
    # seconds a retired table's directory entry and archived log are kept (an auditor may export
    # it all along), then deleted by the sweep (paiju_services.retention); 0: kept for ever
    keep_retired: float = 365 * 86400.0
    # bots service
    bot_delay: float = 0.0  # seconds a bot "thinks" before it plays
    # turns of searching bots (高手) one bots copy holds at once, thinking or searching (one search
    # runs at a time, in a thread of its own): a turn beyond them is offered again later, with
    # back-off, and never keeps a quick bot's turn waiting (bots.py)
    bot_searches: int = 8
    # the searching bots' budget, times each game's (paiju.search.STEPS: about 200 ms at p95 on a
    # 2-core reference machine): lower on a slower machine, higher on a faster one
    bot_search_scale: float = 1.0
    # the searching thread's nice value above the process's (Linux, per thread): its searches use
    # the cores the services leave idle and yield them to a move's work (0: same priority)
    bot_search_nice: int = 10
    # table service: seconds before the server plays for a seat in 托管 (a turn of its own, so
    # that a player sees each automatic play happen rather than a burst of them)
    auto_delay: float = 1.0
    # gateway
    host: str = "127.0.0.1"
    port: int = 8000
    web_client: str = str(REPO / "web-client")
    pyodide: str = str(REPO / "web-client" / "node_modules" / "pyodide")
    wheels: str = str(REPO / "dist")
    static_cache: str = str(REPO / "var" / "static")  # compressed copies of the static files
    # brotli's quality for those copies (0-11): 11 makes Pyodide's wasm 12% smaller than 9 but
    # takes 30 s of CPU once per content, in the background (the test stacks take 5)
    brotli_quality: int = 11
    max_body: int = 16 * 1024  # bytes of an HTTP request body
    max_frame: int = 4 * 1024  # bytes of a WebSocket frame we read
    ws_max_size: int = 64 * 1024  # bytes: uvicorn closes the socket above this
    # permessage-deflate on the WebSockets: off, as it compresses each frame once per socket (a
    # quarter of the gateway's CPU under load) to save a kilobyte or two a frame
    ws_compress: bool = False
    frame_rate: float = 20.0  # WebSocket frames a second a client may send (sustained)
    frame_burst: int = 40  # and in a burst
    http_rate: float = 50.0  # API requests a second a client address may send (sustained)
    http_burst: int = 100  # and in a burst
    # WebSocket connections a second a client address may open (sustained), and in a burst: a
    # socket starts a table's feed and asks the table service for a view
    ws_rate: float = 10.0
    ws_burst: int = 100
    max_watchers: int = 200  # WebSocket connections per table per gateway copy
    feed_idle_close: float = (
        30.0  # seconds a feed outlives its last watcher (a reconnect reuses it)
    )
    max_log_cache: int = 256  # finished tables' logs kept in memory per gateway copy
    # finished tables the lobby's history lists (the most recent; a gateway copy keeps their
    # directory entries in memory: its memory grows until it holds this many, then stays)
    history_size: int = 5000
    # seconds between a gateway copy's presence messages (the seats it holds sockets for); a
    # copy not heard of for three of them counts as gone
    presence_interval: float = 2.0
    # seconds between two returns of freed memory to the system (memory.py; 0: never)
    trim_interval: float = 60.0
    # seconds between two full garbage collections, which each process runs itself (CPython's
    # own, started as the old generation grows, are off: memory.py); 0: CPython's
    full_collection_interval: float = 300.0


_ENV_TYPES: dict[str, type] = {
    name: type(getattr(Settings(), name)) for name in Settings.__struct_fields__
}


def _value(kind: type, raw: str) -> Any:
    """A setting's value from its text (a flag, an environment variable): ``true``/``false``,
    ``1``/``0``, ``yes``/``no``, ``on``/``off`` for a switch."""
    if kind is bool:
        text = raw.strip().lower()
        if text not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise ValueError(f"not a switch: {raw!r} (true or false)")
        return text in ("true", "1", "yes", "on")
    return kind(raw)


def load(service: str, argv: list[str] | None = None) -> Settings:
    """Settings from the environment (``PAIJU_NATS_URL`` ...) and ``--nats-url``-style flags."""
    values: dict[str, Any] = {}
    for name, kind in _ENV_TYPES.items():
        raw = os.environ.get(f"PAIJU_{name.upper()}")
        if raw is not None:
            values[name] = _value(kind, raw)
    parser = argparse.ArgumentParser(prog=f"paiju-services {service}")
    for name, kind in _ENV_TYPES.items():
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            type=functools.partial(_value, kind),
            default=None,
            dest=name,
        )
    args = parser.parse_args(argv or [])
    values.update({k: v for k, v in vars(args).items() if v is not None})
    settings = msgspec.convert(values, Settings)
    if not settings.instance:
        settings.instance = f"{service}-{socket.gethostname()}-{os.getpid()}"
    return settings


def nats_servers(settings: Settings) -> list[str]:
    return [url.strip() for url in settings.nats_url.split(",") if url.strip()]
