"""The services' logs: one JSON object a line, with the service, the instance, the logger and the
fields a caller adds; uvicorn's three lines about each WebSocket are left out (the gateway's own
"socket opened" and "socket closed" say it), its other lines are kept."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from paiju_services import logs


class Lines(io.StringIO):
    """What the services' handler wrote: a JSON object a line."""

    def read_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.getvalue().splitlines()]


@pytest.fixture
def stderr() -> Iterator[Lines]:
    """``logs.setup`` for the test, its handler writing here rather than to stderr."""
    root, uvicorn = logging.getLogger(), logging.getLogger("uvicorn.error")
    saved = (root.handlers[:], root.level, uvicorn.filters[:])
    logs.setup("gateway", "gateway-1")
    out = Lines()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(out)
    try:
        yield out
    finally:
        root.handlers[:], root.level, uvicorn.filters[:] = saved


def test_a_line_is_json_with_the_service_and_the_caller_s_fields(stderr: Lines) -> None:
    logs.log(logging.getLogger("paiju.gateway.ws"), "socket opened", table="0123456789abcdef")
    [line] = stderr.read_lines()
    assert line["msg"] == "socket opened" and line["table"] == "0123456789abcdef"
    assert (line["service"], line["instance"], line["logger"], line["level"]) == (
        "gateway",
        "gateway-1",
        "paiju.gateway.ws",
        "info",
    )


def test_uvicorn_s_lines_about_each_websocket_are_left_out_and_its_others_kept(
    stderr: Lines,
) -> None:
    uvicorn = logging.getLogger("uvicorn.error")
    uvicorn.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", "/ws/tables/x")
    uvicorn.info("connection open")
    uvicorn.info("connection closed")
    uvicorn.info('%s - "WebSocket %s" 403', "127.0.0.1:5000", "/ws/tables/x")
    uvicorn.info("Uvicorn running on %s", "http://127.0.0.1:8000")
    uvicorn.error("Exception in ASGI application")
    assert [line["msg"] for line in stderr.read_lines()] == [
        '127.0.0.1:5000 - "WebSocket /ws/tables/x" 403',
        "Uvicorn running on http://127.0.0.1:8000",
        "Exception in ASGI application",
    ]
    logs.setup("gateway", "gateway-1")  # set up twice (a test, a restart): one filter
    assert uvicorn.filters.count(logs.per_socket) == 1


def test_a_line_that_repeats_is_said_once_a_period_with_how_many_times(stderr: Lines) -> None:
    """Through a rolling upgrade every views message may be unreadable: one line a period, not
    one per message, and the next one counts what the period held."""
    sparing = logs.Sparing(logging.getLogger("paiju.gateway.backend"), "views message dropped")
    for _ in range(5):
        sparing.log(error="not a views message")
    [first] = stderr.read_lines()
    assert (first["msg"], first["times"], first["level"]) == ("views message dropped", 1, "warning")
    sparing.said -= sparing.every  # a period later
    sparing.log(error="not a views message")
    assert [line["times"] for line in stderr.read_lines()] == [1, 5]
