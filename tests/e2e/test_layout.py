"""Every built game's table fits a desktop (1280×800) and a phone (390×844) at every phase: its
bids, the dealer's card picker, the play and the score sheet. Checked from the elements' boxes,
never by eye: with the page scrolled to its top, every control (a button, a link that acts, a card
of the hand, a card to call, the line that says why) lies wholly inside the viewport, nothing
sticks out sideways, the centre of each control is the control itself (nothing covers it), and on
the phone each card of the hand shows a strip at least 32 px wide to tap.

Each game is played by clicking (a hint, or a pass) from a table where seat 0 is ours and bots sit
in the others; at each phase the page is resized to both sizes, checked, and photographed into
``artifacts/e2e/layout-<game>-<variant>-<phase>-<size>.png``.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import Browsers
from e2e.pages import Hand as BidHand
from e2e.pages import tracker_counts_every_unseen_card
from e2e.probe import STATE
from e2e.stack import Stack, open_lobby
from e2e.test_banzipao import bid, call, table_where_i_deal
from e2e.test_play import Played, diagnose, take_turn

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
MIN_STRIP = 32  # px of a card of the hand that shows, to tap on a phone
PHONE_WIDTH = 640  # the css's phone layout, up to this width
PHONE_ROW = 9  # about as many cards as a row of the hand holds at 390 px
TURN_OR_SHEET = "document.body.dataset.myTurn === '1' || !!document.querySelector('#score-sheet')"

# what a player acts on: every one must be on screen without scrolling
CONTROLS = (
    "#app button:not([disabled]), #app button[disabled], #app a.button, #app select,"
    " #hand .card, #speak .call-card, #why:not([hidden]), #reason"
)

MEASURE = """(selector) => {
  window.scrollTo(0, 0);
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const sheet = document.querySelector('#score-sheet');
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (sheet && !sheet.contains(el)) continue;  // under the sheet's backdrop: not to act on now
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;  // not shown
    if (el.closest('[hidden]')) continue;
    const cx = Math.min(Math.max(r.left + 4, 0), vw - 1), cy = Math.min(Math.max(r.top + r.height / 2, 0), vh - 1);
    const hit = document.elementFromPoint(cx, cy);
    out.push({
      what: el.id || el.dataset.code || el.dataset.card || el.className || el.tagName,
      text: (el.textContent || '').trim().slice(0, 24),
      left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
      covered: !(hit && (el === hit || el.contains(hit) || hit.contains(el))),
      hand: !!el.closest('#hand'),
    });
  }
  const cards = [...document.querySelectorAll('#hand .card[data-index]')].map((el) => el.getBoundingClientRect());
  const strips = cards.map((r, i) => {
    const later = cards.slice(i + 1).filter((o) => Math.abs(o.top - r.top) < r.height / 2 && o.left > r.left);
    return later.length ? Math.min(r.width, Math.min(...later.map((o) => o.left)) - r.left) : r.width;
  });
  return { vw, vh, scrollWidth: document.documentElement.scrollWidth, controls: out, strips };
}"""


def settle(page: Any) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check_fits(
    page: Any,
    artifacts: Path,
    name: str,
    problems: list[str],
    sizes: dict[str, tuple[int, int]] = SIZES,
) -> None:
    """At each size: every control inside the viewport and uncovered, nothing wider than the
    page, the phone's card strips at least 32 px; a screenshot of each."""
    for size, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        settle(page)
        page.wait_for_timeout(450)  # a play's motion to the centre has ended
        m = page.evaluate(MEASURE, CONTROLS)
        page.screenshot(path=str(artifacts / f"layout-{name}-{size}.png"))
        where = f"{name} at {width}×{height}"
        assert m["controls"], f"{where}: no control found"
        if m["scrollWidth"] > width:
            problems.append(f"{where}: the page is {m['scrollWidth']} px wide")
        for c in m["controls"]:
            if (
                c["top"] < 0
                or c["bottom"] > m["vh"] + 0.5
                or c["left"] < -0.5
                or c["right"] > m["vw"] + 0.5
            ):
                problems.append(f"{where}: {c['what']} {c['text']!r} is off screen {c}")
            # a card of the hand may lie under its neighbour (a fan, rows stacked on a phone):
            # what it shows of itself is measured by the strips below instead
            elif c["covered"] and not c["hand"] and not c["what"].startswith("card"):
                problems.append(f"{where}: {c['what']} {c['text']!r} is covered")
        if width <= PHONE_WIDTH and m["strips"]:
            narrow = min(m["strips"])
            if narrow < MIN_STRIP:
                problems.append(f"{where}: a card of the hand shows only {narrow:.0f} px")
    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    settle(page)


