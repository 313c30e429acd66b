// The table drawn from an engine view: seats around the table with their card counts, their play
// in the current trick (or their last one, dimmed), whose turn it is, the game's own facts, and
// the score sheet at the end of a hand and of a match. Used by the live table (a seat or a
// spectator) and by the replay (every hand open). Everything comes from `view()`: a game added
// to the engine shows here with no new code, its extra view fields as seat figures or table facts.

import { cardEl, cardRow, cardText } from "./cards.js";
import { clear, h } from "./dom.js";
import {
  answering,
  bidName,
  extraName,
  getLang,
  kindName,
  opennessName,
  phaseName,
  reasonName,
  roleName,
  roles,
  t,
  turnLine,
} from "./i18n.js";
import { clock, signed } from "./ui.js";

// View keys every game has (the core's); any other key is the game's own.
const CORE_KEYS = new Set([
  "game", "variant", "players", "phase", "version", "hand_no", "turn", "leader", "commitment",
  "revealed_seeds", "seat", "counts", "totals", "hand", "hands", "last_hand", "lead", "actions",
  "out", "sides", "benched",
]);
// A game's keys drawn in their own way rather than as a plain fact: seats that hold a role (a
// badge on the seat), the auction (a badge per seat), a called card and the bonuses so far (lines
// in the centre), and the facts the board words itself.
const DRAWN = new Set([
  ...roles(), "bids", "bao", "fanbao", "called_card", "bonus_lines", "limit", "spade_three", "spade_ace",
]);
// The table's own phases, when no seat acts (the deal and its fairness, the end of a hand); in
// every other phase `turn` names the seat to move (to play, to bid, to call a card).
const TABLE_PHASES = new Set(["commit", "seeding", "reveal", "over"]);
const HAND_OVER_PHASES = new Set(["reveal", "commit", "over"]);

/** The seat that must act now, or null while the table deals or scores. */
export function seatToMove(view) {
  return !view || TABLE_PHASES.has(view.phase) ? null : (view.turn ?? null);
}

/** Whether the view shows a hand just scored (its sheet is due): as the engine's `view()` opens
 * every hand. */
export function handOver(view) {
  return !!view?.last_hand && HAND_OVER_PHASES.has(view.phase);
}

/** Where each seat sits, seen from `bottom`: seats are numbered in the order of play, and play
 * goes counterclockwise, so the next seat (下家) sits on the right. */
export function positions(players, bottom) {
  const layout = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "right", "left"],
    4: ["bottom", "right", "top", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
    6: ["bottom", "right", "top-right", "top", "top-left", "left"],
  }[players] ?? Array.from({ length: players }, (_, i) => (i ? `top` : "bottom"));
  const out = [];
  for (let seat = 0; seat < players; seat++) out[seat] = layout[(seat - bottom + players) % players];
  return out;
}

export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  const name = ctx.names?.[seat] || t("seatN", { n: seat + 1 });
  if (seat !== ctx.me) return name;
  return getLang() === "zh" ? `${name}（${t("you")}）` : `${name} (${t("you")})`;
}

/** Remembers each seat's last play across tricks (the view only holds the current trick). */
export class PlayMemory {
  constructor() {
    this.handNo = null;
    this.last = [];
  }

  update(view) {
    if (view.hand_no !== this.handNo) {
      this.handNo = view.hand_no;
      this.last = [];
    }
    (view.actions ?? []).forEach((action, seat) => {
      if (action !== null && action !== undefined) this.last[seat] = action;
    });
  }
}

function gameExtras(view) {
  const perSeat = [];
  const facts = [];
  for (const [key, value] of Object.entries(view)) {
    if (CORE_KEYS.has(key) || value === null || value === undefined) continue;
    if (DRAWN.has(key)) continue;
    if (Array.isArray(value) && value.length === view.players && value.every((v) => typeof v === "number")) {
      perSeat.push([key, value]);
    } else if ((typeof value === "number" && value !== 0) || typeof value === "string") {
      facts.push([key, value]); // a count of nothing (本轮牌数 0) is no news
    }
  }
  return { perSeat, facts };
}

