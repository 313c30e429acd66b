"""English is complete: with the page in English, the lobby, a table in play and the replay of a
finished game show no Han character outside card and game names (and the player's own name), and
no full-width punctuation — in their text, their labels and their tooltips; after switching the
language at run time, too. Bots are named in English."""

from __future__ import annotations

import re
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby
from e2e.test_layout import SIZES, open_my_table
from e2e.test_play import Played, my_turn_or_end, take_turn

HAN = re.compile(r"[\u3400-\u9fff]")
FULL_WIDTH = re.compile(r"[\u3000-\u303f\uff01-\uff5e]")  # 。，：；（）「」、 and the like
CARD_NAMES = ("大王", "小王")
PLAYERS = ("测试玩家",)  # names people chose (other tests' players, in the lobby's lists)

TEXTS = """() => {
  const out = [];
  // what is shown, but for what is marked as written in Chinese (the switch to Chinese, the seal)
  const shown = (el) => el && !el.closest('svg, [aria-hidden="true"], script, style, noscript, [hidden], [lang^="zh"]')
    && el.getClientRects().length > 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (shown(node.parentElement) && node.textContent.trim()) out.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (!shown(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
}"""


def foreign(page: Any, allowed: list[str]) -> list[str]:
    """The page's texts with Han characters or full-width punctuation, once card names, game
    names and ``allowed`` names are taken out."""
    bad = []
    for text in page.evaluate(TEXTS):
        rest = text
        for name in sorted([*CARD_NAMES, *PLAYERS, *allowed], key=len, reverse=True):
            rest = rest.replace(name, "")
        if HAN.search(rest) or FULL_WIDTH.search(rest):
            bad.append(text)
    return bad


def catalogue_names(stack: Stack) -> list[str]:
    """Game names, and whatever Han the catalogue's own English holds (the engine's words, not the
    page's: e.g. a term quoted in a game's English description)."""
    games = stack.api("/api/games")
    out = [g["name_zh"] for g in games]

    def english_texts(value: Any, key: str = "") -> Any:
        if isinstance(value, str):
            if key.endswith("en"):
                yield value
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from english_texts(v, k)
        elif isinstance(value, list):
            if len(value) == 2 and all(isinstance(v, str) for v in value):
                yield value[1]  # a [zh, en] pair
            else:
                for v in value:
                    yield from english_texts(v, key)

    for text in english_texts(games):
        out.extend(re.findall(r"[\u3400-\u9fff]+", text))
    return out


def seated_names(stack: Stack) -> list[str]:
    """Every name people gave themselves at the tables the lobby may list: their own words."""
    statuses = ("open", "playing", "finished")
    tables = [t for status in statuses for t in stack.api(f"/api/tables?status={status}")]
    return [s["name"] for t in tables for s in t["seats"] if s["name"] and s["kind"] == "human"]


def english(page: Any) -> None:
    if page.evaluate("document.documentElement.lang") != "en":
        page.click("#lang-switch")
        page.wait_for_function("document.documentElement.lang === 'en'")


LAST_CLICKED_TURN = 3  # the table's words are read at my turns 0, 1 and 3; 托管 plays the rest


def test_the_lobby_a_table_and_a_replay_read_in_english(browsers: Browsers, stack: Stack) -> None:
    allowed = catalogue_names(stack)
    page, watch = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, "guanpai")
    allowed += seated_names(stack)  # other tests' players, as they named themselves
    english(page)
    assert not foreign(page, allowed), foreign(page, allowed)

    table = open_my_table(stack, page, "guanpai", "boke", 3, name="Tester")
    record = Played(table, watch, watch, 0.0)
    turns = 0
    while my_turn_or_end(page) == "turn":
        if turns in (0, 3):
            assert not foreign(page, allowed), foreign(page, allowed)
            bots = page.eval_on_selector_all(
                ".seat .seat-name", "els => els.map(e => e.textContent)"
            )
            assert any(re.fullmatch(r"Bot \d · Normal", b) for b in bots), bots  # and its level
        if turns == 1:  # a switch to Chinese and back at the table
            page.click("#lang-switch")
            page.wait_for_function("document.documentElement.lang === 'zh-CN'")
            english(page)
            assert not foreign(page, allowed), foreign(page, allowed)
        if turns == LAST_CLICKED_TURN + 1:  # what the table says is checked: 托管 plays on
            page.click("#auto")
            page.wait_for_selector("#auto[data-on='1']")
            break
        take_turn(page, record)
        turns += 1
    # the match's sheet: the hand's comes a moment before match_ended (the replay needs that)
    page.wait_for_selector("#score-sheet[data-final='1']", timeout=90_000)
    assert not foreign(page, allowed), foreign(page, allowed)

    page.goto(f"{stack.url}#/replay/{table}?step=8")
    page.wait_for_selector(".replay-page[data-ready='1']")
    assert not foreign(page, allowed), foreign(page, allowed)
    page.click("#lang-switch")  # to Chinese and back on the replay page
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    english(page)
    assert not foreign(page, allowed), foreign(page, allowed)
    page.click("#replay-last")
    page.wait_for_selector("#score-sheet")
    assert not foreign(page, allowed), foreign(page, allowed)


def test_a_new_player_is_named_and_guanpai_described_in_the_pages_language(
    browsers: Browsers, stack: Stack
) -> None:
    """A first visit's default name is 玩家NNNN in Chinese and PlayerNNNN in English (the same
    number); Guanpai's description says "shut out" in English, not 被关."""
    page, _ = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, "guanpai")
    chinese = page.input_value("#create-name")
    assert re.fullmatch(r"玩家\d{4}", chinese), chinese
    english(page)
    page.wait_for_function("document.querySelector('#create-name')?.value.startsWith('Player')")
    assert page.input_value("#create-name") == f"Player{chinese.removeprefix('玩家')}"

    page.goto(f"{stack.url}#/rules/guanpai")
    lead = page.locator(".lead", has_text="Guanpai is")
    lead.wait_for()
    assert "shut out" in lead.inner_text()
    assert not HAN.search(lead.inner_text()), lead.inner_text()
