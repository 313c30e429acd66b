"""A new player's first game, in a real browser against the real stack: open the lobby, create a
关牌 table with two bots in the other seats, play the whole hand by clicking cards and buttons,
and reach the score screen — while a second person watches the same table, and then both
replay it. Every page is photographed at phone (390 px) and desktop (1280 px) width.

The scenario runs once (a module fixture) and records what it saw; each test below checks one
promise of the issue against that record. Nothing here imitates the server: every frame is the
gateway's own, watched with Playwright's WebSocket events.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import WIDTHS, Browsers, Watch
from e2e.probe import engine, send_unchecked
from e2e.stack import Stack
from paiju import api
from paiju.cards import card_codes, card_name, card_names, parse_card, parse_cards
from paiju.protocol import decode
from paiju.registry import get_game
from paiju.table import TableState

CARD = re.compile(r"^(?:[3-9TJQKA2][SHCD]|BJ|RJ)$")
CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass
class Played:
    table: str
    player: Watch
    spectator: Watch
    engine_ready_ms: float
    turns: int = 0
    clicked_cards: int = 0
    drag_selected: list[int] = field(default_factory=list)
    illegal: dict[str, Any] = field(default_factory=dict)
    refusal: dict[str, Any] = field(default_factory=dict)
    final_totals: list[int] = field(default_factory=list)
    spectator_totals: list[int] = field(default_factory=list)
    spectator_page: Any = None  # the second person's page, its engine started


def shoot(page: Any, artifacts: Path, name: str, width: int) -> None:
    if page.viewport_size["width"] != width:
        page.set_viewport_size({"width": width, "height": 900})
        # laid out at the new width, and painted since
        page.wait_for_function(f"window.innerWidth === {width}")
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
    page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)


def both_widths(page: Any, artifacts: Path, name: str) -> None:
    shoot(page, artifacts, name, WIDTHS["phone"])
    shoot(page, artifacts, name, WIDTHS["desktop"])


def my_turn_or_end(page: Any) -> str:
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' || !!document.querySelector('#score-sheet')",
        timeout=30_000,
    )
    return "end" if page.locator("#score-sheet").count() else "turn"


def version(page: Any) -> int:
    """The number of events in the view the page has drawn (not merely received)."""
    return int(page.get_attribute("#board .board", "data-version") or "0")


def after_move(page: Any, before: int) -> None:
    page.wait_for_function(
        f"Number(document.querySelector('#board .board')?.dataset.version) > {before}"
        " || !!document.querySelector('#score-sheet')",
        timeout=15_000,
    )


def hand_cards(page: Any) -> Any:
    return page.locator("#hand .card[data-index]")


def click_card(page: Any, index: int) -> None:
    # cards overlap in a fan: click the strip of the card that shows (its left edge)
    hand_cards(page).nth(index).click(position={"x": 6, "y": 30})


def selected(page: Any) -> list[int]:
    return [
        int(i)
        for i in page.eval_on_selector_all(
            "#hand .card.selected", "els => els.map(e => e.dataset.index)"
        )
    ]


def drag_across(page: Any, first: int, last: int) -> None:
    a = hand_cards(page).nth(first).bounding_box()
    b = hand_cards(page).nth(last).bounding_box()
    assert a is not None and b is not None
    page.mouse.move(a["x"] + 6, a["y"] + 30)
    page.mouse.down()
    page.mouse.move(b["x"] + 6, b["y"] + 30, steps=6)
    page.mouse.up()


def frames_until(page: Any, condition: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Whether ``condition`` (on the frames a ``Watch`` recorded) comes true within ``timeout``
    seconds. Playwright delivers WebSocket events to Python while it waits, so it waits in short
    steps in the page, checking after each."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        page.wait_for_timeout(20)
    return True


def try_illegal_selection(page: Any, record: Played) -> None:
    """Two cards of different ranks are no 关牌 combination: the engine in the worker says why,
    in Chinese, then in English after the switch, and not one WebSocket frame leaves the page
    (``frames_sent`` is filled in by ``server_refusal``: every frame the page sent before the
    command sent after this, which the server answers)."""
    if page.locator("#clear").is_enabled():
        page.click("#clear")
    sent_before = len(record.player.sent)
    n = hand_cards(page).count()
    click_card(page, 0)  # the strongest card
    click_card(page, n - 1)  # and the weakest: always two different ranks
    record.clicked_cards += 2
    # the verdict on both cards: the one on the first alone (an error too when it cannot beat
    # the trick) stays on the line until the worker answers, and never names the second card
    weakest = card_name(parse_card(hand_cards(page).nth(n - 1).get_attribute("data-code")), "zh")
    page.wait_for_function(
        """(name) => {
            const reason = document.querySelector('#reason');
            return reason.dataset.kind === 'error' && reason.textContent.includes(name);
        }""",
        arg=weakest,
    )
    reason_zh, code = page.evaluate(
        "() => [document.querySelector('#reason').innerText,"
        " document.querySelector('#reason').dataset.code]"
    )
    play_disabled = page.locator("#play").is_disabled()
    page.click("#play", force=True)  # a click on the disabled button does nothing
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("#reason[data-kind='error']")
    reason_en = page.inner_text("#reason")
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    record.illegal = {
        "code": code,
        "reason_zh": reason_zh,
        "reason_en": reason_en,
        "play_disabled": play_disabled,
        "play_disabled_after": page.locator("#play").is_disabled(),
        "sent_from": sent_before,
        "cards": [hand_cards(page).nth(i).get_attribute("data-code") for i in (0, n - 1)],
    }
    page.click("#clear")


def server_refusal(page: Any, record: Played) -> None:
    """A command the local check would have stopped, sent anyway (as a stale client would): the
    gateway refuses it, the page shows the refusal and asks for the state again (``sync``)."""
    hand = set(page.evaluate("window.__table.hand"))
    missing = next(c for c in ("3D", "3S", "3H", "3C", "4D", "4S") if c not in hand)
    seat = page.evaluate("window.__table.seat")
    received_before = len(record.player.received)
    # the move the page sends next (不要, or the hint's play) goes out as this one
    move = ("#pass",) if page.locator("#pass").is_enabled() else ("#hint", "#play")
    command_id = send_unchecked(page, {"type": "play", "seat": seat, "cards": [missing]}, *move)
    page.wait_for_selector("#reason[data-code='not_in_hand']")
    page.wait_for_selector("#toast:not([hidden])")
    shown = card_name(parse_card(missing), "zh")  # the refusal names the card as a player reads it
    page.wait_for_function(
        f"document.querySelector('#reason').textContent.includes({json.dumps(shown)})"
    )

    def sent_index() -> int | None:
        """Where the unchecked command is among the frames the page sent."""
        ids = [json.loads(f).get("id") for f in record.player.sent]
        return ids.index(command_id) if command_id in ids else None

    def resynced() -> bool:
        """A state came after the refusal (the answer to the page's ``sync``)."""
        kinds = [json.loads(f)["type"] for f in record.player.received[received_before:]]
        return "error" in kinds and "state" in kinds[kinds.index("error") :]

    # the server refused the command, so it left the page: every frame sent before it is known
    assert frames_until(page, lambda: sent_index() is not None), "the command was not sent"
    ours = sent_index()
    assert ours is not None
    record.illegal["frames_sent"] = record.player.sent[record.illegal.pop("sent_from") : ours]
    frames_until(page, resynced)
    sent = [json.loads(f) for f in record.player.sent[ours:]]
    received = [json.loads(f) for f in record.player.received[received_before:]]
    record.refusal = {
        "sent": [f["type"] for f in sent],
        "error": next((f for f in received if f["type"] == "error"), None),
        "resynced": any(f["type"] == "state" for f in received),
        "reason": page.inner_text("#reason"),
        "play_enabled_after": page.evaluate("document.body.dataset.myTurn === '1'"),
    }


def diagnose(page: Any) -> str:
    """What the page holds, for the message of a failed wait."""
    return str(
        page.evaluate(
            """() => { const s = window.__table; return JSON.stringify({
            engine: document.body.dataset.engine, myTurn: document.body.dataset.myTurn,
            seat: s?.seat, pending: s?.pending, settled: s?.settled, connected: s?.connected,
            turn: s?.view?.turn, phase: s?.view?.phase, version: s?.view?.version,
            moves: s?.moves?.length, frames: s?.frames,
            hint: document.querySelector('#hint')?.disabled }) }"""
        )
    )


def take_turn(page: Any, record: Played) -> None:
    """Choose a play as a player does: on alternate turns by clicking its cards one by one (a
    lead: the weakest card), or with 提示 (hint); play it, or pass when nothing beats."""
    before = version(page)
    state = page.evaluate("window.__table")
    plays = [m for m in state["moves"] if m["type"] == "play"]
    if plays and record.turns % 2 == 0:
        cards = [state["hand"][-1]] if not state["view"]["lead"] else plays[0]["cards"]
        for code in cards:
            index = state["hand"].index(code)
            click_card(page, index)
            record.clicked_cards += 1
        page.wait_for_function("!document.querySelector('#play').disabled")
    elif plays:
        page.click("#hint")
        page.wait_for_function("!document.querySelector('#play').disabled")
    if page.locator("#play").is_enabled():
        page.click("#play")
    else:
        page.wait_for_function("!document.querySelector('#pass').disabled")
        page.click("#pass")
    record.turns += 1
    after_move(page, before)


# the sheet's own table of the hand, not the hand-by-hand score table shown under it at the end
SHEET_TABLE = "table:not(#score-table)"


def totals_of(page: Any, scope: str = "") -> list[int]:
    page.wait_for_selector(f"{scope} #score-sheet {SHEET_TABLE} td.total")
    texts = page.eval_on_selector_all(
        f"{scope} #score-sheet {SHEET_TABLE} tbody tr td.total",
        "els => els.map(e => e.textContent)",
    )
    return [int(t.replace("+", "")) for t in texts]


@pytest.fixture(scope="module")
def played(browser: Any, stack: Stack, artifacts: Path) -> Iterator[Played]:
    people = Browsers(browser, stack)
    try:
        page, player = people.page(WIDTHS["desktop"])
        page.goto(stack.url)
        page.wait_for_selector(".game-card[data-game='guanpai']")
        page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
        ready_ms = page.evaluate(engine("readyAt"))
        both_widths(page, artifacts, "lobby")

        page.select_option("#create-game", "guanpai")
        page.select_option("#create-variant", "boke")
        page.select_option("#create-players", "3")
        page.select_option("#create-opponents", "bots")  # two bots fill the other seats
        page.click("#create-submit")
        page.wait_for_url(re.compile(r".*#/table/[0-9a-f]+$"))
        table = page.url.rsplit("/", 1)[1]

        # a second person finds the table among the live ones in the lobby and watches it
        watcher, spectator = people.page(WIDTHS["desktop"])
        watcher.goto(stack.url)
        watcher.click(f"#live-list .table-row[data-table='{table}'] .watch-link")
        watcher.wait_for_url(re.compile(rf".*#/watch/{table}$"))
        watcher.wait_for_selector(".board")

        record = Played(table, player, spectator, ready_ms)
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 16")
        try:
            play_the_hand(page, watcher, record, artifacts)
        except Exception as exc:
            raise AssertionError(
                f"{exc}\npage: {diagnose(page)}\nframes: {player.received[-8:]}"
            ) from exc
        record.final_totals = totals_of(page)
        page.wait_for_selector("#score-sheet[data-final='1']")
        both_widths(page, artifacts, "score")
        record.spectator_totals = totals_of(watcher)
        record.spectator_page = watcher
        yield record
    finally:
        people.close()


def play_the_hand(page: Any, watcher: Any, record: Played, artifacts: Path) -> None:
    first = True
    while my_turn_or_end(page) == "turn":
        if first:
            first = False
            n = hand_cards(page).count()
            drag_across(page, n - 3, n - 1)
            record.drag_selected = selected(page)
            page.click("#clear")
            try_illegal_selection(page, record)
            server_refusal(page, record)
            page.click("#hint")  # a legal play selected: the table as a player sees it
            both_widths(page, artifacts, "table")
            if page.locator("#clear").is_enabled():  # (no selection when nothing beats)
                page.click("#clear")
            both_widths(watcher, artifacts, "spectator")
        take_turn(page, record)


def test_a_whole_hand_is_played_by_clicking_and_ends_on_the_score_screen(
    played: Played, stack: Stack
) -> None:
    assert played.turns >= 3 and played.clicked_cards >= 3
    assert sum(played.final_totals) == 0 and any(played.final_totals)
    table = stack.api(f"/api/tables/{played.table}")
    assert table["status"] == "finished"
    assert table["totals"] == played.final_totals
    assert [s["kind"] for s in table["seats"]].count("bot") == 2
    assert played.spectator_totals == played.final_totals


def test_an_illegal_selection_is_refused_in_the_worker_and_nothing_is_sent(played: Played) -> None:
    illegal = played.illegal
    assert illegal["play_disabled"] and illegal["play_disabled_after"]
    assert illegal["code"] == "invalid_combination"
    assert CJK.search(illegal["reason_zh"]), illegal["reason_zh"]
    # the refusal names the cards as players read them (♠10 / 10♠), never by their codes
    cards = parse_cards(illegal["cards"])
    assert illegal["reason_zh"].endswith(card_names(cards, "zh")), illegal["reason_zh"]
    assert illegal["reason_en"] == f"Not a valid combination: {card_names(cards, 'en')}"
    assert illegal["frames_sent"] == []
    # the moves that were played did go out as command frames: one per turn, and the one sent
    # unchecked on purpose (test_a_server_refusal_is_shown_and_the_view_resynchronises)
    commands = [json.loads(f) for f in played.player.sent if '"command"' in f]
    assert len(commands) == played.turns + 1


def test_a_server_refusal_is_shown_and_the_view_resynchronises(played: Played) -> None:
    refusal = played.refusal
    assert refusal["sent"] == ["command", "sync"]
    assert refusal["error"] is not None and refusal["error"]["code"] == "not_in_hand"
    assert refusal["resynced"]
    assert CJK.search(refusal["reason"])
    assert refusal["play_enabled_after"]  # still our turn: the game goes on


def test_dragging_across_cards_selects_the_run(played: Played) -> None:
    assert len(played.drag_selected) == 3
    assert played.drag_selected == sorted(played.drag_selected)
    assert played.drag_selected[-1] - played.drag_selected[0] == 2


def test_the_spectator_never_receives_a_hidden_card(played: Played, stack: Stack) -> None:
    """Every frame the spectator got is checked against the hands as they were at that event
    (rebuilt from the finished table's full log): no card still held ever reached it."""
    frames = [json.loads(f) for f in played.spectator.received]
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) >= 10, "the spectator did not follow the game"
    assert len(spectator_frames_checked(stack, played.table, states)) >= 5
    assert not any('"command"' in f or '"hello"' in f for f in played.spectator.sent)


