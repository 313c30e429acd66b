"""The turn clock in Chromium: the seat to act counts down, its clock runs out into 托管 (a badge
on the seat, the server plays for it), 取消托管 gives control back; between hands the score sheet
stays until 继续 and says who is still to press it. Test-set clocks of a few seconds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.stack import Stack, open_lobby, sit_as

# whether my seat's clock ever warned (its last seconds), seen from the page's first script on (test
# code, run in the page): a 4 s clock may warn and run out between two looks on a loaded machine
# and whether my seat ever showed a clock while 托管 played it (its moves come after the server's
# short wait: no clock of mine to show)
WARN_WATCH = """
window.__warned = false;
window.__autoClock = false;
new MutationObserver(() => {
  if (document.querySelector(".seat[data-me='1'] .turn-clock[data-warn='1']")) window.__warned = true;
  if (document.querySelector(".seat[data-me='1'] .badge.mark.auto")
      && document.querySelector(".seat[data-me='1'] .turn-clock")) window.__autoClock = true;
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


def clocked_table(stack: Stack, clock: dict[str, int], hands: int) -> str:
    """A guanpai table with its own clock (``clock`` in the create request)."""
    body = {"game": "guanpai", "players": 3, "options": {"hands": hands}, "clock": clock}
    return str(stack.api("/api/tables", body)["id"])


def test_the_clock_runs_out_into_auto_play_and_the_sheet_waits_for_continue(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    table = clocked_table(stack, {"play": 4, "continue": 30}, hands=2)
    joined = stack.api(f"/api/tables/{table}/seats", {"name": "Ann", "seat": 0})
    page, _ = browsers.page()
    page.add_init_script(WARN_WATCH)
    sent: list[dict[str, Any]] = []  # the page's commands, as its socket sent them
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: keep(sent, payload)))
    page.goto(stack.url)
    sit_as(page, stack, table, 0, joined["token"])
    stack.api(f"/api/tables/{table}/bots", {})

    # my turn comes: my seat counts down, the tab says so
    # read as it is drawn, in one step: the clock of 4 s may run out before a second look
    shown = page.wait_for_function(
        "document.querySelector(\".seat[data-me='1'] .turn-clock.countdown\")?.textContent",
        timeout=60_000,
    ).json_value()
    assert re.fullmatch(r"剩 0:0[0-4]", shown), shown
    page.wait_for_function("document.title.startsWith('【轮到你了】')")
    page.screenshot(path=str(artifacts / f"clock-countdown-{WIDTHS['desktop']}.png"))
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 844})
    page.screenshot(path=str(artifacts / f"clock-countdown-{WIDTHS['phone']}.png"))
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    page.wait_for_function("window.__warned")  # the last seconds were shown as such

    # it runs out: the server plays for me and marks me 托管
    badge = page.locator(".seat[data-me='1'] .badge.mark.auto")
    badge.wait_for(timeout=15_000)
    assert badge.inner_text() == "托管"
    auto = page.locator("#auto")
    assert auto.inner_text() == "取消托管"
    page.screenshot(path=str(artifacts / f"clock-auto-{WIDTHS['desktop']}.png"))

    # 托管 plays on through a round of the table (the two bots, then my turn: its auto_played and
    # its play; early in the hand, nobody can run out in it): my seat shows no clock meanwhile.
    # Not to the hand's end: its sheet would cover 取消托管 (CI on 51ec639)
    since = page.evaluate("window.__table.view.version")
    page.wait_for_function(f"window.__table.view.version >= {since + 4}", timeout=60_000)
    assert not page.evaluate("window.__autoClock")

    # 取消托管: control is mine again
    auto.click()
    page.wait_for_function("!document.querySelector(\".seat[data-me='1'] .badge.mark.auto\")")
    assert auto.inner_text() == "托管"

    # I play my turns to the hand's end: the sheet stays until I press 继续
    play_my_turns_until_the_sheet(page)
    continue_button = page.locator("#continue")
    continue_button.wait_for(timeout=120_000)
    page.wait_for_timeout(500)
    assert continue_button.is_visible()
    # the head names the hand whose sheet is up, though the next deal is committed to already
    assert page.locator(".table-sub").inner_text().startswith("第 1 局")
    waiting = page.locator(".continue-waiting")
    assert "Ann" in waiting.inner_text() and "继续" in waiting.inner_text()  # who is still to press
    assert page.locator(".sheet-actions .turn-clock.countdown").count() == 1
    page.screenshot(path=str(artifacts / f"clock-continue-{WIDTHS['desktop']}.png"))
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 844})
    page.screenshot(path=str(artifacts / f"clock-continue-{WIDTHS['phone']}.png"))
    continue_button.click()
    # every person has pressed: the next hand is dealt and the sheet goes
    page.wait_for_selector("#continue", state="detached", timeout=30_000)
    page.wait_for_function("document.querySelector('.table-page').textContent.includes('第 2 局')")
    state = stack.api(f"/api/tables/{table}/state")
    assert state["view"]["hand_no"] == 2 and state["view"]["ready"] == []
    # the 继续 carried a fresh seed of the browser's for the next deal's shuffle
    (pressed,) = [c for c in sent if c.get("command", {}).get("type") == "continue"]
    assert re.fullmatch(r"[0-9a-f]{32}", pressed["command"]["seed"])


