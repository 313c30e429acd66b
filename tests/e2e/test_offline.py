"""The site after its first visit with no network (issue 31): the service worker (web-client/sw.js)
keeps what the gateway's /offline.json lists; offline, a reload still shows the lobby with its
games, says that server tables need the network, and starts the engine from the kept copy, with
nothing in the console; back online, the live tables come back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.stack import Stack

KEPT = """async () => {
  const cache = await caches.open("paiju-offline");
  const note = await cache.match("/offline.json#version");
  return note ? (await note.json()).version : null;
}"""


def wait_kept(page: Any, stack: Stack) -> None:
    """Until the service worker controls the page and has kept the gateway's current list."""
    version = stack.api("/offline.json")["version"]
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    page.wait_for_function(
        f"({KEPT})().then((v) => v === {version!r})", timeout=60_000, polling=200
    )


def test_the_offline_list_names_every_file_a_page_and_its_engine_load(stack: Stack) -> None:
    listed = stack.api("/offline.json")
    files = listed["files"]
    prefixes = stack.api("/versions.json")
    assert len(listed["version"]) == 16
    for url in (
        "/",
        "/js/main.js",
        "/js/offline.js",
        "/css/app.css",
        "/manifest.webmanifest",
        "/guide/dagong.zh.md",
        "/rules/guanpai.md",
    ):
        assert url in files, url
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert prefixes["/pyodide/"] + name in files, name
    assert prefixes["/wheels/"] + "paiju-0.1.0-py3-none-any.whl" in files
    assert not any("node_modules" in url or url.startswith("/test/") for url in files)


def test_offline_after_the_first_visit_the_lobby_and_the_engine_still_load(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, watch = browsers.page(WIDTHS["phone"], 844, offline_copy=True)
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    wait_kept(page, stack)
    manifest = page.evaluate("document.querySelector('link[rel=manifest]').href")
    assert manifest.endswith("/manifest.webmanifest")

    page.context.set_offline(True)
    page.reload()
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    page.locator("#net-status").get_by_text("离线").wait_for()  # at the top of every page
    page.locator("#live-list").get_by_text("现在没有网络").wait_for()
    assert page.locator(".game-card").count() == 6  # the catalogue, kept
    page.screenshot(path=str(artifacts / "offline-lobby-390.png"))
    # a server's table says it needs the network, and asks nothing
    page.goto(f"{stack.url}#/table/0123456789abcdef")
    page.locator(".needs-network").get_by_text("要等网络恢复").wait_for()
    page.goto(f"{stack.url}#/")
    page.locator("#live-list").get_by_text("现在没有网络").wait_for()

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.locator("#live-list").get_by_text("现在没有网络").wait_for(state="detached")
    assert page.locator("#net-status").is_hidden()
    watch.assert_clean()
