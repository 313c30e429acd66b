// The score sheet over a live table: a hand's (继续, with who is still to press it) and the
// match's (再来一局, the replay, the lobby, and the hand-by-hand score table). It opens once the
// table's own steps after the hand's end are done (its seed revealed, then the next deal
// committed to, or the match ended), when it is known whether the match goes on: a last hand's
// sheet opens as the match's end, never as a hand's sheet with 继续 that turns into it a moment
// later. Drawn again only when what it shows changed.

import { scoreSheet } from "./score-sheet.js";
import { seatName } from "./seating.js";
import { countdown } from "./turn-clocks.js";
import { handOver } from "./table-phases.js";
import { clear, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { rematchControls } from "./room.js";
import { scoreTableHost } from "./scores.js";

/** @typedef {import("./table-state.js").TableState} TableState */
/** @typedef {{state: TableState, ctx: any}} SheetModel */

/**
 * The sheet of table `tableId` (`source`: a practice table's, else null). `press(handNo)`: 继续
 * pressed (a spectator's closes the sheet); `decline()`: the rematch put to me declined.
 * @param {string} tableId @param {import("./table.js").TableSource | null} source
 * @param {{press: (handNo: number) => void, decline: () => void}} actions
 */
export function createSheet(tableId, source, { press, decline }) {
  const el = h("div.sheet-host");
  let finalScores = null; // the match-over sheet's score table (fetched once)
  /** @type {any[]} */
  let drawn = [];

  /** Between hands: 继续 sends my Continue (the next deal waits for every person's, or for its
   * deadline), with who is still to press it.
   * @param {TableState} s @param {any} ctx @param {number} handNo */
  function continueControls(s, ctx, handNo) {
    const ready = s.view.ready ?? [];
    const waitingFor = ctx.kinds.map((/** @type {string} */ kind, /** @type {number} */ seat) => (kind === "human" && !ready.includes(seat) ? seatName(ctx, seat) : null)).filter(Boolean);
    const done = s.seat !== null && !!s.token && ready.includes(s.seat);
    return [
      h("button.button.primary#continue", { type: "button", disabled: done || !s.settled, on: { click: () => press(handNo) } }, done ? t("continueDone") : t("continue")),
      waitingFor.length ? h("span.continue-waiting", null, t("continueWaiting", { names: waitingFor.join(t("listSep")) })) : null,
      s.deadline && s.deadlineSeat === null ? countdown(s.deadline, "nextHandIn") : null,
    ];
  }

  /** @param {SheetModel} model */
  function render({ state: s, ctx }) {
    const view = s.view;
    if (!view) return;
    const inputs = [view, s.over, s.rematchOffer, s.dismissedHand, s.openHands, s.meta, s.settled, s.seat, s.token, s.deadline, getLang()];
    if (inputs.every((x, i) => x === drawn[i])) return;
    drawn = inputs;
    const ended = handOver(view) && (view.phase === "seeding" || view.phase === "over");
    const final = view.phase === "over" || !!s.over;
    const handNo = view.last_hand?.hand_no;
    if (!final) finalScores = null; // a practice table's next match is played under the same id
    if (!ended || (!final && s.dismissedHand === handNo)) {
      clear(el);
      el.hidden = true;
      return;
    }
    const seated = s.seat !== null && !!s.token;
    const offer = s.rematchOffer && { ...s.rematchOffer, onDecline: decline };
    const buttons = final && source
      ? practiceEndControls(tableId, source)
      : final
      ? [
          rematchControls(tableId, s.meta, seated, offer),
          h(`a.button${s.seat !== null ? "" : ".primary"}#open-replay`, { href: `#/replay/${tableId}` }, t("viewReplay")),
          h("a.button", { href: "#/" }, t("backToLobby")),
        ]
      : continueControls(s, ctx, handNo);
    const sheet = scoreSheet({ ...ctx, view: { ...view, hands: s.openHands ?? view.hands } }, { final, actions: buttons });
    if (final && sheet) sheet.append(finalScores ??= scoreTableHost(tableId, ctx, true)); // under 再来一局
    el.hidden = false;
    clear(el, h("div.sheet-backdrop", null, sheet));
  }

  return { el, render, forget: () => (drawn = []) };
}

/** A practice match's end: 再来一局 at the same table, its replay (from the log kept in this
 * browser), the log saved as a file (for the verify page or `paiju audit`), the lobby.
 * @param {string} tableId @param {import("./table.js").TableSource} source */
function practiceEndControls(tableId, source) {
  const saveLog = async () => {
    const text = await source.log();
    const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })), download: "paiju-practice.jsonl" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  return [
    h("button.button.primary#rematch", { type: "button", on: { click: () => source.rematch() } }, t("rematch")),
    h("a.button#open-replay", { href: `#/replay/${tableId}` }, t("viewReplay")),
    h("button.button#export-log", { type: "button", on: { click: saveLog } }, t("exportLog")),
    h("a.button", { href: "#/" }, t("backToLobby")),
  ];
}
