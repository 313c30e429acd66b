"""Fixtures of the end-to-end tests: the real stack on free ports (started by the services'
launcher, as ``make run`` starts it), Debian's headless Chromium driven by Playwright for Python,
and a collector that fails a test on any console error, page error or off-site request.

Screenshots go to ``artifacts/e2e/`` (``PAIJU_ARTIFACTS`` overrides it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api  # `make unit` installs it; its absence fails, never skips

from e2e.probe import install_probes
from e2e.stack import CHROMIUM, CHROMIUM_ARGS, ROOT, Stack, start_stack

# Playwright's wait_for_function evaluates its check on every animation frame unless told
# otherwise, which keeps the page drawing 60 frames a second for as long as a test waits (most of
# a browser test's time: for the bots, the server, the engine). Every 50 ms is as prompt for a test
# and lets an idle page draw nothing.
POLL_MS = 50
_wait_for_function = sync_api.Page.wait_for_function


def _wait_polling(
    page: Any, expression: str, *, arg: Any = None, polling: Any = POLL_MS, timeout: Any = None
) -> Any:
    return _wait_for_function(page, expression, arg=arg, polling=polling, timeout=timeout)


sync_api.Page.wait_for_function = _wait_polling  # type: ignore[method-assign]

ARTIFACTS = Path(os.environ.get("PAIJU_ARTIFACTS", ROOT / "artifacts" / "e2e"))
WIDTHS = {"phone": 390, "desktop": 1280}


@dataclass
class Watch:
    """What a browser context did: console errors, page errors, requests, WebSocket frames."""

    origin: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda err: self.errors.append(f"page error: {err}"))
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", self._websocket)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text} ({message.location})")

    def _websocket(self, ws: Any) -> None:
        ws.on("framesent", lambda payload: self.sent.append(_text(payload)))
        ws.on("framereceived", lambda payload: self.received.append(_text(payload)))

    def assert_clean(self) -> None:
        assert not self.errors, "\n".join(self.errors)
        ws_origin = "ws" + self.origin.removeprefix("http")
        off_site = [
            u
            for u in self.requests
            if not (u.startswith(self.origin) or u.startswith(ws_origin) or u.startswith("data:"))
        ]
        assert not off_site, f"requests that did not go to our gateway: {off_site}"


def _text(payload: Any) -> str:
    return payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace")


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = start_stack(tmp_path_factory.mktemp("paiju-e2e"))
    try:
        yield s
    finally:
        s.stop()


class SharedChromium:
    """One Chromium (and one Playwright driver) for every browser test a worker runs: starting
    them costs about 1.5 s of CPU, and each module started its own. Playwright's sync API runs an
    event loop while it is open, in which the asyncio tests of the other folders (pytest-asyncio)
    cannot start theirs: it is stopped as the worker moves on to a test of another folder (the
    scheduler of tests/conftest.py gives a browser worker its browser tests first), and started
    again should a browser test come after all."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is None or not self.browser.is_connected():
            self.close()
            self.playwright = sync_api.sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self.browser

    def close(self) -> None:
        browser, playwright = self.browser, self.playwright
        self.browser = self.playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()

    # registered as a plugin (below): a conftest's own hooks see only the tests of its folder
    @pytest.hookimpl
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if not item.nodeid.startswith("tests/e2e/"):
            self.close()

    @pytest.hookimpl
    def pytest_sessionfinish(self) -> None:
        self.close()


CHROMIUM_SESSION = SharedChromium()


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("paiju-shared-chromium"):
        config.pluginmanager.register(CHROMIUM_SESSION, "paiju-shared-chromium")


# Module scope: the modules' own module-scoped fixtures (a played match) take it
@pytest.fixture(scope="module")
def browser() -> Any:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make unit` installs Debian's chromium"
    return CHROMIUM_SESSION.get()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


class Browsers:
    """New pages, each in its own browser context (its own storage: a separate person)."""

    def __init__(self, browser: Any, stack: Stack) -> None:
        self.browser = browser
        self.stack = stack
        self.contexts: list[Any] = []
        self.watches: list[Watch] = []

    def page(
        self, width: int = WIDTHS["desktop"], height: int = 900, offline_copy: bool = False
    ) -> tuple[Any, Watch]:
        # reduced motion, as a player may ask for: no play flies, no seat fades (app.css); what is
        # checked is what the pages show and do, and the animations' frames only cost the CPU.
        # The service worker (web-client/sw.js) only where a test asks for the offline copy: it
        # would copy Pyodide into every context's storage, and Playwright's routes do not see
        # what it answers
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale="zh-CN",
            reduced_motion="reduce",
            service_workers="allow" if offline_copy else "block",
        )
        context.set_default_timeout(20_000)
        install_probes(context)  # what the tests see of the page (probe.py), in their browsers only
        self.contexts.append(context)
        page = context.new_page()
        watch = Watch(self.stack.url.rstrip("/"))
        watch.attach(page)
        self.watches.append(watch)
        return page, watch

    def close(self) -> None:
        for context in self.contexts:
            context.close()


# What each open page showed when a test failed, in the failure's report (CI prints it): the
# table's phase, turn and seat, the engine's stage, the controls' states, the line under them
PAGE_STATE = """() => {
  const s = window.__table;
  const v = s?.view;
  const button = (id) => { const el = document.querySelector(id);
    return el ? (el.hidden ? "hidden" : el.disabled ? "disabled" : "enabled") : "absent"; };
  return { url: location.href, engine: document.body.dataset.engine ?? null,
    connected: s?.connected ?? null, seat: s?.seat ?? null, pending: s?.pending ?? null,
    settled: s?.settled ?? null, phase: v?.phase ?? null, turn: v?.turn ?? null,
    version: v?.version ?? null, auto: v?.auto ?? null, moves: s?.moves?.length ?? null,
    check: s?.check ?? null, myTurn: document.body.dataset.myTurn ?? null,
    play: button("#play"), pass: button("#pass"), hint: button("#hint"), autoButton: button("#auto"),
    reason: document.querySelector("#reason")?.textContent ?? null,
    sheet: !!document.querySelector("#score-sheet") };
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    browsers = getattr(item, "funcargs", {}).get("browsers")
    if report.when != "call" or not report.failed or not isinstance(browsers, Browsers):
        return
    lines = []
    for context in browsers.contexts:
        for page in context.pages:
            try:
                lines.append(json.dumps(page.evaluate(PAGE_STATE), ensure_ascii=False))
            except Exception as exc:  # a closed or crashed page says so
                lines.append(f"{page.url}: {exc!r}")
    report.sections.append(("the pages when the test failed", "\n".join(lines)))


@pytest.fixture
def browsers(browser: Any, stack: Stack) -> Iterator[Browsers]:
    b = Browsers(browser, stack)
    try:
        yield b
        for watch in b.watches:
            watch.assert_clean()
    finally:
        b.close()
