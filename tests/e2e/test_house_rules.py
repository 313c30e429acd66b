"""House rules in the lobby: a person opens 房规 for 板子炮, lets every other player answer a 包
with 反包 and makes the match two hands long; the table is created with exactly those two options
(the defaults are not sent; the server keeps the whole preset), and its page names the changed rules under its title."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby
from paiju import api

GAME = "banzipao"


def test_a_table_is_created_with_the_house_rules_chosen_in_the_lobby(
    browser: Any, stack: Stack
) -> None:
    people = Browsers(browser, stack)
    try:
        page, watch = people.page()
        open_lobby(page, stack, GAME)
        page.select_option("#create-game", GAME)
        page.select_option("#create-variant", "guizhou")
        assert page.locator("#opt-fanbao_rights").is_hidden()  # folded away until wanted
        page.click("#house-rules > summary")
        assert page.input_value("#opt-fanbao_rights") == "next"  # the variant's default
        assert page.input_value("#opt-hands") == "1"
        assert not page.is_checked("#opt-bystanders_pay_bonus")
        assert page.locator("#opt-fanbao_rights option[value='all']").inner_text() == (
            "其他人依次可反包"
        )
        page.select_option("#opt-fanbao_rights", "all")
        page.fill("#opt-hands", "2")
        page.select_option("#create-players", "4")
        page.select_option("#create-opponents", "bots")
        with page.expect_request(
            lambda r: r.method == "POST" and r.url.endswith("/api/tables")
        ) as created:
            page.click("#create-submit")
        assert created.value.post_data_json["options"] == {"fanbao_rights": "all", "hands": 2}
        page.wait_for_url("**/#/table/*")
        table = page.url.rsplit("/", 1)[1]

        # the server keeps the whole options dataclass: the preset with the two changes
        options = stack.api(f"/api/tables/{table}")["options"]
        preset = dataclasses.asdict(api.make_config(GAME, "guizhou").options)
        assert {k: v for k, v in options.items() if preset[k] != v} == {
            "fanbao_rights": "all",
            "hands": 2,
        }
        line = page.locator("#house-rules-line")
        line.wait_for()
        assert line.inner_text() == "房规：其他人依次可反包；局数：2"
        watch.assert_clean()
    finally:
        people.close()


def test_a_list_option_is_chosen_from_its_named_presets_or_typed(
    browser: Any, stack: Stack, artifacts: Path
) -> None:
    """关牌's lists are house rules too: the cards taken out chosen by a named preset, the planes
    with wings typed as a list; the table gets exactly those lists and names them."""
    people = Browsers(browser, stack)
    try:
        page, watch = people.page()
        open_lobby(page, stack, "guanpai")
        page.select_option("#create-game", "guanpai")
        page.select_option("#create-variant", "boke")
        page.click("#house-rules > summary")
        assert page.input_value("#opt-removed") == "2H 2D 2C AD"  # the variant's default
        page.select_option("#opt-removed-preset", "1")  # 主流: without ♥2 ♣2 ♦2 ♠A
        assert page.input_value("#opt-removed") == "2H 2C 2D AS"
        page.fill("#opt-plane_wings", "2")
        assert page.input_value("#opt-plane_wings-preset") == "custom"  # no preset says "2"
        page.locator("#opt-plane_wings").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "house-rules-lobby.png"))
        page.select_option("#create-opponents", "bots")
        with page.expect_request(
            lambda r: r.method == "POST" and r.url.endswith("/api/tables")
        ) as created:
            page.click("#create-submit")
        sent = created.value.post_data_json["options"]
        assert sent == {"removed": ["2H", "2C", "2D", "AS"], "plane_wings": [2]}
        page.wait_for_url("**/#/table/*")
        table = page.url.rsplit("/", 1)[1]
        options = stack.api(f"/api/tables/{table}")["options"]
        assert options["removed"] == ["2H", "2C", "2D", "AS"] and options["plane_wings"] == [2]
        line = page.locator("#house-rules-line")
        line.wait_for()
        text = line.inner_text()
        assert "主流：去掉♥2 ♣2 ♦2 ♠A" in text and "飞机带翅膀：几连飞机可带：2" in text, text
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(artifacts / "house-rules-list-390.png"), full_page=True)
        watch.assert_clean()
    finally:
        people.close()
