// node --test web-client/test/: what happened to my hand that I did not do (js/handchange.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { handChange, nextHandNote } from "../js/handchange.js";

test("a tribute paid: the biggest cards left, as many low ones came back", () => {
  const before = ["3S", "5H", "9C", "AS", "BJ", "RJ"];
  const after = ["3S", "3D", "4C", "5H", "9C", "AS"];
  assert.deepEqual(handChange(before, after), { went: ["BJ", "RJ"], came: ["3D", "4C"] });
});

test("a card held twice counts twice (a pack of several decks)", () => {
  assert.deepEqual(handChange(["7S", "7S", "8H"], ["7S", "8H", "8H", "9D"]), { went: ["7S"], came: ["8H", "9D"] });
});

test("the note stays until I next play, and a new hand starts without one", () => {
  const dealt = { hand_no: 1, hand: ["3S", "RJ"] };
  const paid = { hand_no: 1, hand: ["3S", "4D"] };
  const note = nextHandNote(null, dealt, paid);
  assert.deepEqual(note, { went: ["RJ"], came: ["4D"] });
  const otherSeat = { hand_no: 1, hand: ["3S", "4D"], version: 9 }; // my hand unchanged
  assert.equal(nextHandNote(note, paid, otherSeat), note);
  const played = { hand_no: 1, hand: ["4D"] };
  assert.equal(nextHandNote(note, paid, played), null);
  assert.equal(nextHandNote(note, paid, { hand_no: 2, hand: ["5S"] }), null);
  assert.equal(nextHandNote(note, null, paid), null); // a page opened now knows no before
  assert.equal(nextHandNote(null, { hand_no: 1, hand: null }, paid), null); // a spectator sat down
});
