// A view's engine work at a live table: the seat's state rebuilt from the view in the worker
// (paiju.client.state_from_view), its legal moves, the 记牌器, the verdict on a pass, and the hand
// in the game's order. Until the engine is ready there is none (the reducer then takes the
// server's moves); when it becomes ready the latest view goes through here again.

import { myTurnInView, spokenOf } from "./table-queries.js";

/** @typedef {import("./table-state.js").TableState} TableState */

/** The worker's legal moves must be the server's: both come from the same view.
 * @param {any[]} mine @param {any[] | null} theirs */
function crossCheck(mine, theirs) {
  if (!theirs) return;
  const key = (/** @type {any[]} */ list) => list.map((m) => JSON.stringify(m)).sort().join("|");
  if (key(mine) !== key(theirs)) {
    console.error("the engine worker and the server disagree on the legal moves", { mine, theirs });
  }
}

/** My hand in the game's order (as it came, if the engine cannot say).
 * @param {any} seatEngine @param {string[]} cards @param {string} mode */
export async function orderHand(seatEngine, cards, mode) {
  try {
    return await seatEngine.order(cards, mode);
  } catch {
    return [...cards];
  }
}

/** The engine's results for `view` (shown in `s`, the state as its frame left it), for the
 * reducer's `worked` event. The hand is ordered when it changed and at each new phase, where the
 * order can change with the hand unchanged (what was bid or shown fixes it when its round ends).
 * @param {any} seatEngine @param {TableState} s @param {any} view @param {boolean} handChanged */
export async function engineWork(seatEngine, s, view, handChanged) {
  const out = { moves: [], tracker: null, passCheck: null, passless: false, openHands: null, hand: null, orderedFor: "" };
  if (view.hands) out.openHands = await Promise.all(view.hands.map((/** @type {string[]} */ cards) => seatEngine.order(cards)));
  if (view.seat !== null) {
    const info = await seatEngine.view(view);
    out.moves = info.moves;
    out.tracker = info.tracker ?? null;
    if (s.settled) crossCheck(info.moves, s.serverMoves);
    if (myTurnInView(s) && !spokenOf(info.moves).length) {
      out.passCheck = await seatEngine.check(null);
      out.passless = out.passCheck?.error?.code === "unknown_command";
    }
  }
  const orderFor = `${view.hand_no}:${view.phase}`;
  if (view.hand && (handChanged || !s.ordered || s.orderedFor !== orderFor)) {
    out.hand = await orderHand(seatEngine, view.hand, s.sortMode);
    out.orderedFor = orderFor;
  }
  return out;
}
