"""葫芦岛打棒 in the browser: a whole hand played through in Chromium. Seat 0 grabs the first
hand's trumps with 亮大王 (the declaring window's buttons are exactly the engine's legal words),
buries the kitty on the bury screen (its hand grouped by the trump just fixed, trumps first;
exactly 8 cards selected: the counter, and the engine's own refusal while the selection cannot be buried), the others may bury jokers for kitty cards, then
the tricks are played to the score sheet: the first and the last by clicking, the others by 托管
(clicking all 52 cards tells no more and costs a minute). At every phase both sizes (1280×800 and
390×844) are checked from the elements' boxes: every control inside the viewport, the phone's
cards at least 32 px to tap, the levels of both sides, the trump suit and the level rank on
screen. A spectator watches throughout and never sees a hand nor the buried kitty before it is
shown.

The deals are random: the test deals tables (through the API, as a second browser would) until
seat 0 is the first to hold a big joker, so that it grabs and deals (a deal that does not fit is
left as it is; its bots wait for seat 0). The match is one hand long (the option ``hands``).

The second test deals until a bot deals and seat 0, holding jokers, is offered the others' joker
exchange (扣王换底): it buries all its jokers, the kitty is shown to everyone, and when equally low
cards of different suits are more than it takes back ("如果点数相同，花色不同，可由用户自己决定要哪张
牌"), it chooses one with the buttons the game's words name (捡♣4); it deals again until that
choice comes.

The third test deals until nobody grabs in the first hand (seat 0 says 不亮 when asked, while the
dealer drawn by lot wears his badge): the kitty is turned from the dealer drawn by lot and the cards
turned are on the page, in both languages; the hand is clicked through to its score sheet, whose
抠底/保底 line is read in Chinese and in English; after 继续, a later hand's declaring window is
clicked with the level-card buttons until a declaration has been overcalled (by a bot over mine,
by me over a bot's, or by me reinforcing my own) — the match has three hands, so a hand whose
cards allow no overcall is played out and the next one tried.

Screenshots: ``dabang-declare``, ``dabang-bury``, ``dabang-play``, ``dabang-spectator``,
``dabang-score``, ``dabang-exchange``, ``dabang-pick``, ``dabang-flip``, ``dabang-sheet``,
``dabang-overcall`` at 390 and 1280 px (and ``layout-dabang-<phase>-<size>`` from the fit checks).
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.pages import (
    MY_TURN_DRAWN,
    STATE,
    TURN_OR_SHEET,
    Hand,
    dealt_view,
    frames_of,
    server_moves,
    shoot_both,
    state,
    tracker_counts_every_unseen_card,
    watch,
)
from e2e.stack import UNTIMED, Stack, open_lobby, sit_as, wait_until
from e2e.test_dagong import click_selection, take_turn
from e2e.test_layout import SIZES, check_fits, settle
from e2e.test_play import (
    after_move,
    click_card,
    diagnose,
    selected,
    spectator_frames_checked,
    version,
)
from paiju import api
from paiju.cards import SUITS, card_name, parse_card, suit_of
from paiju.client import state_from_view
from paiju.games.dabang import GAME as DABANG
from paiju.games.dabang_declaring import flip_dealer
from paiju.games.dabang_state import hand_order

GAME = "dabang"
WORDS = DABANG.words
KITTY = 8
LAST_CLICKED_CARDS = 6  # the cards of a hand's last tricks that are clicked, after 托管
MY_TURN = f"{STATE}?.seat === 0 && {MY_TURN_DRAWN}"


def table_where_i_grab(stack: Stack, page: Any, attempts: int = 40) -> str:
    """A one-hand table with me in seat 0 and bots in the others, dealt so that seat 0 is the
    first to have drawn a big joker (it speaks first in the declaring window), opened in the
    page with my seat's token."""
    for _ in range(attempts):
        table = stack.api(
            "/api/tables",
            {"game": GAME, "players": 4, "options": {"hands": 1}, "clock": UNTIMED},
        )
        joined = stack.api(
            f"/api/tables/{table['id']}/seats",
            {"name": "测试玩家", "seat": 0, "seed": secrets.token_hex(16)},
        )
        stack.api(f"/api/tables/{table['id']}/bots", {})
        view = dealt_view(stack, table["id"])
        if view["phase"] == "declare" and view["turn"] == 0:
            sit_as(page, stack, table["id"], 0, joined["token"])
            page.wait_for_function(MY_TURN)
            return str(table["id"])
    raise AssertionError(f"no deal in {attempts} let seat 0 grab first")


