"""What a hand did, as the page draws it from real views: the engine plays a seeded match of each
game (bots at every seat) and the page's own renderers (board.js, handchange.js, in Chromium, with
the catalogue's words) draw what a seat or a spectator would be shown.

- Every game's hand sheet: each figure it shows is the hand's declared outcome (the engine's
  ``hand_ended``: its scores, payment lines and result lines, and the game's own figures per seat)
  and each is labelled with the game's words, never a code.
- 打棒's 喝血: the seat that gives blood sees on its seat which cards went (its biggest non-point
  cards, to the dealer) and which came back (the dealer's lowest), by name, and the centre says
  who paid the dealer, at both sizes (``outcome-blood-*.png``); the dealer sees the tribute come
  with the kitty.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import Browsers
from e2e.pages import shoot_both
from e2e.stack import Stack
from paiju import api, bots
from paiju.cards import card_name
from paiju.registry import GAMES, get_game
from paiju.simulate import table_command
from paiju.table import TableState

NAMES = ["甲", "乙", "丙", "丁"]

# the page's renderers, given a view, the game's words and the seat the page is for
DRAW_SHEET = """async ([view, words]) => {
  const { scoreSheet } = await import('/js/score-sheet.js');
  const names = ['甲', '乙', '丙', '丁'];
  const sheet = scoreSheet({ view, words, names, me: null, kinds: [] });
  const cells = (row) => [...row.querySelectorAll('td')].map((td) => td.textContent);
  return {
    heads: [...sheet.querySelectorAll('thead th')].map((th) => th.textContent),
    keys: [...sheet.querySelectorAll('tbody tr:first-child td[data-key]')].map((td) => td.dataset.key),
    rows: [...sheet.querySelectorAll('tbody tr')].map((tr) => ({
      scores: [...tr.querySelectorAll('td.score')].map((td) => td.textContent),
      totals: [...tr.querySelectorAll('td.total')].map((td) => td.textContent),
      figures: Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, td.textContent])),
      all: cells(tr),
    })),
    payments: [...sheet.querySelectorAll('ul.score-lines:not(.result-lines) li')].map((li) =>
      [...li.children].map((c) => c.textContent)),
    results: [...sheet.querySelectorAll('ul.result-lines li')].map((li) =>
      [...li.children].map((c) => c.textContent)),
    draw: sheet.querySelector('#draw')?.textContent ?? null,
  };
}"""

DRAW_NOTE = """async ([before, after, words, me]) => {
  const { renderBoard } = await import('/js/board.js');
  const { nextHandNote } = await import('/js/handchange.js');
  const host = document.createElement('div');
  host.className = 'board-host';
  host.id = 'outcome-board';
  document.querySelector('#app').replaceChildren(host);
  const names = ['甲', '乙', '丙', '丁'];
  const handNote = nextHandNote(null, before, after);
  renderBoard(host, { view: after, words, names, me, kinds: [], handNote });
  const note = host.querySelector(`.seat[data-seat='${me}'] .hand-note`);
  return {
    went: note?.querySelector('.hand-went')?.textContent ?? null,
    came: note?.querySelector('.hand-came')?.textContent ?? null,
    payer: host.querySelector("li[data-key='tribute_payer']")?.textContent ?? null,
    dealer: [...host.querySelectorAll('.seat')].filter((s) => s.textContent.includes('庄'))
      .map((s) => Number(s.dataset.seat)),
  };
}"""


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def bots_match(game: str, until: Any, seed: int = 0, hands: int = 2) -> list[TableState]:
    """The states of a seeded match of ``game`` played by the bots, up to the first that
    ``until`` accepts (or the match's end)."""
    config = api.make_config(game, options={"hands": hands})
    state = api.initial_state(config)
    states = [state]
    rng = random.Random(seed)
    while state.phase != "over" and not until(state):
        command = table_command(state, f"outcome-{game}-{seed}")
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            moves = api.legal_moves(state, seat)
            command = bots.choose(state, seat) if rng.random() < 0.8 else rng.choice(moves)
        for event in api.decide(state, command):
            state = api.evolve(state, event)
            states.append(state)
    return states


@pytest.fixture(scope="module")
def catalogue(stack: Stack) -> dict[str, Any]:
    return {game["id"]: game["words"] for game in stack.api("/api/games")}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_sheet_shows_the_hand_s_outcome_each_figure_labelled(
    browsers: Browsers, stack: Stack, catalogue: dict[str, Any], game: str
) -> None:
    page, _ = browsers.page(390, 844)
    page.goto(stack.url)
    page.wait_for_selector(".game-card")
    decider = get_game(game)
    state = bots_match(game, decider.between_hands)[-1]
    assert decider.between_hands(state), f"{game}: the first hand did not end"
    view = api.view(state, None)
    words = catalogue[game]
    drawn = page.evaluate(DRAW_SHEET, [view, words])
    hand = state.last_hand
    assert hand is not None
    players = state.config.players

    # every column is named in words, none by its code
    assert all(head and not head.isascii() for head in drawn["heads"]), drawn["heads"]
    # the game's own figures per seat, as the view holds them
    for key in drawn["keys"]:
        assert [row["figures"][key] for row in drawn["rows"]] == [str(v) for v in view[key]]
    assert len(drawn["rows"]) == players
    scored = "scores" in view["result"]
    if scored:
        assert [row["scores"] for row in drawn["rows"]] == [[signed(s)] for s in hand.scores]
        assert [row["totals"] for row in drawn["rows"]] == [[signed(t)] for t in state.totals]
        # a hand nobody won or lost says so (大北's 0/0/0/0)
        assert drawn["draw"] == ("本局平局：无人输赢" if not any(hand.scores) else None)
    else:  # a hand of levels and blood: no column of scores (打棒)
        assert all(row["scores"] == [] == row["totals"] for row in drawn["rows"])
    # each payment: its reason in words, who pays whom, the amount
    assert len(drawn["payments"]) == len(hand.lines)
    for shown, line in zip(drawn["payments"], hand.lines, strict=True):
        assert shown[0] == words["reasons"][line.reason][0], (shown, line)
        assert NAMES[line.payer] in shown[1] and NAMES[line.payee] in shown[1]
        assert shown[2] == str(line.amount)
    # each result that is not a payment (levels, blood, points, 番): its reason in words, the seat
    assert len(drawn["results"]) == len(hand.results)
    for shown, result in zip(drawn["results"], hand.results, strict=True):
        assert shown[0] == words["reasons"][result.reason][0], (shown, result)
        assert shown[1] == NAMES[result.seat] and shown[2] == str(result.value)
    assert hand.lines or hand.results or not any(hand.scores), f"{game}: a hand with no outcome"


def test_the_seat_that_gives_blood_sees_what_went_and_what_came_back(
    browsers: Browsers, stack: Stack, catalogue: dict[str, Any], artifacts: Path
) -> None:
    # a seeded match of 打棒 whose second hand drinks blood: the state before and after 喝血
    for seed in range(20):
        states = bots_match(
            "dabang", lambda s: s.hand_no >= 2 and getattr(s, "tribute", 0) > 0, seed, hands=3
        )
        if getattr(states[-1], "tribute", 0) > 0:
            break
    else:
        raise AssertionError("no seeded match of 打棒 drank blood in its second hand")
    before, after = states[-2], states[-1]
    dealer = after.dealer  # type: ignore[attr-defined]
    payer = (dealer - 1) % after.config.players  # "庄家的上家应向庄家进贡"
    words = catalogue["dabang"]

    def names(cards: Any) -> list[str]:
        return sorted(card_name(c) for c in cards)

    went = list((Counter(before.hands[payer]) - Counter(after.hands[payer])).elements())
    came = list((Counter(after.hands[payer]) - Counter(before.hands[payer])).elements())
    assert len(went) == len(came) == after.tribute > 0  # type: ignore[attr-defined]

    page, _ = browsers.page(390, 844)
    page.goto(stack.url)
    page.wait_for_selector(".game-card")
    seen = page.evaluate(DRAW_NOTE, [api.view(before, payer), api.view(after, payer), words, payer])
    assert seen["went"].startswith("交出：") and seen["came"].startswith("收到："), seen
    assert sorted(seen["went"].removeprefix("交出：").split()) == names(went)
    assert sorted(seen["came"].removeprefix("收到：").split()) == names(came)
    # to and from whom: the centre names the payer, the dealer wears his badge
    assert seen["payer"] == f"向庄家进贡：{NAMES[payer]}（你）", seen
    assert seen["dealer"] == [dealer], seen
    shoot_both(page, artifacts, "outcome-blood")

    # the dealer: the tribute came with the kitty, and his lowest cards went back (a card of the
    # kitty like one he returned is no change to his hand: the note tells the hand's change)
    seen = page.evaluate(
        DRAW_NOTE, [api.view(before, dealer), api.view(after, dealer), words, dealer]
    )
    gained = Counter(after.hands[dealer]) - Counter(before.hands[dealer])
    lost = Counter(before.hands[dealer]) - Counter(after.hands[dealer])
    assert sorted(seen["came"].removeprefix("收到：").split()) == names(gained.elements())
    assert sorted(seen["went"].removeprefix("交出：").split()) == names(lost.elements())
    assert sum(gained.values()) - sum(lost.values()) == 8  # the kitty, to bury
