"""Bot levels in Chromium: the lobby's form fills a 关牌 table with 高手 bots (the level chosen from
the catalogue's names), every bot seat shows its level at the table, in Chinese and in English,
and 托管 plays my seat to the hand's score sheet against them; and the owner of a table that waits
for people fills its empty seats from the room at a level of his own (入门).

Screenshots: artifacts/e2e/levels-*.png at 1280×800 and 390×844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby, wait_until

SIZES = ((1280, 800), (390, 844))


def shoot(page: Any, artifacts: Path, name: str, focus: str | None = None) -> None:
    """The page at both sizes, ``focus`` (a selector) scrolled into the middle of each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        if focus:
            page.evaluate(f"document.querySelector({focus!r}).scrollIntoView({{block: 'center'}})")
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        page.screenshot(path=str(artifacts / f"levels-{name}-{width}.png"))


def lobby_form(stack: Stack, browsers: Browsers, width: int, height: int, opponents: str) -> Any:
    """A page on the lobby, its form set to a 3-seat 关牌 (波克) table with ``opponents``."""
    page, _ = browsers.page(width=width, height=height)
    open_lobby(page, stack, "guanpai")
    page.select_option("#create-game", "guanpai")
    page.select_option("#create-variant", "boke")
    page.select_option("#create-players", "3")
    page.select_option("#create-opponents", opponents)
    return page


def seat_names(page: Any) -> list[str]:
    return [name.strip() for name in page.locator(".seat .seat-name").all_inner_texts()]


def test_expert_bots_from_the_lobby_play_a_hand_and_show_their_level(
    stack: Stack, browsers: Browsers, artifacts: Path
) -> None:
    page = lobby_form(stack, browsers, 1280, 800, "bots")
    levels = page.locator("#create-level option").all_inner_texts()
    assert levels == ["普通", "入门", "高手"]  # the catalogue's names, its default first
    page.select_option("#create-level", "expert")
    shoot(page, artifacts, "lobby", focus="#create-level")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#create-submit")
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_function("document.querySelectorAll('.seat .seat-name').length === 3")
    page.wait_for_function(
        "[...document.querySelectorAll('.seat .seat-name')].filter(e => e.textContent.endsWith('· 高手')).length === 2"
    )
    assert seat_names(page)[1:] and all(
        n.endswith("· 高手") for n in seat_names(page) if "机器人" in n
    )
    record = stack.api(f"/api/tables/{table}")
    assert [s.get("level") for s in record["seats"]] == [None, "expert", "expert"]
    view = stack.api(f"/api/tables/{table}/state")["view"]
    assert view["bots"] == [None, "expert", "expert"]  # the log's record, public
    shoot(page, artifacts, "table")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function(
        "[...document.querySelectorAll('.seat .seat-name')].some(e => e.textContent.endsWith('· Expert'))"
    )
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    page.click("#auto")  # 托管 plays my seat: the hand ends as fast as the bots think
    page.wait_for_selector("#score-sheet", timeout=120_000)
    shoot(page, artifacts, "sheet")


def test_the_owner_fills_the_room_with_bots_at_a_level(
    stack: Stack, browsers: Browsers, artifacts: Path
) -> None:
    page = lobby_form(stack, browsers, 390, 844, "wait")
    assert page.locator("#create-level").is_hidden()  # no bots: no level to choose
    page.click("#create-submit")
    page.wait_for_url("**/#/table/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#fill-level")
    page.wait_for_selector("#fill-level option[value='basic']", state="attached")
    page.select_option("#fill-level", "basic")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function("document.querySelector('#fill-level').value === 'basic'")
    shoot(page, artifacts, "room", focus="#fill-bots")
    page.click("#fill-bots")

    def filled() -> bool | None:
        seats = stack.api(f"/api/tables/{table}")["seats"]
        return [s.get("level") for s in seats] == [None, "basic", "basic"] or None

    wait_until(filled, 30, "the bots seated at 入门")
    page.wait_for_function(
        "[...document.querySelectorAll('.seat .seat-name')].filter(e => e.textContent.endsWith('· 入门')).length === 2"
    )