def always_visible(page: Any, where: str, problems: list[str]) -> list[str]:
    """Both sides' levels and points, the trump suit (once known) and the level rank are on
    screen, inside the viewport with the page scrolled to its top. The keys found."""
    boxes = page.evaluate(
        """() => {
          window.scrollTo(0, 0);
          const vh = window.innerHeight, vw = document.documentElement.clientWidth;
          const sel = '#board .side-panel [data-key], #board .announcements [data-key]';
          return [...document.querySelectorAll(sel)].map((el) => {
            const r = el.getBoundingClientRect();
            return { key: el.dataset.key, text: el.textContent.trim(),
                     inside: r.width > 0 && r.top >= 0 && r.bottom <= vh && r.left >= 0
                       && r.right <= vw };
          });
        }"""
    )
    keys = [b["key"] for b in boxes]
    if keys.count("side_levels") != 2 or keys.count("side_points") != 2:
        problems.append(f"{where}: both sides' levels and points are not shown: {keys}")
    if "hunpai" not in keys:
        problems.append(f"{where}: the level rank is not shown: {keys}")
    for box in boxes:
        if box["key"] in ("side_levels", "side_points", "trump", "hunpai") and not box["inside"]:
            problems.append(f"{where}: {box['key']} {box['text']!r} is off screen")
    return keys


def speak(page: Any, hand: Hand, choice: str = "pass") -> dict[str, Any]:
    """Say a word of the declaring window or the exchange by clicking its button: the buttons
    shown must be exactly the legal words (the engine worker's and the server's); ``choice`` if
    it is one of them, else the first."""
    before = version(page)
    page.wait_for_selector("#speak[data-type='bid'] button[data-bid]")
    s = state(page)
    buttons = page.locator("#speak button[data-bid]")
    shown = sorted(buttons.nth(i).get_attribute("data-bid") or "" for i in range(buttons.count()))
    said = {
        "phase": s["view"]["phase"],
        "legal": sorted(m["bid"] for m in s["moves"] if m["type"] == "bid"),
        "server": sorted(m["bid"] for m in server_moves(hand) if m["type"] == "bid"),
        "shown": shown,
        "labels": [buttons.nth(i).inner_text() for i in range(buttons.count())],
        "play_hidden": page.locator("#play").is_hidden(),
        "help": page.inner_text("#speak .word-help"),
    }
    hand.bids.append(said)
    pick = choice if choice in shown else shown[0]
    page.click(f"#speak button[data-bid='{pick}']")
    after_move(page, before)
    return said


# a card of a stacked hand is covered below its corner by the row under it, by design: that
# check of test_layout's is replaced by ``corners_uncovered``
STACKED_CARD_COVERED = re.compile(r": (?:[3-9TJQKA2][SHCD]|BJ|RJ) '[^']*' is covered$")

CORNERS = """() => {
  window.scrollTo(0, 0);
  return [...document.querySelectorAll('#hand .card[data-index]')].map((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 5, r.top + 10);
    return { code: el.dataset.code, ok: !!hit && (hit === el || el.contains(hit)) };
  });
}"""


def corners_uncovered(page: Any, where: str, problems: list[str]) -> None:
    """Every card of the hand shows its corner (rank and suit), where a tap lands on it."""
    covered = [c["code"] for c in page.evaluate(CORNERS) if not c["ok"]]
    if covered:
        problems.append(f"{where}: the corners of {covered} are covered")


def checked(
    page: Any, artifacts: Path, name: str, problems: list[str], trumps: bool = True
) -> None:
    """test_layout's fit checks at both sizes, the hand's corners, and the figures always shown."""
    found: list[str] = []
    check_fits(page, artifacts, name, found)
    problems.extend(p for p in found if not STACKED_CARD_COVERED.search(p))
    for width, height in SIZES.values():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        settle(page)
        corners_uncovered(page, f"{name} at {width}", problems)
        keys = always_visible(page, f"{name} at {width}", problems)
        if trumps and "trump" not in keys:
            problems.append(f"{name} at {width}: the trump suit is not shown: {keys}")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    settle(page)


def groups_drawn(page: Any) -> list[str]:
    """The hand as the page draws it, each card named by its group in this hand's order (its
    trump suit and the dealer's level): 主 for a trump, else its suit; runs of one group merged.
    A hand grouped by trump reads 主 first, then each side suit once."""
    s = state(page)
    config = api.make_config(GAME, options={"hands": 1})
    order = hand_order(state_from_view(config, s["view"]))  # type: ignore[arg-type]
    groups = []
    for code in s["hand"]:
        card = parse_card(code)
        group = "主" if order.is_trump(card) else SUITS[suit_of(card)]
        if not groups or groups[-1] != group:
            groups.append(group)
    return groups


def bury(page: Any, artifacts: Path, problems: list[str]) -> dict[str, Any]:
    """The bury screen: select seven cards (the counter says 7/8, 扣底 stays disabled and the
    engine's reason is shown), then the eighth, and bury them."""
    before = version(page)
    page.wait_for_selector("#counter:not([hidden])")
    s = state(page)
    burial = next(m["cards"] for m in s["moves"] if m["type"] == "play")
    assert len(burial) == KITTY
    click_selection(page, tuple(burial[:-1]))
    page.wait_for_function(  # the page has caught up with the seventh click
        f"document.querySelectorAll('#hand .card.selected').length === {KITTY - 1}"
        f" && document.querySelector('#counter').textContent.includes('{KITTY - 1}')"
        f" && {STATE}.check && {STATE}.check.ok === false"
    )
    seven = {
        "counter": page.inner_text("#counter"),
        "play_disabled": page.locator("#play").is_disabled(),
        "reason": page.inner_text("#reason"),
        "code": page.get_attribute("#reason", "data-code"),
    }
    shoot_both(page, artifacts, "dabang-bury")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    hand = list(state(page)["hand"])
    chosen = set(selected(page))
    last = next(i for i, c in enumerate(hand) if c == burial[-1] and i not in chosen)
    click_card(page, last)
    page.wait_for_function("!document.querySelector('#play').disabled")
    eight = {"counter": page.inner_text("#counter"), "reason": page.inner_text("#reason")}
    checked(page, artifacts, "dabang-bury", problems)
    page.click("#play")
    after_move(page, before)
    return {"burial": sorted(burial), "seven": seven, "eight": eight}


