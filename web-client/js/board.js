// The table drawn from an engine view: the seats around the table (board-seat.js), whose turn it
// is, the trick in the centre with what the centre says of it, each side's figures, and what
// everyone knows about the hand. Used by the live table (a seat or a spectator) and by the replay
// (every hand open); the score sheet is drawn from the same view (score-sheet.js). Everything
// comes from `view()`, and every name from the game's words (`ctx.words`, words.js): its own view
// keys are drawn as its words present them — roles and marks as badges on seats, an auction as
// each seat's last word, figures per seat, facts, named cards and earned score lines in the
// centre. A key the words do not name is shown by its own name (game-extras.js), so a game added
// to the engine shows here with no new code.

import { cardRow, cardText } from "./cards.js";
import { h, patch } from "./dom.js";
import { seatBox } from "./board-seat.js";
import { gameExtras } from "./game-extras.js";
import { t } from "./i18n.js";
import { positions, seatName } from "./seating.js";
import {
  fill,
  keyName,
  kindName,
  phaseName,
  pick,
  reasonName,
  suitName,
  turnLine,
  valueName,
} from "./words.js";
import { seatToMove } from "./table-phases.js";

function centerMessage(ctx) {
  const view = ctx.view;
  if (ctx.waiting || (view.phase === "commit" && !view.hand_no)) return t("waitingPlayers");
  if (view.phase === "commit" || view.phase === "seeding") return t("dealing");
  if (view.phase === "play") {
    if (view.turn === ctx.me) return view.lead ? t("yourTurn") : t("yourLead");
    if (!view.lead) return t("newTrick", { name: seatName(ctx, view.turn) });
    return t("theirTurn", { name: seatName(ctx, view.turn) });
  }
  const seat = seatToMove(view);
  const words = ctx.words ?? {};
  const line = seat === null ? null : turnLine(words, view.phase, seat === ctx.me, seatName(ctx, seat));
  return line ?? phaseName(words, view.phase);
}

/** The centre's list of what everyone knows about this hand, as the game's words tell it: the
 * cards named in public, the seats public facts point at, the score lines earned so far, the
 * game's other facts. */
function announcementsOf(ctx, extras) {
  const view = ctx.view;
  const words = ctx.words ?? {};
  const out = [];
  for (const [key, template] of Object.entries(words.card_facts ?? {})) {
    if (view[key]) out.push(h("li", { dataset: { key } }, fill(pick(template), { card: cardText(view[key]) })));
  }
  for (const [key, name] of Object.entries(words.card_sets ?? {})) {
    const cards = view[key];
    if (Array.isArray(cards) && cards.length) {
      out.push(h("li.card-set", { dataset: { key } }, `${pick(name, key)}${t("colon")}${cards.map(cardText).join(" ")}`));
    }
  }
  for (const [key, name] of Object.entries(words.seat_facts ?? {})) {
    if (typeof view[key] === "number") out.push(h("li", { dataset: { key } }, `${pick(name, key)}${t("colon")}${seatName(ctx, view[key])}`));
  }
  for (const [key, name] of Object.entries(words.lines ?? {})) {
    // one line per payee and reason: every payer's share summed
    const earned = [];
    for (const line of view[key] ?? []) {
      const last = earned.at(-1);
      if (last && last.reason === line.reason && last.payee === line.payee) last.amount += line.amount;
      else earned.push({ ...line });
    }
    for (const e of earned) {
      out.push(
        h("li.earned", { dataset: { key }, title: pick(name) }, `${reasonName(words, e.reason)} · ${seatName(ctx, e.payee)} +${e.amount}`),
      );
    }
  }
  for (const [key, value] of extras.facts) {
    out.push(h("li", { dataset: { key } }, `${keyName(words, key)}${t("colon")}${valueName(words, key, value)}`));
  }
  return out;
}

/** The whole board into `el`. `ctx`: {view, words, config, me, bottom, names, kinds, openHands,
 * memory, turnSince, mySlot, bigKinds} — words are the game's (words.js), mySlot is the live
 * table's own hand and controls, bigKinds the combination kinds seen beating another kind. */
