"""What the browser tests of the games with an auction share (板子炮, 打拱, 打棒): the page's state
and when my turn is drawn, the record of a hand as the pages showed it, the frames a page
received, the screenshots at both widths, and the 记牌器 read at my first turn of play (every
game's tests)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Watch
from e2e.probe import STATE
from e2e.stack import Stack, wait_until
from e2e.test_play import Played
from paiju import api
from paiju.cards import card_codes
from paiju.registry import get_game
from paiju.tracker import rank_key

# my turn as drawn, with its moves listed (the page's state runs ahead of what it has drawn while
# a frame goes through the engine: a turn read then could be the one before, whose buttons a
# click would press in the next phase: CI on 53f2bc9 answered 打棒's exchange with the declaring
# window's 不亮)
MY_TURN_DRAWN = (
    f"document.body.dataset.myTurn === '1' && {STATE}.moves.length > 0"
    f" && Number(document.querySelector('#board .board')?.dataset.version) === {STATE}.view.version"
)
TURN_OR_SHEET = f"({MY_TURN_DRAWN}) || !!document.querySelector('#score-sheet')"


@dataclass
class Hand:
    """What one hand went through, as the pages showed it (板子炮, 打拱 and 打棒 keep it)."""

    table: str
    player: Watch
    spectator: Watch | None = None
    bids: list[dict[str, Any]] = field(default_factory=list)  # each of my turns in the auction
    calls: list[dict[str, Any]] = field(default_factory=list)  # my turn to call, if I dealt
    secret_checks: int = 0  # spectator pages looked at while the partner was secret
    played: Played | None = None  # my turns of play (test_play's record)
    phases: list[str] = field(default_factory=list)  # the phases of my turns, in order
    sheet: dict[str, Any] = field(default_factory=dict)
    shots: set[str] = field(default_factory=set)  # screenshots still to take: bid, call, spectator

    def __post_init__(self) -> None:
        self.played = Played(self.table, self.player, self.spectator or self.player, 0.0)


def settle_layout(page: Any) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def shoot_both(page: Any, artifacts: Path, name: str) -> None:
    """The page at phone width, then desktop width (where it stays); at neither may anything
    stick out sideways."""
    for width in (WIDTHS["phone"], WIDTHS["desktop"]):
        page.set_viewport_size({"width": width, "height": 900})
        settle_layout(page)
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{name} is {wide}px wide at {width}px"


def dealt_view(stack: Stack, table: str, timeout: float = 20.0) -> dict[str, Any]:
    """The public view once the table has dealt (the deal follows the last seat at once)."""

    def dealt() -> dict[str, Any] | None:
        view: dict[str, Any] = stack.api(f"/api/tables/{table}/state")["view"]
        return view if view["counts"] and view["phase"] not in ("commit", "seeding") else None

    return wait_until(dealt, timeout, f"table {table} to deal")


def watch(page: Any, stack: Stack, table: str) -> None:
    page.goto(f"{stack.url}#/watch/{table}")
    page.wait_for_selector(".board")


def state(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate(STATE)
    return out


def server_moves(hand: Hand) -> list[dict[str, Any]]:
    """The legal moves in the last state frame the server sent to my seat at this table."""
    frames = frames_of(hand.player, hand.table)
    if not frames:
        return []
    moves: list[dict[str, Any]] = frames[-1].get("moves") or []
    return moves


def frames_of(watch: Watch, table: str) -> list[dict[str, Any]]:
    """The state frames a page received from one table (a page may have followed others)."""
    frames = (json.loads(f) for f in watch.received if '"state"' in f)
    return [f for f in frames if f.get("type") == "state" and f.get("table") == table]


TRACKER_PANEL = """() => ({
    complete: document.querySelector('#tracker')?.dataset.complete === '1',
    counts: Object.fromEntries([...document.querySelectorAll('#tracker li[data-rank]')]
        .map((li) => [li.dataset.rank, Number(li.querySelector('.tracker-left').textContent)])),
})"""


def tracker_counts_every_unseen_card(page: Any) -> None:
    """The 记牌器 at my first turn of a hand's play, as a seat present from the deal has it: marked
    complete, and for every rank the cards of the pack neither in my hand nor played (at my first
    turn every card played this hand is still on the table: no trick or round has closed without
    me). Opened, read and closed again, so that whatever is checked next sees the table as it
    was."""
    view = state(page)["view"]
    config = api.make_config(view["game"], view["variant"], view["players"])
    pack = Counter(rank_key(code) for code in card_codes(get_game(config.game).pack(config)))
    mine = Counter(rank_key(code) for code in view["hand"])
    played = Counter(rank_key(c) for action in view.get("actions") or [] if action for c in action)
    truth = {rank: pack[rank] - mine[rank] - played[rank] for rank in pack}
    page.click("#tracker-toggle")
    seen: list[dict[str, Any]] = []

    def right() -> bool:
        seen.append(page.evaluate(TRACKER_PANEL))
        return bool(seen[-1]["complete"]) and seen[-1]["counts"] == truth

    try:
        wait_until(right, 15, f"the 记牌器 of {view['game']} complete and right")
    except TimeoutError as exc:
        raise AssertionError(f"{exc}: shown {seen[-1]}, truth {truth}") from None
    page.click("#tracker-toggle")
    page.wait_for_selector("#tracker", state="hidden")