def check_spectator(page: Any, watcher: Any) -> dict[str, Any]:
    """At a moment of rest, the spectator's page has drawn the same version and shows no hand,
    no open hand and no buried kitty."""
    v = state(page)["view"]["version"]
    watcher.wait_for_function(
        f"Number(document.querySelector('#board .board')?.dataset.version) >= {v}"
    )
    view: dict[str, Any] = state(watcher)["view"]
    assert view["seat"] is None and view["hand"] is None and view["hands"] is None
    assert view["buried"] is None
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator(".open-hand").count() == 0
    return view


LAST_TRICK = ("koudi", "koudi_x4", "baodi")


def last_trick_line(page: Any) -> dict[str, Any]:
    """The score sheet's 抠底/保底 line, read in Chinese, then in English (and the language switched
    back): the reason as the game's words name it and the kitty's points, on the seat that took the
    last trick — an attacker's on 抠底 (the seats of the attackers' points), else the dealer
    side's."""
    page.wait_for_selector("#score-sheet .result-lines li")
    results = state(page)["view"]["last_hand"]["results"]
    line = next(r for r in results if r["reason"] in LAST_TRICK)
    attackers = {r["seat"] for r in results if r["reason"] == "points"}
    assert (line["seat"] in attackers) == line["reason"].startswith("koudi"), results
    read: dict[str, Any] = {"line": line}
    for lang, index in (("zh", 0), ("en", 1)):
        if lang == "en":
            page.click("#lang-switch")
            page.wait_for_function("document.documentElement.lang === 'en'")
            page.wait_for_function(
                "[...document.querySelectorAll('#score-sheet .result-lines li')]"
                f".some(e => e.textContent.includes({WORDS.reasons['points'][1]!r}))"
            )
        items = page.eval_on_selector_all(
            "#score-sheet .result-lines li", "els => els.map(e => e.textContent)"
        )
        name = WORDS.reasons[line["reason"]][index]
        read[lang] = [i for i in items if name in i and i.endswith(str(line["value"]))]
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    return read


def quick_bury(page: Any) -> None:
    """Bury the engine's first offered burial by clicking its eight cards, then 扣底."""
    before = version(page)
    burial = next(m["cards"] for m in state(page)["moves"] if m["type"] == "play")
    click_selection(page, tuple(burial))
    page.wait_for_function("!document.querySelector('#play').disabled")
    page.click("#play")
    after_move(page, before)


def auto_plays_most_tricks(
    page: Any,
    stack: Stack,
    table: str,
    others: tuple[Any, ...] = (),
    keep: int = LAST_CLICKED_CARDS,
) -> None:
    """托管 plays my seat (as fast as the bots, in the test stack) until ``keep`` cards or fewer
    are left in my hand; then 取消托管 gives me the last tricks. Clicking all of a hand's 52 cards
    tells no more than its first and last turns do. Meanwhile this page and ``others`` (a
    spectator's) are on the lobby, where nothing is drawn: a table page draws each of the hand's
    two hundred-odd plays, and nobody looks at those. They come back to the table for the end."""
    page.click("#auto")
    page.wait_for_selector("#auto[data-on='1']")
    away = [(p, p.url) for p in (page, *others)]
    for p, _ in away:
        p.goto(f"{stack.url}#/")  # the same document: the engine stays, the table is unmounted

    def near_the_end() -> dict[str, Any] | None:
        view: dict[str, Any] = stack.api(f"/api/tables/{table}/state")["view"]
        return view if view["phase"] != "play" or view["counts"][0] <= keep else None

    wait_until(near_the_end, 120, f"seat 0 of table {table} to have {keep} cards left")
    for p, url in away:
        p.goto(url)
    page.wait_for_function(  # drawn: 托管's button says what the view says (a run read it before)
        f"({STATE}?.seat === 0 && {STATE}.connected && !!{STATE}.view"
        " && Number(document.querySelector('#board .board')?.dataset.version)"
        f" === {STATE}.view.version) || !!document.querySelector('#score-sheet')"
    )
    if page.locator("#auto[data-on='1']:not([hidden])").count():
        page.click("#auto")  # hidden if the hand ended meanwhile: next_hand ends 托管 then
        page.wait_for_selector("#auto:not([data-on='1'])")


