// node --test web-client/test/: a practice table as a transport (js/practice-transport.js), with
// a fake table in place of the engine worker and a fake clock in place of the timers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { practiceTransport } from "../js/practice-transport.js";

/** A table that answers from a script, and a clock whose timers run when told. */
function fixture(answers) {
  const calls = [];
  const timers = [];
  const kept = [];
  let clock = 1000;
  const transport = practiceTransport({
    call: async (method, ...args) => {
      calls.push([method, ...args]);
      if (method === "log") return `log after ${calls.length - 1} calls`;
      const answer = answers[method]?.shift() ?? { frames: [], wake: null };
      return JSON.stringify(answer);
    },
    now: () => clock,
    schedule: (fn, ms) => {
      const timer = { fn, at: clock + ms, cancelled: false };
      timers.push(timer);
      return timer;
    },
    cancel: (timer) => {
      timer.cancelled = true;
    },
    keep: (log) => kept.push(log),
  });
  const frames = [];
  const links = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const runTimers = async (to) => {
    clock = to;
    for (const timer of timers.splice(0)) {
      if (!timer.cancelled && timer.at <= to) timer.fn();
      else if (!timer.cancelled) timers.push(timer);
    }
    await settle();
  };
  return { transport, calls, timers, kept, frames, links, settle, runTimers };
}

const state = (version) => ({ type: "state", view: { version } });

test("open says hello to the seat, delivers the table's frames in order and keeps the log", async () => {
  const f = fixture({ open: [{ frames: [{ type: "welcome", seat: 0 }, state(1)], wake: null }] });
  f.transport.open((frame) => f.frames.push(frame), (link) => f.links.push(link));
  await f.settle();
  assert.deepEqual(f.links, [{ link: "connecting" }, { link: "open", hello: true }]);
  assert.deepEqual(f.frames, [{ type: "welcome", seat: 0 }, state(1)]);
  assert.deepEqual(f.calls, [["open", 1000], ["log"]]);
  assert.deepEqual(f.kept, ["log after 1 calls"]);
});

test("a frame sent goes to the table as JSON with the time, and its answer comes back", async () => {
  const f = fixture({ receive: [{ frames: [{ type: "ack", id: "c1" }, state(2)], wake: null }] });
  f.transport.open((frame) => f.frames.push(frame), () => {});
  await f.settle();
  const command = { type: "command", id: "c1", command: { type: "pass", seat: 0 } };
  assert.equal(f.transport.send(command), true);
  await f.settle();
  assert.deepEqual(f.calls.find(([m]) => m === "receive"), ["receive", JSON.stringify(command), 1000]);
  assert.deepEqual(f.frames.slice(-2), [{ type: "ack", id: "c1" }, state(2)]);
});

test("the table is woken at the time it names, and only the latest wake-up counts", async () => {
  const f = fixture({
    open: [{ frames: [state(1)], wake: 1500 }],
    receive: [{ frames: [state(2)], wake: 1800 }],
    advance: [{ frames: [state(3)], wake: null }],
  });
  f.transport.open((frame) => f.frames.push(frame), () => {});
  await f.settle();
  f.transport.send({ type: "sync" });
  await f.settle();
  await f.runTimers(1600); // the first wake-up was replaced: nothing yet
  assert.equal(f.calls.filter(([m]) => m === "advance").length, 0);
  await f.runTimers(1800);
  assert.deepEqual(f.calls.filter(([m]) => m === "advance"), [["advance", 1800]]);
  assert.deepEqual(f.frames.at(-1), state(3));
});

test("an answer with no frames keeps nothing, and a closed table is neither sent to nor woken", async () => {
  const f = fixture({ open: [{ frames: [], wake: 1200 }] });
  f.transport.open((frame) => f.frames.push(frame), () => {});
  await f.settle();
  assert.deepEqual(f.kept, []);
  f.transport.close();
  assert.equal(f.transport.send({ type: "sync" }), false);
  await f.runTimers(5000);
  assert.deepEqual(f.calls, [["open", 1000]]);
});

test("再来一局 asks the table for a new match with the new seed", async () => {
  const f = fixture({ rematch: [{ frames: [state(1)], wake: null }] });
  f.transport.open(() => {}, () => {});
  await f.settle();
  f.transport.rematch("c0ffee");
  await f.settle();
  assert.deepEqual(f.calls.find(([m]) => m === "rematch"), ["rematch", "c0ffee", 1000]);
});
