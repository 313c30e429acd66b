"""Structured logs: one JSON object a line on stderr, for people and for log shippers.

Every line has ``ts`` (UTC, ISO 8601), ``level``, ``service``, ``instance`` and ``msg``; callers
add fields with ``log(logger, "msg", table=..., ms=...)``.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
import time
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder()
_FIELDS = "paiju_fields"


class JsonFormatter(logging.Formatter):
    def __init__(self, service: str, instance: str) -> None:
        super().__init__()
        self.service = service
        self.instance = instance

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "service": self.service,
            "instance": self.instance,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(getattr(record, _FIELDS, {}))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        try:
            return _encoder.encode(line).decode()
        except (TypeError, msgspec.EncodeError):
            return _encoder.encode({k: str(v) for k, v in line.items()}).decode()


# what uvicorn (and the websockets library, through uvicorn's logger) says of every WebSocket:
# the gateway's own "socket opened" and "socket closed" say it once each, with the table and seat
PER_SOCKET = frozenset(['%s - "WebSocket %s" [accepted]', "connection open", "connection closed"])


def per_socket(record: logging.LogRecord) -> bool:
    """False for uvicorn's lines about each WebSocket (``PER_SOCKET``): as 3,000 sockets
    reconnected at once after a restart, logging was a tenth of the gateway's samples, and these
    were three of its four lines a socket."""
    return record.msg not in PER_SOCKET


def setup(service: str, instance: str, level: str = "INFO") -> None:
    """Send every logger's records, as JSON lines, to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(service, instance))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("nats", "uvicorn.access"):
        logging.getLogger(noisy).setLevel("WARNING")
    uvicorn = logging.getLogger("uvicorn.error")
    if per_socket not in uvicorn.filters:
        uvicorn.addFilter(per_socket)


def log(logger: logging.Logger, msg: str, level: int = logging.INFO, **fields: Any) -> None:
    if logger.isEnabledFor(level):
        logger.log(level, msg, extra={_FIELDS: fields})


class Sparing:
    """A line that may repeat many times a second (one per message of a kind this process cannot
    read, through a rolling upgrade): said at most once per ``every`` seconds, with how many times
    it happened since it was last said (``times``)."""

    def __init__(self, logger: logging.Logger, msg: str, every: float = 60.0) -> None:
        self.logger, self.msg, self.every = logger, msg, every
        self.count = 0
        self.said = -float("inf")

    def log(self, level: int = logging.WARNING, **fields: Any) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.said >= self.every:
            log(self.logger, self.msg, level, times=self.count, **fields)
            self.count, self.said = 0, now