HAND_LAYOUT = (
    "[document.querySelector('#hand').dataset.stack, document.querySelector('#hand').dataset.rows]"
)


def open_my_table(
    stack: Stack, page: Any, game: str, variant: str, players: int, name: str = "测试玩家"
) -> str:
    """A table with us in seat 0, opened in the page before the bots take the other seats."""
    table = str(
        stack.api("/api/tables", {"game": game, "variant": variant, "players": players})["id"]
    )
    joined = stack.api(
        f"/api/tables/{table}/seats", {"name": name, "seat": 0, "seed": secrets.token_hex(16)}
    )
    page.evaluate(
        """([table, token]) => {
            const all = JSON.parse(localStorage.getItem("paiju.seats") || "{}");
            all[table] = { seat: 0, token, at: Date.now() };
            localStorage.setItem("paiju.seats", JSON.stringify(all));
        }""",
        [table, joined["token"]],
    )
    page.goto(f"{stack.url}#/table/{table}")
    page.wait_for_function(f"{STATE}?.seat === 0 && {STATE}.connected")
    stack.api(f"/api/tables/{table}/bots", {})
    return table


def moment_to_check(page: Any, phase: str, seen: set[str]) -> str | None:
    """A turn whose layout is yet to be checked: each phase's first, and in the play the first
    with each number of rows the hand takes on a phone as it shrinks (whole rows can be taller
    than the stacked rows of a bigger hand). Its name, once; None for a turn like one seen."""
    rows = -(-page.evaluate(f"{STATE}.hand.length") // PHONE_ROW)
    moment = phase if phase not in seen else f"{phase}-{rows}-rows"
    if moment in seen or (phase != "play" and moment != phase):
        return None
    seen.update((moment, f"{phase}-{rows}-rows"))
    return moment


def play_to_sheet(
    page: Any, artifacts: Path, name: str, problems: list[str], hand: Any = None
) -> None:
    """My turns until a score sheet, checked at both sizes at each moment_to_check."""
    record = Played("", None, None, 0.0)  # type: ignore[arg-type]
    seen: set[str] = set()
    for _ in range(200):
        page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
        if page.locator("#score-sheet").count():
            break
        phase = page.evaluate(f"{STATE}.view.phase")
        moment = moment_to_check(page, phase, seen)
        if moment:
            check_fits(page, artifacts, f"{name}-{moment}", problems)
            if moment == "play":
                drag_on_a_phone(page, problems)
                tracker_counts_every_unseen_card(page)
        if phase == "bid":
            bid(page, hand)
        elif phase == "call":
            call(page, hand)
        else:
            why_pass_is_disabled(page, problems)
            take_turn(page, record)
    else:
        raise AssertionError(f"no score sheet: {diagnose(page)}")
    assert "play" in seen, seen
    check_fits(page, artifacts, f"{name}-score", problems)


def drag_on_a_phone(page: Any, problems: list[str]) -> None:
    """On the phone, a finger pressed on a card and drawn across the next two (in its row)
    selects the three; then the selection is cleared."""
    page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    page.wait_for_function(f"window.innerWidth === {SIZES['phone'][0]}")
    settle(page)
    cards = page.locator("#hand .card[data-index]")
    if cards.count() >= 3:
        a = cards.nth(0).bounding_box()
        b = cards.nth(2).bounding_box()
        assert a is not None and b is not None
        page.mouse.move(a["x"] + 10, a["y"] + 40)
        page.mouse.down()
        page.mouse.move(b["x"] + 10, b["y"] + 40, steps=6)
        page.mouse.up()
        chosen = page.eval_on_selector_all(
            "#hand .card.selected", "els => els.map(e => Number(e.dataset.index))"
        )
        if chosen != [0, 1, 2]:
            problems.append(f"a drag across three cards on a phone selected {chosen}")
        page.click("#clear")
        page.wait_for_function("document.querySelectorAll('#hand .card.selected').length === 0")
    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
    settle(page)


def why_pass_is_disabled(page: Any, problems: list[str]) -> None:
    """When the engine allows no pass (a lead, or 必管 with a play that beats), 不要 is disabled and
    the engine's reason is a visible line of text (not only a tooltip), with the refusal's code."""
    page.wait_for_function(f"{STATE}.moves.length > 0")
    if any(m["type"] == "pass" for m in page.evaluate(f"{STATE}.moves")):
        return
    page.wait_for_selector("#why:not([hidden])")
    assert page.locator("#pass").is_disabled()
    text = page.inner_text("#why")
    code = page.get_attribute("#why", "data-code")
    if not code or len(text) < 6 or not page.locator("#why").is_visible():
        problems.append(f"the disabled pass says no reason: {text!r} ({code})")


GAMES = [
    ("guanpai", "boke", 3),
    ("guanpai", "mainstream", 2),
    ("guanpai", "suzhou", 3),
    ("dabei", "beihai", 4),
    ("tiaoshu", "beihai", 4),
]


@pytest.mark.parametrize(("game", "variant", "players"), GAMES)
def test_every_phase_of_the_table_fits_a_desktop_and_a_phone(
    browsers: Browsers, stack: Stack, artifacts: Path, game: str, variant: str, players: int
) -> None:
    page, _ = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, game)
    problems: list[str] = []
    open_my_table(stack, page, game, variant, players)
    play_to_sheet(page, artifacts, f"{game}-{variant}", problems)
    assert not problems, "\n".join(problems)


