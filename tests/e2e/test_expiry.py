"""A table page whose open table expires (nobody filled it in ``open_expiry``) says so in the
server's words (``table_expired``) and stops reconnecting: the table no longer exists."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from e2e.conftest import Browsers
from e2e.stack import Stack, start_stack

# seconds: the page is open on the table well before, even when a busy machine takes seconds to
# load it (a page that first asks for the table after it expired logs the 410 as a console error)
OPEN_EXPIRY = 12.0


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PAIJU_OPEN_EXPIRY", str(OPEN_EXPIRY))  # every service reads it at start
        s = start_stack(tmp_path_factory.mktemp("expiry-e2e"))
    try:
        yield s
    finally:
        s.stop()


RECONNECT_BASE_MS = 250  # web-client/js/backoff.js RECONNECT.base


def test_a_table_page_says_its_table_expired_and_stops_reconnecting(
    browsers: Browsers, stack: Stack
) -> None:
    table = stack.api("/api/tables", {"game": "guanpai"})["id"]
    page, _ = browsers.page()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{stack.url}#/table/{table}")
    page.locator(".error.big").filter(has_text="已过期").wait_for(timeout=(OPEN_EXPIRY + 30) * 1000)
    assert len(sockets) == 1
    # an absence cannot be polled for: the window is four times the longest first wait before a
    # reconnect (js/backoff.js RECONNECT: at most its base, 250 ms, after a socket closes)
    page.wait_for_timeout(4 * RECONNECT_BASE_MS)
    assert len(sockets) == 1  # no socket opened again on a table that is gone
