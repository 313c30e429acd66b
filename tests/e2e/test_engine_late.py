"""A seat whose page has no engine yet still acts in time: at a 板子炮 table with a 20 s bid
clock, the engine held back (its snapshot's request left unanswered), the auction's buttons show
from the server's own list of the seat's legal moves, and a bid is accepted before the engine is
ready; the engine then comes, and the page goes on with it.

Screenshots: ``engine-late-bid-390.png`` and ``-1280.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.pages import STATE, frames_of, shoot_both, state
from e2e.stack import Stack
from e2e.test_banzipao import table_where_i_deal

CLOCK = {"play": 30, "bid": 20, "bury": 60, "continue": 15}
ENGINE = "document.body.dataset.engine"


def test_a_bid_is_made_from_the_server_s_moves_before_the_engine_is_ready(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, watch = browsers.page(390, 844)
    held: list[Any] = []  # the snapshot's requests, answered when the test says

    def hold(route: Any) -> None:
        held.append(route)

    page.context.route(re.compile(r".*/engine\.snapshot$"), hold)
    page.goto(stack.url)
    page.wait_for_selector(".game-card")
    # one hand: a deal that does not fit is played out by 托管 on its clock
    table = table_where_i_deal(stack, page, clock=CLOCK, options={"hands": 1})

    page.wait_for_selector("#speak[data-type='bid'] button[data-bid]")
    assert page.evaluate(ENGINE) != "ready" and held, "the engine was held back"
    server = sorted(m["bid"] for m in frames_of(watch, table)[-1]["moves"] if m["type"] == "bid")
    shown = page.eval_on_selector_all("#speak button[data-bid]", "bs => bs.map(b => b.dataset.bid)")
    assert sorted(shown) == server and "pass" in server, (shown, server)
    assert page.locator("#reason").is_hidden()  # the words speak for themselves: no "loading"
    shoot_both(page, artifacts, "engine-late-bid")

    before = state(page)["view"]["version"]
    page.click("#speak button[data-bid='pass']")
    page.wait_for_function(f"{STATE}.view.version > {before} && !{STATE}.pending")
    bids = stack.api(f"/api/tables/{table}/state")["view"]["bids"]
    assert [0, "pass"] in bids, bids  # the server took my 不包
    assert page.evaluate(ENGINE) != "ready"  # and the engine was still loading

    for route in held:  # the engine comes: the page goes on with it
        route.continue_()
    page.wait_for_function(f"{ENGINE} === 'ready'", timeout=60_000)
    page.wait_for_function(f"{STATE}.view.version > {before}")
