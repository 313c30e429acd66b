"""dom.js's patch, in Chromium: a redrawn board changes only what differs. A node equal to the one
in its place is the same node afterwards (not drawn again, its focus kept); an element of the same
tag is patched in place; the page's own slot (data-keep) stays where it is, after the others."""

from __future__ import annotations

from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack

# Builds a tree, patches it into a host twice with changes, and says what became of each node.
PATCHED = """async () => {
  const { h, patch } = await import("/js/dom.js");
  const host = h("div");
  const slot = h("div.slot", { dataset: { keep: "1" } }, h("button", null, "mine"));
  const board = (turn, cards, extra) => h("div.board", { dataset: { turn } },
    h("section.seat", null, h("span.name", null, "甲"), h("div.row", null, cards.map((c) => h("i.card", { dataset: { card: c } })))),
    h("p.message", null, `turn ${turn}`),
    extra ? h("ul.extra", null, h("li", null, "炸弹")) : null);
  patch(host, board(0, ["3C", "4C", "5C"], true));
  host.querySelector(".seat").append(slot);
  const before = {
    board: host.firstChild, seat: host.querySelector(".seat"), name: host.querySelector(".name"),
    cards: [...host.querySelectorAll(".card")], message: host.querySelector(".message"),
    text: host.querySelector(".message").firstChild,
  };
  patch(host, board(1, ["3C", "5C"], false));
  const cards = [...host.querySelectorAll(".card")];
  return {
    boardKept: host.firstChild === before.board,
    turn: host.firstChild.dataset.turn,
    seatKept: host.querySelector(".seat") === before.seat,
    nameKept: host.querySelector(".name") === before.name,
    firstCardKept: cards[0] === before.cards[0],
    secondCardPatched: cards[1] === before.cards[1] && cards[1].dataset.card === "5C",
    cardCount: cards.length,
    textNodeKept: host.querySelector(".message").firstChild === before.text,
    message: host.querySelector(".message").textContent,
    extraGone: host.querySelector(".extra") === null,
    slotKept: slot.parentNode === before.seat,
    slotLast: before.seat.lastChild === slot,
    html: host.innerHTML,
  };
}"""

# A child of another tag, or another data-id (a new play), is replaced; children given as strings
# become text; nothing else stays.
REPLACED = """async () => {
  const { h, patch } = await import("/js/dom.js");
  const host = h("div", null, h("p", null, "old"), h("span", null, "gone"));
  const p = host.firstChild;
  patch(host, h("div", { title: "新" }, "x"), "text");
  const replaced = host.firstChild !== p, was = host.innerHTML;
  const play = (id) => h("div.lead", { dataset: { id } }, "3C");
  patch(host, play("1:3C"));
  const first = host.firstChild;
  patch(host, play("1:3C"));
  const same = host.firstChild === first;
  patch(host, play("2:3C"));
  return { replaced, was, html: host.innerHTML, same, another: host.firstChild !== first };
}"""


def test_a_patch_keeps_what_did_not_change_and_changes_only_what_did(
    browsers: Browsers, stack: Stack
) -> None:
    page, watch = browsers.page()
    page.goto(stack.url)
    got: dict[str, Any] = page.evaluate(PATCHED)
    assert got.pop("html") == (
        '<div class="board" data-turn="1"><section class="seat"><span class="name">甲</span>'
        '<div class="row"><i class="card" data-card="3C"></i><i class="card" data-card="5C"></i>'
        '</div><div class="slot" data-keep="1"><button>mine</button></div></section>'
        '<p class="message">turn 1</p></div>'
    )
    assert got == {
        "boardKept": True,
        "turn": "1",
        "seatKept": True,
        "nameKept": True,
        "firstCardKept": True,
        "secondCardPatched": True,
        "cardCount": 2,
        "textNodeKept": True,
        "message": "turn 1",
        "extraGone": True,
        "slotKept": True,
        "slotLast": True,
    }
    replaced = page.evaluate(REPLACED)
    assert replaced == {
        "replaced": True,
        "was": '<div title="新">x</div>text',
        "html": '<div class="lead" data-id="2:3C">3C</div>',
        "same": True,
        "another": True,
    }
    watch.assert_clean()
