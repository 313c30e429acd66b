// node --test web-client/test/: a table's turn clock in words (js/clock.js).
import assert from "node:assert/strict";
import { test } from "node:test";

// i18n.js reads the language kept in this browser, and names the page's language, at import
const kept = new Map();
globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
globalThis.document = { documentElement: {} };
const { clockOf, clockText } = await import("../js/clock.js");
const { setLang } = await import("../js/i18n.js");

const GAME = {
  clock: { play: 30, bid: 20, bury: 60, continue: 15 },
  words: {
    value_names: {
      clock: { play: ["出牌", "play"], bid: ["叫牌", "bid"], bury: ["埋底", "bury"], continue: ["继续下一局", "continue"] },
    },
  },
};

test("the game's own clock says nothing; a choice is named", () => {
  setLang("zh");
  assert.equal(clockText(GAME, { ...GAME.clock }), "");
  assert.equal(clockText(GAME, clockOf(GAME, "relaxed")), "限时：宽松");
  assert.equal(clockText(GAME, clockOf(GAME, "none")), "限时：不限时");
});

test("a clock of its own says the kinds of one value together, 0 as untimed", () => {
  const clock = { play: 0, bid: 0, bury: 0, continue: 15 };
  setLang("zh");
  assert.equal(clockText(GAME, clock), "限时：出牌、叫牌、埋底 不限时，继续下一局 15s");
  setLang("en");
  assert.equal(clockText(GAME, clock), "Clock: play, bid, bury untimed; continue 15s");
  assert.equal(clockText(GAME, { play: 45 }), "Clock: play 45s; bid 20s; bury 60s; continue 15s");
});