def spectator_frames_checked(
    stack: Stack, table: str, frames: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], TableState]]:
    """A spectator's state frames against the table's true state at each frame's event (the
    finished table's log, replayed once): no frame shows a seat's hand, and while a hand is
    dealt and in play none shows a card of which every copy is still held, but for cards the game
    names in public (板子炮's called card). (With two decks a card shown may be the played copy of
    one whose twin is held: copies are counted.) Returns those frames, each with its true state."""
    log = stack.api(f"/api/tables/{table}/log")
    config = api.config_from_dict(log["header"]["config"])
    game = get_game(config.game)
    copies = Counter(card_codes(game.pack(config)))
    states = [api.initial_state(config)]
    for event in log["events"]:
        states.append(api.evolve(states[-1], decode(event)))
    checked = []
    for frame in frames:
        view = frame["view"]
        assert view["seat"] is None and view["hand"] is None
        if view["phase"] != "seeding" and view["phase"] not in game.seat_phases:
            continue  # the hand is over: every hand is public
        assert view["hands"] is None
        truth = states[frame["index"]]
        held_copies = Counter(code for hand in truth.hands for code in card_codes(hand))
        held = {code for code, n in held_copies.items() if n == copies[code]}
        shown = set(card_strings(frame)) - set(card_codes(game.named_cards(truth)))
        assert not (shown & held), f"hidden cards {shown & held} at event {frame['index']}"
        checked.append((frame, truth))
    return checked


