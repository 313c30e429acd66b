// The hand-by-hand score table of a match: every hand scored so far (GET /api/tables/{id}/hands:
// each hand's `hand_ended` — its payment lines and scores — and the running totals after it).
// Reachable at any time from the table page (the 比分表 button opens it over the table) and drawn
// into the match-over sheet. A finished table's hands never change: they are fetched once.

import * as api from "./api.js";
import { seatName } from "./seating.js";
import { clear, h } from "./dom.js";
import { both, t } from "./i18n.js";
import { signed } from "./ui.js";
import { reasonName } from "./words.js";

const finished = new Map(); // table id: the hands of a finished table (a promise)

/** The hands of a table: fetched afresh while it plays, once when it is over (a practice table's,
 * `source.hands()`, always afresh: its next match is played under the same id). */
export function loadHands(tableId, over = false, source = null) {
  if (source) return source.hands();
  const known = finished.get(tableId);
  if (known) return known;
  const promise = api.hands(tableId);
  if (over) {
    finished.set(tableId, promise);
    promise.catch(() => finished.delete(tableId));
  }
  return promise;
}

/** The seats with the best of these numbers (nobody when all are equal): the ★ 赢家. */
export function bestSeats(values) {
  const best = Math.max(...values);
  return values.some((v) => v !== best) ? new Set(values.flatMap((v, seat) => (v === best ? [seat] : []))) : new Set();
}

/** The table itself (its class names are its own — hand-score, running-total, entry-lines —
 * so that nothing of the hand's own sheet drawn beside it is counted twice): a row per hand (its score per seat), a row of running totals under it,
 * and the hand's payment and result lines. `ctx` names the seats (seating.js seatName). */
export function scoreTable(data, ctx) {
  const n = data.totals.length;
  const seats = Array.from({ length: n }, (_, seat) => seat);
  if (!data.hands.length) return h("p.muted.score-table-empty", null, t("scoreTableEmpty"));
  // a game whose hands give no scores (the view's `result` has none) shows
  // each hand's result lines only, with no rows of scores and no crown
  const scored = !ctx.view?.result || "scores" in ctx.view.result;
  const winners = data.finished && scored ? bestSeats(data.totals) : new Set();
  const cell = (value, kind, seat) =>
    h(`td.num.${kind}`, { dataset: { seat, sign: Math.sign(value) } }, signed(value));
  const lines = (hand) => {
    const words = ctx.words ?? {};
    const items = [
      ...(hand.lines ?? []).map((line) =>
        h(
          "li",
          null,
          h("span.entry-reason", null, reasonName(words, line.reason)),
          h("span", null, t("pays", { payer: seatName(ctx, line.payer), payee: seatName(ctx, line.payee) })),
          h("b", null, String(line.amount)),
        ),
      ),
      ...(hand.results ?? []).map((line) =>
        h("li", null, h("span.entry-reason", null, reasonName(words, line.reason)), h("span", null, seatName(ctx, line.seat)), h("b", null, String(line.value))),
      ),
    ];
    return items.length
      ? h("tr.lines-row", { dataset: { hand: hand.hand_no } }, h("td", { colSpan: n + 1 }, h("ul.entry-lines", null, items)))
      : null;
  };
  return h(
    "div.score-table-wrap",
    null,
    h(
      "table.scores.score-table#score-table",
      { dataset: { hands: data.hands.length, finished: data.finished ? "1" : "" } },
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, t("handCol")),
          seats.map((seat) =>
            h("th.num", { dataset: { seat } }, winners.has(seat) ? h("span.crown", { title: t("winner") }, "★ ") : null, seatName(ctx, seat)),
          ),
        ),
      ),
      h(
        "tbody",
        null,
        data.hands.map((hand) => [
          h(
            "tr.hand-row",
            { dataset: { hand: hand.hand_no } },
            h("th", { scope: "row" }, t("handNo", { n: hand.hand_no })),
            seats.map((seat) => (scored ? cell(hand.scores[seat], "hand-score", seat) : h("td"))),
          ),
          scored
            ? h("tr.total-row", { dataset: { hand: hand.hand_no } }, h("th", { scope: "row" }, t("runningTotal")), seats.map((seat) => cell(hand.totals[seat], "running-total", seat)))
            : null,
          lines(hand),
        ]),
      ),
    ),
  );
}

/** An element that fills itself with the table's score table (for the match-over sheet). */
export function scoreTableHost(tableId, ctx, over) {
  const host = h("section.score-table-host", { "aria-label": t("scoreTable") }, h("h3", null, t("scoreTable")), h("p.muted", null, t("loading")));
  loadHands(tableId, over, ctx.source)
    .then((data) => clear(host, h("h3", null, t("scoreTable")), scoreTable(data, ctx)))
    .catch((err) => clear(host, h("p.error", null, `${t("errorPrefix")}${both(err)}`)));
  return host;
}

/** The score table over the table page, until closed (its button, Escape, a click outside). */
export function openScoreTable(tableId, ctx) {
  document.querySelector(".score-dialog")?.remove();
  const closeBtn = h("button.button#score-table-close", { type: "button" }, t("close"));
  const body = h("div.score-dialog-body", null, h("p.muted", null, t("loading")));
  const dialog = h(
    "div.sheet-backdrop.score-dialog",
    { role: "dialog", "aria-modal": "true", "aria-label": t("scoreTable") },
    h("section.score-sheet.score-table-sheet", null, h("h2", null, t("scoreTable")), body, h("div.sheet-actions", null, closeBtn)),
  );
  const close = () => {
    dialog.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e) => {
    if (e.key === "Escape") close();
  };
  closeBtn.addEventListener("click", close);
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) close();
  });
  document.addEventListener("keydown", onKey);
  document.body.append(dialog);
  closeBtn.focus();
  loadHands(tableId, false, ctx.source)
    .then((data) => clear(body, scoreTable(data, ctx)))
    .catch((err) => clear(body, h("p.error", null, `${t("errorPrefix")}${both(err)}`)));
  return close;
}
