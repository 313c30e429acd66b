"""Export a finished table's event log from a running Paiju system, so that ``paiju audit`` can
check it offline.

The log is fetched over HTTP from a gateway (``GET /api/tables/<id>/log?format=jsonl``) with the
standard library only, so the engine package keeps no runtime dependencies and needs no NATS
client. What is written is the table's subject in the event stream, message by message: the log
header, then one engine event per line (docs/log-format.md). A live table's log is not public
(it holds every seat's hand) until the table is finished.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from paiju.errors import PaijuError
from paiju.log.file import decode_event, read_header

DEFAULT_GATEWAY = "http://127.0.0.1:8000"


class ExportError(PaijuError):
    """The log could not be fetched, or what came back is not a table log."""


def log_url(gateway: str, table_id: str) -> str:
    base = gateway.rstrip("/")
    return f"{base}/api/tables/{urllib.parse.quote(table_id, safe='')}/log?format=jsonl"


def fetch_log(gateway: str, table_id: str, timeout: float = 30.0) -> list[str]:
    """The table's log as JSON lines (the header first), checked to be readable.

    Raises:
        ExportError: the gateway is unreachable, refuses (e.g. the table is not finished), or sends
            something that is not a table log.
    """
    request = urllib.request.Request(
        log_url(gateway, table_id), headers={"Accept": "application/x-ndjson"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        raise ExportError(_refusal(err)) from None
    except (urllib.error.URLError, OSError) as err:
        raise ExportError(f"cannot reach the gateway at {gateway}: {err}") from None
    lines = [line for line in body.splitlines() if line.strip()]
    if not lines:
        raise ExportError("the gateway sent an empty log")
    read_header(lines[0])  # RuleError (a PaijuError) when it is not a log header
    for line in lines[1:]:
        decode_event(line)
    return lines


def _refusal(err: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(err.read().decode("utf-8"))
        return f"HTTP {err.code} {body['code']}: {body['en']} / {body['zh']}"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return f"HTTP {err.code}: {err.reason}"


def export(gateway: str, table_id: str, path: str, timeout: float = 30.0) -> int:
    """Write the table's log to ``path``; returns the number of events.

    Raises:
        ExportError: see ``fetch_log``.
    """
    lines = fetch_log(gateway, table_id, timeout)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines) - 1
