"""板子炮 in the browser: a player speaks in the auction (包 / 不包, 反包 / 不反包) with buttons that
are exactly the engine's legal bids, calls a partner's card with the picker when the dealer, and
plays the hand by clicking to its score sheet, while a spectator sees the auction and never the
secret partner before the called card is played, nor any hand.

The bots decide what kind of hand it is (a 包, a 反包 duel with us benched, a 天牌 at the deal, or
two against two): the first test plays whatever comes. The call needs us to be the dealer and the
bots to pass, so the second test deals tables (through the API, as a second browser would) until
we hold ♠7, and deals again when a bot bids. The third sends a bid the engine forbids, as a stale
client would, and the page shows the refusal and resynchronises.

Screenshots: ``banzipao-bid``, ``banzipao-call``, ``banzipao-score`` (the first test's hand) and
``banzipao-score-call``, ``banzipao-spectator`` (the two-against-two hand), at 390 and 1280 px.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

from e2e.conftest import WIDTHS, Browsers
from e2e.pages import (
    STATE,
    TURN_OR_SHEET,
    Hand,
    dealt_view,
    frames_of,
    server_moves,
    shoot_both,
    state,
    watch,
)
from e2e.probe import send_unchecked
from e2e.stack import UNTIMED, Stack, create_in_lobby, open_lobby, sit_as
from e2e.test_play import (
    after_move,
    diagnose,
    spectator_frames_checked,
    take_turn,
    version,
)
from paiju.cards import format_card

GAME = "banzipao"
# what the score sheet may name: every reason of 板子炮, in Chinese
REASONS_ZH = {
    "bao_win": "包牌成功",
    "bao_lose": "包牌失败",
    "fanbao_win": "反包成功",
    "fanbao_fail": "反包失败",
    "shuangfei": "双飞",
    "more_cards": "得牌多",
    "dou": "豆附加分",
    "dou_twos": "2222附加分",
    "guntong": "滚筒附加分",
    "gunlong": "天牌滚龙",
    "shisanlan": "天牌十三烂",
}
RANKS = "3456789TJQKA2"


# --- pages and tables ---------------------------------------------------------------------------


def table_where_i_deal(
    stack: Stack,
    page: Any,
    attempts: int = 60,
    clock: dict[str, int] = UNTIMED,
    options: dict[str, Any] | None = None,
) -> str:
    """A four-seat table with me in seat 0 and bots in the others, dealt so that I hold ♠7 (the
    dealer speaks first: the auction waits for me) and without a 天牌. A deal that does not fit is
    left as it is (its bots wait for seat 0; with a ``clock``, 托管 plays the absent seat out). The
    page opens the table with my seat's token, as if this browser had created it."""
    body = {"game": GAME, "variant": "guizhou", "players": 4, "clock": clock}
    for _ in range(attempts):
        table = stack.api("/api/tables", body | {"options": options or {}})["id"]
        joined = stack.api(
            f"/api/tables/{table}/seats",
            {"name": "测试玩家", "seat": 0, "seed": secrets.token_hex(16)},
        )
        stack.api(f"/api/tables/{table}/bots", {})
        view = dealt_view(stack, table)
        if view["phase"] == "bid" and view["dealer"] == 0:
            sit_as(page, stack, table, 0, joined["token"])
            page.wait_for_function(f"{STATE}?.seat === 0 && document.body.dataset.myTurn === '1'")
            return str(table)
    raise AssertionError(f"no deal in {attempts} gave seat 0 the ♠7")


# --- my turns -----------------------------------------------------------------------------------


def shoot_once(page: Any, hand: Hand, artifacts: Path | None, shot: str) -> None:
    if artifacts is not None and shot in hand.shots:
        hand.shots.discard(shot)
        shoot_both(page, artifacts, f"banzipao-{shot}")


