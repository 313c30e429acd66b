// The browser tests' view of a live table (never shipped: loaded in place of the page's
// /js/table-state.js by an import map that tests/e2e/probe.py puts in the tests' pages only). It
// is the app's own reducer, imported under another URL, with two additions:
//
//   window.__table                 the table's latest state, as the reducer made it (view, seat,
//                                  moves, hand, check, pending, connected, settled, frames …)
//   window.__tamper(command)       the next move the player sends (出牌, 不要, a word) goes out as
//                                  `command` instead, unchecked: a tampered client, whose refusal
//                                  by the server the page must show, and then resynchronise
import * as real from "./table-state.js#real";

export * from "./table-state.js#real";

let tampered = null;
window.__tamper = (command) => {
  tampered = command;
};

export function initialState(init) {
  window.__table = real.initialState(init);
  return window.__table;
}

export function reduce(state, event) {
  if (tampered && (event.type === "send" || event.type === "pass")) {
    event = { type: "dispatch", command: tampered };
    tampered = null;
  }
  const out = real.reduce(state, event);
  window.__table = out.state;
  return out;
}
