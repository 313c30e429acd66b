// node --test web-client/test/: table talk and the spoken calls (js/talk.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { callsOf, freshTalk, isEmote, mutedSeats, setMutedSeat, talkWords } from "../js/talk.js";

test("only words said since the last view are news, and none on the first view", () => {
  const before = { talk: [[0, "hurry", 10]] };
  const after = { talk: [[0, "hurry", 10], [1, "nice", 12], [0, "smile", 13]] };
  assert.deepEqual(freshTalk(before, after), [[1, "nice", 12], [0, "smile", 13]]);
  assert.deepEqual(freshTalk(null, after), []);
  assert.deepEqual(freshTalk({}, after), after.talk);
  assert.deepEqual(freshTalk(after, after), []);
  assert.deepEqual(freshTalk(after, {}), []);
});

test("phrases come before emotes, and an emote is told by its symbol badge", () => {
  const words = {
    commands: {
      talk: {
        smile: { button: ["☺ 开心", "☺ Happy"], badge: ["☺", "☺"] },
        hurry: { button: ["快点吧", "Hurry"], badge: ["快点吧", "Hurry"] },
      },
    },
  };
  assert.deepEqual(talkWords(words).map(([word]) => word), ["hurry", "smile"]);
  assert.equal(isEmote(words.commands.talk.smile), true);
  assert.equal(isEmote(words.commands.talk.hurry), false);
  assert.deepEqual(talkWords({}), []);
});

test("a beating play says 管上, a big one its kind, a lead its kind, a pass 不要, a last card 报单", () => {
  const news = (plays, passes = [], big = false) => ({ plays, passes, big, ended: false });
  const led = { hand_no: 1, lead: { seat: 0, kind: "pair" }, counts: [5, 5, 5] };
  assert.deepEqual(callsOf({ hand_no: 1, counts: [7, 5, 5] }, led, news([0])), [{ kind: "pair" }]);
  const beat = { hand_no: 1, lead: { seat: 1, kind: "pair" }, counts: [5, 3, 5] };
  assert.deepEqual(callsOf(led, beat, news([1])), [{ call: "beat" }]);
  const bomb = { hand_no: 1, lead: { seat: 1, kind: "bomb" }, counts: [5, 1, 5] };
  assert.deepEqual(callsOf(led, bomb, news([1], [], true)), [{ kind: "bomb" }, { call: "one" }]);
  assert.deepEqual(callsOf(led, led, news([], [2])), [{ call: "pass" }]);
  assert.deepEqual(callsOf(led, led, news([])), []);
});

test("muted seats are kept per table, and a bad entry is no seat", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.deepEqual([...mutedSeats(storage, "t1")], []);
  setMutedSeat(storage, "t1", 2, true);
  setMutedSeat(storage, "t1", 0, true);
  assert.deepEqual([...mutedSeats(storage, "t1")].sort(), [0, 2]);
  assert.deepEqual([...mutedSeats(storage, "t2")], []);
  setMutedSeat(storage, "t1", 2, false);
  assert.deepEqual([...mutedSeats(storage, "t1")], [0]);
  store.set("paiju.talkMuted.t3", "{not json");
  assert.deepEqual([...mutedSeats(storage, "t3")], []);
});