def play_to_sheet(page: Any, stack: Stack, hand: Hand) -> list[str]:
    """My turns to the hand's score sheet: 不亮 / 不扣王 and the engine's first burial clicked,
    then the first trick I play clicked by take_turn, 托管 for most of the others, and the last
    ones clicked again. The phases of my turns."""
    played = hand.played
    assert played is not None
    phases = []
    automated = False
    for _ in range(400):
        page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
        if page.locator("#score-sheet").count():
            return phases
        view = state(page)["view"]
        phases.append(view["phase"])
        if view["phase"] in ("declare", "exchange", "pick"):
            speak(page, hand)
        elif view["phase"] == "bury":
            quick_bury(page)
        else:
            assert view["phase"] == "play", view["phase"]
            take_turn(page, played)
            if not automated and len(state(page)["hand"]) > 2 * LAST_CLICKED_CARDS:
                auto_plays_most_tricks(page, stack, hand.table)
                automated = True
    raise AssertionError(f"no score sheet: {diagnose(page)}")


def next_hand(page: Any, no: int) -> None:
    """继续 on the score sheet (when the table asks for it); then the page on hand ``no``."""
    page.wait_for_selector("#score-sheet")
    button = page.locator("#continue")
    if button.count():
        button.click()
    page.wait_for_function(
        f"{STATE}?.view?.hand_no >= {no} && {STATE}.view.phase !== 'commit'"
        f" && {STATE}.view.phase !== 'seeding' && !document.querySelector('#score-sheet')",
        timeout=90_000,
    )
    if page.locator("#auto[data-on='1']").count():  # 托管 was on to the end of the last hand
        page.click("#auto")
        page.wait_for_selector("#auto:not([data-on='1'])")


