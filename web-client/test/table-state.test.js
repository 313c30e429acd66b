// node --test web-client/test/: a live table's state and how frames and the page's events change
// it (js/table-state.js). Each test is a short story: a seat's page opens, the server speaks, the
// player acts; the reducer's effects say what the page must do.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isMyTurn } from "../js/table-queries.js";
import { initialState, reduce } from "../js/table-state.js";

const META = { game: "guanpai", variant: "boke", players: 3, options: {}, status: "playing", seats: [] };
const TOKEN = { seat: 0, token: "tok" };
const PLAYS = [
  { type: "play", seat: 0, cards: ["3S"] },
  { type: "play", seat: 0, cards: ["4H"] },
  { type: "pass", seat: 0 },
];

/** A view of a hand of 关牌 at version `version`, seat 0 to move. */
function view(version, extra = {}) {
  return { game: "guanpai", seat: 0, players: 3, phase: "play", hand_no: 1, turn: 0, version, hand: ["3S", "4H", "9C"], counts: [3, 5, 5], ...extra };
}

/** Events in order from `state`: the last state and every effect on the way. */
function run(state, ...events) {
  const effects = [];
  for (const event of events) {
    const out = reduce(state, event);
    assert.notEqual(out.state, undefined);
    state = out.state;
    effects.push(...out.effects);
  }
  return { state, effects };
}

const types = (effects) => effects.map((e) => e.type);
const sent = (effects) => effects.filter((e) => e.type === "send").map((e) => e.frame);

/** A seat's page with the table's entry, its socket open and welcomed, and `v` shown (the engine
 * not ready: the server's moves stand). */
function seated(v = view(1), moves = PLAYS) {
  const start = initialState({ idPrefix: "c-t", token: TOKEN, now: 100 });
  const opened = run(start, { type: "meta", meta: META }, { type: "link", link: "open", hello: true }, { type: "frame", frame: { type: "welcome", seat: 0 } });
  const framed = reduce(opened.state, { type: "frame", frame: { type: "state", view: v, moves }, at: 200 });
  const work = framed.effects.find((e) => e.type === "work");
  return reduce(framed.state, { type: "worked", view: work.view, previous: work.previous, announce: work.announce, engine: null }).state;
}

/** `seated()`, then the engine ready: the latest view goes through it again (ordered as it came). */
function withEngine() {
  const s = seated();
  const out = reduce(s, { type: "engine_ready" });
  assert.deepEqual(out.effects, [{ type: "work", view: s.view, previous: null, handChanged: true, announce: false }]);
  const engine = { moves: PLAYS, hand: s.view.hand, orderedFor: "1:play" };
  const done = reduce(out.state, { type: "worked", view: s.view, previous: null, announce: false, engine });
  assert.deepEqual(done.effects, []); // nothing to announce again, nothing selected to check
  return done.state;
}

test("the old state is never changed", () => {
  const s = seated();
  const frozen = JSON.stringify(s);
  reduce(s, { type: "select", selected: [0] });
  reduce(s, { type: "frame", frame: { type: "state", view: view(2) } });
  assert.equal(JSON.stringify(s), frozen);
});

test("hello and welcome: public frames wait until my seat is welcomed", () => {
  let s = initialState({ idPrefix: "c-t", token: TOKEN });
  s = reduce(s, { type: "link", link: "open", hello: true }).state;
  assert.equal(s.hello, true);
  assert.equal(s.connected, true);
  // the socket starts as a spectator's: its public view and welcome are not mine
  let out = reduce(s, { type: "frame", frame: { type: "state", view: view(1, { seat: null, hand: null }) } });
  assert.equal(out.state.view, null);
  assert.deepEqual(out.effects, []);
  out = reduce(out.state, { type: "frame", frame: { type: "welcome", seat: null } });
  assert.equal(out.state.hello, true);
  out = reduce(out.state, { type: "frame", frame: { type: "welcome", seat: 0 } });
  assert.equal(out.state.hello, false);
  assert.equal(out.state.seat, 0);
  assert.equal(out.state.frames, 3);
});

