"""通山打拱 in the browser: a player says 不独 or 明独 with the round's buttons, plays a hand to its
score sheet by clicking, and once chooses how a selection with jokers is read (the 连对 or the 飞机
of 77 88 + two jokers, say) from the chooser the table offers; the log records what each joker
stood for. A spectator watching never sees the dealer's partner before the called card's other copy
is played (明鸡), and sees him once it is. A finished hand with 喜钱 shows its lines on the sheet.

The deals are random: the reading test deals tables (through the API, as a second browser would)
until seat 0 leads a hand holding a selection with several readings. A 喜 is dealt about once in 35
hands, so the 喜钱 test draws the table's own score sheet in the page for a hand the engine dealt
with one.

Screenshots: ``dagong-reading``, ``dagong-spectator``, ``dagong-score``, ``dagong-mingdu``,
``dagong-xiqian``, at 390 and 1280 px.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
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
    shoot_both,
    state,
    tracker_counts_every_unseen_card,
    watch,
)
from e2e.stack import UNTIMED, Stack, sit_as, wait_until
from e2e.test_banzipao import bid, read_sheet
from e2e.test_layout import check_fits, moment_to_check
from e2e.test_play import Played, after_move, click_card, spectator_frames_checked, version
from paiju import api, bots
from paiju.registry import get_game
from paiju.simulate import table_command

GAME = "dagong"
MY_TURN = f"{STATE}?.seat === 0 && {MY_TURN_DRAWN}"


def new_table(stack: Stack) -> tuple[str, str, dict[str, Any]]:
    """A table with me in seat 0 and bots in the others, dealt: (table, my token, the public
    view of the deal)."""
    table = stack.api("/api/tables", {"game": GAME, "players": 4, "clock": UNTIMED})["id"]
    joined = stack.api(
        f"/api/tables/{table}/seats", {"name": "测试玩家", "seat": 0, "seed": secrets.token_hex(16)}
    )
    stack.api(f"/api/tables/{table}/bots", {})
    view = dealt_view(stack, table)
    return str(table), str(joined["token"]), view


def readings_by_cards(moves: list[dict[str, Any]]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """The selections my legal moves offer in several readings."""
    found: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for move in moves:
        if move["type"] == "play" and move.get("reading"):
            found[tuple(sorted(move["cards"]))].append(move["reading"])
    return {cards: r for cards, r in found.items() if len(r) > 1}


def lead_with_readings(stack: Stack, page: Any, attempts: int = 250) -> tuple[str, tuple[str, ...]]:
    """A table where I say 不独 and then lead, holding a selection with several readings. A deal
    that does not fit is left as it is (its bots wait for seat 0). The dealer leads the first
    trick, and the public view names him: only a deal of seat 0's is opened in the page (about
    one in four), of which about one in five holds such a selection."""
    for _ in range(attempts):
        table, token, view = new_table(stack)
        if view["dealer"] != 0:
            continue
        sit_as(page, stack, table, 0, token)
        page.wait_for_function(f"{STATE}?.seat === 0")
        for _ in range(3):  # 明独 (mine, if asked), then my first turn of play
            page.wait_for_function(MY_TURN + " || " + TURN_OR_SHEET)
            s = state(page)
            if s["view"]["phase"] != "declare":
                break
            before = version(page)
            page.click("#speak button[data-bid='budu']")
            after_move(page, before)
        s = state(page)
        if s["view"]["phase"] == "play" and s["view"]["lead"] is None and s["view"]["solo"] is None:
            choices = readings_by_cards(s["moves"])
            if choices:
                return table, max(choices, key=len)
    raise AssertionError(f"no deal in {attempts} let seat 0 lead a selection with two readings")


def click_selection(page: Any, cards: tuple[str, ...]) -> None:
    """Click each card of the selection once (two decks: the same code may be in the hand twice,
    each copy is its own card)."""
    hand = list(state(page)["hand"])
    for code in cards:
        index = hand.index(code)
        hand[index] = ""  # that copy is taken
        click_card(page, index)


def choose_reading(page: Any, cards: tuple[str, ...], artifacts: Path) -> dict[str, Any]:
    """Select the cards: the worker finds them ambiguous, 出牌 stays disabled and the table offers
    one button per reading instead (nothing is sent yet); pick the second. Returns the readings
    offered and the one chosen."""
    before = version(page)
    click_selection(page, cards)
    page.wait_for_selector("#readings:not([hidden]) button.reading")
    assert page.locator("#play").is_disabled()
    readings = page.evaluate(f"{STATE}.check.readings")
    offered = [r["reading"] for r in readings]
    # as players say them: the set with each joker as what it stands for, then its kind (7777 炸弹)
    kinds = get_game("dagong").words.kinds
    said = [f"{r['said']} {kinds[r['kind']][0]}" for r in readings]
    buttons = page.locator("#readings button.reading")
    labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
    assert version(page) == before  # nothing sent before the choice
    shoot_both(page, artifacts, "dagong-reading")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    buttons.nth(1).click()
    after_move(page, before)
    return {"offered": offered, "labels": labels, "said": said, "chosen": offered[1]}


def play_out(
    page: Any,
    hand: Hand,
    watcher: Any | None,
    artifacts: Path,
    problems: list[str] | None = None,
) -> None:
    """My turns until the hand's score sheet, the spectator checked at each of them; with
    ``problems``, test_layout's moments to check and the sheet are checked to fit a desktop and
    a phone (check_fits: every control on screen, uncovered, cards wide enough)."""
    assert hand.played is not None
    checked: set[str] = set()
    while True:
        page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
        if page.locator("#score-sheet").count():
            if problems is not None:
                check_fits(page, artifacts, "dagong-tongshan-score", problems)
            return
        phase = state(page)["view"]["phase"]
        moment = moment_to_check(page, phase, checked) if problems is not None else None
        if moment and problems is not None:
            check_fits(page, artifacts, f"dagong-tongshan-{moment}", problems)
        hand.phases.append(phase)
        if phase == "declare":
            bid(page, hand, choice="budu")
            continue
        view = state(page)["view"]
        secret = view["partner"] is None and view["solo"] is None and view["dealer"] != 0
        secret = secret and view["called_card"] in view["hand"]  # I am the partner: I know it
        mark = page.locator(".seat.mine .badge[data-role='partner-secret']").count()
        assert mark == (1 if secret else 0), view  # the dealer's own copy makes him nobody's
        if watcher is not None:
            check_spectator_page(hand, page, watcher)
            if "spectator" in hand.shots:
                hand.shots.discard("spectator")
                shoot_both(watcher, artifacts, "dagong-spectator")
                watcher.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
        take_turn(page, hand.played)


def check_spectator_page(hand: Hand, page: Any, watcher: Any) -> None:
    """At a moment of rest (my turn to play), the spectator's page shows no hand, and no partner
    while its view has none (明鸡 not yet seen); once it has one, the partner's badge."""
    v = state(page)["view"]["version"]
    watcher.wait_for_function(  # drawn, not merely received
        f"Number(document.querySelector('#board .board')?.dataset.version) >= {v}"
    )
    view = state(watcher)["view"]
    assert view["seat"] is None and view["hand"] is None and view["hands"] is None
    assert watcher.locator("#hand").count() == 0
    partner_badges = watcher.locator(".badge.role[data-role='partner']").count()
    if view["partner"] is None and view["solo"] is None:
        assert partner_badges == 0
        assert watcher.locator(".announcements [data-key='called_card']").count() == 1
        hand.secret_checks += 1
    elif view["solo"] is None:
        assert partner_badges == 1


