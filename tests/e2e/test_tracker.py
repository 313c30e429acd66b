"""记牌器 in the browser: a seat opens the card counter, plays a whole hand of 关牌 by clicking
against two bots, and at each of its turns the panel shows, for every rank, the number of cards
neither in its hand nor played yet. After the hand the table's log (public once it is finished)
gives the truth at each of those moments: the pack minus the seat's hand minus every card played
since the deal."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby
from e2e.test_layout import SIZES, STATE, open_my_table
from e2e.test_play import Played, my_turn_or_end, take_turn
from paiju import api
from paiju.cards import card_codes
from paiju.registry import get_game


def panel(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(
        f"""() => ({{
            version: {STATE}.view.version,
            hand: {STATE}.view.hand,
            complete: document.querySelector('#tracker').dataset.complete === '1',
            counts: Object.fromEntries([...document.querySelectorAll('#tracker li[data-rank]')]
                .map((li) => [li.dataset.rank, Number(li.querySelector('.tracker-left').textContent)])),
        }})"""
    )
    return out


def test_the_card_counter_shows_the_cards_neither_held_nor_played(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, watch = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, "guanpai")
    table = open_my_table(stack, page, "guanpai", "boke", 3)
    page.wait_for_function("document.querySelectorAll('#hand .card').length === 16")
    assert page.locator("#tracker").is_hidden()  # optional: closed until asked for
    page.click("#tracker-toggle")
    page.wait_for_selector("#tracker li[data-rank]")
    record = Played(table, watch, watch, 0.0)
    seen: list[dict[str, Any]] = []
    while my_turn_or_end(page) == "turn":
        page.wait_for_selector("#tracker li[data-rank]")
        seen.append(panel(page))
        if len(seen) == 4:  # the panel as a player sees it, at both sizes
            for size in ("phone", "desktop"):
                width, height = SIZES[size]
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_function(f"window.innerWidth === {width}")
                page.screenshot(path=str(artifacts / f"tracker-{size}.png"))
        take_turn(page, record)
    # the choice is remembered: a reload opens the counter again
    assert page.evaluate("localStorage.getItem('paiju.tracker')") == "1"

    log = stack.api(f"/api/tables/{table}/log")
    config = api.config_from_dict(log["header"]["config"])
    pack = Counter(
        c if c in ("BJ", "RJ") else c[0] for c in card_codes(get_game("guanpai").pack(config))
    )
    truth_at: dict[int, dict[str, int]] = {}
    state = api.initial_state(config)
    played: list[str] = []
    for event in log["events"]:
        state = api.evolve(state, event)
        if event["type"] == "dealt":
            played = []
        if event["type"] == "played":
            played.extend(event["cards"])
        mine = Counter(c[0] for c in card_codes(state.hands[0])) if state.hands else Counter()
        gone = Counter(c[0] for c in played)
        truth_at[state.version] = {r: pack[r] - mine[r] - gone[r] for r in pack}
    after_plays = [s for s in seen if sum(s["counts"].values()) < 32]
    assert len(after_plays) >= 3, seen
    for snap in seen:
        assert snap["complete"], snap  # the page saw the hand from its deal
        assert snap["counts"] == truth_at[snap["version"]], snap