test("a refused hello: the public view, asked for again, as a spectator sees it", () => {
  const s = reduce(initialState({ idPrefix: "c-t", token: TOKEN }), { type: "link", link: "open", hello: true }).state;
  const out = reduce(s, { type: "frame", frame: { type: "error", code: "unauthorized", zh: "无权", en: "no" } });
  assert.equal(out.state.hello, false);
  assert.equal(out.state.token, null); // a stale token: watch instead
  assert.deepEqual(sent(out.effects), [{ type: "sync" }]);
  assert.deepEqual(types(out.effects), ["send", "toast"]);
});

test("a state frame: shown, worked on by the engine, then mine to act on", () => {
  const start = run(initialState({ idPrefix: "c-t", token: TOKEN }), { type: "meta", meta: META }, { type: "link", link: "open", hello: false });
  const v = view(1);
  const out = reduce(start.state, { type: "frame", frame: { type: "state", view: v, moves: PLAYS, deadline: 5000 }, at: 300 });
  assert.equal(out.state.view, v);
  assert.equal(out.state.working, true);
  assert.equal(isMyTurn(out.state), false); // not before its engine work
  assert.equal(out.state.turnSince, 300);
  assert.equal(out.state.deadline, 5000);
  const work = out.effects.find((e) => e.type === "work");
  assert.equal(work.handChanged, true);
  const done = reduce(out.state, { type: "worked", view: v, previous: null, announce: work.announce, engine: null });
  assert.equal(isMyTurn(done.state), true);
  assert.deepEqual(done.state.moves, PLAYS); // the server's, until the engine is ready
  assert.deepEqual(done.state.hand, v.hand);
  assert.deepEqual(types(done.effects), ["announce"]);
});

test("the engine's results: its moves, my hand in its order, the selection kept by card", () => {
  let s = withEngine();
  s = reduce(s, { type: "select", selected: [2] }).state; // 9C
  const v = view(2, { turn: 1 });
  const out = reduce(s, { type: "frame", frame: { type: "state", view: v, moves: [] } });
  assert.equal(out.state.selected.length, 1); // the same hand: the selection stays
  const engine = { moves: [], tracker: { ranks: [] }, passCheck: null, openHands: null, hand: ["9C", "4H", "3S"], orderedFor: "1:play" };
  const done = reduce(out.state, { type: "worked", view: v, previous: s.view, announce: { wasMyTurn: true }, engine });
  assert.deepEqual(done.state.hand, ["9C", "4H", "3S"]);
  assert.deepEqual(done.state.selected, [0]);
  assert.equal(done.state.ordered, true);
  assert.deepEqual(done.state.tracker, { ranks: [] });
});

test("stale frames are ignored: a view's work done after a newer view is on show", () => {
  const s = seated();
  const older = view(2);
  const a = reduce(s, { type: "frame", frame: { type: "state", view: older, moves: PLAYS } });
  const newer = view(3);
  const b = reduce(a.state, { type: "frame", frame: { type: "state", view: newer, moves: PLAYS } });
  const late = reduce(b.state, { type: "worked", view: older, previous: s.view, announce: { wasMyTurn: true }, engine: null });
  assert.equal(late.state, b.state);
  assert.deepEqual(late.effects, []);
});

test("a stale verdict on an older selection is ignored", () => {
  let s = withEngine();
  const first = reduce(s, { type: "select", selected: [0] });
  const second = reduce(first.state, { type: "select", selected: [1] });
  const [older] = first.effects;
  const [newer] = second.effects;
  assert.deepEqual([older.type, older.cards], ["check", ["3S"]]);
  s = reduce(second.state, { type: "checked", seq: older.seq, result: { ok: true, command: PLAYS[0] } }).state;
  assert.equal(s.check, null);
  s = reduce(s, { type: "checked", seq: newer.seq, result: { ok: true, command: PLAYS[1], kind: "single" } }).state;
  assert.deepEqual(s.check.command, PLAYS[1]);
});

