"""What the browser tests (and the browser bench) share: the whole Paiju system started the way
``make run`` starts it, which is the shared harness's ``Launched`` (``tests/harness.py``) under the
name ``Stack`` here, the Chromium they drive (Debian's, never a downloaded one), and the lobby and
the table as a person opens them.

    with running_stack(tmp_dir) as stack:
        page.goto(stack.url)
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

from harness import (
    BOT_DELAY,
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    free_port,
    wait_until,
)
from harness import Launched as Stack
from harness import running_launched as running_stack
from harness import start_launched as start_stack

# the clock of a table whose pages a test reads at length: the lobby's 不限时. Two pages checked
# and shot at two sizes can outlast the 30 s of a turn on a loaded CI machine, and the seat then
# goes to 托管 under the test (CI on f7e1453, test_dabang)
UNTIMED = {"play": 0, "bid": 0, "bury": 0, "continue": 0}

# the harness's, under the names the browser tests use
__all__ = [
    "BOT_DELAY",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "ROOT",
    "Stack",
    "free_port",
    "running_stack",
    "start_stack",
    "wait_until",
]


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
