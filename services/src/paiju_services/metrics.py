"""Prometheus metrics of every service (``prometheus-client``), served on ``--metrics-port``.

One registry per process; each service counts what it does. The names, labels and meanings are in
docs/services.md ("Metrics"). ``serve`` starts the exposition endpoint (``/metrics`` on its own
port, beside the service; 0 = none); every metric exists from the start, so a scrape before any
traffic already lists it at zero.
"""

from __future__ import annotations

import logging

from prometheus_client import Counter, Gauge, Histogram, start_http_server

from paiju_services.logs import log

logger = logging.getLogger("paiju.metrics")

# latencies in seconds: from 0.5 ms (an append on an idle store) to 5 s (the request timeout)
LATENCY = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

# --- every service -------------------------------------------------------------------------------
GC_PAUSE_SECONDS = Histogram(
    "paiju_gc_pause_seconds",
    "Pauses of the cyclic garbage collector (the whole process waits), by generation",
    ["generation"],
    buckets=LATENCY,
)

REQUESTS_REFUSED = Counter(
    "paiju_requests_refused",
    "Requests refused as overloaded (bus.Responder), by reason: past max_in_flight (in_flight), "
    "waited past max_wait (late)",
    ["reason"],
)

# --- table service -------------------------------------------------------------------------------
COMMANDS = Counter(
    "paiju_commands",
    "Seat commands answered by the table service, by outcome",
    ["outcome"],  # accepted, duplicate, refused (a rule or request error), failed (unavailable…)
)
COMMAND_SECONDS = Histogram(
    "paiju_command_seconds", "A seat command from request to answer", buckets=LATENCY
)
APPENDS = Counter("paiju_appends", "Appends to the event stream, by result", ["result"])
APPEND_SECONDS = Histogram(
    "paiju_append_seconds", "One append to JetStream until its acknowledgement", buckets=LATENCY
)
APPENDED_MESSAGES = Counter(
    "paiju_appended_messages", "Messages appended to the event stream (log headers and events)"
)
RETRIES = Counter("paiju_command_retries", "Lost races and refusals on a stale copy, retried")
CORRUPT_LOGS = Counter(
    "paiju_corrupt_logs",
    "Table logs that failed a replay check (a stored index out of place), or a copy's memory of a "
    "log found behind what the stream confirmed: each also logged as an error",
)
REBUILDS = Counter("paiju_rebuilds", "Table logs loaded or caught up from the stream")
COPIES_AHEAD = Counter(
    "paiju_copies_ahead",
    "Cached table logs found ahead of their stream (events it does not hold), read again whole",
)
REBUILD_EVENTS = Counter("paiju_rebuild_events", "Events replayed while loading table logs")
HOT_TABLES = Gauge("paiju_hot_tables", "Tables held in this copy's memory")
VIEWS_OUT = Counter(
    "paiju_views_published", "Views published (each audience of each appended event: views.py)"
)
PRESENCE_UNPROVEN = Counter(
    "paiju_presence_unproven",
    "Presence entries ignored: no proof made with the seat's token (views.presence_proof)",
)

# --- gateway ---------------------------------------------------------------------------------------
SOCKETS = Gauge("paiju_sockets", "Open WebSockets")
FEEDS = Gauge("paiju_live_feeds", "Tables this gateway copy watches (live feeds)")
RATE_LIMITED = Counter(
    "paiju_rate_limited",
    "Refused over a rate limit: API requests (http), frames (frame), sockets opened (socket)",
    ["what"],
)
FRAMES_OUT = Counter("paiju_frames_out", "Frames queued to WebSockets")
BYTES_OUT = Counter("paiju_frame_bytes_out", "Bytes of the frames queued to WebSockets")
FRAME_ENCODINGS = Counter(
    "paiju_frame_encodings", "State frames made (once per audience and view: views.frame)"
)

# --- bots service ----------------------------------------------------------------------------------
BOT_MOVES = Counter("paiju_bot_moves", "Moves sent by the bots, by result", ["result"])


# every labelled series listed from the start (at zero), not only once it first happens
for _outcome in ("accepted", "duplicate", "refused", "failed"):
    COMMANDS.labels(_outcome)
for _result in ("appended", "conflict", "unknown"):
    APPENDS.labels(_result)
for _result in ("accepted", "duplicate"):
    BOT_MOVES.labels(_result)
for _reason in ("in_flight", "late"):
    REQUESTS_REFUSED.labels(_reason)


def serve(port: int, host: str = "127.0.0.1") -> None:
    """Serve ``/metrics`` on ``host:port`` in a thread of this process (0: no endpoint). Metrics
    listen on the loopback by default: a scraper on the host, or a sidecar, reads them. A port
    already taken (another exporter) is logged, and the service runs without its metrics."""
    if not port:
        return
    try:
        start_http_server(port, addr=host)
    except OSError as exc:  # the port is taken: the service runs on, without its metrics
        log(logger, "metrics not served", logging.WARNING, port=port, error=repr(exc))
        return
    log(logger, "metrics served", port=port)