def bid(page: Any, hand: Hand, artifacts: Path | None = None, choice: str = "pass") -> None:
    """Speak in the auction by clicking: the buttons shown must be exactly the legal bids (the
    engine worker's and the server's); ``choice`` if it is one of them, else the first."""
    before = version(page)
    page.wait_for_selector("#speak[data-type='bid'] button[data-bid]")
    s = state(page)
    legal = sorted(m["bid"] for m in s["moves"] if m["type"] == "bid")
    server = sorted(m["bid"] for m in server_moves(hand) if m["type"] == "bid")
    buttons = page.locator("#speak button[data-bid]")
    shown = sorted(buttons.nth(i).get_attribute("data-bid") or "" for i in range(buttons.count()))
    labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
    hand.bids.append(
        {
            "legal": legal,
            "server": server,
            "shown": shown,
            "labels": labels,
            "play_hidden": page.locator("#play").is_hidden(),
            "help": page.inner_text("#speak .word-help"),
            "bao": s["view"]["bao"],
        }
    )
    shoot_once(page, hand, artifacts, "bid")
    pick = choice if choice in shown else shown[0]
    page.click(f"#speak button[data-bid='{pick}']")
    after_move(page, before)


def call(page: Any, hand: Hand, artifacts: Path | None = None) -> None:
    """Call a partner's card with the picker: its cards are exactly the legal calls, strongest
    first, none of them mine; pick the first (the strongest), then confirm."""
    before = version(page)
    page.wait_for_selector("#speak[data-type='call_card'] .call-card")
    s = state(page)
    legal = [m["card"] for m in s["moves"] if m["type"] == "call_card"]
    shown = page.eval_on_selector_all("#speak .call-card", "els => els.map(e => e.dataset.card)")
    confirm_disabled = page.locator("#call-confirm").is_disabled()
    page.locator("#speak .call-card").first.click()
    page.wait_for_function("!document.querySelector('#call-confirm').disabled")
    hand.calls.append(
        {
            "legal": legal,
            "server": [m["card"] for m in server_moves(hand) if m["type"] == "call_card"],
            "shown": shown,
            "hand": s["hand"],
            "confirm_disabled_before_pick": confirm_disabled,
            "confirm": page.inner_text("#call-confirm"),
            "help": page.inner_text("#speak .word-help"),
            "picked": shown[0],
        }
    )
    shoot_once(page, hand, artifacts, "call")
    page.click("#call-confirm")
    after_move(page, before)


def check_spectator(hand: Hand, page: Any, watcher: Any) -> None:
    """At a moment of rest (my turn to play), the spectator's page shows no hand, and while the
    called card has not been played, no partner."""
    v = state(page)["view"]["version"]
    watcher.wait_for_function(  # drawn, not merely received
        f"Number(document.querySelector('#board .board')?.dataset.version) >= {v}"
    )
    view = state(watcher)["view"]
    assert view["seat"] is None and view["hand"] is None and view["hands"] is None
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator(".open-hand").count() == 0
    called = view["called_card"]
    if called is None or hand.spectator is None:
        return
    played = {
        card
        for frame in frames_of(hand.spectator, hand.table)
        for action in frame["view"]["actions"]
        for card in action or []
    }
    if called in played:
        return
    assert view["partner"] is None, view
    assert watcher.locator(".badge.role[data-role='partner']").count() == 0
    assert watcher.locator(".announcements [data-key='partner']").count() == 0
    assert watcher.locator(".announcements [data-key='called_card']").count() == 1
    hand.secret_checks += 1


