"""大北 and 条数 in the browser, with no code of their own in the client: a new player creates a
four-seat table in the lobby, plays a whole hand by clicking (the ♦4 opening of 大北 included) and
reaches the hand's score sheet."""

from __future__ import annotations

from typing import Any

import pytest

from e2e.conftest import WIDTHS, Browsers
from e2e.stack import Stack, create_in_lobby, open_lobby
from e2e.test_play import Played, my_turn_or_end, take_turn, totals_of

HAND_SCORED = "!!window.__table?.view?.last_hand"


@pytest.mark.parametrize("game", ["dabei", "tiaoshu"])
def test_a_hand_of_each_beihai_game_is_played_in_the_browser(
    browser: Any, stack: Stack, game: str
) -> None:
    people = Browsers(browser, stack)
    try:
        page, player = people.page(WIDTHS["desktop"])
        open_lobby(page, stack, game)
        table = create_in_lobby(page, game, "beihai")
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 13")
        record = Played(table, player, player, 0.0)
        # play until the first hand is scored (条数 deals its next hand at once: stop there)
        while my_turn_or_end(page) == "turn" and not page.evaluate(HAND_SCORED):
            take_turn(page, record)
        assert record.turns >= 1
        if game == "dabei":  # a one-hand match: the final sheet stays on the page
            totals = totals_of(page)
            assert len(totals) == 4 and sum(totals) == 0
        # the hand's score sheet, as the page's own view holds it (条数 goes on to its next hand)
        last = page.evaluate("window.__table.view.last_hand")
        assert last["type"] == "hand_ended" and last["hand_no"] >= 1  # bots may finish hand 2 first
        assert len(last["scores"]) == 4 and sum(last["scores"]) == 0  # 大北 may end in a draw
        player.assert_clean()
    finally:
        people.close()