def test_the_auction_the_call_and_the_play_of_banzipao_fit(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """板子炮: its 包/不包 buttons, the dealer's picker of a partner's card, the play, the sheet
    (dealt until we are the dealer and every bot passes, so that we call)."""
    page, player = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, "banzipao")
    problems: list[str] = []
    for _ in range(12):
        table = table_where_i_deal(stack, page)
        hand = BidHand(table, player)
        check_fits(page, artifacts, "banzipao-guizhou-bid", problems)
        bid(page, hand)
        page.wait_for_function(
            f"{STATE}.view.phase !== 'bid' || document.body.dataset.myTurn === '1'"
        )
        if page.evaluate(f"{STATE}.view.phase") == "bid":
            bid(page, hand)
        page.wait_for_function(f"{STATE}.view.phase !== 'bid'")
        if page.evaluate(f"{STATE}.view.phase") == "call":
            break
    else:
        raise AssertionError("twelve deals in a row had a 包")
    play_to_sheet(page, artifacts, "banzipao-guizhou", problems, hand)
    assert not problems, "\n".join(problems)


def test_a_phone_keeps_two_rows_of_whole_cards_while_they_fit_and_stacks_them_when_not(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """关牌's 16 cards take two rows on a phone. At 390×844 they are whole cards; on a shorter
    screen (390×680), where two rows of whole cards would push the lines under the controls below
    the fold, the rows are stacked and every control is on screen; back at 844, whole again. (A
    board with more on it, 通山打拱's after a few tricks, is the same case at 844.)"""
    page, _ = browsers.page(*SIZES["phone"])
    open_lobby(page, stack, "guanpai")
    open_my_table(stack, page, "guanpai", "boke", 3)
    page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
    settle(page)
    assert page.evaluate(HAND_LAYOUT) == ["", "2"]
    problems: list[str] = []
    short = {"short-phone": (390, 680)}
    page.set_viewport_size({"width": 390, "height": 680})
    page.wait_for_function("document.querySelector('#hand').dataset.stack === '1'")
    check_fits(page, artifacts, "guanpai-boke-two-rows", problems, short)
    assert not problems, "\n".join(problems)
    # measuring lays the hand out whole, then stacked again: a selected card does not move
    page.set_viewport_size({"width": 390, "height": 680})
    page.wait_for_function("document.querySelector('#hand').dataset.stack === '1'")
    page.locator("#hand .card").last.click()
    page.wait_for_selector("#hand .card.selected")
    page.wait_for_timeout(300)  # the lift's own transition has ended
    moving = """() => { window.dispatchEvent(new Event('resize'));
        return document.getAnimations().filter((a) => a.effect?.target?.closest?.('#hand')).length; }"""
    assert page.evaluate(moving) == 0
    page.locator("#clear").click()
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.querySelector('#hand').dataset.stack === ''")
    assert page.evaluate(HAND_LAYOUT) == ["", "2"]