def play_out(page: Any, hand: Hand, artifacts: Path, watcher: Any = None) -> None:
    """My turns until the hand's score sheet: bids, the call, plays."""
    assert hand.played is not None
    while True:
        page.wait_for_function(TURN_OR_SHEET, timeout=90_000)
        if page.locator("#score-sheet").count():
            return
        phase = state(page)["view"]["phase"]
        hand.phases.append(phase)
        if phase == "bid":
            bid(page, hand, artifacts)
        elif phase == "call":
            if watcher is not None:  # the table waits for me: everyone else is told so
                waiting_line(watcher, r"等待 .+ 叫牌")
            call(page, hand, artifacts)
        else:
            assert phase == "play", phase
            view = state(page)["view"]
            secret = view["partner"] is None and view["called_card"] in view["hand"]
            mark = page.locator(".seat.mine .badge[data-role='partner-secret']").count()
            assert mark == (1 if secret else 0), view  # I hold the called card: I am the partner
            if watcher is not None:
                check_spectator(hand, page, watcher)
                shoot_once(watcher, hand, artifacts, "spectator")
            take_turn(page, hand.played)


def waiting_line(watcher: Any, pattern: str) -> None:
    watcher.wait_for_function(
        f"/^{pattern}$/.test(document.querySelector('#center-message')?.textContent ?? '')"
    )


def read_sheet(page: Any, hand: Hand) -> None:
    """The match's sheet (one hand: the match is over once it is scored; the sheet of the hand
    comes first, the match's once the table says it is over)."""
    page.wait_for_selector("#score-sheet[data-final='1'] .score-lines li")
    view = state(page)["view"]
    hand.sheet = {
        "reasons": page.eval_on_selector_all(
            "#score-sheet .line-reason", "els => els.map(e => e.textContent)"
        ),
        "last_hand": view["last_hand"],
        "view": view,
        "final": page.get_attribute("#score-sheet", "data-final"),
        "captured_column": page.locator("#score-sheet td[data-key='captured']").count(),
    }


# --- what the spectator received ----------------------------------------------------------------


def audit_spectator(stack: Stack, hand: Hand) -> int:
    """Every frame the spectator got, against the table's true state at that event (rebuilt from
    the finished table's log): no card still held is shown (but the called card, which is named
    in public), and no partner while the called card is unplayed. Returns the frames checked."""
    assert hand.spectator is not None
    checked = spectator_frames_checked(stack, hand.table, frames_of(hand.spectator, hand.table))
    for frame, truth in checked:
        view = frame["view"]
        called = getattr(truth, "called", None)
        if called is not None and truth.phase == "play" and called not in truth.discards:
            assert view["partner"] is None, f"the partner shown at event {frame['index']}"
            assert view["called_card"] == format_card(called)
    assert not any('"command"' in f or '"hello"' in f for f in hand.spectator.sent)
    return len(checked)


def card_text(code: str) -> str:
    """A card as the page writes it: ♠A, ♥10."""
    suit = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[code[1]]
    return suit + ("10" if code[0] == "T" else code[0])


def check_bids(hand: Hand) -> None:
    for turn in hand.bids:
        assert turn["shown"] == turn["legal"] == turn["server"], turn
        assert "pass" in turn["shown"] and len(turn["shown"]) == 2
        assert turn["shown"] == sorted(["pass", "bao" if turn["bao"] is None else "fanbao"])
        assert turn["play_hidden"]  # the play buttons give way to the bids
        assert "包" in turn["help"]
        for label in turn["labels"]:
            assert label in {"包", "不包", "反包", "不反包"}, label
        if turn["bao"] is None:
            assert sorted(turn["labels"]) == sorted(["包", "不包"])
        else:
            assert sorted(turn["labels"]) == sorted(["反包", "不反包"])


def check_sheet(hand: Hand) -> None:
    last = hand.sheet["last_hand"]
    assert last["type"] == "hand_ended" and last["lines"]
    assert sum(last["scores"]) == 0 and any(last["scores"])
    assert hand.sheet["reasons"] == [REASONS_ZH[line["reason"]] for line in last["lines"]]
    assert hand.sheet["final"] == "1"  # a one-hand match
    assert hand.sheet["captured_column"] == 4  # 得牌, per seat


# --- the tests ----------------------------------------------------------------------------------


