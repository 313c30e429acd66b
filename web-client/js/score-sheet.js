// The score sheet of the hand that just ended, drawn from the view: each seat's cards left, the
// game's own counts, the hand's score and the running total (only where the view's `result` has
// scores), the payments and results, each side's figures, the groups of seats, the hands left.

import { cardRow } from "./cards.js";
import { h } from "./dom.js";
import { sidesPanel } from "./board.js";
import { gameExtras } from "./game-extras.js";
import { getLang, t } from "./i18n.js";
import { seatName } from "./seating.js";
import { signed } from "./ui.js";
import { keyName, pick, reasonName } from "./words.js";

/** The groups of seats a finished hand shows under its score sheet (who was with whom): each
 * member named with its seats, a flag that holds by its name. */
function groupLines(ctx) {
  const zh = getLang() === "zh";
  const out = [];
  for (const [key, members] of Object.entries(ctx.words?.groups ?? {})) {
    const value = ctx.view[key];
    if (!value) continue;
    const parts = [];
    const flags = [];
    for (const [member, name] of Object.entries(members)) {
      const got = value[member];
      if (Array.isArray(got)) parts.push(`${pick(name, member)}${zh ? "：" : ": "}${got.map((s) => seatName(ctx, s)).join(zh ? "、" : ", ")}`);
      else if (got === true) flags.push(zh ? `（${pick(name, member)}）` : ` (${pick(name, member)})`);
    }
    out.push(h("p.muted", { dataset: { key } }, `${parts.join(zh ? "；" : "; ")}${flags.join("")}`));
  }
  return out;
}

/** The score sheet of the hand that just ended (and the match's totals when it is over). */
export function scoreSheet(ctx, { final = false, actions = [] } = {}) {
  const view = ctx.view;
  const hand = view.last_hand;
  if (!hand) return null;
  const n = view.players;
  const left = view.hands ?? null;
  const rows = [];
  const words = ctx.words ?? {};
  const perSeat = gameExtras(view, words).perSeat; // the game's own counts as they were scored
  // the hand's record (the view's `result`, as its game declares it): one with scores has the
  // columns of the hand's score and the running total; one without has its
  // result lines only, and no crown
  const scored = !view.result || "scores" in view.result;
  // the crown (赢家) marks the best score: on the match's last sheet the best total (the match's
  // winner, whoever went out first), on a hand's sheet the hand's best score; nobody on a draw
  const marks = scored ? (final ? view.totals : hand.scores) : [];
  const best = Math.max(...marks);
  const crowned = (seat) => marks.some((v) => v !== best) && marks[seat] === best;
  const draw = marks.length > 0 && marks.every((v) => v === best); // nobody crowned: say why
  for (let seat = 0; seat < n; seat++) {
    rows.push(
      h(
        "tr",
        { dataset: { seat, winner: crowned(seat) ? "1" : "" } },
        h("th", { scope: "row" }, crowned(seat) ? h("span.crown", { title: t("winner") }, "★ ") : null, seatName(ctx, seat)),
        h("td.num", null, left ? String(left[seat].length) : String(view.counts?.[seat] ?? "")),
        perSeat.map(([key, values]) => h("td.num", { dataset: { key } }, String(values[seat]))),
        scored ? h("td.num.score", { dataset: { sign: Math.sign(hand.scores[seat]) } }, signed(hand.scores[seat])) : null,
        scored ? h("td.num.total", { dataset: { sign: Math.sign(view.totals[seat]) } }, signed(view.totals[seat])) : null,
      ),
    );
  }
  return h(
    "section.score-sheet#score-sheet",
    { dataset: { final: final ? "1" : "", hand: hand.hand_no }, "aria-label": t("scoreSheet", { n: hand.hand_no }) },
    h("h2", null, final ? t("matchOver") : t("scoreSheet", { n: hand.hand_no })),
    draw ? h("p.draw#draw", null, final ? t("matchDraw") : t("handDraw")) : null,
    final && hand.hand_no > 1 ? h("p.muted", null, t("scoreSheet", { n: hand.hand_no })) : null,
    h(
      "table.scores",
      null,
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, t("seat")),
          h("th.num", null, t("left")),
          perSeat.map(([key]) => h("th.num", null, keyName(words, key))),
          scored ? h("th.num", null, t("thisHand")) : null,
          scored ? h("th.num", null, final ? t("finalTotals") : t("total")) : null,
        ),
      ),
      h("tbody", null, rows),
    ),
    hand.lines?.length
      ? h(
          "ul.score-lines",
          null,
          hand.lines.map((line) =>
            h(
              "li",
              null,
              h("span.line-reason", null, reasonName(words, line.reason)),
              h("span", null, t("pays", { payer: seatName(ctx, line.payer), payee: seatName(ctx, line.payee) })),
              h("b", null, String(line.amount)),
            ),
          ),
        )
      : null,
    // what the hand gives that is not a payment (levels, tribute, 番): "reason · seat value"
    hand.results?.length
      ? h(
          "ul.score-lines.result-lines",
          null,
          hand.results.map((line) =>
            h(
              "li",
              null,
              h("span.line-reason", null, reasonName(words, line.reason)),
              h("span", null, seatName(ctx, line.seat)),
              h("b", null, String(line.value)),
            ),
          ),
        )
      : null,
    sidesPanel(ctx),
    groupLines(ctx),
    left
      ? h(
          "div.left-hands",
          null,
          left.map((cards, seat) => (cards.length ? h("div.left-hand", null, h("span", null, seatName(ctx, seat)), cardRow(cards)) : null)),
        )
      : null,
    actions.length ? h("div.sheet-actions", null, actions) : null,
  );
}
