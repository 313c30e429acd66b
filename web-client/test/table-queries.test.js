// node --test web-client/test/: what a live table's state says (js/table-queries.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { indicesOf, selectionSize, spokenOf, wordField } from "../js/table-queries.js";

test("a word's field is the move's one field besides type and seat", () => {
  assert.equal(wordField({ type: "bid", seat: 0, bid: "bao" }), "bid");
  assert.equal(wordField({ type: "call_card", seat: 0, card: "AS" }), "card");
  assert.equal(wordField({ type: "play", seat: 0, cards: ["3S"] }), null);
  assert.equal(wordField({ type: "pass", seat: 0 }), null);
  const moves = [{ type: "bid", seat: 0, bid: "pass" }, { type: "pass", seat: 0 }];
  assert.deepEqual(spokenOf(moves), [moves[0]]);
});

test("a selection's size is fixed only when every play has the same number of cards", () => {
  const burial = [1, 2].map((n) => ({ type: "play", seat: 0, cards: Array(8).fill(`${n}S`) }));
  assert.equal(selectionSize(/** @type {any} */ ({ moves: burial })), 8);
  const mixed = [...burial, { type: "play", seat: 0, cards: ["3S"] }];
  assert.equal(selectionSize(/** @type {any} */ ({ moves: mixed })), null);
  assert.equal(selectionSize(/** @type {any} */ ({ moves: [{ type: "play", seat: 0, cards: ["3S"] }] })), null);
});

test("cards are found in a hand by code, a card held twice twice", () => {
  assert.deepEqual(indicesOf(["7S", "8H", "7S", "9D"], ["7S", "7S", "9D"]), [0, 2, 3]);
  assert.deepEqual(indicesOf(["7S"], ["7S", "7S", "AS"]), [0]);
});