test("before the engine is ready, a selection that is one of the server's plays may go", () => {
  const s = reduce(seated(), { type: "select", selected: [1] });
  assert.deepEqual(s.effects, []);
  assert.deepEqual(s.state.check, { ok: true, command: PLAYS[1], kind: null });
  const wrong = reduce(s.state, { type: "toggle", index: 0 }).state; // 3S and 4H: no such play
  assert.equal(wrong.check.ok, false);
});

test("hints cycle through the legal plays; none says so", () => {
  let s = seated();
  s = reduce(s, { type: "hint" }).state;
  assert.deepEqual(s.selected, [0]);
  s = reduce(s, { type: "hint" }).state;
  assert.deepEqual(s.selected, [1]);
  s = reduce(s, { type: "hint" }).state;
  assert.deepEqual(s.selected, [0]);
  const none = reduce({ ...s, moves: [PLAYS[2]] }, { type: "hint" }).state;
  assert.equal(none.message.key, "noPlays");
  assert.deepEqual(reduce(s, { type: "clear" }).state.selected, []);
});

test("a move is sent once, with an id, and pending until its ack", () => {
  let s = reduce(seated(), { type: "select", selected: [0] }).state;
  const out = reduce(s, { type: "send", command: s.check.command });
  const [frame] = sent(out.effects);
  assert.deepEqual(frame, { type: "command", id: "c-t-1", command: PLAYS[0] });
  assert.equal(out.state.pending, "c-t-1");
  assert.equal(out.state.message.key, "sending");
  // nothing else goes while it is pending
  assert.deepEqual(reduce(out.state, { type: "pass" }).effects, []);
  s = reduce(out.state, { type: "frame", frame: { type: "ack", id: "other" } }).state;
  assert.equal(s.pending, "c-t-1");
  s = reduce(s, { type: "frame", frame: { type: "ack", id: "c-t-1" } }).state;
  assert.equal(s.pending, null);
});

test("a move is not sent off my turn, nor without a link", () => {
  const s = seated();
  assert.deepEqual(reduce({ ...s, view: view(1, { turn: 2 }) }, { type: "send", command: PLAYS[0] }).effects, []);
  const closed = reduce(s, { type: "link", link: "closed", final: false }).state;
  assert.equal(closed.link, "closed");
  assert.deepEqual(reduce(closed, { type: "send", command: PLAYS[0] }).effects, []);
  assert.deepEqual(reduce(closed, { type: "talk", word: "hi" }).effects, []);
});

test("a pass clears the selection it leaves in the hand", () => {
  const s = reduce(seated(), { type: "select", selected: [0, 2] }).state;
  const out = reduce(s, { type: "pass" });
  assert.deepEqual(sent(out.effects)[0].command, { type: "pass", seat: 0 });
  assert.deepEqual(out.state.selected, []);
});

test("a busy table: the same command resent with the same id, at most three times", () => {
  let s = reduce(seated(), { type: "pass" }).state;
  const id = s.pending;
  const busy = { type: "error", id, code: "overloaded", retry_after: 2, zh: "忙", en: "busy" };
  for (let attempt = 0; attempt < 3; attempt++) {
    const out = reduce(s, { type: "frame", frame: busy });
    assert.deepEqual(out.effects, [{ type: "retry", id, attempt, retryAfter: 2 }]);
    const due = reduce(out.state, { type: "retry_due", id });
    assert.deepEqual(sent(due.effects), [{ type: "command", id, command: { type: "pass", seat: 0 } }]);
    s = due.state;
  }
  // the fourth: refused, shown, and the view asked for again
  const out = reduce(s, { type: "frame", frame: busy });
  assert.equal(out.state.pending, null);
  assert.deepEqual(types(out.effects), ["toast", "send"]);
  // a resend due after its command was answered sends nothing
  assert.deepEqual(reduce(out.state, { type: "retry_due", id }).effects, []);
});

