// node --test web-client/test/: a game's own view keys as figures and facts (js/game-extras.js).
import assert from "node:assert/strict";
import { test } from "node:test";

// words.js imports i18n.js, which reads the language kept in this browser at import
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.document = { documentElement: {} };
const { gameExtras } = await import("../js/game-extras.js");

const VIEW = {
  players: 3,
  phase: "play",
  counts: [5, 4, 3], // the core's own: never a figure
  totals: [1, -1, 0],
  named_figure: [2, 0, 1],
  named_fact: 7,
  unnamed_figure: [1, 2, 3],
  unnamed_fact: "north",
  nothing: 0, // a count of nothing is no news
  unset: null,
  wrong_length: [1, 2],
  role_seat: 1, // shown by the words as a role, not as a fact
};
const WORDS = {
  seat_figures: { named_figure: ["甲", "A"] },
  facts: { named_fact: ["乙", "B"] },
  roles: { role_seat: ["丙", "C"] },
};

test("the words' figures and facts come first, then the keys they do not name", () => {
  const { perSeat, facts } = gameExtras(VIEW, WORDS);
  assert.deepEqual(perSeat, [["named_figure", [2, 0, 1]], ["unnamed_figure", [1, 2, 3]]]);
  assert.deepEqual(facts, [["named_fact", 7], ["unnamed_fact", "north"]]);
});

test("a named key the view does not hold, or holds as nothing, is left out", () => {
  const { perSeat, facts } = gameExtras({ players: 3, named_figure: [1, 2], named_fact: 0 }, WORDS);
  assert.deepEqual(perSeat, []);
  assert.deepEqual(facts, []);
});