def test_a_hand_is_bid_and_played_by_clicking_to_its_score_sheet(
    browser: Any, stack: Stack, artifacts: Path
) -> None:
    people = Browsers(browser, stack)
    try:
        page, player = people.page(WIDTHS["desktop"])
        open_lobby(page, stack, GAME)
        table = create_in_lobby(page, GAME, "guizhou")
        watcher, spectator = people.page(WIDTHS["desktop"])
        watch(watcher, stack, table)
        page.wait_for_function("document.querySelectorAll('#hand .card').length === 13")
        hand = Hand(table, player, spectator, shots={"call"})
        try:
            play_out(page, hand, artifacts, watcher)
            read_sheet(page, hand)
        except Exception as exc:
            raise AssertionError(f"{exc}\npage: {diagnose(page)}\n{player.received[-6:]}") from exc
        shoot_both(page, artifacts, "banzipao-score")
        view = hand.sheet["view"]
        tianpai = {line["reason"] for line in view["last_hand"]["lines"]} & {"gunlong", "shisanlan"}
        # what kind of hand the bots made of it: every kind ends on the score sheet
        if tianpai:
            assert hand.phases == [] and len(view["last_hand"]["order"]) == 1
        elif view["fanbao"] is not None and 0 in view["benched"]:
            assert "play" not in hand.phases  # benched: we never played
        check_bids(hand)
        assert hand.phases.count("bid") == len(hand.bids)
        assert hand.phases.count("call") == len(hand.calls) <= 1
        check_sheet(hand)
        assert audit_spectator(stack, hand) >= (0 if tianpai else 3)
        player.assert_clean()
        spectator.assert_clean()
    finally:
        people.close()


def test_the_dealer_calls_a_partner_who_stays_secret_until_the_card_is_played(
    browser: Any, stack: Stack, artifacts: Path
) -> None:
    people = Browsers(browser, stack)
    try:
        page, player = people.page(WIDTHS["desktop"])
        watcher, spectator = people.page(WIDTHS["desktop"])
        open_lobby(page, stack, GAME)
        for _ in range(12):  # a bot with four aces and twos bids 包: deal again
            table = table_where_i_deal(stack, page)
            watch(watcher, stack, table)
            waiting_line(watcher, "等待 测试玩家 发言")  # the dealer speaks first
            hand = Hand(table, player, spectator, shots={"bid", "call", "spectator"})
            bid(page, hand, artifacts)  # 不包, as the dealer, first to speak
            page.wait_for_function(
                f"{STATE}.view.phase !== 'bid' || document.body.dataset.myTurn === '1'"
            )
            if state(page)["view"]["phase"] == "bid":
                bid(page, hand, artifacts)  # 不反包: the seat before me bid 包
            page.wait_for_function(f"{STATE}.view.phase !== 'bid'")
            if state(page)["view"]["phase"] == "call":
                break
        else:
            raise AssertionError("twelve deals in a row had a 包")
        try:
            play_out(page, hand, artifacts, watcher)
            read_sheet(page, hand)
        except Exception as exc:
            raise AssertionError(f"{exc}\npage: {diagnose(page)}\n{player.received[-6:]}") from exc
        shoot_both(page, artifacts, "banzipao-score-call")

        assert len(hand.calls) == 1
        c = hand.calls[0]
        assert c["shown"] == c["legal"] == c["server"]
        assert len(c["shown"]) == 39 and not set(c["shown"]) & set(c["hand"])
        strength = [RANKS.index(card[0]) for card in c["shown"]]
        assert strength == sorted(strength, reverse=True)  # strongest first: 2s, aces, kings…
        assert c["confirm_disabled_before_pick"]
        assert c["confirm"] == f"叫 {card_text(c['picked'])}"
        assert "朋友" in c["help"]
        check_bids(hand)
        check_sheet(hand)
        view = hand.sheet["view"]
        assert view["called_card"] == c["picked"] and view["dealer"] == 0
        reasons = {line["reason"] for line in view["last_hand"]["lines"]}
        assert reasons & {"shuangfei", "more_cards"}
        # the partner is public once the hand is over: the holder of the called card at the deal
        log = stack.api(f"/api/tables/{hand.table}/log")
        dealt = next(e for e in log["events"] if e["type"] == "dealt")
        holder = next(s for s, cards in enumerate(dealt["hands"]) if c["picked"] in cards)
        assert view["partner"] == holder
        # the spectator was looked at (at least at my first lead) while the partner was secret
        assert hand.secret_checks >= 1
        assert audit_spectator(stack, hand) >= 10
        replay_reads_well(watcher, stack, hand, c["picked"])
        player.assert_clean()
        spectator.assert_clean()
    finally:
        people.close()


