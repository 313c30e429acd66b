// node --test web-client/test/: acting on the server's list of moves before the engine is ready (js/moves.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { playOf } from "../js/moves.js";

const moves = [
  { type: "pass", seat: 0 },
  { type: "play", seat: 0, cards: ["3D"] },
  { type: "play", seat: 0, cards: ["5S", "5H"] },
  { type: "play", seat: 0, cards: ["7C", "7C"] },
  { type: "play", seat: 0, cards: ["8S", "RJ"], reading: { kind: "pair", stands_for: ["8H"] } },
  { type: "play", seat: 0, cards: ["8S", "RJ"], reading: { kind: "straight", stands_for: ["9S"] } },
];

test("a selection that is one of the server's plays is that play, in any order", () => {
  assert.deepEqual(playOf(moves, ["3D"]), moves[1]);
  assert.deepEqual(playOf(moves, ["5H", "5S"]), moves[2]);
  assert.deepEqual(playOf(moves, ["7C", "7C"]), moves[3]); // two copies of a card
});

test("a selection that is no play, or several, is none", () => {
  assert.equal(playOf(moves, ["4D"]), null);
  assert.equal(playOf(moves, ["7C"]), null);
  assert.equal(playOf(moves, ["8S", "RJ"]), null); // two readings: the engine asks which
  assert.equal(playOf(moves, []), null);
  assert.equal(playOf(null, ["3D"]), null);
});
