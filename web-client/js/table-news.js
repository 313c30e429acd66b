// What the event between two views did, read from the views alone (no DOM): the seats that played
// (a seat's count fell and its play is on the table) or passed, a big play, whether a hand just
// ended. The table sounds, speaks and moves cards from it (table-announce.js).

import { handOver } from "./table-phases.js";

/** @typedef {{plays: number[], passes: number[], big: boolean, ended: boolean}} News */

/** The news between `previous` and `view`, and the kinds of combination known to be big after
 * it: a play is big when the engine let it beat a play of another kind (the trick's top changed
 * kind), and every later play of that kind is big too. `bigKinds` is not changed.
 * @param {any} previous @param {any} view @param {string[]} bigKinds
 * @returns {{news: News, bigKinds: string[]}} */
export function whatHappened(previous, view, bigKinds) {
  /** @type {News} */
  const news = { plays: [], passes: [], big: false, ended: handOver(view) && !handOver(previous) };
  if (!previous || previous.hand_no !== view.hand_no) return { news, bigKinds };
  (view.actions ?? []).forEach((action, seat) => {
    const before = previous.actions?.[seat];
    const fell = (previous.counts?.[seat] ?? 0) - (view.counts?.[seat] ?? 0);
    if (Array.isArray(action) && action.length && fell > 0) news.plays.push(seat);
    else if (Array.isArray(action) && action.length === 0 && !(Array.isArray(before) && before.length === 0)) news.passes.push(seat);
  });
  const lead = view.lead;
  const was = previous.lead;
  let kinds = bigKinds;
  const beatAcross = lead && was && lead.kind && was.kind && lead.kind !== was.kind && news.plays.includes(lead.seat);
  if (beatAcross && !kinds.includes(lead.kind)) kinds = [...kinds, lead.kind];
  news.big = !!lead && news.plays.includes(lead.seat) && kinds.includes(lead.kind);
  return { news, bigKinds: kinds };
}