def test_a_whole_hand_is_declared_buried_and_played(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, player = browsers.page(WIDTHS["desktop"], 800)
    open_lobby(page, stack, GAME)
    problems: list[str] = []
    table = table_where_i_grab(stack, page)
    watcher, spectator = browsers.page(WIDTHS["desktop"], 800)
    watch(watcher, stack, table)
    hand = Hand(table, player, spectator)

    # the declaring window: 亮大王 or 不亮, the engine's own words; the card of my draw whose suit
    # 亮大王 makes trumps is named (the hand is shown sorted, not as drawn)
    grab_card = state(page)["view"]["grab_card"]
    fact = page.locator("#board li[data-key='grab_card']")
    if grab_card is None:  # only jokers after mine: the hidden kitty would name the suit
        assert fact.count() == 0
    else:
        assert fact.inner_text().startswith(f"亮大王则主花色随 {card_name(parse_card(grab_card))}")
    checked(page, artifacts, "dabang-declare", problems, trumps=False)
    shoot_both(page, artifacts, "dabang-declare")
    said = speak(page, hand, choice="liang")
    assert said["shown"] == said["legal"] == said["server"] == ["liang", "pass"], said
    assert "亮大王" in said["labels"] and "不亮" in said["labels"] and said["play_hidden"]
    assert "抢亮大王" in said["help"]

    # the bury screen
    page.wait_for_function(MY_TURN)
    assert state(page)["view"]["phase"] == "bury"
    assert state(page)["view"]["dealer"] == 0
    if grab_card is not None:  # as the window said: that card's suit is trumps
        assert state(page)["view"]["trump"] == grab_card[-1]
    kitty_shown = state(watcher)["view"]["kitty"]
    groups = groups_drawn(page)  # the trump is known: the hand is grouped by it before burying
    assert groups[0] == "主" and len(groups) == len(set(groups)), groups
    # the kitty came to my hand unasked: my seat says which cards (no tribute in a first hand)
    came = page.locator(".seat[data-me='1'] .hand-note .hand-came").inner_text()
    assert page.locator(".seat[data-me='1'] .hand-note .hand-went").count() == 0
    named = sorted(card_name(parse_card(c)) for c in kitty_shown)
    assert came.startswith("收到：") and sorted(came.removeprefix("收到：").split()) == named
    buried = bury(page, artifacts, problems)
    page.wait_for_selector(".hand-note", state="detached")  # seen: gone once I have buried
    assert buried["seven"]["play_disabled"]
    assert buried["seven"]["code"] == "bury_eight", buried
    assert "7" in buried["seven"]["counter"] and "8" in buried["seven"]["counter"]
    assert "8 / 8" in buried["eight"]["counter"] or "8/8" in buried["eight"]["counter"]

    # the tricks, to the score sheet
    played = hand.played
    assert played is not None
    seen: set[str] = set()
    phases = []
    automated = False  # my first trick clicked, then 托管 to the last ones, clicked again
    for _ in range(400):
        page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
        if page.locator("#score-sheet").count():
            break
        view = state(page)["view"]
        phases.append(view["phase"])
        if view["phase"] in ("declare", "exchange"):
            speak(page, hand)
            continue
        assert view["phase"] == "play", view["phase"]
        shown = check_spectator(page, watcher)
        if not played.turns:  # my first turn of play: the 记牌器 has seen the whole hand
            tracker_counts_every_unseen_card(page)
        if view["phase"] not in seen and view["lead"] is not None:
            seen.add(view["phase"])
            checked(page, artifacts, "dabang-play", problems)
            # no 不要 in 打棒's tricks: its button is hidden, with nothing said of it
            assert page.locator("#pass").is_hidden()
            assert page.get_attribute("#pass", "title") == ""
            # the trick area: the led suit, and who is on top of the trick so far
            info = page.locator("#board .lead-info")
            assert info.locator(".lead-suit").get_attribute("data-suit") == str(
                view["lead"]["suit"]
            )
            top = info.locator(".trick-top").get_attribute("data-seat")
            assert top == str(view["winning"]), (top, view["winning"])
            # both sides' levels and captured points, my side (seats 0 and 2) first
            for key in ("side_levels", "side_points"):
                shown_values = page.eval_on_selector_all(
                    f"#board .side-panel [data-key='{key}'] b", "els => els.map(e => e.textContent)"
                )
                assert shown_values == [str(v) for v in view[key]], (key, shown_values)
            shoot_both(page, artifacts, "dabang-play")
            shoot_both(watcher, artifacts, "dabang-spectator")
            page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
            watcher.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
            assert shown["kitty"] == [] or shown["exchanges"], shown
        take_turn(page, played)
        if "play" in seen and not automated:
            auto_plays_most_tricks(page, stack, table, others=(watcher,))
            automated = True
    else:
        raise AssertionError(f"no score sheet: {diagnose(page)}")
    assert "play" in seen
    checked(page, artifacts, "dabang-score", problems)
    shoot_both(page, artifacts, "dabang-score")
    sheet = last_trick_line(page)  # 抠底 or 保底, in both languages
    assert len(sheet["zh"]) == len(sheet["en"]) == 1, sheet
    # a hand of levels and blood (the view's result has no scores): no column of the hand's
    # score nor of the totals, and no crown
    assert state(page)["view"]["result"]["kind"] == "levels"
    assert page.locator("#score-sheet :is(td.score, td.total, .crown)").count() == 0
    # the replay opens from the sheet, every hand open a few plays into the tricks
    page.click("#open-replay")
    page.wait_for_selector(".replay-page[data-ready='1']")
    log_events = stack.api(f"/api/tables/{table}/log")["events"]
    step = next(i for i, e in enumerate(log_events) if e["type"] == "played") + 6
    page.fill("#replay-slider", str(step))
    page.wait_for_selector(f".replay-page[data-step='{step}']")
    assert page.locator(".seat .open-hand").count() == 4
    shoot_both(page, artifacts, "dabang-replay")
    # its log names the words of the exchange as said there (不扣王), not as in the declaring
    lines = page.eval_on_selector_all(".replay-log li", "els => els.map(e => e.textContent)")
    buried_at = next(i for i, line in enumerate(lines) if "扣底" in line)
    first_play = next(i for i, line in enumerate(lines) if " 出 " in line)
    exchange_lines = lines[buried_at + 1 : first_play]
    kinds = [e["type"] for e in log_events]
    spoken_after = kinds[kinds.index("buried") :].count("bid_made")  # 0 if no exchange round
    assert len(exchange_lines) == spoken_after, (exchange_lines, spoken_after)
    assert all("不亮" not in line for line in exchange_lines), exchange_lines

    # every card of my hand went out: the 8 buried, then 52 in the tricks, by my clicks but
    # for the plays that 托管 made, each after its marker
    log = stack.api(f"/api/tables/{table}/log")["events"]
    mine = [e for e in log if e["type"] == "played" and e["seat"] == 0]
    assert sum(len(e["cards"]) for e in mine) == 52
    automatic = [e for e in log if e["type"] == "auto_played" and e["seat"] == 0]
    assert automatic and len(mine) == played.turns + len(automatic), (len(mine), played.turns)
    burials = [e for e in log if e["type"] == "buried"]
    assert [(e["seat"], sorted(e["cards"])) for e in burials] == [(0, buried["burial"])]

    # the spectator: the kitty shown before the burial, never a hand nor the buried kitty
    frames = frames_of(spectator, table)
    assert frames
    assert all(f["view"]["buried"] is None for f in frames)
    assert kitty_shown and len(kitty_shown) == KITTY
    # with four decks a card is hidden only while all four copies are held; the kitty shown
    # (while the dealer holds it) is public, so those frames are checked for hands alone
    kitty_frames = [f for f in frames if f["view"]["kitty"]]
    assert kitty_frames
    assert all(f["view"]["hand"] is None and f["view"]["hands"] is None for f in kitty_frames)
    quiet = [f for f in frames if not f["view"]["kitty"]]
    assert len(spectator_frames_checked(stack, table, quiet)) > 20
    assert not problems, "\n".join(problems)


def table_where_a_bot_deals(stack: Stack, page: Any, attempts: int = 60) -> str:
    """A one-hand table with me in seat 0 where a bot deals (it grabbed, or won the kitty's
    turning), and I am asked whether to bury jokers (I hold some, and the dealer's burial allows
    the exchange)."""
    for _ in range(attempts):
        table = stack.api(
            "/api/tables",
            {"game": GAME, "players": 4, "options": {"hands": 1}, "clock": UNTIMED},
        )
        joined = stack.api(
            f"/api/tables/{table['id']}/seats",
            {"name": "测试玩家", "seat": 0, "seed": secrets.token_hex(16)},
        )
        stack.api(f"/api/tables/{table['id']}/bots", {})
        view = dealt_view(stack, table["id"])
        if view["phase"] == "declare" and view["turn"] == 0:
            continue  # I would grab: left as it is
        sit_as(page, stack, table["id"], 0, joined["token"])
        # my word may come later in the declaring round (after a bot's): I pass it, as my turn
        # clock would otherwise do for me
        while True:
            page.wait_for_function(MY_TURN, timeout=60_000)
            if state(page)["view"]["phase"] != "declare":
                break
            before = version(page)
            page.click("#speak button[data-bid='pass']")
            page.wait_for_function(f"{STATE}.view.version > {before}")
        s = state(page)
        if s["view"]["phase"] == "exchange" and any(c in ("BJ", "RJ") for c in s["hand"]):
            return str(table["id"])
    raise AssertionError(f"no deal in {attempts} offered seat 0, holding jokers, the exchange")


def take_back(page: Any, hand: Hand, artifacts: Path, problems: list[str]) -> dict[str, Any]:
    """My choice among equally low kitty cards (``pick``): the buttons are exactly the engine's
    words and the server's, each named 捡 + a card as players read it; the kitty is on the page;
    I take the last one offered, then (while a choice remains) the first. Returns what was
    offered and taken."""
    page.wait_for_function(f"{MY_TURN} && {STATE}.view.phase === 'pick'")
    s = state(page)
    kitty = s["view"]["kitty"]
    held = Counter(s["hand"])
    checked(page, artifacts, "dabang-pick", problems)
    shoot_both(page, artifacts, "dabang-pick")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    offered = sorted(m["bid"] for m in s["moves"] if m["type"] == "bid")
    last = max(offered, key=lambda w: [m["bid"] for m in s["moves"]].index(w))
    said = speak(page, hand, choice=last)
    taken = [last]
    page.wait_for_function(f"{STATE}.view.version > {s['view']['version']}")
    while state(page)["view"]["phase"] == "pick":  # a second choice of the same jokers
        page.wait_for_function(MY_TURN)
        again = speak(page, hand, choice="")
        taken.append(again["shown"][0])
    return {
        "said": said,
        "offered": offered,
        "taken": taken,
        "kitty": kitty,
        "held": held,
        "kitty_shown": page.locator(".announcements [data-key='kitty']").count(),
    }


def test_the_others_joker_exchange_is_offered_with_the_engines_words(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """Not the dealer, holding jokers: the exchange window offers 不扣王 and 扣1…n张王 (exactly the
    engine's words, in English after the switch), the kitty is hidden before and shown to
    everyone after I bury my jokers, I take back as many cards (my hand stays at 52), and where
    equally low cards of different suits are more than I take, I choose among them by the game's
    buttons (捡♣4)."""
    page, player = browsers.page(WIDTHS["desktop"], 800)
    open_lobby(page, stack, GAME)
    problems: list[str] = []
    choice: dict[str, Any] | None = None
    for attempt in range(12):  # until a table where the equally low cards leave me a choice
        table = table_where_a_bot_deals(stack, page)
        watcher, spectator = browsers.page(WIDTHS["desktop"], 800)
        watch(watcher, stack, table)
        hand = Hand(table, player, spectator)
        before = state(page)
        assert before["view"]["dealer"] != 0 and before["view"]["kitty"] == []
        assert before["view"]["buried"] is None  # the dealer's burial is his alone
        jokers = sum(1 for c in before["hand"] if c in ("BJ", "RJ"))
        if attempt == 0:
            checked(page, artifacts, "dabang-exchange", problems)
            shoot_both(page, artifacts, "dabang-exchange")
            page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
            # in English, the same buttons say the engine's English words
            page.click("#lang-switch")
            page.wait_for_function("document.documentElement.lang === 'en'")
            page.wait_for_function(  # every button redrawn: 不扣王 and one per joker held
                f"document.querySelectorAll('#speak button[data-bid]').length === {jokers + 1}"
            )
            english = page.eval_on_selector_all(
                "#speak button[data-bid]", "els => els.map(e => e.textContent)"
            )
            assert "Bury none" in english and "Bury 1 jokers" in english, english
            page.click("#lang-switch")
            page.wait_for_function("document.documentElement.lang === 'zh-CN'")
        said = speak(page, hand, choice=f"bury{min(jokers, 8)}")
        assert said["phase"] == "exchange"
        assert said["shown"] == said["legal"] == said["server"], said
        assert said["shown"] == sorted(
            ["pass", *(f"bury{n}" for n in range(1, min(jokers, 8) + 1))]
        )
        assert "扣1张王" in said["labels"] and "不扣王" in said["labels"]
        page.wait_for_function(f"{STATE}.view.exchanges.some(([s]) => s === 0)")
        buried = next(k for s, k in state(page)["view"]["exchanges"] if s == 0)
        if state(page)["view"]["phase"] == "pick" and state(page)["view"]["turn"] == 0:
            choice = take_back(page, hand, artifacts, problems)
        page.wait_for_function(f"{STATE}.view.phase !== 'pick'")
        after = state(page)
        assert len(after["hand"]) == 52
        assert sum(1 for c in after["hand"] if c in ("BJ", "RJ")) == jokers - buried
        # the kitty is public now: the spectator's page lists it
        watcher.wait_for_function(
            f"Number(document.querySelector('#board .board')?.dataset.version) >= "
            f"{after['view']['version']}"
        )
        kitty = state(watcher)["view"]["kitty"]
        assert len(kitty) == KITTY and ("BJ" in kitty or "RJ" in kitty), kitty
        assert watcher.locator(".announcements [data-key='kitty']").count() == 1
        assert all(f["view"]["buried"] is None for f in frames_of(spectator, table))
        if choice is not None:
            break
        watcher.close()
    assert choice is not None, "no deal left me a choice among equally low kitty cards"
    # the choice: one button per card of the choice, named 捡 + the card, exactly the legal words
    said = choice["said"]
    assert said["phase"] == "pick" and said["shown"] == said["legal"] == said["server"], said
    assert len(said["shown"]) >= 2 and all(w.startswith("take") for w in said["shown"]), said
    names = {w: "捡" + card_name(parse_card(w[4:]), "zh") for w in said["shown"]}
    assert sorted(said["labels"]) == sorted(names.values()), said
    assert "由你决定" in said["help"] and choice["kitty_shown"] == 1
    # the cards offered are equally low kitty cards of different suits, and I hold what I took
    cards = [w[4:] for w in said["shown"]]
    assert {c[0] for c in cards} == {cards[0][0]} and len({c[1] for c in cards}) == len(cards)
    assert all(c in choice["kitty"] for c in cards)
    gained = Counter(after["hand"]) - choice["held"]
    assert all(gained[w[4:]] >= 1 for w in choice["taken"]), (gained, choice["taken"])
    assert not problems, "\n".join(problems)


# --- the first hand nobody grabs, and a later hand's declaring window ---------------------------


def view_after(stack: Stack, table: str, version: int) -> dict[str, Any]:
    """The table's public view once it has gone past ``version``."""

    def newer() -> dict[str, Any] | None:
        view: dict[str, Any] = stack.api(f"/api/tables/{table}/state")["view"]
        return view if view["version"] > version else None

    return wait_until(newer, 30, f"table {table} to go past version {version}")


def table_where_nobody_grabs(
    stack: Stack, page: Any, player: Any, attempts: int = 80
) -> tuple[Hand, int, dict[str, Any] | None]:
    """A three-hand table with me in seat 0 and bots in the others, whose first hand nobody grabs:
    asked, I say 不亮 (the dealer drawn by lot wears his 随机庄家 badge meanwhile); the bots that
    hold a big joker pass too (a deal that does not fit is left as it is). Returns the hand
    record, the dealer drawn by lot, and my word in the window (None if I was not asked)."""
    for _ in range(attempts):
        table = str(
            stack.api(
                "/api/tables",
                {"game": GAME, "players": 4, "options": {"hands": 3}, "clock": UNTIMED},
            )["id"]
        )
        joined = stack.api(
            f"/api/tables/{table}/seats",
            {"name": "测试玩家", "seat": 0, "seed": secrets.token_hex(16)},
        )
        stack.api(f"/api/tables/{table}/bots", {})
        view = dealt_view(stack, table)
        lot = view["first_dealer"]
        if lot is None:  # no big joker dealt: turned at once, the lot no longer shown
            continue
        hand = Hand(table, player)
        opened, said = False, None
        while view["phase"] == "declare":
            if view["turn"] == 0:
                if not opened:
                    sit_as(page, stack, table, 0, joined["token"])
                    opened = True
                page.wait_for_function(MY_TURN)
                badge = page.locator(
                    f".seat[data-seat='{lot}'] .badge.role[data-role='first_dealer']"
                )
                assert badge.inner_text() == "随机庄家"
                said = speak(page, hand, choice="pass")
            view = view_after(stack, table, view["version"])
        if view["flipped"]:
            if not opened:
                sit_as(page, stack, table, 0, joined["token"])
            page.wait_for_selector(".announcements [data-key='flipped']")
            return hand, lot, said
    raise AssertionError(f"no deal in {attempts} was left ungrabbed")


def my_declaration(s: dict[str, Any]) -> str:
    """My word in a later hand's declaring window: reinforce my own declaration when I can; else
    the cheapest declaration, in a suit whose level card I hold twice if any (so that I can
    reinforce it later); a pass when nothing can be said."""
    words = [m["bid"] for m in s["moves"] if m["type"] == "bid" and m["bid"] != "pass"]
    if not words:
        return "pass"
    view = s["view"]
    if view["declarer"] == 0:
        return words[0]
    held = Counter(s["hand"])
    pairs = [w for w in words if w.startswith("1x") and held[view["hunpai"] + w[-1]] >= 2]
    return (pairs or words)[0]


def auction_of(hand: Hand, no: int) -> list[tuple[int, str]]:
    """A later hand's declaring round as my page received it: the longest list of words said in
    that hand while declaring or burying (the round's words stay in the view until the next
    speaking round opens, maybe the next hand's)."""
    frames = [
        f
        for f in frames_of(hand.player, hand.table)
        if f["view"]["hand_no"] == no and f["view"]["phase"] in ("declare", "bury")
    ]
    bids = max((f["view"].get("bids") or [] for f in frames), key=len, default=[])
    return [(int(s), str(w)) for s, w in bids]


def test_nobody_grabs_the_kitty_is_turned_and_a_later_hand_is_declared_with_an_overcall(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, player = browsers.page(WIDTHS["desktop"], 800)
    open_lobby(page, stack, GAME)
    problems: list[str] = []
    hand, lot, said = table_where_nobody_grabs(stack, page, player)
    if said is not None:  # I was asked: 亮大王 or 不亮, the engine's words
        assert said["shown"] == said["legal"] == said["server"] == ["liang", "pass"], said

    # (a) the kitty turned from the dealer drawn by lot, on the page in both languages
    view = state(page)["view"]
    flipped = view["flipped"]
    assert 1 <= len(flipped) <= 4 and not any(c in ("BJ", "RJ") for c in flipped), flipped
    in_order = tuple(parse_card(c) for c in flipped)  # as turned, one seat after another
    dealer, suit, turned = flip_dealer(in_order, lot)
    assert turned == in_order
    assert (view["dealer"], view["trump"]) == (dealer, SUITS[suit]), (view, lot)
    line = page.locator(".announcements [data-key='flipped']")
    assert "翻出的底牌" in line.inner_text()
    assert all(card_name(parse_card(c), "zh") in line.inner_text() for c in flipped)
    badge = page.locator(f".seat[data-seat='{dealer}'] .badge.role[data-role='dealer']")
    assert badge.inner_text() == "庄"
    burying = view["phase"] == "bury" and view["turn"] == 0  # the flip made me the dealer
    if burying:  # as test 1 looks at the bury screen: its eight cards chosen
        before = version(page)
        burial = next(m["cards"] for m in state(page)["moves"] if m["type"] == "play")
        click_selection(page, tuple(burial))
        page.wait_for_function("!document.querySelector('#play').disabled")
    checked(page, artifacts, "dabang-flip", problems, trumps=True)
    shoot_both(page, artifacts, "dabang-flip")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
    if burying:
        page.click("#play")
        after_move(page, before)
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    line = page.locator(".announcements [data-key='flipped']")
    assert "kitty cards turned" in line.inner_text()
    assert all(card_name(parse_card(c), "en") in line.inner_text() for c in flipped)
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")

    # the first hand clicked through to its sheet, whose 抠底/保底 line reads in both languages
    play_to_sheet(page, stack, hand)
    sheet = last_trick_line(page)
    assert len(sheet["zh"]) == len(sheet["en"]) == 1, sheet
    checked(page, artifacts, "dabang-sheet", problems)
    shoot_both(page, artifacts, "dabang-sheet")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})

    # (b) a later hand: level cards declared and overcalled with the buttons
    auctions: list[list[tuple[int, str]]] = []
    mine: list[dict[str, Any]] = []
    for no in (2, 3):
        next_hand(page, no)
        shot = False
        while True:
            page.wait_for_function(
                f"{STATE}.view.phase !== 'declare' || document.body.dataset.myTurn === '1'",
                timeout=60_000,
            )
            s = state(page)
            if s["view"]["phase"] != "declare":
                break
            choice = my_declaration(s)
            if s["view"]["declaration"] is not None and not shot:  # a declaration on the table
                checked(page, artifacts, "dabang-overcall", problems, trumps=False)
                shoot_both(page, artifacts, "dabang-overcall")
                page.set_viewport_size({"width": WIDTHS["desktop"], "height": 800})
                shot = True
            spoke = speak(page, hand, choice=choice)
            assert spoke["shown"] == spoke["legal"] == spoke["server"], spoke
            assert "不亮" in spoke["labels"] and "亮混牌" in spoke["help"]
            if choice != "pass":
                assert DABANG.words.commands["bid"][choice].button[0] in spoke["labels"]
                mine.append(spoke | {"said": choice})
        auctions.append(auction_of(hand, no))
        declared = [(seat, w) for seat, w in auctions[-1] if w != "pass"]
        if len(declared) >= 2 and any(seat == 0 for seat, _ in declared):
            break
        play_to_sheet(page, stack, hand)  # no overcall in this hand's cards: the next hand
    else:
        raise AssertionError(f"no hand of three had an overcall: {auctions}")
    declared = [(seat, w) for seat, w in auctions[-1] if w != "pass"]
    last_seat, last_word = declared[-1]
    # the declaration that stands names trumps, its declarer wears the badge, its word is shown
    view = state(page)["view"]
    assert (view["declarer"], view["declaration"]) == (last_seat, last_word), view
    assert view["trump"] == last_word[-1]
    page.wait_for_selector(f".seat[data-seat='{last_seat}'] .badge.role[data-role='declarer']")
    assert mine, auctions
    assert not problems, "\n".join(problems)