test("a refusal: shown with its code, a sync, and the next view says it is the server's again", () => {
  const s = reduce(seated(), { type: "pass" }).state;
  const error = { type: "error", id: s.pending, code: "not_in_hand", zh: "没有这张牌", en: "not in hand" };
  const out = reduce(s, { type: "frame", frame: error });
  assert.deepEqual(out.state.message, { kind: "error", key: "refused", error, code: "not_in_hand" });
  assert.deepEqual(sent(out.effects), [{ type: "sync" }]);
  assert.deepEqual(out.effects[0], { type: "toast", error, refused: true });
  const resynced = reduce(out.state, { type: "frame", frame: { type: "state", view: view(1), moves: PLAYS } }).state;
  assert.equal(resynced.message.resynced, true);
  assert.equal(resynced.message.code, "not_in_hand");
  // kept until the next event, then gone
  const kept = reduce(resynced, { type: "frame", frame: { type: "state", view: view(2), moves: PLAYS } }).state;
  assert.equal(kept.message.keep, false);
  assert.equal(reduce(kept, { type: "frame", frame: { type: "state", view: view(3), moves: PLAYS } }).state.message, null);
});

test("an unchecked command (托管, 继续) goes as it is, off my turn too", () => {
  const s = { ...seated(), view: view(1, { turn: 1 }) };
  const out = reduce(s, { type: "dispatch", command: { type: "set_auto", seat: 0, on: true } });
  assert.equal(out.state.pending, "c-t-1");
  assert.deepEqual(sent(out.effects)[0].command, { type: "set_auto", seat: 0, on: true });
});

test("a word said goes with an id of its own and holds nothing up", () => {
  const out = reduce(seated(), { type: "talk", word: "hurry" });
  assert.deepEqual(sent(out.effects), [{ type: "command", id: "c-t-1", command: { type: "talk", seat: 0, talk: "hurry" } }]);
  assert.equal(out.state.pending, null);
});

test("the table gone: said once, then nothing more", () => {
  const s = seated();
  const gone = { type: "error", code: "table_expired", zh: "过期", en: "expired" };
  const out = reduce(s, { type: "frame", frame: gone });
  assert.deepEqual(out.effects, [{ type: "gone", error: gone }]);
  assert.deepEqual(reduce(out.state, { type: "gone", error: gone }).effects, []);
});

test("the link: a drop forgets the pending command; a finished table's close is quiet", () => {
  const s = reduce(seated(), { type: "pass" }).state;
  const dropped = reduce(s, { type: "link", link: "closed", final: false }).state;
  assert.deepEqual([dropped.connected, dropped.link, dropped.pending], [false, "closed", null]);
  const quiet = reduce(s, { type: "link", link: "closed", final: true }).state;
  assert.deepEqual([quiet.connected, quiet.link], [false, "open"]);
  assert.equal(reduce(dropped, { type: "link", link: "connecting" }).state.link, "connecting");
});

test("the match over, and 再来一局 put to me", () => {
  const s = seated();
  const over = reduce(s, { type: "frame", frame: { type: "over", totals: [1, 2, 3] } });
  assert.deepEqual(over.state.over.totals, [1, 2, 3]);
  assert.deepEqual(over.effects, []);
  const asked = reduce(over.state, { type: "frame", frame: { type: "rematch", rematch: "r1" } });
  assert.deepEqual(asked.effects, [{ type: "offer_rematch", id: "r1" }]);
  const offered = reduce(asked.state, { type: "rematch_offer", table: { id: "r1", seats: [] } }).state;
  assert.equal(offered.meta.rematch, "r1");
  assert.deepEqual(reduce(offered, { type: "frame", frame: { type: "rematch", rematch: "r1" } }).effects, []);
  assert.equal(reduce(offered, { type: "rematch_declined" }).state.rematchOffer.declined, true);
  // a later over frame asks at once, the rematch being known
  assert.deepEqual(reduce(offered, { type: "frame", frame: { type: "over" } }).effects, []);
  const known = { ...s, meta: { ...META, rematch: "r2" } };
  assert.deepEqual(reduce(known, { type: "frame", frame: { type: "over" } }).effects, [{ type: "offer_rematch", id: "r2" }]);
});