CLICK_IF_ENABLED = "(id) => { const b = document.querySelector(id); if (!b.disabled) b.click(); }"


def play_my_turns_until_the_sheet(page: Any) -> None:
    """My turns as a player takes them, until the hand's sheet asks for 继续: 提示 then 出牌, or
    不要 when nothing beats (rather than waiting out the clock at each turn). Should the clock
    run out first all the same, the server's move is taken as it comes."""
    sheet = "!!document.querySelector('#continue')"
    while True:
        page.wait_for_function(f"document.body.dataset.myTurn === '1' || {sheet}", timeout=60_000)
        if page.evaluate(sheet):
            return
        before = page.evaluate("window.__table.view.version")
        moves = page.evaluate("window.__table.moves")
        button = "#play" if any(m["type"] == "play" for m in moves) else "#pass"
        # each button clicked only if still enabled, in one step: the 4 s clock may run out
        # between a look and a click (CI on 4a625a1: Playwright's click then waited for a button
        # disabled for good)
        if button == "#play":
            page.evaluate(CLICK_IF_ENABLED, "#hint")
        page.wait_for_function(
            f"!document.querySelector('{button}').disabled || document.body.dataset.myTurn !== '1'"
        )
        page.evaluate(CLICK_IF_ENABLED, button)
        page.wait_for_function(f"(window.__table?.view?.version ?? 0) > {before} || {sheet}")


def keep(sent: list[dict[str, Any]], payload: str | bytes) -> None:
    frame = json.loads(payload)
    if isinstance(frame, dict) and frame.get("type") == "command":
        sent.append(frame)


def test_the_lobby_clock_reaches_the_table_and_a_player_leaves_during_the_match(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """出牌限时 不限时 in the lobby's form makes a table whose clock is 0 for every kind, shown on
    the table's sub-line; 离座 during the match asks first, then the page watches the table and
    the seat is shown as played by a bot, on the table and in the lobby's list (the tables in
    play or the history)."""
    page, _ = browsers.page()
    open_lobby(page, stack, "guanpai")
    page.select_option("#create-game", "guanpai")
    page.select_option("#create-variant", "mainstream")
    page.select_option("#create-players", "3")
    assert page.locator("#create-clock").input_value() == "standard"
    assert page.locator("#create-clock option").all_inner_texts() == ["标准", "宽松", "不限时"]
    page.select_option("#create-clock", "none")
    page.select_option("#create-opponents", "bots")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*#/table/[0-9a-f]+$"))
    table = page.url.rsplit("/", 1)[1]
    record = stack.api(f"/api/tables/{table}")
    assert record["clock"] and set(record["clock"].values()) == {0}
    line = page.locator("#clock-line")
    line.wait_for(timeout=30_000)
    assert line.inner_text() == "限时：不限时"

    leave = page.locator("#leave-match")
    leave.wait_for(timeout=30_000)
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    leave.click()
    page.wait_for_url(f"**/#/watch/{table}")
    assert asked == ["离座后由托管代打到本场结束"]
    badge = page.locator(".seat[data-seat='0'] .badge.left")
    badge.wait_for(timeout=15_000)
    assert badge.inner_text() == "机器人代打"
    assert page.locator("#leave-match").count() == 0  # a spectator now
    assert stack.api(f"/api/tables/{table}")["seats"][0]["left"] is True
    page.screenshot(path=str(artifacts / f"room-left-{WIDTHS['desktop']}.png"))
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 844})
    page.screenshot(path=str(artifacts / f"room-left-{WIDTHS['phone']}.png"))
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    page.goto(stack.url)
    # the table's row: in play, or in the history once the bots have ended the match (CI on
    # 0fe1b12: they had before the lobby was drawn)
    chip = page.locator(f".table-row[data-table='{table}'] .seat-chips .badge.left")
    chip.wait_for(timeout=15_000)
    assert chip.inner_text() == "机器人代打"
