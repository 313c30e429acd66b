"""The score sheet as a player reads it: a one-hand match's only sheet opens as the match's end
(never as "第 1 局结算" with 继续 that turns into "比赛结束" a moment later), and a sheet where
nobody won or lost says 平局 rather than leaving four zeros and no crown to be puzzled over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby
from e2e.test_layout import SIZES, STATE, open_my_table

# every title the sheet shows, from the page's first script on (test code, run in the page)
RECORD_TITLES = """
window.__sheetTitles = [];
new MutationObserver(() => {
  const title = document.querySelector('#score-sheet h2')?.textContent;
  const titles = window.__sheetTitles;
  if (title && titles[titles.length - 1] !== title) titles.push(title);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_a_one_hand_match_s_sheet_opens_as_the_match_s_end(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, _ = browsers.page(*SIZES["desktop"])
    page.add_init_script(RECORD_TITLES)
    open_lobby(page, stack, "guanpai")
    open_my_table(stack, page, "guanpai", "boke", 3)  # the variant's one hand
    page.wait_for_selector("#auto:not([hidden])")
    page.click("#auto")  # 托管: the server plays the seat's hand out
    page.wait_for_selector("#score-sheet[data-final='1']", timeout=60_000)
    page.screenshot(path=str(artifacts / "sheet-one-hand-desktop.png"))
    assert page.evaluate(f"{STATE}.view.phase") == "over"
    assert page.evaluate("window.__sheetTitles") == ["比赛结束"]
    assert page.locator("#continue").count() == 0


def sheet_of(page: Any, scores: list[int], totals: list[int], final: bool) -> dict[str, Any]:
    """The sheet that score-sheet.js draws for a hand with these scores (in the page)."""
    out: dict[str, Any] = page.evaluate(
        """async ([scores, totals, final]) => {
            const { scoreSheet } = await import('/js/score-sheet.js');
            const view = {
                players: 4, phase: final ? 'over' : 'commit', totals, counts: [0, 3, 5, 2],
                last_hand: { hand_no: 1, order: [0, 1, 2, 3], scores, lines: [] },
                result: { kind: 'payments', scores },
            };
            const sheet = scoreSheet({ view, words: {}, names: ['甲', '乙', '丙', '丁'] }, { final });
            return {
                draw: sheet.querySelector('#draw')?.textContent ?? null,
                crowns: sheet.querySelectorAll('.crown').length,
            };
        }""",
        [scores, totals, final],
    )
    return out


def test_a_sheet_where_nobody_wins_says_it_is_a_draw(browsers: Browsers, stack: Stack) -> None:
    page, _ = browsers.page(*SIZES["phone"])
    open_lobby(page, stack, "dabei")
    assert sheet_of(page, [0, 0, 0, 0], [0, 0, 0, 0], False) == {
        "draw": "本局平局：无人输赢",
        "crowns": 0,
    }
    assert sheet_of(page, [0, 0, 0, 0], [2, 2, 2, 2], True) == {
        "draw": "平局：总分相同，没有赢家",
        "crowns": 0,
    }
    assert sheet_of(page, [3, -1, -1, -1], [3, -1, -1, -1], True) == {"draw": None, "crowns": 1}