def take_turn(page: Any, record: Played) -> None:
    """Choose a play as a player does, by clicking its cards: the smallest play whose cards read
    one way only (an ambiguous selection would bring up the chooser), or pass every third turn
    when passing is allowed; when only ambiguous selections remain, their first reading."""
    before = version(page)
    s = state(page)
    plays = [m for m in s["moves"] if m["type"] == "play"]
    can_pass = any(m["type"] == "pass" for m in s["moves"])
    several = readings_by_cards(s["moves"])
    plain = [m for m in plays if tuple(sorted(m["cards"])) not in several]
    if can_pass and (not plays or record.turns % 3 == 2):
        page.click("#pass")
    elif plain:
        click_selection(page, tuple(min(plain, key=lambda m: len(m["cards"]))["cards"]))
        page.wait_for_function("!document.querySelector('#play').disabled")
        page.click("#play")
    else:
        click_selection(page, next(iter(several)))
        page.locator("#readings:not([hidden]) button.reading").first.click()
    record.turns += 1
    after_move(page, before)


def played_events(stack: Stack, table: str) -> list[dict[str, Any]]:
    log = stack.api(f"/api/tables/{table}/log")
    return [e for e in log["events"] if e["type"] == "played"]


def test_a_hand_with_a_chosen_reading_is_played_to_its_sheet_and_the_partner_stays_secret(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, player = browsers.page(WIDTHS["desktop"])
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    table, cards = lead_with_readings(stack, page)
    # my first turn of play, before my lead: the 记牌器 has seen the whole hand. (Not at my next
    # turn: a round closed since takes its cards off the table, and the check counts the table's.)
    tracker_counts_every_unseen_card(page)

    watcher, spectator = browsers.page(WIDTHS["desktop"])
    watch(watcher, stack, table)
    hand = Hand(table, player, spectator, shots={"spectator"})
    chosen = choose_reading(page, cards, artifacts)
    fits: list[str] = []
    play_out(page, hand, watcher, artifacts, fits)
    assert not fits, "\n".join(fits)
    read_sheet(page, hand)
    shoot_both(page, artifacts, "dagong-score")

    # the chooser named every reading, each differently
    assert len(chosen["labels"]) == len(chosen["offered"]) >= 2
    assert len(set(chosen["labels"])) == len(chosen["labels"])
    assert chosen["labels"] == chosen["said"]
    # the log records the reading chosen: what each joker stood for
    mine = next(e for e in played_events(stack, table) if e["seat"] == 0)
    assert tuple(sorted(mine["cards"])) == cards
    assert mine["kind"] == chosen["chosen"]["kind"]
    assert mine["stands_for"] == chosen["chosen"]["stands_for"] and mine["stands_for"]

    # the spectator: no hidden card in any frame, no partner before 明鸡, the partner after it
    checked = spectator_frames_checked(stack, table, frames_of(spectator, table))
    assert checked
    revealed = secret = 0
    for frame, truth in checked:
        if truth.phase != "play" or truth.solo is not None:
            continue
        if truth.marks_played:
            assert frame["view"]["partner"] == truth.marks_played[0][1]
            revealed += 1
        else:
            assert frame["view"]["partner"] is None, f"partner shown at {frame['index']}"
            secret += 1
    assert secret > 0  # frames seen while the partner was secret, each without him
    assert hand.sheet["reasons"], hand.sheet
    assert all(r.strip() for r in hand.sheet["reasons"])
    assert revealed or not any(t.marks_played for _, t in checked)


def test_mingdu_is_declared_with_its_button_and_scored_on_the_sheet(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    page, player = browsers.page(WIDTHS["desktop"])
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    for _ in range(30):  # my word comes unless a bot before me says 明独 first
        table, token, _ = new_table(stack)
        sit_as(page, stack, table, 0, token)
        page.wait_for_function(MY_TURN + " || " + TURN_OR_SHEET)
        if state(page)["view"]["phase"] == "declare":
            break
    else:
        raise AssertionError("never asked to declare")
    buttons = page.locator("#speak button[data-bid]")
    shown = sorted(buttons.nth(i).get_attribute("data-bid") or "" for i in range(buttons.count()))
    assert shown == ["budu", "mingdu"]
    assert "明独" in page.inner_text("#speak")
    before = version(page)
    page.click("#speak button[data-bid='mingdu']")
    after_move(page, before)
    page.wait_for_function(f"{STATE}.view.solo === 0")
    shoot_both(page, artifacts, "dagong-mingdu")
    page.set_viewport_size({"width": WIDTHS["desktop"], "height": 900})
    assert page.locator(".seat.mine .badge.role[data-role='solo']").count() == 1

    # the hand is the server's to play from my first turn of play: 托管, the table's own button
    # (the stack's auto_delay is short); what is checked here is the word and its score. The page
    # waits on the lobby meanwhile (a table page draws every play) and comes back to the sheet.
    page.wait_for_function(f"{MY_TURN} && {STATE}.view.phase === 'play'", timeout=60_000)
    page.click("#auto")
    page.wait_for_selector("#auto[data-on='1']")
    table_url = page.url
    page.goto(f"{stack.url}#/")

    def over() -> bool:
        return bool(stack.api(f"/api/tables/{table}/state")["view"]["phase"] == "over")

    wait_until(over, 120, f"table {table} to be played out by 托管")
    page.goto(table_url)
    page.wait_for_selector("#score-sheet[data-final='1']")
    hand = Hand(table, player)
    read_sheet(page, hand)
    assert {"明独成功", "明独失败"} & set(hand.sheet["reasons"]), hand.sheet["reasons"]
    result = hand.sheet["last_hand"]
    assert result["lines"], result


def hand_with_a_xi() -> dict[str, Any]:
    """The spectator's view at the end of a bot-played hand whose deal held a 喜 (7喜, 8喜, 天炸
    or four hard 5-10-Ks: about one deal in 35), played by the engine from fixed seeds."""
    game = get_game(GAME)
    for seed in range(400):
        state = api.initial_state(game.config(None))
        while state.phase in ("commit", "seeding", "declare", "play"):
            command = table_command(state, f"xi-{seed}") or bots.choose(state, api.to_move(state))
            state, _ = api.apply(state, command)
        lines = state.last_hand.lines if state.last_hand else ()
        if any(line.reason.startswith("xiqian_") for line in lines):
            return api.view(state, None)
    raise AssertionError("no deal with a 喜 in 400 seeds")


def test_a_hand_dealt_with_a_xi_shows_its_bonus_lines_on_the_sheet(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    """The table's own score sheet (score-sheet.js, the catalogue's words), drawn in the page for a
    hand the engine dealt with a 喜: a live table would need about 35 deals to meet one, as the
    server's secret decides every deal (by design nobody can steer it)."""
    view = hand_with_a_xi()
    page, _ = browsers.page(WIDTHS["desktop"])
    page.goto(stack.url)
    page.wait_for_selector(f".game-card[data-game='{GAME}']")
    reasons = page.evaluate(
        """async ([view, id]) => {
            const { scoreSheet } = await import("/js/score-sheet.js");
            const { catalog } = await import("/js/catalog.js");
            const game = (await catalog()).find((g) => g.id === id);
            const ctx = { view, words: game.words, names: [], kinds: ["bot", "bot", "bot", "bot"] };
            const sheet = scoreSheet(ctx, { final: true });
            // drawn over the lobby, not in its place: the page's own code goes on updating
            // the header (the engine's status) and the lobby while the sheet is shown
            const host = document.createElement("div");
            host.style.cssText = "position:fixed;inset:0;overflow:auto;z-index:50;background:var(--felt, #1c2b2a)";
            host.append(sheet);
            document.body.append(host);
            return [...sheet.querySelectorAll(".line-reason")].map((e) => e.textContent);
        }""",
        [view, GAME],
    )
    expected = {line["reason"] for line in view["last_hand"]["lines"]}
    xi = {r for r in expected if r.startswith("xiqian_")}
    named = {
        "xiqian_tianzha": "喜钱：天炸",
        "xiqian_baxi": "喜钱：8喜",
        "xiqian_qixi": "喜钱：7喜",
        "xiqian_sitao": "喜钱：四套硬510K",
    }
    assert {named[r] for r in xi} <= set(reasons), reasons
    shoot_both(page, artifacts, "dagong-xiqian")