export function renderBoard(el, ctx) {
  const view = ctx.view;
  const n = view.players;
  const bottom = ctx.bottom ?? ctx.me ?? 0;
  const where = positions(n, bottom);
  const extras = gameExtras(view, ctx.words ?? {});
  const announcements = announcementsOf(ctx, extras);
  const seats = [];
  for (let seat = 0; seat < n; seat++) {
    if (seat === ctx.me && ctx.mySlot) continue;
    seats.push(seatBox(ctx, seat, where[seat], extras));
  }
  const lead = view.lead;
  patch( // only what changed since the last frame is drawn again
    el,
    h(
      "div.board",
      { dataset: { players: n, phase: view.phase, turn: view.turn ?? "", me: ctx.me ?? "", version: view.version } },
      seats,
      h(
        "div.center",
        null,
        sidesPanel(ctx),
        h("p.center-message#center-message", null, centerMessage(ctx)),
        lead ? leadRow(ctx, lead) : null,
        lead ? leadInfo(ctx, lead) : null,
        announcements.length ? h("ul.announcements", null, announcements) : null,
      ),
      ctx.me !== null && ctx.me !== undefined && ctx.mySlot ? mySeat(ctx, extras) : null,
    ),
  );
  // my slot (my hand and my buttons: the page's own, marked data-keep, which patch leaves where it
  // is) in my seat, and nowhere else
  const mine = el.querySelector(".seat.mine");
  for (const kept of el.querySelectorAll("[data-keep]")) if (kept !== ctx.mySlot || !mine) kept.remove();
  if (mine && ctx.mySlot && ctx.mySlot.parentNode !== mine) mine.append(ctx.mySlot);
}

/** What the centre says of the trick: who led, the kind and the led suit (a game of tricks names
 * it), the cards, and whose play is on top so far (when the game's words say where). */
function leadInfo(ctx, lead) {
  const words = ctx.words ?? {};
  const suit = lead.suit === undefined ? null : suitName(words, lead.suit);
  const topKey = words.trick?.top;
  const top = topKey ? ctx.view[topKey] : null;
  return h(
    "p.lead-info",
    { dataset: { big: ctx.bigKinds?.has(lead.kind) ? "1" : "" } },
    `${seatName(ctx, lead.seat)} · `,
    h("span.lead-kind-name", null, kindName(words, lead.kind)),
    lead.said ? h("span.lead-said", null, ` ${lead.said}`) : null, // the set with its wildcards as what they stood for
    suit ? [" · ", h("span.lead-suit", { dataset: { suit: String(lead.suit) } }, t("ledSuit", { suit }))] : null,
    h("span.lead-cards", null, ` · ${lead.cards.map(cardText).join(" ")}`),
    typeof top === "number" ? [" · ", h("span.trick-top", { dataset: { seat: String(top) } }, t("onTop", { name: seatName(ctx, top) }))] : null,
  );
}

/** Each side's figures (its level, its points), for every side at all times: side i is the
 * seats s with s % count === i; the viewer's own side first, each named by its seats. */
export function sidesPanel(ctx) {
  const view = ctx.view;
  const words = ctx.words ?? {};
  const keys = Object.keys(words.side_figures ?? {}).filter(
    (key) => Array.isArray(view[key]) && view[key].length > 1 && view[key].every((v) => typeof v === "number"),
  );
  if (!keys.length) return null;
  const count = view[keys[0]].length;
  const mine = typeof ctx.me === "number" ? ctx.me % count : 0;
  const order = Array.from({ length: count }, (_, i) => (mine + i) % count);
  return h(
    "div.side-panel",
    { role: "group", "aria-label": t("bothSides") },
    order.map((side) => {
      const seats = Array.from({ length: view.players }, (_, s) => s).filter((s) => s % count === side);
      const label = typeof ctx.me === "number" ? (side === mine ? t("ourSide") : t("theirSide")) : seats.map((s) => String(s + 1)).join("·");
      return h(
        "div.side",
        { dataset: { side: String(side), mine: typeof ctx.me === "number" && side === mine ? "1" : "" }, title: seats.map((s) => seatName(ctx, s)).join(" · ") },
        h("span.side-name", null, label),
        keys.map((key) => h("span.side-figure", { dataset: { key } }, `${keyName(words, key)} `, h("b", null, String(view[key][side])))),
      );
    }),
  );
}

/** The play on top of the trick, in the centre; a big play (a kind the engine let beat a play of
 * another kind, as `ctx.bigKinds` learnt it) is marked. */
function leadRow(ctx, lead) {
  const row = cardRow(lead.cards, "center-lead");
  row.dataset.seat = String(lead.seat);
  row.dataset.kind = lead.kind ?? "";
  row.dataset.big = ctx.bigKinds?.has(lead.kind) ? "1" : "";
  row.dataset.id = `${lead.seat}:${lead.cards.join(",")}`; // another play: another element (dom.js patch)
  return row;
}

function mySeat(ctx, extras) {
  const seat = ctx.me;
  const box = seatBox(ctx, seat, "bottom", extras);
  box.classList.add("mine");
  return box; // the page's own slot goes in after the patch (renderBoard)
}