function playCards(action, { stale = false } = {}) {
  if (action === null || action === undefined) return null;
  if (action.length === 0) return h("div.play.passed", { dataset: { stale: stale ? "1" : "" } }, t("passed"));
  const row = cardRow(action, "play");
  if (stale) row.classList.add("stale");
  return row;
}

function fact(key, value) {
  if (key === "openness") return opennessName(value);
  return String(value);
}

/** The badges of what a seat is this hand: its role (庄, 朋友), its last word in the auction, and
 * whether it sits the hand out; to yourself, that you hold the called card. */
function roleBadges(ctx, seat) {
  const view = ctx.view;
  const out = [];
  for (const key of roles()) {
    if (view[key] === seat) out.push(h("span.badge.role", { dataset: { role: key } }, roleName(key)));
  }
  const bids = view.bids ?? [];
  const i = bids.findLastIndex(([s]) => s === seat);
  if (i >= 0) {
    const bid = bids[i][1];
    out.push(h("span.badge.bid", { dataset: { bid } }, bidName(bid, { answering: answering(bids, i) })));
  }
  const called = view.called_card;
  if (seat === ctx.me && called && view.partner === null && (view.hand ?? []).includes(called)) {
    out.push(h("span.badge.role.secret", { dataset: { role: "partner-secret" } }, t("secretPartner")));
  }
  if ((view.benched ?? []).includes(seat)) out.push(h("span.badge.benched", null, t("benched")));
  return out;
}

function seatBox(ctx, seat, position, extras) {
  const view = ctx.view;
  const count = view.counts?.[seat];
  const isTurn = seatToMove(view) === seat;
  const outPlace = (view.out ?? []).indexOf(seat);
  const kind = ctx.kinds?.[seat];
  const badges = roleBadges(ctx, seat);
  if (view.phase === "play" && count === 1) badges.push(h("span.badge.alert", null, t("announceOne")));
  else if (view.phase === "play" && count === 2) badges.push(h("span.badge.warn", null, t("announceTwo")));
  if (outPlace >= 0) badges.push(h("span.badge.good", null, t("outPlace", { n: outPlace + 1 })));
  const name = ctx.names?.[seat] ?? "";
  if (kind === "bot" && !/机器人|bot/i.test(name)) badges.push(h("span.badge.bot", null, t("bot")));
  const trick = view.actions?.[seat];
  const current = trick !== null && trick !== undefined;
  const action = current ? trick : ctx.memory?.last?.[seat];
  const open = ctx.openHands?.[seat];
  const isLead = view.lead && view.lead.seat === seat;
  return h(
    `section.seat.pos-${position}`,
    {
      dataset: {
        seat,
        turn: isTurn ? "1" : "",
        me: seat === ctx.me ? "1" : "",
        benched: (view.benched ?? []).includes(seat) ? "1" : "",
      },
      "aria-label": seatName(ctx, seat),
    },
    h(
      "header.seat-head",
      null,
      h("span.avatar", { "aria-hidden": "true", dataset: { kind: kind ?? "" } }, String(seat + 1)),
      h("span.seat-name", null, seatName(ctx, seat)),
      h(
        "span.seat-figures",
        null,
        count !== undefined && view.phase !== "commit"
          ? h("span.count", { title: t("cardsLeft", { n: count }) }, h("span.mini-back", { "aria-hidden": "true" }), h("b", null, String(count)))
          : null,
        h("span.total", { title: t("total") }, signed(view.totals?.[seat] ?? 0)),
      ),
    ),
    badges.length || (isTurn && ctx.turnSince)
      ? h(
          "div.seat-badges",
          null,
          badges,
          isTurn && ctx.turnSince ? h("span.turn-clock", { dataset: { since: String(ctx.turnSince ?? Date.now()) } }, t("thinking", { s: clock(((Date.now() - (ctx.turnSince ?? Date.now())) / 1000)) })) : null,
        )
      : null,
    !open && typeof count === "number" && count > 0 && seat !== ctx.me ? backsRow(count) : null,
    extras.perSeat.length
      ? h(
          "div.seat-stats",
          null,
          extras.perSeat.map(([key, values]) => {
            const limit = key === "lost" && typeof view.limit === "number" ? ` / ${view.limit}` : "";
            return h("span", { dataset: { key } }, `${extraName(key)} ${values[seat]}${limit}`);
          }),
        )
      : null,
    open ? cardRow(open, "open-hand") : null,
    h(
      "div.seat-play",
      { dataset: { current: current ? "1" : "", lead: isLead ? "1" : "" } },
      action !== undefined && action !== null ? playCards(action, { stale: !current }) : null,
      isLead && current ? h("span.lead-kind", null, kindName(view.lead.kind)) : null,
    ),
  );
}