test("news: a play that beat another kind is big, and its kind stays big", () => {
  const before = view(4, { turn: 1, lead: { seat: 0, kind: "pair", cards: ["5S", "5H"] }, actions: [["5S", "5H"], null, null], counts: [3, 5, 5] });
  const after = view(5, { turn: 2, lead: { seat: 1, kind: "four", cards: ["7S", "7H", "7C", "7D"] }, actions: [["5S", "5H"], ["7S", "7H", "7C", "7D"], null], counts: [3, 1, 5] });
  const s = { ...seated(), view: before };
  const framed = reduce(s, { type: "frame", frame: { type: "state", view: after, moves: [] } });
  const work = framed.effects.find((e) => e.type === "work");
  const done = reduce(framed.state, { type: "worked", view: after, previous: work.previous, announce: work.announce, engine: null });
  const announce = done.effects.find((e) => e.type === "announce");
  assert.deepEqual(announce.news, { plays: [1], passes: [], big: true, ended: false });
  assert.deepEqual(done.state.bigKinds, ["four"]);
});

test("the sort, the tracker, a card picked: remembered, and the hand ordered again", () => {
  const s = seated();
  const sorted = reduce(s, { type: "sort" });
  assert.equal(sorted.state.sortMode, "count");
  assert.deepEqual(sorted.effects, [{ type: "store", key: "paiju.sort", value: "count" }, { type: "order", cards: s.view.hand }]);
  const selected = reduce(sorted.state, { type: "select", selected: [0] }).state;
  assert.deepEqual(reduce(selected, { type: "ordered", hand: ["9C", "4H", "3S"] }).state.selected, [2]);
  const tracker = reduce(s, { type: "tracker" });
  assert.equal(tracker.state.trackerOn, true);
  assert.deepEqual(tracker.effects, [{ type: "store", key: "paiju.tracker", value: "1" }]);
  assert.equal(reduce(s, { type: "call_pick", card: "AS" }).state.callPick, "AS");
  assert.equal(reduce(s, { type: "dismiss_sheet", handNo: 1 }).state.dismissedHand, 1);
});

test("a seat taken: hello with its token, and the next frames wait for the welcome", () => {
  const s = reduce(initialState({ idPrefix: "c-t" }), { type: "link", link: "open", hello: false }).state;
  const out = reduce(s, { type: "sat", seat: 2, token: "new" });
  assert.deepEqual(sent(out.effects), [{ type: "hello", token: "new" }]);
  assert.deepEqual(out.state.token, { seat: 2, token: "new" });
  assert.equal(out.state.hello, true);
});

test("a reading chosen: checked with it, and sent when the engine allows it", () => {
  let s = reduce(withEngine(), { type: "select", selected: [0] }).state;
  const asked = reduce(s, { type: "reading", reading: { kind: "single" } });
  const [check] = asked.effects;
  assert.deepEqual([check.type, check.play, check.cards], ["check", true, ["3S"]]);
  const out = reduce(asked.state, { type: "checked", seq: check.seq, result: { ok: true, command: PLAYS[0] }, play: true });
  assert.deepEqual(sent(out.effects)[0].command, PLAYS[0]);
});

test("meta: the table's config comes from its entry; a frame after the deal asks for the seats", () => {
  const s = reduce(initialState({ idPrefix: "c-t" }), { type: "meta", meta: { ...META, status: "open" } }).state;
  assert.deepEqual(s.config, { game: "guanpai", variant: "boke", players: 3, options: {} });
  const out = reduce(s, { type: "frame", frame: { type: "state", view: view(1, { seat: null, hand: null }) } });
  assert.deepEqual(types(out.effects), ["refresh_meta", "work"]);
  assert.deepEqual(reduce(s, { type: "nonsense" }).state, s);
});
