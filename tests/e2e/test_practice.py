"""练习 (issue 31): a match against bots run entirely in the browser's engine worker, with no
server — reached from the lobby after the network is gone, played to its sheets, its log saved
and checked by `paiju audit`; a reload resumes it where it was. The tables are the same page as a
server table's: only the transport differs (js/practice-transport.js)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.probe import STATE
from e2e.stack import Stack
from e2e.test_offline import wait_kept


def offline_lobby(browsers: Browsers, stack: Stack, width: int, height: int) -> tuple[Any, Any]:
    """A page that visited the site once, then lost the network and was reloaded."""
    page, watch = browsers.page(width, height, offline_copy=True)
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    wait_kept(page, stack)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    page.locator("#net-status").get_by_text("离线").wait_for()
    return page, watch


def start_practice(page: Any, game: str, hands: int, level: str = "normal") -> None:
    """From the lobby's form: the game, a match of ``hands`` hands (its house rules), the bots'
    level, the fast pace; then 开始练习."""
    page.locator(f'.game-card[data-game="{game}"] footer button').click()
    page.locator("#house-rules summary").click()
    page.fill("#opt-hands", str(hands))
    page.select_option("#practice-level", level)
    page.select_option("#practice-pace", "fast")
    page.click("#practice-submit")
    page.wait_for_function(f"{STATE}?.view?.hand_no >= 1 && {STATE}.seat === 0", timeout=60_000)


def play_to_the_end(page: Any, hands: int) -> None:
    """The first move by hand (提示, 出牌 when it is my turn to play), then 托管 plays my seat; each
    hand's sheet is answered with 继续, up to the match's end."""
    # 托管: the table plays my seat at the pace chosen. Where I must speak first (打拱's 明独 or
    # 不独), the 托管 button waits under the words: I say the first word offered
    page.wait_for_function(
        "document.querySelector('#auto')?.checkVisibility()"
        " || !!document.querySelector('#speak button:not(:disabled)')",
        timeout=60_000,
    )
    if not page.locator("#auto").is_visible():
        page.locator("#speak button:not(:disabled)").first.click()
    page.locator("#auto").click(timeout=60_000)
    for hand in range(1, hands):
        page.locator("#continue").wait_for(timeout=120_000)
        assert page.locator("#score-sheet").is_visible()
        page.locator("#continue").click()
        page.wait_for_function(f"{STATE}?.view?.hand_no === {hand + 1}", timeout=60_000)
    page.locator("#export-log").wait_for(timeout=120_000)


def saved_log(page: Any, tmp: Path) -> Path:
    with page.expect_download() as download:
        page.click("#export-log")
    path = tmp / "practice.jsonl"
    download.value.save_as(path)
    return path


def audit(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "paiju", "audit", str(path)], capture_output=True, text=True
    )


def test_guanpai_practice_offline_on_a_desktop_to_its_sheets_and_an_audited_log(
    browsers: Browsers, stack: Stack, artifacts: Path, tmp_path: Path
) -> None:
    page, watch = offline_lobby(browsers, stack, WIDTHS["desktop"], 800)
    start_practice(page, "guanpai", hands=2)
    assert page.locator("#end-practice").is_visible()
    page.screenshot(path=str(artifacts / "practice-guanpai-1280.png"))
    play_to_the_end(page, hands=2)
    page.screenshot(path=str(artifacts / "practice-guanpai-over-1280.png"))
    log = saved_log(page, tmp_path)
    checked = audit(log)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert len(log.read_text().splitlines()) > 10
    # its replay and its check in this browser, from the log kept here (still offline)
    page.click("#open-replay")
    page.wait_for_selector(".replay-page[data-ready='1'], [data-ready='1']", timeout=60_000)
    page.click("#replay-verify")
    page.wait_for_selector(".verify-page[data-state='done']", timeout=60_000)
    assert page.locator(".verify-page").get_attribute("data-verdict") == "sound"
    watch.assert_clean()


def test_dagong_practice_offline_on_a_phone_resumes_after_a_reload_and_ends_audited(
    browsers: Browsers, stack: Stack, artifacts: Path, tmp_path: Path
) -> None:
    page, watch = offline_lobby(browsers, stack, WIDTHS["phone"], 844)
    start_practice(page, "dagong", hands=2)
    # a reload (offline still) resumes the match where it was: the same hand, the same cards
    page.wait_for_function(f"{STATE}?.hand?.length > 0 && {STATE}.settled", timeout=60_000)
    before = page.evaluate(f"({{hand: {STATE}.view.hand, no: {STATE}.view.hand_no}})")
    page.reload()
    page.wait_for_function(f"{STATE}?.view?.hand_no >= 1 && {STATE}.settled", timeout=60_000)
    after = page.evaluate(f"({{hand: {STATE}.view.hand, no: {STATE}.view.hand_no}})")
    assert after["no"] == before["no"] and sorted(after["hand"]) == sorted(before["hand"])
    page.screenshot(path=str(artifacts / "practice-dagong-390.png"))
    play_to_the_end(page, hands=2)
    page.screenshot(path=str(artifacts / "practice-dagong-over-390.png"), full_page=True)
    log = saved_log(page, tmp_path)
    checked = audit(log)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    watch.assert_clean()