/** A seat's hidden hand: its cards' backs, fanned tight (the count is public, nothing else). */
function backsRow(count) {
  const row = h("div.card-row.backs", { "aria-hidden": "true", style: { "--n": String(Math.max(count, 2)) } });
  for (let i = 0; i < count; i++) row.append(cardEl(null, "small"));
  return row;
}

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
  const line = seat === null ? null : turnLine(view.phase, seat === ctx.me, seatName(ctx, seat));
  return line ?? phaseName(view.phase);
}

/** The centre's list of what everyone knows about this hand: who played ♠3/♠A (大北), the called
 * card (and the partner once it is played), the bonuses earned so far, the game's other facts. */
function announcementsOf(ctx, extras) {
  const view = ctx.view;
  const out = [];
  for (const key of ["spade_three", "spade_ace"]) {
    if (typeof view[key] === "number") {
      out.push(h("li", { dataset: { key } }, `${extraName(key)}：${seatName(ctx, view[key])}`));
    }
  }
  if (view.called_card) {
    out.push(h("li", { dataset: { key: "called_card" } }, t("calledCard", { card: cardText(view.called_card) })));
  }
  if (typeof view.partner === "number") {
    out.push(h("li", { dataset: { key: "partner" } }, `${extraName("partner")}：${seatName(ctx, view.partner)}`));
  }
  // one line per bonus: every payer's share summed for its payee
  const bonuses = [];
  for (const line of view.bonus_lines ?? []) {
    const last = bonuses.at(-1);
    if (last && last.reason === line.reason && last.payee === line.payee) last.amount += line.amount;
    else bonuses.push({ ...line });
  }
  for (const b of bonuses) {
    out.push(h("li.bonus", { dataset: { key: "bonus_lines" } }, `${reasonName(b.reason)} · ${seatName(ctx, b.payee)} +${b.amount}`));
  }
  for (const [key, value] of extras.facts) {
    out.push(h("li", { dataset: { key } }, `${extraName(key)}：${fact(key, value)}`));
  }
  return out;
}

/** The whole board into `el`. `ctx`: {view, config, me, bottom, names, kinds, openHands,
 * memory, turnSince, gameInfo, mySlot} — mySlot is the live table's own hand and controls. */