def replay_reads_well(page: Any, stack: Stack, hand: Hand, called: str) -> None:
    """The finished hand's replay, at phone width: its log tells the auction and the call in
    words, and no step of it sticks out sideways."""
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 900})
    page.goto(f"{stack.url}#/replay/{hand.table}?step=0")
    page.wait_for_selector(".replay-page[data-ready='1']")
    log = page.eval_on_selector_all("#event-log li", "els => els.map(e => e.textContent)")
    text = "\n".join(log)
    assert "测试玩家 先发言" in text  # the dealt event: the dealer speaks first
    assert re.search(r"测试玩家 不包", text)
    assert f"庄家 测试玩家 叫 {card_text(called)}" in text
    assert not re.search(r"bid_made|card_called|\b(pass|bao|fanbao)\b", text), text
    last = int(page.get_attribute(".replay-page", "data-last") or "0")
    for step in range(last + 1):
        page.fill("#replay-slider", str(step))
        page.wait_for_selector(f".replay-page[data-step='{step}']")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= WIDTHS["phone"], f"replay step {step} is {wide}px wide"


def test_a_bid_the_engine_forbids_is_refused_by_the_server_and_the_page_resyncs(
    browsers: Browsers, stack: Stack
) -> None:
    page, player = browsers.page(WIDTHS["phone"])
    open_lobby(page, stack, GAME)
    table = table_where_i_deal(stack, page)
    s = state(page)
    assert s["view"]["phase"] == "bid" and s["view"]["bao"] is None  # nobody bid 包: no 反包
    sent_before, received_before = len(player.sent), len(player.received)
    command = {"type": "bid", "seat": 0, "bid": "fanbao"}
    send_unchecked(page, command, "#speak button[data-bid='pass']")  # 不包 goes out as 反包
    page.wait_for_selector("#reason[data-code='bid_not_allowed']")
    page.wait_for_selector("#toast:not([hidden])")
    page.wait_for_function(
        "document.querySelector('#reason').textContent.includes('已与服务器重新同步')"
    )
    sent = [json.loads(f) for f in player.sent[sent_before:]]
    received = [json.loads(f) for f in player.received[received_before:]]
    assert [f["type"] for f in sent] == ["command", "sync"]
    assert sent[0]["command"] == command
    error = next(f for f in received if f["type"] == "error")
    assert error["code"] == "bid_not_allowed" and error["id"] == sent[0]["id"]
    assert any(f["type"] == "state" for f in received)  # the view again, from the server
    assert "服务器拒绝" in page.inner_text("#reason")
    # still my turn, the same two bids offered: the game goes on with a legal one
    assert page.evaluate("document.body.dataset.myTurn") == "1"
    assert page.eval_on_selector_all(
        "#speak button[data-bid]", "els => els.map(e => e.dataset.bid)"
    ) == ["pass", "bao"]
    # in English: the same two bids, named for what they do
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    labels = page.eval_on_selector_all(
        "#speak button[data-bid]", "els => els.map(e => e.textContent)"
    )
    center = page.inner_text("#center-message")
    page.click("#lang-switch")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    assert labels == ["No bid (不包)", "Bid alone (包)"]
    assert center == "Your turn to speak"
    hand = Hand(table, player)
    bid(page, hand)
    assert state(page)["view"]["bids"][0] == [0, "pass"]
    check_bids(hand)
