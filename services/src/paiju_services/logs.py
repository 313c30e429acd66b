"""Structured logs: one JSON object a line on stderr, for people and for log shippers.

Every line has ``ts`` (UTC, ISO 8601), ``level``, ``service``, ``instance`` and ``msg``; callers
add fields with ``log(logger, "msg", table=..., ms=...)``.
"""

from __future__ import annotations

import datetime as dt
import logging
import sys
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


def setup(service: str, instance: str, level: str = "INFO") -> None:
    """Send every logger's records, as JSON lines, to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(service, instance))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("nats", "uvicorn.access"):
        logging.getLogger(noisy).setLevel("WARNING")


def log(logger: logging.Logger, msg: str, level: int = logging.INFO, **fields: Any) -> None:
    if logger.isEnabledFor(level):
        logger.log(level, msg, extra={_FIELDS: fields})