def card_strings(value: Any) -> Iterator[str]:
    """Every card code in a frame, but for what a wildcard stood for (``stands_for``: a card
    named, not a card shown)."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "stands_for":
                yield from card_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_strings(v)


def test_the_replay_steps_to_the_end_and_back_with_the_same_scores(
    played: Played, stack: Stack, artifacts: Path
) -> None:
    """The spectator goes back to the lobby in the same page (its engine, which replays the
    table, already started: test_a_shared_replay_link_opens_at_its_step opens a fresh one) and
    replays the table from the finished list."""
    page = played.spectator_page
    page.goto(f"{stack.url}#/")
    page.wait_for_selector(f"#finished-list .table-row[data-table='{played.table}']")
    page.click(f"#finished-list .table-row[data-table='{played.table}'] .replay-link")
    page.wait_for_selector(".replay-page[data-ready='1']")
    last = int(page.get_attribute(".replay-page", "data-last") or "0")
    assert last == len(stack.api(f"/api/tables/{played.table}/log")["events"])
    page.click("#replay-last")
    page.wait_for_selector(f".replay-page[data-step='{last}']")
    assert totals_of(page, ".replay-sheet") == played.final_totals
    assert "step=" in page.url
    both_widths(page, artifacts, "replay-end")
    page.click("#replay-first")
    page.wait_for_selector(".replay-page[data-step='0']")
    assert page.locator("#score-sheet").count() == 0
    for step in (1, 2, 3):
        page.click("#replay-forward")
        page.wait_for_selector(f".replay-page[data-step='{step}']")
    page.click("#replay-back")
    page.wait_for_selector(".replay-page[data-step='2']")
    # every hand is open once dealt
    dealt = next(
        i + 1
        for i, e in enumerate(stack.api(f"/api/tables/{played.table}/log")["events"])
        if e["type"] == "dealt"
    )
    page.fill("#replay-slider", str(dealt))
    page.wait_for_selector(f".replay-page[data-step='{dealt}']")
    assert page.locator(".seat .open-hand").count() == 3
    both_widths(page, artifacts, "replay")
    page.click("#replay-last")
    page.wait_for_selector(f".replay-page[data-step='{last}']")
    assert totals_of(page, ".replay-sheet") == played.final_totals


def test_a_shared_replay_link_opens_at_its_step(
    played: Played, browsers: Browsers, stack: Stack
) -> None:
    page, _ = browsers.page(WIDTHS["phone"])
    page.goto(f"{stack.url}#/replay/{played.table}?step=7")
    # a fresh visit: the engine that replays starts first (open_lobby allows it a minute too)
    page.wait_for_selector(".replay-page[data-ready='1']", timeout=60_000)
    assert page.get_attribute(".replay-page", "data-step") == "7"
    assert page.input_value("#replay-slider") == "7"
    page.click("#replay-play")  # plays on by itself
    page.wait_for_function("Number(document.querySelector('.replay-page').dataset.step) > 8")
    page.click("#replay-play")


def test_no_console_error_and_nothing_loaded_from_elsewhere(played: Played) -> None:
    played.player.assert_clean()
    played.spectator.assert_clean()
    assert any(u.endswith(".whl") for u in played.player.requests)
    assert any("/pyodide/" in u for u in played.player.requests)
    assert played.engine_ready_ms > 0
