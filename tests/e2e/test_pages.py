"""The pages around the table: every game's rules page, the English switch of the lobby, and a
table that waits for people: a second person takes a seat from the lobby, the empty one is filled
with a bot, and both players are dealt their hands."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.stack import Stack
from paiju import api
from paiju.client import display_order


def test_each_game_has_its_rules_page_for_players(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """Each game's page is its players' guide (web-client/guide) in the page's language, its card
    groups drawn as cards; the developers' notes are a link away; from a table, the page says the
    table's own house rules."""
    page, _ = browsers.page(WIDTHS["phone"])
    games: list[dict[str, Any]] = stack.api("/api/games")
    page.goto(stack.url)
    for game in games:
        page.goto(f"{stack.url}#/rules/{game['id']}")
        page.wait_for_selector(".rules-doc h2")
        assert game["name_zh"] in page.inner_text(".rules-page h1")
        for variant in game["variants"]:
            assert variant["name_zh"] in page.inner_text(".variants")
        assert "计分" in page.inner_text(".rules-doc")  # the guide's sections, in Chinese
        pictures = page.locator(".rules-doc .card-pics .card")
        assert pictures.count() > 0 and "{{" not in page.inner_text(".rules-doc")
    page.screenshot(path=str(artifacts / "rules-guide-390.png"), full_page=False)
    # in English, the English guide; the notes for developers are a link away
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function("document.querySelector('.rules-doc')?.textContent.includes('Scoring')")
    page.click("#rules-other")
    page.wait_for_function("location.hash.includes('notes=1')")
    page.wait_for_function(
        "document.querySelector('.rules-doc')?.textContent.includes('as implemented')"
    )
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    # from a table with a house rule: the page names the table's rules
    table = stack.api(
        "/api/tables", {"game": "guanpai", "variant": "boke", "options": {"hands": 3}}
    )
    page.goto(f"{stack.url}#/rules/guanpai?table={table['id']}")
    page.wait_for_selector("#table-house-rules")
    assert "3" in page.inner_text("#table-house-rules")
    assert page.get_attribute(".rules-page a.back", "href") == f"#/table/{table['id']}"


def test_the_lobby_speaks_english_on_request(browsers: Browsers, stack: Stack) -> None:
    page, _ = browsers.page(WIDTHS["desktop"])
    page.goto(stack.url)
    page.wait_for_selector(".game-card[data-game='guanpai']")
    assert "开一桌" in page.inner_text("#create")
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "New table" in page.inner_text("#create")
    assert "Guanpai" in page.inner_text(".game-card[data-game='guanpai'] h3")
    page.reload()  # the choice is remembered
    page.wait_for_selector(".game-card[data-game='guanpai']")
    assert "New table" in page.inner_text("#create")
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")


def test_a_waiting_table_gets_a_second_player_and_a_bot(browsers: Browsers, stack: Stack) -> None:
    host, _ = browsers.page(WIDTHS["desktop"])
    host.goto(stack.url)
    host.wait_for_selector(".game-card[data-game='guanpai']")
    host.select_option("#create-game", "guanpai")
    host.select_option("#create-variant", "mainstream")
    host.select_option("#create-players", "3")
    host.select_option("#create-opponents", "wait")
    host.click("#create-submit")
    host.wait_for_url(re.compile(r".*#/table/[0-9a-f]+$"))
    table = host.url.rsplit("/", 1)[1]
    host.wait_for_selector("#waiting li.empty")

    guest, _ = browsers.page(WIDTHS["phone"])
    guest.goto(stack.url)
    guest.click(f"#live-list .table-row[data-table='{table}'] button")  # 入座: take a seat
    guest.wait_for_url(re.compile(rf".*#/table/{table}$"))
    guest.wait_for_selector("#waiting li.human >> nth=1")

    host.wait_for_selector("#waiting li.human >> nth=1")  # the host sees the guest arrive
    assert host.locator("#waiting li.empty").count() == 1
    host.click("#fill-bots")
    for page in (host, guest):
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 16")
        assert page.locator("#waiting").is_hidden()
    seats = stack.api(f"/api/tables/{table}")["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "bot"]

    # a reload resumes the seat (its token is kept in this browser); the hand comes back in the
    # game's order (strongest first) once the engine has started again
    info = stack.api(f"/api/tables/{table}")
    config = api.make_config(info["game"], info["variant"], info["players"], info["options"])
    hand = guest.evaluate("window.__table.hand")
    ordered = json.dumps(display_order(config, hand), separators=(",", ":"))
    guest.reload()
    guest.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    guest.wait_for_function(f"JSON.stringify(window.__table?.hand) === {json.dumps(ordered)}")
    assert guest.evaluate("window.__table.seat") == 1