export function renderBoard(el, ctx) {
  const view = ctx.view;
  const n = view.players;
  const bottom = ctx.bottom ?? ctx.me ?? 0;
  const where = positions(n, bottom);
  const extras = gameExtras(view);
  const announcements = announcementsOf(ctx, extras);
  const seats = [];
  for (let seat = 0; seat < n; seat++) {
    if (seat === ctx.me && ctx.mySlot) continue;
    seats.push(seatBox(ctx, seat, where[seat], extras));
  }
  const lead = view.lead;
  clear(
    el,
    h(
      "div.board",
      { dataset: { players: n, phase: view.phase, turn: view.turn ?? "", me: ctx.me ?? "", version: view.version } },
      seats,
      h(
        "div.center",
        null,
        h("p.center-message#center-message", null, centerMessage(ctx)),
        lead ? cardRow(lead.cards, "center-lead") : null,
        lead
          ? h("p.lead-info", null, `${seatName(ctx, lead.seat)} · ${kindName(lead.kind)} · ${lead.cards.map(cardText).join(" ")}`)
          : null,
        announcements.length ? h("ul.announcements", null, announcements) : null,
      ),
      ctx.me !== null && ctx.me !== undefined && ctx.mySlot ? mySeat(ctx, extras) : null,
    ),
  );
}

function mySeat(ctx, extras) {
  const view = ctx.view;
  const seat = ctx.me;
  const box = seatBox(ctx, seat, "bottom", extras);
  box.classList.add("mine");
  box.append(ctx.mySlot);
  return box;
}

/** The score sheet of the hand that just ended (and the match's totals when it is over). */
export function scoreSheet(ctx, { final = false, actions = [] } = {}) {
  const view = ctx.view;
  const hand = view.last_hand;
  if (!hand) return null;
  const n = view.players;
  const left = view.hands ?? null;
  const rows = [];
  const order = hand.order ?? [];
  const perSeat = gameExtras(view).perSeat; // the game's own counts (得牌) as they were scored
  for (let seat = 0; seat < n; seat++) {
    const place = order.indexOf(seat);
    rows.push(
      h(
        "tr",
        { dataset: { seat } },
        h("th", { scope: "row" }, place === 0 ? h("span.crown", { title: t("winner") }, "★ ") : null, seatName(ctx, seat)),
        h("td.num", null, left ? String(left[seat].length) : String(view.counts?.[seat] ?? "")),
        perSeat.map(([key, values]) => h("td.num", { dataset: { key } }, String(values[seat]))),
        h("td.num.score", { dataset: { sign: Math.sign(hand.scores[seat]) } }, signed(hand.scores[seat])),
        h("td.num.total", { dataset: { sign: Math.sign(view.totals[seat]) } }, signed(view.totals[seat])),
      ),
    );
  }
  const sides = view.sides;
  return h(
    "section.score-sheet#score-sheet",
    { dataset: { final: final ? "1" : "", hand: hand.hand_no }, "aria-label": t("scoreSheet", { n: hand.hand_no }) },
    h("h2", null, final ? t("matchOver") : t("scoreSheet", { n: hand.hand_no })),
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
          perSeat.map(([key]) => h("th.num", null, extraName(key))),
          h("th.num", null, t("thisHand")),
          h("th.num", null, final ? t("finalTotals") : t("total")),
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
              h("span.line-reason", null, reasonName(line.reason)),
              h("span", null, t("pays", { payer: seatName(ctx, line.payer), payee: seatName(ctx, line.payee) })),
              h("b", null, String(line.amount)),
            ),
          ),
        )
      : null,
    sides
      ? h("p.muted", null, getLang() === "zh"
          ? `甲方：${sides.jia.map((s) => seatName(ctx, s)).join("、")}；乙方：${sides.yi.map((s) => seatName(ctx, s)).join("、")}${sides.solo ? "（暗打）" : ""}`
          : `Side A: ${sides.jia.map((s) => seatName(ctx, s)).join(", ")}; side B: ${sides.yi.map((s) => seatName(ctx, s)).join(", ")}${sides.solo ? " (solo)" : ""}`)
      : null,
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

/** Ticks every turn clock on the page once a second. */
export function startClocks() {
  return setInterval(() => {
    for (const el of document.querySelectorAll(".turn-clock[data-since]")) {
      const since = Number(el.dataset.since);
      el.textContent = t("thinking", { s: clock((Date.now() - since) / 1000) });
    }
  }, 1000);
}

export { cardEl };
