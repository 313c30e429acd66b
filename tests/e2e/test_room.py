"""The card room in Chromium, as two friends use it: the host creates a 2-hand table from the lobby
under his nickname and invites a friend with the seat link; the friend (another browser context,
on a phone, his own nickname typed in the lobby) opens it, sits, leaves, sits again; a spectator —
even the owner's own browser on the watch page — has no way to fill seats; the owner fills the
last seat with a bot; both play the match by clicking; the score table lists every hand with the
right running totals, during the match and on the match-over sheet, where ★ marks the winner by
total; the host's 再来一局 is put to the friend at once on his sheet (by a pushed frame; the
seconds it took are written to room-rematch-offer-seconds.txt), with the time left; he says 不了,
changes his mind, presses 再来一局, and the same players are dealt a new match at a linked table.

Before the first move the host says a 快捷语: it shows on his seat at the friend's page and at a
spectator's, and is heard (spoken) on the friend's; the friend hides the host's talk, and the
host's emote then shows at the spectator's only; the host's third word is refused (the limit).

Screenshots: artifacts/e2e/room-*.png at 1280×800 and 390×844."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, wait_until

HAND_CARDS = 16  # 关牌 mainstream, three players


def shoot(page: Any, artifacts: Path, name: str) -> None:
    width = page.viewport_size["width"]
    page.screenshot(path=str(artifacts / f"room-{name}-{width}.png"), full_page=False)


def take_turn(page: Any) -> None:
    """One move as a player makes it: 提示 then 出牌, or 不要 when nothing beats."""
    page.wait_for_function(
        "document.body.dataset.myTurn !== '1' || window.__table.moves.length > 0"
    )
    state = page.evaluate("window.__table")
    if not state["moves"] or page.evaluate("document.body.dataset.myTurn !== '1'"):
        return  # the turn passed meanwhile (the table moved on)
    before = state["view"]["version"]
    if any(m["type"] == "play" for m in state["moves"]):
        page.click("#hint")
        page.wait_for_function("!document.querySelector('#play').disabled")
        page.click("#play")
    else:
        page.wait_for_function("!document.querySelector('#pass').disabled")
        page.click("#pass")
    page.wait_for_function(
        f"(window.__table?.view?.version ?? 0) > {before}"
        " || !!document.querySelector('#score-sheet')"
    )


# speech as the test hears it: the page's speechSynthesis replaced by one that writes down what it
# is asked to say (headless Chromium has no voice)
RECORD_SPEECH = """
window.__spoken = [];
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speaking: false, pending: false, cancel() {}, speak(u) { window.__spoken.push(u.text); } } });
"""
HOST_BUBBLE = ".seat[data-seat='0'] .talk-bubble"


def say(page: Any, word: str) -> None:
    page.click("#talk summary")
    page.click(f"#talk .talk-word[data-word='{word}']")


def talk_across_the_table(host: Any, guest: Any, spectator: Any, artifacts: Path) -> None:
    """The host's words at the friend's page and the spectator's, the friend's choice not to
    see them, and the limit."""
    say(host, "hurry")
    for page in (guest, spectator):
        page.wait_for_selector(HOST_BUBBLE)
        assert page.locator(HOST_BUBBLE).inner_text() == "快点吧，我等得花儿都谢了"
    assert "快点吧，我等得花儿都谢了" in guest.evaluate("window.__spoken")
    shoot(guest, artifacts, "talk")
    guest.click("#talk summary")
    shoot(guest, artifacts, "talk-menu")
    guest.check("#talk .talk-mute input[data-seat='0']")  # the friend hides the host's talk
    guest.wait_for_selector(HOST_BUBBLE, state="detached")
    guest.mouse.click(8, 836)  # a click outside (the page under the table) closes the menu
    guest.wait_for_selector("#talk .talk-panel", state="hidden")
    spoken = len(guest.evaluate("window.__spoken"))
    say(host, "flower")
    spectator.wait_for_function(f"document.querySelector(\"{HOST_BUBBLE}\")?.textContent === '✿'")
    shoot(spectator, artifacts, "talk-watch")
    version = spectator.evaluate("window.__table.view.version")
    guest.wait_for_function(f"window.__table.view.version >= {version}")
    assert guest.locator(HOST_BUBBLE).count() == 0
    assert len(guest.evaluate("window.__spoken")) == spoken
    say(host, "bye")  # a third word among the table's last 8 events: refused, and said why
    host.wait_for_selector("#toast:not([hidden])")
    assert "说得太频繁了" in host.inner_text("#toast")
    shoot(host, artifacts, "talk-refused")


def play_match(pages: list[Any], artifacts: Path, timeout: float = 240.0) -> bool:
    """Both players play until each sees the match-over sheet; the score table is opened once
    from the table page during the match. Whether it was."""
    opened = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.locator("#score-sheet[data-final='1']").count() for p in pages):
            return opened
        moved = False
        for page in pages:
            if page.evaluate("document.body.dataset.myTurn === '1'"):
                take_turn(page)
                moved = True
                continue
            # 继续 on a hand's sheet, if it is still there (the next deal may take it away)
            if page.evaluate(
                """() => { const b = document.querySelector(
                    "#score-sheet:not([data-final='1']) .sheet-actions button");
                    if (b) b.click(); return !!b; }"""
            ):
                moved = True
            hand_no = page.evaluate("window.__table?.view?.hand_no ?? 0")
            if not opened and hand_no >= 2 and page.locator("#open-scores").count():
                page.click("#open-scores")
                page.wait_for_selector(".score-dialog #score-table tr.hand-row")
                assert page.locator(".score-dialog tr.hand-row").count() >= 1
                shoot(page, artifacts, "scores-open")
                page.click("#score-table-close")
                assert page.locator(".score-dialog").count() == 0
                opened = True
        if not moved:
            time.sleep(0.05)
    raise AssertionError("the match did not end in time")


def test_invite_nickname_score_table_and_rematch(
    browsers: Browsers, stack: Stack, artifacts: Path
) -> None:
    # the friend first: his own nickname, typed in the lobby, in a browser of his own
    guest, _ = browsers.page(390, 844)
    guest.context.add_init_script(RECORD_SPEECH)
    received: list[str | bytes] = []  # every frame the friend's page gets on its sockets
    guest.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(f)))
    guest.goto(stack.url)
    guest.wait_for_selector("#create-name")
    zh_default = guest.input_value("#create-name")
    assert re.fullmatch(r"玩家\d{4}", zh_default), zh_default
    guest.click("#lang-switch")
    guest.wait_for_function("document.documentElement.lang === 'en'")
    guest.wait_for_selector("#create-name")
    assert guest.input_value("#create-name") == "Player" + zh_default[2:]
    guest.click("#lang-switch")
    guest.wait_for_function("document.documentElement.lang === 'zh-CN'")
    guest.fill("#create-name", "小明 Bob")

    # the host creates a 2-hand table that waits for people, under his nickname
    host, _ = browsers.page(1280, 800)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=stack.url)
    host.goto(stack.url)
    host.wait_for_selector(".game-card[data-game='guanpai']")
    host.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    host.fill("#create-name", "东家 Ann")
    host.select_option("#create-game", "guanpai")
    host.select_option("#create-variant", "mainstream")
    host.select_option("#create-players", "3")
    host.click("#house-rules summary")
    host.fill("#opt-hands", "2")
    host.select_option("#create-opponents", "wait")
    host.click("#create-submit")
    host.wait_for_url(re.compile(r".*#/table/[0-9a-f]+$"))
    table = host.url.rsplit("/", 1)[1]
    host.wait_for_selector("#waiting #fill-bots")  # the owner's control
    assert stack.api(f"/api/tables/{table}")["seats"][0]["name"] == "东家 Ann"
    host.click("#invite-link")
    invite = host.evaluate("navigator.clipboard.readText()")
    assert invite == f"{stack.url}#/table/{table}?join=1"
    host.click("#watch-link")
    assert host.evaluate("navigator.clipboard.readText()") == f"{stack.url}#/watch/{table}"
    shoot(host, artifacts, "waiting")

    # the watch page has no way to fill seats: not a stranger's, not even the owner's own
    spectator, _ = browsers.page(390, 844)
    spectator.goto(f"{stack.url}#/watch/{table}")
    spectator.wait_for_selector("#waiting li.empty")
    owners_watch = host.context.new_page()
    owners_watch.goto(f"{stack.url}#/watch/{table}")
    owners_watch.wait_for_selector("#waiting li.empty")
    for page in (spectator, owners_watch):
        for control in ("#fill-bots", "#close-table", "#invite-box", "#waiting li button"):
            assert page.locator(control).count() == 0, control
    shoot(spectator, artifacts, "watch-waiting")
    spectator.close()  # a page left open draws every move of the match to come
    owners_watch.close()

    # the friend opens the invite: he sits under his nickname, leaves, and sits again
    guest.goto(invite)
    guest.wait_for_selector("#invite-box.invited")
    assert guest.input_value("#seat-name") == "小明 Bob"
    assert guest.locator("#fill-bots").count() == 0  # not the owner
    shoot(guest, artifacts, "invited")
    guest.click("#invite-sit")
    guest.wait_for_selector("#leave-seat")
    seats = stack.api(f"/api/tables/{table}")["seats"]
    assert [(s["kind"], s["name"]) for s in seats[:2]] == [
        ("human", "东家 Ann"),
        ("human", "小明 Bob"),
    ]
    guest.click("#leave-seat")
    guest.wait_for_url(re.compile(r".*#/$"))
    assert stack.api(f"/api/tables/{table}")["seats"][1]["kind"] == "empty"
    guest.goto(invite)
    guest.click("#invite-sit")
    guest.wait_for_selector("#leave-seat")
    host.wait_for_selector("#waiting li.human >> nth=1")
    host.click("#fill-bots")
    for page in (host, guest):
        page.wait_for_function(
            f"document.querySelectorAll('#hand .card').length === {HAND_CARDS}", timeout=30_000
        )
    assert guest.evaluate("window.__table.seat") == 1
    spectator, _ = browsers.page(1280, 800)
    spectator.goto(f"{stack.url}#/watch/{table}")
    spectator.wait_for_selector(".seat[data-seat='0']")
    talk_across_the_table(host, guest, spectator, artifacts)
    spectator.close()  # it would draw every move of the match

    # the match, played by clicking; the score table opened during it
    opened = play_match([host, guest], artifacts)
    assert opened
    hands = stack.api(f"/api/tables/{table}/hands")
    assert [h["hand_no"] for h in hands["hands"]] == [1, 2]
    running = [0, 0, 0]
    for page in (host, guest):
        page.wait_for_selector("#score-sheet[data-final='1'] #score-table[data-hands='2']")
        rows = page.eval_on_selector_all(
            "#score-sheet #score-table tr.total-row",
            "rows => rows.map(r => [...r.querySelectorAll('td.running-total')].map(c => c.textContent))",
        )
        scores = page.eval_on_selector_all(
            "#score-sheet #score-table tr.hand-row",
            "rows => rows.map(r => [...r.querySelectorAll('td.hand-score')].map(c => c.textContent))",
        )
        running = [0, 0, 0]
        assert len(rows) == len(scores) == 2
        for hand, shown, scored in zip(hands["hands"], rows, scores, strict=True):
            running = [t + s for t, s in zip(running, hand["scores"], strict=True)]
            assert [int(x.replace("+", "")) for x in scored] == hand["scores"]
            assert [int(x.replace("+", "")) for x in shown] == running
    finished = stack.api(f"/api/tables/{table}")
    assert finished["totals"] == running == hands["totals"]
    best = max(running)
    crowned = host.eval_on_selector_all(
        "#score-sheet table.scores:not(.score-table) tbody tr[data-winner='1']",
        "rows => rows.map(r => Number(r.dataset.seat))",
    )
    assert crowned == [s for s, v in enumerate(running) if v == best and len(set(running)) > 1]
    shoot(host, artifacts, "match-over")
    shoot(guest, artifacts, "match-over")

    # 再来一局: the host presses first and waits; the friend's sheet asks him at once (the gateway
    # pushes a rematch frame: he asks nothing), with the time left; he says 不了 (his seat there
    # is given up), changes his mind and presses 再来一局; the same seats are dealt
    heard = len(received)
    pressed = time.monotonic()
    host.click("#rematch")
    offer = guest.locator("#rematch-offer")
    offer.wait_for(timeout=15_000)
    offered_after = time.monotonic() - pressed  # reported, not asserted: a loaded machine's figure
    (artifacts / "room-rematch-offer-seconds.txt").write_text(f"{offered_after:.2f}\n")
    pushed = [f for f in received[heard:] if '"type":"rematch"' in str(f)]
    assert pushed, "the offer came by the pushed frame"
    host.wait_for_url(re.compile(rf".*#/table/(?!{table})[0-9a-f]+$"))
    rematch = host.url.rsplit("/", 1)[1]
    assert rematch != table
    assert "东家 Ann 想再来一局" in offer.inner_text()
    left = offer.locator(".countdown").inner_text()
    assert re.fullmatch(r"\d+:\d\d 内有效", left), left
    shoot(guest, artifacts, "rematch-offer")
    guest.set_viewport_size({"width": 1280, "height": 800})
    shoot(guest, artifacts, "rematch-offer")
    guest.set_viewport_size({"width": 390, "height": 844})
    host.wait_for_selector("#waiting li .badge.not-ready")
    shoot(host, artifacts, "rematch-waiting")
    guest.click("#rematch-decline")
    guest.wait_for_selector("#rematch-offer", state="detached")
    assert guest.locator(".rematch-hint").inner_text() == "已谢绝再来一局"
    wait_until(
        lambda: stack.api(f"/api/tables/{rematch}")["seats"][1]["kind"] == "empty",
        15,
        "the seat of the friend who said 不了 empty at the rematch table",
    )
    guest.click("#rematch")  # a change of mind: the seat is still free
    guest.wait_for_url(re.compile(rf".*#/table/{rematch}$"))
    for page in (host, guest):
        page.wait_for_function(
            f"document.querySelectorAll('#hand .card').length === {HAND_CARDS}", timeout=30_000
        )
    info = stack.api(f"/api/tables/{rematch}")
    assert info["rematch_of"] == table and info["status"] == "playing"
    assert [(s["kind"], s["name"]) for s in info["seats"]] == [
        ("human", "东家 Ann"),
        ("human", "小明 Bob"),
        ("bot", info["seats"][2]["name"]),
    ]
    assert [
        host.evaluate("window.__table.seat"),
        guest.evaluate("window.__table.seat"),
    ] == [0, 1]
    assert info["options"]["hands"] == 2
    shoot(guest, artifacts, "rematch-dealt")

    # the lobby's history: searched by a player's name, the finished match at the top, its
    # replay, export and audit a click away (the audit runs in this browser's engine)
    host.goto(stack.url)
    host.wait_for_selector("#history-player")
    host.fill("#history-player", "小明")
    row = f"#finished-list .table-row[data-table='{table}']"
    host.wait_for_selector(row)
    assert host.get_attribute(f"{row} .replay-link", "href") == f"#/replay/{table}"
    assert (
        host.get_attribute(f"{row} .export-link", "href") == f"/api/tables/{table}/log?format=jsonl"
    )
    host.click(f"{row} .audit-button")
    host.wait_for_selector(f"{row} .audit-verdict[data-verdict='sound']", timeout=60_000)
    host.locator("#finished").scroll_into_view_if_needed()
    shoot(host, artifacts, "history")
    host.select_option("#history-game", "dabei")
    host.wait_for_selector("#finished-list p.muted")
    assert host.locator(row).count() == 0
